"""Noninteractive exact transcriptions shared by the Vadhan-Wang checks.

Written from the paper's definitions (not from the ``exactdp`` engine):

* finite distributions as dicts or sequences of Fractions, the event inequality of
  Definition 1 / Equation (1) (``max_T P(T) - w Q(T)``, by the positive-part sum and,
  for tiny spaces, by brute force over every event T),
* Definition 5's ``RR_eps`` and Definition 10's ``RR_(eps,delta)`` with ``w = e^eps``,
* Theorem 1.3's formula in exp-space (``w_i = e^{eps_i}``, ``t = e^{eps_g}``) by brute
  force over the 2^k subsets, its homogeneous form, and the least ``t`` solving it,
* seeded instance generators.

Guarantee: exact (Fractions) throughout.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F
from math import comb
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

Dist = Dict[object, F]

IAM0, IAM1 = "Iam0", "Iam1"


def prod(xs: Iterable[F]) -> F:
    r = F(1)
    for x in xs:
        r *= x
    return r


def frac(x) -> str:
    """Compact exact text of a Fraction."""
    x = F(x)
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


# --------------------------------------------------------------------------
# Definition 1 / Equation (1): the event inequality


def hockey(P: Dist, Q: Dist, w: F) -> F:
    """``sum_y max(P(y) - w Q(y), 0)``: the least delta with P(T) <= w Q(T) + delta for every T."""
    keys = set(P) | set(Q)
    return sum((max(P.get(y, F(0)) - w * Q.get(y, F(0)), F(0)) for y in keys), F(0))


def hockey_all_events(P: Dist, Q: Dist, w: F) -> F:
    """``max over every event T`` of ``P(T) - w Q(T)`` by enumerating all 2^|Y| events (tiny Y only)."""
    keys = sorted(set(P) | set(Q), key=repr)
    diffs = [P.get(y, F(0)) - w * Q.get(y, F(0)) for y in keys]
    best = F(0)
    for mask in range(1, 1 << len(diffs)):
        s = sum((diffs[i] for i in range(len(diffs)) if mask >> i & 1), F(0))
        best = max(best, s)
    return best


def dp_delta(P: Dist, Q: Dist, w: F) -> F:
    """Least delta such that P, Q are (ln w, delta)-indistinguishable in both directions (Definition 9)."""
    return max(hockey(P, Q, w), hockey(Q, P, w))


def max_ratio(P: Dist, Q: Dist) -> Optional[F]:
    """Least w with P <= w Q and Q <= w P pointwise (pure DP), or None (infinite)."""
    best = F(1)
    for y in set(P) | set(Q):
        a, b = P.get(y, F(0)), Q.get(y, F(0))
        if (a == 0) != (b == 0):
            return None
        if a:
            best = max(best, a / b, b / a)
    return best


def as_dist(seq: Sequence[F]) -> Dist:
    return {i: F(v) for i, v in enumerate(seq)}


def push(P: Dist, K: Callable[[object], Dist]) -> Dist:
    """Distribution of ``K(Y)`` for ``Y ~ P`` (``K(y)`` a distribution): post-processing."""
    out: Dist = {}
    for y, p in P.items():
        if p:
            for z, q in K(y).items():
                out[z] = out.get(z, F(0)) + p * q
    return out


def product(dists: Sequence[Dist]) -> Dist:
    out: Dist = {(): F(1)}
    for D in dists:
        out = {x + (y,): px * py for x, px in out.items() for y, py in D.items()}
    return out


# --------------------------------------------------------------------------
# Definitions 5 and 10


def rr_eps(w: F) -> Tuple[Dist, Dist]:
    """Definition 5: RR_eps(b) = b w.p. e^eps/(1+e^eps), not b w.p. 1/(1+e^eps); returns (RR(0), RR(1))."""
    w = F(w)
    return {0: w / (1 + w), 1: 1 / (1 + w)}, {0: 1 / (1 + w), 1: w / (1 + w)}


def rr(w: F, delta: F) -> Tuple[Dist, Dist]:
    """Definition 10: RR_(eps,delta) on {0, 1, 'Iam0', 'Iam1'}, as printed (the table, row by row)."""
    w, d = F(w), F(delta)
    P0 = {IAM0: d, 0: (1 - d) * w / (1 + w), 1: (1 - d) * 1 / (1 + w), IAM1: F(0)}
    P1 = {IAM0: F(0), 0: (1 - d) * 1 / (1 + w), 1: (1 - d) * w / (1 + w), IAM1: d}
    return P0, P1


# --------------------------------------------------------------------------
# Theorem 1.3 in exp-space


def S_sum(ws: Sequence[F], t: F) -> F:
    """``sum_{S subset {0..k-1}} max(e^{sum_S eps_i} - e^{eps_g} e^{sum_notS eps_i}, 0)`` over all 2^k subsets."""
    k = len(ws)
    total = F(0)
    for mask in range(1 << k):
        a = prod(ws[i] for i in range(k) if mask >> i & 1)
        b = prod(ws[i] for i in range(k) if not mask >> i & 1)
        total += max(a - t * b, F(0))
    return total


def thm13_lhs(ws: Sequence[F], t: F) -> F:
    """Left side of Theorem 1.3's inequality, as printed."""
    return S_sum(ws, t) / prod(1 + w for w in ws)


def thm13_rhs(deltas: Sequence[F], delta_g: F) -> F:
    """Right side of Theorem 1.3's inequality: 1 - (1 - delta_g) / prod(1 - delta_i)."""
    return 1 - (1 - F(delta_g)) / prod(1 - F(d) for d in deltas)


def thm13_lhs_homogeneous(w: F, k: int, t: F) -> F:
    """The printed special case: (1+e^eps)^-k sum_i C(k,i) max(e^{i eps} - e^{eps_g} e^{(k-i) eps}, 0)."""
    return sum((comb(k, i) * max(w ** i - t * w ** (k - i), F(0)) for i in range(k + 1)), F(0)) / (1 + w) ** k


def breakpoints(ws: Sequence[F]) -> List[F]:
    """``W_S / W_notS`` for every subset S: where the left side changes slope in t."""
    k = len(ws)
    out = set()
    for mask in range(1 << k):
        out.add(prod(ws[i] for i in range(k) if mask >> i & 1) / prod(ws[i] for i in range(k) if not mask >> i & 1))
    return sorted(out)


def least_t(f: Callable[[F], F], bps: Iterable[F], target: F) -> Optional[F]:
    """Least ``t >= 1`` with ``f(t) <= target``, ``f`` continuous, non-increasing, linear between the
    breakpoints ``bps`` and constant beyond the largest; None if there is none. Exact."""
    bs = sorted({F(1)} | {b for b in bps if b >= 1})
    vals = [f(b) for b in bs]
    if vals[0] <= target:
        return F(1)
    for (b0, v0), (b1, v1) in zip(zip(bs, vals), zip(bs[1:], vals[1:])):
        if v1 <= target < v0:
            return b0 + (v0 - target) * (b1 - b0) / (v0 - v1)
    return None


def thm13_least_t(ws: Sequence[F], deltas: Sequence[F], delta_g: F) -> Optional[F]:
    """e^{eps_g} for the least eps_g >= 0 satisfying Theorem 1.3's inequality (None: no eps_g does)."""
    rhs = thm13_rhs(deltas, delta_g)
    return least_t(lambda t: thm13_lhs(ws, t), breakpoints(ws), rhs)


def hockey_least_t(P: Dist, Q: Dist, delta: F) -> Optional[F]:
    """Least t >= 1 with dp_delta(P, Q, t) <= delta (None: none).

    Each direction ``hockey(P, Q, t)`` is linear between the likelihood ratios, so its least t is
    exact by :func:`least_t`; the two-sided answer is the larger of the two (both are non-increasing
    in t). Their maximum ``dp_delta`` is not linear between the ratios (a kink where the two
    directions cross), so it is not interpolated directly."""
    bps = set()
    for y in set(P) | set(Q):
        a, b = P.get(y, F(0)), Q.get(y, F(0))
        if a and b:
            bps |= {a / b, b / a}
    ts = [least_t(lambda t, A=A, B=B: hockey(A, B, t), bps, F(delta)) for A, B in ((P, Q), (Q, P))]
    return None if None in ts else max(ts)


# --------------------------------------------------------------------------
# generators

W_CHOICES = [F(1), F(5, 4), F(4, 3), F(3, 2), F(2), F(5, 2), F(3), F(4)]
DELTA_CHOICES = [F(0), F(0), F(1, 100), F(1, 10), F(1, 5), F(1, 3)]


def rand_dist_seq(rng, n: int, zeros: bool = True, den: int = 6) -> List[F]:
    """A random distribution on n points with small rational masses (some may be 0)."""
    while True:
        c = [rng.randint(0 if zeros else 1, den) for _ in range(n)]
        if sum(c):
            s = sum(c)
            return [F(v, s) for v in c]


def rand_dist(rng, support: Sequence, zeros: bool = True, den: int = 6) -> Dist:
    return dict(zip(support, rand_dist_seq(rng, len(support), zeros, den)))


def rand_pair(rng, n: int, zeros: bool = True) -> Tuple[Dist, Dist]:
    """A random pair (P, Q) on range(n); sometimes Q is mixed toward P (nearly pure)."""
    P, Q = rand_dist_seq(rng, n, zeros), rand_dist_seq(rng, n, zeros)
    if rng.random() < 0.4:
        a = F(rng.randint(1, 3), 4)
        Q = [a * p + (1 - a) * q for p, q in zip(P, Q)]
    return as_dist(P), as_dist(Q)


def rand_stochastic(rng, inputs: Sequence, outputs: Sequence) -> Dict[object, Dist]:
    return {y: rand_dist(rng, outputs) for y in inputs}


def subsets(n: int):
    for r in range(n + 1):
        yield from itertools.combinations(range(n), r)
