"""Vadhan-Zhang Equation (20): sup over the product set of ChainRule_{A1,A'1}((T_{a1})_{a1}) =
ChainRule_{A1,A'1}((sup_{B_a1} T(View(B_a1 <-> M_a1(x)), View(B_a1 <-> M_a1(x'))))_{a1}) (continuity in each
variable, applied once per a1).

Checked exactly on random mechanism-first finite mechanisms: the sup (lower convex envelope) over every
tuple of continuation adversaries equals the chain rule of the per-answer sups; and the recursion built
on it (tight_rec) equals the brute-force sup over all adversaries for query-first mechanisms too.
"""

from __future__ import annotations

import itertools

from .._framework import Proof, statement
from . import _games as G
from . import _tradeoff as T
from .equation_18 import answer_first


@statement(
    "Equation (20)",
    "sup_{(B_a1)_a1} ChainRule_{A1,A'1}((D(View(B_a1 <-> M_a1(x)), View(B_a1 <-> M_a1(x'))))_a1) = "
    "ChainRule_{A1,A'1}((sup_{B_a1} D(..))_a1).",
)
def equation(p: Proof) -> None:
    n = 0
    for tree in answer_first(p):
        per = [[T.tradeoff(G.view_pairs(ch, sb)) for sb in G.strategies(ch)] for _, _, _, ch in tree[1]]
        lhs = T.envelope(T.chain_rule([(p0, p1, f) for (_, p0, p1, _), f in zip(tree[1], combo)])
                         for combo in itertools.product(*per))
        rhs = T.chain_rule([(p0, p1, T.envelope(fs)) for (_, p0, p1, _), fs in zip(tree[1], per)])
        n += 1
        if not p.require(T.equal(lhs, rhs), "sup of ChainRule over the product = ChainRule of the sups", f"tree={tree}"):
            return
    for _ in range(8 if p.full else 4):
        tree = G.rand_tree(p.rng, 2, first=p.rng.choice("QA"))
        n += 1
        if not p.require(T.equal(G.tight_rec(tree), G.tight_brute(tree)), "recursion = brute-force sup", f"tree={tree}"):
            return
    p.instances("random mechanism-first mechanisms; and the recursive sup vs the brute-force sup over every adversary",
                n, "exhaustive")
