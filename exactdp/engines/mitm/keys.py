"""Exact keys of likelihood ratios for meet in the middle: number theory, no floats.

Two classes of a half merge when their ratios ``W_X / W_notX`` are equal exactly; the
ratios of values ``q e^r`` are compared through integer vectors over a coprime base of the
rationals' numerators and denominators, plus the exponents ``r`` (:func:`ratio_keys`).
Guarantee: exact. Raises: nothing.
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd
from typing import Optional, Sequence

from ...numbers import ExpNum, RatExp, Root

__all__ = ["coprime_base", "ratio_keys"]


def coprime_base(nums: Sequence[int]) -> list[int]:
    """Pairwise coprime integers > 1 of which every ``nums[i]`` is a product (a coprime
    base, by gcd refinement; no factoring). Guarantee: exact. Raises: nothing."""
    base: list[int] = []
    todo = [int(abs(x)) for x in nums]
    while todo:
        y = todo.pop()
        if y <= 1:
            continue
        for i, b in enumerate(base):
            g = gcd(y, b)
            if g > 1:
                base.pop(i)
                todo.extend([b // g, g, y // g])
                break
        else:
            base.append(y)
    return sorted(set(base))


def _valuation(x: int, b: int) -> int:
    e = 0
    while x % b == 0:
        x //= b
        e += 1
    return e


def _rank_rows(M: list[list[Fraction]]) -> list[int]:
    """Indices of a maximal set of linearly independent rows of ``M`` (exact)."""
    rows: list[list[Fraction]] = []
    pivots: list[int] = []
    keep: list[int] = []
    for idx, r in enumerate(M):
        v = [Fraction(x) for x in r]
        for pr, pc in zip(rows, pivots):
            if v[pc]:
                f = v[pc] / pr[pc]
                v = [a - f * b for a, b in zip(v, pr)]
        nz = next((c for c, x in enumerate(v) if x), None)
        if nz is not None:
            rows.append(v)
            pivots.append(nz)
            keep.append(idx)
    return keep


def ratio_keys(values: Sequence[ExpNum]) -> Optional[list[list[int]]]:
    """Integer vectors ``key[j]`` (one per value) such that ``prod values[j]^(e_j) = 1``
    exactly iff ``sum e_j key[j] = 0``, for integer exponents ``e``; ``None`` when
    no exact relation can be decided (e.g. a Computable value, which is then
    treated as independent of the others).

    ``q e^r`` (RatExp) and ``n^(1/D)`` (Root): the product is ``alpha e^R`` with
    ``alpha`` algebraic and ``R`` rational; by Lindemann-Weierstrass it is 1 iff
    ``R = 0`` and ``alpha = 1``, and ``alpha^L = 1`` (``L`` the lcm of the D) iff every
    exponent over a coprime base of the rationals involved is 0. The rows of the key
    are those exponents and ``R`` (scaled to integers), reduced to independent rows.

    Guarantee: exact. Raises: nothing.
    """
    vals = list(values)
    if not vals:
        return []
    L = 1
    for x in vals:
        if isinstance(x, Root):
            L = L * x.D // gcd(L, x.D)
    nums: list[int] = []
    parts = []  # (rational whose L-th-power scaled log, scale, r)
    for x in vals:
        if isinstance(x, RatExp):
            parts.append((x.q, L, x.r))
        elif isinstance(x, Root):
            parts.append((x.n, L // x.D, Fraction(0)))
        else:
            parts.append(None)
        if parts[-1] is not None:
            q = parts[-1][0]
            nums.extend([q.numerator, q.denominator])
    base = coprime_base(nums)
    rows: list[list[int]] = []
    for b in base:
        rows.append([(_valuation(p[0].numerator, b) - _valuation(p[0].denominator, b)) * p[1] if p is not None else 0
                     for p in parts])
    den = 1
    for p in parts:
        if p is not None:
            den = den * p[2].denominator // gcd(den, p[2].denominator)
    rows.append([int(p[2] * den) if p is not None else 0 for p in parts])
    for j, p in enumerate(parts):  # a Computable: its own independent coordinate
        if p is None:
            rows.append([1 if i == j else 0 for i in range(len(parts))])
    keep = _rank_rows([[Fraction(v) for v in r] for r in rows])
    rows = [rows[i] for i in keep] or [[0] * len(vals)]
    return [[r[j] for r in rows] for j in range(len(vals))]
