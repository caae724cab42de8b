"""What the kernels are chosen on: a composition's groups and their common lattice.

A composition reaches the kernels as *groups* ``(w, n)``: a distinct ``w = e^eps`` and how
many mechanisms have it (``k`` equal mechanisms are one group, never ``k`` values). When every
``w`` is an integer power of one base ``u`` (rational eps: ``u = e^gcd``; rational ``e^eps``
that are powers of one rational; D-th roots of such), the lattice kernels apply.

Guarantee: exact (every decision here is on exact numbers). Raises: nothing.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Optional, Sequence

from .._backend import fmpz
from ..numbers import ExpNum, RatExp, Root

__all__ = ["Groups", "detect_lattice", "detect_lattice_groups", "groups_of", "merge_exponents", "perfect_power"]

Groups = Sequence[tuple[ExpNum, int]]


def _iroot(n: int, p: int) -> tuple[int, bool]:
    """``(floor(n^(1/p)), whether it is exact)`` for ``n >= 0`` (FLINT's ``fmpz.root``)."""
    r = int(fmpz(n).root(p))
    return r, r**p == n


def perfect_power(q: Fraction) -> tuple[Fraction, int]:
    """``q = b^e`` with ``b`` not a perfect power (``q > 0``, ``q != 1``).
    Guarantee: exact. Raises: nothing."""
    num, den = q.numerator, q.denominator
    e = 1
    bits = max(num.bit_length(), den.bit_length())
    p = 2
    while p <= bits:
        r1, ok1 = _iroot(num, p)
        r2, ok2 = _iroot(den, p) if ok1 else (0, False)
        if ok1 and ok2:
            num, den = r1, r2
            e *= p
            bits = max(num.bit_length(), den.bit_length())
            continue
        p += 1 if p == 2 else 2
    return Fraction(num, den), e


def detect_lattice_groups(values: Sequence[ExpNum]) -> Optional[tuple[ExpNum, list[int]]]:
    """``(u, a)`` with ``values[j] = u^(a[j])`` exactly, or ``None``. Guarantee: exact.

    Works for eps given as rationals (``u = e^{gcd}``), for rational ``e^eps``
    that are integer powers of one rational, and for D-th roots of such.
    Raises: nothing (``None`` when no lattice is found).
    """
    nontriv = [x for x in values if not x.is_one()]
    if not nontriv:
        return RatExp(), [0] * len(values)
    if all(isinstance(x, RatExp) and x.q == 1 for x in nontriv):
        g_num = 0
        l_den = 1
        for x in nontriv:
            r = x.r  # type: ignore[attr-defined]
            g_num = math.gcd(g_num, r.numerator)
            l_den = l_den * r.denominator // math.gcd(l_den, r.denominator)
        g = Fraction(g_num, l_den)
        a = [0 if x.is_one() else int(x.r / g) for x in values]  # type: ignore[attr-defined]
        return RatExp.from_eps(g), a
    if all((isinstance(x, RatExp) and x.r == 0) for x in nontriv) or (
        all(isinstance(x, Root) for x in nontriv) and len({x.D for x in nontriv}) == 1  # type: ignore[attr-defined]
    ):
        D = nontriv[0].D if isinstance(nontriv[0], Root) else 1
        vals = [x.n if isinstance(x, Root) else x.q for x in nontriv]  # type: ignore[attr-defined]
        bases = [perfect_power(v) for v in vals]
        b0 = bases[0][0]
        if any(b != b0 for b, _ in bases):
            return None
        g = 0
        for _, e in bases:
            g = math.gcd(g, e)
        ubase = b0**g
        u: ExpNum = RatExp.from_exp(ubase) if D == 1 else Root(ubase, D)
        it = iter(e // g for _, e in bases)
        a = [0 if x.is_one() else next(it) for x in values]
        return u, a
    return None


def detect_lattice(ws: Sequence[ExpNum]) -> Optional[tuple[ExpNum, list[int]]]:
    """``(u, a)`` with ``w_i = u^(a_i)`` exactly for every element of ``ws``, or ``None``.

    Guarantee: exact. Raises: nothing. (The group form is :func:`detect_lattice_groups`.)
    """
    groups = groups_of(ws)
    lat = detect_lattice_groups([v for v, _ in groups])
    if lat is None:
        return None
    u, a = lat
    exp = {v: e for (v, _), e in zip(groups, a)}
    return u, [exp[x] for x in ws]


def groups_of(ws: Sequence[ExpNum]) -> list[tuple[ExpNum, int]]:
    """Distinct values of ``ws`` with their multiplicities, in order of first appearance.
    Guarantee: exact. Raises: nothing."""
    out: dict = {}
    for x in ws:
        out[x] = out.get(x, 0) + 1
    return list(out.items())


def merge_exponents(a: Sequence[int], groups: Groups) -> list[tuple[int, int]]:
    """Exponent groups ``(a_j, count)`` with equal exponents merged, sorted.
    Guarantee: exact. Raises: nothing."""
    out: dict = {}
    for ai, (_, n) in zip(a, groups):
        out[ai] = out.get(ai, 0) + n
    return sorted(out.items())
