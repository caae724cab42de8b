"""Kairouz-Oh-Viswanath Equation (41) (proof of Theorem 3.4, Section 7).

Printed (display lost; what survives: "To find the tangent line, we need to maximize the
shift, which is equivalent to moving the line downward until it is tangent to the
boundary of the privacy region", and Appendix B's "Using a similar technique as in (41)"
before a bound that Appendix B then evaluates with a moment generating function):
transcribed as the tangent-line identity for the composed privacy region: for eps~ >= 0
the smallest delta~ with R(M^k) inside R(eps~, delta~) is
delta~ = max_S P0(S) - e^{eps~} P1(S) = sum_x [P0(x) - e^{eps~} P1(x)]^+ = E_{P0}[(1 - e^{eps~ - Z})^+],
Z = log(P0/P1)(X) the privacy loss (the line P_FA + e^{eps~} P_MD = 1 - delta~ touching
the boundary; the mirror line gives the same value for the symmetric composition).

Checked exactly: on random finite pairs, the lowest value of P_FA + e^{eps~} P_MD (and of
e^{eps~} P_FA + P_MD) over the exact hull of the region is 1 minus the hockey-stick in the
corresponding direction, and the region lies in R(eps~, delta~) for that delta~ and not
for any smaller; on the k-fold Section 6.1 mechanism the hockey-stick equals the
expectation form over the privacy loss.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import FAILED, crosschecked
from .._framework import Proof, statement
from . import _common as C


@statement(
    "Equation (41)",
    "The tangent line: the least delta~ with R(M) in R(eps~, delta~) is max_S P0(S) - e^eps~ P1(S) = "
    "sum_x [P0(x) - e^eps~ P1(x)]^+ = E_P0[(1 - e^{eps~ - Z})^+] (display lost; transcribed from the text).",
    library=("exactdp.fdp.tradeoff_of", "exactdp.fdp.TradeOff.delta"),
)
def equation(p: Proof) -> None:
    from exactdp.fdp import tradeoff_of

    def lib_delta(a, b, t):   # T(a, b).delta(t) = sup_S b(S) - t a(S)
        r = p.library("exactdp TradeOff.delta", lambda: tradeoff_of(a, b).delta(exp_eps=t))
        return FAILED if r is FAILED else r.exact

    n = n_lib = 0
    for _ in range(200 if p.full else 60):
        m = p.rng.randint(1, 5)
        p0, p1 = C.rand_dist(p.rng, m), C.rand_dist(p.rng, m)
        t = C.rand_w(p.rng)
        poly = C.hull(C.all_points(p0, p1))
        low1 = min(fa + t * md for md, fa in poly)
        low2 = min(t * fa + md for md, fa in poly)
        d = max(C.hs(p0, p1, t), C.hs(p1, p0, t))
        ok = low1 == 1 - C.hs(p0, p1, t) and low2 == 1 - C.hs(p1, p0, t)
        ok = ok and all(C.in_R(v, t, d) for v in poly)
        if d > 0:
            ok = ok and not all(C.in_R(v, t, d * F(999, 1000)) for v in poly)
        n += 1
        if not p.require(ok, "tangent line touches at 1 - hockey-stick; that delta~ is the least",
                         f"p0={p0} p1={p1} e^eps~={t}"):
            return
        if p.full or n % 2 == 0:
            p.agree(lib_delta(p1, p0, t), C.hs(p0, p1, t), "exactdp TradeOff.delta of T(P1, P0)", f"p0={p0} p1={p1} t={t}")
            p.agree(lib_delta(p0, p1, t), C.hs(p1, p0, t), "exactdp TradeOff.delta of T(P0, P1)", f"p0={p0} p1={p1} t={t}")
            n_lib += 2
    p.instances("random pairs (n <= 5): min over the exact hull of P_FA + e^eps~ P_MD and of e^eps~ P_FA + P_MD are "
                "1 - hockey-stick (each direction); R(M) in R(eps~, delta~) exactly for delta~ >= the larger", n, "exact")
    m = 0
    for k in range(1, 5):
        for w in (F(3, 2), F(3)):
            for d in (F(0), F(1, 10)):
                V0, V1 = C.product([C.kov(w, d)] * k)
                for t in (F(1), w, w ** k / 2 + 1):
                    # E_P0[(1 - t e^{-Z})^+] with e^{-Z} = P1/P0 (Z = +inf where P1 = 0)
                    e = sum((q * max(1 - t * V1[x] / q, F(0)) for x, q in V0.items() if q), F(0))
                    m += 1
                    if not p.require(e == C.hockey(V0, V1, t), "hockey-stick = E_P0[(1 - e^{eps~ - Z})^+]",
                                     f"k={k} e^eps={w} delta={d} t={t}"):
                        return
    p.instances("k-fold Section 6.1 mechanism: sum_x [P0 - t P1]^+ = E_P0[(1 - t e^{-Z})^+], exactly", m, "exact")
    crosschecked(p, "exactdp TradeOff.delta(e^eps~) of T(P1, P0) and of T(P0, P1) (the max of 1 - beta - e^eps~ alpha "
                 "over the tangent line's touching vertex) equals the hockey-stick in each direction", n_lib)
