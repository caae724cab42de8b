"""Vadhan-Zhang Equation (19) (its tag was lost in the conversion; the text cites "(19) is because"): when the
mechanism's message comes first, specifying a deterministic adversary B is specifying B_{a1} for every a1, so
the sup over B is a sup over the product set of the (B_{a1})_{a1}.

Checked exactly: for random mechanism-first mechanisms, the deterministic adversaries -- enumerated as every
function from the adversary's decision points (histories) to messages, identified by behaviour
(Definition 4.1's enumeration) -- are exactly the tuples of such adversaries of the continuations M_a1; and
the sup over B of the ChainRule values equals the sup over the product set.
"""

from __future__ import annotations

import itertools

from .._framework import Proof, statement
from . import _games as G
from . import _tradeoff as T
from .definition_4_1 import behaviours
from .equation_18 import answer_first


@statement(
    "Equation (19)",
    "sup_B ChainRule_{A1,A'1}((D(View(B_a1 <-> M_a1(x)), ..))_a1) = sup_{(B_a1)_a1} ChainRule_{A1,A'1}((D(..))_a1): B is "
    "the tuple (B_a1)_a1 of continuation adversaries.",
)
def equation(p: Proof) -> None:
    n = 0
    for tree in answer_first(p):
        subs = [behaviours(child)[0] for _, _, _, child in tree[1]]
        prod = list(itertools.product(*subs))
        whole = behaviours(tree)[0]
        n += 1
        if not p.require(set(prod) == whole and len(prod) == len(whole), "B <-> (B_a1)_a1", f"tree={tree}"):
            return
        lhs = T.envelope(T.tradeoff(G.view_pairs(tree, s)) for s in G.strategies(tree))
        rhs = T.envelope(T.chain_rule([(p0, p1, T.tradeoff(G.view_pairs(ch, sb)))
                                       for (_, p0, p1, ch), sb in zip(tree[1], combo)]) for combo in prod)
        n += 1
        if not p.require(T.equal(lhs, rhs), "sup over B = sup over the product set", f"tree={tree}"):
            return
    p.instances("random mechanism-first mechanisms: the adversaries are the product of the continuation adversaries, "
                "and the two sups coincide", n, "exhaustive")
