"""Exact plane geometry of piecewise-linear trade-off functions (no floating point anywhere).

Coordinates are exact scalars: ``Fraction``, or :class:`~exactdp.fdp.symbolic.QW`
(an element of ``Q(e^eps)``); every comparison is an exact decision. Used by
:mod:`exactdp.fdp.tradeoff` (envelopes, tensor products) and
:mod:`exactdp.regions` (polygons).

* :func:`upper_envelope` the pointwise maximum of lines on ``[0, 1]`` (the
  intersection of privacy regions; Kairouz-Oh-Viswanath Theorem 3.3's form).
* :func:`lower_hull` the lower convex hull of points (the supremum of trade-off
  functions, Vadhan-Zhang Lemma 2.4).
* :func:`neyman_pearson` the trade-off curve of a pair of finite distributions
  (Vadhan-Zhang Definition 1.6).
* :func:`simplify_chain` drops repeated points and interior points of straight runs.
* :func:`value_at` / :func:`values_at` the value of a polyline (a trade-off curve) at a point /
  at increasing points.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cmp_to_key
from typing import Sequence

from .._backend import mpq

__all__ = ["upper_envelope", "lower_hull", "neyman_pearson", "simplify_chain", "value_at", "values_at", "cross",
           "turn"]


def cross(o, a, b):
    """``(a - o) x (b - o)``: > 0 for a counter-clockwise turn. Guarantee: exact."""
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


_MPQ = type(mpq(0))


def turn(o, a, b) -> int:
    """The sign of :func:`cross`. Guarantee: exact.

    Rationals in ``[-2, 2]`` (every vertex of a trade-off curve or region) are first
    tried in floating point: each ``float(x)`` is correctly rounded (error <= 2^-53 |x|),
    so the float cross product is within 1e-14 of the true one, and a float result
    beyond 1e-13 has the true sign. Closer calls, and QW scalars, are decided exactly.
    """
    if all(type(c) is _MPQ for p in (o, a, b) for c in p):
        f = [float(c) for p in (o, a, b) for c in p]
        if all(-2.0 <= c <= 2.0 for c in f):
            v = (f[2] - f[0]) * (f[5] - f[1]) - (f[3] - f[1]) * (f[4] - f[0])
            if v > 1e-13:
                return 1
            if v < -1e-13:
                return -1
    c = cross(o, a, b)
    return (c > 0) - (c < 0)


def simplify_chain(pts: Sequence, *, closed: bool = False) -> list:
    """``pts`` without repeated points and without points interior to straight runs.

    ``closed``: the chain is a polygon (the last point joins the first), and the
    start point is kept first. Guarantee: exact.
    """
    out: list = []
    for p in pts:
        if out and out[-1][0] == p[0] and out[-1][1] == p[1]:
            continue
        while len(out) >= 2 and turn(out[-2], out[-1], p) == 0 and _between(out[-2], out[-1], p):
            out.pop()
        out.append(p)
    if closed:
        while len(out) >= 2 and out[-1][0] == out[0][0] and out[-1][1] == out[0][1]:
            out.pop()
        # the wrap-around: drop a last point interior to the run (last-1, last, first)
        while len(out) >= 3 and turn(out[-2], out[-1], out[0]) == 0 and _between(out[-2], out[-1], out[0]):
            out.pop()
    return out


def value_at(pts: Sequence, x):
    """The value at ``x`` of the polyline through ``pts`` (x non-decreasing), the lowest one at a
    vertical segment (a trade-off curve's ``f(0)``); the last y beyond the last point.
    Guarantee: exact. Raises: nothing."""
    for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
        if x0 <= x <= x1:
            if x1 == x0:
                continue
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    return pts[-1][1]


def values_at(pts: Sequence, xs: Sequence) -> list:
    """:func:`value_at` at every point of the non-decreasing ``xs``, in one sweep
    (``O(len(pts) + len(xs))``). Guarantee: exact. Raises: nothing."""
    out = []
    j, last = 0, len(pts) - 2
    for x in xs:
        # the first segment of positive length that reaches x (a vertical one gives its lowest end)
        while j < last and (pts[j + 1][0] < x or pts[j + 1][0] == pts[j][0]):
            j += 1
        (x0, y0), (x1, y1) = pts[j], pts[j + 1]
        if x1 == x0 or x > x1:
            out.append(pts[-1][1] if x > x1 else min(y0, y1))
        else:
            out.append(y0 + (y1 - y0) * (x - x0) / (x1 - x0))
    return out


def _between(a, b, c) -> bool:
    """Is ``b`` on the segment from ``a`` to ``c`` (given collinear)? A fold-back is not a straight run."""
    return (min(a[0], c[0]) <= b[0] <= max(a[0], c[0])) and (min(a[1], c[1]) <= b[1] <= max(a[1], c[1]))


def upper_envelope(lines: Sequence[tuple], zero, one) -> list:
    """Vertices ``(x, y)`` of ``max_l (a_l + b_l x)`` over ``x in [zero, one]``, left to right.

    ``lines`` are pairs ``(a, b)`` (intercept, slope). Guarantee: exact.
    """
    if not lines:
        raise ValueError("upper_envelope of no lines")
    # sort by slope; for equal slopes keep the highest line
    srt = sorted(lines, key=cmp_to_key(lambda p, q: _cmp(p[1], q[1]) or _cmp(p[0], q[0])))
    dedup: list = []
    for a, b in srt:
        if dedup and dedup[-1][1] == b:
            dedup[-1] = (a, b)  # sorted by intercept ascending within a slope
        else:
            dedup.append((a, b))
    hull: list = []
    for ln in dedup:
        while len(hull) >= 2 and _useless(hull[-2], hull[-1], ln):
            hull.pop()
        hull.append(ln)
    # breakpoints of the envelope over the reals, then restricted to (zero, one)
    def val(x):
        return max_exact([a + b * x for a, b in hull])

    pts = [(zero, val(zero))]
    for (a1, b1), (a2, b2) in zip(hull, hull[1:]):
        x = (a1 - a2) / (b2 - b1)
        if zero < x < one:
            pts.append((x, a1 + b1 * x))
    pts.append((one, val(one)))
    # consecutive breakpoints join lines of strictly increasing slopes at strictly
    # increasing x: no repeated and no collinear points (nothing to simplify)
    return pts


def _useless(l1, l2, l3) -> bool:
    """With slopes b1 < b2 < b3: l2 is nowhere strictly above max(l1, l3)."""
    (a1, b1), (a2, b2), (a3, b3) = l1, l2, l3
    # x12 >= x13  <=>  (a1 - a2)(b3 - b1) >= (a1 - a3)(b2 - b1)
    return (a1 - a2) * (b3 - b1) >= (a1 - a3) * (b2 - b1)


def _cmp(x, y) -> int:
    return -1 if x < y else (1 if x > y else 0)


def max_exact(xs):
    """The largest of exact scalars. Guarantee: exact."""
    m = xs[0]
    for x in xs[1:]:
        if x > m:
            m = x
    return m


def lower_hull(points: Sequence[tuple]) -> list:
    """Lower convex hull of ``points``, left to right, without collinear points. Guarantee: exact."""
    pts = sorted(points, key=cmp_to_key(lambda p, q: _cmp(p[0], q[0]) or _cmp(p[1], q[1])))
    hull: list = []
    for p in pts:
        if hull and hull[-1][0] == p[0]:
            continue  # same x: the lowest came first
        while len(hull) >= 2 and turn(hull[-2], hull[-1], p) <= 0:
            hull.pop()
        hull.append(p)
    return hull


def neyman_pearson(atoms: Sequence[tuple], zero=Fraction(0), one=Fraction(1)) -> list:
    """The trade-off curve of a pair of finite distributions given as atoms ``(p, q)``.

    ``p`` is an atom's probability under the first distribution (the null), ``q``
    under the second. The most powerful tests reject atoms in decreasing order of
    the likelihood ratio ``q / p`` (``p = 0`` first); the curve joins
    ``(type I error, type II error)`` from ``(0, 1)`` to ``(1, 0)``, with atoms of
    equal ratio rejected together (randomised tests fill the segments).
    Guarantee: exact. Raises: ValueError for a negative mass.
    """
    items = []
    for p, q in atoms:
        if p < 0 or q < 0:
            raise ValueError("negative probability")
        if p == 0 and q == 0:
            continue
        # sort key: p = 0 first (its ratio is infinite), then decreasing q/p (exact scalars; a key
        # sort compares in C for rationals, where a comparison function would call Python n log n times)
        items.append(((0, p) if p == 0 else (1, -(q / p)), p, q))
    items.sort(key=lambda it: it[0])
    pts = [(zero, one)]
    a, b = zero, one
    i = 0
    while i < len(items):
        key, sp, sq = items[i]
        i += 1
        while i < len(items) and items[i][0] == key:
            sp, sq = sp + items[i][1], sq + items[i][2]
            i += 1
        a, b = a + sp, b - sq
        pts.append((a, b))
    # one point per likelihood ratio: consecutive segments have distinct slopes
    return pts
