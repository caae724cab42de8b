"""The GDP filter (exactdp.gdp.filter): exact ledger, refusals that spend nothing, noise at
least as large as charged, and Smith-Thakurta Theorem 1 seen statistically: against an
adaptive analyst that exhausts the budget on every path, the privacy loss of the whole
transcript is exactly that of one mu_0-Gaussian, N(+-mu_0^2/2, mu_0^2) (a KS test, with a
mutant that over-spends rejected by the same test)."""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest
from scipy import stats

from exactdp.errors import InvalidArgument
from exactdp.gdp import GDP, BudgetExceeded, GDPFilter, gdp_epsilon, gdp_mu
from exactdp.numbers import Enclosure


def test_ledger_is_exact_and_refusals_spend_nothing():
    f = GDPFilter(1, data=list(range(10)), seed=0)
    f.gaussian(lambda d: sum(d), sensitivity=9, mu=F(1, 3), label="q1")
    f.charge(mu=F(1, 3), label="q2")
    assert f.spent == F(2, 9) and f.remaining == F(7, 9)
    calls = []
    with pytest.raises(BudgetExceeded) as ei:
        f.gaussian(lambda d: calls.append(1) or 0.0, sensitivity=1, mu=F(9, 10), label="too big")
    assert calls == []  # a refused query is not evaluated
    assert ei.value.requested == F(81, 100) and ei.value.remaining == F(7, 9)
    assert "nothing was spent" in str(ei.value)
    assert f.spent == F(2, 9)  # nothing spent
    # filling the budget exactly (sum = mu_0^2) is allowed, then nothing more
    assert f.can_afford(mu_sq=F(7, 9)) and not f.can_afford(mu_sq=F(7, 9) + F(1, 10**30))
    f.gaussian(3.0, sensitivity=1, mu_sq=f.remaining, label="the rest")
    assert f.spent == 1 and f.remaining == 0 and f.remaining_mu().exact == 0
    with pytest.raises(BudgetExceeded):
        f.charge(mu=F(1, 10**100))
    log = f.log
    assert [e.accepted for e in log] == [True, True, False, True, False]
    assert [e.index for e in log] == [1, 2, 3, 4, 5]
    assert [e.spent for e in log] == [F(1, 9), F(2, 9), F(2, 9), F(1), F(1)]
    assert sum(e.mu_sq for e in log if e.accepted) == f.spent  # the log adds up, exactly
    assert log[1].sigma is None and log[0].sigma is not None
    d = f.to_dict()
    assert d["spent"] == "1" and d["log"][2]["accepted"] is False and d["log"][0]["mu_sq"] == "1/9"


def test_floats_are_taken_exactly():
    f = GDPFilter(0.5)
    assert f.budget == F(0.5) ** 2
    f.charge(mu=0.1)
    assert f.spent == F(0.1) ** 2 != F(1, 100)


def test_sigma_form_charges_sensitivity_over_sigma_squared():
    f = GDPFilter(2, seed=1)
    f.gaussian(0.0, sensitivity=3, sigma=F(7, 2))
    assert f.spent == F(9) / F(49, 4)
    s = f.log[0].sigma
    assert F(s) >= F(7, 2)  # a double never below sigma (here 3.5 exactly)
    # histogram-style sensitivity sqrt(2), given squared
    f.gaussian([1.0, 2.0, 3.0], sensitivity_sq=2, sigma=1)
    assert f.spent == F(36, 49) + 2


@pytest.mark.parametrize("sens,mu", [(1, F(1, 3)), (F(3, 7), F(1, 10)), (5, F(22, 7)), ("1e-8", F(1, 10**6))])
def test_noise_sigma_is_the_least_double_not_below_sensitivity_over_mu(sens, mu):
    f = GDPFilter(10**9, seed=2)
    f.gaussian(0.0, sensitivity=sens, mu=mu)
    s = f.log[0].sigma
    target = (F(sens) / mu) ** 2
    assert F(s) ** 2 >= target  # the mechanism run is at most mu-GDP
    assert F(math.nextafter(s, 0.0)) ** 2 < target  # and no more noise than that


def test_enclosures_are_charged_on_the_safe_side():
    mu = gdp_mu(1, F(1, 10**5), digits=20)  # an irrational mu, known as an enclosure
    f = GDPFilter(GDP(1), seed=3)
    f.gaussian(0.0, sensitivity=1, mu=mu, label="calibrated to (1, 1e-5)")
    e = f.log[0]
    assert e.charge == "upper bound" and e.mu_sq == mu.upper ** 2
    assert F(e.sigma) ** 2 >= 1 / mu.upper ** 2
    # a budget known as an enclosure is taken at its lower end
    g = GDPFilter(mu)
    assert g.budget == mu.lower ** 2 and not g.can_afford(mu=mu)  # upper^2 > lower^2
    h = GDPFilter.for_target(1, F(1, 10**5))
    assert h.budget == gdp_mu(1, F(1, 10**5), digits=30).lower ** 2
    assert h.delta(1, digits=45).upper <= F(1, 10**5)  # the target holds (by ~1e-30: 45 digits decide it)
    assert GDPFilter(Enclosure.point(F(1, 2))).budget == F(1, 4)


def test_guarantee_and_report():
    f = GDPFilter(F(1, 2), data=None, seed=4)
    f.gaussian(1.0, sensitivity=1, mu=F(3, 10), label="first")
    with pytest.raises(BudgetExceeded):
        f.gaussian(1.0, sensitivity=1, mu=F(1, 2), label="second")
    assert f.guarantee() == GDP(F(1, 2))
    assert f.epsilon(F(1, 10**6), digits=12) == gdp_epsilon(F(1, 2), F(1, 10**6), digits=12)
    txt = f.report(delta="1e-6", eps=1, digits=6)
    assert "REFUSED (nothing spent)" in txt and "spent sum mu_i^2 = 9/100" in txt and "left 4/25" in txt
    assert "certified: mu_0-GDP => (eps, 1e-6)-DP with eps = [" in txt
    assert repr(f) == "GDPFilter(budget mu_0^2=1/4, spent=9/100, queries=1 answered / 2 asked)"


def test_vector_queries_and_noise_scale():
    """Answers are value + N(0, s^2): a KS test of the standardized noise against N(0, 1)."""
    f = GDPFilter(10**6, seed=5)
    vals = np.linspace(-3, 3, 20000)
    noisy = f.gaussian(vals, sensitivity=2, mu=F(1, 2))
    assert noisy.shape == vals.shape
    z = (noisy - vals) / f.log[0].sigma
    assert stats.kstest(z, "norm").pvalue > 1e-3


@pytest.mark.parametrize(
    "kwargs,param",
    [
        (dict(sensitivity=1), "mu / mu_sq / sigma"),
        (dict(sensitivity=1, mu=1, sigma=1), "mu / mu_sq / sigma"),
        (dict(mu=1), "sensitivity"),
        (dict(sensitivity=1, sensitivity_sq=1, mu=1), "sensitivity / sensitivity_sq"),
        (dict(sensitivity=-1, mu=1), "sensitivity"),
        (dict(sensitivity=1, mu=0), "mu"),
        (dict(sensitivity=1, mu=float("nan")), "mu"),
        (dict(sensitivity=1, sigma=0), "sigma"),
        (dict(sensitivity=1, mu_sq=-1), "mu_sq"),
        (dict(sensitivity=1, mu=F(1, 10**400)), "mu"),
        (dict(sensitivity=1, sigma=F(10**400)), "sigma"),
    ],
)
def test_bad_query_parameters(kwargs, param):
    f = GDPFilter(1)
    with pytest.raises(InvalidArgument) as ei:
        f.gaussian(0.0, **kwargs)
    assert ei.value.parameter == param
    assert f.spent == 0 and f.log == ()


def test_bad_budget_and_values():
    for bad in (-1, float("inf"), "x", Enclosure(-1, 1)):
        with pytest.raises(InvalidArgument):
            GDPFilter(bad)
    f = GDPFilter(1)
    with pytest.raises(InvalidArgument):
        f.gaussian(float("nan"), sensitivity=1, mu=F(1, 2))
    with pytest.raises(InvalidArgument):
        f.gaussian(lambda d: "text", sensitivity=1, mu=F(1, 2))
    assert f.spent == 0 and f.log == ()  # a failed query spends nothing


# --------------------------------------------------------------------------
# Theorem 1, statistically


def _run_adaptive(b: int, n: int, seed: int, enforce: bool):
    """n independent interactions of an adaptive analyst with a filter of budget mu_0 = 1 over
    neighbouring data (query value 0 for b = 0, 1 for b = 1; sensitivity 1).

    The analyst asks mu_1^2 = 9/25; then mu_2^2 = 16/25 if the first answer is above 1/2
    (budget exhausted), else mu_2^2 = 1/4 and then the rest, mu_3^2 = f.remaining (39/100,
    an irrational mu_3). Returns the privacy loss log p_1/p_0 of each transcript,
    sum_i m_i a_i / s_i - m_i^2 / 2 with m_i = 1/s_i the mechanism actually run. With
    ``enforce=False`` (no filter) the second branch over-spends: 16/25 then 9/25."""
    rng = np.random.default_rng(seed)
    losses = np.empty(n)
    for k in range(n):
        f = GDPFilter(1, data=b, rng=rng)
        plan = [F(9, 25)]
        loss = 0.0
        i = 0
        while i < len(plan):
            if enforce:
                a = f.gaussian(lambda d: float(d), sensitivity=1, mu_sq=plan[i] if plan[i] is not None else f.remaining)
                s = f.log[-1].sigma
            else:
                s = 1 / math.sqrt(plan[i])
                a = b + s * rng.standard_normal()
            m = 1 / s
            loss += m * a / s - m * m / 2
            if i == 0:
                plan += [F(16, 25)] if a > 0.5 else ([F(1, 4), None] if enforce else [F(16, 25), F(9, 25)])
            i += 1
        losses[k] = loss
    return losses


def test_theorem_1_privacy_loss_is_that_of_one_gaussian():
    """With the filter, every path spends exactly mu_0^2 = 1 and the privacy loss of the whole
    adaptive transcript is N(-1/2, 1) under b = 0 and N(1/2, 1) under b = 1 (one 1-Gaussian):
    KS p-values above 1e-3 with n = 3000 per side. The over-spending mutant (no filter) is
    rejected by the same test (its loss has variance 1.25 on half the paths)."""
    n = 3000
    l0 = _run_adaptive(0, n, seed=11, enforce=True)
    l1 = _run_adaptive(1, n, seed=12, enforce=True)
    assert stats.kstest(l0, "norm", args=(-0.5, 1.0)).pvalue > 1e-3
    assert stats.kstest(l1, "norm", args=(0.5, 1.0)).pvalue > 1e-3
    m0 = _run_adaptive(0, n, seed=11, enforce=False)
    assert stats.kstest(m0, "norm", args=(-0.5, 1.0)).pvalue < 1e-3
