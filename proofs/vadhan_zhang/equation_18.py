"""Vadhan-Zhang Equation (18): when the mechanism speaks first, for every adversary B,
D(View(B <-> M(x)), View(B <-> M(x'))) = ChainRule_{A_1, A'_1}((D(View(B_{a1} <-> M_{a1}(x)), View(B_{a1} <-> M_{a1}(x'))))_{a1}).

Checked exactly for D = T on random mechanism-first finite mechanisms, for every deterministic adversary:
the trade-off function of the whole view equals formula (9) applied to the first-answer laws and the
trade-off functions of the continuation views.
"""

from __future__ import annotations

from .._crosscheck import FAILED, crosschecked
from .._framework import Proof, statement
from . import _games as G
from . import _tradeoff as T


def answer_first(p: Proof):
    """Mechanism-first trees: one round with 2-3 answers, or two rounds with 2 answers."""
    out = []
    for k in range(8 if p.full else 3):
        out.append(G.rand_tree(p.rng, 1, first="A", na=3) if k % 2 else G.rand_tree(p.rng, 2, first="A", na=2))
    return out


@statement(
    "Equation (18)",
    "sup_B D(View(B <-> M(x)), View(B <-> M(x'))) = sup_B ChainRule_{A_1,A'_1}((D(View(B_a1 <-> M_a1(x)), "
    "View(B_a1 <-> M_a1(x'))))_a1).",
    library=("exactdp.interactive.mechanism_tradeoff",),
)
def equation(p: Proof) -> None:
    from ._library import library_profile, to_lib

    n = n_lib = 0
    for tree in answer_first(p):
        rhs = []
        for s in G.strategies(tree):
            rhs.append(T.chain_rule([(p0, p1, T.tradeoff(G.view_pairs(child, sub)))
                                     for (a, p0, p1, child), sub in zip(tree[1], s)]))
        lm = p.library("exactdp InteractiveMechanism", to_lib, tree)
        if lm is not FAILED:
            n_lib += library_profile(p, lm, T.envelope(rhs), "sup_B of the right side of (18)", str(tree), ("dp",))
        for s in G.strategies(tree):
            whole = T.tradeoff(G.view_pairs(tree, s))
            parts = [(p0, p1, T.tradeoff(G.view_pairs(child, sub))) for (a, p0, p1, child), sub in zip(tree[1], s)]
            n += 1
            if not p.require(T.equal(whole, T.chain_rule(parts)), "T(View_B) = ChainRule(T(View_{B_a1}))",
                             f"tree={tree} strategy={s}"):
                return
    p.instances("every deterministic adversary of random mechanism-first mechanisms (1 round with 3 answers, 2 rounds with 2)", n, "exhaustive")
    crosschecked(p, "exactdp mechanism_tradeoff (its dynamic programme) of the same mechanisms equals the sup over "
                 "deterministic adversaries of the right side of (18) (ChainRule of the continuations' T)", n_lib)
