"""Exact arithmetic in ``Q(w)`` for a transcendental ``w = e^eps`` (``eps`` rational, nonzero).

Every quantity of the homogeneous optimal composition (Kairouz-Oh-Viswanath
Theorem 3.3: the ``delta_i``, the supporting lines of the privacy region, their
intersections, the vertices of the trade-off curve) is a rational function of
``w = e^eps`` with rational coefficients. When ``eps`` is a nonzero rational,
``w`` is transcendental (Lindemann-Weierstrass), so

* ``p(w) = 0`` for a polynomial ``p`` with rational coefficients iff ``p`` is the
  zero polynomial: equality is decided exactly, symbolically;
* the sign of a nonzero ``p(w)/q(w)`` is decided by Arb ball arithmetic at rising
  precision, which terminates because the value is not 0.

A :class:`QW` is such an element, kept as a pair of FLINT ``fmpq_poly`` in lowest
terms. It supports ``+ - * /``, exact comparisons, and :meth:`QW.enclosure` (an
:class:`~exactdp.numbers.Enclosure` of its value to ``digits`` significant digits).
Rationals mix freely with it. This is what lets the Theorem 3.3 polygon be computed
and compared with the composition's trade-off curve *exactly* even when ``e^eps``
is irrational (``--eps 0.4``); only the printed coordinates are enclosures.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Optional, Sequence, Union

from .._backend import arb, arb_poly, fmpq, fmpq_poly, mpq, workprec
from ..errors import InvalidArgument, NotExact
from ..numbers import MAXPREC, Enclosure, ExpNum, RatExp, arb_bounds, coprime_fraction, decide_sign, refine

__all__ = ["QW", "Scalar", "scalar_enclosure", "scalar_exact", "exp_scalars", "fast", "field_units", "MAX_QW_DEGREE"]

#: Largest polynomial degree a QW element may reach (the arithmetic is exact and
#: unbounded otherwise; beyond this the homogeneous region is computed in Arb instead).
MAX_QW_DEGREE = 4000


def _fq(x: Fraction) -> fmpq:
    return fmpq(x.numerator, x.denominator)


class QW:
    """An element ``num(w) / den(w)`` of ``Q(w)``, ``w = e^eps`` transcendental (see the module docstring).

    Guarantee: exact (arithmetic and comparisons); :meth:`enclosure` is a certified enclosure.

    Raises:
        InvalidArgument: ``w`` not ``e^eps`` for a nonzero rational eps; mixing two different ``w``.
        PrecisionError: a sign undecided by ``MAXPREC`` bits (cannot happen for a nonzero
            element, but the loop is bounded).

    Examples:
        >>> from exactdp.numbers import RatExp
        >>> w = QW.gen(RatExp.from_eps(Fraction(2, 5)))
        >>> x = (w - 1) / (w + 1)          # tanh(eps/2), eps = 0.4
        >>> x > Fraction(1, 5), x * (w + 1) == w - 1
        (False, True)
        >>> x.enclosure(10).decimal(10)
        ('0.1973753202', '0.1973753203')
    """

    __slots__ = ("num", "den", "w")

    def __init__(self, num: fmpq_poly, den: fmpq_poly, w: RatExp):
        if den.is_zero():
            raise ZeroDivisionError("QW: zero denominator")
        if num.is_zero():
            num, den = fmpq_poly([0]), fmpq_poly([1])
        else:
            g = num.gcd(den)
            if g.degree() > 0:
                num, den = num // g, den // g
            lc = den.leading_coefficient()
            if lc != 1:
                num, den = num / lc, den / lc
        if max(num.degree(), den.degree()) > MAX_QW_DEGREE:
            raise InvalidArgument("k", f"a composition whose exact region has degree <= {MAX_QW_DEGREE} in e^eps",
                                  max(num.degree(), den.degree()),
                                  hint="give exp_eps as a rational (exact), or use the certified region")
        self.num, self.den, self.w = num, den, w

    @classmethod
    def gen(cls, w: RatExp) -> "QW":
        """The generator ``w`` itself. Raises: InvalidArgument unless ``w = e^eps``, eps rational != 0."""
        if not (isinstance(w, RatExp) and w.q == 1 and w.r != 0):
            raise InvalidArgument("w", "e^eps for a nonzero rational eps (transcendental)", w)
        return cls(fmpq_poly([0, 1]), fmpq_poly([1]), w)

    def const(self, x: object) -> "QW":
        """The rational ``x`` as an element of the same field. Guarantee: exact."""
        q = scalar_exact(x) if type(x) is _MPQ else Fraction(x)  # type: ignore[arg-type]
        return QW(fmpq_poly([_fq(q)]), fmpq_poly([1]), self.w)

    def _co(self, other: object) -> "QW":
        if isinstance(other, QW):
            if other.w != self.w:
                raise InvalidArgument("w", "one common e^eps in a computation", f"{self.w!r} and {other.w!r}")
            return other
        if isinstance(other, (int, Fraction)) or type(other) is _MPQ:
            return self.const(other)
        return NotImplemented  # type: ignore[return-value]

    # -- arithmetic --------------------------------------------------------
    def __add__(self, other):
        o = self._co(other)
        if o is NotImplemented:
            return o
        return QW(self.num * o.den + o.num * self.den, self.den * o.den, self.w)

    __radd__ = __add__

    def __neg__(self):
        return QW(-self.num, self.den, self.w)

    def __sub__(self, other):
        o = self._co(other)
        if o is NotImplemented:
            return o
        return QW(self.num * o.den - o.num * self.den, self.den * o.den, self.w)

    def __rsub__(self, other):
        o = self._co(other)
        if o is NotImplemented:
            return o
        return o - self

    def __mul__(self, other):
        o = self._co(other)
        if o is NotImplemented:
            return o
        return QW(self.num * o.num, self.den * o.den, self.w)

    __rmul__ = __mul__

    def __truediv__(self, other):
        o = self._co(other)
        if o is NotImplemented:
            return o
        if o.num.is_zero():
            raise ZeroDivisionError("QW division by zero")
        return QW(self.num * o.den, self.den * o.num, self.w)

    def __rtruediv__(self, other):
        o = self._co(other)
        if o is NotImplemented:
            return o
        return o / self

    def __pow__(self, n: int):
        if n < 0:
            return self.const(1) / (self ** (-n))
        return QW(self.num**n, self.den**n, self.w)

    # -- exact decisions ---------------------------------------------------
    def is_zero(self) -> bool:
        return self.num.is_zero()

    def exact(self) -> Optional[Fraction]:
        """The value as a Fraction when it is a constant (rational), else None."""
        if self.num.degree() <= 0 and self.den.degree() == 0:
            c = self.num.coeffs()[0] if not self.num.is_zero() else fmpq(0)
            d = self.den.coeffs()[0]
            v = c / d
            return Fraction(int(v.p), int(v.q))
        return None

    def _arb(self, prec: int) -> arb:
        with workprec(prec):
            x = self.w.arb(prec)
            n = arb_poly(self.num.numer())(x) / arb(self.num.denom())
            d = arb_poly(self.den.numer())(x) / arb(self.den.denom())
            return n / d

    def sign(self) -> int:
        """Exact sign: 0 iff the numerator is the zero polynomial; else decided in Arb.
        Guarantee: exact. Raises: PrecisionError (bounded loop; not reached for w transcendental)."""
        if self.num.is_zero():
            return 0
        ex = self.exact()
        if ex is not None:
            return (ex > 0) - (ex < 0)

        return decide_sign(self._arb, maxprec=MAXPREC, what="sign in Q(e^eps)")

    def _cmp(self, other) -> int:
        o = self._co(other)
        if o is NotImplemented:
            raise TypeError(f"cannot compare QW with {type(other).__name__}")
        return (self - o).sign()

    def __eq__(self, other) -> bool:  # type: ignore[override]
        o = self._co(other)
        if o is NotImplemented:
            return False
        return (self - o).num.is_zero()

    def __hash__(self) -> int:
        return hash((QW, str(self.num), str(self.den)))

    def __lt__(self, other) -> bool:
        return self._cmp(other) < 0

    def __le__(self, other) -> bool:
        return self._cmp(other) <= 0

    def __gt__(self, other) -> bool:
        return self._cmp(other) > 0

    def __ge__(self, other) -> bool:
        return self._cmp(other) >= 0

    # -- output ------------------------------------------------------------
    def enclosure(self, digits: int) -> Enclosure:
        """The value to ``digits`` significant digits (relative; exact when rational).

        Guarantee: enclosure (certified). Raises: PrecisionError by ``MAXPREC`` bits.
        """
        ex = self.exact()
        if ex is not None:
            return Enclosure.point(ex)

        def step(prec: int) -> Optional[Enclosure]:
            v = self._arb(prec)
            if not v.is_finite():
                return None
            e = Enclosure(*arb_bounds(v))
            return e if e.accurate(digits) else None

        return refine(step, digits=digits, maxprec=MAXPREC, what="value in Q(e^eps)")

    def __repr__(self) -> str:
        return f"QW(({self.num}) / ({self.den}), w={self.w!r})"


_MPQ = type(mpq(0))

#: A coordinate of an exact polygon: a rational (kept as a gmpy2 ``mpq`` internally: its
#: gcds are GMP's), or an element of Q(e^eps).
Scalar = Union[Fraction, QW]


def fast(x):
    """A rational as gmpy2 ``mpq`` (QW and mpq unchanged). Guarantee: exact. Raises: nothing."""
    if isinstance(x, (int, Fraction)):
        return mpq(x.numerator, x.denominator) if isinstance(x, Fraction) else mpq(x)
    return x


def field_units(pairs) -> tuple:
    """``(0, 1)`` in the field of the scalars of ``pairs`` (a QW field when any is a QW, else mpq).
    Guarantee: exact. Raises: nothing."""
    for p in pairs:
        for c in p:
            if isinstance(c, QW):
                return c * 0, c * 0 + 1
    return fast(0), fast(1)


def scalar_enclosure(x: Scalar, digits: int) -> Enclosure:
    """An exact scalar as an Enclosure (a point for a rational). Guarantee: enclosure. Raises: PrecisionError."""
    if isinstance(x, QW):
        return x.enclosure(digits)
    return Enclosure.point(scalar_exact(x))


def scalar_exact(x: Scalar) -> Optional[Fraction]:
    """The rational value of a scalar as a Fraction, or None when it is irrational. Guarantee: exact."""
    if isinstance(x, QW):
        return x.exact()
    if type(x) is _MPQ:
        return coprime_fraction(x.numerator, x.denominator)
    return Fraction(x)


def exp_scalars(ws: Sequence[ExpNum]) -> list[Scalar]:
    """The exp-space numbers ``ws`` as exact scalars of one field.

    Every ``w`` rational: Fractions. Otherwise each ``w = q e^r`` (``q``, ``r``
    rational) is ``q u^(r/g)`` in ``Q(u)``, ``u = e^g`` with ``g`` the greatest common
    divisor of the nonzero ``r`` (so every exponent is an integer).

    Guarantee: exact.

    Raises:
        NotExact: a ``w`` that is not of the form ``q e^r`` (a root or a computable real).
        InvalidArgument: the exponents would exceed ``MAX_QW_DEGREE``.
    """
    if all(w.exact() is not None for w in ws):
        return [fast(w.exact()) for w in ws]  # type: ignore[misc]
    if not all(isinstance(w, RatExp) for w in ws):
        raise NotExact("eps / exp_eps", "e^eps rational, or eps rational (an exact field Q(e^g) holds it)",
                       [repr(w) for w in ws if not isinstance(w, RatExp)][0])
    num, den = 0, 1
    for w in ws:
        r = w.r  # type: ignore[attr-defined]
        if r:
            num = math.gcd(num, r.numerator)
            den = den * r.denominator // math.gcd(den, r.denominator)
    g = Fraction(num, den)
    u = QW.gen(RatExp.from_eps(g))
    out: list[Scalar] = []
    for w in ws:
        a = w.r / g  # type: ignore[attr-defined]
        if a.denominator != 1 or abs(a.numerator) > MAX_QW_DEGREE:
            raise InvalidArgument("eps", f"values whose ratios to their common divisor {g} are at most {MAX_QW_DEGREE}",
                                  repr(w), hint="give exp_eps as rationals (exact), or use the certified region")
        out.append(u.const(w.q) * u ** int(a))  # type: ignore[attr-defined]
    return out
