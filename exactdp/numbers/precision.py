"""Working precision: one digits-to-bits rule, one start rule, one refinement loop (STYLE.md item 4).

Every adaptive computation in exactdp runs :func:`refine` (python-flint's ``good()`` is
the model): a step function tried at the start precision of :func:`start_prec`, then at
the precisions of a step hook (doubling by default) until the step accepts its own
result, never beyond a maximum; at the maximum it raises
:class:`~exactdp.errors.PrecisionError` naming it. Nothing is ever accepted by a
heuristic: the step's acceptance test is rigorous (an enclosure narrow enough, or a ball
that decides a comparison). :func:`decide_sign` is the one "sign of a ball by refinement".
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Callable, Optional, TypeVar

from ..errors import PrecisionError

__all__ = ["MAXPREC", "GUARD_BITS", "START_GUARD", "DECISION_START", "digits_to_bits", "start_prec", "refine",
           "decide_sign", "accurate"]

#: Upper bound on the working precision (bits) of every adaptive loop.
MAXPREC = 1 << 17

#: Bits added to ``digits * log2(10)`` by :func:`digits_to_bits`.
GUARD_BITS = 8

#: Bits :func:`start_prec` adds to :func:`digits_to_bits` for a value wanted to some digits
#: (the rounding of a few dozen ball operations).
START_GUARD = 16

#: Start precision of a decision (a sign, an order): a 64-bit ball decides every comparison
#: not within about 2^-50 of a tie; closer ones are refined.
DECISION_START = 64
_LOG2_10 = math.log2(10)

T = TypeVar("T")


def digits_to_bits(digits: int) -> int:
    """Bits that hold ``digits`` significant decimal digits, with :data:`GUARD_BITS` to spare.

    Guarantee: exact (``ceil(digits log2 10) + GUARD_BITS``). Raises: nothing.

    Examples:
        >>> digits_to_bits(30)
        108
    """
    return int(math.ceil(digits * _LOG2_10)) + GUARD_BITS


def start_prec(digits: Optional[int] = None, *, extra: int = 0) -> int:
    """The one start rule: ``digits_to_bits(digits) + START_GUARD`` bits for a value wanted to
    ``digits`` digits, :data:`DECISION_START` bits for a decision (``digits`` None), plus
    ``extra`` bits the computation is known to lose (cancellation grows with the problem,
    e.g. ``2 N.bit_length()`` for a floor of an ``N``-term sum). A caller whose step
    carries its own guard passes a negative ``extra``; the start is never below 2 bits.
    A call site's ``extra`` is part of its results (the enclosure's ends depend on the
    precision that accepted it), so it is kept where changing it would move an output.

    Guarantee: exact. Raises: nothing.

    Examples:
        >>> start_prec(30), start_prec(), start_prec(extra=20)
        (124, 64, 84)
    """
    base = DECISION_START if digits is None else digits_to_bits(digits) + START_GUARD
    return max(base + int(extra), 2)


def double(prec: int) -> int:
    """The default step hook of :func:`refine`: the next precision is twice this one."""
    return 2 * prec


def refine(step: Callable[[int], Optional[T]], *, digits: Optional[int] = None, extra: int = 0,
           start: Optional[int] = None, maxprec: int = MAXPREC, what: str = "enclosure",
           grow: Callable[[int], int] = double) -> T:
    """Run ``step(prec)`` at rising precisions until it returns a result (not None).

    The first precision is :func:`start_prec` ``(digits, extra=extra)``, or ``start`` when
    given (a loop resuming at the precision an earlier decision reached); the next is
    ``grow(prec)`` (doubling by default; the step hook), capped at ``maxprec``, and the
    last attempt is at exactly ``maxprec`` bits.

    Guarantee: returns what ``step`` accepted; never a result ``step`` refused.

    Raises:
        PrecisionError: ``step`` refused at ``maxprec`` (the message names ``what`` and ``maxprec``).

    Examples:
        >>> refine(lambda p: p if p >= 200 else None)       # a decision: 64, 128, 256
        256
        >>> refine(lambda p: p if p >= 200 else None, digits=15, grow=lambda p: p + 32)   # 74, 106, ...
        202
    """
    prec = start_prec(digits, extra=extra) if start is None else max(int(start), 2)
    maxprec = int(maxprec)
    while True:
        out = step(prec)
        if out is not None:
            return out
        if prec >= maxprec:
            raise PrecisionError(f"{what}: no convergence by maxprec={maxprec} bits")
        prec = min(max(int(grow(prec)), prec + 1), maxprec)


def decide_sign(ball: Callable[[int], Any], *, maxprec: int = MAXPREC, start: Optional[int] = None,
                what: str = "a sign") -> int:
    """The sign (+1 or -1) of a nonzero real enclosed by the Arb ball ``ball(prec)``, decided
    at rising precision (``ball`` runs at working precision ``prec``).

    A ball that contains 0 is refined, never guessed, so a real that *is* 0 is never
    decided: the caller settles 0 exactly first (an exact value, a zero polynomial,
    Lindemann-Weierstrass). ``start`` resumes at a precision reached earlier (default:
    the decision start of :func:`start_prec`).

    Guarantee: exact (the sign of the real the balls enclose).

    Raises:
        PrecisionError: the ball still contains 0 at ``maxprec`` bits (``|x| < 2^-maxprec``
            or so, or ``x = 0``); the message names ``what`` and ``maxprec``.

    Examples:
        >>> from exactdp._backend import arb
        >>> decide_sign(lambda p: arb(2).sqrt() - arb(1.4142135623730951))
        -1
    """
    from .._backend import workprec

    def step(prec: int) -> Optional[int]:
        with workprec(prec):
            v = ball(prec)
            if v > 0:
                return 1
            if v < 0:
                return -1
        return None

    return refine(step, start=start, maxprec=maxprec, what=what)


def accurate(lo: Fraction, hi: Fraction, digits: int, *, floor: Optional[Fraction] = None) -> bool:
    """Is ``[lo, hi]`` accurate to ``digits`` significant digits (relative width ``<= 10^-digits / 2``)?

    ``floor``: also accept an absolute width ``<= floor`` (for values that may be 0,
    where no relative width is ever reached).

    Guarantee: exact decision. Raises: nothing.
    """
    if lo == hi:
        return True
    w = hi - lo
    mag = max(abs(lo), abs(hi))
    if w <= mag * Fraction(1, 10**digits) / 2:
        return True
    return floor is not None and w <= floor
