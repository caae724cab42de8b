"""Kairouz-Oh-Viswanath Theorem 3.5 (heterogeneous composition).

Printed (display lost; transcribed from ../shared/papers/README.md): mechanisms
(eps_l, delta_l), l = 1..k, compose under k-fold adaptive composition to
(eps~, 1 - (1-delta~) prod_l (1-delta_l))-DP for every delta~ in (0,1], with
eps~ = min{ sum eps_l, sum (e^{eps_l}-1) eps_l/(e^{eps_l}+1)
+ sqrt(2 sum eps_l^2 log(e + sqrt(sum eps_l^2)/delta~)),
sum (e^{eps_l}-1) eps_l/(e^{eps_l}+1) + sqrt(2 sum eps_l^2 log(1/delta~)) }.

Checked (certified, Arb) against the exact worst case (the product of the Section 6.1
mechanisms with parameters (eps_l, delta_l); the heterogeneous converse is the same
argument as Theorem 3.3's, whose steps are checked in Equations (36)-(38)): mixtures
of two or three distinct eps_l with multiplicities up to 40 (--full 120), eps_l from
1/100 to 5, delta~ from 1 to 1e-30; and, since the square-root terms are a central-limit
bound whose worst cases are many small eps_l, k from 400 to 4000 (--full 20000) with one
dominant group of small eps_l, delta~ down to 1e-30 (issue 27: without them the check
missed the 2 dropped under either root). Every point is decided, including those where
eps~ = sum eps_l (an earlier version skipped them as "exactly 0", trusting the transcription
of the first candidate). The delta part exactly on small products.
Library cross-check: exactdp's kov35_bound encloses the same eps~.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import FAILED, crosschecked, meets_ball
from .._framework import Proof, statement
from . import _bounds as B
from . import _common as C
from ._arb import A, at_prec

#: The stated range "for every delta~ in (0,1]" and any k: the square-root terms are a central-limit bound, so the
#: worst cases are many small eps_l (k in the thousands) at small delta~; one dominant group keeps the exact
#: hockey-stick cheap (a product over the groups' flip counts).
LARGE = [
    [(F(1, 10), 1000)],
    [(F(1, 100), 4000)],
    [(F(1, 2), 400)],
    [(F(1, 10), 600), (F(1), 2)],
]
LARGE_FULL = [[(F(1, 100), 10000)], [(F(1, 1000), 20000)], [(F(1, 20), 2000), (F(1, 2), 8)],
              [(F(1, 10), 1000), (F(1), 3), (F(1, 3), 4)]]
LARGE_DTS = [F(1, 2), F(1, 10 ** 3), F(1, 10 ** 6), F(1, 10 ** 12), F(1, 10 ** 30)]


def large_k(p: Proof) -> bool:
    """The hockey-stick of the worst case at each of the three candidates (each must be a valid eps~ where it is
    the minimum, and the min is what is printed) for k in the thousands."""
    t = B.Tally(p)
    for groups in LARGE + (LARGE_FULL if p.full else []):
        for dt in LARGE_DTS:
            ok, _, text = B.check_rr(lambda: [(A(x), c) for x, c in groups],
                                     lambda: B.ball_min(*B.kov35_terms(groups, dt)), dt)
            if not t.take(ok, "worst-case hockey-stick at e^{eps~} <= delta~ (large k)",
                          f"eps_l groups={[(str(x), c) for x, c in groups]} delta~={B.dec(dt)}: {text}"):
                return False
    t.report("worst-case hockey-stick at e^{eps~} <= delta~, k from 400 to 4000 (--full 20000): one to three groups, "
             "one dominant group of small eps_l, delta~ from 1/2 to 1e-30")
    return True


@statement(
    "Theorem 3.5",
    "(eps_l, delta_l)-DP mechanisms, l = 1..k, compose to (eps~, 1-(1-delta~) prod(1-delta_l))-DP for every "
    "delta~ in (0,1], eps~ = min{sum eps_l, sum (e^eps_l-1)eps_l/(e^eps_l+1) + sqrt(2 sum eps_l^2 log(e + "
    "sqrt(sum eps_l^2)/delta~)), same + sqrt(2 sum eps_l^2 log(1/delta~))}.",
    library=("exactdp.bounds.kov35_bound",),
)
def theorem(p: Proof) -> None:
    from exactdp import Mechanism
    from exactdp.bounds import kov35_bound

    n_lib = 0
    cmax = 120 if p.full else 40
    mixes = [
        [(F(1, 100), 1), (F(1), 1)],
        [(F(1, 10), 3), (F(1, 2), 2)],
        [(F(1, 10), cmax), (F(1), cmax // 4)],
        [(F(1, 2), cmax // 2), (F(2), 3)],
        [(F(1, 100), cmax), (F(1, 10), cmax // 2), (F(1), 2)],
        [(F(1, 5), 5), (F(5), 1)],
        [(F(1, 1000), 7), (F(3), 2), (F(1, 3), 10)],
    ]
    dts = [F(1), F(1, 2), F(1, 10), F(1, 10 ** 3), F(1, 10 ** 6), F(1, 10 ** 30)]
    t = B.Tally(p)
    n_zero = 0
    for gi, groups in enumerate(mixes):
        for dt in dts:
            if dt < 1 and (p.full or gi % 2 == 0):
                ms = [Mechanism(eps=x, delta=F(1, 100) if j == 0 else F(0)) for x, c in groups for j in range(c)]
                inst = f"eps_l groups={[(str(x), c) for x, c in groups]} (one delta_l = 1/100) delta~={B.dec(dt)}"
                b = p.library("exactdp kov35_bound", kov35_bound, ms, 1 - (1 - dt) * F(99, 100) ** len(groups))
                if b is not FAILED:
                    n_lib += 1
                    if not b.applies:
                        p.issue(f"exactdp kov35_bound does not apply on {inst}: {b.reason}")
                    else:
                        meets_ball(p, b.value, at_prec(256, lambda: B.ball_min(*B.kov35_terms(groups, dt))),
                                   "exactdp kov35_bound", inst)
            # eps~ = sum eps_l (certainly the smallest candidate) has hockey-stick exactly 0; decided all the same
            n_zero += at_prec(128, lambda: all(B.kov35_terms(groups, dt)[0] < t for t in B.kov35_terms(groups, dt)[1:]))
            ok, prec, text = B.check_rr(lambda: [(A(x), c) for x, c in groups],
                                        lambda: B.ball_min(*B.kov35_terms(groups, dt)), dt)
            if not t.take(ok, "worst-case hockey-stick at e^{eps~} <= delta~",
                          f"eps_l groups={[(str(x), c) for x, c in groups]} delta~={B.dec(dt)}: {text}"):
                return
    t.report("worst-case heterogeneous hockey-stick at e^{eps~} <= delta~ (mixtures of 2-3 distinct "
             f"eps_l, multiplicities up to {cmax})")
    p.note(f"Of these, {n_zero} points have eps~ = sum eps_l (certainly the smallest candidate; decided all the same).")
    if not large_k(p):
        return
    crosschecked(p, "exactdp kov35_bound at delta_g = 1 - (1-delta~) prod(1-delta_l) (delta~ < 1) encloses the printed "
                 "eps~ (its enclosure meets an independent 256-bit one)", n_lib)
    m = 0
    for _ in range(40 if p.full else 15):
        k = p.rng.randint(1, 4)
        ws = [C.rand_w(p.rng) for _ in range(k)]
        ds = [C.rand_delta(p.rng) for _ in range(k)]
        V0, V1 = C.product([C.kov(w, d) for w, d in zip(ws, ds)])
        R0, R1 = C.product([C.binary_rr(w) for w in ws])
        t = F(p.rng.randint(1, 20), p.rng.randint(1, 5))
        m += 1
        if not p.require(C.hockey(V0, V1, t) == 1 - C.prod(1 - d for d in ds) * (1 - C.hockey(R0, R1, t)),
                         "hockey(prod Section 6.1 mechanisms) = 1 - prod(1-delta_l)(1 - hockey(prod RR))",
                         f"e^eps_l={ws} delta_l={ds} t={t}"):
            return
    p.instances("the delta part: hockey-stick of the heterogeneous product = 1 - prod(1-delta_l)(1 - that of the "
                "randomized responses), exactly", m, "exact")
