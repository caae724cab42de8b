"""Vadhan-Wang Theorem 1.5 (interactive pure-DP mechanisms are post-processings of RR_eps).

Printed: if M is an interactive (eps, 0)-DP mechanism, then for every adjacent x_0, x_1 there is an
interactive mechanism T such that for every adversary A and b in {0,1},
View(A, M(x_b)) = View(A, T(RR_eps(b))) (identically distributed); T depends on M, x_0, x_1, not on A.

Checked independently of the printed proof (Theorem 5.2's Equations (6)-(9) are checked there):
for random pure-DP mechanisms (1-3 rounds, 1-3 queries, 2-3 answers, full support) and for
'RR then public' mechanisms (tight in round 1), with e^eps their exact least pure parameter and
also a larger one, T-vec is obtained by solving, path by path, the 2x2 system
M-vec(x_b) = sum_c Pr[RR_eps(b) = c] T-vec_c (Definition 5's matrix); T's conditionals are read off
T-vec. T is a valid interactive mechanism (every conditional a distribution; the answer to a query
does not depend on later queries by construction), and for EVERY deterministic adversary
(enumerated) and both b, the adversary's view with T(RR_eps(b)) equals its view with M(x_b), exactly.
Randomized adversaries are mixtures of deterministic ones over their coins, which are part of the view,
so equality for them follows. The statement also holds for eps = 0 (M(x_0), M(x_1) then give the same
views and T = M(x_0) works), which Definition 5 (eps > 0) leaves out.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import FAILED, crosschecked
from .._framework import Proof, statement
from . import _dp as D
from . import _instances as G
from . import _interactive as I
from . import _sim as S


def check_simulator(p: Proof, m: I.Mech, w: F, T: I.Mech, what: str) -> int:
    """Every deterministic adversary, both b: view with T(RR_eps(b)) = view with M(x_b). Returns #comparisons (0: fail)."""
    if not p.require(S.is_valid_mech(T), f"{what}: T is a valid interactive mechanism", f"{m} e^eps={w}"):
        return 0
    R0, R1 = D.rr_eps(w)
    n = 0
    for adv in I.single_adversaries(m):
        for b, Rb in ((0, R0), (1, R1)):
            n += 1
            if not p.require(S.nonzero(I.single_view(m, b, adv)) == S.view_through_rr(T, Rb, adv),
                             f"{what}: View(A, M(x_b)) = View(A, T(RR_eps(b)))", f"{m} e^eps={w} b={b} A={adv}"):
                return 0
    return n


def instances(p: Proof):
    """(M, e^eps): random pure-DP mechanisms at their least e^eps and at 3/2 of it (one 3-round mechanism by default,
    three with --full), and RR-then-public mechanisms (tight in round 1)."""
    out = []
    shapes = [(3, 2, 2)] * (3 if p.full else 1)
    shapes += [p.rng.choice([(2, 2, 2), (2, 1, 3), (1, 3, 3), (2, 2, 3), (1, 2, 2)]) for _ in range(10 if p.full else 4)]
    for i, shape in enumerate(shapes):
        m, w = G.pure_mech(p.rng, shape)
        if w > 1:
            out.append((m, w))
            if shape[0] < 3 or p.full:
                out.append((m, w * F(3, 2)))
    for w in (F(2), F(3, 2)):
        out.append((G.rr_then_public(p.rng, w), w))
    # the whole range of eps: a nearly identical pair (e^eps = 1 + O(10^-6)) and a very large e^eps
    m = I.random_mech(p.rng, 2, 2, 2, zeros=False)
    lam = F(1, 10 ** 6)
    near = {0: m.cond[0], 1: {h: {a: (1 - lam) * m.cond[0][h][a] + lam * m.cond[1][h][a] for a in m.answers}
                              for h in m.cond[1]}}
    m2 = I.Mech(m.queries, m.answers, near, "Near")
    out.append((m2, I.pure_w(m2)))
    m3, w3 = G.pure_mech(p.rng, (2, 2, 2))
    out.append((m3, w3 * 1000))
    return out


@statement(
    "Theorem 1.5",
    "If M is an interactive (eps, 0)-DP mechanism, then for every adjacent x_0, x_1 there is an interactive mechanism T "
    "with View(A, M(x_b)) = View(A, T(RR_eps(b))) for every adversary A and b in {0, 1}.",
    library=("exactdp.interactive.rr_simulator", "exactdp.interactive.verify_simulation"),
)
def theorem(p: Proof) -> None:
    n = n_lib = n_ver = 0
    for m, w in instances(p):
        n_lib += library_simulator(p, m, w)
        T = S.solve_T(m, w)
        if not p.require(T is not None, "the solved T-vec is non-negative", f"{m} e^eps={w}"):
            return
        c = check_simulator(p, m, w, T, "solved T")
        if not c:
            return
        n += c
        n_ver += library_verify(p, m, w, T)
    # eps = 0: identical views, T = M(x_0)
    m0 = I.random_mech(p.rng, 2, 2, 2)
    m0 = I.Mech(m0.queries, m0.answers, {0: m0.cond[0], 1: m0.cond[0]})
    for adv in I.single_adversaries(m0):
        n += 1
        if not p.require(I.single_view(m0, 0, adv) == I.single_view(m0, 1, adv), "eps = 0: equal views", f"{m0}"):
            return
    p.instances("T-vec solved path by path from Definition 5's matrix: valid interactive T, and for every "
                "deterministic adversary and b the views with T(RR_eps(b)) and M(x_b) are equal (random pure "
                "mechanisms with up to 3 rounds and 3 queries/answers, at their least e^eps and at 3/2 of it; RR-then-public "
                "mechanisms; a nearly identical pair with e^eps = 1 + O(10^-6); one at 1000 times its least e^eps)",
                n, "exhaustive")
    crosschecked(p, "exactdp rr_simulator(M, e^eps), read back as a mechanism on the same histories, gives View(A, "
                 "T(RR_eps(b))) = View(A, M(x_b)) for every deterministic adversary A and b (the independent check)",
                 n_lib)
    crosschecked(p, "exactdp verify_simulation(M, T, e^eps') on the T solved here, at e^eps' = e^eps (accepts) and "
                 "e^eps' = 2 e^eps, equals the independent view comparison at e^eps' (every deterministic adversary, "
                 "both b)", n_ver)


def _views_agree(m: I.Mech, w: F, T: I.Mech) -> bool:
    R0, R1 = D.rr_eps(w)
    return all(S.nonzero(I.single_view(m, b, adv)) == S.view_through_rr(T, Rb, adv)
               for adv in I.single_adversaries(m) for b, Rb in ((0, R0), (1, R1)))


def library_verify(p: Proof, m: I.Mech, w: F, T: I.Mech) -> int:
    """exactdp's verify_simulation on the independently solved T, at e^eps and at 2 e^eps (where T(RR) no longer
    matches M), against the independent view comparison. Returns the number of comparisons."""
    from exactdp.interactive import verify_simulation

    from ._library import to_lib

    lm, lt = to_lib(m), to_lib(T, labels=("0", "1"))
    n = 0
    for ww in (w, 2 * w):
        n += p.agree(p.library("exactdp verify_simulation", verify_simulation, lm, lt, ww), _views_agree(m, ww, T),
                     "exactdp verify_simulation (against the independent view comparison)", f"{m} T={T} e^eps={ww}")
    return n


def library_simulator(p: Proof, m: I.Mech, w: F) -> int:
    """exactdp's rr_simulator for (m, e^eps), judged by the independent view comparison (a failure is a library
    issue). Returns 1 when compared."""
    from exactdp.interactive import rr_simulator

    from ._library import from_lib, to_lib

    T = p.library("exactdp rr_simulator", lambda: from_lib(rr_simulator(to_lib(m), w), m))
    if T is FAILED:
        return 0
    R0, R1 = D.rr_eps(w)
    ok = all(S.nonzero(I.single_view(m, b, adv)) == S.view_through_rr(T, Rb, adv)
             for adv in I.single_adversaries(m) for b, Rb in ((0, R0), (1, R1)))
    p.agree(ok, True, "exactdp rr_simulator (View(A, T(RR_eps(b))) = View(A, M(x_b)) for every adversary)",
            f"{m} e^eps={w}")
    return 1
