"""The privacy-profile layer (issue 8): one prepared composition answers delta, epsilon
and the trade-off curve.

Independent references: the Neyman-Pearson trade-off curve of the explicit product of
randomized responses over {0,1,2,3}^k (``exactdp_proofs._reference``), convex duality
``delta(eps) = max over vertices of 1 - beta - e^eps alpha`` against the OptComp engine,
and mpmath at 300 bits for irrational e^eps.
"""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp import PrivacyProfile, composed_delta, mechanisms, optcomp
from exactdp.errors import InvalidArgument
from exactdp_proofs._reference import product_laws, tradeoff_vertices

w_st = st.fractions(min_value=1, max_value=4, max_denominator=8)
d_st = st.sampled_from([F(0), F(1, 100), F(1, 7)])


@settings(max_examples=40)
@given(st.lists(st.tuples(w_st, d_st), min_size=1, max_size=3))
def test_tradeoff_curve_equals_neyman_pearson_of_the_product(items):
    ws, ds = [w for w, _ in items], [d for _, d in items]
    prof = PrivacyProfile(mechanisms(exp_eps=ws, delta=ds))
    got = [(a.exact, b.exact) for a, b in prof.tradeoff_curve()]
    assert got == tradeoff_vertices(*product_laws(ws, ds))


@settings(max_examples=30)
@given(st.lists(st.tuples(w_st, d_st), min_size=1, max_size=4), st.fractions(min_value=1, max_value=8, max_denominator=10))
def test_duality_with_the_engine(items, t):
    ms = mechanisms(exp_eps=[w for w, _ in items], delta=[d for _, d in items])
    prof = PrivacyProfile(ms)
    curve = prof.tradeoff_curve()
    dual = max(1 - b.exact - t * a.exact for a, b in curve)
    assert dual == composed_delta(ms, exp_eps_g=t).exact == prof.delta(exp_eps_g=t).exact


def test_queries_match_the_one_shot_functions():
    ms = mechanisms(eps=["0.1", "0.3"], delta="1e-6", k=5)
    prof = PrivacyProfile(ms)
    assert prof.method == "lattice" and prof.k == 10
    a = prof.epsilon("1e-3")
    b = optcomp(ms, "1e-3")
    assert (a.lower, a.upper) == (b.lower, b.upper)
    c, d = prof.delta(eps_g="0.5"), composed_delta(ms, eps_g="0.5")
    assert (c.lower, c.upper) == (d.lower, d.upper)


def test_certified_curve_encloses_a_high_precision_reference():
    # 3 x eps = 0.2: vertices alpha_m = sum_{j<=m} C(3,j) e^{-0.2 (3-j)} ... computed in mpmath
    prof = PrivacyProfile(mechanisms(eps=["0.2"], k=3), digits=20)
    curve = prof.tradeoff_curve()
    with mpmath.workprec(300):
        _check_enclosures(curve)


def _check_enclosures(curve):
    w = mpmath.exp(mpmath.mpf(1) / 5)
    Z = (1 + w) ** 3
    alpha, beta = mpmath.mpf(0), mpmath.mpf(1)
    ref = [(alpha, beta)]
    for m in range(4):  # reject W_S = w^m, in order of the ratio w^(3-2m) decreasing
        c = mpmath.binomial(3, m)
        alpha += c * w**m / Z
        beta -= c * w ** (3 - m) / Z
        ref.append((alpha, beta))
    ref.append((mpmath.mpf(1), mpmath.mpf(0)))
    # (0, 1) = (0, P) here (P = 1, no delta), and the last class ends at (1, 0) itself
    ref = ref[0:4] + [ref[5]]
    assert len(curve) == len(ref) == 5
    assert curve[0] == (0, 1) and curve[-1] == (1, 0)
    for (a, b), (ra, rb) in zip(curve, ref):
        for enc, val in ((a, ra), (b, rb)):
            lo, hi = enc
            assert mpmath.mpf(lo.numerator) / lo.denominator <= val <= mpmath.mpf(hi.numerator) / hi.denominator
            assert enc.accurate(20, floor=F(1, 10**40))


def test_tradeoff_interpolates_and_validates():
    prof = PrivacyProfile(mechanisms(exp_eps=[2, 2]))
    # vertices (0,1), (1/9,5/9), (5/9,1/9), (1,0); f(1/9 + s) = 5/9 - s on the middle segment
    assert prof.tradeoff(F(1, 9)).exact == F(5, 9)
    assert prof.tradeoff("0.2").exact == F(5, 9) - (F(1, 5) - F(1, 9))
    assert prof.tradeoff(0).exact == 1 and prof.tradeoff(1).exact == 0
    for bad in ("-0.1", "1.5", "nan"):
        with pytest.raises(InvalidArgument, match="alpha"):
            prof.tradeoff(bad)


def test_pure_dp_with_eps_zero_is_the_diagonal():
    prof = PrivacyProfile(mechanisms(eps=[0], k=4))
    assert [(a.exact, b.exact) for a, b in prof.tradeoff_curve()] == [(0, 1), (1, 0)]


@pytest.mark.parametrize("delta", ["0", "1/10"])
def test_certified_curve_has_its_exact_vertices_and_no_repeats(delta):
    # P = (1 - delta)^2: the curve starts (0, 1), (0, P) and ends (P, 0), (1, 0) exactly
    prof = PrivacyProfile(mechanisms(eps="0.4", delta=delta, k=2), digits=15)
    curve = prof.tradeoff_curve()
    P = (1 - F(delta)) ** 2
    assert curve[0] == (0, 1) and curve[-1] == (1, 0)
    if P < 1:
        assert curve[1] == (0, P) and curve[-2] == (P, 0)
    # 2 x eps = 0.4: the classes m = 0, 1, 2 give three vertices after (0, P), the last being (P, 0);
    # with P = 1, (0, P) = (0, 1) and (P, 0) = (1, 0) are not repeated
    assert len(curve) == (4 if P == 1 else 6)
    assert all(curve[i] != curve[i + 1] for i in range(len(curve) - 1))
