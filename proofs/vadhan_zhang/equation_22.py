"""Vadhan-Zhang Equation (22): for a fixed first query q_1, replacing the continuations by optimal ones cannot
decrease the divergence: D_alpha((A_1, View(B_{q1,A1} ..))||..) <= D_alpha((A_1, View(B^OPT_{q1,A1} ..))||..)
(by Lemma 5.3).

Checked exactly: every deterministic adversary of random adversary-first mechanisms has S_alpha(view) at most
(22)'s value for its own first query.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _games as G
from . import _rdp as Rd
from . import _renyi as R
from .lemma_5_5 import q_values, trees


@statement(
    "Equation (22)",
    "D_alpha((A_1(q_1), View(B_{q1,A1} <-> M_{q1,A1}(x)))||..) <= D_alpha((A_1(q_1), View(B^OPT_{q1,A1} <-> M_{q1,A1}(x)))||..).",
)
def equation(p: Proof) -> None:
    n = 0
    for tree in trees(p):
        for a in (2, 3, F(3, 2)):
            vals = q_values(tree, a)
            for s in G.strategies(tree):
                n += 1
                if not p.require(R.cmp(Rd.s_view(G.view_pairs(tree, s), a), vals[s[0]]) <= 0,
                                 "optimal continuations dominate", f"tree={tree} strategy={s} alpha={a}"):
                    return
    p.instances("every deterministic adversary of random adversary-first mechanisms, alpha in {2, 3, 3/2}", n,
                "exhaustive")
