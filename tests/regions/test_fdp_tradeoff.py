"""Trade-off functions (exactdp.fdp): every value checked against an independent computation.

* f_{eps,delta} against the printed formula (Vadhan-Zhang Section 1), exact and (for
  irrational e^eps) against mpmath at 60 digits;
* Definition 1.6 against brute force over all deterministic tests and their mixtures;
* Proposition 1.7: the decision against a direct check of the four properties on a grid,
  and the constructive round trip f -> (P, Q) -> T(P, Q) = f;
* tensor products against the product distributions built here, and against the
  privacy profile (the composition's curve);
* Lemma 2.4 (supremum) and the infimum against pointwise brute force;
* the (eps, delta) <-> f conversions against the OptComp engine (composed_delta, optcomp);
* Q(e^eps) arithmetic against mpmath; the Gaussian G_mu and delta_mu(eps) against mpmath.

References: Vadhan-Zhang Definition 1.6, Proposition 1.7, Lemma 2.4; Dong-Roth-Su
(Gaussian DP); Murtagh-Vadhan Theorem 1.5.
"""

from __future__ import annotations

import random
from fractions import Fraction as F

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st
from regions_reference import (
    f_eps_delta as f_ref,
)
from regions_reference import (
    gaussian_tradeoff_mp,
    gdp_delta_mp,
    interp,
    mp,
    np_curve,
    product_atoms,
    rr_atoms,
    tradeoff_by_tests,
)

from exactdp import Mechanism, composed_delta, mechanisms, optcomp
from exactdp.errors import InvalidArgument, NotExact
from exactdp.fdp import (
    QW,
    GaussianTradeOff,
    TradeOff,
    composition_tradeoff,
    f_eps_delta,
    is_tradeoff_function,
    tradeoff_from_guarantees,
    tradeoff_inf,
    tradeoff_of,
    tradeoff_sup,
)
from exactdp.gdp import gdp_delta, gdp_mu
from exactdp.numbers import RatExp


@pytest.fixture(autouse=True)
def _mp_precision():
    """mpmath at 60 digits for every test here (its precision is global: set per test, not at import)."""
    with mpmath.workdps(60):
        yield


ws = st.fractions(min_value=1, max_value=8, max_denominator=12)
ds = st.sampled_from([F(0), F(0), F(1, 100), F(1, 10), F(1, 3)])
alphas = st.fractions(min_value=0, max_value=1, max_denominator=50)


def grid(n=37):
    return [F(i, n) for i in range(n + 1)]


# --------------------------------------------------------------------------
# f_{eps, delta}


@given(ws, ds, alphas)
def test_f_eps_delta_is_the_printed_formula(w, d, a):
    f = f_eps_delta(exp_eps=w, delta=d)
    assert f(a).exact == f_ref(w, d, a)


@pytest.mark.parametrize("eps,d", [("0.4", "0"), ("0.4", "0.1"), ("1/3", "1/1000"), ("2", "0.5")])
def test_f_eps_delta_irrational_contains_mpmath(eps, d):
    f = f_eps_delta(eps=eps, delta=d, digits=40)
    w = mpmath.exp(mp(F(eps)))
    for a in grid(23):
        v = max(0, 1 - mp(F(d)) - w * mp(a), (1 - mp(F(d)) - mp(a)) / w)
        e = f(a)
        assert e.lower - F(1, 10**45) <= F(mpmath.nstr(v, 55)) <= e.upper + F(1, 10**45), (a, e, v)
        assert e.exact is not None or e.accurate(35)


# --------------------------------------------------------------------------
# Definition 1.6 and Proposition 1.7


def random_distribution(rng, n):
    xs = [rng.randint(0, 6) for _ in range(n)]
    if sum(xs) == 0:
        xs[0] = 1
    s = sum(xs)
    return [F(x, s) for x in xs]


@pytest.mark.parametrize("seed", range(12))
def test_definition_1_6_against_all_tests(seed):
    rng = random.Random(seed)
    n = rng.randint(1, 5)
    P, Q = random_distribution(rng, n), random_distribution(rng, n)
    f = tradeoff_of(P, Q)
    for a in grid(29):
        assert f(a).exact == tradeoff_by_tests(P, Q, a), (P, Q, a)


@pytest.mark.parametrize("seed", range(12))
def test_proposition_1_7_round_trip(seed):
    """A trade-off function is T(P, Q) of its own segment distributions (the constructive half)."""
    rng = random.Random(100 + seed)
    n = rng.randint(1, 6)
    f = tradeoff_of(random_distribution(rng, n), random_distribution(rng, n))
    P, Q = f.to_distributions()
    assert sum(P) == 1 and sum(Q) == 1 and all(x >= 0 for x in P + Q)
    assert tradeoff_of(P, Q) == f
    assert f.check() == (True, "")


def _props_on_grid(pts):
    """The four properties of Proposition 1.7, checked directly on a grid (independent of the code)."""
    xs = grid(60) + [x for x, _ in pts]
    xs = sorted(set(x for x in xs if 0 <= x <= 1))
    v = [interp(pts, x) for x in xs]
    if any(y is None for y in v):
        return False
    nonincr = all(b <= a for a, b in zip(v, v[1:]))
    below = all(y <= 1 - x and 0 <= y <= 1 for x, y in zip(xs, v))
    convex = all((v[i + 1] - v[i]) * (xs[i + 2] - xs[i + 1]) <= (v[i + 2] - v[i + 1]) * (xs[i + 1] - xs[i])
                 for i in range(len(xs) - 2))
    return nonincr and below and convex


@given(st.lists(st.tuples(st.fractions(0, 1, max_denominator=8), st.fractions(0, 1, max_denominator=8)), min_size=0, max_size=4))
def test_proposition_1_7_decision_matches_the_properties(inner):
    pts = [(F(0), F(1))] + sorted(inner) + [(F(1), F(0))]
    if any(pts[i][0] == pts[i + 1][0] for i in range(1, len(pts) - 1)):
        return  # a vertical jump away from alpha = 0 is a discontinuity: covered below
    ok, why = is_tradeoff_function(pts)
    assert ok == _props_on_grid(pts), (pts, why)


def test_proposition_1_7_refusals_name_the_condition():
    assert "convex" in is_tradeoff_function([(0, 1), (F(1, 2), F(1, 3)), (F(3, 4), F(1, 4)), (1, 0)])[1]
    assert "1 - x" in is_tradeoff_function([(0, 1), (F(1, 2), F(2, 3)), (1, 0)])[1]
    assert "increasing" in is_tradeoff_function([(0, 1), (F(1, 4), F(1, 4)), (F(1, 2), F(3, 10)), (1, 0)])[1]
    assert "continuous" in is_tradeoff_function([(0, 1), (F(1, 2), F(1, 2)), (F(1, 2), F(1, 4)), (1, 0)])[1]
    with pytest.raises(InvalidArgument, match="Proposition 1.7"):
        TradeOff([(0, 1), (F(1, 2), F(2, 3)), (1, 0)])


# --------------------------------------------------------------------------
# tensor products and the composition's trade-off function


@given(st.lists(st.tuples(ws, ds), min_size=1, max_size=3))
def test_tensor_is_the_product_distribution(pairs):
    f = None
    for w, d in pairs:
        g = f_eps_delta(exp_eps=w, delta=d)
        f = g if f is None else f.tensor(g)
    ref = np_curve(product_atoms([rr_atoms(w, d) for w, d in pairs]))
    assert f.exact_vertices() == ref
    c = composition_tradeoff([Mechanism(exp_eps=w, delta=d) for w, d in pairs])
    assert c == f


def test_power_against_repeated_tensor_and_profile():
    f = f_eps_delta(exp_eps=F(3, 2), delta=F(1, 50))
    assert f.power(5) == f.tensor(f).tensor(f).tensor(f).tensor(f)
    assert f.power(5) == composition_tradeoff(mechanisms(exp_eps="3/2", delta="1/50", k=5))


def test_symbolic_tensor_contains_the_certified_profile_curve():
    """eps = 0.4 (e^eps transcendental): the tensor is exact in Q(e^0.4); the profile's certified
    vertex enclosures each contain the exact vertex (an exact decision in Q(e^0.4))."""
    f = f_eps_delta(eps="0.4", delta="0.1").power(3)
    c = composition_tradeoff(mechanisms(eps="0.4", delta="0.1", k=3))
    assert f.is_symbolic and not f.is_exact and not c.is_symbolic
    assert len(f) == len(c)
    for (a, b), (ea, eb) in zip(f.symbolic_vertices(), c.vertices):
        assert ea.lower <= a <= ea.upper and eb.lower <= b <= eb.upper


def test_composition_is_symmetric():
    for ms in (mechanisms(exp_eps=[2, "3/2"], delta=["1/10", 0]), mechanisms(exp_eps="5/4", delta="1/100", k=6)):
        f = composition_tradeoff(ms)
        assert f.is_symmetric()
    g = tradeoff_of(["1/2", "1/2"], ["1/4", "3/4"])
    assert not g.is_symmetric() and g.symmetrized().is_symmetric()


# --------------------------------------------------------------------------
# Lemma 2.4 (supremum) and the infimum


@given(st.lists(st.tuples(ws, ds), min_size=1, max_size=4))
def test_sup_is_the_lower_convex_envelope(pairs):
    fs = [f_eps_delta(exp_eps=w, delta=d) for w, d in pairs]
    h = tradeoff_sup(fs)
    assert h.check()[0]
    pts = sorted({p for f in fs for p in f.exact_vertices()})
    for a in grid(31):
        # brute force: the least value at a of a chord between two vertices of the union
        best = min(f(a).exact for f in fs)
        for x0, y0 in pts:
            for x1, y1 in pts:
                if x0 < a < x1:
                    best = min(best, y0 + (y1 - y0) * (a - x0) / (x1 - x0))
        assert h(a).exact == best
        assert all(h(a).exact <= f(a).exact for f in fs)


@given(st.lists(st.tuples(ws, ds), min_size=1, max_size=4))
def test_inf_is_the_pointwise_max(pairs):
    fs = [f_eps_delta(exp_eps=w, delta=d) for w, d in pairs]
    g = tradeoff_inf(fs)
    for a in grid(31):
        assert g(a).exact == max(f_ref(w, d, a) for w, d in pairs)


# --------------------------------------------------------------------------
# conversions, checked against the OptComp engine


@pytest.mark.parametrize("ms", [
    mechanisms(exp_eps=[2, "3/2", "5/4"], delta=["1/10", 0, "1/100"]),
    mechanisms(exp_eps="6/5", delta="1/1000", k=7),
    mechanisms(exp_eps=[3, 3, 2], delta=0),
])
def test_tradeoff_to_profile_matches_composed_delta(ms):
    f = composition_tradeoff(ms)
    for t in [F(1), F(11, 10), F(3, 2), F(2), F(5), F(40)]:
        assert f.delta(exp_eps=t).exact == composed_delta(ms, exp_eps_g=t).exact
    for dg in [F(0), F(1, 1000), F(1, 20), F(1, 3), F(9, 10)]:
        eps, t = f.epsilon(dg)
        r = optcomp(ms, dg)
        if r.infinite:
            assert eps.infinite
        else:
            assert t == r.exp_exact


@pytest.mark.parametrize("ms", [
    mechanisms(exp_eps=[2, "3/2"], delta=["1/10", 0]),
    mechanisms(exp_eps="6/5", delta="1/1000", k=6),
])
def test_profile_to_tradeoff_matches_the_curve(ms):
    """The composition's (eps, delta_g(eps)) at its privacy-loss values, from the engine, give
    back its trade-off function: the (eps, delta) -> f-DP conversion."""
    f = composition_tradeoff(ms)
    ts = f.privacy_loss_values()
    gs = [Mechanism(exp_eps=t, delta=composed_delta(ms, exp_eps_g=t).exact) for t in ts]
    assert tradeoff_from_guarantees(gs) == f


def test_delta_irrational_matches_certified_engine():
    ms = mechanisms(eps="0.3", delta="1/100", k=4)
    f = composition_tradeoff(ms, digits=40)
    for e in ["0", "0.3", "0.6", "1.1"]:
        a = f.delta(eps=e, digits=30)
        b = composed_delta(ms, eps_g=e, digits=30).value
        assert a.lower <= b.upper and b.lower <= a.upper


# --------------------------------------------------------------------------
# Q(e^eps)


@pytest.mark.parametrize("seed", range(8))
def test_qw_arithmetic_and_signs_against_mpmath(seed):
    rng = random.Random(seed)
    eps = F(rng.randint(1, 20), rng.randint(1, 10))
    w = QW.gen(RatExp.from_eps(eps))
    wm = mpmath.exp(mp(eps))
    x, xm = w.const(0), mpmath.mpf(0)
    for _ in range(6):
        c = F(rng.randint(-9, 9), rng.randint(1, 5))
        op = rng.choice("+-*/")
        y, ym = (w + c, wm + mp(c)) if rng.random() < 0.5 else (w * c - 1, wm * mp(c) - 1)
        if op == "+":
            x, xm = x + y, xm + ym
        elif op == "-":
            x, xm = x - y, xm - ym
        elif op == "*":
            x, xm = x * y, xm * ym
        elif not y.is_zero():
            x, xm = x / y, xm / ym
    e = x.enclosure(40)
    assert e.lower - F(1, 10**50) <= F(mpmath.nstr(xm, 58)) <= e.upper + F(1, 10**50)
    assert x.sign() == (0 if x.is_zero() else (1 if xm > 0 else -1))
    assert (x - x).is_zero() and x * (x + 1) == x * x + x


# --------------------------------------------------------------------------
# Gaussian


@pytest.mark.parametrize("mu", [F(1, 2), F(1), F(3)])
def test_gaussian_tradeoff_against_mpmath(mu):
    G = GaussianTradeOff(mu, digits=30)
    for a in [F(1, 1000), F(1, 20), F(1, 3), F(1, 2), F(9, 10), F(999, 1000)]:
        e = G(a)
        v = gaussian_tradeoff_mp(mp(mu), mp(a))
        assert e.lower - F(1, 10**40) <= F(mpmath.nstr(v, 55)) <= e.upper + F(1, 10**40)
    assert G(0).exact == 1 and G(1).exact == 0


@pytest.mark.parametrize("mu,eps", [(F(1), F(0)), (F(1, 2), F(1)), (F(3), F(2)), (F(10), F(30)), (F(1, 5), F(1, 10))])
def test_gdp_delta_against_mpmath(mu, eps):
    e = gdp_delta(mu, eps, digits=30)
    v = gdp_delta_mp(mp(mu), mp(eps))
    assert e.lower - F(1, 10**45) <= F(mpmath.nstr(v, 58)) <= e.upper + F(1, 10**45)


def test_gdp_is_the_supremum_over_its_curve():
    """delta_mu(eps) = sup_alpha 1 - e^eps alpha - G_mu(alpha) (the f-DP -> (eps, delta) conversion)."""
    mu, eps = mpmath.mpf(1), mpmath.mpf("0.5")
    best = mpmath.findroot(lambda a: mpmath.diff(lambda x: 1 - mpmath.exp(eps) * x - gaussian_tradeoff_mp(mu, x), a), 0.2)
    sup = 1 - mpmath.exp(eps) * best - gaussian_tradeoff_mp(mu, best)
    e = gdp_delta(1, "0.5", digits=25)
    assert abs(F(mpmath.nstr(sup, 40)) - e.lower) < F(1, 10**20)


@pytest.mark.parametrize("eps,delta", [("1", "1e-5"), ("0.1", "1e-6"), ("5", "0.01"), ("0", "0.2")])
def test_gdp_mu_ends_are_certified(eps, delta):
    m = gdp_mu(eps, delta, digits=12)
    assert m.width <= m.upper * F(1, 10**10)
    lo, hi = gdp_delta_mp(mp(m.lower), mp(F(eps))), gdp_delta_mp(mp(m.upper), mp(F(eps)))
    assert lo <= mp(F(delta)) < hi


def test_gaussian_tensor():
    assert GaussianTradeOff(3).tensor(GaussianTradeOff(4)).mu_squared == 25
    assert GaussianTradeOff(1).power(9).mu_squared == 9


# --------------------------------------------------------------------------
# bad input


def test_bad_input_is_refused_with_the_parameter_named():
    f = f_eps_delta(exp_eps=2)
    for bad in ["1.5", "-0.1", "nan", float("inf"), "x"]:
        with pytest.raises(InvalidArgument, match="alpha"):
            f(bad)
    with pytest.raises(InvalidArgument, match="eps"):
        f_eps_delta(eps="-1")
    with pytest.raises(InvalidArgument, match="delta"):
        f_eps_delta(exp_eps=2, delta=1)
    with pytest.raises(InvalidArgument, match="Q"):
        tradeoff_of(["1/2", "1/2"], ["1"])
    with pytest.raises(InvalidArgument, match="summing to 1"):
        tradeoff_of(["1/2", "1/3"], ["1/2", "1/2"])
    with pytest.raises(InvalidArgument, match="mu"):
        GaussianTradeOff(-1)
    with pytest.raises(InvalidArgument, match="functions"):
        tradeoff_sup([])
    c = composition_tradeoff(mechanisms(eps="0.2", k=2))
    with pytest.raises(NotExact):
        c.exact_vertices()
