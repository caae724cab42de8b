"""Vadhan-Zhang Equation (21): for every adversary B with first query q_1,
D_alpha(View(B <-> M(x)) || View(B <-> M(x'))) = D_alpha((A_1(q_1), View(B_{q1,A1} <-> M_{q1,A1}(x))) || (A'_1(q_1), ..)).

Checked exactly: for every deterministic adversary of random adversary-first mechanisms, S_alpha of the view
equals sum_a A(a)^alpha A'(a)^(1-alpha) S_alpha(continuation view at a) (the first answer and the rest).
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _games as G
from . import _rdp as Rd
from . import _renyi as R
from .lemma_5_5 import trees


@statement(
    "Equation (21)",
    "D_alpha(View(B <-> M(x))||View(B <-> M(x'))) = D_alpha((A_1(q_1), View(B_{q1,A1} <-> M_{q1,A1}(x))) || "
    "(A'_1(q_1), View(B_{q1,A'1} <-> M_{q1,A'1}(x')))).",
)
def equation(p: Proof) -> None:
    n = 0
    for tree in trees(p):
        for s in G.strategies(tree):
            qi, sub = s
            _, child = tree[1][qi]
            for a in (2, F(3, 2)):
                parts = F(0)
                for (_, p0, p1, g), sg in zip(child[1], sub):
                    t = Rd.term(p0, p1, a)
                    if t != 0:
                        parts = Rd.add(parts, R.mul(t, Rd.s_view(G.view_pairs(g, sg), a)))
                n += 1
                if not p.require(R.cmp(Rd.s_view(G.view_pairs(tree, s), a), parts) == 0, "view = (A_1, continuation)",
                                 f"tree={tree} strategy={s} alpha={a}"):
                    return
    p.instances("every deterministic adversary of random adversary-first mechanisms, alpha in {2, 3/2}", n, "exhaustive")
