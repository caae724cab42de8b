"""Independent exact transcriptions shared by the Kairouz-Oh-Viswanath checks.

Written from the paper's definitions (Section 2 and Section 6), not from the
``exactdp`` engine, so that a comparison with the engine is a real check:

* the hypothesis-testing view: for a pair ``(P0, P1)`` = ``(M(D0), M(D1))`` on a
  finite output space and a rejection region ``S``, ``P_FA = P0(S)`` and
  ``P_MD = P1(X \\ S)``; points are ``(P_MD, P_FA)`` as in the paper's figures;
* the privacy region ``R(eps, delta)`` (four half-planes) and the region of a
  mechanism ``R(M, D0, D1)`` (convex hull of the points of all rejection regions),
  with exact 2-D convex hulls and point-in-polygon tests;
* the lower boundary of ``R(M)`` by the likelihood-ratio order (Neyman-Pearson), used
  only where the number of outputs makes 2^n sets too many, and itself checked
  against the hull on small cases;
* the mechanism of Section 6.1 (``kov``) and binary randomized response;
* product distributions, the hockey-stick ``sum_x max(P0(x) - t P1(x), 0)``;
* a small exact simplex (rational LP feasibility, Bland's rule) for the
  post-processings of Theorem 2.5 and Theorem 5.1;
* instance generators (seeded ``random.Random``).

Guarantee: exact (Fractions) throughout. ``w`` always stands for ``e^eps``.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F
from math import comb
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

Dist = Dict[tuple, F]
Point = Tuple[F, F]

# --------------------------------------------------------------------------
# hypothesis testing: points, regions


def error_point(p0: Sequence[F], p1: Sequence[F], S: Iterable[int]) -> Point:
    """``(P_MD, P_FA)`` of the test rejecting H0 (database D0) when the output is in S."""
    S = set(S)
    fa = sum((p0[x] for x in S), F(0))
    md = sum((p1[x] for x in range(len(p1)) if x not in S), F(0))
    return md, fa


def all_points(p0: Sequence[F], p1: Sequence[F]) -> List[Point]:
    """The points of every deterministic rejection region S (all 2^n subsets)."""
    n = len(p0)
    return [error_point(p0, p1, [x for x in range(n) if m >> x & 1]) for m in range(1 << n)]


def in_R(pt: Point, w: F, delta: F) -> bool:
    """``(P_MD, P_FA)`` in the privacy region R(eps, delta) (w = e^eps): the two constraints of
    Theorem 2.1 and their mirror images (the region is symmetric about P_FA + P_MD = 1), in [0,1]^2."""
    md, fa = pt
    one = 1 - delta
    return (0 <= md <= 1 and 0 <= fa <= 1 and fa + w * md >= one and w * fa + md >= one
            and (1 - fa) + w * (1 - md) >= one and w * (1 - fa) + (1 - md) >= one)


def _cross(o: Point, a: Point, b: Point) -> F:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def hull(points: Iterable[Point]) -> List[Point]:
    """Convex hull (counter-clockwise, no collinear vertices), exact; Andrew's monotone chain."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts
    lower: List[Point] = []
    for q in pts:
        while len(lower) >= 2 and _cross(lower[-2], lower[-1], q) <= 0:
            lower.pop()
        lower.append(q)
    upper: List[Point] = []
    for q in reversed(pts):
        while len(upper) >= 2 and _cross(upper[-2], upper[-1], q) <= 0:
            upper.pop()
        upper.append(q)
    return lower[:-1] + upper[:-1]


def in_hull(poly: Sequence[Point], q: Point) -> bool:
    """q in the convex polygon ``poly`` (counter-clockwise, as from :func:`hull`), boundary included."""
    n = len(poly)
    if n == 0:
        return False
    if n == 1:
        return poly[0] == q
    if n == 2:
        a, b = poly
        return _cross(a, b, q) == 0 and min(a[0], b[0]) <= q[0] <= max(a[0], b[0]) and \
            min(a[1], b[1]) <= q[1] <= max(a[1], b[1])
    return all(_cross(poly[i], poly[(i + 1) % n], q) >= 0 for i in range(n))


def region_contains(outer: Sequence[Point], inner_points: Iterable[Point]) -> Optional[Point]:
    """None if every inner point lies in hull(outer) (so conv(inner) does too), else a point outside."""
    poly = hull(outer)
    for q in inner_points:
        if not in_hull(poly, q):
            return q
    return None


def np_boundary(P0: Dist, P1: Dist) -> List[Point]:
    """Vertices ``(P_MD, P_FA)`` of the lower boundary of R(M): put outputs into the rejection
    region in decreasing order of P1/P0 (Neyman-Pearson), from S = {} (P_MD = 1, P_FA = 0)
    to S = X (0, 1). Ties are merged. Exact."""
    keys = set(P0) | set(P1)

    def ratio_key(x):
        a, b = P0.get(x, F(0)), P1.get(x, F(0))
        return (0, F(0)) if a == 0 else (1, -b / a)  # P0 = 0 first (ratio infinite), then decreasing P1/P0

    groups: Dict[tuple, List[F]] = {}
    for x in keys:
        a, b = P0.get(x, F(0)), P1.get(x, F(0))
        if a == 0 and b == 0:
            continue
        g = groups.setdefault(ratio_key(x), [F(0), F(0)])
        g[0] += a
        g[1] += b
    md, fa = F(1), F(0)
    out = [(md, fa)]
    for key in sorted(groups):
        a, b = groups[key]
        md, fa = md - b, fa + a
        out.append((md, fa))
    return out


def pl_value(vertices: Sequence[Point], x: F) -> F:
    """Value at ``x`` of the piecewise-linear function through ``vertices`` (sorted by x, any order
    given); vertical segments take the lowest value."""
    vs = sorted(vertices)
    best = None
    for (x0, y0), (x1, y1) in zip(vs, vs[1:]):
        if x0 <= x <= x1:
            y = y0 if x0 == x1 else y0 + (y1 - y0) * (x - x0) / (x1 - x0)
            best = y if best is None else min(best, y)
    if best is None:
        for (x0, y0) in vs:
            if x0 == x:
                best = y0 if best is None else min(best, y0)
    return best


def envelope(pairs: Sequence[Tuple[F, F]], x: F) -> F:
    """Lower boundary of the intersection of R(eps_j, delta_j) at P_MD = x: the largest of
    0, 1 - delta - w x, (1 - delta - x)/w over the pairs (w, delta)."""
    v = F(0)
    for w, d in pairs:
        v = max(v, 1 - d - w * x, (1 - d - x) / w)
    return v


def envelope_breakpoints(pairs: Sequence[Tuple[F, F]]) -> List[F]:
    """x-coordinates in [0,1] where two of the envelope's lines (or a line and 0) cross."""
    lines = [(F(0), F(0))]  # y = a + b x as (a, b)
    for w, d in pairs:
        lines.append((1 - d, -w))
        lines.append(((1 - d) / w, -1 / w))
    xs = {F(0), F(1)}
    for (a1, b1), (a2, b2) in itertools.combinations(lines, 2):
        if b1 != b2:
            x = (a2 - a1) / (b1 - b2)
            if 0 <= x <= 1:
                xs.add(x)
    return sorted(xs)


# --------------------------------------------------------------------------
# mechanisms and products


def kov(w: F, delta: F) -> Tuple[List[F], List[F]]:
    """The mechanism of Section 6.1 (Theorem 3.3's proof) with w = e^eps, on outputs {0,1,2,3}:
    under b = 0: delta, (1-delta) w/(1+w), (1-delta)/(1+w), 0; under b = 1 the mirror image."""
    w, delta = F(w), F(delta)
    a = 1 - delta
    return [delta, a * w / (1 + w), a / (1 + w), F(0)], [F(0), a / (1 + w), a * w / (1 + w), delta]


def binary_rr(w: F) -> Tuple[List[F], List[F]]:
    """Randomized response on {0, 1}: keep the bit with probability w/(1+w)."""
    w = F(w)
    return [w / (1 + w), 1 / (1 + w)], [1 / (1 + w), w / (1 + w)]


def product(pairs: Sequence[Tuple[Sequence[F], Sequence[F]]]) -> Tuple[Dist, Dist]:
    """The pair of product distributions of independent pairs (outputs are tuples)."""
    P0: Dist = {(): F(1)}
    P1: Dist = {(): F(1)}
    for p0, p1 in pairs:
        n0: Dist = {}
        n1: Dist = {}
        for x in P0:
            for y in range(len(p0)):
                n0[x + (y,)] = P0[x] * p0[y]
                n1[x + (y,)] = P1[x] * p1[y]
        P0, P1 = n0, n1
    return P0, P1


def as_dist(p: Sequence[F]) -> Dist:
    return {(i,): F(v) for i, v in enumerate(p)}


def hockey(P0: Dist, P1: Dist, t: F) -> F:
    """``sum_x max(P0(x) - t P1(x), 0)`` = ``max_S P0(S) - t P1(S)``. Exact."""
    keys = set(P0) | set(P1)
    return sum((max(P0.get(x, F(0)) - t * P1.get(x, F(0)), F(0)) for x in keys), F(0))


def hs(p0: Sequence[F], p1: Sequence[F], t: F) -> F:
    return sum((max(F(a) - t * F(b), F(0)) for a, b in zip(p0, p1)), F(0))


def dp_all_sets(p0: Sequence[F], p1: Sequence[F], w: F, delta: F) -> bool:
    """The definition (1) literally: P0(S) <= w P1(S) + delta and P1(S) <= w P0(S) + delta for every S."""
    n = len(p0)
    for m in range(1 << n):
        a = sum((p0[x] for x in range(n) if m >> x & 1), F(0))
        b = sum((p1[x] for x in range(n) if m >> x & 1), F(0))
        if a > w * b + delta or b > w * a + delta:
            return False
    return True


def rr_k_hockey(k: int, w: F, t: F) -> F:
    """Hockey-stick of the k-fold product of binary randomized response (grouped by the number
    l of coordinates that flip): sum_l C(k,l) max(w^(k-l) - t w^l, 0) / (1+w)^k. Exact."""
    return sum((comb(k, l) * max(w ** (k - l) - t * w ** l, F(0)) for l in range(k + 1)), F(0)) / (1 + w) ** k


def delta_i_printed(k: int, w: F, i: int) -> F:
    """Equation (6) as printed: sum_{l=0}^{i-1} C(k,l) (e^{(k-l)eps} - e^{(k-2i+l)eps}) / (1+e^eps)^k."""
    return sum((comb(k, l) * (w ** (k - l) - w ** (k - 2 * i + l)) for l in range(i)), F(0)) / (1 + w) ** k


def theorem33_pairs(k: int, w: F, delta: F) -> List[Tuple[F, F]]:
    """Theorem 3.3's ((k-2i) eps, 1 - (1-delta)^k (1 - delta_i)) as (e^{(k-2i)eps}, delta') pairs."""
    return [(w ** (k - 2 * i), 1 - (1 - delta) ** k * (1 - delta_i_printed(k, w, i))) for i in range(k // 2 + 1)]


# --------------------------------------------------------------------------
# exact LP feasibility (phase-1 simplex, Bland's rule)


def lp_feasible(A_eq: Sequence[Sequence[F]], b_eq: Sequence[F], n: int) -> Optional[List[F]]:
    """A point ``x >= 0`` with ``A_eq x = b_eq``, or None if there is none.

    Exact phase-1 simplex over the rationals with Bland's anti-cycling rule (one
    artificial variable per row). Guarantee: exact; callers re-verify the point.
    """
    m = len(A_eq)
    rows: List[List[F]] = []
    basis: List[int] = []
    for i, (r, b) in enumerate(zip(A_eq, b_eq)):
        s = -1 if b < 0 else 1
        rows.append([F(s * v) for v in r] + [F(int(j == i)) for j in range(m)] + [F(s * b)])
        basis.append(n + i)
    ncol = n + m
    z = [F(0)] * n + [F(1)] * m + [F(0)]
    for row in rows:
        z = [zj - rj for zj, rj in zip(z, row)]
    while True:
        e = next((j for j in range(ncol) if z[j] < 0), None)
        if e is None:
            break
        best = None
        for i, row in enumerate(rows):
            if row[e] > 0:
                ratio = row[-1] / row[e]
                if best is None or ratio < best[0] or (ratio == best[0] and basis[i] < basis[best[1]]):
                    best = (ratio, i)
        if best is None:  # the phase-1 objective is bounded below by 0
            raise AssertionError("unbounded phase-1 LP")
        r = best[1]
        pv = rows[r][e]
        rows[r] = [v / pv for v in rows[r]]
        for i in range(len(rows)):
            if i != r and rows[i][e] != 0:
                f = rows[i][e]
                rows[i] = [a - f * b for a, b in zip(rows[i], rows[r])]
        f = z[e]
        z = [a - f * b for a, b in zip(z, rows[r])]
        basis[r] = e
    if z[-1] != 0:
        return None
    x = [F(0)] * n
    for i, bv in enumerate(basis):
        if bv < n:
            x[bv] = rows[i][-1]
    return x


def garbling(sources: Sequence[Sequence[F]], targets: Sequence[Sequence[F]]) -> Optional[List[List[F]]]:
    """A stochastic matrix T (T[x][y] = P(Y = y | X = x)) with ``targets[b] = sources[b] T`` for every b,
    or None if there is none (exact LP). The result is re-verified exactly."""
    n, m = len(sources[0]), len(targets[0])
    nv = n * m
    A: List[List[F]] = []
    b: List[F] = []
    for src, tgt in zip(sources, targets):
        for y in range(m):
            row = [F(0)] * nv
            for x in range(n):
                row[x * m + y] = F(src[x])
            A.append(row)
            b.append(F(tgt[y]))
    for x in range(n):
        row = [F(0)] * nv
        for y in range(m):
            row[x * m + y] = F(1)
        A.append(row)
        b.append(F(1))
    sol = lp_feasible(A, b, nv)
    if sol is None:
        return None
    T = [sol[x * m:(x + 1) * m] for x in range(n)]
    assert all(v >= 0 for r in T for v in r) and all(sum(r) == 1 for r in T)
    for src, tgt in zip(sources, targets):
        assert push(src, T) == [F(v) for v in tgt]
    return T


def push(p: Sequence[F], T: Sequence[Sequence[F]]) -> List[F]:
    """Distribution of T(X) for X ~ p."""
    m = len(T[0])
    return [sum((F(p[x]) * T[x][y] for x in range(len(p))), F(0)) for y in range(m)]


# --------------------------------------------------------------------------
# instance generators

W_CHOICES = [F(1), F(5, 4), F(4, 3), F(3, 2), F(2), F(5, 2), F(3), F(7, 2)]
DELTA_CHOICES = [F(0), F(0), F(1, 100), F(1, 10), F(1, 5), F(1, 3), F(1, 2)]


def rand_w(rng) -> F:
    if rng.random() < 0.7:
        return rng.choice(W_CHOICES)
    return F(rng.randint(1, 12), rng.randint(1, 5)) + 1


def rand_delta(rng) -> F:
    if rng.random() < 0.7:
        return rng.choice(DELTA_CHOICES)
    return F(rng.randint(0, 9), rng.randint(10, 20))


def rand_dist(rng, n: int, zeros: bool = True) -> List[F]:
    while True:
        c = [rng.randint(0 if zeros else 1, 6) for _ in range(n)]
        if sum(c):
            s = sum(c)
            return [F(v, s) for v in c]


def rand_channel(rng, n: int, m: int) -> List[List[F]]:
    return [rand_dist(rng, m) for _ in range(n)]


def least_delta(p0: Sequence[F], p1: Sequence[F], w: F) -> F:
    """The least delta making the pair (ln w, delta)-DP in both directions."""
    return max(hs(p0, p1, w), hs(p1, p0, w))


def shrink_to_dp(p0: Sequence[F], p1: Sequence[F], w: F, delta: F) -> Tuple[List[F], List[F]]:
    """Move p0, p1 toward their midpoint (factors 1, 1/2, 1/4, ..., then 0) until (ln w, delta)-DP."""
    s = F(1)
    for _ in range(40):
        mid = [(a + b) / 2 for a, b in zip(p0, p1)]
        q0 = [mi + s * (a - mi) for mi, a in zip(mid, p0)]
        q1 = [mi + s * (b - mi) for mi, b in zip(mid, p1)]
        if least_delta(q0, q1, w) <= delta:
            return q0, q1
        s /= 2
    mid = [(a + b) / 2 for a, b in zip(p0, p1)]
    return list(mid), list(mid)


def frac(x) -> str:
    x = F(x)
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def prod(xs: Iterable[F]) -> F:
    r = F(1)
    for x in xs:
        r *= x
    return r
