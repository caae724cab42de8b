"""Vadhan-Zhang Theorem 4.2 (Theorem 1.4 generalized) and its proof.

Printed: if D has the chain rule, every d the coupling property and (D, <=) is complete, and the
composition of all non-interactive d_i-D DP mechanisms is d-D DP, then the concurrent composition of
interactive d_i-D DP mechanisms is d-D DP.

Checked for D = T along the proof: for random finite interactive M_1, M_2 (d_i their sups), Theorem 4.1's
(Y_j, Y'_j, P_j); for every deterministic concurrent adversary, its view of ConComp(P_1(Y_1), P_2(Y_2))
equals its view of ConComp(M_1, M_2) (both datasets, exactly), and T(view) >= T(Y_1 x Y_2, Y'_1 x Y'_2)
(post-processing) >= d_1 (x) d_2 (the tightest d of the hypothesis). As for Theorem 1.4, only mechanisms
with finite communication can be (and are) checked, although the printed statement does not say so.
"""

from __future__ import annotations

from fractions import Fraction as F
from typing import Dict

from .._framework import Proof, statement
from . import _games as G
from . import _tradeoff as T

ZERO, ONE = F(0), F(1)


def conc_sim_view(cc, nodes, sims, ks, strat) -> Dict[tuple, F]:
    """The view law of ``strat`` (a strategy of cc = concomp(*nodes)) against the concurrent composition of the
    simulations P_j started at outcomes ks[j] of the Y_j."""
    if cc[0] == "E":
        return {(): ONE}
    i, sub = strat
    (j, q), anode = cc[1][i]
    node, sim = nodes[j - 1], sims[j - 1]
    K, sq = sim[1][q]
    child = dict(node[1])[q]                      # the A node of mechanism j after query q
    out: Dict[tuple, F] = {}
    for kk, w in enumerate(K[ks[j - 1]]):
        if not w:
            continue
        a, ci = sq[2][kk]
        idx = next(t for t, ch in enumerate(child[1]) if ch[0] == a)
        nxt_node = child[1][idx][3]
        nxt_sim = sq[1][a]
        cidx = next(t for t, ch in enumerate(anode[1]) if ch[0] == (j, a))
        nodes2 = nodes[:j - 1] + (nxt_node,) + nodes[j:]
        sims2 = sims[:j - 1] + (nxt_sim,) + sims[j:]
        ks2 = ks[:j - 1] + (ci,) + ks[j:]
        for t, v in conc_sim_view(anode[1][cidx][3], nodes2, sims2, ks2, sub[cidx]).items():
            key = ((j, q), (j, a)) + t
            out[key] = out.get(key, ZERO) + w * v
    return out


@statement(
    "Theorem 4.2",
    "If D has the chain rule, every d the coupling property, (D, <=) is complete, and Comp of non-interactive d_i-D DP "
    "mechanisms is always d-D DP, then ConComp of interactive d_i-D DP mechanisms is d-D DP.",
)
def theorem(p: Proof) -> None:
    n = 0
    for r1, r2, nq in [(1, 1, 2), (2, 2, 1)] + ([(1, 2, 2), (2, 1, 2)] if p.full else []):
        trees = tuple(G.rand_tree(p.rng, r, nq=nq) for r in (r1, r2))
        built = [G.build(t, G.tight_rec(t)) for t in trees]
        bound = T.tradeoff(T.product_pairs(*[b[0] for b in built]))
        d = T.tensor(*[G.tight_rec(t) for t in trees])
        if not p.require(T.le(d, bound), "T(Y_1 x Y_2) >= d_1 (x) d_2", f"trees={trees}"):
            return
        cc = G.concomp(*trees)
        for s in G.strategies(cc):
            direct = G.view(cc, s)
            sim = {}
            for k1, (u1, v1) in enumerate(built[0][0]):
                for k2, (u2, v2) in enumerate(built[1][0]):
                    for t, w in conc_sim_view(cc, trees, (built[0][1], built[1][1]), (k1, k2), s).items():
                        acc = sim.setdefault(t, [ZERO, ZERO])
                        acc[0] += u1 * u2 * w
                        acc[1] += v1 * v2 * w
            n += 1
            if not p.require(G.same_view(direct, {t: tuple(v) for t, v in sim.items()}),
                             "ConComp(P_1(Y_1), P_2(Y_2)) reproduces ConComp(M_1, M_2)", f"trees={trees} strategy={s}"):
                return
            if not p.require(T.le(bound, T.tradeoff(direct.values())), "post-processing of (Y_1, Y_2)",
                             f"trees={trees} strategy={s}"):
                return
    p.instances("D = T, k = 2: every deterministic concurrent adversary's view of the simulated composition equals its view "
                "of ConComp(M_1, M_2), and T(view) >= T(Y_1 x Y_2) >= d_1 (x) d_2", n, "exhaustive")
