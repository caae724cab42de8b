"""Exact endpoints of Arb balls and outward-rounded decimal formatting.

Guarantee: every function here is exact (endpoints) or rounds in the direction
its name says (formatting): ``fraction_to_decimal(x, d, "down")`` is ``<= x``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING, Sequence

from .. import _backend as _b
from ..errors import InvalidArgument, PrecisionError
from .parse import coprime_fraction, parse_int

if TYPE_CHECKING:
    from .._backend import arb

__all__ = ["arb_bounds", "arb_of_fraction", "fraction_str", "fraction_to_decimal", "pow2_text", "short_fraction",
           "safe_repr", "fields_repr"]

#: Most significant digits :func:`fraction_to_decimal` prints (the library asks for at most 10,000).
MAX_DECIMAL_DIGITS = 100_000


#: Largest gap, in bits, between a ball's midpoint and radius that :func:`arb_bounds` keeps exactly.
_GAP = 1 << 20
#: Largest binary exponent of an endpoint (2^40 bits: 137 GB as an integer).
_MAX_EXPONENT = 1 << 40


def arb_bounds(x: arb) -> tuple[Fraction, Fraction]:
    """Exact rational endpoints ``(lo, hi)`` of a ball. Guarantee: exact.

    Raises:
        PrecisionError: the ball is not finite, or its endpoints would need binary exponents
            beyond 2^40 (a ball of radius 2^(6e143) around 0).
    """
    if not x.is_finite():
        raise PrecisionError("enclosure is not finite (increase precision)")

    # mid and rad are exact binary numbers m 2^e: the endpoints are computed exactly,
    # independent of the context precision (no outward rounding of lower()/upper()), in
    # integers over one power of two (Fraction's gcds took seconds for e ~ -1e9)
    m1, e1 = (int(v) for v in x.mid().man_exp())
    m2, e2 = (int(v) for v in x.rad().man_exp())
    if m2 == 0:
        e2 = e1
    elif m1 == 0:
        e1 = e2
    else:
        # a radius (or midpoint) 2^20 bits below the other: the endpoints over one power of
        # two would need that many bits (2^(1e144) for a delta_g beside e^(-6.8e143)), so the
        # smaller is replaced by a power of two at least as large (still an enclosure)
        top1, top2 = e1 + m1.bit_length(), e2 + m2.bit_length()
        if top1 - top2 > _GAP:
            m2, e2 = 1, top1 - _GAP
        elif top2 - top1 > _GAP:
            m1, e1, m2, e2 = 0, top2 + 1, 1, top2 + 1  # |mid| + rad < 2^(top2 + 1)
    e = min(e1, e2)
    if max(abs(e), abs(max(e1, e2) - e)) > _MAX_EXPONENT:
        raise PrecisionError(f"enclosure with a binary exponent of {max(abs(e1), abs(e2)):.3g} bits cannot be "
                             "written as rationals (increase precision)")
    a, b = m1 << (e1 - e), m2 << (e2 - e)
    return _dyadic(a - b, e), _dyadic(a + b, e)


def arb_of_fraction(q: Fraction) -> arb:
    """``q`` as a ball at the context precision. Guarantee: enclosure (``q`` rounded, or exact).

    A large ``q`` is the quotient of the balls of its numerator's and denominator's leading
    bits: FLINT's ``fmpq`` puts its argument in lowest terms, a gcd that took 6 s for the
    3e7-bit ``tau`` of 10^6 mechanisms with delta = 1e-9, and dividing the exact integers
    took 90 ms. Raises: nothing.
    """
    n, d = q.numerator, q.denominator
    if n.bit_length() + d.bit_length() <= 4096:
        return _b.arb(_b.fmpq(n, d))
    keep = _b.current_prec() + 32
    return _arb_of_int(n, keep) / _arb_of_int(d, keep)


def _arb_of_int(n: int, keep: int) -> arb:
    """A ball around the integer ``n`` from its ``keep`` leading bits: ``n`` lies in
    ``[m, m + 1] 2^s`` for ``m = |n| >> s`` (a power of two is exact in Arb)."""
    s = abs(n).bit_length() - keep
    if s <= 0:
        return _b.arb(_b.fmpz(n))
    m = abs(n) >> s
    v = _b.arb(_b.fmpz(m), 1) * _b.arb(2) ** s
    return -v if n < 0 else v


def _dyadic(n: int, e: int) -> Fraction:
    """``n 2^e`` as a Fraction in lowest terms, without a gcd (the denominator is a power of 2)."""
    if n == 0:
        return Fraction(0)
    tz = (n & -n).bit_length() - 1
    n >>= tz
    e += tz
    return Fraction(n << e) if e >= 0 else coprime_fraction(n, 1 << -e)


def _int_str(n: int) -> str:
    """Decimal digits of an integer of any size (``str(int)`` stops at 4300 digits)."""
    if n.bit_length() < 14000:
        return str(n)
    from .._backend import mpz

    return str(mpz(n))


def fraction_str(x: Fraction) -> str:
    """``"p/q"`` or ``"p"`` for an exact rational. Guarantee: exact. Raises: nothing."""
    p, q = _int_str(x.numerator), _int_str(x.denominator)
    return p if q == "1" else f"{p}/{q}"


def fraction_to_decimal(x: Fraction, digits: int, rounding: str) -> str:
    """Decimal string of ``x`` with ``digits`` significant digits.

    Guarantee: ``rounding="down"`` gives a string whose value is ``<= x``,
    ``"up"`` one whose value is ``>= x`` (both exact to the last digit); an exact
    decimal is printed exactly when it fits. Beyond ``10^+-20000``
    (``MAX_EXACT_DECIMAL_EXPONENT``) the digits come from Arb balls: still a bound in
    the direction asked, but an exact decimal is not recognised and the last digit may be
    a unit or two looser.

    Raises:
        InvalidArgument: ``digits`` is not an integer in ``[1, MAX_DECIMAL_DIGITS]`` (0 digits
            printed an upper end of ``0.0`` for 0.00993), or ``rounding`` is neither ``"down"``
            nor ``"up"``.
    """
    if rounding not in ("down", "up"):
        raise InvalidArgument("rounding", "'down' or 'up'", rounding)
    digits = parse_int(digits, "digits", lo=1, hi=MAX_DECIMAL_DIGITS)
    if x == 0:
        return "0"
    neg = x < 0
    a = -x if neg else x
    down = (rounding == "down") != neg  # magnitude rounding direction
    # e = floor(log10(a)), exactly: an estimate from bit lengths (no str() of huge
    # integers, which Python limits to 4300 digits), corrected by exact comparisons
    e = math.floor((a.numerator.bit_length() - a.denominator.bit_length()) * 0.30102999566398120)
    if abs(e) > MAX_EXACT_DECIMAL_EXPONENT:
        m, shift = _digits_by_balls(a, digits, down, e)
        inexact = True
    else:
        while Fraction(10) ** e > a:
            e -= 1
        while Fraction(10) ** (e + 1) <= a:
            e += 1
        shift = digits - 1 - e
        scaled = a * Fraction(10) ** shift
        m = scaled.numerator // scaled.denominator
        inexact = m * scaled.denominator != scaled.numerator
        if not down and inexact:
            m += 1
            if m == 10 ** digits:  # the carry added a digit: 99.. + 1 = 10^digits, exactly
                m //= 10
                shift -= 1
    # value = m * 10^-shift; an exact value drops its trailing zeros, a rounded
    # one keeps all `digits` significant digits
    s = _int_str(m)
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


#: Beyond ``10^this`` (either way) :func:`fraction_to_decimal` finds the digits in Arb balls:
#: the exact way builds ``10^e``, a 10^9-bit integer for a delta_g of ``e^(-6.9e8)`` (k = 1e9),
#: and took hours.
MAX_EXACT_DECIMAL_EXPONENT = 20_000


def _digits_by_balls(a: Fraction, digits: int, down: bool, e: int) -> tuple[int, int]:
    """``(m, shift)`` with ``m 10^-shift`` a ``digits``-digit bound of ``a > 0`` in the direction
    ``down`` (``m 10^-shift <= a``) or up (``>= a``): ``m`` is the floor of the lower end (or the
    ceiling of the upper end) of a ball around ``a 10^shift``, so the bound holds whatever the
    ball's width; at ``4 digits + 64`` bits it is the correctly rounded one except within
    ``2^-60`` of a digit boundary (an exact decimal, say), where it is a unit or two looser."""
    from .._backend import workprec

    prec = 4 * digits + 64 + max(abs(e), 1).bit_length()
    with workprec(prec):
        A = arb_of_fraction(a)
        for _ in range(4):  # e from the bit lengths is within one of floor(log10 a)
            shift = digits - 1 - e
            lo, hi = arb_bounds(A * _b.arb(10) ** shift)
            m = (lo.numerator // lo.denominator) if down else -((-hi.numerator) // hi.denominator)
            if m >= 10**digits:
                e += 1
            elif m < 10 ** (digits - 1):
                e -= 1
            else:
                return m, shift
    return m, shift


def short_fraction(x: Fraction, limit: int = 120) -> str:
    """``p/q`` (or ``p``), elided in the middle when longer than ``limit`` characters.

    Guarantee: exact when not elided (the elision says how long the whole is). Raises: nothing.
    """
    head = limit * 5 // 12
    if max(x.numerator.bit_length(), x.denominator.bit_length()) > 100_000:
        # only the leading digits and the lengths: the whole of a 44-million-digit e^eps* took 17 s
        p, plen = _leading_digits(abs(x.numerator), head)
        qlen = _leading_digits(x.denominator, 1)[1] if x.denominator != 1 else 0
        sign = "-" if x.numerator < 0 else ""
        total = len(sign) + plen + (1 + qlen if qlen else 0)
        return (sign + p)[:head] + f"...({total} chars)"
    s = fraction_str(x)
    return s if len(s) <= limit else s[:head] + f"...({len(s)} chars)"


def _leading_digits(n: int, m: int) -> tuple[str, int]:
    """The first ``m`` decimal digits of ``n > 0`` and the number of its digits, without writing
    all of them (GMP powers of ten and one division). Guarantee: exact. Raises: nothing."""
    from .._backend import mpz

    v = mpz(n)
    d = int(v.num_digits(10))  # d or d + 1
    ten = mpz(10)
    if v < ten ** (d - 1):
        d -= 1
    if d <= m:
        return str(v), d
    return str(v // ten ** (d - m)), d


def pow2_text(k: int, scale: float = 1.0) -> str:
    """``2^k * scale`` in three significant digits (``"1.15e+18"``), or as a power of ten
    (``"10^301"``) where a float would overflow: for cost messages about ``2^k`` subsets.

    Guarantee: approximate. Raises: nothing.
    """
    if k < 1000:
        return f"{2.0 ** k * scale:.3g}"
    return f"10^{k * math.log10(2) + math.log10(scale):.0f}"


def safe_repr(x: object) -> str:
    """``repr(x)``, except that an integer or rational too long for ``str`` (Python stops at 4300
    digits) is shown elided (:func:`short_fraction`), and a repr that fails names the type.

    Guarantee: approximate (display only; exact when nothing is elided). Raises: nothing.
    """
    try:
        return repr(x)
    except ValueError:  # "Exceeds the limit (4300 digits) for integer string conversion"
        pass
    except Exception:
        return f"<{type(x).__name__}>"
    try:
        if isinstance(x, int) and not isinstance(x, bool):
            return short_fraction(Fraction(x))
        if isinstance(x, Fraction):
            return f"Fraction('{short_fraction(x)}')"
        return f"<{type(x).__name__}>"
    except Exception:  # a hostile or enormous object: repr must not fail
        return f"<{type(x).__name__}>"


def fields_repr(obj: object, names: Sequence[str]) -> str:
    """``Type(a=..., b=...)`` with :func:`safe_repr` of each field: the ``__repr__`` of a record
    whose fields may hold huge numbers. Guarantee: approximate (display). Raises: nothing."""
    return f"{type(obj).__name__}(" + ", ".join(f"{n}={safe_repr(getattr(obj, n, None))}" for n in names) + ")"
