"""Certified decisions with Arb balls (python-flint).

A comparison is decided only when the balls are disjoint; otherwise the computation is
redone at twice the precision, up to ``MAXPREC`` bits, and an undecided comparison is
reported (:class:`Undecided`), never guessed.

Guarantee: enclosure (every ball contains the exact value); decisions are certain.
"""

from __future__ import annotations

from fractions import Fraction as F
from typing import Callable

from flint import arb, ctx

MAXPREC = 4096


class Undecided(Exception):
    """A comparison whose balls still overlapped at MAXPREC bits."""


def A(x) -> arb:
    """An exact arb for a Fraction or int."""
    x = F(x)
    return arb(x.numerator) / x.denominator


def to_fraction(x: arb) -> F:
    """The exact value of an exact arb (e.g. ``x.upper()``) as a Fraction."""
    m, e = x.mid().man_exp()
    m, e = int(m), int(e)
    return F(m) * (F(2) ** e)


def lower(x: arb) -> F:
    return to_fraction(x.lower())


def upper(x: arb) -> F:
    return to_fraction(x.upper())


def decide(fn: Callable[[], tuple], start: int = 64) -> bool:
    """``fn()`` returns balls ``(a, b)``; True iff a < b, False iff a > b (certainly), at rising precision."""
    old = ctx.prec
    prec = start
    try:
        while prec <= MAXPREC:
            ctx.prec = prec
            a, b = fn()
            if a < b:
                return True
            if a > b:
                return False
            prec *= 2
    finally:
        ctx.prec = old
    raise Undecided("balls overlap at %d bits" % MAXPREC)


def with_prec(prec: int, fn: Callable[[], object]):
    old = ctx.prec
    ctx.prec = prec
    try:
        return fn()
    finally:
        ctx.prec = old
