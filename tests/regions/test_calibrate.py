"""Noise calibration (exactdp.bounds.calibrate) against independent computations.

* k = 1: the largest eps0 in closed form, ``e^eps0 = (t + c)/(1 - c)``, ``c = (delta_g - delta0)/(1 - delta0)``
  (from ``delta_g = delta0 + (1 - delta0)(e^eps0 - t)_+/(1 + e^eps0)``), in mpmath;
* any k: both ends re-checked with the OptComp engine (composed_delta) and, for equal
  mechanisms, with KOV's sum written here in mpmath;
* the Gaussian sigma: delta_mu(eps) at both ends in mpmath (one feasible, one not);
* the derived Laplace / geometric / randomized-response numbers from eps0 by their formulas;
* KOV Section 4.1: the verdicts (Theorem 4.3 fails at eps = 100, delta = 0.1) re-derived here.

References: Murtagh-Vadhan Theorem 1.5; Kairouz-Oh-Viswanath Corollary 4.1, Theorems 4.2-4.3;
Dong-Roth-Su (Gaussian DP).
"""

from __future__ import annotations

from fractions import Fraction as F
from math import comb

import mpmath
import pytest
from regions_reference import gdp_delta_mp, mp

from exactdp import composed_delta, mechanisms
from exactdp.bounds import calibrate, largest_eps0
from exactdp.errors import InvalidArgument


@pytest.fixture(autouse=True)
def _mp_precision():
    """mpmath at 50 digits for every test here (its precision is global: set per test, not at import)."""
    with mpmath.workdps(50):
        yield



@pytest.mark.parametrize("t,dg,d0", [(F(2), F(1, 10), F(0)), (F(3, 2), F(1, 100), F(1, 1000)), (F(1), F(1, 5), F(0))])
def test_k1_closed_form(t, dg, d0):
    e = largest_eps0(exp_eps_g=t, delta_g=dg, k=1, delta0=d0, digits=20)
    c = (dg - d0) / (1 - d0)
    v = mpmath.log((mp(t) + mp(c)) / (1 - mp(c)))
    assert e.lower <= F(mpmath.nstr(v, 45)) <= e.upper
    assert e.width <= e.upper * F(1, 10**19)


def _kov_delta_mp(eps0, d0, k, eps_g):
    w, t = mpmath.exp(mp(eps0)), mpmath.exp(mp(eps_g))
    s = sum(comb(k, m) * max(w ** m - t * w ** (k - m), 0) for m in range(k + 1))
    P = (1 - mp(d0)) ** k
    return 1 - P + P * s / (1 + w) ** k


@pytest.mark.parametrize("eg,dg,k,d0", [(F(1), F(1, 10**6), 10, F(0)), (F(1, 2), F(1, 10**5), 50, F(0)),
                                        (F(2), F(1, 1000), 7, F(1, 10**5)), (F(0), F(1, 10), 3, F(0))])
def test_ends_are_feasible_and_infeasible(eg, dg, k, d0):
    e = largest_eps0(eg, dg, k, delta0=d0, digits=12)
    assert e.width <= e.upper * F(1, 10**11)
    ms_lo = mechanisms(eps=e.lower, delta=d0, k=k)
    ms_hi = mechanisms(eps=e.upper, delta=d0, k=k)
    assert composed_delta(ms_lo, eps_g=eg).upper <= dg < composed_delta(ms_hi, eps_g=eg).lower
    assert _kov_delta_mp(e.lower, d0, k, eg) <= mp(dg) < _kov_delta_mp(e.upper, d0, k, eg)


def test_budget_at_the_floor_is_exact():
    d0 = F(1, 1000)
    dg = 1 - (1 - d0) ** 4
    assert largest_eps0(F(1), dg, 4, delta0=d0).exact == F(1, 4)
    with pytest.raises(InvalidArgument, match="delta_g"):
        largest_eps0(F(1), dg - F(1, 10**9), 4, delta0=d0)


@pytest.mark.parametrize("eg,dg,k,S", [(F(1), F(1, 10**5), 1, F(1)), (F(1, 2), F(1, 10**6), 20, F(3)), (F(5), F(1, 100), 4, F(1, 2))])
def test_gaussian_sigma_ends(eg, dg, k, S):
    c = calibrate(eg, dg, k, sensitivity=S, digits=12)
    lo, hi = c.gaussian_sigma.lower, c.gaussian_sigma.upper
    mu_at = lambda s: mpmath.sqrt(k) * mp(S) / mp(s)  # noqa: E731
    assert gdp_delta_mp(mu_at(hi), mp(eg)) <= mp(dg) < gdp_delta_mp(mu_at(lo), mp(eg))
    assert c.gaussian_sigma.width <= hi * F(1, 10**10)


def test_derived_parameters():
    c = calibrate("0.5", "1e-5", 10, sensitivity=2, digits=15)
    e = c.eps0
    assert c.laplace_scale.lower <= 2 / e.upper and 2 / e.lower <= c.laplace_scale.upper
    assert c.laplace_variance.lower <= 2 * c.laplace_scale.lower ** 2
    for x, enc in [(e.lower, c.geometric_alpha), (e.upper, c.geometric_alpha)]:
        assert enc.lower <= F(mpmath.nstr(mpmath.exp(-mp(x) / 2), 30)) + F(1, 10**25)
    p = mpmath.exp(mp(e.lower)) / (1 + mpmath.exp(mp(e.lower)))
    assert c.rr_keep_probability.lower - F(1, 10**14) <= F(mpmath.nstr(p, 30)) <= c.rr_keep_probability.upper
    d = c.to_dict(10)
    assert {"eps0", "gaussian_sigma", "laplace_scale", "geometric_alpha", "rr_keep_probability"} <= set(d)


def _paper_mu2(eps, delta):
    return mp(eps) ** 2 / (8 * mpmath.log(mpmath.e + mp(eps) / mp(delta)))


def test_kov_theorem_4_3_fails_for_large_eps():
    """KOV Theorem 4.3 (variance 8 k D^2 log(e + eps/delta)/eps^2 for every eps > 0) fails at
    eps = 100, delta = 1/10: delta_mu(eps) at the paper's mu = eps/sqrt(8 log(e + eps/delta)) is 0.2169 > 0.1."""
    mu = mpmath.sqrt(_paper_mu2(F(100), F(1, 10)))
    assert gdp_delta_mp(mu, 100) > mpmath.mpf("0.2")
    c = calibrate(100, "0.1", 1, digits=8, paper=True)
    t43 = next(p for p in c.paper if p.statement.endswith("4.3"))
    assert t43.meets is False and t43.ratio.upper < 1
    # the corrected variance max(8 k D^2 L / eps^2, k D^2 / eps) meets it (mu^2 = min(eps^2/(8L), eps))
    mu2 = min(_paper_mu2(F(100), F(1, 10)), mpmath.mpf(100))
    assert gdp_delta_mp(mpmath.sqrt(mu2), 100) <= mpmath.mpf("0.1")
    corr = next(p for p in c.paper if p.statement.endswith("(corrected)"))
    assert corr.meets is True and corr.ratio.lower > 1


@pytest.mark.slow
def test_corrected_theorem_4_3_on_a_grid():
    """The corrected Gaussian variance meets the budget over eps in [1e-3, 1e6], delta in [1e-300, 1)
    (mpmath at 50 digits; the original fails from eps ~ 91 at delta = 0.1)."""
    fails_orig = 0
    for x in range(-30, 61, 3):
        eps = mpmath.mpf(10) ** (mpmath.mpf(x) / 10)
        for d in ["1e-300", "1e-50", "1e-10", "1e-4", "0.01", "0.1", "0.5", "0.99"]:
            d = mpmath.mpf(d)
            L = mpmath.log(mpmath.e + eps / d)
            assert gdp_delta_mp(mpmath.sqrt(min(eps ** 2 / (8 * L), eps)), eps) <= d
            fails_orig += gdp_delta_mp(mpmath.sqrt(eps ** 2 / (8 * L)), eps) > d
    assert fails_orig > 0


@pytest.mark.parametrize("eps,delta,k", [("0.5", "1e-5", 10), ("0.9", "1e-3", 100), ("0.1", "1e-6", 3)])
def test_kov_section_4_1_in_range_holds(eps, delta, k):
    c = calibrate(eps, delta, k, digits=8, paper=True)
    for p in c.paper:
        assert p.meets is True and p.in_range, p.statement
    # independent: the k-fold composition of the paper's eps0 (rounded up) meets the budget
    e0 = mp(F(eps)) / (2 * mpmath.sqrt(k * mpmath.log(mpmath.e + mp(F(eps)) / mp(F(delta)))))
    assert _kov_delta_mp(F(mpmath.nstr(e0 * (1 + mpmath.mpf(10) ** -20), 30)), F(0), k, F(eps)) <= mp(F(delta))


def test_bad_input():
    with pytest.raises(InvalidArgument, match="sensitivity"):
        calibrate(1, "1e-5", 2, sensitivity=0)
    with pytest.raises(InvalidArgument, match="delta0"):
        calibrate(1, "1e-5", 2, delta0=1)
    with pytest.raises(InvalidArgument, match="k"):
        calibrate(1, "1e-5", 0)
    with pytest.raises(InvalidArgument, match="eps_g"):
        calibrate(-1, "1e-5", 2)
