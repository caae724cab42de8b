"""The one value type for a real number known rigorously: :class:`Enclosure` (STYLE.md item 13).

An enclosure is a closed interval ``[lower, upper]`` with exact rational ends
(``Fraction``) that contains the true value, the value itself when it is known
exactly (``exact``), or an infinite value (``lower = upper = +inf`` or ``-inf``,
kept as floats, the only floats an enclosure holds). Every result type and
every command of exactdp reports its numbers as enclosures; decimal output is
rounded outward (the lower end down, the upper end up), so a printed enclosure
still contains the true value.
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction
from typing import TYPE_CHECKING, Callable, Iterator, Optional, Union

from .. import _backend as _b
from ..errors import InvalidArgument, Undecided
from .fmt import arb_bounds, fraction_str, fraction_to_decimal
from .precision import MAXPREC, accurate, refine

if TYPE_CHECKING:
    from .._backend import arb

__all__ = ["Enclosure", "End"]

#: An end of an enclosure: an exact rational, or an infinity (``math.inf``, ``-math.inf``).
End = Union[Fraction, float]


def _end(x: object, name: str) -> End:
    if isinstance(x, float):
        if math.isinf(x):
            return x
        if math.isnan(x):  # np.float64("nan") too (a float subclass)
            raise InvalidArgument(name, "a number or an infinity (not NaN)", x)
        return Fraction(x)
    if isinstance(x, Fraction):
        return x
    if isinstance(x, int) and not isinstance(x, bool):
        return Fraction(x)
    from .parse import parse_rational

    return parse_rational(x, name)


class Enclosure:
    """A rigorous enclosure ``lower <= value <= upper`` (exact ends), or an exact value.

    Guarantee: enclosure (the true value lies in ``[lower, upper]``); when
    ``exact`` is not None it *is* the value and ``lower == upper == exact``.
    Immutable; ``lo, hi = e`` unpacks the ends. ``<``, ``<=``, ``>``, ``>=`` and :meth:`sign`
    answer about the true values only when the ends decide, and raise
    :class:`~exactdp.errors.Undecided` otherwise (never a guess); ``==`` compares the
    enclosures themselves (their ends), not the values.

    Raises:
        InvalidArgument: ``lower > upper``, a NaN end, or an ``exact`` outside the ends.

    Examples:
        >>> from fractions import Fraction
        >>> e = Enclosure(Fraction(1, 3) - Fraction(1, 10**6), Fraction(1, 3) + Fraction(1, 10**6))
        >>> e.contains(Fraction(1, 3)), e.to_dict(5)
        (True, {'exact': None, 'lower': '0.33333', 'upper': '0.33334'})
        >>> Enclosure.point(Fraction(2, 9)).to_dict(5)     # exact
        {'exact': '2/9', 'lower': '0.22222', 'upper': '0.22223'}
    """

    __slots__ = ("lower", "upper", "exact")

    def __init__(self, lower: object, upper: object, exact: Optional[Fraction] = None):
        lo, hi = _end(lower, "lower"), _end(upper, "upper")
        if lo is not hi and lo > hi:  # (a point: no comparison of a 10^7-bit rational with itself)
            raise InvalidArgument("lower", "<= upper in an enclosure", f"[{lo}, {hi}]")
        if exact is not None:
            exact = Fraction(exact)
            if not (lo <= exact <= hi):
                raise InvalidArgument("exact", "inside [lower, upper]", exact)
            lo = hi = exact
        elif lo == hi and isinstance(lo, Fraction):
            exact = lo
        object.__setattr__(self, "lower", lo)
        object.__setattr__(self, "upper", hi)
        object.__setattr__(self, "exact", exact)

    def __setattr__(self, name, value):
        raise AttributeError("Enclosure is immutable")

    # -- constructors ----------------------------------------------------
    @classmethod
    def point(cls, x: object) -> "Enclosure":
        """The exact value ``x`` (converted exactly). Guarantee: exact. Raises: InvalidArgument."""
        v = _end(x, "x")
        return cls(v, v)

    @classmethod
    def infinity(cls, sign: int = 1) -> "Enclosure":
        """``+inf`` (or ``-inf`` with ``sign=-1``). Guarantee: exact. Raises: nothing."""
        v = math.inf if sign > 0 else -math.inf
        return cls(v, v)

    @classmethod
    def from_arb(cls, x: arb) -> "Enclosure":
        """The exact ends of an Arb ball. Guarantee: enclosure (exact ends of the ball).

        Raises:
            PrecisionError: the ball is not finite.
        """
        lo, hi = arb_bounds(x)
        return cls(lo, hi)

    @classmethod
    def log_of(cls, fn: Callable[[int], arb], digits: int, *, extra: int = 0,
               maxprec: int = MAXPREC) -> "Enclosure":
        """``ln`` of the positive real enclosed by ``fn(prec)`` (an Arb ball at ``prec`` bits),
        to ``digits`` significant digits (relative), at rising precision.

        Guarantee: enclosure.

        Raises:
            PrecisionError: not accurate by ``maxprec`` bits (e.g. the value is exactly 1,
                whose log 0 has no relative accuracy: callers decide that case exactly).
        """

        def step(prec: int) -> Optional[Enclosure]:
            with _b.workprec(prec):
                v = fn(prec).log()
                if not v.is_finite():
                    return None
                lo, hi = arb_bounds(v)
            return cls(lo, hi) if accurate(lo, hi, digits) else None

        # 4 bits below the rule: the inverse's eps enclosures come from here (certify's margins show their ends)
        return refine(step, digits=digits, extra=extra - 4, maxprec=maxprec, what=f"log to {digits} digits")

    @classmethod
    def log_of_rational(cls, t: Fraction, digits: int) -> "Enclosure":
        """``ln t`` for a rational ``t > 0`` to ``digits`` significant digits; exactly 0 for ``t = 1``.

        Guarantee: enclosure (exact for ``t = 1``). Raises: InvalidArgument for ``t <= 0``.
        """
        t = Fraction(t)
        if t <= 0:
            raise InvalidArgument("t", "a positive rational", t)
        if t == 1:
            return cls.point(0)
        q = _b.fmpq(t.numerator, t.denominator)
        return cls.log_of(lambda p: _b.arb(q), digits)

    # -- queries ---------------------------------------------------------
    @property
    def infinite(self) -> bool:
        """True when the value is ``+inf`` or ``-inf``."""
        return isinstance(self.lower, float) and self.lower == self.upper

    @property
    def is_exact(self) -> bool:
        return self.exact is not None

    @property
    def width(self) -> End:
        """``upper - lower`` (0 for an exact value or an infinity)."""
        if self.infinite:
            return Fraction(0)
        return self.upper - self.lower

    def contains(self, x: object) -> bool:
        """Is ``x`` (converted exactly: a float as the binary number it is) in ``[lower, upper]``?

        Guarantee: exact decision. Raises: InvalidArgument for a value that is not a number.
        """
        return self.lower <= _end(x, "x") <= self.upper

    def accurate(self, digits: int, *, floor: Optional[Fraction] = None) -> bool:
        """Relative width at most ``10^-digits / 2`` (or absolute width <= ``floor``). Guarantee: exact decision."""
        if self.infinite or self.exact is not None:
            return True
        if isinstance(self.lower, float) or isinstance(self.upper, float):
            return False
        return accurate(self.lower, self.upper, digits, floor=floor)

    @property
    def mid(self) -> End:
        """The midpoint ``(lower + upper) / 2`` (the value itself when exact; the infinity when
        infinite). Guarantee: exact midpoint of the ends; it is a point of the enclosure, not the
        true value (use :attr:`upper` for a guarantee). Raises: nothing."""
        if self.infinite:
            return self.lower
        return (self.lower + self.upper) / 2

    def __float__(self) -> float:
        """``float(e)``: the upper end rounded up to a float (``inf`` stays ``inf``).

        The conservative choice for a privacy number: the float is ``>= upper >=`` the true
        value, so ``float(eps_enclosure)`` is still a valid epsilon (and ``float`` of a delta a
        valid delta). For the other end use ``float(e.lower)`` (rounded to nearest: not a bound)
        or :attr:`lower` itself; :attr:`mid` is the midpoint.

        Guarantee: upper bound (``float(e) >= e.upper``; the least such float, or ``inf`` when
        the upper end is beyond the float range). Raises: nothing.

        Examples:
            >>> from fractions import Fraction
            >>> float(Enclosure(0, Fraction(1, 10))) >= Fraction(1, 10), float(Enclosure.infinity())
            (True, inf)
        """
        return _float_up(self.upper)

    def __iter__(self) -> Iterator[End]:
        yield self.lower
        yield self.upper

    def __eq__(self, other: object) -> bool:
        """Equal ends; a pair ``(lower, upper)`` compares as the enclosure it describes, and an
        exact rational (int or Fraction) equals the exact enclosure of that value."""
        if isinstance(other, (int, Fraction)) and not isinstance(other, bool):
            return self.exact is not None and self.exact == other
        if isinstance(other, tuple) and len(other) == 2:
            return (self.lower, self.upper) == other
        return isinstance(other, Enclosure) and (self.lower, self.upper) == (other.lower, other.upper)

    # -- decided comparisons (mpmath's mpi_lt, Arb's __richcmp__) --------------
    def _other(self, other: object) -> Optional["Enclosure"]:
        if isinstance(other, Enclosure):
            return other
        if isinstance(other, (int, Fraction, float)) and not isinstance(other, bool):
            if isinstance(other, float) and math.isnan(other):
                return None
            return Enclosure.point(other) if not (isinstance(other, float) and math.isinf(other)) else \
                Enclosure.infinity(1 if other > 0 else -1)
        return None

    def _undecided(self, op: str, other: "Enclosure") -> Undecided:
        return Undecided(f"{self} {op} {other} is undecided: the enclosures overlap (refine them)")

    def __lt__(self, other: object) -> bool:
        """``self < other``, answered only when decided: True when every value of ``self`` is
        below every value of ``other``, False when none is; otherwise :class:`Undecided`.

        Guarantee: exact decision about the true values. ``other`` may be an enclosure or an
        exact number (an int, Fraction, or a float taken as the binary number it is).

        Raises:
            Undecided: the enclosures overlap so that either answer is possible.

        Examples:
            >>> from fractions import Fraction
            >>> Enclosure(Fraction(1, 3), Fraction(1, 2)) < 1, Enclosure.point(1) < Enclosure.point(1)
            (True, False)
            >>> Enclosure(0, 1) < Fraction(1, 2)
            Traceback (most recent call last):
            ...
            exactdp.errors.Undecided: [0, 1] < 1/2 is undecided: the enclosures overlap (refine them)
        """
        o = self._other(other)
        if o is None:
            return NotImplemented
        if self.upper < o.lower:
            return True
        if self.lower >= o.upper:
            return False
        raise self._undecided("<", o)

    def __le__(self, other: object) -> bool:
        """``self <= other``, answered only when decided (see :meth:`__lt__`). Guarantee: exact
        decision. Raises: Undecided when the enclosures overlap so that either answer is possible."""
        o = self._other(other)
        if o is None:
            return NotImplemented
        if self.upper <= o.lower:
            return True
        if self.lower > o.upper:
            return False
        raise self._undecided("<=", o)

    def __gt__(self, other: object) -> bool:
        """``self > other``, answered only when decided (see :meth:`__lt__`). Guarantee: exact
        decision. Raises: Undecided when the enclosures overlap so that either answer is possible."""
        o = self._other(other)
        if o is None:
            return NotImplemented
        if self.lower > o.upper:
            return True
        if self.upper <= o.lower:
            return False
        raise self._undecided(">", o)

    def __ge__(self, other: object) -> bool:
        """``self >= other``, answered only when decided (see :meth:`__lt__`). Guarantee: exact
        decision. Raises: Undecided when the enclosures overlap so that either answer is possible."""
        o = self._other(other)
        if o is None:
            return NotImplemented
        if self.lower >= o.upper:
            return True
        if self.upper < o.lower:
            return False
        raise self._undecided(">=", o)

    def sign(self) -> int:
        """-1, 0 or +1: the sign of the value, answered only when decided (0 only for an exact 0).

        Guarantee: exact decision. Raises: Undecided when the enclosure contains 0 and is not the point 0.

        Examples:
            >>> Enclosure(-2, -1).sign(), Enclosure.point(0).sign(), Enclosure.infinity().sign()
            (-1, 0, 1)
        """
        if self.lower > 0:
            return 1
        if self.upper < 0:
            return -1
        if self.lower == self.upper == 0:
            return 0
        raise Undecided(f"the sign of {self} is undecided: the enclosure contains 0 (refine it)")

    def __hash__(self) -> int:
        return hash(self.exact) if self.exact is not None else hash((Enclosure, self.lower, self.upper))

    def __str__(self) -> str:
        if self.exact is not None:
            return fraction_str(self.exact)
        if self.infinite:
            return "inf" if self.lower > 0 else "-inf"
        lo, hi = self.decimal(17)
        return f"[{lo}, {hi}]"

    def __repr__(self) -> str:
        if self.exact is not None:
            return f"Enclosure.point({fraction_str(self.exact)})"
        if self.infinite:
            return f"Enclosure.infinity({1 if self.lower > 0 else -1})"
        return f"Enclosure({self.decimal(17)[0]}, {self.decimal(17)[1]})"

    # -- arithmetic (exact on the ends) ----------------------------------
    def __add__(self, other: object) -> "Enclosure":
        o = other if isinstance(other, Enclosure) else Enclosure.point(other)
        if self.infinite or o.infinite:
            return self if self.infinite else o
        return Enclosure(self.lower + o.lower, self.upper + o.upper)

    __radd__ = __add__

    def __neg__(self) -> "Enclosure":
        return Enclosure(-self.upper, -self.lower)

    def __sub__(self, other: object) -> "Enclosure":
        o = other if isinstance(other, Enclosure) else Enclosure.point(other)
        return self + (-o)

    def __rsub__(self, other: object) -> "Enclosure":
        return Enclosure.point(other) - self

    def clamp(self, lo: Optional[Fraction] = None, hi: Optional[Fraction] = None) -> "Enclosure":
        """The enclosure intersected with ``[lo, hi]`` (known bounds of the true value).

        Guarantee: enclosure (the true value is in both). Raises: InvalidArgument when they are disjoint.
        """
        a, b = self.lower, self.upper
        if lo is not None:
            a = max(a, lo)
        if hi is not None:
            b = min(b, hi)
        if a > b:
            raise InvalidArgument("clamp", "an interval meeting the enclosure", f"[{lo}, {hi}]")
        return Enclosure(a, b)

    # -- output ----------------------------------------------------------
    def decimal(self, digits: int) -> tuple[str, str]:
        """``(lower, upper)`` as decimal strings of ``digits`` significant digits, rounded
        outward; infinities as ``"inf"`` / ``"-inf"``. Guarantee: the strings enclose the value."""
        return _dec(self.lower, digits, "down"), _dec(self.upper, digits, "up")

    def text(self, digits: int) -> str:
        """``[lo, hi]``, or ``x (exact)`` when exact and exactly printable, or ``inf``.

        Guarantee: enclosure (outward rounding). Raises: nothing.
        """
        if self.infinite:
            return "inf" if self.lower > 0 else "-inf"
        lo, hi = self.decimal(digits)
        if self.exact is not None:
            if lo == hi:
                return f"{lo} (exact)"
            s = fraction_str(self.exact)
            return f"{s if len(s) <= 60 else s[:40] + '...'} = {lo}... (exact)"
        return f"[{lo}, {hi}]"

    def to_dict(self, digits: int = 30, *, exact_key: bool = True) -> dict:
        """``{"exact": "p/q" | None, "lower": "...", "upper": "..."}`` (decimals rounded outward;
        an infinity is ``"inf"`` in every field). ``exact_key=False`` leaves out ``"exact"``.

        Guarantee: enclosure. Raises: nothing.
        """
        if self.infinite:
            s = "inf" if self.lower > 0 else "-inf"
            d = {"exact": s, "lower": s, "upper": s}
        else:
            lo, hi = self.decimal(digits)
            d = {"exact": fraction_str(self.exact) if self.exact is not None else None, "lower": lo, "upper": hi}
        if not exact_key:
            del d["exact"]
        return d


def _float_up(x: End) -> float:
    """The least float ``>= x`` (``inf`` beyond the float range)."""
    if isinstance(x, float):
        return x
    try:
        f = float(x)  # correctly rounded (to nearest)
    except OverflowError:
        return math.inf if x > 0 else -sys.float_info.max
    if Fraction(f) < x:
        f = math.nextafter(f, math.inf)
    return f


def _dec(x: End, digits: int, rounding: str) -> str:
    if isinstance(x, float):
        return "inf" if x > 0 else "-inf"
    return fraction_to_decimal(x, digits, rounding)
