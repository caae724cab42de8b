"""What both integrations share: the exact reading of a peer's float, the float rounded up that
a peer's interface returns, and the one-line refusal when the peer is not installed."""

from __future__ import annotations

import math
from fractions import Fraction

from ..errors import InvalidArgument
from ..numbers import as_scalar, parse_rational

__all__ = ["float_up", "float_down", "exact_float", "missing"]


def missing(package: str, extra: str) -> InvalidArgument:
    """The error raised when an integration is used without its package: one line naming the extra.

    Guarantee: exact. Raises: nothing (returns the error).
    """
    return InvalidArgument(package, f"installed to use this integration (pip install 'exactdp[{extra}]')",
                           "not installed")


def exact_float(value: object, name: str) -> Fraction:
    """A peer's number (an int, a float or a NumPy / torch scalar) as the Fraction it is exactly.

    Strings are refused: a peer's events hold floats, and ``"0.1"`` is not the float ``0.1``.

    Guarantee: exact (``Fraction(x)`` of the float). Raises: InvalidArgument (a string, a
    boolean, NaN, an infinity or a non-number, naming ``name``).
    """
    value = as_scalar(value)
    if not isinstance(value, (int, float, Fraction)) and hasattr(value, "item"):
        value = value.item()  # a torch scalar tensor
    if isinstance(value, str):
        raise InvalidArgument(name, "a float (the peer's events hold floats)", value)
    return parse_rational(value, name, expected="a finite float")


def float_up(x: object) -> float:
    """The least float ``>= x`` (``x`` a Fraction, an int or an infinity).

    Guarantee: upper bound, the tightest float one (``Fraction(float_up(x)) >= x``).
    Raises: nothing (beyond the largest float it is ``inf``).
    """
    if isinstance(x, float):
        return x
    try:
        f = float(x)  # correctly rounded (int / int true division)
    except OverflowError:
        return math.inf if x > 0 else -math.nextafter(math.inf, 0)
    if not math.isinf(f) and Fraction(f) < x:
        f = math.nextafter(f, math.inf)
    return f


def float_down(x: object) -> float:
    """The greatest float ``<= x``. Guarantee: lower bound, the tightest float one. Raises: nothing."""
    return -float_up(-x)
