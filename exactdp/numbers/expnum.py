"""The exp-space number model: positive reals known exactly through a finite description.

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
from fractions import Fraction
from typing import TYPE_CHECKING, Callable, Iterable, Optional, Sequence

from .. import _backend as _b
from ..errors import InvalidArgument, PrecisionError
from .parse import parse_int, parse_rational
from .precision import MAXPREC, decide_sign

if TYPE_CHECKING:
    from .._backend import arb, fmpq

__all__ = ["ExpNum", "RatExp", "Root", "Computable", "log_sign_of_product"]


def _fmpq(x: Fraction) -> fmpq:
    return _b.fmpq(x.numerator, x.denominator)


def _ffloat(x: Fraction) -> float:
    """``float(x)``, or ``+-inf`` beyond the float range (``float(Fraction(10**400))`` raises)."""
    try:
        return float(x)
    except OverflowError:
        return math.inf if x > 0 else -math.inf


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
        q = parse_rational(q, "q", expected="a positive rational number")
        if q <= 0:
            raise InvalidArgument("q", "a positive rational number", q)
        self.q = q
        self.r = parse_rational(r, "r")
        self._lq: Optional[float] = None  # float log q, computed once

    @classmethod
    def from_eps(cls, eps: Fraction) -> "RatExp":
        return cls(Fraction(1), Fraction(eps))

    @classmethod
    def from_exp(cls, w: Fraction) -> "RatExp":
        return cls(Fraction(w), Fraction(0))

    def arb(self, prec: int) -> arb:
        with _b.workprec(prec):
            v = _b.arb(_fmpq(self.q)) if self.q != 1 else _b.arb(1)
            if self.r:
                v = v * _b.arb(_fmpq(self.r)).exp()
            return v

    def _logq(self) -> float:
        if self._lq is None:
            self._lq = _flog_fraction(self.q)
        return self._lq

    def flog(self) -> float:
        return self._logq() + _ffloat(self.r)

    def fmag(self) -> float:
        return abs(self._logq()) + abs(_ffloat(self.r))

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
        from .fmt import short_fraction  # a 5000-digit q has no str() (Python's 4300-digit limit)

        q, r = short_fraction(self.q), short_fraction(self.r)
        if self.r == 0:
            return f"RatExp({q})"
        if self.q == 1:
            return f"exp({r})"
        return f"RatExp({q}*exp({r}))"


class Root(ExpNum):
    """``n^(1/D)`` for a positive rational ``n`` and a positive integer ``D``."""

    __slots__ = ("n", "D", "_fl")

    def __init__(self, n: Fraction, D: int):
        n = parse_rational(n, "n", expected="a positive rational number")
        if n <= 0:
            raise InvalidArgument("n", "a positive rational number", n)
        self.n = n
        self.D = parse_int(D, "D", lo=1)
        self._fl: Optional[float] = None  # float log, computed once

    def arb(self, prec: int) -> arb:
        with _b.workprec(prec):
            v = _b.arb(_fmpq(self.n))
            return v if self.D == 1 else v.root(self.D)

    def flog(self) -> float:
        if self._fl is None:
            self._fl = _flog_fraction(self.n) / self.D
        return self._fl

    def exact(self) -> Optional[Fraction]:
        if self.D == 1:
            return self.n
        from .._backend import iroot

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
        from .fmt import short_fraction

        return f"Root({short_fraction(Fraction(self.n))}, {self.D})"


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
        with _b.workprec(64):
            v = fn(64)
            # the log in Arb: float(v) overflows beyond 1.8e308 (e.g. e^720)
            self._flog = float(v.log().mid()) if v > 0 else (math.log(float(v.mid())) if float(v.mid()) > 0 else float("-inf"))

    def arb(self, prec: int) -> arb:
        with _b.workprec(prec):
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
    if all(math.isfinite(v) for v in fl):  # beyond the float range (eps = 1e400): straight to the exact rules
        try:
            approx = math.fsum(fl)
            margin = 1e-9 * (1.0 + math.fsum(abs(e) * x.fmag() for x, e in factors))
        except OverflowError:  # finite terms whose sum leaves the float range (4 x eps = 1e308)
            approx, margin = 0.0, math.inf
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
    from .._backend import mpz

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
    s = _b.arb(0)
    for x, e in factors:
        s += e * x.arb(prec).log()
    return s


def _arb_sign(fn: Callable[[int], arb], maxprec: int, *, must: bool) -> Optional[int]:
    try:
        return decide_sign(fn, maxprec=maxprec, what="sign of a product")
    except PrecisionError:
        if must:
            raise PrecisionError(f"sign undecided at maxprec={maxprec} bits (values differ by less than 2^-{maxprec})") from None
        return None
