"""``prod (1 - delta_i)`` in balls when its exact rational is too large (issue 22): 10^9
mechanisms of delta = 1e-8 (an exact product of 5.4e10 bits) are answered by the ball
engines; the exact engine still refuses with the estimate.

Independent values: ``1 - (1 - delta)^k`` from mpmath at 60 digits (the answer when
``eps_g >= k eps``); with the exact product forced into balls (its limit lowered), the
certified enclosure contains the exact engine's rational at a rational ``e^eps``.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

from exactdp import composed_delta, mechanisms, optcomp
from exactdp.engines.base import Prepared
from exactdp.engines.inverse import BallP
from exactdp.errors import CostTooHigh

BIG = dict(eps="0.1", delta="1e-8", k=10**9)


def test_beyond_the_sum_of_eps_delta_g_is_one_minus_the_product():
    r = composed_delta(mechanisms(**BIG), eps_g=2 * 10**8, engine="certified", digits=30)
    with mpmath.workdps(60):
        exact = 1 - (1 - mpmath.mpf(1) / 10**8) ** 10**9
        lo, hi = (mpmath.mpf(x.numerator) / x.denominator for x in (r.value.lower, r.value.upper))
        assert lo <= exact <= hi and hi - lo <= exact * mpmath.mpf(10) ** -29


def test_a_delta_g_below_one_minus_the_product_is_infinite_and_above_it_finite():
    ms = mechanisms(**BIG)  # 1 - P = 0.99995460...
    assert optcomp(ms, "0.9999", engine="certified").value.infinite
    r = optcomp(ms, "0.99999", engine="certified")
    assert not r.value.infinite and r.lower > 0
    # delta_g, computed forwards at the enclosure's ends, brackets the target
    d_lo = composed_delta(ms, eps_g=r.value.lower, engine="certified", digits=40).value
    d_hi = composed_delta(ms, eps_g=r.value.upper, engine="certified", digits=40).value
    assert d_lo.lower >= Fraction(99999, 10**5) >= d_hi.upper


def test_the_exact_engine_still_refuses_with_the_estimate():
    ms = mechanisms(exp_eps="11/10", delta="1e-8", k=10**9)
    with pytest.raises(CostTooHigh, match="prod"):
        composed_delta(ms, exp_eps_g="2", engine="exact")
    # auto answers with balls
    assert composed_delta(ms, exp_eps_g="2").engine == "certified"


@pytest.mark.parametrize("t", ["3", "1000"])
def test_balls_contain_the_exact_rational(monkeypatch, t):
    ms = mechanisms(exp_eps=["11/10", "13/10"], delta=["1e-3", "3e-7"], k=20)
    exact = composed_delta(ms, exp_eps_g=t, engine="exact").value.exact
    import exactdp.events as ev

    monkeypatch.setattr(ev, "MAX_DELTA_PRODUCT_BITS", 1)  # the product now only in balls
    fresh = mechanisms(exp_eps=["11/10", "13/10"], delta=["1e-3", "3e-7"], k=20)  # its product not yet cached
    r = composed_delta(fresh, exp_eps_g=t, engine="certified", digits=30)
    assert isinstance(Prepared(fresh, p_balls=True).P, BallP)  # the path under test
    assert r.value.lower <= exact <= r.value.upper
    assert r.value.upper - r.value.lower <= exact * Fraction(1, 10**29)
    with pytest.raises(CostTooHigh):
        composed_delta(fresh, exp_eps_g=t, engine="exact")
