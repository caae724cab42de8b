"""Exact sums of real radicals: ``sum_i q_i * a_i^(1/n_i)``.

The thresholds of the Murtagh-Vadhan reductions (``T`` of Lemma 4.10, the gap
values ``z``, ``z'``, ``z''`` of Lemma 4.11) are sums of rational multiples of
positive real radicals of positive rationals. :class:`RadicalSum` holds them
exactly and decides their sign exactly:

* **zero test** (exact): two radicals ``a^(1/n)`` and ``b^(1/m)`` are in the
  same *class* when their ratio is rational, which is decided with integers
  (``(a^(L/n) / b^(L/m))`` a perfect ``L``-th power, ``L = lcm(n, m)``).
  Collapsing each class to one representative with a rational coefficient, the
  sum is zero iff every class coefficient is zero: real radicals whose pairwise
  ratios are irrational are linearly independent over Q (Siegel 1972; the
  basis of Bloemer's polynomial-time zero test for sums of radicals, 1991).
* **sign** of a nonzero sum: Arb ball arithmetic at rising precision; it
  terminates because the value is nonzero.

Guarantee: exact (every comparison, equality and sign is decided exactly;
enclosures from :meth:`RadicalSum.arb` contain the value).

References: C. L. Siegel, "Algebraische Abhaengigkeit von Wurzeln", Acta Arith.
21 (1972) 59-64; J. Bloemer, "Computing sums of radicals in polynomial time",
FOCS 1991.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Iterable, Optional, Union

from .._backend import arb, fmpq, iroot, workprec
from ..errors import InvalidArgument
from ..numbers import MAXPREC, arb_bounds, decide_sign, fraction_to_decimal

__all__ = ["RadicalSum", "as_radical_sum"]

Number = Union[int, Fraction, "RadicalSum"]


def _prime_factors(n: int) -> list[int]:
    out = []
    p = 2
    while p * p <= n:
        if n % p == 0:
            out.append(p)
            while n % p == 0:
                n //= p
        p += 1
    if n > 1:
        out.append(n)
    return out


def _exact_root(q: Fraction, n: int) -> Optional[Fraction]:
    """``q^(1/n)`` when it is rational (q > 0), else None. Guarantee: exact."""
    if n == 1:
        return q
    a, ok = iroot(q.numerator, n)
    if not ok:
        return None
    b, ok = iroot(q.denominator, n)
    if not ok:
        return None
    return Fraction(int(a), int(b))


def _canon(a: Fraction, n: int) -> tuple[Fraction, int]:
    """The same radical ``a^(1/n)`` with the least index reachable by exact roots."""
    if a == 1:
        return Fraction(1), 1
    changed = True
    while changed and n > 1:
        changed = False
        for p in _prime_factors(n):
            r = _exact_root(a, p)
            if r is not None:
                a, n = r, n // p
                changed = True
                break
    return a, n


def _ratio(a: Fraction, n: int, b: Fraction, m: int) -> Optional[Fraction]:
    """``a^(1/n) / b^(1/m)`` when it is rational, else None. Guarantee: exact."""
    L = n * m // math.gcd(n, m)
    return _exact_root(a ** (L // n) / b ** (L // m), L)


def _arb_root(a: Fraction, n: int) -> arb:
    v = arb(fmpq(a.numerator, a.denominator))
    return v if n == 1 else v.root(n)


class RadicalSum:
    """An exact real number ``sum_i q_i * a_i^(1/n_i)`` (rational ``q_i``, rational ``a_i > 0``).

    Immutable. Supports ``+ - *`` with integers, Fractions and other RadicalSums,
    division by a nonzero rational, exact comparisons (``< <= == >= >``) and
    :meth:`sign`.

    Guarantee: exact (comparisons and signs are decided exactly; see the module
    docstring for the zero test).

    Raises:
        InvalidArgument: a radicand <= 0 or an index < 1.

    Examples:
        >>> s = RadicalSum.radical(8, 6) - RadicalSum.radical(2, 2)   # 8^(1/6) = 2^(1/2)
        >>> s.sign()
        0
        >>> (RadicalSum.radical(3, 2) * RadicalSum.radical(3, 2)) == 3
        True
        >>> RadicalSum.radical(2, 3) > Fraction(5, 4)   # 2^(1/3) = 1.2599...
        True

    References: Siegel, Acta Arith. 21 (1972); used for Murtagh-Vadhan Lemmas
    4.10-4.11 (the thresholds T, z, z', z'').
    """

    __slots__ = ("_terms",)

    def __init__(self, terms: Iterable[tuple[Fraction, Fraction, int]] = ()):
        acc: dict[tuple[Fraction, int], Fraction] = {}
        for q, a, n in terms:
            q = Fraction(q)
            a = Fraction(a)
            if a <= 0:
                raise InvalidArgument("radicand", "a positive rational", a)
            if int(n) != n or n < 1:
                raise InvalidArgument("index", "a positive integer", n)
            if q == 0:
                continue
            a, n = _canon(a, int(n))
            if n == 1:  # a rational term: fold it into the coefficient
                q, a = q * a, Fraction(1)
            acc[(a, n)] = acc.get((a, n), Fraction(0)) + q
        items = [(a, n, q) for (a, n), q in acc.items() if q != 0]
        items.sort(key=lambda t: (t[1], t[0]))
        object.__setattr__(self, "_terms", tuple(items))

    def __setattr__(self, name, value):
        raise AttributeError("RadicalSum is immutable")

    # constructors ------------------------------------------------------

    @classmethod
    def rational(cls, q: object) -> "RadicalSum":
        """The rational number ``q``. Guarantee: exact.

        Raises:
            TypeError / ValueError: ``q`` not convertible to a Fraction.
        """
        return cls([(Fraction(q), Fraction(1), 1)])

    @classmethod
    def radical(cls, a: object, n: int, coef: object = 1) -> "RadicalSum":
        """``coef * a^(1/n)`` (positive real root). Guarantee: exact.

        Raises:
            InvalidArgument: ``a <= 0`` or ``n`` not a positive integer.
        """
        return cls([(Fraction(coef), Fraction(a), n)])

    @property
    def terms(self) -> tuple[tuple[Fraction, int, Fraction], ...]:
        """``(a, n, q)`` for each term ``q * a^(1/n)``, canonical order. Guarantee: exact. Raises: nothing."""
        return self._terms

    # arithmetic --------------------------------------------------------

    def __add__(self, other: Number) -> "RadicalSum":
        o = as_radical_sum(other)
        return RadicalSum([(q, a, n) for a, n, q in self._terms + o._terms])

    __radd__ = __add__

    def __neg__(self) -> "RadicalSum":
        return RadicalSum([(-q, a, n) for a, n, q in self._terms])

    def __sub__(self, other: Number) -> "RadicalSum":
        return self + (-as_radical_sum(other))

    def __rsub__(self, other: Number) -> "RadicalSum":
        return as_radical_sum(other) - self

    def __mul__(self, other: Number) -> "RadicalSum":
        o = as_radical_sum(other)
        out = []
        for a, n, q in self._terms:
            for b, m, p in o._terms:
                L = n * m // math.gcd(n, m)
                out.append((q * p, a ** (L // n) * b ** (L // m), L))
        return RadicalSum(out)

    __rmul__ = __mul__

    def __truediv__(self, other: object) -> "RadicalSum":
        if isinstance(other, RadicalSum):
            if len(other._terms) == 1 and other._terms[0][1] == 1:
                other = other._terms[0][2] * other._terms[0][0]
            else:
                raise InvalidArgument("divisor", "a nonzero rational", other)
        d = Fraction(other)  # type: ignore[arg-type]
        if d == 0:
            raise InvalidArgument("divisor", "a nonzero rational", d)
        return RadicalSum([(q / d, a, n) for a, n, q in self._terms])

    # exact decisions ---------------------------------------------------

    def collapsed(self) -> tuple[tuple[Fraction, int, Fraction], ...]:
        """Terms grouped by class (rational ratio), zero classes dropped. Guarantee: exact.

        Each returned ``(a, n, q)`` is a class representative ``a^(1/n)`` with the
        class's total coefficient ``q != 0``; the representatives have pairwise
        irrational ratios, so (Siegel) they are linearly independent over Q.

        Raises: nothing (integer arithmetic only).
        """
        classes: list[list] = []
        for a, n, q in self._terms:
            for cl in classes:
                r = _ratio(a, n, cl[0], cl[1])
                if r is not None:
                    cl[2] += q * r
                    break
            else:
                classes.append([a, n, q])
        return tuple((a, n, q) for a, n, q in classes if q != 0)

    def is_zero(self) -> bool:
        """True iff the number is 0. Guarantee: exact (Siegel's independence). Raises: nothing."""
        return not self.collapsed()

    def sign(self, *, maxprec: int = MAXPREC) -> int:
        """-1, 0 or 1. Guarantee: exact.

        Raises:
            PrecisionError: only if a nonzero value is below ``2^-maxprec`` in
                magnitude (it then could not be told from 0 in ``maxprec`` bits).
        """
        terms = self.collapsed()
        if not terms:
            return 0
        if all(q > 0 for _, _, q in terms):
            return 1
        if all(q < 0 for _, _, q in terms):
            return -1
        def ball(prec: int) -> arb:
            v = arb(0)
            for a, n, q in terms:
                v += arb(fmpq(q.numerator, q.denominator)) * _arb_root(a, n)
            return v

        return decide_sign(ball, maxprec=maxprec, what="the sign of a nonzero sum of radicals")

    def _cmp(self, other: Number) -> int:
        return (self - as_radical_sum(other)).sign()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, (int, Fraction, RadicalSum)) or isinstance(other, bool):
            return NotImplemented
        return self._cmp(other) == 0

    def __ne__(self, other: object) -> bool:
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    def __lt__(self, other: Number) -> bool:
        return self._cmp(other) < 0

    def __le__(self, other: Number) -> bool:
        return self._cmp(other) <= 0

    def __gt__(self, other: Number) -> bool:
        return self._cmp(other) > 0

    def __ge__(self, other: Number) -> bool:
        return self._cmp(other) >= 0

    __hash__ = None  # type: ignore[assignment]

    def exact_rational(self) -> Optional[Fraction]:
        """The value as a Fraction when it is rational, else None. Guarantee: exact. Raises: nothing."""
        terms = self.collapsed()
        if not terms:
            return Fraction(0)
        if len(terms) == 1:
            a, n, q = terms[0]
            r = _exact_root(a, n)
            if r is not None:
                return q * r
        return None

    # numerics ----------------------------------------------------------

    def arb(self, prec: int) -> arb:
        """Enclosure at ``prec`` bits. Guarantee: enclosure. Raises: nothing."""
        with workprec(prec):
            v = arb(0)
            for a, n, q in self._terms:
                v += arb(fmpq(q.numerator, q.denominator)) * _arb_root(a, n)
            return v

    def decimal(self, digits: int = 12) -> str:
        """An outward-rounded decimal interval ``[lo, hi]`` (or the exact value). Guarantee: enclosure. Raises: nothing."""
        ex = self.exact_rational()
        if ex is not None and ex.denominator == 1:
            return str(ex.numerator)
        prec = int(digits * 3.33) + 40
        lo, hi = arb_bounds(self.arb(prec))
        a = fraction_to_decimal(lo, digits, "down")
        b = fraction_to_decimal(hi, digits, "up")
        return a if a == b else f"[{a}, {b}]"

    def approx(self) -> float:
        """A float approximation. Guarantee: approximate (the midpoint of an 80-bit ball). Raises: nothing."""
        return float(self.arb(80).mid())

    def __str__(self) -> str:
        if not self._terms:
            return "0"
        parts = []
        # positive terms first, for reading
        for a, n, q in sorted(self._terms, key=lambda t: t[2] < 0):
            base = str(a) if a.denominator == 1 else f"({a})"
            rad = "" if (a == 1 and n == 1) else (base if n == 1 else f"{base}^(1/{n})")
            if not rad:
                body = str(abs(q))
            elif abs(q) == 1:
                body = rad
            else:
                body = f"{abs(q)}*{rad}"
            parts.append(("- " if q < 0 else "+ ") + body)
        s = " ".join(parts)
        return s[2:] if s.startswith("+ ") else "-" + s[2:]

    def __repr__(self) -> str:
        return f"RadicalSum({self})"


def as_radical_sum(x: object) -> RadicalSum:
    """Coerce an int, a Fraction or a RadicalSum to a RadicalSum. Guarantee: exact.

    Raises:
        InvalidArgument: any other type (floats are refused: give an exact value).
    """
    if isinstance(x, RadicalSum):
        return x
    if isinstance(x, bool):
        raise InvalidArgument("value", "an int, a Fraction or a RadicalSum", x)
    if isinstance(x, (int, Fraction)):
        return RadicalSum.rational(x)
    raise InvalidArgument("value", "an int, a Fraction or a RadicalSum", f"{x!r} of type {type(x).__name__}")
