"""Parsing, the exp-space number model, and exact decimal formatting.

Guarantee: every parser here is **exact** (a float is converted with
``Fraction(x)``, a decimal string digit for digit; nothing passes through a
rounded decimal); every formatter rounds **outward** in the direction its name
says.

The number model (``../shared/DESIGN.md``; ``docs/engines.md``): the engines
work in *exp-space*, ``w = e^eps``. An :class:`ExpNum` is a positive real known
exactly through a finite description:

* :class:`RatExp` ``q * e^r`` with rational ``q > 0`` and rational ``r``. It covers
  a mechanism given by ``exp_eps = q`` (``r = 0``) and one given by ``eps = r``
  (``q = 1``). Equality of two such numbers is decidable exactly: by the
  Lindemann-Weierstrass theorem ``e^r`` is transcendental for rational
  ``r != 0``, so ``q1 e^r1 = q2 e^r2`` iff ``q1 = q2`` and ``r1 = r2``; any other
  comparison is decided by ball arithmetic at rising precision, which must
  terminate because the two numbers differ.
* :class:`Root` ``n^(1/D)`` for a positive rational ``n`` (the Murtagh-Vadhan
  reductions, Definitions 4.6-4.8). Comparisons of products of D-th roots with a
  common D are decided by comparing rationals, never by floating point.
* :class:`Computable` a real given only by a function returning an arb
  enclosure at any precision (e.g. ``r_z`` of Lemma 4.11). Its sign decisions may
  be undecidable; engines then enclose ``max(x, 0)`` rigorously instead of
  deciding.
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction
from numbers import Rational
from typing import Callable, Iterable, Optional, Sequence

from ._backend import arb, fmpq, workprec
from .errors import InvalidArgument, PrecisionError

__all__ = [
    "parse_rational",
    "ExpNum",
    "RatExp",
    "Root",
    "Computable",
    "log_sign_of_product",
    "arb_bounds",
    "fraction_to_decimal",
    "fraction_str",
    "MAXPREC",
]

#: Upper bound on the working precision (bits) of every adaptive loop.
MAXPREC = 1 << 17


# --------------------------------------------------------------------------
# Parsing


#: Decimal strings with an exponent beyond this (``1e-99999999``) are refused:
#: their exact rational would have that many digits.
MAX_DECIMAL_EXPONENT = 100_000


def parse_rational(value: object, name: str, *, expected: str = "a rational number") -> Fraction:
    """Convert ``value`` to a :class:`Fraction`, exactly.

    Guarantee: exact. Accepts ``int``, ``Fraction`` (and any ``numbers.Rational``,
    e.g. gmpy2 ``mpq``), finite ``float`` (converted with ``Fraction(x)``, so
    ``0.1`` becomes ``3602879701896397/36028797018963968``), finite ``Decimal``
    and strings in decimal or ``p/q`` form (``"0.1"`` is exactly ``1/10``,
    ``"1e-6"``, ``"1/3"``).

    Raises:
        InvalidArgument: naming ``name`` for booleans, NaN, infinities, empty or
            malformed strings and unsupported types.

    Examples:
        >>> parse_rational("0.1", "eps")
        Fraction(1, 10)
        >>> parse_rational(0.5, "eps")
        Fraction(1, 2)
    """
    if isinstance(value, bool):
        raise InvalidArgument(name, expected, value)
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidArgument(name, expected + " (finite)", value)
        return Fraction(value)
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise InvalidArgument(name, expected + " (finite)", str(value))
        return Fraction(value)
    if isinstance(value, Rational):
        return Fraction(int(value.numerator), int(value.denominator))
    if type(value).__name__ == "fmpq":
        return Fraction(int(value.p), int(value.q))
    if type(value).__name__ == "fmpz":
        return Fraction(int(value))
    if isinstance(value, str):
        s = value.strip()
        if not s or "_" in s or any(c.isspace() for c in s):
            raise InvalidArgument(name, expected, repr(value))
        try:
            if "/" in s:
                p, q = s.split("/", 1)
                if "/" in q or "." in p + q or "e" in (p + q).lower():
                    raise ValueError
                num, den = int(p), int(q)
                if den == 0:
                    raise InvalidArgument(name, expected + " (nonzero denominator)", value)
                return Fraction(num, den)
            d = Decimal(s)
        except InvalidArgument:
            raise
        except (ValueError, ArithmeticError):
            raise InvalidArgument(name, expected, repr(value)) from None
        if not d.is_finite():
            raise InvalidArgument(name, expected + " (finite)", repr(value))
        if d and abs(d.adjusted()) > MAX_DECIMAL_EXPONENT:
            raise InvalidArgument(name, expected + f" with a decimal exponent within +-{MAX_DECIMAL_EXPONENT}",
                                  repr(value) if len(value) <= 40 else repr(value[:40]) + "...")
        return Fraction(d)
    raise InvalidArgument(name, expected, f"{value!r} of type {type(value).__name__}")


# --------------------------------------------------------------------------
# Exp-space numbers


def _fmpq(x: Fraction) -> fmpq:
    return fmpq(x.numerator, x.denominator)


def _flog_fraction(q: Fraction) -> float:
    """log of a positive rational, with relative error a few ulps of ``|log q|``.

    Near 1 (``1/2 < q < 2``) through ``log1p(q - 1)`` with ``q - 1`` exact: ``log(float(q))``
    would carry an absolute error of 1e-16, unbounded relative to ``log q -> 0``.
    """
    if q.numerator == q.denominator:
        return 0.0
    if Fraction(1, 2) < q < 2:
        return math.log1p(float(q - 1))
    try:
        f = float(q)  # correctly rounded
    except OverflowError:
        f = math.inf
    if 1e-300 < f < 1e300:
        return math.log(f)
    return math.log(q.numerator) - math.log(q.denominator)


class ExpNum:
    """A positive real number in exp-space (``w = e^eps``); see the module docstring."""

    __slots__ = ()

    def arb(self, prec: int) -> arb:
        """Enclosure at working precision ``prec`` bits. Guarantee: enclosure."""
        raise NotImplementedError

    #: True for search-phase stand-ins with no exact description: comparisons
    #: involving them are made in floating point only (never escalated).
    approximate = False

    def flog(self) -> float:
        """Approximate natural logarithm (float). Guarantee: approximate."""
        raise NotImplementedError

    def fmag(self) -> float:
        """Magnitude against which :meth:`flog`'s error is relative (a few ulps of it).

        Guarantee: approximate. For ``q e^r`` it is ``|log q| + |r|``, not ``|log q + r|``.
        """
        return abs(self.flog())

    def exact(self) -> Optional[Fraction]:
        """The value as a Fraction when it is rational and known so, else None."""
        return None

    def log_exact(self) -> Optional[Fraction]:
        """``log(value)`` as a Fraction when that is rational and known so, else None."""
        return None

    def is_one(self) -> bool:
        return False


class RatExp(ExpNum):
    """``q * e^r`` with rational ``q > 0`` and rational ``r`` (exact description)."""

    __slots__ = ("q", "r", "_lq")

    def __init__(self, q: Fraction = Fraction(1), r: Fraction = Fraction(0)):
        if q <= 0:
            raise InvalidArgument("q", "a positive rational", q)
        self.q = Fraction(q)
        self.r = Fraction(r)
        self._lq: Optional[float] = None  # float log q, computed once

    @classmethod
    def from_eps(cls, eps: Fraction) -> "RatExp":
        return cls(Fraction(1), Fraction(eps))

    @classmethod
    def from_exp(cls, w: Fraction) -> "RatExp":
        return cls(Fraction(w), Fraction(0))

    def arb(self, prec: int) -> arb:
        with workprec(prec):
            v = arb(_fmpq(self.q)) if self.q != 1 else arb(1)
            if self.r:
                v = v * arb(_fmpq(self.r)).exp()
            return v

    def _logq(self) -> float:
        if self._lq is None:
            self._lq = _flog_fraction(self.q)
        return self._lq

    def flog(self) -> float:
        return self._logq() + float(self.r)

    def fmag(self) -> float:
        return abs(self._logq()) + abs(float(self.r))

    def exact(self) -> Optional[Fraction]:
        return self.q if self.r == 0 else None

    def log_exact(self) -> Optional[Fraction]:
        return self.r if self.q == 1 else None

    def is_one(self) -> bool:
        return self.q == 1 and self.r == 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RatExp) and self.q == other.q and self.r == other.r

    def __hash__(self) -> int:
        return hash((RatExp, self.q, self.r))

    def __repr__(self) -> str:
        if self.r == 0:
            return f"RatExp({self.q})"
        if self.q == 1:
            return f"exp({self.r})"
        return f"RatExp({self.q}*exp({self.r}))"


class Root(ExpNum):
    """``n^(1/D)`` for a positive rational ``n`` and a positive integer ``D``."""

    __slots__ = ("n", "D", "_fl")

    def __init__(self, n: Fraction, D: int):
        n = Fraction(n)
        if n <= 0:
            raise InvalidArgument("n", "a positive rational", n)
        if int(D) != D or D < 1:
            raise InvalidArgument("D", "a positive integer", D)
        self.n = n
        self.D = int(D)
        self._fl: Optional[float] = None  # float log, computed once

    def arb(self, prec: int) -> arb:
        with workprec(prec):
            v = arb(_fmpq(self.n))
            return v if self.D == 1 else v.root(self.D)

    def flog(self) -> float:
        if self._fl is None:
            self._fl = _flog_fraction(self.n) / self.D
        return self._fl

    def exact(self) -> Optional[Fraction]:
        if self.D == 1:
            return self.n
        from gmpy2 import iroot

        p, ok1 = iroot(self.n.numerator, self.D)
        q, ok2 = iroot(self.n.denominator, self.D)
        return Fraction(int(p), int(q)) if ok1 and ok2 else None

    def is_one(self) -> bool:
        return self.n == 1

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Root):
            return False
        if self.D == other.D:
            return self.n == other.n
        g = math.gcd(self.D, other.D)
        return self.n ** (other.D // g) == other.n ** (self.D // g)

    def __hash__(self) -> int:
        e = self.exact()
        return hash((Root, e)) if e is not None else hash((Root, self.n, self.D))

    def __repr__(self) -> str:
        return f"Root({self.n}, {self.D})"


class Computable(ExpNum):
    """A positive real given by an enclosure function ``fn(prec) -> arb``.

    ``fn`` must return a ball that contains the true value at every precision
    and whose radius tends to 0 as ``prec`` grows. Comparisons involving a
    Computable may be undecidable; engines then enclose ``max(x, 0)`` instead.
    """

    __slots__ = ("fn", "label", "_flog")

    def __init__(self, fn: Callable[[int], arb], label: str = "computable"):
        self.fn = fn
        self.label = label
        with workprec(64):
            v = fn(64)
            # the log in Arb: float(v) overflows beyond 1.8e308 (e.g. e^720)
            self._flog = float(v.log().mid()) if v > 0 else (math.log(float(v.mid())) if float(v.mid()) > 0 else float("-inf"))

    def arb(self, prec: int) -> arb:
        with workprec(prec):
            return self.fn(prec)

    def flog(self) -> float:
        return self._flog

    def __repr__(self) -> str:
        return f"Computable({self.label})"


def log_sign_of_product(factors: Iterable[tuple[ExpNum, int]], *, maxprec: int = MAXPREC) -> Optional[int]:
    """Sign of ``log(prod x^e)`` over ``factors`` (pairs ``(x, e)``, integer e).

    Guarantee: exact when it returns -1, 0 or 1. Returns ``None`` only when a
    factor is neither RatExp nor Root (e.g. :class:`Computable`) and ball arithmetic could not decide
    up to ``maxprec`` bits.

    All :class:`RatExp` factors: the product is ``q e^r``; ``0`` iff ``q = 1`` and
    ``r = 0`` (Lindemann-Weierstrass), otherwise decided by rising precision.
    Roots mixed with exponentials: the product is ``alpha e^r`` with ``alpha``
    algebraic; ``r = 0`` is decided exactly (``alpha^L`` rational), ``r != 0`` by
    rising precision (never 1, so it terminates).

    Raises:
        PrecisionError: a decidable comparison needed more than ``maxprec`` bits.
    """
    factors = [(x, int(e)) for x, e in factors if e != 0 and not x.is_one()]
    if not factors:
        return 0
    # Fast path: each flog() has an error of a few ulps of its magnitude fmag()
    # (|log q| + |r| for q e^r; log1p near 1), so the float sum of e*log(x)
    # carries an absolute error below 1e-15 * sum |e| fmag(x); outside a margin
    # a million times larger the float sign is the true sign.
    fl = [e * x.flog() for x, e in factors]
    approx = math.fsum(fl)
    margin = 1e-9 * (1.0 + math.fsum(abs(e) * x.fmag() for x, e in factors))
    if approx > margin:
        return 1
    if approx < -margin:
        return -1
    if any(x.approximate for x, _ in factors):
        return None  # an approximate search point: no escalation
    if not all(isinstance(x, (RatExp, Root)) for x, _ in factors):
        return _arb_sign(lambda p: _log_product_arb(factors, p), maxprec, must=False)
    # The product is alpha * e^r: alpha algebraic (the rationals q of the RatExp
    # factors and the roots n^(1/D), to integer powers), r rational.
    r = Fraction(0)
    alg: list[tuple[Fraction, int, int]] = []  # (n, D, e): (n^(1/D))^e
    for x, e in factors:
        if isinstance(x, RatExp):
            r += e * x.r
            if x.q != 1:
                alg.append((x.q, 1, e))
        else:
            alg.append((x.n, x.D, e))  # type: ignore[attr-defined]
    if r != 0:
        if not alg:
            return (r > 0) - (r < 0)
        # alpha e^r with r != 0 is transcendental (Lindemann-Weierstrass), never 1:
        # rising precision terminates.
        return _arb_sign(lambda p: _log_product_arb(factors, p), maxprec, must=True)
    # r = 0: alpha^L (L the lcm of the D) is a rational, compared with 1 exactly. Powers
    # too large to build cheaply (q^e with |e| ~ 10^7) go to rising precision first,
    # which decides every non-tie.
    s = _power_product_sign(alg, limit_bits=100_000)
    if s is None:
        s = _arb_sign(lambda p: _log_product_arb(factors, p), min(maxprec, 4096), must=False)
        if s is None:
            s = _power_product_sign(alg, limit_bits=None)
    return s


def _power_product_sign(alg: Sequence[tuple[Fraction, int, int]], limit_bits: Optional[int]) -> Optional[int]:
    """Sign of ``log prod (n^(1/D))^e``, exactly, through ``prod n^(e L/D)`` in integers;
    ``None`` once the integers would pass ``limit_bits``."""
    from gmpy2 import mpz

    L = 1
    for _, D, _ in alg:
        L = L * D // math.gcd(L, D)
    num = den = mpz(1)
    for n, D, e in alg:
        p = e * (L // D)
        a, b = (n.numerator, n.denominator) if p > 0 else (n.denominator, n.numerator)
        if limit_bits is not None and (num.bit_length() + den.bit_length()
                                       + abs(p) * (a.bit_length() + b.bit_length())) > limit_bits:
            return None
        num *= mpz(a) ** abs(p)
        den *= mpz(b) ** abs(p)
    return (num > den) - (num < den)


def _log_product_arb(factors: Sequence[tuple[ExpNum, int]], prec: int) -> arb:
    s = arb(0)
    for x, e in factors:
        s += e * x.arb(prec).log()
    return s


def _arb_sign(fn: Callable[[int], arb], maxprec: int, *, must: bool) -> Optional[int]:
    prec = 64
    while prec <= maxprec:
        with workprec(prec):
            v = fn(prec)
            if v > 0:
                return 1
            if v < 0:
                return -1
        prec *= 2
    if must:
        raise PrecisionError(f"sign undecided at maxprec={maxprec} bits (values differ by less than 2^-{maxprec})")
    return None


# --------------------------------------------------------------------------
# Enclosure endpoints and decimal formatting


def arb_bounds(x: arb) -> tuple[Fraction, Fraction]:
    """Exact rational endpoints ``(lo, hi)`` of a ball. Guarantee: exact.

    Raises:
        PrecisionError: the ball is not finite.
    """
    if not x.is_finite():
        raise PrecisionError("enclosure is not finite (increase precision)")

    def frac(b: arb) -> Fraction:
        m, e = b.man_exp()
        m, e = int(m), int(e)
        return Fraction(m * (1 << e)) if e >= 0 else Fraction(m, 1 << -e)

    # mid and rad are exact binary numbers: the endpoints are computed exactly,
    # independent of the context precision (no outward rounding of lower()/upper()).
    mid = frac(x.mid())
    rad = frac(x.rad())
    return mid - rad, mid + rad


def fraction_str(x: Fraction) -> str:
    """``"p/q"`` or ``"p"`` for an exact rational. Guarantee: exact. Raises: nothing."""
    from gmpy2 import mpz  # str(mpz) has no digit limit (str(int) stops at 4300 digits)

    p, q = str(mpz(x.numerator)), str(mpz(x.denominator))
    return p if q == "1" else f"{p}/{q}"


def fraction_to_decimal(x: Fraction, digits: int, rounding: str) -> str:
    """Decimal string of ``x`` with ``digits`` significant digits.

    Guarantee: ``rounding="down"`` gives a string whose value is ``<= x``,
    ``"up"`` one whose value is ``>= x`` (both exact to the last digit); an exact
    decimal is printed exactly when it fits.

    Raises:
        ValueError: ``rounding`` is neither ``"down"`` nor ``"up"``.
    """
    if rounding not in ("down", "up"):
        raise ValueError("rounding must be 'down' or 'up'")
    if x == 0:
        return "0"
    neg = x < 0
    a = -x if neg else x
    # e = floor(log10(a)), exactly: an estimate from bit lengths (no str() of huge
    # integers, which Python limits to 4300 digits), corrected by exact comparisons
    e = math.floor((a.numerator.bit_length() - a.denominator.bit_length()) * 0.30102999566398120)
    while Fraction(10) ** e > a:
        e -= 1
    while Fraction(10) ** (e + 1) <= a:
        e += 1
    shift = digits - 1 - e
    scaled = a * Fraction(10) ** shift
    down = (rounding == "down") != neg  # magnitude rounding direction
    m = scaled.numerator // scaled.denominator
    inexact = m * scaled.denominator != scaled.numerator
    if not down and inexact:
        m += 1
        if m == 10 ** digits:  # the carry added a digit: 99.. + 1 = 10^digits, exactly
            m //= 10
            shift -= 1
    # value = m * 10^-shift; an exact value drops its trailing zeros, a rounded
    # one keeps all `digits` significant digits
    s = str(m)
    stripped = s.rstrip("0") if not inexact else s
    zeros = len(s) - len(stripped)
    if not stripped:
        return "0"
    mant, exp10 = stripped, zeros - shift
    # render as plain decimal when the exponent is moderate, else scientific
    ndig = len(mant)
    point = ndig + exp10  # position of decimal point from the left of mant
    if -6 <= point <= 40:
        if exp10 >= 0:
            out = mant + "0" * exp10
        elif point > 0:
            out = mant[:point] + "." + mant[point:]
        else:
            out = "0." + "0" * (-point) + mant
    else:
        out = mant[0] + ("." + mant[1:] if ndig > 1 else "") + f"e{point - 1:+d}"
    return ("-" + out) if neg else out
