"""Vadhan-Zhang Theorem 1.1 (Vadhan-Wang: concurrent composition of pure-DP interactive mechanisms).

Printed: if for all non-interactive M_i that are (eps_i, 0)-DP their composition is (eps, delta)-DP,
then for all interactive (eps_i, 0)-DP M_i the concurrent composition is (eps, delta)-DP.

Checked on random finite interactive (eps_i, 0)-DP mechanisms (k = 2; eps_i the tight value of each
mechanism for the pair (x, x')): for each global eps tested, delta(eps) = the least delta of the
hypothesis, the hockey-stick divergence of the composition of the two randomized responses
(every (eps_i, 0)-DP non-interactive mechanism is a post-processing of RR_{eps_i}); then every
deterministic concurrent adversary (every interleaving) has views with
max_S Pr[V in S] - e^eps Pr[V' in S] <= delta(eps) in both orders. Cross-check: exactdp's
composed_delta (Murtagh-Vadhan Theorem 1.5) for delta(eps).
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import crosschecked
from .._framework import Proof, statement
from . import _concurrent as C
from . import _games as G
from . import _tradeoff as T


def _lib_delta(ws, ds, wg):
    from exactdp import Mechanism, composed_delta

    return composed_delta([Mechanism(exp_eps=w, delta=d) for w, d in zip(ws, ds)], exp_eps_g=wg, engine="exact").exact


@statement(
    "Theorem 1.1",
    "If Comp(M_1..M_k) of non-interactive (eps_i, 0)-DP mechanisms is always (eps, delta)-DP, then ConComp(M_1..M_k) "
    "of interactive (eps_i, 0)-DP mechanisms is (eps, delta)-DP.",
    library=("exactdp.composed_delta", "exactdp.interactive.compare_concurrent"),
)
def theorem(p: Proof) -> None:
    from ._library import library_concurrent

    n = n_lib = n_cd = 0
    for r1, r2, nq in C.shapes(p):
        for _ in range(2 if p.full else 1):
            trees = [G.rand_dp_tree(p.rng, r, p.rng.choice([F(2), F(3), F(5)]), nq=nq) for r in (r1, r2)]
            ws = [C.pure_w(G.tight_rec(t)) for t in trees]
            comp = T.tensor(*[T.feps(w, 0) for w in ws])
            cc = G.concomp(*trees)
            vs, nb = C.views(cc)
            for wg in sorted({F(1), ws[0], ws[1], ws[0] * ws[1], (1 + ws[0] * ws[1]) / 2}):
                dg = T.delta_for(comp, wg)
                n_cd += p.agree(p.library("exactdp composed_delta", _lib_delta, ws, [0, 0], wg), dg,
                                "exactdp composed_delta", f"ws={ws} w_g={wg}")
                n_lib += library_concurrent(p, trees, vs, wg, None, f"ws={ws} trees={trees}", exp_eps_i=ws, optcomp=dg)
                worst = max(max(T.hockey(v, wg), T.hockey(T.swap(v), wg)) for v in vs)
                n += nb
                if not p.require(worst <= dg, "every concurrent adversary's views are (eps, delta(eps))-close",
                                 f"ws={ws} w_g={wg}: {worst} > {dg}; trees={trees}"):
                    return
    # the family that attains the bound: two randomized responses RR_eps_i (non-interactive), where the concurrent
    # adversary's best view is the product and delta_adversary(eps) = delta_noninteractive(eps) at every e^eps
    n_rr = n_eq = n_pts = 0
    for ws in ([F(2), F(2)], [F(2), F(3)], [F(5, 4), F(4)]):
        trees = [G.noninteractive(((w / (1 + w), 1 / (1 + w)), (1 / (1 + w), w / (1 + w)))) for w in ws]
        comp = T.tensor(*[T.feps(w, 0) for w in ws])
        vs, nb = C.views(G.concomp(*trees))
        for wg in sorted({F(1), ws[0], ws[1], ws[0] * ws[1], (1 + ws[0]) / 2}):
            dg = T.delta_for(comp, wg)
            worst = max(max(T.hockey(v, wg), T.hockey(T.swap(v), wg)) for v in vs)
            n_rr += nb
            n_eq += worst == dg
            n_pts += 1
            if not p.require(worst <= dg, "randomized responses: the adversary's views are (eps, delta(eps))-close",
                             f"RR_eps with e^eps_i = {ws}, w_g = {wg}: {worst} > {dg}"):
                return
    p.instances("the attaining family: two randomized responses RR_eps_i, e^eps_i in {(2, 2), (2, 3), (5/4, 4)}, every "
                "concurrent adversary, e^eps in {1, e^eps_1, e^eps_2, e^(eps_1+eps_2), (1+e^eps_1)/2} (the bound attained "
                f"at {n_eq} of the {n_pts} points)", n_rr,
                "exhaustive")
    p.instances("random interactive (eps_i, 0)-DP mechanisms (k = 2, shapes (rounds, rounds, queries) "
                f"{C.shapes(p)}), every deterministic concurrent adversary, e^eps in {{1, e^eps_1, e^eps_2, "
                "e^(eps_1+eps_2), midpoint}}: delta_adversary(eps) <= delta_noninteractive(eps)", n, "exhaustive")
    crosschecked(p, "exactdp composed_delta of the (e^eps_i, 0) at e^eps equals the tensor's exact delta", n_cd)
    crosschecked(p, "exactdp compare_concurrent on the same mechanisms at each e^eps: its concurrent delta (best "
                 "interleaving adversary) equals the independent worst view, its tensor delta the tensor of the "
                 "mechanisms' own trade-off functions, its e^eps_i the exact pure parameters and its optcomp delta the "
                 "non-interactive composition's", n_lib)
