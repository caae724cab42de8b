"""Deterministic adversaries of a finite interactive mechanism, and their views.

By Vadhan-Wang Lemma 1 (and Vadhan-Zhang Lemma 2.5, for any distance that is jointly
convex) it suffices to consider deterministic adversaries: a deterministic adversary
picks one query at each point of the interaction it can reach, as a function of the
answers so far. Its *view* is the sequence of answers; under input ``i`` a view has
the probability of its answers given its queries (the product along the path).

* :func:`count_adversaries` counts them exactly, without enumerating:
  ``N(halt) = 1`` and ``N(node) = sum over queries of prod over answers of N(next)``.
* :func:`adversaries` enumerates them (refused beyond :data:`MAX_ADVERSARIES`, with the
  count as the estimate), each with its view distributions.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Iterator, Optional

from ..errors import CostTooHigh
from ..links import implements
from .tree import InteractiveMechanism, Node

__all__ = ["Adversary", "count_adversaries", "adversaries", "MAX_ADVERSARIES", "check_enumeration"]

#: Most deterministic adversaries enumerated (measured: 190 to 660 per second on the project's
#: machine for 2-round trees; docs/benchmarks.md, section "Interactive mechanisms"). Beyond it, use the dynamic programme.
MAX_ADVERSARIES = 20_000

History = tuple[tuple[str, str], ...]


class Adversary:
    """A deterministic adversary and its view: ``choices`` maps each history it reaches
    (``((q1, a1), ...)``, empty at the start) to its next query; ``views`` lists each complete
    view (the answers) with its probability under each input.

    Guarantee: exact. Immutable.
    """

    __slots__ = ("choices", "views")

    def __init__(self, choices: tuple[tuple[History, str], ...], views: tuple[tuple[tuple[str, ...], tuple[Fraction, ...]], ...]):
        object.__setattr__(self, "choices", choices)
        object.__setattr__(self, "views", views)

    def __setattr__(self, name, value):
        raise AttributeError("Adversary is immutable")

    def distributions(self) -> list[list[Fraction]]:
        """The view distributions, one list per input (aligned on the views). Guarantee: exact."""
        n = len(self.views[0][1]) if self.views else 0
        return [[pr[i] for _, pr in self.views] for i in range(n)]

    def to_json(self) -> dict:
        """``{"history": query}`` with histories written ``"q1=a1/q2=a2"`` (``""`` at the start).
        Guarantee: exact. Raises: nothing."""
        return {"/".join(f"{q}={a}" for q, a in h): q for h, q in self.choices}

    def __repr__(self) -> str:
        return f"Adversary({self.to_json()})"


def count_adversaries(mech: InteractiveMechanism) -> int:
    """The number of deterministic adversaries (as functions of the reachable histories).

    Guarantee: exact (a big integer). Raises: nothing.

    Examples:
        >>> from exactdp.interactive.tree import two_round_bits
        >>> count_adversaries(two_round_bits(["1/2"] * 10))   # q1 for each a0: 2 x 2
        4
    """
    memo: dict[int, int] = {}

    def n(node: Node) -> int:
        got = memo.get(id(node))
        if got is None:
            got = 1 if node.is_leaf else sum(_prod(1 if b.next is None else n(b.next) for _, b in answers)
                                             for _, answers in node.queries)
            memo[id(node)] = got
        return got

    return n(mech.root)


def _prod(xs) -> int:
    out = 1
    for x in xs:
        out *= x
    return out


def _strategies(node: Node, width: int, memo: dict) -> Iterator[tuple[tuple, tuple]]:
    """Every deterministic strategy from ``node``: ``(choices relative to node, views)``; the
    strategies of the nodes below are materialised once each (memo), this node's are streamed."""
    if node.is_leaf:
        yield (), (((), (Fraction(1),) * width),)
        return
    for q, answers in node.queries:
        subs = []
        for a, b in answers:
            if b.next is None:
                sub = [((), (((), (Fraction(1),) * width),))]
            else:
                sub = memo.get(id(b.next))
                if sub is None:
                    sub = memo[id(b.next)] = list(_strategies(b.next, width, memo))
            subs.append((a, b.probs, sub))
        for combo in product(*(s[2] for s in subs)):
            choices: list = [((), q)]
            views: list = []
            for (a, probs, _), (ch, vw) in zip(subs, combo):
                for h, qq in ch:
                    choices.append((((q, a),) + h, qq))
                for ans, pr in vw:
                    views.append(((a,) + ans, tuple(x * y for x, y in zip(probs, pr))))
            yield tuple(choices), tuple(views)


@implements("Vadhan-Wang Lemma 1", "Vadhan-Zhang Lemma 2.5")
def adversaries(mech: InteractiveMechanism, *, limit: Optional[int] = None) -> Iterator[Adversary]:
    """Every deterministic adversary of ``mech`` with its view distributions.

    Guarantee: exact (every deterministic adversary exactly once; views with exact probabilities).

    Raises:
        CostTooHigh: more than ``limit`` (default :data:`MAX_ADVERSARIES`) adversaries, before any
            is built; the estimate is the exact count, the alternative the dynamic programme.

    Examples:
        >>> from exactdp.interactive.tree import randomized_response
        >>> [a.distributions() for a in adversaries(randomized_response(3))]
        [[[Fraction(3, 4), Fraction(1, 4)], [Fraction(1, 4), Fraction(3, 4)]]]
    """
    check_enumeration(mech, limit)
    for choices, views in _strategies(mech.root, len(mech.inputs), {}):
        yield Adversary(choices, views)


def check_enumeration(mech: InteractiveMechanism, limit: Optional[int] = None) -> int:
    """The number of deterministic adversaries, refused beyond ``limit``.

    Guarantee: exact count. Raises: CostTooHigh (with the count and the faster option).
    """
    limit = MAX_ADVERSARIES if limit is None else limit
    n = count_adversaries(mech)
    if n > limit:
        shown = f"{n:.3g}" if n < 10**300 else f"about 10^{len(str(n)) - 1}"
        raise CostTooHigh("adversaries", f"enumerating {shown} deterministic adversaries is refused (limit {limit}); "
                          "the dynamic programme over the tree (method='dp') gives the same exact answer",
                          estimate=n, limit=limit, alternative="method='dp'")
    return n
