"""The validation layer: every number a user gives is parsed (or refused) here.

Guarantee: exact. A float is converted with ``Fraction(x)`` (``0.1`` becomes
``3602879701896397/36028797018963968``), a decimal string digit for digit
(``"0.1"`` is exactly ``1/10``); nothing passes through a rounded decimal.

Accepted: ``int``, ``Fraction`` and any ``numbers.Rational`` (gmpy2 ``mpq``),
python-flint ``fmpq``/``fmpz``, finite ``float`` and ``Decimal``, NumPy scalars
and 0-dimensional arrays (as the Python number they hold), and strings in
decimal or ``p/q`` form. Refused with :class:`~exactdp.errors.InvalidArgument`
naming the parameter: booleans, bytes, NaN and infinities, empty or malformed
strings, non-ASCII digits (``"٣"``), numbers of more than
:data:`MAX_DECIMAL_EXPONENT` decimal digits (exponent included: ``1e-99999999``
would be a 10^8-digit integer), and every other type.

This module imports nothing numeric (the command line validates with it before
loading FLINT or gmpy2). The CLI and the Python API call the same functions, so a value is refused with
the same words wherever it enters; the CLI renames the parameter to its flag and
screens its text first with the tighter :data:`MAX_NUMBER_DIGITS` (:func:`screen_text`).
"""

from __future__ import annotations

import json
import math
import re
from decimal import Decimal
from fractions import Fraction
from numbers import Integral, Rational
from typing import Optional, Sequence

from ..errors import InvalidArgument

__all__ = [
    "MAX_NUMBER_DIGITS",
    "MAX_DECIMAL_EXPONENT",
    "parse_rational",
    "warn_float",
    "parse_eps",
    "parse_exp_eps",
    "parse_delta",
    "parse_positive",
    "parse_unit",
    "parse_int",
    "parse_choice",
    "parse_list",
    "as_scalar",
    "screen_text",
    "coprime_fraction",
    "parse_json",
    "MAX_JSON_DEPTH",
]

#: Longest number the library parses from text, in decimal digits (numerator,
#: denominator, or mantissa plus exponent): ``1e-99999999`` would otherwise build a
#: 10^8-digit integer before any check could run.
MAX_DECIMAL_EXPONENT = 100_000

#: Longest number the command line accepts (its reports print every input exactly).
MAX_NUMBER_DIGITS = 1000

#: Deepest nesting of arrays and objects in a JSON text a user gives (a query, a grid line, a
#: composition): far above any real one, far below Python's recursion limit.
MAX_JSON_DEPTH = 64


def coprime_fraction(numerator: object, denominator: object) -> Fraction:
    """``Fraction(numerator, denominator)`` for integers already in lowest terms with a
    positive denominator (a GMP or FLINT rational's parts, a dyadic ``m / 2^e`` with ``m``
    odd), without the gcd that ``Fraction`` would run again (quadratic: minutes at 10^7
    bits). The parts may be ``int``, ``mpz`` or ``fmpz`` (converted by ``int``).

    The one such helper of the library (Python 3.12 names it ``Fraction._from_coprime_ints``).

    Guarantee: exact when the precondition holds (the caller's); raises nothing.

    Examples:
        >>> coprime_fraction(3, 8)
        Fraction(3, 8)
    """
    f = object.__new__(Fraction)
    f._numerator = int(numerator)  # type: ignore[attr-defined]
    f._denominator = int(denominator)  # type: ignore[attr-defined]
    return f


_DECIMAL = re.compile(r"^[+-]?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$")
_INTEGER = re.compile(r"^[+-]?\d+$")


def as_scalar(value: object) -> object:
    """A NumPy scalar or 0-dimensional array as the Python number it holds; anything else unchanged.

    Guarantee: exact (``.item()`` returns the same value as a Python int or float).
    Raises: nothing.
    """
    mod = type(value).__module__ or ""
    if mod.startswith("numpy") and getattr(value, "shape", None) == () and hasattr(value, "item"):
        try:
            return value.item()  # type: ignore[union-attr]
        except Exception:  # pragma: no cover - a broken numpy object
            return value
    return value


def _digits_of(text: str) -> Optional[int]:
    """Decimal digits a number written as ``text`` stands for (mantissa + |exponent|), or None if malformed."""
    m = _DECIMAL.match(text)
    if m is None or not (m.group(1) or m.group(2)):
        return None
    ex = m.group(3)
    e = 0
    if ex:
        e = abs(int(ex)) if len(ex) < 12 else 10**12
    return len(m.group(1) or "") + len(m.group(2) or "") + e


def _text_digits(s: str) -> Optional[int]:
    """Decimal digits of a decimal or ``p/q`` text (the larger side of ``p/q``), None if malformed."""
    if "/" in s:
        p, q = s.split("/", 1)
        if not (_INTEGER.match(p) and _INTEGER.match(q)):
            return None
        return max(len(p), len(q)) - (1 if p[0] in "+-" else 0)
    return _digits_of(s)


def screen_text(text: str, name: str, max_digits: int = MAX_NUMBER_DIGITS) -> None:
    """Refuse a number written with more than ``max_digits`` decimal digits, before any
    exact parsing (malformed text is left to :func:`parse_rational`, which names it).

    Guarantee: exact (digit counts of the text).

    Raises:
        InvalidArgument: the number is too long.
    """
    n = _text_digits(text.strip())
    if n is not None and n > max_digits:
        raise InvalidArgument(name, f"a number of at most {max_digits} decimal digits (exponent included)", text.strip())


def _parse_text(s: str, name: str, expected: str) -> Fraction:
    shown = s
    s = s.strip()
    if not s or not s.isascii() or "_" in s or any(c.isspace() for c in s):
        raise InvalidArgument(name, expected, repr(shown))
    n = _text_digits(s)
    if n is None:
        raise InvalidArgument(name, expected, repr(shown))
    if n > MAX_DECIMAL_EXPONENT:
        raise InvalidArgument(name, expected + f" with a decimal exponent within +-{MAX_DECIMAL_EXPONENT}", shown)
    if "/" in s:
        p, q = s.split("/", 1)
        if max(len(p), len(q)) < 4000:
            num, den = int(p), int(q)
        else:
            from .._backend import mpz  # int() of text stops at 4300 digits

            num, den = int(mpz(p)), int(mpz(q))
        if den == 0:
            raise InvalidArgument(name, expected + " (nonzero denominator)", shown)
        return Fraction(num, den)
    return Fraction(Decimal(s))


def parse_rational(value: object, name: str, *, expected: str = "a rational number") -> Fraction:
    """Convert ``value`` to a :class:`Fraction`, exactly (see the module docstring).

    Guarantee: exact.

    Raises:
        InvalidArgument: naming ``name``, for booleans, bytes, NaN, infinities,
            empty, malformed or oversized strings, and unsupported types.

    Examples:
        >>> parse_rational("0.1", "eps")
        Fraction(1, 10)
        >>> parse_rational(0.5, "eps")
        Fraction(1, 2)
        >>> parse_rational("1/3", "delta")
        Fraction(1, 3)
    """
    value = as_scalar(value)
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
        if value and abs(value.adjusted()) > MAX_NUMBER_DIGITS:
            raise InvalidArgument(name, f"a number of at most {MAX_NUMBER_DIGITS} decimal digits (exponent included)",
                                  str(value))
        return Fraction(value)
    if isinstance(value, Rational):
        return Fraction(int(value.numerator), int(value.denominator))
    tname = type(value).__name__
    if tname == "fmpq":
        return Fraction(int(value.p), int(value.q))  # type: ignore[attr-defined]
    if tname == "fmpz":
        return Fraction(int(value))  # type: ignore[call-overload]
    if isinstance(value, str):
        return _parse_text(value, name, expected)
    raise InvalidArgument(name, expected, f"a value of type {tname}")


def warn_float(value: object, name: str, stacklevel: int = 3) -> None:
    """Warn (:class:`~exactdp.errors.FloatInputWarning`) when ``value`` is a float whose exact
    binary value is not the decimal it prints as (``0.05``, ``0.1``; not ``0.5`` or ``8.0``).

    Guarantee: exact decision (``Fraction(x) != Fraction(repr(x))``). Raises: nothing.
    """
    if not (isinstance(value, float) and math.isfinite(value)):
        return
    shown = repr(float(value))  # a float subclass (np.float64) reprs as "np.float64(0.2)"
    if Fraction(value) != Fraction(shown):
        import warnings

        from ..errors import FloatInputWarning

        warnings.warn(f"{name}={shown} is a float: it is taken as its binary value {Fraction(value)}, not as "
                      f"{Fraction(shown)}; pass {name}=\"{shown}\" (a string) for the decimal",
                      FloatInputWarning, stacklevel=stacklevel)


def parse_eps(value: object, name: str = "eps") -> Fraction:
    """A privacy parameter eps: a finite rational >= 0. Guarantee: exact.

    Raises:
        InvalidArgument: not a finite rational, or negative.
    """
    e = parse_rational(value, name, expected="a finite rational number >= 0")
    if e < 0:
        raise InvalidArgument(name, "a finite rational number >= 0", value)
    return e


def parse_exp_eps(value: object, name: str = "exp_eps") -> Fraction:
    """``e^eps`` given directly: a finite rational >= 1. Guarantee: exact.

    Raises:
        InvalidArgument: not a finite rational, or below 1 (eps would be negative).
    """
    w = parse_rational(value, name, expected="a finite rational number >= 1")
    if w < 1:
        raise InvalidArgument(name, "a finite rational number >= 1 (it is e^eps, eps >= 0)", value)
    return w


def parse_delta(value: object, name: str = "delta") -> Fraction:
    """A delta: a rational in ``[0, 1)``. Guarantee: exact.

    Raises:
        InvalidArgument: not a rational, or outside ``[0, 1)``.
    """
    d = parse_rational(value, name, expected="a rational number in [0, 1)")
    if not (0 <= d < 1):
        raise InvalidArgument(name, "a rational number in [0, 1)", value)
    return d


def parse_positive(value: object, name: str, *, above: Fraction = Fraction(0), strict: bool = True) -> Fraction:
    """A rational ``> above`` (``>= above`` with ``strict=False``). Guarantee: exact.

    Raises:
        InvalidArgument: not a rational, or out of range.
    """
    rel = ">" if strict else ">="
    expected = f"a rational number {rel} {above}"
    x = parse_rational(value, name, expected=expected)
    if x < above or (strict and x == above):
        raise InvalidArgument(name, expected, value)
    return x


def parse_unit(value: object, name: str) -> Fraction:
    """A rational in ``[0, 1]`` (a type I error alpha, a probability). Guarantee: exact.

    Raises:
        InvalidArgument: not a rational, or outside ``[0, 1]``.
    """
    x = parse_rational(value, name, expected="a rational number in [0, 1]")
    if not 0 <= x <= 1:
        raise InvalidArgument(name, "a rational number in [0, 1]", value)
    return x


def parse_int(value: object, name: str, *, lo: Optional[int] = None, hi: Optional[int] = None) -> int:
    """An integer in ``[lo, hi]`` (either end may be open). Guarantee: exact.

    Accepts ``int`` and NumPy integers, and strings of ASCII digits; refuses
    booleans, floats (even integral ones) and non-ASCII digits.

    Raises:
        InvalidArgument: naming ``name`` and the range.
    """
    rng = ("an integer" + (f" in [{lo}, {hi}]" if lo is not None and hi is not None
                           else f" >= {lo}" if lo is not None else f" <= {hi}" if hi is not None else ""))
    v = as_scalar(value)
    if isinstance(v, str):
        s = v.strip()
        if not s.isascii() or not _INTEGER.match(s) or len(s) > 30:
            raise InvalidArgument(name, rng, v)
        v = int(s)
    if isinstance(v, bool) or not isinstance(v, Integral):
        raise InvalidArgument(name, rng, value if not isinstance(value, str) else repr(value))
    v = int(v)
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        raise InvalidArgument(name, rng, v)
    return int(v)


def parse_choice(value: object, name: str, choices: Sequence[str]) -> str:
    """One of ``choices`` (exact string match). Guarantee: exact.

    Raises:
        InvalidArgument: naming ``name`` and the choices.
    """
    if not isinstance(value, str) or value not in choices:
        raise InvalidArgument(name, "one of " + ", ".join(choices), value)
    return value


def parse_list(value: object, name: str) -> list:
    """One number or a sequence of numbers, as a list (a string is one number, not its characters).

    Guarantee: exact (the items are returned as given, to be parsed by the caller).

    Raises:
        InvalidArgument: bytes, a mapping or set (no order), a multi-dimensional
            array, or an empty sequence.
    """
    value = as_scalar(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        raise InvalidArgument(name, "a number or a list of numbers (bytes are not numbers)", "bytes")
    if isinstance(value, (dict, set, frozenset)):
        raise InvalidArgument(name, "a number or a list of numbers (an ordered sequence)", f"a {type(value).__name__}")
    if isinstance(value, (str, int, float, Fraction, Decimal, Rational)) or not hasattr(value, "__iter__"):
        return [value]
    if getattr(value, "ndim", 1) != 1 and (type(value).__module__ or "").startswith("numpy"):
        raise InvalidArgument(name, "a number or a one-dimensional list of numbers", f"an array of shape {value.shape}")  # type: ignore[attr-defined]
    try:
        items = list(value)  # type: ignore[call-overload]
    except Exception:
        raise InvalidArgument(name, "a number or a list of numbers", f"a value of type {type(value).__name__}") from None
    if not items:
        raise InvalidArgument(name, "a non-empty list", "an empty list")
    return items


def parse_json(text: object, name: str, *, expected: str = "a JSON object", **kw: object) -> object:
    """The value of the JSON text ``text`` (``kw`` goes to :func:`json.loads`, e.g.
    ``parse_float=Decimal``), nested at most :data:`MAX_JSON_DEPTH` deep.

    Guarantee: exact (the value as written). Raises:
        InvalidArgument: naming ``name``, for text that is not JSON (with the position), or nested
            deeper than :data:`MAX_JSON_DEPTH` (100,000 opening brackets would overflow the stack
            of every recursive reader).

    Examples:
        >>> parse_json('{"a": [1, 2]}', "line")
        {'a': [1, 2]}
        >>> parse_json('[' * 100 + ']' * 100, "line")
        Traceback (most recent call last):
        ...
        exactdp.errors.InvalidArgument: line must be JSON nested at most 64 deep: found deeper nesting
    """
    if not isinstance(text, (str, bytes, bytearray)):
        raise InvalidArgument(name, expected + " (text)", f"a value of type {type(text).__name__}")
    try:
        obj = json.loads(text, **kw)  # type: ignore[arg-type]
    except RecursionError:
        obj, deep = None, True
    except (ValueError, TypeError) as e:
        raise InvalidArgument(name, expected, str(e)) from None
    else:
        deep = False
        stack = [(obj, 1)]
        while stack and not deep:  # iterative: the check itself must not recurse
            v, d = stack.pop()
            if isinstance(v, (dict, list)):
                if d > MAX_JSON_DEPTH:
                    deep = True
                stack.extend((x, d + 1) for x in (v.values() if isinstance(v, dict) else v))
    if deep:
        raise InvalidArgument(name, f"JSON nested at most {MAX_JSON_DEPTH} deep", "deeper nesting")
    return obj
