"""Edge cases and bad input for the OptComp core, against hand-derived closed forms.

6. k = 1 closed forms, infinite OptComp, ``delta_g = 1 - prod(1 - delta_i)``,
   eps = 0 mechanisms, ``delta_g = 0``, large ``delta_g``, ``eps_g >= sum eps_i``,
   lattice detection on perfect powers, k = 2000 homogeneous.
7. Parsing and bad input: exact floats and decimal strings, InvalidArgument naming
   the parameter, NotExact, CostTooHigh.

Expected values are derived by hand in the comments or computed by the
independent references of ``exactdp_proofs._reference``.
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

import mpmath
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from exactdp import (
    CostTooHigh,
    InvalidArgument,
    Mechanism,
    NotExact,
    composed_delta,
    mechanisms,
    optcomp,
)
from exactdp._backend import arb
from exactdp.engines import detect_lattice
from exactdp.numbers import Computable, RatExp, Root, log_sign_of_product
from exactdp_proofs._reference import exp_bracket, exp_outer, hockey_stick_delta, kov_delta_g, mpf_to_fraction

F = Fraction

RAT_W = st.builds(lambda q, p: F(q + p, q), st.integers(1, 6), st.integers(0, 20))
DELTA = st.one_of(st.just(F(0)), st.fractions(F(0), F(1, 2), max_denominator=12))
T_FREE = st.builds(lambda q, p: F(q + p, q), st.integers(1, 6), st.integers(0, 30))
EPS = st.sampled_from([F(0), F(1, 10), F(1, 5), F(1, 2), F(1), F(2)])
ALL_METHODS = ["auto", "homogeneous", "windowed", "lattice", "grouped", "mitm", "brute"]


def prod(xs):
    p = F(1)
    for x in xs:
        p *= x
    return p


def mp_exp(q: Fraction):
    return mpmath.exp(mpmath.mpf(q.numerator) / q.denominator)


# --------------------------------------------------------------------------
# k = 1


def k1_delta(w, delta, t):
    """One mechanism: S(t) = max(w - t, 0) (the other subset gives 1 - t w <= 0),
    so delta_g = 1 - (1 - delta)(1 - max(w - t, 0)/(1 + w))."""
    return 1 - (1 - delta) * (1 - max(w - t, 0) / (1 + w))


@given(w=RAT_W, delta=DELTA, t=T_FREE)
@example(w=F(2), delta=F(0), t=F(1))  # (2 - 1)/3 = 1/3
@example(w=F(3), delta=F(1, 10), t=F(3))  # t = w: delta_g = delta
@example(w=F(1), delta=F(1, 4), t=F(1))  # eps = 0
def test_k1_closed_form_delta(w, delta, t):
    expected = k1_delta(w, delta, t)
    assert hockey_stick_delta([w], [delta], t) == expected
    ms = [Mechanism(exp_eps=w, delta=delta)]
    for method in ALL_METHODS:
        assert composed_delta(ms, exp_eps_g=t, engine="exact", method=method).exact == expected, method
        c = composed_delta(ms, exp_eps_g=t, engine="certified", method=method)
        assert c.lower <= expected <= c.upper


@given(w=RAT_W, delta=DELTA, dg=st.fractions(F(0), F(99, 100), max_denominator=100))
@example(w=F(2), delta=F(0), dg=F(0))  # eps_g = ln 2 exactly (t* = w)
@example(w=F(2), delta=F(0), dg=F(1, 6))  # tau = 1/6: t* = 2 - 1/2 = 3/2
@example(w=F(3), delta=F(1, 5), dg=F(1, 10))  # dg < delta: infinite
@example(w=F(3), delta=F(1, 5), dg=F(1, 5))  # dg = delta: t* = w = 3
def test_k1_closed_form_optcomp(w, delta, dg):
    ms = [Mechanism(exp_eps=w, delta=delta)]
    r = optcomp(ms, dg, engine="exact")
    if dg < delta:
        assert r.infinite
        return
    # least t >= 1 with max(w - t, 0) <= tau (1 + w), tau = 1 - (1 - dg)/(1 - delta)
    tau = 1 - (1 - dg) / (1 - delta)
    expected = max(F(1), w - tau * (1 + w))
    assert r.exp_exact == expected
    if expected == 1:
        assert r.exact == 0
    for method in ALL_METHODS:
        assert optcomp(ms, dg, engine="exact", method=method).exp_exact == expected, method


@given(eps=EPS, delta=DELTA, eg=st.fractions(F(0), F(3), max_denominator=10))
@example(eps=F(1, 10), delta=F(0), eg=F(0))  # (e^0.1 - 1)/(e^0.1 + 1) = tanh(0.05)
@example(eps=F(1, 2), delta=F(1, 10), eg=F(1, 2))  # eps_g = eps: delta_g = delta
def test_k1_closed_form_transcendental(eps, delta, eg):
    ms = [Mechanism(eps=eps, delta=delta)]
    r = composed_delta(ms, eps_g=eg)
    with mpmath.workprec(300):
        w, t = mp_exp(eps), mp_exp(eg)
        d = mpmath.mpf(delta.numerator) / delta.denominator
        v = mpf_to_fraction(1 - (1 - d) * (1 - max(w - t, 0) / (1 + w)))
    tol = F(1, 10 ** 70)
    assert r.lower - tol <= v <= r.upper + tol
    # rigorous: the closed form increases in w and decreases in t
    wl, wh = exp_bracket(eps, 150)
    tl, th = exp_bracket(eg, 150)
    assert r.lower <= k1_delta(wh, delta, tl) and k1_delta(wl, delta, th) <= r.upper
    if eg >= eps:
        assert r.lower <= delta <= r.upper


# --------------------------------------------------------------------------
# infinite OptComp; delta_g = 1 - prod(1 - delta_i); delta_g = 0


@given(ws=st.lists(RAT_W, min_size=1, max_size=5), deltas=st.lists(st.fractions(F(1, 100), F(1, 2), max_denominator=100), min_size=5, max_size=5),
       s=st.fractions(F(0), F(1), max_denominator=20))
@example(ws=[F(2), F(3)], deltas=[F(1, 10)] * 5, s=F(1, 20))
def test_delta_g_below_one_minus_P_is_infinite(ws, deltas, s):
    deltas = deltas[: len(ws)]
    floor = 1 - prod(1 - d for d in deltas)
    dg = floor * (1 - s) if s else floor * F(999, 1000)
    ms = [Mechanism(exp_eps=w, delta=d) for w, d in zip(ws, deltas)]
    for engine in ("exact", "certified", "float"):
        r = optcomp(ms, dg, engine=engine)
        assert r.infinite and r.lower == r.upper == math.inf, engine
    # at delta_g = 1 - P the answer is finite: eps_g = sum eps_i, t* = prod w_i
    r = optcomp(ms, floor, engine="exact")
    assert not r.infinite and r.exp_exact == prod(ws)
    c = optcomp(ms, floor, engine="certified")
    assert c.exp_exact == prod(ws)
    a, b = exp_outer(c.lower, c.upper)
    assert a <= prod(ws) <= b


@given(eps=st.lists(EPS, min_size=1, max_size=6), deltas=st.lists(DELTA, min_size=6, max_size=6))
@example(eps=[F(1, 10)] * 3, deltas=[F(0)] * 6)  # delta_g = 0: eps_g = 3/10
@example(eps=[F(1, 2), F(0), F(1)], deltas=[F(1, 10), F(0), F(1, 3), F(0), F(0), F(0)])
def test_delta_g_one_minus_P_gives_sum_of_eps_exactly(eps, deltas):
    deltas = deltas[: len(eps)]
    floor = 1 - prod(1 - d for d in deltas)
    ms = [Mechanism(eps=e, delta=d) for e, d in zip(eps, deltas)]
    r = optcomp(ms, floor)
    assert not r.infinite
    assert r.exact == sum(eps, F(0)) and r.lower == r.upper == r.exact
    assert r.guarantee == "exact"


@pytest.mark.parametrize("eps", [[F(1, 10)], [F(1, 10)] * 4, [F(1, 2), F(1, 3), F(2)], [F(0), F(1)]])
def test_delta_g_zero(eps):
    # pure DP: delta_g = 0 needs t >= W (the subset S = [k] gives W - t), so eps_g = sum eps_i
    ms = [Mechanism(eps=e) for e in eps]
    r = optcomp(ms, 0)
    assert r.exact == sum(eps, F(0)) and not r.infinite
    # exp_eps given: t* = prod w_i exactly
    ws = [F(3, 2), F(2)][: len(eps)] + [F(5, 4)] * (len(eps) - 2)
    assert optcomp([Mechanism(exp_eps=w) for w in ws], 0, engine="exact").exp_exact == prod(ws)
    # any delta_i > 0 makes delta_g = 0 unreachable
    ms2 = [Mechanism(eps=e, delta=F(1, 10 ** 9)) for e in eps]
    assert optcomp(ms2, 0).infinite


# --------------------------------------------------------------------------
# eps = 0 mechanisms


@given(k=st.integers(1, 6), deltas=st.lists(DELTA, min_size=6, max_size=6), t=T_FREE)
@example(k=2, deltas=[F(1, 3), F(0)] + [F(0)] * 4, t=F(1))
@example(k=1, deltas=[F(0)] * 6, t=F(1))
def test_eps_zero_mechanisms(k, deltas, t):
    deltas = deltas[:k]
    floor = 1 - prod(1 - d for d in deltas)
    # w = 1: every term W_S - t W_notS = 1 - t <= 0, so delta_g = 1 - P at every t
    assert hockey_stick_delta([F(1)] * k, deltas, t) == floor
    for ms in ([Mechanism(eps=0, delta=d) for d in deltas], [Mechanism(exp_eps=1, delta=d) for d in deltas]):
        for method in ALL_METHODS:
            r = composed_delta(ms, exp_eps_g=t, method=method)
            assert r.exact == floor, method
            c = composed_delta(ms, exp_eps_g=t, engine="certified", method=method)
            assert c.lower <= floor <= c.upper
        o = optcomp(ms, floor)
        assert o.exact == 0 and not o.infinite
        if floor < F(99, 100):
            assert optcomp(ms, (1 + floor) / 2).exact == 0


@pytest.mark.parametrize("ws", [[F(1), F(2)], [F(1), F(1), F(3, 2)], [F(2), F(1), F(2)]])
def test_some_eps_zero_mechanisms_match_hockey_stick(ws):
    ms = [Mechanism(exp_eps=w, delta=F(1, 10)) for w in ws]
    for t in (F(1), F(3, 2), F(2), F(4)):
        ref = hockey_stick_delta(ws, [F(1, 10)] * len(ws), t)
        for method in ["auto", "lattice", "grouped", "mitm", "brute"]:
            assert composed_delta(ms, exp_eps_g=t, engine="exact", method=method).exact == ref, (t, method)


# --------------------------------------------------------------------------
# large delta_g: eps_g = 0; eps_g >= sum eps_i: delta_g = 1 - P


@given(ws=st.lists(RAT_W, min_size=1, max_size=5), deltas=st.lists(DELTA, min_size=5, max_size=5),
       s=st.fractions(F(0), F(1), max_denominator=20))
@example(ws=[F(2)], deltas=[F(0)] * 5, s=F(1, 2))
def test_large_delta_g_gives_eps_zero(ws, deltas, s):
    deltas = deltas[: len(ws)]
    d1 = hockey_stick_delta(ws, deltas, F(1))  # delta_g at eps_g = 0
    dg = d1 + (1 - d1) * s
    if dg >= 1:
        return
    ms = [Mechanism(exp_eps=w, delta=d) for w, d in zip(ws, deltas)]
    r = optcomp(ms, dg, engine="exact")
    assert r.exact == 0 and r.exp_exact == 1 and r.lower == r.upper == 0
    if s > 0:  # strictly above the boundary (the boundary itself: test_certified_optcomp_at_eps_zero_boundary)
        c = optcomp(ms, dg, engine="certified")
        assert c.lower == c.upper == 0


@pytest.mark.parametrize(
    "ws, dg",
    [
        ([F(2)], F(1, 3)),  # delta_g(eps_g = 0) = (2 - 1)/3 = 1/3
        ([F(2), F(2)], F(1, 3)),  # S(1) = (4 - 1) = 3, Z = 9: 1/3
        ([F(3), F(3, 2)], F(1, 2)),  # S(1) = (9/2 - 1) + (3 - 3/2) = 5, Z = 10: 1/2 (dyadic tau: control)
    ],
)
def test_certified_optcomp_at_eps_zero_boundary(ws, dg):
    """delta_g equal to delta_g(eps_g = 0): OptComp is exactly 0 (t* = 1).

    The certified engine must return an enclosure of 0 here; the tie
    S(1) = tau Z cannot be decided by comparing balls when tau is not dyadic.
    """
    assert hockey_stick_delta(ws, [F(0)] * len(ws), F(1)) == dg
    ms = [Mechanism(exp_eps=w) for w in ws]
    assert optcomp(ms, dg, engine="exact").exp_exact == 1
    c = optcomp(ms, dg, engine="certified")
    assert c.lower <= 0 <= c.upper


@given(eps=st.lists(EPS, min_size=1, max_size=5), deltas=st.lists(DELTA, min_size=5, max_size=5),
       extra=st.fractions(F(0), F(2), max_denominator=10))
@example(eps=[F(1, 10), F(1, 5)], deltas=[F(0)] * 5, extra=F(0))  # eps_g = 3/10 exactly: 0
def test_eps_g_at_least_sum_gives_one_minus_P(eps, deltas, extra):
    deltas = deltas[: len(eps)]
    floor = 1 - prod(1 - d for d in deltas)
    ms = [Mechanism(eps=e, delta=d) for e, d in zip(eps, deltas)]
    eg = sum(eps, F(0)) + extra
    r = composed_delta(ms, eps_g=eg)
    assert r.lower <= floor <= r.upper
    assert r.upper - r.lower <= F(1, 10 ** 30) * max(floor, F(1, 10 ** 300))
    ws = [2 ** (i % 3) * F(5, 4) for i in range(len(eps))]  # rational w_i, t >= W
    ms2 = [Mechanism(exp_eps=w, delta=d) for w, d in zip(ws, deltas)]
    assert composed_delta(ms2, exp_eps_g=prod(ws) * (1 + extra), engine="exact").exact == floor


# --------------------------------------------------------------------------
# lattice detection: perfect powers vs incommensurable values


@pytest.mark.parametrize(
    "ws, base, a",
    [
        ([F(2), F(4), F(8)], F(2), [1, 2, 3]),
        ([F(64), F(8), F(4)], F(2), [6, 3, 2]),
        ([F(4), F(16)], F(4), [1, 2]),  # gcd of exponents 2, 4 is 2: base 2^2
        ([F(9, 4), F(27, 8), F(1)], F(3, 2), [2, 3, 0]),
        ([F(8), F(8)], F(8), [1, 1]),
    ],
)
def test_perfect_powers_are_a_lattice(ws, base, a):
    u, aa = detect_lattice([Mechanism(exp_eps=w).w for w in ws])
    assert u.exact() == base and list(aa) == a
    ms = [Mechanism(exp_eps=w, delta=F(1, 20)) for w in ws]
    for t in (F(1), F(2), F(3), prod(ws)):
        r = composed_delta(ms, exp_eps_g=t, engine="exact", method="lattice")
        assert r.method == "lattice"
        assert r.exact == hockey_stick_delta(ws, [F(1, 20)] * len(ws), t)


@pytest.mark.parametrize("ws", [[F(2), F(3)], [F(12), F(18)], [F(4), F(6)], [F(3, 2), F(2)], [F(2), F(4), F(5)]])
def test_incommensurable_values_are_not_a_lattice(ws):
    assert detect_lattice([Mechanism(exp_eps=w).w for w in ws]) is None
    ms = [Mechanism(exp_eps=w) for w in ws]
    with pytest.raises(InvalidArgument) as ei:
        composed_delta(ms, exp_eps_g=2, engine="exact", method="lattice")
    assert ei.value.parameter == "method"
    r = composed_delta(ms, exp_eps_g=2, engine="exact")
    assert r.method != "lattice"
    assert r.exact == hockey_stick_delta(ws, [F(0)] * len(ws), F(2))


def test_rational_eps_share_a_lattice():
    # eps = 1/10 and 1/4: u = e^{1/20}, a = (2, 5)
    u, a = detect_lattice([Mechanism(eps=F(1, 10)).w, Mechanism(eps=F(1, 4)).w, Mechanism(eps=0).w])
    assert u.log_exact() == F(1, 20) and list(a) == [2, 5, 0]


# --------------------------------------------------------------------------
# k = 2000 homogeneous


K_HUGE = 2000
W_HUGE = F(101, 100)


@pytest.mark.parametrize("i", [0, 900, 960, 999, 1000])
def test_huge_k_homogeneous_kov_exact_and_certified(i):
    """KOV Theorem 3.3 at eps_g = (k - 2i) eps, k = 2000: exact lattice == formula,
    certified homogeneous encloses it."""
    ms = [Mechanism(exp_eps=W_HUGE, delta=F(1, 10 ** 7))] * K_HUGE
    t = W_HUGE ** (K_HUGE - 2 * i)
    expected = kov_delta_g(K_HUGE, W_HUGE, F(1, 10 ** 7), i)
    ex = composed_delta(ms, exp_eps_g=t, engine="exact", method="lattice")
    assert ex.exact == expected
    c = composed_delta(ms, exp_eps_g=t, engine="certified", method="homogeneous")
    assert c.lower <= expected <= c.upper


@pytest.mark.parametrize("dg", [F(1, 10 ** 6), F(1, 10), F(1, 3), F(1, 10 ** 20)])
def test_huge_k_optcomp_certified_vs_exact(dg):
    ms = [Mechanism(exp_eps=W_HUGE)] * K_HUGE
    ex = optcomp(ms, dg, engine="exact", method="lattice")
    ts = ex.exp_exact
    at = composed_delta(ms, exp_eps_g=ts, engine="exact", method="lattice").exact
    if ts > 1:
        assert at == dg
        assert kov_delta_g(K_HUGE, W_HUGE, F(0), K_HUGE // 2) > dg  # delta_g(eps_g = 0) > delta_g
    else:  # delta_g(eps_g = 0) ~ 0.17 < 1/3 for this composition
        assert at <= dg and ex.exact == 0
    c = optcomp(ms, dg, engine="certified", method="homogeneous")
    a, b = exp_outer(c.lower, c.upper)
    assert a <= ts <= b


def test_huge_k_transcendental_eps():
    """eps = 1/100, k = 2000, eps_g = 1/2: certified homogeneous and grouped overlap and
    lie within the exact values at rational brackets of e^{1/100} and e^{1/2}."""
    ms = [Mechanism(eps=F(1, 100))] * K_HUGE
    h = composed_delta(ms, eps_g=F(1, 2), method="homogeneous")
    g = composed_delta(ms, eps_g=F(1, 2), method="grouped")
    assert max(h.lower, g.lower) <= min(h.upper, g.upper)
    wl, wh = exp_bracket(F(1, 100), 140)
    tl, th = exp_bracket(F(1, 2), 140)
    lo = composed_delta([Mechanism(exp_eps=wl)] * K_HUGE, exp_eps_g=th, engine="exact").exact
    hi = composed_delta([Mechanism(exp_eps=wh)] * K_HUGE, exp_eps_g=tl, engine="exact").exact
    assert h.lower <= hi and lo <= h.upper
    assert hi - lo < F(1, 10 ** 30)


# --------------------------------------------------------------------------
# 7. parsing and bad input


def test_floats_convert_exactly():
    m = Mechanism(eps=0.1, delta=1e-6)
    assert m.eps == F(0.1) and m.eps != F(1, 10)
    assert m.delta == F(1e-6) and m.delta != F(1, 10 ** 6)
    assert Mechanism(exp_eps=1.1).exp_eps == F(1.1)
    # the float 0.5 is exactly 1/2, so results agree with the rational input
    a = composed_delta([Mechanism(exp_eps=1.5)] * 2, exp_eps_g=1.25)
    b = composed_delta([Mechanism(exp_eps=F(3, 2))] * 2, exp_eps_g=F(5, 4))
    assert a.exact == b.exact
    # eps_g = 0.1 (float) is not 1/10: the two results differ
    c1 = composed_delta([Mechanism(exp_eps=2)] * 3, eps_g=0.1)
    c2 = composed_delta([Mechanism(exp_eps=2)] * 3, eps_g="0.1")
    assert c1.upper < c2.lower or c2.upper < c1.lower  # 0.1 > 1/10 as floats go, delta decreases


@given(x=st.floats(min_value=0, max_value=1e6, allow_nan=False, allow_infinity=False))
@example(x=0.1)
@example(x=5e-324)
def test_any_float_eps_is_exact(x):
    assert Mechanism(eps=x).eps == F(x)
    assert Mechanism(eps=x).w.log_exact() == F(x)


@given(d=st.decimals(min_value=0, max_value=Decimal("0.999999"), allow_nan=False, allow_infinity=False, places=12))
@example(d=Decimal("0.1"))
@example(d=Decimal("1E-6"))
def test_decimal_strings_and_decimals_exact(d):
    assert Mechanism(eps=str(d), delta=str(d)).delta == F(d)
    assert Mechanism(eps=d, delta=d).eps == F(d)


@pytest.mark.parametrize(
    "text, value",
    [("0.1", F(1, 10)), ("1e-6", F(1, 10 ** 6)), ("1/3", F(1, 3)), (" 2.50 ", F(5, 2)), ("3E2", F(300)), ("0", F(0))],
)
def test_strings_parse_exactly(text, value):
    assert Mechanism(eps=text).eps == value


@pytest.mark.parametrize(
    "kwargs, parameter",
    [
        (dict(eps=float("nan")), "eps"),
        (dict(eps=float("inf")), "eps"),
        (dict(eps="nan"), "eps"),
        (dict(eps="-inf"), "eps"),
        (dict(eps=-0.5), "eps"),
        (dict(eps="-1/10"), "eps"),
        (dict(eps=True), "eps"),
        (dict(eps="0.1.2"), "eps"),
        (dict(eps=""), "eps"),
        (dict(eps="1/0"), "eps"),
        (dict(eps=1, delta=1), "delta"),
        (dict(eps=1, delta=-0.1), "delta"),
        (dict(eps=1, delta=1.5), "delta"),
        (dict(eps=1, delta=float("nan")), "delta"),
        (dict(exp_eps=0.5), "exp_eps"),
        (dict(exp_eps="1/2"), "exp_eps"),
        (dict(exp_eps=float("inf")), "exp_eps"),
    ],
)
def test_bad_mechanism_arguments(kwargs, parameter):
    with pytest.raises(InvalidArgument) as ei:
        Mechanism(**kwargs)
    assert ei.value.parameter == parameter
    assert isinstance(ei.value, ValueError)
    assert parameter in str(ei.value) and "found" in str(ei.value)


def test_bad_mechanisms_lists():
    with pytest.raises(InvalidArgument) as ei:
        mechanisms(eps=[])
    assert ei.value.parameter == "eps"
    with pytest.raises(InvalidArgument) as ei:
        mechanisms(exp_eps=[2, "1/2"])
    assert ei.value.parameter == "exp_eps[1]"
    with pytest.raises(InvalidArgument) as ei:
        mechanisms(eps=[1, 2], delta=[0, 0, 0])
    assert ei.value.parameter == "delta"
    with pytest.raises(InvalidArgument) as ei:
        mechanisms(eps=[1], k=0)
    assert ei.value.parameter == "k"
    with pytest.raises(InvalidArgument) as ei:
        Mechanism(eps=1, exp_eps=2)
    with pytest.raises(InvalidArgument) as ei:
        composed_delta([], eps_g=0)
    assert ei.value.parameter == "mechanisms"
    with pytest.raises(InvalidArgument) as ei:
        optcomp([], 0)
    assert ei.value.parameter == "mechanisms"


M2 = [Mechanism(exp_eps=2)] * 2


@pytest.mark.parametrize(
    "call, parameter",
    [
        (lambda: composed_delta(M2, eps_g=1, engine="fast"), "engine"),
        (lambda: optcomp(M2, 0, engine="exactly"), "engine"),
        (lambda: composed_delta(M2, eps_g=1, method="magic"), "method"),
        (lambda: optcomp(M2, 0, method="kov"), "method"),
        (lambda: composed_delta(M2, eps_g=1, digits=0), "digits"),
        (lambda: optcomp(M2, 0, digits=0), "digits"),
        (lambda: composed_delta(M2, eps_g=1, digits=True), "digits"),
        (lambda: composed_delta(M2, eps_g=1, engine="certified", prec=2), "prec"),
        (lambda: composed_delta(M2, eps_g=-1), "eps_g"),
        (lambda: composed_delta(M2, eps_g=float("nan")), "eps_g"),
        (lambda: composed_delta(M2, exp_eps_g=F(1, 2)), "exp_eps_g"),
        (lambda: composed_delta(M2, exp_eps_g=float("inf")), "exp_eps_g"),
        (lambda: composed_delta(M2), "eps_g / exp_eps_g"),
        (lambda: composed_delta(M2, eps_g=1, exp_eps_g=2), "eps_g / exp_eps_g"),
        (lambda: optcomp(M2, 1), "delta_g"),
        (lambda: optcomp(M2, -0.1), "delta_g"),
        (lambda: optcomp(M2, float("nan")), "delta_g"),
        (lambda: optcomp(M2, "abc"), "delta_g"),
        (lambda: composed_delta([Mechanism(exp_eps=2), 3], eps_g=1), "mechanisms[1]"),
    ],
)
def test_bad_engine_arguments(call, parameter):
    with pytest.raises(InvalidArgument) as ei:
        call()
    assert ei.value.parameter == parameter


def test_exact_engine_refuses_irrational_inputs():
    ms = [Mechanism(eps=0.1)] * 3
    with pytest.raises(NotExact):
        composed_delta(ms, eps_g=0, engine="exact")
    with pytest.raises(NotExact):
        optcomp(ms, F(1, 100), engine="exact")
    # rational w but eps_g = 1/2: e^{1/2} is irrational
    with pytest.raises(NotExact):
        composed_delta(M2, eps_g=F(1, 2), engine="exact")
    # NotExact is an InvalidArgument
    with pytest.raises(InvalidArgument):
        composed_delta(ms, eps_g=0, engine="exact")


@pytest.mark.parametrize("method", ["brute", "mitm"])
def test_cost_too_high(method):
    # k = 60 distinct values: 2^60 subsets (brute), 2^30 classes per half (mitm)
    ms = [Mechanism(exp_eps=1 + F(i, 97)) for i in range(1, 61)]
    with pytest.raises(CostTooHigh) as ei:
        composed_delta(ms, exp_eps_g=2, method=method)
    assert ei.value.parameter == "method" and isinstance(ei.value, InvalidArgument)
    with pytest.raises(CostTooHigh):
        optcomp(ms, F(1, 100), method=method)
    # two values 30 times each: brute force is refused (2^60 subsets); the grouped method
    # (31^2 classes) and meet in the middle (16^2 classes per half: copies of a value are
    # one class) both answer, and agree exactly
    ms2 = [Mechanism(exp_eps=2), Mechanism(exp_eps=3)] * 30
    if method == "brute":
        with pytest.raises(CostTooHigh):
            composed_delta(ms2, exp_eps_g=2, method=method)
    else:
        assert composed_delta(ms2, exp_eps_g=2, method="mitm").exact == composed_delta(
            ms2, exp_eps_g=2, engine="exact", method="grouped").exact
    r = composed_delta(ms2, exp_eps_g=2, engine="exact", method="grouped")
    assert 0 < r.exact < 1


def test_fixed_precision_and_to_dict():
    ms = [Mechanism(exp_eps=F(3, 2), delta=F(1, 100))] * 4
    ex = composed_delta(ms, exp_eps_g=F(5, 4), engine="exact").exact
    assert ex == hockey_stick_delta([F(3, 2)] * 4, [F(1, 100)] * 4, F(5, 4))
    c = composed_delta(ms, exp_eps_g=F(5, 4), engine="certified", prec=40)
    assert c.prec == 40 and c.lower <= ex <= c.upper
    d = composed_delta(ms, exp_eps_g=F(5, 4), engine="certified").to_dict(digits=12)
    assert F(Decimal(d["delta_g"]["lower"])) <= ex <= F(Decimal(d["delta_g"]["upper"]))


# --------------------------------------------------------------------------
# roots and computable exp-space inputs


def test_root_and_computable_inputs():
    # Root(4, 2) is exactly 2: the exact engine accepts it and matches exp_eps = 2
    r = composed_delta([Mechanism(w=Root(F(4), 2))] * 2, exp_eps_g=2, engine="exact")
    assert r.exact == F(2, 9)
    # sqrt(3) twice at t = 2: S(2) = 3 - 2 = 1, Z = (1 + sqrt 3)^2 = 4 + 2 sqrt 3
    c = composed_delta([Mechanism(w=Root(F(3), 2))] * 2, exp_eps_g=2, engine="certified")
    with mpmath.workprec(300):
        v = mpf_to_fraction(1 / (4 + 2 * mpmath.sqrt(3)))
    assert c.lower - F(1, 10 ** 80) <= v <= c.upper + F(1, 10 ** 80)
    # t known only by enclosures, equal to 3/2, to 4 (= W, a kink) and to 1 (a kink)
    ws, deltas = [F(2), F(2)], [F(1, 10), F(0)]
    ms = [Mechanism(exp_eps=w, delta=d) for w, d in zip(ws, deltas)]
    for fn, q in [
        (lambda p: arb(3) / 2, F(3, 2)),
        (lambda p: arb(2).sqrt() ** 4, F(4)),
        (lambda p: arb(2).sqrt() ** 2 / 2, F(1)),
    ]:
        ref = hockey_stick_delta(ws, deltas, q)
        for method in ALL_METHODS:
            c = composed_delta(ms, exp_eps_g=Computable(fn, str(q)), engine="certified", method=method)
            assert c.lower <= ref <= c.upper, (q, method)


@pytest.mark.parametrize(
    "factors, sign",
    [
        ([(Root(F(2), 2), 2), (RatExp.from_exp(F(2)), -1)], 0),  # sqrt(2)^2 / 2 = 1
        ([(Root(F(8), 3), 1), (RatExp.from_exp(F(2)), -1)], 0),  # 8^(1/3) / 2 = 1
        ([(Root(F(9, 4), 2), 2), (RatExp.from_exp(F(9, 4)), -1)], 0),
        ([(Root(F(9), 2), 1), (RatExp.from_exp(F(3)), -1), (Root(F(2), 1), 1)], 1),  # 3 * 2 / 3 = 2
        ([(Root(F(2), 2), 2), (RatExp.from_exp(F(201, 100)), -1)], -1),
    ],
)
def test_log_sign_roots_against_rationals(factors, sign):
    """A rational ``RatExp(q)`` is the root ``Root(q, 1)``: products mixing roots and
    rationals have an exactly decidable sign (compare L-th powers of rationals)."""
    assert log_sign_of_product(factors) == sign


def test_root_mechanisms_at_t_equal_W_give_zero():
    """sqrt(2) twice at t = 2 = W: the only candidate term W - t is exactly 0, so
    delta_g = 0. The sign of sqrt(2)^2 / 2 must be decided exactly (it is 0);
    otherwise the enclosure of max(0, 0) never reaches relative accuracy."""
    c = composed_delta([Mechanism(w=Root(F(2), 2))] * 2, exp_eps_g=2, engine="certified")
    assert c.lower <= 0 <= c.upper


# --------------------------------------------------------------------------
# exhaustive small grid (bounded by default; EXACTDP_SLOW=full enlarges it)


def _grid():
    import itertools
    import os

    full = os.environ.get("EXACTDP_SLOW", "").lower() == "full"
    values = [F(1), F(3, 2), F(2), F(3)] + ([F(4), F(5, 2)] if full else [])
    max_k = 4 if full else 3
    for k in range(1, max_k + 1):
        for ws in itertools.combinations_with_replacement(values, k):
            for deltas in ([F(0)] * k, [F(1, 10)] * k, [F(0)] * (k - 1) + [F(1, 3)]):
                yield list(ws), deltas


@pytest.mark.slow
def test_exhaustive_grid_delta_and_optcomp():
    """Every multiset of k <= 3 values from {1, 3/2, 2, 3} (k <= 4 and two more values
    with EXACTDP_SLOW=full), three delta patterns, every kink t = W_S^2/W and the
    midpoints between kinks: every method equals the hockey-stick reference, and
    OptComp at delta_g(t) returns the least such t exactly."""
    from exactdp_proofs._reference import breakpoints

    for ws, deltas in _grid():
        ms = [Mechanism(exp_eps=w, delta=d) for w, d in zip(ws, deltas)]
        kinks = breakpoints(ws)
        ts = kinks + [(a + b) / 2 for a, b in zip(kinks, kinks[1:])]
        methods = ["grouped", "mitm", "brute"] + (["homogeneous"] if len(set(ws)) == 1 else [])
        for t in ts:
            ref = hockey_stick_delta(ws, deltas, t)
            for method in methods:
                assert composed_delta(ms, exp_eps_g=t, engine="exact", method=method).exact == ref, (ws, deltas, t, method)
            if ref < 1:
                r = optcomp(ms, ref, engine="exact", method="grouped")
                ts_ = r.exp_exact
                assert ts_ <= t and hockey_stick_delta(ws, deltas, ts_) <= ref
                if ts_ > 1:
                    assert hockey_stick_delta(ws, deltas, ts_) == ref
                    assert hockey_stick_delta(ws, deltas, max(F(1), ts_ - F(1, 10 ** 9))) > ref
