"""Privacy regions of compositions, compared exactly with Theorem 3.3's intersection.

The region of a pair (V0, V1) is {(x, y) : f(x) <= y <= 1 - f(1 - x)} with f its lower
boundary (:func:`_common.np_boundary`), so a region lies inside the intersection of
R(eps_j, delta_j) iff f >= the envelope of the constraints everywhere, and equals it
iff f = envelope. Both are piecewise linear, so their difference is linear between
consecutive breakpoints of either, and comparing them at the union of breakpoints
decides these exactly.

Guarantee: exact (Fractions).
"""

from __future__ import annotations

from bisect import bisect_left
from fractions import Fraction as F
from functools import lru_cache
from typing import Dict, List, Optional, Sequence, Tuple

from . import _common as C


def _function(vertices) -> Tuple[List[F], List[F]]:
    """Sorted x's and the lowest y at each x (the lower boundary leaves x = 0 from its lowest point)."""
    best: Dict[F, F] = {}
    for x, y in vertices:
        if x not in best or y < best[x]:
            best[x] = y
    xs = sorted(best)
    return xs, [best[x] for x in xs]


def _eval(xs: List[F], ys: List[F], x: F) -> F:
    j = bisect_left(xs, x)
    if j < len(xs) and xs[j] == x:
        return ys[j]
    x0, x1, y0, y1 = xs[j - 1], xs[j], ys[j - 1], ys[j]
    return y0 + (y1 - y0) * (x - x0) / (x1 - x0)


@lru_cache(maxsize=256)
def _envelope_table(pairs: Tuple[Tuple[F, F], ...]) -> Tuple[Tuple[F, ...], Tuple[F, ...]]:
    xs = C.envelope_breakpoints(pairs)
    return tuple(xs), tuple(C.envelope(pairs, x) for x in xs)


def compare(V0: Dict[tuple, F], V1: Dict[tuple, F], pairs: Sequence[Tuple[F, F]]) -> Tuple[Optional[F], Optional[F]]:
    """(x where the region leaves the intersection, x where the region is strictly inside it),
    each None when there is none (the smallest such breakpoint x). Exact."""
    fx, fy = _function(C.np_boundary(V0, V1))
    pairs = tuple(pairs)
    ex, ey = _envelope_table(pairs)
    outside = inside = None
    pts = [(x, y, C.envelope(pairs, x)) for x, y in zip(fx, fy)]
    pts += [(x, _eval(fx, fy, x), e) for x, e in zip(ex, ey)]
    for x, a, b in sorted(pts):
        if a < b and outside is None:
            outside = x
        if a > b and inside is None:
            inside = x
    return outside, inside
