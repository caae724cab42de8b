"""Vadhan-Zhang Definition 4.1 (finite communication).

Printed: A has finite communication if for every x_A there is c such that for all r_A and messages:
(1) if max{i, |m_1|, .., |m_{i-1}|} > c then A(...) = halt; (2) otherwise the total length of A's messages
is at most c.

What the definition is used for -- an induction on the number of messages, and finitely many
deterministic adversaries -- is checked on the literal coin-based protocols of Definition 1.2: every
execution halts within the bound (both datasets, every coin, every adversary), the number of
deterministic adversaries (distinct behaviours) computed by enumerating every function from reachable
histories to messages equals the product/sum recursion over the game tree (Equation (19)'s product
structure), and is finite.
"""

from __future__ import annotations

import itertools

from .._framework import Proof, statement
from . import _games as G
from .definition_1_2 import adversary_from, rand_protocol, run_literal, to_tree


def behaviours(tree):
    """Distinct deterministic adversaries: functions from the adversary's decision points to messages,
    enumerated over all decision points of the tree, identified by the strategy tree they induce."""
    points = []

    def collect(node, hist):
        if node[0] == "E":
            return
        if node[0] == "Q":
            points.append(hist)
            for q, child in node[1]:
                collect(child, hist + (q,))
        else:
            for a, _, _, child in node[1]:
                collect(child, hist + (a,))

    collect(tree, ())
    seen = set()
    arity = {}

    def arities(node, hist):
        if node[0] == "E":
            return
        if node[0] == "Q":
            arity[hist] = len(node[1])
            for q, child in node[1]:
                arities(child, hist + (q,))
        else:
            for a, _, _, child in node[1]:
                arities(child, hist + (a,))

    arities(tree, ())
    for choice in itertools.product(*[range(arity[pt]) for pt in points]):
        fn = dict(zip(points, choice))

        def induced(node, hist):
            if node[0] == "E":
                return None
            if node[0] == "Q":
                i = fn[hist]
                q, child = node[1][i]
                return (i, induced(child, hist + (q,)))
            return tuple(induced(child, hist + (a,)) for a, _, _, child in node[1])

        seen.add(induced(tree, ()))
    return seen, len(points)


@statement(
    "Definition 4.1",
    "A has finite communication if for every x_A there is c with: A(x_A, m_1, m_3, ..; r_A) = halt once "
    "max{i, |m_1|, .., |m_{i-1}|} > c, and otherwise the total length of A's messages is at most c.",
)
def definition(p: Proof) -> None:
    n = 0
    for _ in range(6 if p.full else 3):
        rounds = p.rng.randint(1, 2)
        ncoins = p.rng.randint(1, 3)
        table = rand_protocol(p.rng, rounds, ncoins)
        tree = to_tree(table, ncoins, rounds)
        strats, npoints = behaviours(tree)
        n += 1
        if not p.require(len(strats) == G.count_strategies(tree) == len(G.strategies(tree)),
                         "finitely many deterministic adversaries, counted by the tree recursion",
                         f"rounds={rounds}: {len(strats)} behaviours vs {G.count_strategies(tree)}"):
            return
        for s in G.strategies(tree):
            for x in (0, 1):
                law = run_literal(table, ncoins, x, adversary_from(s, tree))
                n += 1
                if not p.require(all(len(t) <= 2 * rounds for t in law), "every execution halts within c = 2 rounds "
                                 "messages", f"rounds={rounds} strategy={s}"):
                    return
    p.instances("literal protocols with A halting after `rounds` messages: bounded executions for every coin and "
                "adversary; the set of deterministic adversaries (all functions from decision points to messages, by "
                "behaviour) is finite and has the size the tree recursion gives", n, "exhaustive")
