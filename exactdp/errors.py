"""One error family for exactdp (STYLE.md item 7).

Every error raised on purpose is an :class:`ExactDPError`; the command line turns
each into one line on stderr and exit status 2 (3 for :class:`Undecided`).

* :class:`InvalidArgument` (also a ``ValueError``): bad input, naming the
  parameter, the valid range and the value received (shortened when long).
* :class:`NotExact`: the exact engine cannot represent an input exactly.
* :class:`CostTooHigh`: a request refused before any work because its cost would
  explode; it carries the estimate, the limit and the faster option as fields.
* :class:`PrecisionError` (also an ``ArithmeticError``): adaptive precision hit
  its bound before the accuracy asked or a rigorous decision was reached.
* :class:`Undecided`: a claim (``certify``) could not be decided rigorously.
* :class:`ReductionFailure`: a reduction step of the #P chain, run as printed, is
  undefined on the instance.

This module imports nothing from exactdp (the bottom layer, ``docs/architecture.md``).
"""

from __future__ import annotations

from typing import Optional

__all__ = [
    "ExactDPError",
    "InvalidArgument",
    "NotExact",
    "CostTooHigh",
    "PrecisionError",
    "Undecided",
    "ReductionFailure",
    "FloatInputWarning",
    "shorten",
]

#: Longest echo of a user's value in an error message (longer values are elided in the middle).
MAX_ECHO = 60


def shorten(text: str, limit: int = MAX_ECHO) -> str:
    """``text`` elided in the middle to at most about ``limit`` characters, with its length.

    Guarantee: exact (a pure string function). Raises: nothing.

    Examples:
        >>> shorten("1" * 5000)
        '11111111111111111111111111...1111111111 (5000 characters)'
    """
    if len(text) <= limit:
        return text
    head = max(limit - 34, 8)
    return f"{text[:head]}...{text[-10:]} ({len(text)} characters)"


def _echo(found: object) -> str:
    """The received value as shown in a message: strings as they are, others by repr,
    never more than about :data:`MAX_ECHO` characters (a 5000-digit number is elided)."""
    if isinstance(found, str):
        return shorten(found)
    try:
        if isinstance(found, int) and not isinstance(found, bool) and found.bit_length() > 200:
            return f"an integer of {found.bit_length()} bits"
        text = repr(found)
    except Exception:  # a hostile object whose repr fails must not break the error itself
        text = f"<{type(found).__name__} object>"
    return shorten(text)


class ExactDPError(Exception):
    """Base class of every error raised on purpose by exactdp."""


class InvalidArgument(ExactDPError, ValueError):
    """An argument is outside its valid range or cannot be parsed.

    The message names the parameter, the valid range and the value found, e.g.
    ``delta must be a rational number in [0, 1): found 1.5``. Fields:
    ``parameter``, ``expected``, ``found`` (the value as received), ``hint``.
    """

    def __init__(self, parameter: str, expected: str, found: object = None, *, hint: str = ""):
        self.parameter = parameter
        self.expected = expected
        self.found = found
        self.hint = hint
        msg = f"{parameter} must be {expected}"
        if found is not None:
            msg += f": found {_echo(found)}"
        if hint:
            msg += f" ({hint})"
        super().__init__(msg)

    def renamed(self, parameter: str) -> "InvalidArgument":
        """The same error naming ``parameter`` instead (a library name -> the user's flag).

        Guarantee: exact. Raises: nothing.
        """
        if type(self) is CostTooHigh:
            return CostTooHigh(parameter, self.expected, estimate=self.estimate, limit=self.limit,  # type: ignore[attr-defined]
                               alternative=self.alternative)  # type: ignore[attr-defined]
        return type(self)(parameter, self.expected, self.found, hint=self.hint)


class NotExact(InvalidArgument):
    """The exact engine was asked for an input it cannot represent exactly.

    Example: ``eps = 0.1`` makes ``e^eps`` transcendental, so no rational
    arithmetic can hold it; use the certified engine instead.
    """


class CostTooHigh(InvalidArgument):
    """A request refused up front because its estimated cost would explode.

    ``str(e)`` is ``"<parameter>: <message>"``; the message states the estimate and
    the faster option. The same facts are fields, so no caller parses the message:
    ``estimate`` (the estimated cost, e.g. ``"about 2.1e+12 operations"`` or a
    number), ``limit`` (the bound it exceeds) and ``alternative`` (what to use instead).
    """

    def __init__(self, parameter: str, message: str, *, estimate: object = None, limit: object = None,
                 alternative: Optional[str] = None):
        self.parameter = parameter
        self.expected = message
        self.found = None
        self.hint = ""
        self.estimate = estimate
        self.limit = limit
        self.alternative = alternative
        ValueError.__init__(self, f"{parameter}: {message}")


class PrecisionError(ExactDPError, ArithmeticError):
    """Adaptive precision hit its bound (``maxprec``) before the requested
    accuracy or a rigorous decision was reached. Never silently guessed."""


class Undecided(PrecisionError):
    """A claim could not be decided rigorously within the escalation bounds.

    The message gives the best enclosure reached; nothing is guessed.
    """


class ReductionFailure(ExactDPError):
    """A reduction step, run as printed, is undefined on the instance (e.g. a 0-th
    root); the corrected step handles it. Raised only on a proven failure (an exact
    decision), never on a precision shortfall (that is :class:`PrecisionError`)."""


class FloatInputWarning(UserWarning):
    """A Python float given where exactdp keeps an exact rational: the float is converted
    exactly, as the binary number it is, so ``Mechanism(eps=0.05)`` (eps =
    3602879701896397/72057594037927936) and ``Mechanism(eps="0.05")`` (eps = 1/20) are
    different mechanisms (not equal, different JSON, and an exact engine works with the 2^56
    denominator). Issued by the event constructors when the float's binary value differs from
    the decimal it prints as; pass the decimal as a string (or a Fraction) to mean the decimal.
    Silence it with ``warnings.simplefilter("ignore", exactdp.FloatInputWarning)``."""
