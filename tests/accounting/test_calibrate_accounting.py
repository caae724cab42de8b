"""Certified calibration (exactdp.accounting.calibrate): every answer checked against an
independent value (Gaussian DP for unsampled Gaussians, the Laplace mechanism's closed form)
or re-certified by a fresh Accountant; the ends where float calibrations hang answer or refuse."""

from __future__ import annotations

import math
import time
import warnings
from fractions import Fraction as F

import mpmath
import pytest

from exactdp import (
    Accountant,
    CostTooHigh,
    Enclosure,
    FloatInputWarning,
    Gaussian,
    InvalidArgument,
    Laplace,
    Mechanism,
    PoissonSampled,
    calibrate_laplace,
    calibrate_sample_rate,
    calibrate_sigma,
    calibrate_steps,
    gdp_delta,
    gdp_mu,
)


def _recheck(event, steps, c):
    """The certificate of ``c`` re-checked by a fresh accountant at the recorded lattice and digits."""
    return Accountant(c.relation).compose(event, steps).query("epsilon", c.delta, c.digits, h=c.h).value


@pytest.mark.parametrize("relation,factor", [("add_remove", 1), ("replace_one", 2)])
def test_unsampled_sigma_contains_gdp(relation, factor):
    # k unsampled Gaussian steps of noise sigma are exactly mu-GDP with mu = factor * sqrt(k) / sigma
    # (replace-one doubles the sensitivity), so the least sigma is factor * sqrt(k) / mu*, mu* from
    # gdp_mu (the GDP inverse: a different algorithm from the accountant's lattices)
    k = 10
    c = calibrate_sigma(1, "1e-5", steps=k, relation=relation, tol="1e-3")
    mu = gdp_mu(1, "1e-5", digits=25)
    s2 = factor**2 * k  # sigma*^2 = s2 / mu*^2, compared in squares (exact)
    assert c.least_sigma.lower ** 2 * mu.upper**2 < s2
    assert s2 <= c.least_sigma.upper ** 2 * mu.lower**2
    assert c.sigma == c.least_sigma.upper and c.sigma <= c.least_sigma.lower * (1 + c.tol)
    assert c.eps_feasible.upper <= 1 < c.eps_infeasible.lower


def test_laplace_one_step_closed_form():
    # one Laplace step: delta(eps) = 1 - exp((eps - Delta/b) / 2) for eps <= Delta/b, so the least
    # b at (eps, delta) is Delta / (eps - 2 ln(1 - delta))
    eps, delta = F(1, 2), F(1, 10**3)
    c = calibrate_laplace(eps, delta, steps=1, tol="1e-3")
    with mpmath.workdps(40):
        b = 1 / (mpmath.mpf(1) / 2 - 2 * mpmath.log(1 - mpmath.mpf(1) / 1000))
        assert mpmath.mpf(c.least_b.lower.numerator) / c.least_b.lower.denominator < b
        assert b <= mpmath.mpf(c.b.numerator) / c.b.denominator
    assert c.b <= c.least_b.lower * (1 + c.tol)
    fresh = Accountant().compose(Laplace(c.b), 1).query("epsilon", delta, c.digits, h=c.h).value
    assert fresh.upper <= eps
    fresh = Accountant().compose(Laplace(c.least_b.lower), 1).query("epsilon", delta, c.digits, h=c.h_infeasible).value
    assert fresh.lower > eps
    with pytest.raises(AttributeError):
        c.sigma  # noqa: B018


def test_sampled_certificate_rechecked_and_monotone():
    q, k = F(1, 16), 50
    c1 = calibrate_sigma(1, "1e-5", steps=k, sample_rate=q, tol="1e-3")
    c2 = calibrate_sigma(2, "1e-5", steps=k, sample_rate=q, tol="1e-3")
    for c in (c1, c2):
        at = _recheck(PoissonSampled(Gaussian(c.sigma), q), k, c)
        assert at == c.eps_feasible and at.upper <= c.target_eps
        below = _recheck(PoissonSampled(Gaussian(c.least_sigma.lower), q), k, c)
        assert below.lower > c.target_eps
        assert c.sigma <= c.least_sigma.lower * (1 + c.tol)
    assert c2.sigma < c1.least_sigma.lower  # a bigger budget needs less noise


@pytest.mark.slow
def test_hang_ends_answer_or_refuse_quickly():
    # eps = 0.01 (dp_accounting's and Opacus's searches hang or exhaust memory there): answered
    t0 = time.perf_counter()
    c = calibrate_sigma("0.01", "1e-5", steps=1000, sample_rate=F(1, 256), tol="1e-2")
    assert c.eps_feasible.upper <= F(1, 100) < c.eps_infeasible.lower
    # eps = 50: answered at a coarse tolerance, refused up front at an extreme one
    c = calibrate_sigma(50, "1e-5", steps=100, sample_rate=F(1, 25), tol="1e-2")
    assert c.eps_feasible.upper <= 50 < c.eps_infeasible.lower
    with pytest.raises(CostTooHigh) as e:
        calibrate_sigma(50, "1e-5", steps=100, sample_rate=F(1, 25), tol="1e-9")
    assert e.value.alternative.startswith("tol=")
    assert time.perf_counter() - t0 < 600  # minutes at most on a loaded 2-core machine, never a hang


def test_steps_exact_against_gdp():
    # n unsampled Gaussian(20) steps are sqrt(n)/20-GDP: feasible iff n <= 400 mu*^2
    c = calibrate_steps(1, "1e-5", event=Gaussian(20))
    mu = gdp_mu(1, "1e-5", digits=25)
    lo, hi = 400 * mu.lower**2, 400 * mu.upper**2
    assert math.floor(lo) == math.floor(hi)  # the reference decides the integer
    assert c.decided and c.steps == math.floor(lo) and c.most_steps == Enclosure.point(c.steps)
    assert c.eps_feasible.upper <= 1 < c.eps_infeasible.lower


def test_steps_none_when_one_step_exceeds():
    c = calibrate_steps("0.1", "1e-5", event=Gaussian("0.5"))
    assert c.steps == 0 and c.decided and c.eps_infeasible.lower > F(1, 10)


def test_sample_rate():
    k, sigma = 100, 2
    c = calibrate_sample_rate(1, "1e-5", steps=k, sigma=sigma, tol="1e-2")
    at = _recheck(PoissonSampled(Gaussian(sigma), c.sample_rate), k, c)
    assert at.upper <= 1
    above = _recheck(PoissonSampled(Gaussian(sigma), c.largest_sample_rate.upper), k, c)
    assert above.lower > 1
    assert c.largest_sample_rate.upper <= c.sample_rate * (1 + c.tol)
    # rate 1 meets a budget that the unsampled composition meets: the answer is exactly 1
    c = calibrate_sample_rate(1, "1e-5", steps=1, sigma=10, tol="1e-2")
    assert c.sample_rate == 1 and c.largest_sample_rate == Enclosure.point(1)


@pytest.mark.parametrize("kw,name", [
    ({"target_eps": 0}, "target_eps"), ({"delta": 0}, "delta"), ({"delta": 1}, "delta"), ({"steps": 0}, "steps"),
    ({"sample_rate": 2}, "sample_rate"), ({"tol": 0}, "tol"), ({"relation": "swap"}, "relation"),
    ({"sensitivity": -1}, "sensitivity"),
])
def test_bad_input_named(kw, name):
    args = {"target_eps": 1, "delta": "1e-5", "steps": 10, "sample_rate": None, "tol": "1e-3"} | kw
    with pytest.raises(InvalidArgument) as e:
        calibrate_sigma(args.pop("target_eps"), args.pop("delta"), **args)
    assert e.value.parameter == name


# -- ergonomics ------------------------------------------------------------------------------------

def test_float_is_the_upper_end_rounded_up():
    third = Enclosure(F(1, 4), F(1, 3))
    f = float(third)
    assert F(f) >= F(1, 3) and F(math.nextafter(f, 0)) < F(1, 3)  # the least float above 1/3
    assert float(Enclosure.point(F(1, 2))) == 0.5 and float(Enclosure.infinity()) == math.inf
    assert float(Enclosure(0, F(10**400))) == math.inf
    assert third.mid == F(7, 24) and Enclosure.infinity().mid == math.inf


def test_curve_contains_gdp_delta():
    # four unsampled Gaussian(2) steps are exactly 1-GDP: delta(eps) from gdp_delta lies in every point
    acc = Accountant().compose(Gaussian(2), 4)
    c = acc.curve(digits=2)
    assert len(c) == 41 and c.eps[0] == 0
    for e, lo, hi in zip(c.eps[::5], c.delta_lower[::5], c.delta_upper[::5]):
        ref = gdp_delta(1, e, digits=20)
        assert lo <= ref.upper and ref.lower <= hi  # two enclosures of one value: they meet
    eps, lo, hi = c.arrays()
    assert all(F(float(a)) <= b for a, b in zip(lo, c.delta_lower)) and all(F(float(a)) >= b for a, b in zip(hi, c.delta_upper))


def test_curve_plot_returns_a_figure():
    pytest.importorskip("matplotlib", reason="the plot extra")
    c = Accountant().compose(Gaussian(2), 4).curve([0, "0.5", 1, 2], digits=2)
    fig = c.plot()
    assert fig.axes and fig.axes[0].get_yscale() == "log"


def test_float_input_warning():
    with pytest.warns(FloatInputWarning, match='eps="0.05"'):
        m = Mechanism(eps=0.05)
    assert m != Mechanism(eps="0.05") and m.eps == F(0.05)
    with pytest.warns(FloatInputWarning, match="sigma"):
        Gaussian(0.1)
    import numpy as np

    with pytest.warns(FloatInputWarning, match='delta="0.2"'):  # a float subclass: its value, not "np.float64(...)"
        assert Mechanism(eps="0.1", delta=np.float64(0.2)).delta == F(0.2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Mechanism(eps=0.5, delta="1e-5")
        Gaussian(8.0)
        Laplace("0.1")
