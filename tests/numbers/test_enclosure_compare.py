"""Decided comparisons on Enclosure (issue 22; STYLE.md items 3 and 13): an answer only when
the ends decide it for every pair of values, :class:`Undecided` otherwise (mpmath's
``mpi_lt``, Arb's ``__richcmp__``)."""

from __future__ import annotations

import math
import operator
from fractions import Fraction as F

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from exactdp.errors import PrecisionError, Undecided
from exactdp.numbers import Enclosure

OPS = [operator.lt, operator.le, operator.gt, operator.ge]
small = st.fractions(min_value=-3, max_value=3, max_denominator=6)


@st.composite
def enclosures(draw):
    a, b = sorted([draw(small), draw(small)])
    return Enclosure(a, b)


def _answers(op, a: Enclosure, b: Enclosure) -> set:
    """The answers of op over the corners of a x b (a linear predicate takes its extremes there)."""
    return {op(x, y) for x in (a.lower, a.upper) for y in (b.lower, b.upper)}


@given(enclosures(), enclosures())
@example(Enclosure.point(1), Enclosure.point(1))
@example(Enclosure(0, 1), Enclosure(1, 2))
@example(Enclosure(0, 1), Enclosure(0, 1))
def test_an_answer_holds_for_every_pair_of_values_and_overlap_raises(a, b):
    for op in OPS:
        ans = _answers(op, a, b)
        if len(ans) == 1:
            assert op(a, b) is ans.pop()
        else:
            with pytest.raises(Undecided):
                op(a, b)


@given(enclosures(), small)
def test_an_exact_number_compares_as_its_point(a, x):
    for op in OPS:
        ans = _answers(op, a, Enclosure.point(x))
        if len(ans) == 1:
            v = ans.pop()
            assert op(a, x) is v and op(a, Enclosure.point(x)) is v
            # the reflected operation (Fraction < Enclosure) gives the mirrored answer
            mirror = {operator.lt: operator.gt, operator.le: operator.ge, operator.gt: operator.lt, operator.ge: operator.le}[op]
            assert mirror(x, a) is v
        else:
            with pytest.raises(Undecided):
                op(a, x)


def test_pinned_cases():
    third = Enclosure(F(1, 3) - F(1, 10**9), F(1, 3) + F(1, 10**9))
    assert third < F(1, 2) and third <= 1 and third > 0.3 and not third > 1 and not (third >= F(1, 2))
    assert Enclosure.point(1) <= Enclosure.point(1) and not Enclosure.point(1) < 1  # an exact tie is decided
    assert Enclosure.infinity() > 10**100 and Enclosure.infinity(-1) < -(10**100) and Enclosure.infinity() >= math.inf
    with pytest.raises(Undecided, match="undecided"):
        third < F(1, 3)
    with pytest.raises(Undecided):
        Enclosure(0, 1) <= Enclosure(F(1, 2), 2)
    # Undecided is a PrecisionError: callers that refine on PrecisionError refine here too
    assert issubclass(Undecided, PrecisionError)
    with pytest.raises(TypeError):
        Enclosure(0, 1) < "1"
    with pytest.raises(TypeError):
        Enclosure(0, 1) < float("nan")


def test_sign_is_decided_or_undecided():
    assert Enclosure(F(1, 10), 1).sign() == 1 and Enclosure(-2, F(-1, 10**30)).sign() == -1
    assert Enclosure.point(0).sign() == 0 and Enclosure.infinity(-1).sign() == -1
    for e in (Enclosure(0, 1), Enclosure(-1, 0), Enclosure(-1, 1)):
        with pytest.raises(Undecided):
            e.sign()


def test_equality_is_unchanged_structural():
    assert Enclosure(0, 1) == Enclosure(0, 1) and Enclosure(0, 1) == (0, 1) and Enclosure.point(F(2, 9)) == F(2, 9)
    assert Enclosure(0, 1) != Enclosure(0, 2)
