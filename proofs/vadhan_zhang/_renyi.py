"""Renyi divergences of finite distributions (Vadhan-Zhang Definitions 2.3 and 5.2), decided exactly.

``D_alpha(P||Q) = 1/(alpha-1) log S_alpha``, ``S_alpha = sum_x P(x)^alpha Q(x)^(1-alpha)``, and
``S_alpha = inf`` when P puts mass where Q does not. Every comparison of Renyi divergences in the
checks is a comparison of the sums ``S`` (``log`` and ``1/(alpha-1)`` are increasing for alpha > 1,
and ``D_1 + D_2`` corresponds to ``S_1 S_2``).

* integer alpha: ``S`` is a rational (exact Fractions);
* rational alpha = m/n: every term is ``r^(1/n)`` for a positive rational r, written
  ``c * s^(1/n)`` with s an n-th-power-free positive integer; :class:`Rad` keeps the sum as
  ``{s: c}``. Real n-th roots of such pairwise distinct s are linearly independent over Q
  (Besicovitch 1940, Mordell 1953), so a sum is zero iff every coefficient is zero (exact);
  a non-zero sum has its sign certified by Arb balls at rising precision (never guessed).

Guarantee: exact (the sign of a non-zero radical sum: certified enclosure).
"""

from __future__ import annotations

import math
from fractions import Fraction as F
from functools import lru_cache
from typing import Dict, Sequence, Tuple

import sympy as sp
from flint import arb, ctx

INF = math.inf
ZERO, ONE = F(0), F(1)


def S_int(pairs: Sequence[Tuple[F, F]], alpha: int):
    """``sum p^alpha q^(1-alpha)`` for an integer alpha >= 2: a Fraction, or INF."""
    s = ZERO
    for p, q in pairs:
        if p == 0:
            continue
        if q == 0:
            return INF
        s += F(p) ** alpha / F(q) ** (alpha - 1)
    return s


@lru_cache(maxsize=100000)
def _factor(n: int) -> Tuple[Tuple[int, int], ...]:
    return tuple(sorted(sp.factorint(n).items()))


def _fexp(x: F) -> Dict[int, int]:
    out: Dict[int, int] = {}
    for pr, e in _factor(x.numerator):
        out[pr] = out.get(pr, 0) + e
    for pr, e in _factor(x.denominator):
        out[pr] = out.get(pr, 0) - e
    return out


class Rad:
    """An exact sum ``sum_s c_s s^(1/n)``; see the module docstring."""

    __slots__ = ("n", "terms")

    def __init__(self, n: int, terms=None):
        self.n = n
        self.terms: Dict[int, F] = {s: c for s, c in (terms or {}).items() if c}

    @classmethod
    def root_of(cls, n: int, exps: Dict[int, int], coef: F = ONE) -> "Rad":
        """``coef * (prod p^e)^(1/n)``."""
        c, s = F(coef), 1
        for pr, e in exps.items():
            k, r = divmod(e, n)
            c *= F(pr) ** k
            s *= pr ** r
        return cls(n, {s: c})

    @classmethod
    def power_term(cls, p: F, q: F, alpha: F) -> "Rad":
        """``p^alpha q^(1-alpha)`` for p, q > 0 and alpha = m/n."""
        alpha = F(alpha)
        m, n = alpha.numerator, alpha.denominator
        ep, eq = _fexp(F(p)), _fexp(F(q))
        exps: Dict[int, int] = {}
        for pr, e in ep.items():
            exps[pr] = exps.get(pr, 0) + m * e
        for pr, e in eq.items():
            exps[pr] = exps.get(pr, 0) + (n - m) * e
        return cls.root_of(n, exps)

    def __add__(self, o: "Rad") -> "Rad":
        t = dict(self.terms)
        for s, c in o.terms.items():
            t[s] = t.get(s, ZERO) + c
        return Rad(self.n, t)

    def __sub__(self, o: "Rad") -> "Rad":
        return self + o.scale(-1)

    def scale(self, c) -> "Rad":
        return Rad(self.n, {s: v * c for s, v in self.terms.items()})

    def __mul__(self, o: "Rad") -> "Rad":
        out = Rad(self.n)
        for s1, c1 in self.terms.items():
            for s2, c2 in o.terms.items():
                ex = _fexp(F(s1 * s2))
                out = out + Rad.root_of(self.n, ex, c1 * c2)
        return out

    def is_zero(self) -> bool:
        return not self.terms

    def ball(self, prec: int) -> arb:
        old = ctx.prec
        ctx.prec = prec
        try:
            tot = arb(0)
            for s, c in self.terms.items():
                tot += arb(c.numerator) / arb(c.denominator) * arb(s).root(self.n)
            return tot
        finally:
            ctx.prec = old

    def sign(self, maxprec: int = 1 << 15) -> int:
        """-1, 0 or 1: 0 exactly (linear independence of radicals), else certified by Arb."""
        if self.is_zero():
            return 0
        prec = 64
        while prec <= maxprec:
            b = self.ball(prec)
            if b > 0:
                return 1
            if b < 0:
                return -1
            prec *= 2
        raise ArithmeticError(f"sign of a non-zero radical sum undecided at {maxprec} bits")

    def __repr__(self) -> str:
        return " + ".join(f"{c}*{s}^(1/{self.n})" for s, c in sorted(self.terms.items())) or "0"


def S(pairs: Sequence[Tuple[F, F]], alpha):
    """``S_alpha`` for a rational alpha > 1: a Fraction (integer alpha), a :class:`Rad`, or INF."""
    alpha = F(alpha)
    if alpha.denominator == 1:
        return S_int(pairs, int(alpha))
    tot = Rad(alpha.denominator)
    for p, q in pairs:
        if p == 0:
            continue
        if q == 0:
            return INF
        tot = tot + Rad.power_term(F(p), F(q), alpha)
    return tot


def _as_rad(x, n):
    if isinstance(x, Rad):
        return x
    return Rad(n, {1: F(x)})


def cmp(a, b) -> int:
    """Compare two S values (Fractions, Rads or INF) exactly: -1, 0, 1."""
    if a == INF or b == INF:
        if a == INF and b == INF:
            return 0
        return 1 if a == INF else -1
    if isinstance(a, Rad) or isinstance(b, Rad):
        n = a.n if isinstance(a, Rad) else b.n
        return (_as_rad(a, n) - _as_rad(b, n)).sign()
    return (a > b) - (a < b)


def mul(a, b):
    if a == INF or b == INF:
        return INF
    if isinstance(a, Rad) or isinstance(b, Rad):
        n = a.n if isinstance(a, Rad) else b.n
        return _as_rad(a, n) * _as_rad(b, n)
    return a * b


def d_ball(pairs, alpha, prec: int = 128) -> arb:
    """A ball containing D_alpha(P||Q) (for reports only; decisions use :func:`cmp`)."""
    s = S(pairs, alpha)
    if s == INF:
        raise ValueError("infinite")
    old = ctx.prec
    ctx.prec = prec
    try:
        b = s.ball(prec) if isinstance(s, Rad) else arb(s.numerator) / arb(s.denominator)
        a = F(alpha)
        return b.log() * arb(a.denominator) / arb(a.numerator - a.denominator)
    finally:
        ctx.prec = old
