"""Vadhan-Zhang Equation (16): View(B <-> M(x)) = View(B <-> P(Y)) (Theorem 4.1's conclusion on x).

Checked on the construction of Theorem 4.1 (D = T) for random finite interactive mechanisms: the view law
of every deterministic adversary against P(Y) equals its law against M(x), exactly.
"""

from __future__ import annotations

from .._framework import Proof, statement
from . import _games as G
from .theorem_4_1 import trees


def check_side(p: Proof, side: int) -> int:
    n = 0
    for tree in trees(p):
        pairs, sim = G.build(tree, G.tight_rec(tree))
        for s in G.strategies(tree):
            direct = {t: v[side] for t, v in G.view(tree, s).items() if v[side]}
            simv = {t: v[side] for t, v in G.simulated_view(tree, pairs, sim, s).items() if v[side]}
            n += 1
            if not p.require(direct == simv, f"view law on x{'`' if side else ''} equals the simulation's",
                             f"tree={tree} strategy={s}"):
                return n
    return n


@statement("Equation (16)", "View(B <-> M(x)) = View(B <-> P(Y)) for every adversary B.")
def equation(p: Proof) -> None:
    p.instances("every deterministic adversary of random and extreme finite mechanisms: the law on x", check_side(p, 0),
                "exhaustive")
