"""Every small partial order, up to isomorphism (Definitions 2.4, 3.2, 3.3).

A poset on {0..n-1} is the frozenset of pairs (a, b) with a <= b. Guarantee: exact, exhaustive.
"""

from __future__ import annotations

import itertools
from functools import lru_cache
from typing import FrozenSet, List, Optional, Tuple

Poset = Tuple[int, FrozenSet[Tuple[int, int]]]


def _is_order(n: int, rel) -> bool:
    for a, b in rel:
        if a != b and (b, a) in rel:
            return False
    for a, b in rel:
        for c in range(n):
            if (b, c) in rel and (a, c) not in rel:
                return False
    return True


@lru_cache(maxsize=None)
def posets(n: int) -> List[Poset]:
    """All partial orders on n elements, one per isomorphism class."""
    off = [(a, b) for a in range(n) for b in range(n) if a != b]
    seen = set()
    out = []
    for bits in range(1 << len(off)):
        rel = {(a, a) for a in range(n)} | {off[i] for i in range(len(off)) if bits >> i & 1}
        if not _is_order(n, rel):
            continue
        canon = min(tuple(sorted((perm[a], perm[b]) for a, b in rel)) for perm in itertools.permutations(range(n)))
        if canon in seen:
            continue
        seen.add(canon)
        out.append((n, frozenset(rel)))
    return out


def le(P: Poset, a: int, b: int) -> bool:
    return (a, b) in P[1]


def upper_bounds(P: Poset, S) -> List[int]:
    return [u for u in range(P[0]) if all(le(P, s, u) for s in S)]


def sups(P: Poset, S) -> List[int]:
    """Every least upper bound of S (Definition 2.4's two conditions)."""
    ub = upper_bounds(P, S)
    return [u for u in ub if all(le(P, u, t) for t in ub)]


def sup(P: Poset, S) -> Optional[int]:
    s = sups(P, S)
    return s[0] if len(s) == 1 else None


def nonempty_subsets(n: int):
    for r in range(1, n + 1):
        yield from itertools.combinations(range(n), r)


def is_complete(P: Poset) -> bool:
    """Definition 2.4: every nonempty subset has a supremum."""
    return all(sup(P, S) is not None for S in nonempty_subsets(P[0]))


def complete_posets(nmax: int) -> List[Poset]:
    return [P for n in range(1, nmax + 1) for P in posets(n) if is_complete(P)]
