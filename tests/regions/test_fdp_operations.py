"""Operations on trade-off functions that exactdp.fdp took over from exactdp.interactive (one
implementation of trade-off functions), each checked against an independent computation.

* the chain rule (Vadhan-Zhang Claim 3.4) against Neyman-Pearson on the joint law, transcribed
  in ``regions_reference`` (no exactdp), and against brute force over tests; in ``Q(e^eps)``
  against the tensor product (a second algorithm) and the convexity identity
  ``ChainRule(P, P, (f, ..., f)) = f``;
* ``tensor(f_1, ..., f_k)`` against the product distribution's curve;
* the f-DP order ``dominates`` against a pointwise comparison at every breakpoint of both
  functions, and against the closed form for ``f_{eps, delta}``; its one-sweep evaluation
  ``values_at`` against the reference polyline value;
* ``exp_epsilon`` against the closed form for ``f_{eps, delta}``, against ``optcomp`` for
  compositions, and in ``Q(e^eps)`` against mpmath;
* ``TradeOff.identity`` against ``T(P, P)``; ``distribution_pair``'s refusals;

References: Vadhan-Zhang Definition 1.6, Lemma 2.4, Lemma 3.3, Claim 3.4, Theorem 1.4.
"""

from __future__ import annotations

import random
from fractions import Fraction as F

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st
from regions_reference import f_eps_delta as f_ref
from regions_reference import interp, np_curve, product_atoms, rr_atoms, tradeoff_by_tests

from exactdp import mechanisms, optcomp
from exactdp.errors import InvalidArgument
from exactdp.fdp import (
    TradeOff,
    chain_rule,
    composition_tradeoff,
    distribution_pair,
    f_eps_delta,
    tensor,
    tradeoff_of,
    tradeoff_sup,
)
from exactdp.fdp.geometry import values_at

ws = st.fractions(min_value=1, max_value=8, max_denominator=12)
ds = st.sampled_from([F(0), F(0), F(1, 100), F(1, 10), F(1, 3)])
weights = st.lists(st.integers(0, 4), min_size=1, max_size=4)


def dist(xs):
    """Integer weights as a distribution (all zero: a point mass on the first outcome)."""
    s = sum(xs)
    return [F(1)] + [F(0)] * (len(xs) - 1) if s == 0 else [F(x, s) for x in xs]


def breakpoints(*fs):
    return sorted({a for f in fs for a, _ in f.exact_vertices()})


# --------------------------------------------------------------------------
# the chain rule (Vadhan-Zhang Lemma 3.3, Claim 3.4)


@given(weights, weights, st.lists(st.tuples(weights, weights), min_size=4, max_size=4))
def test_chain_rule_is_neyman_pearson_of_the_joint_law(x, xp, conds):
    k = min(len(x), len(xp))
    X, Xp = dist(x[:k]), dist(xp[:k])
    pairs = []
    for y, yp in conds[:k]:
        m = min(len(y), len(yp))
        pairs.append((dist(y[:m]), dist(yp[:m])))
    joint = [(X[i] * p, Xp[i] * q) for i, (Y, Yp) in enumerate(pairs) for p, q in zip(Y, Yp)]
    fs = [tradeoff_of(Y, Yp) for Y, Yp in pairs]
    assert chain_rule(X, Xp, fs).exact_vertices() == np_curve(joint)


@pytest.mark.parametrize("seed", range(6))
def test_chain_rule_pointwise_against_all_tests(seed):
    rng = random.Random(seed)
    X, Xp = dist([rng.randint(0, 3) for _ in range(2)]), dist([rng.randint(0, 3) for _ in range(2)])
    conds = [(dist([rng.randint(0, 3) for _ in range(2)]), dist([rng.randint(0, 3) for _ in range(2)])) for _ in X]
    f = chain_rule(X, Xp, [tradeoff_of(*c) for c in conds])
    P = [X[i] * p for i, (Y, _) in enumerate(conds) for p in Y]
    Q = [Xp[i] * q for i, (_, Yp) in enumerate(conds) for q in Yp]
    for j in range(25):
        a = F(j, 24)
        assert f(a).exact == tradeoff_by_tests(P, Q, a)


def test_chain_rule_in_q_of_e_eps():
    """eps = 0.4: the infimal convolution against the tensor product (a second algorithm), exactly in Q(e^0.4)."""
    g = f_eps_delta(eps="0.4", delta="1/10")
    assert g.is_symbolic and not g.is_exact
    # X, X' randomized response (e^eps = 3) and the same conditional g after either answer: the product
    rr = (["3/4", "1/4"], ["1/4", "3/4"])
    assert chain_rule(*rr, [g, g]) == tradeoff_of(*rr).tensor(g)
    # identical laws and one f after every outcome: f itself (f is convex)
    assert chain_rule(["1/3", "1/6", "1/2"], ["1/3", "1/6", "1/2"], [g, g, g]) == g


def test_chain_rule_outcomes_outside_a_support():
    # outcome 1 only under X' (rejected for free), outcome 2 only under X (never rejected): no f needed there
    f = f_eps_delta(exp_eps=2)
    h = chain_rule(["1/2", 0, "1/2"], ["1/2", "1/2", 0], [f, None, None])
    # by hand: beta0 = 1/2 f(0) = 1/2; the segments of f scaled by (1/2, 1/2); then flat to (1, 0)
    assert h.exact_vertices() == [(0, 1), (0, F(1, 2)), (F(1, 6), F(1, 6)), (F(1, 2), 0), (1, 0)]
    with pytest.raises(InvalidArgument, match=r"fs\[0\]"):
        chain_rule(["1/2", "1/2"], ["1/2", "1/2"], [None, f])
    with pytest.raises(InvalidArgument, match="fs"):
        chain_rule(["1/2", "1/2"], ["1/2", "1/2"], [f])
    with pytest.raises(InvalidArgument, match="Q"):
        chain_rule(["1/2", "1/2"], ["1"], [f, f])


# --------------------------------------------------------------------------
# tensor products (Vadhan-Zhang Theorem 1.4's f_1 (x) ... (x) f_k)


@given(st.lists(st.tuples(ws, ds), min_size=1, max_size=3))
def test_tensor_of_many_is_the_product_distribution(pairs):
    f = tensor(*(f_eps_delta(exp_eps=w, delta=d) for w, d in pairs))
    assert f.exact_vertices() == np_curve(product_atoms([rr_atoms(w, d) for w, d in pairs]))


def test_tensor_refusals():
    with pytest.raises(InvalidArgument, match="fs"):
        tensor()
    with pytest.raises(InvalidArgument, match=r"fs\[1\]"):
        tensor(f_eps_delta(exp_eps=2), [(0, 1), (1, 0)])


# --------------------------------------------------------------------------
# the f-DP order


@given(st.lists(st.tuples(weights, weights), min_size=2, max_size=2))
def test_dominates_against_every_breakpoint(pairs):
    f, g = (tradeoff_of(dist(p[:min(len(p), len(q))]), dist(q[:min(len(p), len(q))])) for p, q in pairs)
    # f - g is linear between consecutive breakpoints of either: those decide the order
    xs = breakpoints(f, g)
    assert f.dominates(g) == all(f(a).exact >= g(a).exact for a in xs)
    assert g.dominates(f) == all(g(a).exact >= f(a).exact for a in xs)
    assert f.dominates(f) and TradeOff.identity().dominates(f)


@given(st.lists(st.tuples(weights, weights), min_size=1, max_size=3), st.lists(st.fractions(min_value=0, max_value=1, max_denominator=30), max_size=12))
def test_values_at_is_the_polyline_value(pairs, xs):
    f = tensor(*(tradeoff_of(dist(p[:min(len(p), len(q))]), dist(q[:min(len(p), len(q))])) for p, q in pairs))
    pts = f.exact_vertices()
    xs = sorted(xs + [a for a, _ in pts])
    assert values_at(pts, xs) == [interp(pts, x) for x in xs]


@given(ws, ds, ws, ds)
def test_dominates_f_eps_delta_against_the_formula(w1, d1, w2, d2):
    by_formula = all(f_ref(w1, d1, a) >= f_ref(w2, d2, a) for a in {F(0), F(1), (1 - d1) / (1 + w1), 1 - d1,
                                                                      (1 - d2) / (1 + w2), 1 - d2})
    assert f_eps_delta(exp_eps=w1, delta=d1).dominates(f_eps_delta(exp_eps=w2, delta=d2)) == by_formula


def test_dominates_in_q_of_e_eps_and_regions():
    a = f_eps_delta(eps="0.4", delta="0.1")
    b = a.power(2)                                # in the same field Q(e^0.4)
    assert a.dominates(b) and not b.dominates(a)
    # an exact function against a symbolic one: e^0.4 < 3/2 and f_{ln 3/2, 0.1} against b by brute force
    c = f_eps_delta(exp_eps="3/2", delta="0.1")
    assert a.dominates(c) and not c.dominates(a)
    xs = breakpoints(c) + [x for x, _ in b.vertices for x in (x.lower, x.upper)]
    assert c.dominates(b) == all(c(x).exact >= b(x).upper for x in xs) and not b.dominates(c)
    from exactdp.regions import dp_region

    assert dp_region(eps="0.4", delta="0.1").is_subset(dp_region(exp_eps="3/2", delta="0.1"))
    assert not dp_region(exp_eps="3/2", delta="0.1").is_subset(dp_region(eps="0.4", delta="0.1"))
    with pytest.raises(InvalidArgument, match="other"):
        a.dominates(dp_region(eps="0.4"))
    # two fields Q(e^0.4), Q(e^0.5) built apart: no exact common field is formed (refused, not guessed)
    with pytest.raises(InvalidArgument, match="one common e\\^eps"):
        a.dominates(f_eps_delta(eps="0.5", delta="0.1"))


# --------------------------------------------------------------------------
# e^eps* from a trade-off function


@given(ws, ds, st.sampled_from([F(0), F(1, 1000), F(1, 100), F(1, 10), F(1, 3), F(1, 2)]))
def test_exp_epsilon_of_f_eps_delta_closed_form(w, d, dg):
    # delta(t) = d + (1 - d)(w - t)/(1 + w) for 1 <= t <= w: the least t with delta(t) <= dg
    expected = None if dg < d else max(F(1), w - (dg - d) * (1 + w) / (1 - d))
    assert f_eps_delta(exp_eps=w, delta=d).exp_epsilon(dg) == expected


@pytest.mark.parametrize("ms", [mechanisms(exp_eps=[2, "3/2", "5/4"], delta=["1/10", 0, "1/100"]),
                                mechanisms(exp_eps="6/5", delta="1/1000", k=6)])
def test_exp_epsilon_of_compositions_is_optcomp(ms):
    f = composition_tradeoff(ms)
    for dg in [F(0), F(1, 1000), F(1, 20), F(1, 3)]:
        r = optcomp(ms, dg)
        assert f.exp_epsilon(dg) == (None if r.infinite else r.exp_exact)


def test_exp_epsilon_in_q_of_e_eps_against_mpmath():
    f = f_eps_delta(eps="0.4").power(2)          # pure (0.8, 0)-DP: e^eps* = e^0.8 at delta = 0
    t = f.exp_epsilon(0)
    e = t.enclosure(30)
    with mpmath.workdps(50):
        ref = mpmath.exp(mpmath.mpf(4) / 5)
        assert mpmath.mpf(e.lower.numerator) / e.lower.denominator <= ref <= mpmath.mpf(e.upper.numerator) / e.upper.denominator
    assert f.epsilon(0)[0].exact == F(4, 5)


# --------------------------------------------------------------------------
# identity, distributions, one implementation


def test_identity_is_t_of_equal_distributions():
    Id = TradeOff.identity()
    assert Id == tradeoff_of(["1/5", "3/10", "1/2"], ["1/5", "3/10", "1/2"]) == f_eps_delta(exp_eps=1)
    f = f_eps_delta(exp_eps=3, delta="1/10")
    assert Id.tensor(f) == f == tradeoff_sup([Id, f])
    assert Id.exact_vertices() == [(0, 1), (1, 0)] and Id.exp_epsilon(0) == 1


@pytest.mark.parametrize("P, Q, where", [
    (["1/2", "1/2"], ["1"], "Q"),
    (["-1/2", "3/2"], ["1/2", "1/2"], "P[0]"),
    (["1/2", "1/3"], ["1/2", "1/2"], "P"),
    (["1/2", "1/2"], ["1/2", "nan"], "Q[1]"),
    ([], [], "P"),
])
def test_distribution_pair_names_the_bad_parameter(P, Q, where):
    with pytest.raises(InvalidArgument) as e:
        distribution_pair(P, Q)
    assert e.value.parameter == where
