"""Working precision: one digits-to-bits rule and one refinement loop (STYLE.md item 4).

Every adaptive computation in exactdp runs :func:`refine`: a step function tried at a
start precision, doubled until the step accepts its own result, never beyond a
maximum; at the maximum it raises :class:`~exactdp.errors.PrecisionError` naming it.
Nothing is ever accepted by a heuristic: the step's acceptance test is rigorous
(an enclosure narrow enough, or a ball that decides a comparison).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Callable, Optional, TypeVar

from ..errors import PrecisionError

__all__ = ["MAXPREC", "GUARD_BITS", "digits_to_bits", "refine", "accurate"]

#: Upper bound on the working precision (bits) of every adaptive loop.
MAXPREC = 1 << 17

#: Bits added to ``digits * log2(10)`` by :func:`digits_to_bits`.
GUARD_BITS = 8

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


def refine(step: Callable[[int], Optional[T]], *, start: int, maxprec: int = MAXPREC, what: str = "enclosure") -> T:
    """Run ``step(prec)`` at ``start``, ``2 start``, ... bits until it returns a result (not None).

    The last attempt is at exactly ``maxprec`` bits.

    Guarantee: returns what ``step`` accepted; never a result ``step`` refused.

    Raises:
        PrecisionError: ``step`` refused at ``maxprec`` (the message names ``what`` and ``maxprec``).

    Examples:
        >>> refine(lambda p: p if p >= 200 else None, start=64)
        256
    """
    prec = max(int(start), 2)
    while True:
        out = step(prec)
        if out is not None:
            return out
        if prec >= maxprec:
            raise PrecisionError(f"{what}: no convergence by maxprec={maxprec} bits")
        prec = min(2 * prec, maxprec)


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
