"""Vadhan-Zhang Equation (23) (Lemma 5.2's proof): with the first query q_1 sent to M_1 and the product of optimal
adversaries afterwards,
argmax_{q1} D_alpha((A_1, View(B^OPT_{q1,A1} <-> ConComp_{q1,A1}(x)))||..) = argmax_{q1} D_alpha((A_1, V_{q1,A1}, V~)||..)
= argmax_{q1} {D_alpha((A_1, V_{q1,A1})||..) + D_alpha(V~||V~')} = argmax_{q1} D_alpha((A_1, V_{q1,A1})||..) = B^OPT(1)'s q_1.

Checked exactly on random pairs of mechanisms (alpha in {2, 3/2}): for each first query (1, q_1), the best
concurrent adversary starting with it (brute force over the concurrent game) has S_alpha equal to
value_1(q_1) * OPT(M_2), value_1 the (22)-quantity of M_1 alone; so the argmax sets coincide and contain
B^OPT(1)'s first query.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _games as G
from . import _rdp as Rd
from . import _renyi as R
from .lemma_5_5 import q_values


@statement(
    "Equation (23)",
    "argmax_{q1} D_alpha((A_1, View(B^OPT_{q1,A1} <-> ConComp_{q1,A1}(x)))||..) = argmax_{q1} {D_alpha((A_1, V_{q1,A1})||..) "
    "+ D_alpha(V~||V~')} = argmax_{q1} D_alpha((A_1, V_{q1,A1})||..) = B^OPT(1).",
)
def equation(p: Proof) -> None:
    n = 0
    for r1, r2 in [(1, 1), (2, 1)] + ([(1, 2), (2, 2)] if p.full else []):
        trees = (G.rand_tree(p.rng, r1, nq=2, zeros=False), G.rand_tree(p.rng, r2, nq=2 if r2 == 1 else 1, zeros=False))
        cc = G.concomp(*trees)
        for a in (2, F(3, 2)):
            v1 = q_values(trees[0], a)
            o2 = Rd.opt_value(trees[1], a)
            for qi, (q, _) in enumerate(trees[0][1]):
                idx = next(k for k, ((j, qq), _) in enumerate(cc[1]) if j == 1 and qq == q)
                best = Rd.smax(Rd.s_view(G.view_pairs(cc, s), a) for s in G.strategies(cc) if s[0] == idx)
                n += 1
                if not p.require(R.cmp(best, R.mul(v1[qi], o2)) == 0, "value with first query (1, q_1) = value_1(q_1) OPT_2",
                                 f"trees={trees} alpha={a} q={q}"):
                    return
            o1, _ = Rd.optimal_strategies(trees[0], a)
            bestv = Rd.smax(v1)
            n += 1
            if not p.require(all(R.cmp(v1[s[0]], bestv) == 0 for s in o1), "B^OPT(1)'s first query is an argmax",
                             f"trees={trees} alpha={a}"):
                return
    p.instances("random pairs of mechanisms (rounds (1,1), (2,1)), every first query to M_1, alpha in {2, 3/2}", n,
                "exhaustive")
