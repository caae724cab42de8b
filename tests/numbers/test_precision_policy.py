"""One precision policy (issue 22; STYLE.md item 4): the start rule, the step hook of
:func:`refine`, the one :func:`decide_sign` and the one coprime-fraction helper."""

from __future__ import annotations

from fractions import Fraction

import pytest

from exactdp._backend import arb, mpq
from exactdp.errors import PrecisionError
from exactdp.numbers import DECISION_START, START_GUARD, coprime_fraction, decide_sign, digits_to_bits, refine, start_prec


def test_the_start_rule():
    assert start_prec() == DECISION_START == 64
    assert start_prec(30) == digits_to_bits(30) + START_GUARD == 108 + 16  # ceil(30 log2 10) = 100, + 8, + 16
    assert start_prec(30, extra=8) == 132 and start_prec(extra=-100) == 2


def test_refine_starts_by_the_rule_and_steps_by_the_hook():
    seen: list[int] = []
    assert refine(lambda p: seen.append(p) or (p if p >= 300 else None)) == 512
    assert seen == [64, 128, 256, 512]
    seen.clear()
    assert refine(lambda p: seen.append(p) or (p if p >= 100 else None), digits=15, grow=lambda p: p + 10) == 104
    assert seen == [74, 84, 94, 104]  # 74 = ceil(15 log2 10) + 8 + 16
    seen.clear()
    with pytest.raises(PrecisionError, match="thing: no convergence by maxprec=300 bits"):
        refine(lambda p: seen.append(p) or None, maxprec=300, what="thing")
    assert seen == [64, 128, 256, 300]  # the last attempt is at exactly maxprec
    seen.clear()
    # a hook that would not grow still makes progress
    assert refine(lambda p: seen.append(p) or (p if p >= 66 else None), grow=lambda p: p) == 66


def test_decide_sign_refines_and_never_guesses():
    seen: list[int] = []

    def close(p: int):
        seen.append(p)
        return arb(2).sqrt() - arb(Fraction(14142135623730950488, 10**19).numerator) / 10**19

    assert decide_sign(close) == 1  # sqrt 2 = 1.41421356237309504880...
    assert seen[0] == DECISION_START
    assert decide_sign(lambda p: -arb(2).exp()) == -1
    with pytest.raises(PrecisionError, match="zero: no convergence by maxprec=256 bits"):
        decide_sign(lambda p: arb(2).sqrt() ** 2 - 2, maxprec=256, what="zero")
    assert decide_sign(lambda p: arb(1) - arb(2).sqrt() / arb(2).sqrt() + arb(1) / 2**200, start=256) == 1


def test_coprime_fraction_is_the_fraction():
    for n, d in [(3, 8), (-7, 5), (0, 1), (2**4000 + 1, 2**3999)]:
        f = coprime_fraction(n, d)
        assert f == Fraction(n, d) and (f.numerator, f.denominator) == (n, d) and hash(f) == hash(Fraction(n, d))
    q = mpq(22, 7)
    f = coprime_fraction(q.numerator, q.denominator)
    assert type(f.numerator) is int and f == Fraction(22, 7)
