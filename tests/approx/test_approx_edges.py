"""Theorem 1.7 and the sandwich at their edges (issue 17): refusals, not tracebacks or hangs.

References: the k = 1 closed form ``OptComp(delta_g) = ln(w - (1 + w) tau)`` (``tau =
1 - (1 - delta_g)/(1 - delta)``, Murtagh-Vadhan Theorem 1.5 with one mechanism) in mpmath
at 300 bits; the engines' OptComp (a second route: the composition itself rather than the
rounded lattice problem).
"""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import pytest

from exactdp import composed_delta, mechanisms, optcomp
from exactdp.approx import delta_bounds, optcomp_bounds, theorem17
from exactdp.engines.costs import cost_limits
from exactdp.errors import CostTooHigh


def test_tiny_eta_and_huge_eps_are_refused_with_the_reason():
    with pytest.raises(CostTooHigh, match="use eta >=") as ei:
        theorem17(mechanisms(eps=["0.1"], k=10), "1e-6", "1e-400")  # ln u underflows to 0
    assert ei.value.parameter == "eta"
    with pytest.raises(CostTooHigh, match="no lattice fits"):
        theorem17(mechanisms(eps=["1e308"], k=2), "1/100", "0.1")
    with pytest.raises(CostTooHigh):
        optcomp_bounds(mechanisms(eps=["1e308"], k=2), "1/100")


def test_no_eta_fits_ten_million_mechanisms():
    # rounded up, every mechanism keeps a lattice step: k * A >= k^2 = 1e14 > 2e9 whatever eta
    with pytest.raises(CostTooHigh, match="no eta fits"):
        theorem17(mechanisms(eps=["0.1"], k=10**7), "1e-6", "0.5")


def test_exp_base_close_to_one_answers_within_the_guarantee():
    # one mechanism e^eps = 3/2 on the lattice u = 1 + 1e-7 (4e6 steps): balls, not a
    # degree-4e6 exact rational polynomial
    dg = F(1, 10**6)
    r = theorem17(mechanisms(exp_eps=["3/2"]), dg, exp_base="1.0000001")
    with mpmath.workprec(300):
        w = mpmath.mpf(3) / 2
        true = mpmath.log(w - (1 + w) * mpmath.mpf(dg.numerator) / dg.denominator)  # OptComp(delta_g), k = 1
        scaled = dg * F(1)  # e^{-eta/2} delta_g < delta_g, eta = ln(1 + 1e-7)
        eta = mpmath.log(1 + mpmath.mpf(1) / 10**7)
        upper = mpmath.log(w - (1 + w) * mpmath.exp(-eta / 2) * mpmath.mpf(scaled.numerator) / scaled.denominator) + eta
        lo = mpmath.mpf(r.lower.numerator) / r.lower.denominator
        hi = mpmath.mpf(r.upper.numerator) / r.upper.denominator
        assert true <= hi and lo <= upper  # OptComp(delta_g) <= eps* <= OptComp(e^{-eta/2} delta_g) + eta


def test_huge_exp_base_answers_through_balls():
    # u = 1e999: every eps = 0.1 rounds up to one step, eta = k ln u ~ 4.6e7; the rounded
    # composition (20000 x e^eps = 1e999) is solved in balls, in about a second
    ms = mechanisms(eps=["0.1"], k=20000)
    r = theorem17(ms, "1e-6", exp_base="1e999")
    true = optcomp(ms, "1e-6", digits=20)  # the engines on the composition itself
    eta = 20000 * mpmath.log(mpmath.mpf(10) ** 999)
    with mpmath.workprec(200):
        hi = mpmath.mpf(r.upper.numerator) / r.upper.denominator
        assert r.lower >= true.upper and hi <= eta + 1  # OptComp <= eps* <= OptComp(...) + eta (<= sum eps + eta)


def test_sandwich_refinement_stops_within_the_time_limit():
    # 40 distinct eps: each finer lattice costs more; under a small time limit the sandwich
    # returns its best rigorous bounds (width_reached False) instead of running on
    ms = mechanisms(eps=[str(F(i, 997)) for i in range(1, 41)])
    ref = composed_delta(ms, eps_g="0.3", digits=30)  # the lattice method on 1/997, a second algorithm
    with cost_limits(seconds=2):
        b = delta_bounds(ms, eps_g="0.3", width="1e-30")
    assert not b.width_reached and b.levels >= 1
    assert b.lower <= ref.upper and ref.lower <= b.upper
