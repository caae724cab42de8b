"""The certified accountant against independent references (tests/accounting/dp_reference.py:
closed forms and mpmath quadrature written from the mathematics), against exactdp's exact
OptComp kernels on (eps, delta) and randomized-response compositions, and for the properties
every enclosure must have (containment, monotonicity, nesting across refinements)."""

from __future__ import annotations

import random
import sys
from fractions import Fraction as F
from pathlib import Path

import mpmath as mp
import pytest

from exactdp import (
    Accountant,
    Gaussian,
    Laplace,
    Mechanism,
    PoissonSampled,
    RandomizedResponse,
    composed_delta,
    mechanisms,
    optcomp,
)
from exactdp.errors import CostTooHigh, InvalidArgument
from exactdp.noise_events import Composed

sys.path.insert(0, str(Path(__file__).parent))
import dp_reference as R  # noqa: E402


@R.at50
def contains(enc, value) -> bool:
    v = mp.mpf(value)
    return mp.mpf(enc.lower.numerator) / enc.lower.denominator <= v <= mp.mpf(enc.upper.numerator) / enc.upper.denominator


# -- Gaussian without sampling: mu-GDP in closed form ---------------------------------------------

@pytest.mark.parametrize("sigma,k,delta", [(2, 3, "1e-5"), (1, 1, "1e-3"), (5, 100, "1e-6"), (F(1, 2), 2, "1e-10")])
def test_gaussian_epsilon_contains_gdp(sigma, k, delta):
    mu = mp.sqrt(k) / mp.mpf(F(sigma).numerator) * F(sigma).denominator
    true = R.invert(lambda e: R.gdp_delta(mu, e), mp.mpf(F(delta).numerator) / F(delta).denominator if "/" in str(delta) else mp.mpf(delta))
    e = Accountant().compose(Gaussian(sigma), k).epsilon(delta, digits=4)
    assert contains(e, true), (e, true)
    assert e.accurate(4)


@pytest.mark.parametrize("relation", ["add_remove", "remove", "add", "replace_one"])
@R.at50
def test_gaussian_delta_contains_gdp_every_relation(relation):
    e = Accountant(relation).compose(Gaussian(F(3, 2)), 4).delta("1", digits=5)
    # mu = sqrt(4) Delta / 1.5, with Delta doubled under replace-one (sensitivity bounds one record)
    true = R.gdp_delta(mp.mpf(4) / 3 * (2 if relation == "replace_one" else 1), 1)
    assert contains(e, true)
    assert e.accurate(5)


def test_tiny_delta_gaussian():
    """delta = 1e-15 and 1e-20, where float accountants fail."""
    for d in ("1e-15", "1e-20"):
        e = Accountant().compose(Gaussian(2), 10).epsilon(d, digits=5)
        true = R.invert(lambda x: R.gdp_delta(mp.sqrt(10) / 2, x), mp.mpf(d))
        assert contains(e, true)


def test_gaussian_sensitivity_scales():
    """Gaussian(s, Delta) has the law of Gaussian(s / Delta)."""
    a = Accountant().compose(Gaussian(4, sensitivity=2), 3).epsilon("1e-5", digits=5)
    b = Accountant().compose(Gaussian(2), 3).epsilon("1e-5", digits=5)
    assert a.lower <= b.upper and b.lower <= a.upper


# -- Poisson-subsampled Gaussian: closed form (one step) and quadrature (two steps) ---------------

@pytest.mark.parametrize("direction", ["remove", "add"])
@pytest.mark.parametrize("k", [1, 2])
def test_subsampled_gaussian_delta_contains_quadrature(direction, k):
    sigma, q, eps = 1, F(1, 10), F(1, 20)
    true = R.sub_delta(eps, sigma, q, k, direction)
    e = Accountant(direction).compose(PoissonSampled(Gaussian(sigma), q), k).delta(eps, digits=4)
    assert contains(e, true), (e, true)
    assert e.accurate(4) or e.upper - e.lower < F(1, 10**20)


@pytest.mark.parametrize("direction", ["remove", "add"])
def test_coarsest_bins_stay_valid(monkeypatch, direction):
    """Every block at the largest stride (coarse connect-the-dots bins and coarse lower bins
    everywhere): the enclosure is wider but still holds the quadrature and the closed form,
    and it contains the enclosure on the adaptive point set (a coarser split dominates)."""
    import exactdp.accounting.lattice as lat

    sigma, q, eps = 1, F(1, 10), F(1, 20)
    h = F(1, 2048)
    adaptive = Accountant(direction).compose(PoissonSampled(Gaussian(sigma), q), 2).query("delta", eps, h=h).value
    monkeypatch.setattr(lat, "COARSE_SHARE", 1e12)
    from exactdp.accounting.laws import law_of

    law = law_of(PoissonSampled(Gaussian(sigma), q), direction)
    pts = lat.points(law, h, 0, 20 * lat.BLOCK)
    assert {b - a for a, b in zip(pts, pts[1:])} == {lat.BLOCK}
    # Lemma 7 keeps Q's mass: q_lo + q_hi = Q(B) on every coarse bin, so the upper PLD's implied
    # Q-mass sum c_n e^{-L_n} is 1 up to the window's tails and the rounding
    ia, ib = lat.window(law, h, 1e-12)
    up, _ = lat.discretise(law, h, 60, ia, ib, 120)
    qmass = sum(float(c) * 2.0**-60 * mp.exp(-(up.off + n) * float(h)) for n, c in enumerate(up.poly.coeffs()))
    assert abs(qmass - 1) < 1e-6, qmass
    coarse = Accountant(direction).compose(PoissonSampled(Gaussian(sigma), q), 2).query("delta", eps, h=h).value
    assert contains(coarse, R.sub_delta(eps, sigma, q, 2, direction))
    assert coarse.lower <= adaptive.lower and adaptive.upper <= coarse.upper
    assert coarse.upper - coarse.lower > 2 * (adaptive.upper - adaptive.lower)
    g = Accountant().compose(Gaussian(2), 3).query("delta", F(1, 2), h=h).value
    assert contains(g, R.gdp_delta(mp.sqrt(3) / 2, F(1, 2)))


def test_add_remove_is_the_larger_direction():
    q, eps = F(1, 5), F(1, 5)
    true = max(R.sub_delta(eps, 1, q, 1, "remove"), R.sub_delta(eps, 1, q, 1, "add"))
    e = Accountant().compose(PoissonSampled(Gaussian(1), q), 1).delta(eps, digits=5)
    assert contains(e, true)


def test_subsampled_tiny_delta_one_step():
    """delta down to 1e-20 for one subsampled step, against the closed form."""
    q, sigma = F(1, 100), F(1, 2)
    for d in ("1e-12", "1e-20"):
        e = Accountant("remove").compose(PoissonSampled(Gaussian(sigma), q), 1).epsilon(d, digits=4)
        true = R.invert(lambda x: R.sub_delta(x, sigma, q, 1, "remove"), mp.mpf(d), hi=100)
        assert contains(e, true), (d, e, true)


def test_sample_rate_one_is_the_gaussian():
    a = Accountant().compose(PoissonSampled(Gaussian(2), 1), 5).epsilon("1e-5", digits=4)
    true = R.invert(lambda x: R.gdp_delta(mp.sqrt(5) / 2, x), mp.mpf("1e-5"))
    assert contains(a, true)


# -- (eps, delta) mechanisms and randomized response: the exact OptComp kernels --------------------

def test_mechanisms_contain_exact_optcomp_random():
    rng = random.Random(7)
    for _ in range(6):
        eps = [F(rng.randint(1, 30), 100) for _ in range(rng.randint(1, 3))]
        k = rng.randint(1, 12)
        dg = F(1, 10 ** rng.randint(2, 6))
        comp = mechanisms(eps=eps, k=k)
        exact = optcomp(comp, dg, digits=30).value
        acc = Accountant().compose(comp)
        e = acc.epsilon(dg, digits=4)
        assert e.lower <= exact.upper and exact.lower <= e.upper, (eps, k, dg, e, exact)


def test_mechanism_delta_contains_exact_with_deltas():
    comp = mechanisms(eps=["0.2", "0.05"], delta=["1e-7", 0], k=20)
    exact = composed_delta(comp, "1", digits=30).value
    e = Accountant().compose(comp).delta("1", digits=6)
    assert e.lower <= exact.upper and exact.lower <= e.upper


def test_randomized_response_is_the_exp_eps_mechanism():
    """Under replace-one, RR(p, 2) is the (ln((2-p)/p), 0) pair; its OptComp with e^eps = (2-p)/p is exact."""
    p = F(1, 3)
    k = 9
    exact = composed_delta(mechanisms(exp_eps=[(2 - p) / p], k=k), "2", digits=30).value
    e = Accountant("replace_one").compose(RandomizedResponse(p), k).delta("2", digits=3)
    assert e.lower <= exact.upper and exact.lower <= e.upper


# -- Laplace: closed form for one step ------------------------------------------------------------

@pytest.mark.parametrize("eps", [F(0), F(1, 4), F(9, 10)])
def test_laplace_one_step(eps):
    e = Accountant().compose(Laplace(1), 1).delta(eps, digits=6)
    assert contains(e, R.laplace_delta(eps, 1))


# -- mixed compositions ------------------------------------------------------------------------

def test_mixed_mechanism_and_gaussian():
    """An (0, d) mechanism composed with Gaussians: delta = 1 - (1 - d)(1 - delta_G(eps))."""
    d = F(1, 1000)
    acc = Accountant().compose(Mechanism(eps=0, delta=d)).compose(Gaussian(2), 3)
    e = acc.delta("1", digits=6)
    true = 1 - (1 - mp.mpf(1) / 1000) * (1 - R.gdp_delta(mp.sqrt(3) / 2, 1))
    assert contains(e, true)


def test_schedule_equals_merged_counts():
    """Phases of the same step in two parts equal one part; a schedule of distinct phases is
    bracketed by its slowest and fastest phases repeated."""
    g = PoissonSampled(Gaussian(1), F(1, 100))
    a = Accountant().compose(g, 30).compose(g, 20).epsilon("1e-5", digits=3)
    b = Accountant().compose(g, 50).epsilon("1e-5", digits=3)
    assert a == b
    sched = Composed([(PoissonSampled(Gaussian(2), F(1, 100)), 25), (PoissonSampled(Gaussian(1), F(1, 50)), 25)])
    mid = Accountant().compose(sched).epsilon("1e-5", digits=3)
    lo = Accountant().compose(PoissonSampled(Gaussian(2), F(1, 100)), 50).epsilon("1e-5", digits=3)
    hi = Accountant().compose(PoissonSampled(Gaussian(1), F(1, 50)), 50).epsilon("1e-5", digits=3)
    assert lo.lower <= mid.upper and mid.lower <= hi.upper


# -- properties --------------------------------------------------------------------------------

def test_refinements_nest_and_shrink():
    """Every lattice gives an enclosure of the same truth: they intersect, and a finer one is narrower."""
    acc = Accountant().compose(PoissonSampled(Gaussian(1), F(1, 50)), 200)
    rs = [acc.query("epsilon", "1e-5", h=F(1, 2**m)).value for m in (8, 9, 10)]
    for a in rs:
        for b in rs:
            assert a.lower <= b.upper
    assert rs[2].upper - rs[2].lower < rs[0].upper - rs[0].lower


def test_monotone_in_sigma_q_steps_delta():
    def eps(sigma=1, q=F(1, 50), k=100, delta="1e-5"):
        return Accountant().compose(PoissonSampled(Gaussian(sigma), q), k).epsilon(delta, digits=3)

    base = eps()
    for other in (eps(sigma=F(3, 2)), eps(q=F(1, 100)), eps(k=50), eps(delta="1e-3")):
        assert other.upper < base.lower  # each change strictly lowers epsilon, and the enclosures separate


def test_epsilon_and_delta_queries_agree():
    """delta(eps_upper) <= delta <= delta(eps_lower), checked on the enclosures of both queries."""
    acc = Accountant().compose(PoissonSampled(Gaussian(F(4, 5)), F(1, 20)), 40)
    e = acc.epsilon("1e-6", digits=4)
    d_hi = acc.delta(e.upper, digits=4)
    d_lo = acc.delta(e.lower, digits=4)
    assert d_hi.lower <= F(1, 10**6) <= d_lo.upper


def test_infinite_epsilon_when_delta_below_the_point_mass():
    acc = Accountant().compose(Mechanism(eps="0.1", delta="1e-6"), 100)
    assert acc.epsilon("1e-5").infinite


# -- API, events, bad input ------------------------------------------------------------------------

def test_api_chains_and_counts():
    acc = Accountant()
    assert acc.compose(Gaussian(1), 10) is acc
    acc.compose(Composed([(Gaussian(1), 5), (PoissonSampled(Gaussian(2), "0.01"), 10**6)]))
    assert acc.steps == 10 + 5 + 10**6
    assert Composed.loads(acc.events.dumps()) == acc.events


@pytest.mark.parametrize("bad", [
    lambda: Gaussian(0), lambda: Gaussian(-1), lambda: Laplace("x"), lambda: PoissonSampled(Gaussian(1), 0),
    lambda: PoissonSampled(Gaussian(1), "1.5"), lambda: RandomizedResponse(0), lambda: Accountant("neighbours"),
    lambda: Accountant().compose(Gaussian(1), 0), lambda: Accountant().compose("gaussian"),
    lambda: Accountant().compose(Gaussian(1)).epsilon(0), lambda: Accountant().compose(Gaussian(1)).epsilon(1),
    lambda: Accountant().compose(Gaussian(1)).delta(-1), lambda: Accountant().compose(Gaussian(1)).delta(1, digits=0),
    lambda: Accountant().epsilon("1e-5"),
])
def test_bad_input_is_invalid_argument(bad):
    with pytest.raises(InvalidArgument):
        bad()


def test_randomized_response_add_remove_one_step():
    """Under add/remove RR(p, m) is compared with a uniform record: remove has losses ln(m(1-p)+p)
    and ln p; one step's delta(eps) = sum of (P - e^eps Q)_+ over the outputs, by hand."""
    p, m, eps = F(1, 4), 3, F(1, 2)
    with mp.workdps(50):  # the enclosure is tight (the lattice is aligned to the atoms): 50 digits
        a, c, u = (R.mpf(x) for x in (1 - p + p / m, p / m, F(1, m)))
        t = mp.e ** R.mpf(eps)
        rem = max(0, a - t * u) + (m - 1) * max(0, c - t * u)
        add = max(0, u - t * a) + (m - 1) * max(0, u - t * c)
    e = Accountant().compose(RandomizedResponse(p, m)).delta(eps, digits=3)
    assert contains(e, max(rem, add))


def test_cost_refused_up_front():
    """A composition whose lattice would explode is refused with the estimate, before the work."""
    acc = Accountant().compose(PoissonSampled(Gaussian(F(1, 100)), F(1, 2)), 10**9)
    with pytest.raises(CostTooHigh) as e:
        acc.epsilon("1e-5")
    assert e.value.estimate > 3_500_000


def test_many_distinct_steps_refused_before_any_discretisation(monkeypatch):
    """Thousands of distinct steps (each discretised on its own) are refused up front, naming
    phases as the faster option; a few hundred are not refused."""
    import exactdp.accounting.accountant as A

    def boom(*a, **k):
        raise AssertionError("discretised before the refusal")

    monkeypatch.setattr(A, "discretise", boom)
    acc = Accountant()
    for i in range(4000):
        acc.compose(PoissonSampled(Gaussian(1 + F(i, 10**4)), F(1, 256)))
    with pytest.raises(CostTooHigh) as e:
        acc.epsilon("1e-5", digits=3)
    assert "phases" in str(e.value) and e.value.estimate > 600
    few = Accountant().compose(PoissonSampled(Gaussian(1), F(1, 256)), 10).compose(PoissonSampled(Gaussian(2), F(1, 256)))
    with pytest.raises(AssertionError, match="discretised before"):
        few.epsilon("1e-5", digits=3)


@R.at50
def test_replace_one_subsampled_gaussian_one_step():
    """Replace-one under Poisson subsampling: the pair ((1-q) N(0) + q N(1), (1-q) N(0) + q N(-1))
    (Accounting Lemma 6), one step in closed form: delta = P(X > x*) - e^eps Q(X > x*), x* = L^-1(eps)."""
    s, q, eps = mp.mpf(1), mp.mpf(1) / 10, mp.mpf(1) / 2
    L = lambda x: mp.log(1 - q + q * mp.e ** ((x - 0.5) / s**2)) - mp.log(1 - q + q * mp.e ** ((-x - 0.5) / s**2))
    xs = mp.findroot(lambda x: L(x) - eps, 0)
    Pb = (1 - q) * (1 - mp.ncdf(xs / s)) + q * (1 - mp.ncdf((xs - 1) / s))
    Qb = (1 - q) * (1 - mp.ncdf(xs / s)) + q * (1 - mp.ncdf((xs + 1) / s))
    true = Pb - mp.e**eps * Qb
    e = Accountant("replace_one").compose(PoissonSampled(Gaussian(1), F(1, 10)), 1).delta(F(1, 2), digits=3)
    assert contains(e, true)
    # the add/remove answer is not a bound here: it lies below the replace-one truth
    ar = Accountant("add_remove").compose(PoissonSampled(Gaussian(1), F(1, 10)), 1).delta(F(1, 2), digits=3)
    assert R.mpf(ar.upper) < true


def test_replace_one_unsampled_gaussian_is_twice_the_sensitivity():
    a = Accountant("replace_one").compose(Gaussian(2), 3).epsilon("1e-5", digits=4)
    true = R.invert(lambda x: R.gdp_delta(2 * mp.sqrt(3) / 2, x), mp.mpf("1e-5"))
    assert contains(a, true)


def test_replace_one_refuses_sampled_laplace():
    with pytest.raises(InvalidArgument):
        Accountant("replace_one").compose(PoissonSampled(Laplace(1), "0.1")).epsilon("1e-5")


# -- Hypothesis: properties over events and relations ---------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_rat = lambda lo, hi: st.fractions(min_value=F(lo), max_value=F(hi), max_denominator=100)  # noqa: E731
_leaves = st.one_of(
    _rat("1/2", 4).map(Gaussian),
    _rat("1/2", 4).map(Laplace),
    st.tuples(_rat("1/2", 3), _rat("1/100", "1/2")).map(lambda t: PoissonSampled(Gaussian(t[0]), t[1])),
    _rat("1/10", 1).map(RandomizedResponse),
)


@settings(max_examples=8, deadline=None)
@given(_leaves, st.integers(1, 20), st.sampled_from(["add_remove", "remove", "add", "replace_one"]), _rat(0, 2))
def test_enclosures_are_ordered_and_monotone_in_steps(leaf, k, relation, eps):
    """Every answer is an ordered enclosure in [0, 1], and one more step never lowers delta: the
    enclosures of k and k + 1 steps can never be separated the wrong way."""
    if relation == "replace_one" and isinstance(leaf, PoissonSampled):
        return  # its own test (one step, closed form); the inversion per point is slow
    a = Accountant(relation).compose(leaf, k).delta(eps, digits=2)
    b = Accountant(relation).compose(leaf, k + 1).delta(eps, digits=2)
    for e in (a, b):
        assert 0 <= e.lower <= e.upper <= 1
    assert not (b.upper < a.lower)


def test_a_step_that_reveals_nothing_has_epsilon_zero():
    """Mechanism(eps=0, delta=0) alone: epsilon 0 is enclosed, to within the absolute floor (the
    refinement once ran the lattice step to 0 chasing a relative width)."""
    e = Accountant().compose(Mechanism(eps=0, delta=0), 5).epsilon("1e-5", digits=4)
    assert e.lower == 0 and 0 <= e.upper <= F(1, 10**10)


@pytest.mark.parametrize("relation", ["add_remove", "replace_one"])
@R.at50
def test_gaussian_lattice_contains_the_closed_form(relation):
    """Unsampled Gaussians are answered in closed form (any digits); the lattice, forced by a
    fixed step, still encloses that answer and the mpmath value; 12 digits in closed form."""
    acc = Accountant(relation).compose(Gaussian(F(3, 2)), 5).compose(Gaussian(4, sensitivity=2), 7)
    closed = acc.epsilon("1e-8", digits=12)
    assert acc.last.points == 0 and closed.accurate(12)
    lat = acc.query("epsilon", "1e-8", h=F(1, 4096)).value
    assert lat.lower <= closed.lower and closed.upper <= lat.upper
    scale = 2 if relation == "replace_one" else 1
    mu = mp.sqrt(5 * (mp.mpf(2) / 3) ** 2 + 7 * (mp.mpf(2) / 4) ** 2) * scale
    assert contains(closed, R.invert(lambda e: R.gdp_delta(mu, e), mp.mpf("1e-8")))


@R.at50
def test_gaussian_closed_form_huge_composition():
    """10^6 Gaussian steps at delta 1e-20 and 12 digits (the lattice refused it), and delta(eps)."""
    e = Accountant().compose(Gaussian(4), 10**6).epsilon("1e-20", digits=12)
    true = R.invert(lambda x: R.gdp_delta(mp.mpf(250), x), mp.mpf("1e-20"), hi=10**5)
    assert contains(e, true) and e.accurate(12)
    d = Accountant().compose(Gaussian(2), 10).delta("1", digits=10)
    assert contains(d, R.gdp_delta(mp.sqrt(10) / 2, 1)) and d.accurate(10)


@pytest.mark.parametrize("sigma,q", [(F(1), F(1, 100)), (F(1, 2), F(1, 256)), (F(4), F(1, 25)), (F(1, 5), F(1, 2))])
def test_replace_one_inverse_loss_in_closed_form_brackets_the_loss(sigma, q):
    """The replace-one loss's inverse (a quadratic in e^{x / t^2}) against the forward loss: at 400
    bits, L(x_lo) <= l <= L(x_hi) for the bracket computed at 120 bits, and the float inverse
    reproduces l through the float loss."""
    from exactdp._backend import arb, workprec
    from exactdp.accounting.laws import ReplaceSampledGaussianLaw

    law = ReplaceSampledGaussianLaw(sigma, F(1), q)
    for l in [F(1, 10**6), F(-3, 10**4), F(1, 2), F(-2), F(7), F(30)]:
        assert abs(law._loss_f(law._xstar_f(float(l))) - float(l)) <= 1e-12 * max(1, abs(float(l)))
        with workprec(120):
            lo, hi = law._xstar(l)
        assert float((hi - lo).mid()) <= 1e-30 * max(1.0, abs(float(lo.mid())))
        with workprec(400):
            lb = arb(l.numerator) / l.denominator
            assert law._loss(lo) <= lb <= law._loss(hi)


def test_add_direction_lower_bound_does_not_depend_on_where_the_lattice_falls_under_its_top():
    """The add direction's loss tends to -ln(1 - q) from below with no mass above it: bins walked
    upwards ended under that top with nothing to merge with and fell a whole step (the width went
    from 6e-3 to 7e-2 as the lattice slid under the top). Walked down, the width stays second
    order wherever the lattice falls, and every enclosure is valid (they all overlap)."""
    q = F(1, 256)
    with mp.workdps(40):
        s = -mp.log(1 - mp.mpf(1) / 256)
        steps = [F(int(mp.floor(s / (10 + f) * 2**70)), 2**70) for f in (mp.mpf("0.01"), mp.mpf("0.5"), mp.mpf("0.8"))]
    encs = []
    for h in steps:
        r = Accountant("add").compose(PoissonSampled(Gaussian(1), q), 1000).query("epsilon", F(1, 10**5), 3, h=h)
        encs.append(r.value)
        assert (r.value.upper - r.value.lower) / r.value.upper < F(2, 1000)
    assert max(e.lower for e in encs) <= min(e.upper for e in encs)
