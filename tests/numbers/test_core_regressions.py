"""Regressions of the OptComp core found in review, each pinned by an independent value."""

from fractions import Fraction as F

from flint import arb

from exactdp import Mechanism, composed_delta, mechanisms, optcomp
from exactdp._backend import workprec
from exactdp.numbers import Computable, RatExp, Root, arb_bounds, log_sign_of_product


def test_mechanisms_accepts_one_number_as_a_scalar():
    # a string is one number, not a list of characters
    assert mechanisms(eps="0.1", k=3) == (Mechanism(eps=F(1, 10)),) * 3
    assert mechanisms(exp_eps=2) == (Mechanism(exp_eps=2),)
    assert mechanisms(eps=F(1, 3), delta="0.01", k=2) == (Mechanism(eps=F(1, 3), delta=F(1, 100)),) * 2


def test_delta_at_a_computable_breakpoint_stops_with_an_absolute_enclosure():
    # eps_g = 0.2 = eps_1 + eps_2 exactly, given as a Computable: delta_g = 0 (t = W)
    ms = mechanisms(eps="0.1", k=2)
    r = composed_delta(ms, exp_eps_g=Computable(lambda p: arb("0.2").exp(), "e^0.2"))
    assert r.lower == 0 and 0 <= r.upper <= F(1, 10 ** 60)


def test_roots_against_exponentials_are_decided():
    # sqrt(2) vs e^(1/3): ln sqrt 2 = 0.3466 > 1/3
    assert log_sign_of_product([(Root(F(2), 2), 1), (RatExp(F(1), F(1, 3)), -1)]) == 1
    # 2 e^0 (a RatExp with r = 0) against the root 4^(1/2): equal exactly
    assert log_sign_of_product([(RatExp(F(2), F(0)), 1), (Root(F(4), 2), -1)]) == 0
    # 3/2 * e^0 vs 2^(1/2): (3/2)^2 = 9/4 > 2
    assert log_sign_of_product([(RatExp(F(3, 2)), 1), (Root(F(2), 2), -1)]) == 1


def test_arb_bounds_do_not_depend_on_the_context_precision():
    with workprec(200):
        x = arb(1) / 3
    lo200, hi200 = arb_bounds(x)
    with workprec(20):
        lo20, hi20 = arb_bounds(x)
    assert (lo20, hi20) == (lo200, hi200)
    assert lo200 < F(1, 3) < hi200 and hi200 - lo200 < F(1, 2 ** 190)


def test_certified_optcomp_at_an_exact_tie_at_eps_zero():
    # k = 1, e^eps = 2: delta_g(eps_g = 0) = (2 - 1)/(1 + 2) = 1/3 exactly, so OptComp(1/3) = 0
    r = optcomp([Mechanism(exp_eps=2)], "1/3", engine="certified")
    assert r.lower == r.upper == 0
    r = optcomp([Mechanism(exp_eps=2)], "1/3", engine="exact")
    assert r.exact == 0


def test_all_zero_eps_is_the_product_of_deltas():
    # eps_i = 0: the composition is (0, 1 - prod(1 - delta_i)) exactly
    ms = mechanisms(eps=0, delta=["0.1", "0.2"])
    r = composed_delta(ms, eps_g=0)
    assert r.exact == 1 - F(9, 10) * F(8, 10)
    assert optcomp(ms, "0.28").exact == 0
    assert optcomp(ms, "0.27").infinite


def test_cli_prec_fixes_the_working_precision(capsys):
    from exactdp.cli import main

    # one certified evaluation at 80 bits: an enclosure around the 30-digit value
    ref = composed_delta(mechanisms(eps="0.1", k=10), eps_g="0.5", engine="certified", digits=30)
    assert main(["delta", "--eps", "0.1", "-k", "10", "--eps-g", "0.5", "--engine", "certified", "--prec", "80", "--json"]) == 0
    import json

    d = json.loads(capsys.readouterr().out)
    assert d["precision_bits"] == 80
    lo, hi = F(d["delta_g"]["lower"]), F(d["delta_g"]["upper"])
    assert lo <= ref.lower and ref.upper <= hi and hi - lo < F(1, 10 ** 15)


def test_huge_numbers_are_refused_or_printed_without_str_limits():
    import pytest

    from exactdp.errors import CostTooHigh, InvalidArgument
    from exactdp.numbers import fraction_str, fraction_to_decimal, parse_rational

    with pytest.raises(InvalidArgument, match="decimal exponent"):
        parse_rational("1e-99999999", "delta_g")
    assert parse_rational("1e-99999", "x") == F(1, 10 ** 99999)
    # beyond Python's 4300-digit str(int) limit
    assert fraction_to_decimal(F(1, 10 ** 5000), 15, "down") == "1e-5000"
    assert fraction_to_decimal(F(10 ** 5000 + 1, 3), 3, "up") == "3.34e+4999"
    assert fraction_str(F(1, 10 ** 5000)) == "1/1" + "0" * 5000
    with pytest.raises(CostTooHigh) as ei:
        mechanisms(eps="0.1", k=10 ** 12 + 1)  # MAX_MECHANISMS = 10^12 (tests/events/test_scale_k.py)
    assert ei.value.parameter == "k"
    # the homogeneous binomial row of k = 2e5 would need ~4.7 GiB of exact coefficients (auto
    # answers with the windowed kernel instead)
    with pytest.raises(CostTooHigh, match="GiB"):
        composed_delta(mechanisms(eps="0.1", k=200_000), eps_g=1, method="homogeneous")


def test_root_equality_reduces_by_the_gcd_of_the_indices():
    assert Root(F(10) ** 300, 4000) == Root(F(10) ** 300, 4000)
    assert Root(F(8), 3) == Root(F(4), 2)  # both 2
    assert Root(F(9), 4) == Root(F(3), 2)
    assert not Root(F(9), 4) == Root(F(2), 2)


from decimal import Decimal  # noqa: E402

from hypothesis import example, given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@given(x=st.fractions(min_value=F(-10 ** 6), max_value=F(10 ** 6)).filter(lambda v: v != 0),
       digits=st.integers(1, 25), rounding=st.sampled_from(["down", "up"]))
@example(x=F(999, 1000), digits=2, rounding="up")  # carry: 1.0, not 1.00
@example(x=F(-99999, 1000), digits=3, rounding="down")  # -100
@example(x=F(1234567), digits=2, rounding="up")  # 1300000: two significant digits
def test_fraction_to_decimal_is_directed_and_has_at_most_the_digits_asked(x, digits, rounding):
    from exactdp.numbers import fraction_to_decimal

    s = fraction_to_decimal(x, digits, rounding)
    v = F(Decimal(s))
    assert (v <= x) if rounding == "down" else (v >= x)
    m = s.lstrip("-").split("e")[0]
    sig = m.replace(".", "").lstrip("0") if "." in m else m.rstrip("0")  # "1300000" has 2, "1.0" has 2
    assert len(sig) <= digits, s  # a carry (0.999 -> 1.0) must not add a digit
    # within one unit in the last place of x's magnitude
    e = Decimal(abs(x.numerator)).adjusted() - Decimal(x.denominator).adjusted()
    assert abs(v - x) <= F(10) ** (e + 2 - digits)


def test_decimals_of_extreme_exponents_come_from_balls_and_stay_bounds(monkeypatch):
    # the exact way builds 10^e (a 10^9-bit integer for delta_g = e^(-6.9e8)); beyond 10^20000
    # the digits come from balls. Checked against the exact way on random values by forcing
    # the ball path: every string is a bound in its direction and within two units of the
    # exact one's last digit.
    import random
    from decimal import Decimal
    from fractions import Fraction as F

    import exactdp.numbers.fmt as fmt

    rnd = random.Random(7)
    for _ in range(150):
        x = F(rnd.randrange(1, 10 ** rnd.randint(1, 50)), rnd.randrange(1, 10 ** rnd.randint(1, 50)))
        x *= F(10) ** rnd.randint(-2000, 2000)
        d = rnd.randint(1, 35)
        for r in ("down", "up"):
            monkeypatch.setattr(fmt, "MAX_EXACT_DECIMAL_EXPONENT", 10**6)
            exact = F(Decimal(fmt.fraction_to_decimal(x, d, r)))
            monkeypatch.setattr(fmt, "MAX_EXACT_DECIMAL_EXPONENT", -1)
            ball = F(Decimal(fmt.fraction_to_decimal(x, d, r)))
            assert (ball <= exact <= x) if r == "down" else (x <= exact <= ball)
            assert abs(ball - exact) <= 2 * exact / 10 ** (d - 1)
    # and fast where the exact way is not: 1/3 * 10^-300000 has a 10^6-bit denominator
    monkeypatch.undo()
    tiny = F(1, 3 * 10**300000)
    assert fmt.fraction_to_decimal(tiny, 5, "down") == "3.3333e-300001"
    assert fmt.fraction_to_decimal(tiny, 5, "up") == "3.3334e-300001"
