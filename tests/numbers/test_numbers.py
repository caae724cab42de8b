"""The number layer (issue 8): one Enclosure value type, one refinement loop, one
digits-to-bits rule, and the parsing layer every user number goes through.

Independent references: Python's own Fraction/Decimal arithmetic, mpmath at 200 bits,
and hand-derived constants (with their derivation beside them).
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction as F

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactdp.errors import InvalidArgument, PrecisionError
from exactdp.numbers import (
    Enclosure,
    accurate,
    digits_to_bits,
    parse_delta,
    parse_int,
    parse_list,
    parse_rational,
    refine,
)

fr = st.fractions(min_value=-10**6, max_value=10**6, max_denominator=10**6)


@given(fr, fr)
def test_enclosure_arithmetic_is_exact_on_the_ends(a, b):
    lo, hi = min(a, b), max(a, b)
    e = Enclosure(lo, hi)
    assert e.contains(lo) and e.contains(hi) and e.contains((lo + hi) / 2)
    assert (e + 1).lower == lo + 1 and (e - e).lower == lo - hi and (-e).upper == -lo
    assert e.width == hi - lo
    d = e.to_dict(7)
    # outward rounding: the printed ends still enclose the exact ends
    assert F(Decimal(d["lower"])) <= lo and F(Decimal(d["upper"])) >= hi


def test_exact_and_infinite_enclosures():
    p = Enclosure.point(F(2, 9))
    assert p.exact == F(2, 9) and p.to_dict(5) == {"exact": "2/9", "lower": "0.22222", "upper": "0.22223"}
    assert p.text(5) == "2/9 = 0.22222... (exact)" and str(p) == "2/9"
    inf = Enclosure.infinity()
    assert inf.infinite and inf.to_dict() == {"exact": "inf", "lower": "inf", "upper": "inf"}
    assert (inf + 5).infinite and Enclosure.infinity(-1).text(3) == "-inf"
    lo, hi = Enclosure(F(1), F(2))  # unpacks
    assert (lo, hi) == (1, 2) and Enclosure(1, 2) == (1, 2) and Enclosure.point(3) == 3
    with pytest.raises(InvalidArgument, match="lower"):
        Enclosure(2, 1)
    with pytest.raises(InvalidArgument):
        Enclosure(0, 1, exact=F(2))


def test_float_ends_are_taken_exactly():
    e = Enclosure(0.1, 0.1)
    assert e.exact == F(3602879701896397, 36028797018963968)  # the binary double 0.1, not 1/10
    assert not Enclosure(0.1, 0.1).contains(F(1, 10))


@pytest.mark.parametrize("t", [F(2), F(1, 3), F(10**30 + 1, 10**30), F(7, 5) ** 40])
def test_log_of_rational_encloses_mpmath(t):
    e = Enclosure.log_of_rational(t, 30)
    with mpmath.workprec(400):
        v = mpmath.log(mpmath.mpf(t.numerator) / t.denominator)
        assert mpmath.mpf(e.lower.numerator) / e.lower.denominator <= v <= mpmath.mpf(e.upper.numerator) / e.upper.denominator
    assert e.accurate(30)  # relative, even for ln(1 + 1e-30)
    assert Enclosure.log_of_rational(F(1), 30).exact == 0


def test_digits_to_bits_and_accurate():
    # ceil(30 log2 10) = ceil(99.657...) = 100, plus 8 guard bits
    assert digits_to_bits(30) == 108 and digits_to_bits(1) == 4 + 8
    assert accurate(F(1), F(1) + F(1, 2 * 10**5), 5) and not accurate(F(1), F(1) + F(1, 10**5), 5)
    assert not accurate(F(0), F(1, 10**50), 10) and accurate(F(0), F(1, 10**50), 10, floor=F(1, 10**20))


def test_refine_doubles_to_the_maximum_and_names_it():
    seen = []
    assert refine(lambda p: seen.append(p) or (p if p >= 300 else None), start=70) == 560
    assert seen == [70, 140, 280, 560]
    seen.clear()
    with pytest.raises(PrecisionError, match="maxprec=1000"):
        refine(lambda p: seen.append(p) or None, start=100, maxprec=1000, what="thing")
    assert seen == [100, 200, 400, 800, 1000]


@pytest.mark.parametrize("value,expected", [
    ("0.1", F(1, 10)), ("1e-6", F(1, 10**6)), ("1/3", F(1, 3)), (" 2 ", F(2)), ("-5/10", F(-1, 2)),
    (0.5, F(1, 2)), (Decimal("0.25"), F(1, 4)), (7, F(7)), (F(2, 3), F(2, 3)),
])
def test_parse_rational_exactly(value, expected):
    assert parse_rational(value, "x") == expected


def test_parse_rational_numpy_and_gmpy2_scalars():
    import gmpy2
    import numpy as np

    assert parse_rational(np.int64(3), "x") == 3 and parse_rational(np.float64(0.5), "x") == F(1, 2)
    assert parse_rational(np.array(0.25), "x") == F(1, 4) and parse_rational(gmpy2.mpq(2, 7), "x") == F(2, 7)
    assert parse_int(np.int64(5), "k", lo=1) == 5 and parse_list(np.array([1, 2]), "eps") == [1, 2]


@pytest.mark.parametrize("value", [True, b"0.1", "nan", "inf", float("nan"), float("inf"), "", "1/0", "1_000",
                                   "٣", "0x10", "1e-99999999", None, [1], {1: 2}, object()])
def test_parse_rational_refuses_naming_the_parameter(value):
    with pytest.raises(InvalidArgument, match="^myparam"):
        parse_rational(value, "myparam")


def test_error_messages_are_short_even_for_huge_values():
    with pytest.raises(InvalidArgument) as e:
        parse_delta(-(10**5000), "delta")
    assert len(str(e.value)) < 200 and "bits" in str(e.value)
    with pytest.raises(InvalidArgument) as e:
        parse_delta("9" * 5000, "delta")
    assert len(str(e.value)) < 200 and "5000 characters" in str(e.value)


@pytest.mark.parametrize("value", [3.0, True, "3.5", "٣", -1, 0])
def test_parse_int_refuses(value):
    with pytest.raises(InvalidArgument, match="^k must be an integer >= 1"):
        parse_int(value, "k", lo=1)


def test_parse_list_keeps_one_number_whole():
    assert parse_list("0.1", "eps") == ["0.1"] and parse_list(F(1, 3), "eps") == [F(1, 3)]
    for bad in (b"0.1", {"a": 1}, {1, 2}, []):
        with pytest.raises(InvalidArgument, match="^eps"):
            parse_list(bad, "eps")
    assert math.isfinite(float(parse_rational("1e-300", "x")))


@given(st.integers(-(2**9000), 2**9000), st.integers(1, 2**9000), st.sampled_from([53, 100, 300]))
def test_arb_of_fraction_encloses_large_rationals(n, d, prec):
    """The ball of a rational of thousands of bits (built from leading bits, without a gcd)
    contains it exactly (checked by Fraction comparisons of its endpoints) and is about as
    narrow as rounding."""
    from exactdp._backend import workprec
    from exactdp.numbers import arb_bounds, arb_of_fraction

    q = F(n, d)
    with workprec(prec):
        lo, hi = arb_bounds(arb_of_fraction(q))
    assert lo <= q <= hi
    if q:
        assert (hi - lo) / abs(q) <= F(1, 2 ** (prec - 5))


def test_arb_bounds_of_balls_with_huge_gaps_between_midpoint_and_radius():
    """A radius 2^(1e144) times below its midpoint (a delta_g beside e^(-6.8e143)) or above it:
    the endpoints stay exact rationals of moderate size that enclose the ball (checked against
    the midpoint and radius as exact dyadics where they can be written, and by sign)."""
    from flint import arb as farb

    from exactdp.numbers import arb_bounds

    tiny = farb(2) ** (-10**144)
    ball = farb("0.5") + farb(0, tiny.upper())  # [1/2 - 2^-1e144, 1/2 + 2^-1e144]
    lo, hi = arb_bounds(ball)
    assert lo < F(1, 2) < hi and hi - lo <= F(1, 2 ** (2**20 - 2))
    ball = farb(tiny, 1)  # midpoint 2^-1e144, radius 1
    lo, hi = arb_bounds(ball)
    assert lo <= -1 and hi >= 1 and hi - lo <= 4


def test_short_fraction_of_huge_rationals_matches_the_whole_decimal():
    """The leading digits and lengths of numbers past 100,000 bits come from powers of ten (the whole
    decimal of a 44-million-digit e^eps* took 17 s to elide); checked against the whole decimal
    written by gmpy2, including a power of ten (the digit count's edge) and a negative numerator."""
    import random

    import gmpy2

    from exactdp.numbers.fmt import short_fraction

    r = random.Random(7)
    cases = [F(r.getrandbits(300_000) | 1, r.getrandbits(150_000) | 1), F(-(r.getrandbits(200_000) | 1)),
             F(10**40000), F(10**40000 - 1, 3)]
    for x in cases:
        whole = str(gmpy2.mpz(x.numerator)) + ("" if x.denominator == 1 else "/" + str(gmpy2.mpz(x.denominator)))
        assert short_fraction(x) == whole[:50] + f"...({len(whole)} chars)"
