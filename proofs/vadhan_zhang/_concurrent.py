"""Shared instance sets for the concurrent-composition theorems (1.1, 1.3, 1.4, 4.2, 5.1).

Guarantee: exact (Fractions).
"""

from __future__ import annotations

from fractions import Fraction as F

from . import _games as G
from . import _tradeoff as T


def shapes(p):
    """(rounds of M_1, rounds of M_2, queries per round) of the concurrent instances."""
    out = [(1, 1, 2), (1, 2, 2), (2, 2, 1)]
    if p.full:
        out += [(2, 1, 2), (1, 2, 2), (2, 2, 1), (3, 1, 1), (1, 3, 1)]
    return out


def pure_w(f: T.TF):
    """The least w = e^eps with f >= f_{eps,0}, or None (no finite eps)."""
    w = F(1)
    for a, b in f:
        if a == 0 and b < 1:
            return None
        if a > 0:
            w = max(w, (1 - b) / a)
        if b > 0:
            w = max(w, (1 - a) / b)
        elif a < 1:
            return None
    return w


def views(tree):
    """The distinct view laws (as sorted tuples of (p, q)) over every deterministic adversary, and their count."""
    vs = G.all_views(tree)
    return sorted({tuple(sorted(v)) for v in vs}), len(vs)


def skewed_tree(rng, rounds, nq=2):
    """A mechanism with extreme probabilities (down to 10^-6) and zero masses (delta > 0)."""
    def answers(r):
        tiny = F(1, 10 ** rng.choice([3, 6]))
        p0 = rng.choice([[1 - tiny, tiny], [F(1), F(0)], [F(1, 2), F(1, 2)]])
        p1 = rng.choice([[tiny, 1 - tiny], [1 - tiny, tiny], [F(1, 2), F(1, 2)]])
        return ("A", tuple((f"a{j}", p0[j], p1[j], queries(r - 1)) for j in range(2)))

    def queries(r):
        if r == 0:
            return G.E
        return ("Q", tuple((f"q{i}", answers(r)) for i in range(nq)))

    return queries(rounds)
