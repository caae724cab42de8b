"""Independent exact transcriptions shared by the Murtagh-Vadhan checks.

Everything here is written from the paper's definitions, not from the
``exactdp`` engine, so that comparing the two is a real check:

* Definition 3.1's randomized response and product distributions on {0,1,2,3}^k,
* the hockey-stick divergence ``max_Q P0(Q) - t P1(Q)`` (by the positive-part sum
  and, for tiny spaces, by brute force over every set Q),
* Theorem 1.5's formula in exp-space (``w_i = e^{eps_i}``, ``t = e^{eps_g}``) by
  brute force over the 2^k subsets, and its exact inverse,
* a small exact simplex (rational LP feasibility) used to build Lemma 3.2's
  post-processing T,
* instance generators (seeded ``random.Random``).

Guarantee: exact (Fractions) throughout.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

Dist = Dict[tuple, F]

# --------------------------------------------------------------------------
# Definition 3.1 and product distributions


def rr(w: F, delta: F) -> Tuple[Tuple[F, F, F, F], Tuple[F, F, F, F]]:
    """Definition 3.1's ``M~_(eps,delta)`` with ``w = e^eps``: the pair (P0, P1) on {0,1,2,3}.

    On b=0: 0 w.p. delta, 1 w.p. alpha w/(1+w), 2 w.p. alpha/(1+w), 3 w.p. 0;
    on b=1 the mirror (alpha = 1 - delta). Guarantee: exact.
    """
    w, delta = F(w), F(delta)
    a = 1 - delta
    p0 = (delta, a * w / (1 + w), a / (1 + w), F(0))
    p1 = (F(0), a / (1 + w), a * w / (1 + w), delta)
    return p0, p1


def product_dist(pairs: Sequence[Tuple[Sequence[F], Sequence[F]]]) -> Tuple[Dist, Dist]:
    """Product distributions of independent pairs ``(p0_i, p1_i)`` (each a sequence of masses)."""
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


def hockey(P0: Dist, P1: Dist, t: F) -> F:
    """``sum_x max(P0(x) - t P1(x), 0)`` = ``max_Q P0(Q) - t P1(Q)``. Guarantee: exact."""
    keys = set(P0) | set(P1)
    return sum((max(P0.get(x, F(0)) - t * P1.get(x, F(0)), F(0)) for x in keys), F(0))


def hockey_all_sets(P0: Dist, P1: Dist, t: F) -> F:
    """``max over every Q`` of ``P0(Q) - t P1(Q)``, by enumerating all 2^|X| sets Q (tiny X only)."""
    keys = sorted(set(P0) | set(P1))
    diffs = [P0.get(x, F(0)) - t * P1.get(x, F(0)) for x in keys]
    best = F(0)  # Q = empty set
    n = len(diffs)
    for mask in range(1, 1 << n):
        s = F(0)
        for i in range(n):
            if mask >> i & 1:
                s += diffs[i]
        if s > best:
            best = s
    return best


def likelihood_breakpoints(P0: Dist, P1: Dist) -> List[F]:
    """The ratios ``P0(x)/P1(x)`` (P1(x) > 0): where ``t -> hockey(P0, P1, t)`` changes slope."""
    return sorted({P0.get(x, F(0)) / P1[x] for x in P1 if P1[x] > 0})


# --------------------------------------------------------------------------
# Theorem 1.5 in exp-space, by brute force over subsets


def prod(xs: Iterable[F]) -> F:
    r = F(1)
    for x in xs:
        r *= x
    return r


def S_brute(ws: Sequence[F], t: F) -> F:
    """``sum_{S subset [k]} max(W_S - t W_{not S}, 0)``, all 2^k subsets. Guarantee: exact."""
    k = len(ws)
    total = F(0)
    for mask in range(1 << k):
        a = F(1)
        b = F(1)
        for i in range(k):
            if mask >> i & 1:
                a *= ws[i]
            else:
                b *= ws[i]
        d = a - t * b
        if d > 0:
            total += d
    return total


def delta_formula(ws: Sequence[F], deltas: Sequence[F], t: F) -> F:
    """Theorem 1.5 solved for delta_g: ``1 - P + (P/Z) S(t)``, P = prod(1-delta_i), Z = prod(1+w_i)."""
    P = prod(1 - d for d in deltas)
    Z = prod(1 + w for w in ws)
    return 1 - P + P * S_brute(ws, t) / Z


def formula_breakpoints(ws: Sequence[F]) -> List[F]:
    """``W_S / W_{not S}`` for every subset S: where ``S(t)`` changes slope."""
    k = len(ws)
    out = set()
    for mask in range(1 << k):
        a = prod(ws[i] for i in range(k) if mask >> i & 1)
        b = prod(ws[i] for i in range(k) if not mask >> i & 1)
        out.add(a / b)
    return sorted(out)


def least_t(f: Callable[[F], F], breakpoints: Iterable[F], target: F) -> Optional[F]:
    """Least ``t >= 1`` with ``f(t) <= target`` for ``f`` continuous, non-increasing and linear
    between consecutive ``breakpoints`` and constant beyond the largest; None if never.

    Guarantee: exact (one linear solve on the segment where ``f`` crosses ``target``).
    """
    bs = sorted({F(1)} | {b for b in breakpoints if b >= 1})
    vals = [f(b) for b in bs]
    if vals[0] <= target:
        return F(1)
    for (b0, v0), (b1, v1) in zip(zip(bs, vals), zip(bs[1:], vals[1:])):
        if v1 <= target < v0:
            return b0 + (v0 - target) * (b1 - b0) / (v0 - v1)
    return None


def optcomp_t_formula(ws: Sequence[F], deltas: Sequence[F], delta_g: F) -> Optional[F]:
    """``e^{OptComp}`` from Theorem 1.5's formula (None = infinite). Guarantee: exact."""
    return least_t(lambda t: delta_formula(ws, deltas, t), formula_breakpoints(ws), F(delta_g))


def optcomp_t_product(ws: Sequence[F], deltas: Sequence[F], delta_g: F) -> Optional[F]:
    """``e^{OptComp}`` computed from the product distribution of Definition 3.1 (None = infinite)."""
    P0, P1 = product_dist([rr(w, d) for w, d in zip(ws, deltas)])
    return least_t(lambda t: hockey(P0, P1, t), likelihood_breakpoints(P0, P1), F(delta_g))


# --------------------------------------------------------------------------
# exact LP feasibility (phase-1 simplex, Bland's rule)


def lp_feasible(
    A_ub: Sequence[Sequence[F]], b_ub: Sequence[F], A_eq: Sequence[Sequence[F]], b_eq: Sequence[F], n: int
) -> Optional[List[F]]:
    """A point ``x >= 0`` with ``A_ub x <= b_ub``, ``A_eq x = b_eq``, or None if there is none.

    Requires ``b_ub >= 0``. Exact phase-1 simplex over the rationals with Bland's
    anti-cycling rule. Guarantee: exact (the caller re-verifies the point anyway).
    """
    m1, m2 = len(A_ub), len(A_eq)
    ncol = n + m1 + m2
    rows: List[List[F]] = []
    basis: List[int] = []
    for i, (r, b) in enumerate(zip(A_ub, b_ub)):
        if b < 0:
            raise ValueError("lp_feasible needs b_ub >= 0")
        rows.append([F(v) for v in r] + [F(int(j == i)) for j in range(m1)] + [F(0)] * m2 + [F(b)])
        basis.append(n + i)
    for i, (r, b) in enumerate(zip(A_eq, b_eq)):
        s = -1 if b < 0 else 1
        rows.append([F(s * v) for v in r] + [F(0)] * m1 + [F(int(j == i)) for j in range(m2)] + [F(s * b)])
        basis.append(n + m1 + i)
    z = [F(0)] * (n + m1) + [F(1)] * m2 + [F(0)]
    for i in range(m1, m1 + m2):
        z = [zj - rj for zj, rj in zip(z, rows[i])]
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
        if best is None:  # cannot happen: the phase-1 objective is bounded below by 0
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


def simulator(p0: Sequence[F], p1: Sequence[F], w: F, delta: F) -> Optional[List[List[F]]]:
    """Lemma 3.2's post-processing: a stochastic map ``T[z][y]`` (z in {0,1,2,3}) with
    ``T(M~_(eps,delta)(b)) ~ P_b`` for b = 0, 1, or None if none exists.

    Construction: with ``a = (1-delta)/(1+w)``, find ``A, B >= 0`` of mass ``a`` each
    with ``wA + B <= p0`` and ``A + wB <= p1`` (exact LP); then ``T(.|1) = A/a``,
    ``T(.|2) = B/a``, ``T(.|0) = (p0 - wA - B)/delta``, ``T(.|3) = (p1 - A - wB)/delta``.
    Guarantee: exact.
    """
    n = len(p0)
    w, delta = F(w), F(delta)
    a = (1 - delta) / (1 + w)
    A_ub: List[List[F]] = []
    b_ub: List[F] = []
    for y in range(n):
        row = [F(0)] * (2 * n)
        row[y], row[n + y] = w, F(1)
        A_ub.append(row)
        b_ub.append(F(p0[y]))
        row = [F(0)] * (2 * n)
        row[y], row[n + y] = F(1), w
        A_ub.append(row)
        b_ub.append(F(p1[y]))
    A_eq = [[F(1)] * n + [F(0)] * n, [F(0)] * n + [F(1)] * n]
    x = lp_feasible(A_ub, b_ub, A_eq, [a, a], 2 * n)
    if x is None:
        return None
    A, B = x[:n], x[n:]
    T1 = [v / a for v in A]
    T2 = [v / a for v in B]
    if delta > 0:
        T0 = [(p0[y] - w * A[y] - B[y]) / delta for y in range(n)]
        T3 = [(p1[y] - A[y] - w * B[y]) / delta for y in range(n)]
    else:  # never used with positive probability; any distribution will do
        T0 = [F(p0[y]) for y in range(n)]
        T3 = [F(p1[y]) for y in range(n)]
    return [T0, T1, T2, T3]


def push(p: Sequence[F], T: Sequence[Sequence[F]]) -> List[F]:
    """The distribution of ``T(Y)`` for ``Y ~ p`` (``T[z][y]`` a stochastic matrix)."""
    m = len(T[0])
    return [sum((p[z] * T[z][y] for z in range(len(p))), F(0)) for y in range(m)]


def is_stochastic(T: Sequence[Sequence[F]]) -> bool:
    return all(all(v >= 0 for v in row) and sum(row) == 1 for row in T)


# --------------------------------------------------------------------------
# finite mechanisms and instance generators

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
    """A random distribution on n points with small rational masses (some may be 0)."""
    while True:
        c = [rng.randint(0 if zeros else 1, 6) for _ in range(n)]
        if sum(c):
            s = sum(c)
            return [F(v, s) for v in c]


def hs_pair(p0: Sequence[F], p1: Sequence[F], t: F) -> F:
    return sum((max(F(a) - t * F(b), F(0)) for a, b in zip(p0, p1)), F(0))


def rand_dp_mechanism(rng, n: int, w: F) -> Tuple[List[F], List[F], F]:
    """Random ``(p0, p1)`` on n outputs and the least delta in [0,1) making it (ln w, delta)-DP
    in both directions (resampled until that delta is < 1)."""
    while True:
        p0, p1 = rand_dist(rng, n), rand_dist(rng, n)
        if rng.random() < 0.3:  # a nearly-pure pair: mix p1 toward p0
            p1 = [(a + b) / 2 for a, b in zip(p0, p1)]
        d = max(hs_pair(p0, p1, w), hs_pair(p1, p0, w))
        if d < 1:
            return p0, p1, d


def mask_sets(k: int) -> Iterable[Tuple[int, ...]]:
    for r in range(k + 1):
        yield from itertools.combinations(range(k), r)


def frac(x: F) -> str:
    """Compact exact text of a Fraction."""
    x = F(x)
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"
