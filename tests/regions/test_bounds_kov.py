"""Composition bounds (exactdp.bounds): never below the exact optimum, and the formulas as printed.

* Property: on random homogeneous and heterogeneous compositions (rational eps and rational
  e^eps, with and without delta), every bound that applies is certified >= OptComp
  (``bound.lower >= optimum.upper``; equality only when both are exact and equal).
* The same on extreme instances (eps up to 10, k up to 2000, delta_tilde near 1 and near
  1e-100): the whole stated range, not only the comfortable middle.
* Each formula against mpmath at 50 digits, written out here from the papers.
* The hypotheses: each bound says why it does not apply.

References: Murtagh-Vadhan Theorems 1.2, 1.3, 1.5; Kairouz-Oh-Viswanath Theorems 3.1, 3.4, 3.5.
"""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st
from regions_reference import mp

from exactdp import Mechanism, mechanisms
from exactdp.bounds import advanced_bound, basic_bound, composition_bounds, kov34_bound, kov35_bound
from exactdp.errors import InvalidArgument


@pytest.fixture(autouse=True)
def _mp_precision():
    """mpmath at 50 digits for every test here (its precision is global: set per test, not at import)."""
    with mpmath.workdps(50):
        yield


eps_st = st.sampled_from([F(1, 100), F(1, 20), F(1, 10), F(1, 4), F(1, 2), F(1), F(2), F(3)])
delta_st = st.sampled_from([F(0), F(0), F(1, 10**6), F(1, 1000), F(1, 50)])
dtilde_st = st.sampled_from([F(1, 10**9), F(1, 10**6), F(1, 1000), F(1, 20), F(1, 2), F(9, 10), F(999, 1000)])


def assert_not_below(comp, dg):
    """Every applicable bound is >= OptComp(dg), decided rigorously: separated enclosures, at
    rising digits (a bound can sit within 1e-100 of the optimum, e.g. sum eps at a tiny
    delta_tilde), or equal exact values."""
    pending = None
    for digits in (20, 60, 160, 400):
        r = composition_bounds(comp, dg, digits=digits)
        o = r.optimal
        pending = []
        for name, b in r.bounds.items():
            if name == "optimal" or b.value is None:
                continue
            assert not o.infinite, name
            if b.value.exact is not None and o.exact is not None and b.value.exact == o.exact:
                continue
            assert b.value.upper >= o.lower, (name, b.value, o.value)  # never certainly below
            if not b.value.lower >= o.upper:
                pending.append((name, b.value, o.value))
        if not pending:
            return
    raise AssertionError(f"undecided at 400 digits: {pending}")


def _dg(comp, dt):
    return 1 - (1 - dt) * comp.delta_product


@given(eps_st, delta_st, st.integers(1, 40), dtilde_st)
def test_homogeneous_bounds_never_below_optimum(eps, delta, k, dt):
    comp = mechanisms(eps=eps, delta=delta, k=k)
    dg = _dg(comp, dt)
    if dg >= 1:
        return
    assert_not_below(comp, dg)


@given(st.lists(st.tuples(eps_st, delta_st), min_size=1, max_size=5), dtilde_st)
def test_heterogeneous_bounds_never_below_optimum(pairs, dt):
    comp = mechanisms(eps=[e for e, _ in pairs], delta=[d for _, d in pairs])
    dg = _dg(comp, dt)
    if dg >= 1:
        return
    assert_not_below(comp, dg)


@given(st.lists(st.fractions(F(21, 20), F(5), max_denominator=20), min_size=1, max_size=4), dtilde_st)
def test_exp_eps_bounds_never_below_optimum(ws, dt):
    comp = mechanisms(exp_eps=ws, k=2)
    dg = _dg(comp, dt)
    if dg >= 1:
        return
    assert_not_below(comp, dg)


@pytest.mark.slow
@pytest.mark.parametrize("eps,delta,k,dt", [
    ("10", "0", 3, F(1, 10**100)), ("5", "1e-3", 20, F(1, 2)), ("0.001", "0", 2000, F(1, 10**12)),
    ("0.01", "1e-6", 1000, F(1, 10**6)), ("1", "0", 200, F(999, 1000)), ("0.5", "0.01", 50, F(99, 100)),
    ("3", "0", 1, F(1, 10**30)),
])
def test_extreme_instances_never_below_optimum(eps, delta, k, dt):
    comp = mechanisms(eps=eps, delta=delta, k=k)
    assert_not_below(comp, _dg(comp, dt))


def test_extreme_heterogeneous():
    comp = mechanisms(eps=["0.001", "2", "0.5", "0.01"], delta=["0", "1e-4", "0", "0"], k=3)
    for dt in [F(1, 10**40), F(1, 10**3), F(99, 100)]:
        assert_not_below(comp, _dg(comp, dt))


# --------------------------------------------------------------------------
# the formulas, against mpmath


def _contains(enc, v):
    return enc.lower - F(1, 10**40) <= F(mpmath.nstr(v, 48)) <= enc.upper + F(1, 10**40)


@pytest.mark.parametrize("eps,k,dp", [(F(1, 10), 30, F(1, 50)), (F(2), 3, F(1, 10**6)), (F(1, 1000), 1000, F(1, 10**9))])
def test_advanced_formula(eps, k, dp):
    e = mp(eps)
    v = mpmath.sqrt(2 * k * mpmath.log(1 / mp(dp))) * e + k * e * (mpmath.exp(e) - 1)
    assert _contains(advanced_bound(mechanisms(eps=eps, k=k), dp, digits=35).value, v)


@pytest.mark.parametrize("eps,d,k,dt", [(F(1, 10), F(1, 1000), 30, F(1, 20)), (F(1), F(0), 10, F(1, 10**8)), (F(3), F(0), 4, F(1, 2))])
def test_kov34_formula(eps, d, k, dt):
    comp = mechanisms(eps=eps, delta=d, k=k)
    e, dtm = mp(eps), mp(dt)
    a = k * e * (mpmath.exp(e) - 1) / (mpmath.exp(e) + 1)
    v = min(k * e, a + e * mpmath.sqrt(2 * k * mpmath.log(mpmath.e + mpmath.sqrt(k * e ** 2) / dtm)),
            a + e * mpmath.sqrt(2 * k * mpmath.log(1 / dtm)))
    assert _contains(kov34_bound(comp, _dg(comp, dt), digits=35).value, v)


def test_kov35_formula():
    eps = [F(1, 10), F(1, 2), F(2)]
    ds = [F(1, 1000), F(0), F(1, 100)]
    comp = mechanisms(eps=eps, delta=ds)
    dt = F(1, 1000)
    es = [mp(x) for x in eps]
    a = sum((mpmath.exp(x) - 1) * x / (mpmath.exp(x) + 1) for x in es)
    s2 = sum(x ** 2 for x in es)
    v = min(sum(es), a + mpmath.sqrt(2 * s2 * mpmath.log(mpmath.e + mpmath.sqrt(s2) / mp(dt))),
            a + mpmath.sqrt(2 * s2 * mpmath.log(1 / mp(dt))))
    assert _contains(kov35_bound(comp, _dg(comp, dt), digits=35).value, v)


def test_basic_is_exact_sum():
    comp = mechanisms(eps=["0.1", "0.25"], delta=["1e-3", "2e-3"], k=3)
    assert basic_bound(comp, "0.009").value.exact == F(21, 20)
    comp2 = mechanisms(exp_eps=[2, 3])
    v = basic_bound(comp2, 0, digits=30).value
    assert _contains(v, mpmath.log(6))


def test_hypotheses_say_why():
    het = mechanisms(eps=["0.1", "0.2"], delta="1e-3")
    assert "heterogeneous" in advanced_bound(het, "0.01").reason
    assert "Theorem 3.5" in kov34_bound(het, "0.01").reason
    hom = mechanisms(eps="0.1", delta="1e-3", k=10)
    assert "not > 0" in advanced_bound(hom, "0.01").reason          # delta' = 0.01 - 0.01
    assert "(0, 1]" in kov34_bound(hom, "0.001").reason             # delta_tilde < 0
    assert "below" in basic_bound(hom, "0.005").reason
    r = composition_bounds(hom, "0.005")
    assert r.optimal.infinite and r.bounds["optimal"].value is None
    d = r.to_dict(10)
    assert d["bounds"]["advanced"] == {"applies": False, "reason": r.bounds["advanced"].reason,
                                       "statement": r.bounds["advanced"].statement}


def test_zero_eps():
    r = composition_bounds([Mechanism(eps=0, delta="0.1")] * 3, "0.5")
    for name in ("advanced", "kov_3_4", "kov_3_5"):
        assert r.bounds[name].value.exact == 0


def test_bad_input():
    with pytest.raises(InvalidArgument, match="delta_g"):
        composition_bounds(mechanisms(eps="0.1", k=2), "1")
    with pytest.raises(InvalidArgument, match="delta_g"):
        composition_bounds(mechanisms(eps="0.1", k=2), "nan")
