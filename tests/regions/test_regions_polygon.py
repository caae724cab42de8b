"""Privacy regions (exactdp.regions): polygons checked against independent computations.

* R(eps, delta) against KOV eq. (3)'s four inequalities, point by point on a grid;
* the region of a composition: counter-clockwise from (0, 1), convex, no repeated or
  collinear vertices (exact decisions), symmetric; its points against the product of
  randomized responses built here;
* Theorem 3.3: each printed delta'_i against the OptComp engine at e^eps_g = w^(k-2i)
  (exact), and the intersection polygon equal to the composition's polygon, exactly,
  for rational e^eps and (in Q(e^eps)) for rational eps;
* Corollary 2.3 (inclusion) against OptComp: the composition's region lies in
  R(eps_g, delta_g) exactly when eps_g >= OptComp(delta_g);
* the achieving mechanisms: randomized responses (heterogeneous) and the geometric
  mechanism, whose pmf is summed here over a window with an exact tail bound.

References: Kairouz-Oh-Viswanath eq. (3), Theorem 2.1, Corollary 2.3, Theorems 3.3 and 4.4.
"""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st
from regions_reference import delta_homogeneous, kov_region_contains, np_curve, product_atoms, rr_atoms

from exactdp import Mechanism, composed_delta, mechanisms, optcomp
from exactdp.errors import InvalidArgument
from exactdp.fdp.geometry import cross
from exactdp.regions import (
    PrivacyRegion,
    check_theorem33,
    composition_region,
    dp_region,
    geometric_pair,
    geometric_region,
    randomized_response,
    randomized_response_region,
    theorem33_guarantees,
    theorem33_region,
)

ws = st.fractions(min_value=1, max_value=6, max_denominator=10)
ds = st.sampled_from([F(0), F(0), F(1, 100), F(1, 10), F(1, 4)])


@pytest.fixture(autouse=True)
def _mp_precision():
    """mpmath at 50 digits for every test here (its precision is global: set per test, not at import)."""
    with mpmath.workdps(50):
        yield


def shoelace2(pts):
    return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1]))


def assert_clean_convex_ccw(pts):
    n = len(pts)
    assert pts[0] == (0, 1)
    assert len(set(pts)) == n, "repeated vertex"
    if n >= 3:
        assert shoelace2(pts) > 0, "not counter-clockwise"
        for i in range(n):
            assert cross(pts[i - 1], pts[i], pts[(i + 1) % n]) > 0, f"collinear or reflex at vertex {i}"


@given(ws, ds)
def test_dp_region_is_kov_equation_3(w, d):
    R = dp_region(exp_eps=w, delta=d)
    assert_clean_convex_ccw(R.exact_vertices())
    for i in range(0, 21):
        for j in range(0, 21):
            x, y = F(i, 20), F(j, 20)
            assert R.contains(x, y) == kov_region_contains(w, d, x, y), (w, d, x, y)


@given(st.lists(st.tuples(ws, ds), min_size=1, max_size=3))
def test_composition_region_is_the_product_of_randomized_responses(pairs):
    ms = [Mechanism(exp_eps=w, delta=d) for w, d in pairs]
    R = composition_region(ms)
    pts = R.exact_vertices()
    curve = np_curve(product_atoms([rr_atoms(w, d) for w, d in pairs]))
    mirror = [(1 - a, 1 - b) for a, b in curve[1:-1]]
    expect = curve + mirror
    if all(w == 1 for w, _ in pairs) and all(d == 0 for _, d in pairs):
        expect = [(F(0), F(1)), (F(1), F(0))]  # the diagonal segment
    else:
        assert_clean_convex_ccw(pts)
    assert pts == expect
    assert randomized_response_region(ms) == R


def test_degenerate_region_is_the_diagonal():
    assert dp_region(exp_eps=1).exact_vertices() == [(0, 1), (1, 0)]
    assert composition_region(mechanisms(eps=0, k=3)).exact_vertices() == [(0, 1), (1, 0)]


@pytest.mark.parametrize("eps,d,k", [("0.4", "0", 3), ("0.4", "0.1", 2), ("1/3", "1/100", 4), ("0.05", "0", 6)])
def test_certified_region_contains_mpmath_vertices(eps, d, k):
    """eps rational: every certified vertex encloses the homogeneous curve computed here in mpmath."""
    R = composition_region(mechanisms(eps=eps, delta=d, k=k), digits=30)
    w = mpmath.exp(mpmath.mpf(F(eps).numerator) / F(eps).denominator)
    dd = mpmath.mpf(F(d).numerator) / F(d).denominator
    P = (1 - dd) ** k
    from math import comb

    pts = [(mpmath.mpf(0), mpmath.mpf(1))] + ([(mpmath.mpf(0), P)] if d != "0" else [])
    a, b = mpmath.mpf(0), P
    for j in range(k + 1):
        a += P * comb(k, j) * w ** j / (1 + w) ** k
        b -= P * comb(k, j) * w ** (k - j) / (1 + w) ** k
        pts.append((a, b))
    if d != "0":
        pts.append((mpmath.mpf(1), mpmath.mpf(0)))
    pts[-1] = (mpmath.mpf(1), mpmath.mpf(0))
    lower = R.vertices[: len(pts)]
    assert len(R.vertices) == 2 * len(pts) - 2
    tol = F(1, 10**40)
    for (ea, eb), (x, y) in zip(lower, pts):
        assert ea.lower - tol <= F(mpmath.nstr(x, 48)) <= ea.upper + tol
        assert eb.lower - tol <= F(mpmath.nstr(y, 48)) <= eb.upper + tol


# --------------------------------------------------------------------------
# Theorem 3.3


@given(ws, ds, st.integers(1, 9))
def test_theorem_3_3_deltas_are_the_engine_profile(w, d, k):
    for i, t, dp in theorem33_guarantees(exp_eps=w, delta=d, k=k):
        assert t == w ** (k - 2 * i)
        assert dp == composed_delta(mechanisms(exp_eps=w, delta=d, k=k), exp_eps_g=t).exact
        assert dp == delta_homogeneous(w, d, k, t)


@given(ws, ds, st.integers(1, 12))
def test_theorem_3_3_region_is_the_composed_region(w, d, k):
    c = check_theorem33(exp_eps=w, delta=d, k=k)
    assert c.equal, (w, d, k)
    assert c.theorem == composition_region(mechanisms(exp_eps=w, delta=d, k=k))


@pytest.mark.parametrize("eps,d,k", [("0.4", "0", 1), ("0.4", "0", 5), ("0.4", "0.1", 5), ("1/7", "1/1000", 8), ("2", "0", 3)])
def test_theorem_3_3_exact_in_q_of_e_eps(eps, d, k):
    c = check_theorem33(eps=eps, delta=d, k=k)
    assert c.equal and "Q(e^eps)" in c.how
    assert c.theorem.is_symbolic and not c.theorem.is_exact


def test_theorem_3_3_check_can_fail():
    """A wrong intersection (one delta'_i lowered) is caught: the polygon changes."""
    from exactdp.fdp.tradeoff import guarantees_tradeoff

    gs = theorem33_guarantees(exp_eps=2, delta=F(1, 10), k=4)
    bad = [(t, dp - F(1, 1000) if i == 1 else dp) for i, t, dp in gs]
    wrong = PrivacyRegion(guarantees_tradeoff(bad))
    assert wrong != composition_region(mechanisms(exp_eps=2, delta=F(1, 10), k=4))


def test_theorem_3_3_large_k_exact():
    c = check_theorem33(exp_eps="21/20", delta="1/10000", k=150)
    assert c.equal and len(c.theorem) == 2 * (150 + 4) - 2  # (0,1) (0,P) 151 classes (1,0), mirrored


# --------------------------------------------------------------------------
# Corollary 2.3


@pytest.mark.parametrize("ms,dg", [
    (mechanisms(exp_eps=[2, "3/2"], delta=["1/100", 0]), F(1, 20)),
    (mechanisms(exp_eps="5/4", delta="1/1000", k=5), F(1, 100)),
])
def test_corollary_2_3_inclusion_is_optcomp(ms, dg):
    R = composition_region(ms)
    t = optcomp(ms, dg).exp_exact
    assert R.is_subset(dp_region(exp_eps=t, delta=dg))
    assert not R.is_subset(dp_region(exp_eps=t * F(999, 1000), delta=dg)) or t == 1
    assert not R.is_subset(dp_region(exp_eps=t, delta=dg * F(99, 100)))


# --------------------------------------------------------------------------
# the achieving mechanisms


def test_randomized_response_distribution():
    P, Q = randomized_response(exp_eps=3, delta=F(1, 10))
    assert sum(P) == 1 and sum(Q) == 1
    assert list(zip(P, Q)) == rr_atoms(F(3), F(1, 10))


@pytest.mark.parametrize("w", [F(2), F(3, 2), F(11, 10)])
def test_geometric_pair_is_the_summed_pmf(w):
    """The classes' masses against the pmf summed over |z| <= N, plus the geometric tail
    bounded exactly: the closed form lies between the partial sum and the partial sum + tail."""
    c = (w - 1) / (w + 1)
    N = 60
    p_left = sum(c * w ** (-abs(z)) for z in range(-N, 1))
    q_left = sum(c * w ** (-abs(z - 1)) for z in range(-N, 1))
    tail = c * w ** (-N) / (w - 1)  # sum over z < -N of c w^-|z|
    P, Q = geometric_pair(exp_eps=w)
    assert p_left <= F(P[0]) <= p_left + tail and q_left <= F(Q[0]) <= q_left + tail
    assert F(P[0]) + F(P[1]) == 1 and F(Q[0]) + F(Q[1]) == 1


@pytest.mark.parametrize("kw,k", [({"exp_eps": 2}, 4), ({"exp_eps": ["3/2", 2]}, 2), ({"eps": "0.4"}, 3)])
def test_geometric_mechanism_achieves_the_optimal_region(kw, k):
    G = geometric_region(k=k, **kw)
    vals = kw.get("exp_eps", kw.get("eps"))
    vals = vals if isinstance(vals, list) else [vals]
    key = "exp_eps" if "exp_eps" in kw else "eps"
    ms = mechanisms(**{key: vals}, k=k)
    if G.is_exact:
        assert G == composition_region(ms)
    else:
        assert G == theorem33_region(k=k, **kw)


def test_bad_input():
    with pytest.raises(InvalidArgument, match="eps"):
        geometric_pair(exp_eps=1)
    with pytest.raises(InvalidArgument, match="k"):
        theorem33_region(exp_eps=2, k=0)
    with pytest.raises(InvalidArgument, match="delta"):
        dp_region(eps=1, delta="1")
    with pytest.raises(InvalidArgument, match="p_fa"):
        dp_region(eps=1).contains("1.5", 0)
