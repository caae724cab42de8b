"""One error family for exactdp (STYLE.md item 7).

Every error a user can provoke with bad input is an :class:`InvalidArgument`
naming the parameter, the valid range and the value received. The command line
turns these into a one-line message and exit status 2.
"""

from __future__ import annotations


class ExactDPError(Exception):
    """Base class of every error raised on purpose by exactdp."""


class InvalidArgument(ExactDPError, ValueError):
    """An argument is outside its valid range or cannot be parsed.

    The message names the parameter, the valid range and the value found, e.g.
    ``delta must be a rational number in [0, 1): found 1.5``.
    """

    def __init__(self, parameter: str, expected: str, found: object = None, *, hint: str = ""):
        self.parameter = parameter
        self.expected = expected
        self.found = found
        msg = f"{parameter} must be {expected}"
        if found is not None:
            msg += f": found {found!r}" if not isinstance(found, str) else f": found {found}"
        if hint:
            msg += f" ({hint})"
        super().__init__(msg)


class NotExact(InvalidArgument):
    """The exact engine was asked for an input it cannot represent exactly.

    Example: ``eps = 0.1`` makes ``e^eps`` transcendental, so no rational
    arithmetic can hold it; use the certified engine instead.
    """


class CostTooHigh(InvalidArgument):
    """A request whose estimated cost would explode; the message gives the
    estimate and the faster option to use."""

    def __init__(self, parameter: str, message: str):
        self.parameter = parameter
        self.expected = message
        self.found = None
        ValueError.__init__(self, f"{parameter}: {message}")


class PrecisionError(ExactDPError, ArithmeticError):
    """Adaptive precision hit its bound (``maxprec``) before the requested
    accuracy or a rigorous decision was reached. Never silently guessed."""
