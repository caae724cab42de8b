"""Vadhan-Zhang Lemma 5.2 (the product of optimal adversaries is optimal against the concurrent composition).

Printed: if B^OPT(i) are optimal alpha-RDP adversaries against M_i, then B^OPT(1) x .. x B^OPT(k) (play
B^OPT(i) against M_i) is an optimal alpha-RDP adversary against ConComp(M_1..M_k).

Checked exactly: random finite mechanisms M_1, M_2; every pair of optimal deterministic adversaries
(all of them), interleaved four ways (sequential, reverse, alternating, adaptive on the last answer):
S_alpha of the product adversary's views equals the maximum over every deterministic concurrent
adversary, alpha in {2, 3, 3/2}.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import FAILED, crosschecked
from .._framework import Proof, statement
from . import _concurrent as C
from . import _games as G
from . import _rdp as Rd
from . import _renyi as R


@statement(
    "Lemma 5.2",
    "If B^OPT(1..k) are optimal alpha-RDP adversaries against M_1..M_k, then B^OPT(1) x .. x B^OPT(k) is an optimal "
    "alpha-RDP adversary against ConComp(M_1..M_k).",
    library=("exactdp.renyi.renyi_concurrent",),
)
def lemma(p: Proof) -> None:
    from exactdp.renyi import renyi_concurrent

    from ._library import renyi_agree, to_lib

    n = n_lib = 0
    for r1, r2, nq in [(1, 1, 2), (1, 2, 2), (2, 2, 1)][: 3 if p.full else 2] + ([(2, 1, 2)] if p.full else []):
        trees = tuple(G.rand_tree(p.rng, r, nq=nq, zeros=False) for r in (r1, r2))
        cc = G.concomp(*trees)
        vs, _ = C.views(cc)
        for a in (2, 3, F(3, 2)):
            best = Rd.smax(Rd.s_view(v, a) for v in vs)
            got = p.library("exactdp renyi_concurrent", renyi_concurrent, [to_lib(t) for t in trees], a)
            if got is not FAILED:
                inst = f"trees={trees} alpha={a}"
                n_lib += renyi_agree(p, got[0], best, a, "exactdp renyi_concurrent (ConComp)", inst)
                for t, part in zip(trees, got[1]):
                    n_lib += renyi_agree(p, part, Rd.opt_value(t, a), a, "exactdp renyi_concurrent (a component)", inst)
            o1, _ = Rd.optimal_strategies(trees[0], a)
            o2, _ = Rd.optimal_strategies(trees[1], a)
            for s1 in o1:
                for s2 in o2:
                    for name, sch in Rd.SCHEDULES.items():
                        st = Rd.product_strategy(trees, (s1, s2), sch)
                        n += 1
                        if not p.require(R.cmp(Rd.s_view(G.view_pairs(cc, st), a), best) == 0,
                                         "the product of optimal adversaries is optimal",
                                         f"alpha={a} trees={trees} B1={s1} B2={s2} schedule={name}"):
                            return
    p.instances("random mechanisms (shapes (1,1), (1,2) rounds), every pair of optimal deterministic adversaries, 4 "
                "interleavings, alpha in {2, 3, 3/2}", n, "exhaustive")
    crosschecked(p, "exactdp renyi_concurrent on the same mechanisms: the optimal adversary's D_alpha against the "
                 "concurrent composition equals the independent maximum over every concurrent adversary, and against "
                 "each component the component's own", n_lib)
