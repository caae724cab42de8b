"""mu-GDP conversions (exactdp.gdp.conversions) against independent mpmath computations.

Every certified value is checked to contain a reference computed another way, at a higher
precision than the enclosure's width: the defining integral sup_S P(S) - e^eps Q(S) by
quadrature (it checks Dong-Roth-Su Corollary 2.13 itself), the closed form at 60-100
digits for the far tails, the Neyman-Pearson threshold found by bisection on the normal
tail for G_mu, a two-dimensional integral for the composition rule, and the convex
duality between G_mu and delta_mu(eps).
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import mpmath as mp
import pytest
from gdp_reference import delta_closed, delta_integral, delta_product_2d, mpf, root_bisect, tradeoff_np
from hypothesis import example, given
from hypothesis import strategies as st

from exactdp.errors import CostTooHigh, InvalidArgument
from exactdp.gdp import GDP, compose_gdp, gaussian_mu, gdp_delta, gdp_epsilon, gdp_mu, gdp_tradeoff
from exactdp.numbers import Enclosure


def contains(enc: Enclosure, ref: mp.mpf, slack: F = F(0)) -> bool:
    """Is the mpmath value ``ref`` in ``enc`` (widened by ``slack`` relative, for the reference's own error)?"""
    r = F(mp.nstr(ref, mp.mp.dps + 20, strip_zeros=False)) if ref != 0 else F(0)
    pad = abs(r) * slack
    return enc.lower - pad <= r <= enc.upper + pad


def rel_width(enc: Enclosure) -> F:
    return (enc.upper - enc.lower) / max(abs(enc.lower), abs(enc.upper))


MUS = [F(1, 1000), F(1, 10), F(1, 2), F(1), F(2), F(5)]
EPSS = [F(0), F(1, 100), F(1, 2), F(1), F(3), F(10)]


# --------------------------------------------------------------------------
# delta_mu(eps)


@pytest.mark.parametrize("mu", MUS)
@pytest.mark.parametrize("eps", EPSS)
def test_delta_is_the_defining_integral(mu, eps):
    """DRS Corollary 2.13 checked: the closed form (certified) contains sup_S P(S) - e^eps Q(S) by quadrature."""
    if eps / mu - mu / 2 > 12:
        pytest.skip("value below 1e-33: quadrature loses digits there (the closed-form test covers it)")
    enc = gdp_delta(mu, eps, digits=20)
    ref = delta_integral(mu, eps, dps=45)
    assert contains(enc, ref, F(1, 10**35)), (mu, eps, enc, ref)
    assert rel_width(enc) <= F(1, 10**20) / 2


@pytest.mark.parametrize(
    "mu,eps",
    [
        (F(10**6), F(10**6)),
        (F(1, 10**6), F(1, 10**6)),
        (F(1), F(600)),  # delta ~ 1.9e-78049
        (F(100), F(10_000)),
        (F(1, 10**30), F(0)),
        (F(1, 10**30), F(1, 10**31)),
        (F(3, 7), F(22, 7)),
    ],
)
def test_delta_far_ranges_against_closed_form_at_high_precision(mu, eps):
    enc = gdp_delta(mu, eps, digits=25)
    with mp.workdps(120):
        ref = delta_closed(mu, eps, dps=120)
        assert contains(enc, ref, F(1, 10**60))
    assert enc.lower > 0 and rel_width(enc) <= F(1, 10**25) / 2


def test_delta_exp_eps_form():
    """delta at e^eps = 3 equals delta at eps = ln 3 (mpmath's log)."""
    enc = gdp_delta(1, exp_eps=3, digits=30)
    with mp.workdps(60):
        assert contains(enc, delta_closed(1, mp.nstr(mp.log(3), 70), dps=60), F(1, 10**50))
    assert gdp_delta(1, exp_eps=1) == gdp_delta(1, 0)


def test_delta_exact_ends():
    assert gdp_delta(0, 5).exact == 0
    assert gdp_delta([0, 0], 0).exact == 0
    # eps = 0: erf(mu / (2 sqrt 2))
    with mp.workdps(50):
        assert contains(gdp_delta(F(7, 3), 0, digits=30), mp.erf(mpf(F(7, 3)) / (2 * mp.sqrt(2))), F(1, 10**45))


def test_delta_refuses_far_tail_with_the_bound():
    with pytest.raises(CostTooHigh) as ei:
        gdp_delta(1, 1000)
    assert ei.value.parameter == "eps" and "1e-100410" in str(ei.value)
    assert ei.value.alternative == "the upper bound 1e-100410"
    # the bound is true: log10 Phi(-680) < -100410
    with mp.workdps(30):
        assert mp.log10(mp.ncdf(-680)) < -100410


@given(st.fractions(min_value=F(1, 100), max_value=F(10), max_denominator=1000),
       st.fractions(min_value=F(0), max_value=F(20), max_denominator=1000),
       st.fractions(min_value=F(1, 1000), max_value=F(5), max_denominator=1000))
def test_delta_monotone_in_eps_and_mu(mu, eps, h):
    """delta_mu(eps) strictly decreases in eps and increases in mu (certified ends compared)."""
    if eps / mu > 200:
        return
    a, b = gdp_delta(mu, eps, digits=12), gdp_delta(mu, eps + h, digits=12)
    assert b.upper < a.lower
    c = gdp_delta(mu + h, eps, digits=12)
    assert a.upper < c.lower


# --------------------------------------------------------------------------
# the inverses


@pytest.mark.parametrize("mu", [F(1, 100), F(1), F(10), F(10**6)])
@pytest.mark.parametrize("delta", [F(1, 10**300), F(1, 10**5), F(1, 3), F(999999, 10**6)])
def test_epsilon_is_the_inverse(mu, delta):
    enc = gdp_epsilon(mu, delta, digits=20)
    with mp.workdps(80):
        d0 = mp.erf(mpf(mu) / (2 * mp.sqrt(2)))
        if mpf(delta) >= d0:
            assert enc.exact == 0
            return
        # mpmath's own root (bisection on the closed form, 60 digits; the log keeps tiny deltas apart)
        # (the bracket only needs a sign change: the root is unique)
        root = root_bisect(lambda e: mp.log(delta_closed(mu, mp.nstr(e, 70), dps=70)) - mp.log(mpf(delta)),
                           mpf(enc.lower) / 2, mpf(enc.upper) * 2, dps=60)
        assert contains(enc, root, F(1, 10**45)), (enc, root)
    assert rel_width(enc) <= F(1, 10**20) / 2


@pytest.mark.parametrize("eps", [F(0), F(1, 10**6), F(1), F(10**6)])
@pytest.mark.parametrize("delta", [F(1, 10**300), F(1, 10**5), F(999, 1000), 1 - F(1, 10**50)])
def test_mu_is_the_inverse(eps, delta):
    enc = gdp_mu(eps, delta, digits=20)
    assert enc.lower > 0
    dps = 60 if delta < F(1, 2) else 130  # near 1, the root needs the digits of 1 - delta too
    with mp.workdps(dps + 20):
        root = root_bisect(lambda m: mp.log(delta_closed(mp.nstr(m, dps + 10), eps, dps=dps + 10)) - mp.log(mpf(delta)),
                           mpf(enc.lower) / 2, mpf(enc.upper) * 2, dps=dps)
        assert contains(enc, root, F(1, 10**45)), (enc, root)
    assert rel_width(enc) <= F(1, 10**20) / 2


@pytest.mark.parametrize("eps,delta", [(F(10**30), F(1, 10**5)), (F(10**40), F(1, 10**5)), (F(10**40), F(1, 10**300)),
                                       (F(10**25, 3), F(999, 1000))])
def test_mu_at_a_huge_eps_agrees_with_the_root_search(eps, delta, monkeypatch):
    """The closed-form bounds (taken from eps = 2^64 on) against mpmath's bisection on the closed
    form and against the root search they replace (forced by raising the threshold)."""
    enc = gdp_mu(eps, delta, digits=20)
    assert rel_width(enc) <= F(1, 10**20) / 2
    with mp.workdps(80):
        root = root_bisect(lambda m: mp.log(delta_closed(mp.nstr(m, 90), eps, dps=90)) - mp.log(mpf(delta)),
                           mpf(enc.lower) * (1 - mp.mpf("1e-15")), mpf(enc.upper) * (1 + mp.mpf("1e-15")), dps=70)
        assert contains(enc, root, F(1, 10**50)), (enc, root)
    import exactdp.gdp.conversions as conv

    monkeypatch.setattr(conv, "MU_BOUNDS_MIN_EPS", F(10**100))
    searched = gdp_mu(eps, delta, digits=20)
    assert searched.lower <= enc.upper and enc.lower <= searched.upper


def test_mu_at_eps_10_to_4000_is_fast(monkeypatch):
    """Regression: 51 s in the root search (e^eps of 13,000 bits at every step). Now no search runs;
    mu* is sqrt(2 eps) - z to 2000 digits, z = Phi^-1(1 - 1e-5) = 4.26489..."""
    import exactdp.gdp.conversions as conv

    def no_search(*a, **k):
        raise AssertionError("the root search ran")

    monkeypatch.setattr(conv, "_solve", no_search)
    eps = F(10**4000)
    enc = gdp_mu(eps, F(1, 10**5), digits=30)
    assert rel_width(enc) <= F(1, 10**30) / 2
    with mp.workdps(4100):
        z = -mp.sqrt(2) * mp.erfinv(2 * mp.mpf("1e-5") - 1)
        approx = -z + mp.sqrt(z * z + 2 * mp.mpf(10) ** 4000)
        assert contains(enc, approx, F(1, 10**3000))


@pytest.mark.parametrize("mu", [F(10**9), F(12345678901, 7)])
def test_epsilon_for_huge_mu(mu):
    """eps ~ mu^2/2 ~ 5e17: e^eps times a normal tail of 1e-2e17. Regression: Arb's erfc of a
    *ball* that far out loses every digit (the radius is propagated with a crude bound), so
    Phi is evaluated at the ball's exact ends; and a Newton step of 1e640000000 is not taken."""
    enc = gdp_epsilon(mu, F(1, 10**5), digits=12)
    with mp.workdps(60):
        root = root_bisect(lambda e: mp.log(delta_closed(mu, mp.nstr(e, 70), dps=70)) - mp.log(mp.mpf("1e-5")),
                           mpf(enc.lower) * (1 - mp.mpf("1e-9")), mpf(enc.upper) * (1 + mp.mpf("1e-9")), dps=50)
        assert contains(enc, root, F(1, 10**40))
    assert rel_width(enc) <= F(1, 10**12) / 2


def test_inverse_degenerate_ends():
    assert gdp_epsilon(0, F(1, 10)).exact == 0  # mu = 0: 0-GDP is (0, 0)-DP
    assert gdp_epsilon(1, 0).infinite  # delta = 0: no finite eps for mu > 0
    assert gdp_epsilon(1, F(1, 2)).exact == 0  # delta_1(0) = 0.3829... <= 1/2
    assert gdp_mu(1, 0).exact == 0
    assert gdp_mu(exp_eps=1, delta=F(1, 2)) == gdp_mu(0, F(1, 2))


@given(st.fractions(min_value=F(1, 100), max_value=F(20), max_denominator=997),
       st.fractions(min_value=F(0), max_value=F(30), max_denominator=997))
@example(F(3623, 182), F(0))  # delta = 1 - 5e-23: its enclosure's upper end is 1
def test_round_trips_are_consistent(mu, eps):
    """eps -> delta -> eps and (eps, delta) -> mu come back around the start (certified ends)."""
    if eps / mu - mu / 2 > 30:
        return
    d = gdp_delta(mu, eps, digits=15)
    if eps > 0:
        e_hi = gdp_epsilon(mu, d.lower, digits=15)  # a smaller delta needs a larger eps
        e_lo = gdp_epsilon(mu, d.upper, digits=15)
        assert e_lo.lower <= eps <= e_hi.upper
    m_lo = gdp_mu(eps, d.lower, digits=15)
    assert m_lo.lower <= mu
    if d.upper < 1:  # (eps, 1)-DP holds for every mu: no largest mu to come back to
        m_hi = gdp_mu(eps, d.upper, digits=15)
        assert mu <= m_hi.upper


# --------------------------------------------------------------------------
# the trade-off function


@pytest.mark.parametrize("mu", [F(1, 10), F(1), F(5), F(30)])
@pytest.mark.parametrize("alpha", [F(1, 10**12), F(1, 100), F(1, 20), F(1, 2), F(9, 10), 1 - F(1, 10**9)])
def test_tradeoff_is_the_neyman_pearson_error(mu, alpha):
    enc = gdp_tradeoff(mu, alpha, digits=20)
    ref = tradeoff_np(mu, alpha, dps=60)
    assert contains(enc, ref, F(1, 10**40)), (mu, alpha, enc, ref)
    assert rel_width(enc) <= F(1, 10**20) / 2


@pytest.mark.parametrize("mu,alpha", [(F(1), F(1, 20)), (F(1, 2), F(1, 3)), (F(2), F(3, 4)), (F(3), F(1, 1000))])
def test_tradeoff_is_dual_to_the_profile(mu, alpha):
    """G_mu(alpha) = sup over real eps of 1 - delta_mu(eps) - e^eps alpha (f-DP <-> privacy profile).
    The derivative is e^eps (Phi(-eps/mu - mu/2) - alpha): its root is found by bisection, and
    checked to be the maximum."""
    with mp.workdps(50):
        m, a = mpf(mu), mpf(alpha)

        def g(e):
            e = mp.mpf(e)
            return 1 - (mp.ncdf(-e / m + m / 2) - mp.exp(e) * mp.ncdf(-e / m - m / 2)) - mp.exp(e) * a

        e_star = root_bisect(lambda e: mp.ncdf(-e / m - m / 2) - a, -100, 100, dps=50)
        ref = g(e_star)
        assert ref > g(e_star - mp.mpf("0.01")) and ref > g(e_star + mp.mpf("0.01"))
        assert contains(gdp_tradeoff(mu, alpha, digits=20), ref, F(1, 10**35))


def test_tradeoff_exact_points_and_refusal():
    assert gdp_tradeoff(3, 0).exact == 1 and gdp_tradeoff(3, 1).exact == 0
    assert gdp_tradeoff(0, F(2, 7)).exact == F(5, 7)  # mu = 0: the identity trade-off 1 - alpha
    with pytest.raises(CostTooHigh):
        gdp_tradeoff(1000, F(1, 2))


@given(st.fractions(min_value=F(1, 100), max_value=F(8), max_denominator=500),
       st.fractions(min_value=F(1, 1000), max_value=F(999, 1000), max_denominator=1000))
def test_tradeoff_below_identity_and_symmetric(mu, alpha):
    """G_mu(alpha) < 1 - alpha, and G_mu is symmetric: G_mu(G_mu(alpha)) = alpha (DRS Prop. 2.5)."""
    g = gdp_tradeoff(mu, alpha, digits=25)
    assert g.upper < 1 - alpha
    # G(G(alpha)) for the two ends brackets alpha (G is decreasing)
    assert gdp_tradeoff(mu, g.lower, digits=25).upper >= alpha >= gdp_tradeoff(mu, g.upper, digits=25).lower


# --------------------------------------------------------------------------
# composition and the Gaussian mechanism


@pytest.mark.parametrize("a,b,eps", [(F(3, 10), F(4, 10), F(1, 2)), (F(1), F(1), F(1)), (F(1, 2), F(2), F(3))])
def test_composition_is_the_product_integral(a, b, eps):
    """Two Gaussian mechanisms, N((a, b), I) against N(0, I): their exact delta (a 2-d integral)
    equals delta of mu = sqrt(a^2 + b^2) (DRS Corollary 3.3)."""
    enc = gdp_delta([a, b], eps, digits=15)
    ref = delta_product_2d(a, b, eps, dps=30)
    assert contains(enc, ref, F(1, 10**20)), (enc, ref)


def test_gaussian_mechanism_mu_is_sensitivity_over_sigma():
    """N(Delta, sigma^2) against N(0, sigma^2): the integral of (p - e^eps q)_+ on the raw scale."""
    sens, sigma, eps = F(3), F(2), F(1, 2)
    mu = gaussian_mu(sigma, sens)
    assert mu == F(3, 2)
    with mp.workdps(40):
        s, d, e = mpf(sigma), mpf(sens), mpf(eps)
        k = sigma * (eps / mu + mu / 2)  # the raw-scale threshold
        ref = mp.quad(lambda x: mp.npdf(x, d, s) - mp.exp(e) * mp.npdf(x, 0, s), [mpf(k), mp.inf])
        assert contains(gdp_delta(mu, eps, digits=25), ref, F(1, 10**30))


def test_gdp_values_are_exact():
    g = compose_gdp([F(3, 10), F(4, 10)])
    assert g.mu_sq == F(1, 4) and g.mu.exact == F(1, 2)
    assert GDP(F(1, 10), k=100).mu_sq == 1  # 100 copies of 0.1
    assert GDP(0.1).mu_sq == F(0.1) ** 2  # a float is taken exactly
    assert GDP(1).compose(1, GDP(mu_sq=2)) == GDP(2)
    assert GDP.gaussian(sigma="0.5", sensitivity=1) == GDP(2)
    with mp.workdps(50):
        assert contains(GDP(1, k=2).mu, mp.sqrt(2), F(1, 10**45))
    assert GDP([1, 1]).to_dict(10) == {"mu_sq": "2", "mu": {"exact": None, "lower": "1.414213562", "upper": "1.414213563"}}
    assert hash(GDP(2)) == hash(GDP(mu_sq=4)) and repr(GDP(mu_sq=2)) == "GDP(mu_sq=2)"


@pytest.mark.parametrize(
    "call,param",
    [
        (lambda: gdp_delta(-1, 1), "mu"),
        (lambda: gdp_delta(float("nan"), 1), "mu"),
        (lambda: gdp_delta(float("inf"), 1), "mu"),
        (lambda: gdp_delta([1, -2], 1), "mu[1]"),
        (lambda: gdp_delta([], 1), "mu"),
        (lambda: gdp_delta(True, 1), "mu"),
        (lambda: gdp_delta(1, -1), "eps"),
        (lambda: gdp_delta(1, exp_eps=F(1, 2)), "exp_eps"),
        (lambda: gdp_delta(1, 1, exp_eps=2), "eps / exp_eps"),
        (lambda: gdp_delta(1), "eps / exp_eps"),
        (lambda: gdp_delta(1, 1, digits=0), "digits"),
        (lambda: gdp_delta(1, 1, digits=10**6), "digits"),
        (lambda: gdp_epsilon(1, 1), "delta"),
        (lambda: gdp_epsilon(1, "-0.1"), "delta"),
        (lambda: gdp_epsilon(1, "abc"), "delta"),
        (lambda: gdp_mu(1, F(3, 2)), "delta"),
        (lambda: gdp_mu(1), "delta"),
        (lambda: gdp_tradeoff(1, F(3, 2)), "alpha"),
        (lambda: gdp_tradeoff(1, -1), "alpha"),
        (lambda: gaussian_mu(0), "sigma"),
        (lambda: gaussian_mu(1, -1), "sensitivity"),
        (lambda: GDP(), "mu / mu_sq"),
        (lambda: GDP(1, mu_sq=1), "mu / mu_sq"),
        (lambda: GDP(mu_sq=-1), "mu_sq"),
        (lambda: GDP(1, k=0), "k"),
    ],
)
def test_bad_input_names_the_parameter(call, param):
    with pytest.raises(InvalidArgument) as ei:
        call()
    assert ei.value.parameter == param, str(ei.value)


def test_enclosures_have_the_digits_asked():
    for digits in (1, 5, 50, 300):
        for enc in (gdp_delta(F(7, 5), F(9, 4), digits=digits), gdp_epsilon(F(7, 5), F(1, 10**6), digits=digits),
                    gdp_mu(F(9, 4), F(1, 10**6), digits=digits), gdp_tradeoff(F(7, 5), F(1, 7), digits=digits)):
            assert enc.accurate(digits) and enc.lower > 0
            assert math.isfinite(float(enc.lower))
