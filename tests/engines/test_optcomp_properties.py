"""Property-based cross-checks of the OptComp core against independent references.

Every expected value is computed here from first principles (``exactdp_proofs._reference``:
hockey-stick divergence of the randomized responses over ``{0,1,2,3}^k``,
Kairouz-Oh-Viswanath Theorem 3.3, Taylor brackets of ``e^x``, prime
factorisations), never taken from the code under test.

1. Murtagh-Vadhan Theorem 1.5 by brute force == ``composed_delta`` exact, every method.
2. KOV Theorem 3.3 (homogeneous) == exact engine, homogeneous and heterogeneous paths.
3. Certified enclosures contain exact values; float agrees; transcendental e^eps
   (eps = 1/10 ...) agrees across methods, with mpmath and with rigorous rational
   sandwiches (monotonicity in every w_i and in t).
4. OptComp inverts composed_delta exactly (exact) and rigorously (certified).
5. Monotonicity in eps_i, delta_i, eps_g and delta_g.
8. ``fraction_to_decimal`` directed rounding and ``arb_bounds``.
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

import mpmath
import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st

from exactdp import Mechanism, composed_delta, optcomp
from exactdp._backend import arb, workprec
from exactdp.engines import Lattice, detect_lattice
from exactdp.errors import InvalidArgument
from exactdp.numbers import arb_bounds, fraction_to_decimal
from exactdp_proofs._reference import (
    breakpoints,
    commensurable,
    exp_bracket,
    exp_outer,
    hockey_stick_delta,
    hockey_stick_mp,
    kov_delta_g,
    subset_formula_delta,
)

F = Fraction

# --------------------------------------------------------------------------
# strategies

#: rational e^eps in [1, 4] with small denominators (w = 1 is eps = 0)
RAT_W = st.builds(lambda q, p: F(q + p, q), st.integers(1, 5), st.integers(0, 15))
DELTA = st.one_of(st.just(F(0)), st.fractions(F(0), F(1, 2), max_denominator=12))
LATTICE_BASES = [F(2), F(3), F(3, 2), F(5, 4), F(4, 3)]


@st.composite
def compositions(draw, max_k: int = 5):
    """``(ws, deltas)``: free rationals, a lattice ``b^a_i`` or k equal values."""
    k = draw(st.integers(1, max_k))
    kind = draw(st.sampled_from(["free", "lattice", "homogeneous"]))
    if kind == "free":
        ws = draw(st.lists(RAT_W, min_size=k, max_size=k))
    elif kind == "lattice":
        b = draw(st.sampled_from(LATTICE_BASES))
        ws = [b ** a for a in draw(st.lists(st.integers(0, 3), min_size=k, max_size=k))]
    else:
        ws = [draw(RAT_W)] * k
    if draw(st.booleans()):
        deltas = [F(0)] * k
    else:
        deltas = draw(st.lists(DELTA, min_size=k, max_size=k))
    return ws, deltas


def prod(xs):
    p = F(1)
    for x in xs:
        p *= x
    return p


@st.composite
def t_values(draw, ws):
    """``t = e^{eps_g} >= 1``: 1, W, a kink ``W_S^2/W`` of S(t), or any rational."""
    W = prod(ws)
    choice = draw(st.sampled_from(["one", "W", "kink", "free"]))
    if choice == "one":
        return F(1)
    if choice == "W":
        return W
    if choice == "kink":
        return draw(st.sampled_from(breakpoints(ws)))
    return 1 + draw(st.fractions(F(0), F(math.ceil(W)), max_denominator=30))


@st.composite
def cases(draw, max_k: int = 5):
    ws, deltas = draw(compositions(max_k))
    return ws, deltas, draw(t_values(ws))


def mechs(ws, deltas):
    return [Mechanism(exp_eps=w, delta=d) for w, d in zip(ws, deltas)]


def applicable_methods(ws):
    """Methods that must accept ``ws``, decided independently of the core."""
    out = ["auto", "grouped", "mitm", "brute"]
    # mechanisms with e^eps = 1 leave the kernel (they scale S and Z alike): homogeneous
    # applies when the other values are equal
    if len(set(ws)) == 1 or len(set(w for w in ws if w != 1)) == 1:
        out.append("homogeneous")
    if commensurable(ws):
        out.append("lattice")
    return out


def P_of(deltas):
    return prod(1 - d for d in deltas)


def round_out(lo: Fraction, hi: Fraction, bits: int = 140) -> tuple[Fraction, Fraction]:
    """Dyadic ``lo' <= lo``, ``hi' >= hi`` (keeps reference sums small)."""
    s = 2 ** bits
    return F((lo.numerator * s) // lo.denominator, s), F(-((-hi.numerator * s) // hi.denominator), s)


# --------------------------------------------------------------------------
# 1. Theorem 1.5 by brute force over {0,1,2,3}^k


@given(case=cases())
@example(case=([F(2), F(2)], [F(0), F(0)], F(2)))  # (4 - 2*1)/(1+2)^2 = 2/9
@example(case=([F(2), F(4), F(8)], [F(0), F(1, 10), F(0)], F(8)))  # between the kinks W_S^2/W = 4 and 16 (W = 64)
@example(case=([F(1), F(1)], [F(1, 3), F(0)], F(1)))  # eps = 0: delta_g = 1 - P = 1/3
@example(case=([F(2), F(3)], [F(0), F(0)], F(6)))  # t = W: delta_g = 0
@example(case=([F(3, 2), F(3, 2), F(9, 4), F(1), F(27, 8)], [F(1, 12)] * 5, F(1)))
def test_theorem_1_5_every_method_equals_hockey_stick(case):
    ws, deltas, t = case
    ref = hockey_stick_delta(ws, deltas, t)
    ms = mechs(ws, deltas)
    for method in applicable_methods(ws):
        r = composed_delta(ms, exp_eps_g=t, engine="exact", method=method)
        assert r.exact == ref, (method, r)
        assert r.lower == r.upper == ref
        assert r.guarantee == "exact" and r.engine == "exact"
        if method != "auto":
            assert r.method == method
    if "homogeneous" not in applicable_methods(ws):
        with pytest.raises(InvalidArgument) as ei:
            composed_delta(ms, exp_eps_g=t, engine="exact", method="homogeneous")
        assert ei.value.parameter == "method"
    if not commensurable(ws):
        with pytest.raises(InvalidArgument) as ei:
            composed_delta(ms, exp_eps_g=t, engine="exact", method="lattice")
        assert ei.value.parameter == "method"


@given(case=cases(max_k=5))
@example(case=([F(2), F(3), F(5, 4)], [F(1, 7), F(0), F(1, 3)], F(3, 2)))
def test_subset_formula_is_the_hockey_stick(case):
    """Theorem 1.5 itself: the closed form over 2^k subsets equals the
    hockey-stick divergence of the randomized responses (k <= 5)."""
    ws, deltas, t = case
    assert subset_formula_delta(ws, deltas, t) == hockey_stick_delta(ws, deltas, t)


@given(case=cases(max_k=12))
@example(case=([F(2), F(3), F(5), F(7), F(11), F(13), F(17)], [F(0)] * 7, F(6)))
@example(case=([F(3, 2)] * 6 + [F(9, 4)] * 5, [F(1, 10)] * 11, F(81, 16)))
def test_larger_k_every_method_equals_subset_formula(case):
    """k up to 12 (MITM halves of up to 6 elements; brute over 4096 subsets)."""
    ws, deltas, t = case
    ref = subset_formula_delta(ws, deltas, t)
    ms = mechs(ws, deltas)
    for method in applicable_methods(ws):
        assert composed_delta(ms, exp_eps_g=t, engine="exact", method=method).exact == ref, method
    c = composed_delta(ms, exp_eps_g=t, engine="certified", method="mitm")
    assert c.lower <= ref <= c.upper


@given(comp=compositions())
@example(comp=([F(2), F(4), F(8)], [F(0)] * 3))
@example(comp=([F(2), F(3)], [F(0)] * 2))
@example(comp=([F(64), F(8), F(4), F(1)], [F(0)] * 4))
@example(comp=([F(12), F(18)], [F(0)] * 2))
def test_detect_lattice_agrees_with_factorisation(comp):
    ws, _ = comp
    lat = detect_lattice([Mechanism(exp_eps=w).w for w in ws])
    assert (lat is not None) == commensurable(ws)
    if lat is not None:
        u, a = lat
        uq = u.exact()
        assert uq is not None and uq >= 1
        assert [uq ** ai for ai in a] == ws
        # count polynomial prod (1 + z^a_i), computed by a plain subset-sum count
        counts = [0] * (sum(a) + 1)
        for mask in range(1 << len(a)):
            counts[sum(ai for i, ai in enumerate(a) if mask >> i & 1)] += 1
        assert Lattice.from_exponents(u, a).coeffs == counts


# --------------------------------------------------------------------------
# 2. Kairouz-Oh-Viswanath Theorem 3.3


@given(k=st.integers(1, 12), w=RAT_W, delta=DELTA)
@example(k=1, w=F(2), delta=F(0))
@example(k=2, w=F(2), delta=F(0))  # i = 1: eps_g = 0, delta_1 = (4 - 1)/9 = 1/3
@example(k=12, w=F(3), delta=F(1, 12))
@example(k=7, w=F(1), delta=F(1, 2))  # eps = 0: delta_i = 0 for every i
def test_kov_theorem_3_3_homogeneous_equals_heterogeneous(k, w, delta):
    ms = [Mechanism(exp_eps=w, delta=delta)] * k
    methods = ["homogeneous", "lattice", "grouped", "mitm"] + (["brute"] if k <= 8 else [])
    for i in range(k // 2 + 1):
        t = w ** (k - 2 * i)
        expected = kov_delta_g(k, w, delta, i)
        for method in methods:
            r = composed_delta(ms, exp_eps_g=t, engine="exact", method=method)
            assert r.exact == expected, (i, method)


# --------------------------------------------------------------------------
# 3. certified and float engines against exact values


@given(case=cases())
@example(case=([F(2), F(2)], [F(0), F(0)], F(4)))  # delta_g = 0 exactly
@example(case=([F(3), F(3, 2)], [F(1, 3), F(0)], F(9, 2)))  # t = W: 1 - P
def test_certified_encloses_exact_and_float_agrees(case):
    ws, deltas, t = case
    ref = hockey_stick_delta(ws, deltas, t)
    ms = mechs(ws, deltas)
    for method in applicable_methods(ws):
        c = composed_delta(ms, exp_eps_g=t, engine="certified", method=method)
        assert c.lower <= ref <= c.upper, method
        assert c.guarantee in ("enclosure", "exact")
        assert c.upper - c.lower <= c.upper * F(1, 10 ** 30)
        f = composed_delta(ms, exp_eps_g=t, engine="float", method=method)
        assert f.guarantee == "approximate"
        # 112-bit float engine: relative error far below 1e-25 (a true 0 may come
        # out as a rounding residue ~2^-112: there only an absolute bound makes sense)
        tol = F(1, 10 ** 25) * ref if ref else F(1, 2 ** 100)
        assert abs(f.lower - ref) <= tol, (method, float(f.lower), float(ref))


@pytest.mark.parametrize(
    "ws, t",
    [
        ([F(2)] * 5, 32 * (1 - F(1, 10 ** 20))),  # delta_g ~ 1.3e-21 just below t = W
        ([F(3, 2)] * 4, F(81, 16) - F(1, 10 ** 12)),  # delta_g ~ 1e-13
    ],
)
def test_float_engine_relative_accuracy_for_small_delta(ws, t):
    """digits=30 asks the float engine for ~30 significant digits (112 bits).
    For a tiny delta_g the value must not come from the cancellation
    1 - P(1 - S/Z), which leaves only ~15 correct digits at 1e-21."""
    deltas = [F(0)] * len(ws)
    ref = hockey_stick_delta(ws, deltas, t)
    assert 0 < ref < F(1, 10 ** 12)
    f = composed_delta(mechs(ws, deltas), exp_eps_g=t, engine="float", digits=30)
    assert abs(f.lower - ref) <= F(1, 10 ** 25) * ref, float(abs(f.lower - ref) / ref)


EPS_SET = [F(0), F(1, 10), F(1, 5), F(1, 4), F(1, 2), F(1), F(3, 2)]


@st.composite
def eps_cases(draw, max_k: int = 4):
    """Rational eps_i (so e^eps_i is transcendental unless 0) and a rational eps_g."""
    k = draw(st.integers(1, max_k))
    eps = draw(st.lists(st.sampled_from(EPS_SET), min_size=k, max_size=k))
    deltas = draw(st.one_of(st.just([F(0)] * k), st.lists(DELTA, min_size=k, max_size=k)))
    kind = draw(st.sampled_from(["zero", "sum", "kink", "free"]))
    total = sum(eps, F(0))
    if kind == "zero":
        eg = F(0)
    elif kind == "sum":
        eg = total
    elif kind == "kink":  # eps_S - eps_notS: a term W_S - t W_notS is exactly 0
        signs = draw(st.lists(st.sampled_from([1, -1]), min_size=k, max_size=k))
        eg = abs(sum((s * e for s, e in zip(signs, eps)), F(0)))
    else:
        eg = draw(st.fractions(F(0), total + 1, max_denominator=20))
    return eps, deltas, eg


def eps_methods(eps):
    out = ["auto", "lattice", "grouped", "mitm", "brute"]  # rational eps always share a lattice
    if len(set(eps)) == 1:
        out.append("homogeneous")
    return out


def bracket_delta(eps, deltas, eg, bits=140):
    """Rigorous ``lo <= delta_g <= hi``: exact brute force at rational brackets of
    every e^eps_i and of e^eps_g (delta_g increases in each w_i, decreases in t)."""
    wl, wh = [], []
    for e in eps:
        lo, hi = round_out(*exp_bracket(e, bits), bits)
        wl.append(lo)
        wh.append(hi)
    tl, th = round_out(*exp_bracket(eg, bits), bits)
    return hockey_stick_delta(wl, deltas, th), hockey_stick_delta(wh, deltas, tl)


@given(case=eps_cases())
@example(case=([F(1, 10)] * 2, [F(0)] * 2, F(0)))  # ~0.0499167 (docstring)
@example(case=([F(1, 10), F(1, 5)], [F(0), F(0)], F(1, 10)))  # kink: eps_2 - eps_1 = eps_g
@example(case=([F(1, 2), F(0), F(1, 2)], [F(1, 10), F(0), F(0)], F(1)))  # eps_g = sum: 1 - P
@example(case=([F(1), F(1, 4), F(3, 2), F(1, 10)], [F(1, 12)] * 4, F(7, 20)))
def test_certified_transcendental_agrees_across_methods_and_with_references(case):
    eps, deltas, eg = case
    ms = [Mechanism(eps=e, delta=d) for e, d in zip(eps, deltas)]
    results = {}
    for method in eps_methods(eps):
        r = composed_delta(ms, eps_g=eg, engine="auto", method=method)
        if any(eps) or eg:
            assert r.engine == "certified"
        assert r.lower <= r.upper
        results[method] = r
    lo = max(r.lower for r in results.values())
    hi = min(r.upper for r in results.values())
    assert lo <= hi, {m: (float(r.lower), float(r.upper)) for m, r in results.items()}
    # rigorous rational sandwich (independent of the core)
    ref_lo, ref_hi = bracket_delta(eps, deltas, eg)
    for m, r in results.items():
        assert r.lower <= ref_hi and ref_lo <= r.upper, m
    # mpmath at 300 bits of the brute-force formula
    v = hockey_stick_mp(eps, deltas, lambda: mpmath.exp(mpmath.mpf(eg.numerator) / eg.denominator))
    tol = abs(v) * F(1, 10 ** 60) + F(1, 10 ** 80)
    for m, r in results.items():
        assert r.lower - tol <= v <= r.upper + tol, m


@given(case=eps_cases(max_k=10))
@example(case=([F(1, 10), F(1, 5), F(1, 4), F(1, 2), F(1), F(3, 2), F(1, 10), F(1, 5)], [F(0)] * 8, F(1, 20)))
@example(case=([F(1, 10)] * 5 + [F(1, 5)] * 5, [F(1, 12)] * 10, F(3, 10)))  # kink: 2 * (3/10 + 6/10) - 3/2 = 3/10
def test_certified_transcendental_larger_k_mitm(case):
    """Rational eps_i, k up to 10: MITM (exact integer keys), lattice, grouped and
    brute enclosures overlap and meet the rigorous sandwich of the 2^k-subset formula."""
    eps, deltas, eg = case
    ms = [Mechanism(eps=e, delta=d) for e, d in zip(eps, deltas)]
    results = {m: composed_delta(ms, eps_g=eg, method=m) for m in ("mitm", "lattice", "grouped", "brute")}
    assert max(r.lower for r in results.values()) <= min(r.upper for r in results.values())
    bits = 140
    wl, wh = [], []
    for e in eps:
        lo, hi = round_out(*exp_bracket(e, bits), bits)
        wl.append(lo)
        wh.append(hi)
    tl, th = round_out(*exp_bracket(eg, bits), bits)
    ref_lo = subset_formula_delta(wl, deltas, th)
    ref_hi = subset_formula_delta(wh, deltas, tl)
    for m, r in results.items():
        assert r.lower <= ref_hi and ref_lo <= r.upper, m


# --------------------------------------------------------------------------
# 4. OptComp inverts composed_delta


@st.composite
def optcomp_cases(draw, max_k: int = 5):
    ws, deltas = draw(compositions(max_k))
    if draw(st.booleans()):
        t0 = draw(t_values(ws))
        dg = hockey_stick_delta(ws, deltas, t0)
        assume(dg < 1)
    else:
        t0 = None
        dg = draw(st.fractions(F(0), F(99, 100), max_denominator=200))
    return ws, deltas, dg, t0


@given(case=optcomp_cases())
@example(case=([F(2), F(2)], [F(0), F(0)], F(2, 9), F(2)))  # docstring: t* = 2
@example(case=([F(3)], [F(1, 10)], F(1, 20), None))  # infinite: 1/20 < 1 - 9/10
@example(case=([F(2), F(3)], [F(0), F(0)], F(0), None))  # delta_g = 0: t* = W = 6
@example(case=([F(2), F(4)], [F(1, 10), F(0)], F(1, 10), None))  # delta_g = 1 - P: t* = 8
def test_optcomp_exact_inverts_composed_delta(case):
    ws, deltas, dg, t0 = case
    ms = mechs(ws, deltas)
    r = optcomp(ms, dg, engine="exact")
    if dg < 1 - P_of(deltas):
        assert r.infinite and r.lower == r.upper == float("inf")
        return
    assert not r.infinite and r.guarantee == "exact"
    ts = r.exp_exact
    assert ts is not None and ts >= 1
    if t0 is not None:
        assert ts <= t0
    at = hockey_stick_delta(ws, deltas, ts)
    assert at <= dg
    if ts > 1:
        assert composed_delta(ms, exp_eps_g=ts, engine="exact").exact == dg
        assert at == dg
        smaller = max(F(1), ts * (1 - F(1, 10 ** 6)))
        assert composed_delta(ms, exp_eps_g=smaller, engine="exact").exact > dg
        assert hockey_stick_delta(ws, deltas, smaller) > dg
    else:
        assert r.exact == 0 and r.lower == r.upper == 0
    # [lower, upper] encloses ln t*
    a, b = exp_outer(r.lower, r.upper)
    assert a <= ts <= b
    # the certified engine encloses the same eps_g and its ends bracket delta_g
    c = optcomp(ms, dg, engine="certified")
    assert not c.infinite and c.guarantee in ("enclosure", "exact")
    a, b = exp_outer(c.lower, c.upper)
    assert a <= ts <= b
    if c.lower > 0:
        assert hockey_stick_delta(ws, deltas, a) >= dg
    assert hockey_stick_delta(ws, deltas, b) <= dg
    # float: approximate, close to ln t*
    f = optcomp(ms, dg, engine="float")
    assert not f.infinite
    assert r.lower - F(1, 10 ** 25) * (1 + r.upper) <= f.lower <= r.upper + F(1, 10 ** 25) * (1 + r.upper)


@given(case=eps_cases(max_k=4), dg=st.fractions(F(0), F(9, 10), max_denominator=100))
@example(case=([F(1, 10)] * 3, [F(0)] * 3, F(0)), dg=F(1, 100))
@example(case=([F(1, 10), F(1, 2)], [F(1, 10), F(0)], F(0)), dg=F(1, 10))  # 1 - P: eps_g = 3/5
def test_optcomp_certified_transcendental_brackets(case, dg):
    eps, deltas, _ = case
    ms = [Mechanism(eps=e, delta=d) for e, d in zip(eps, deltas)]
    r = optcomp(ms, dg, engine="certified")
    P = P_of(deltas)
    if dg < 1 - P:
        assert r.infinite
        return
    assert not r.infinite and 0 <= r.lower <= r.upper
    assert r.upper - r.lower <= F(1, 10 ** 25) * max(r.upper, F(1))
    if dg == 1 - P:  # tau = 0: eps_g = sum eps_i exactly
        assert r.exact == sum(eps, F(0))
    # OptComp increases in every w_i: exact OptComp at rational brackets of e^eps_i
    bits = 140
    wl = [round_out(*exp_bracket(e, bits), bits)[0] for e in eps]
    wh = [round_out(*exp_bracket(e, bits), bits)[1] for e in eps]
    t_lo = optcomp(mechs(wl, deltas), dg, engine="exact").exp_exact
    t_hi = optcomp(mechs(wh, deltas), dg, engine="exact").exp_exact
    a, b = exp_outer(r.lower, r.upper)
    assert a <= t_hi and t_lo <= b
    # delta_g at the ends of the enclosure (mpmath, 300 bits)
    with mpmath.workprec(300):
        lo_t = mpmath.exp(mpmath.mpf(r.lower.numerator) / r.lower.denominator)
        hi_t = mpmath.exp(mpmath.mpf(r.upper.numerator) / r.upper.denominator)
    tol = F(1, 10 ** 60)
    if r.lower > 0:
        assert hockey_stick_mp(eps, deltas, lo_t) >= dg - tol
    assert hockey_stick_mp(eps, deltas, hi_t) <= dg + tol
    for method in eps_methods(eps):
        m = optcomp(ms, dg, engine="certified", method=method)
        assert max(m.lower, r.lower) <= min(m.upper, r.upper), method


# --------------------------------------------------------------------------
# 5. monotonicity


@given(case=cases(max_k=5), i=st.integers(0, 4), f=st.fractions(F(1), F(3), max_denominator=8),
       s=st.fractions(F(0), F(9, 10), max_denominator=10))
@example(case=([F(2), F(2)], [F(0), F(0)], F(2)), i=0, f=F(3, 2), s=F(1, 2))
def test_delta_monotone(case, i, f, s):
    ws, deltas, t = case
    i = i % len(ws)
    base = composed_delta(mechs(ws, deltas), exp_eps_g=t, engine="exact").exact
    ws2 = list(ws)
    ws2[i] = ws[i] * f
    up_eps = composed_delta(mechs(ws2, deltas), exp_eps_g=t, engine="exact").exact
    assert up_eps >= base
    d2 = list(deltas)
    d2[i] = deltas[i] + (1 - deltas[i]) * s
    up_delta = composed_delta(mechs(ws, d2), exp_eps_g=t, engine="exact").exact
    assert up_delta >= base
    down_t = composed_delta(mechs(ws, deltas), exp_eps_g=t * f, engine="exact").exact
    assert down_t <= base
    # the brute-force reference agrees on the direction (and the values)
    assert hockey_stick_delta(ws2, deltas, t) == up_eps


@given(comp=compositions(max_k=5), i=st.integers(0, 4), f=st.fractions(F(1), F(3), max_denominator=8),
       d1=st.fractions(F(0), F(99, 100), max_denominator=100), d2=st.fractions(F(0), F(99, 100), max_denominator=100))
@example(comp=([F(2), F(2)], [F(0), F(0)]), i=1, f=F(2), d1=F(2, 9), d2=F(0))
def test_optcomp_monotone(comp, i, f, d1, d2):
    ws, deltas = comp
    i = i % len(ws)
    lo_d, hi_d = min(d1, d2), max(d1, d2)

    def tstar(ws_, dg):
        r = optcomp(mechs(ws_, deltas), dg, engine="exact")
        return float("inf") if r.infinite else r.exp_exact

    ws2 = list(ws)
    ws2[i] = ws[i] * f
    assert tstar(ws2, lo_d) >= tstar(ws, lo_d)
    assert tstar(ws, hi_d) <= tstar(ws, lo_d)


# --------------------------------------------------------------------------
# 8. decimal formatting and ball endpoints


def _sig_digits(s: str) -> int:
    digits = s.lstrip("-").split("e")[0].replace(".", "").lstrip("0")
    return len(digits)


@given(x=st.one_of(st.fractions(), st.fractions(max_denominator=10 ** 40),
                   st.builds(lambda m, e: F(m) * F(10) ** e, st.integers(-10 ** 12, 10 ** 12), st.integers(-60, 60))),
       digits=st.integers(1, 40))
@example(x=F(1, 3), digits=5)
@example(x=F(-2, 3), digits=3)
@example(x=F(999999, 10 ** 6), digits=3)  # rounds up across a power of ten
@example(x=F(1, 8), digits=30)  # exact decimal 0.125 printed exactly
@example(x=F(10) ** 50, digits=2)
@example(x=F(0), digits=1)
def test_fraction_to_decimal_directed_rounding(x, digits):
    down = fraction_to_decimal(x, digits, "down")
    up = fraction_to_decimal(x, digits, "up")
    vd, vu = F(Decimal(down)), F(Decimal(up))
    assert vd <= x <= vu
    if x == 0:
        assert down == up == "0"
        return
    # x has a terminating decimal expansion with at most `digits` significant digits
    a = abs(x)
    den = a.denominator
    for p in (2, 5):
        while den % p == 0:
            den //= p
    if den == 1:
        m = a
        n = 0
        while m.denominator != 1:
            m *= 10
        num = int(m)
        while num % 10 == 0:
            num //= 10
        n = len(str(num))
        if n <= digits:
            assert vd == vu == x, (down, up)
            return
    # rounded: both ends keep at least `digits` significant digits and lie within
    # one unit of the last digit of x
    assert _sig_digits(down) >= digits and _sig_digits(up) >= digits, (down, up)
    e = len(str(a.numerator)) - len(str(a.denominator))
    if F(10) ** e > a:
        e -= 1
    ulp = F(10) ** (e - digits + 1)
    assert vu - vd <= ulp
    assert vd < x < vu


def _arf_value(b) -> Fraction:
    """Exact value of an exactly representable ball (a midpoint or a radius)."""
    m, e = b.man_exp()
    m, e = int(m), int(e)
    return F(m * 2 ** e) if e >= 0 else F(m, 2 ** -e)


@given(num=st.integers(-10 ** 30, 10 ** 30), den=st.integers(1, 10 ** 30), prec=st.integers(8, 300))
@example(num=1, den=3, prec=53)
@example(num=1, den=33, prec=54)
@example(num=0, den=1, prec=8)
def test_arb_bounds_encloses(num, den, prec):
    q = F(num, den)
    with workprec(prec):
        x = arb(num) / den
        lo, hi = arb_bounds(x)
    assert lo <= q <= hi
    mid, rad = _arf_value(x.mid()), _arf_value(x.rad())
    assert lo <= mid - rad and mid + rad <= hi
    # outward rounding of the endpoints costs at most one unit in the last place each
    assert hi - lo <= 2 * rad + F(2) ** (2 - prec) * (abs(mid) + rad)
    if rad == 0:
        assert lo == hi == mid == q


def test_arb_bounds_exact_endpoints_whatever_the_context_precision():
    """``arb_bounds`` promises the ball's *exact* endpoints. A 300-bit ball read
    while the context precision is 53 bits must still give mid -/+ rad, not
    endpoints rounded outward to 53 bits."""
    with workprec(300):
        x = arb(1) / 3
    mid, rad = _arf_value(x.mid()), _arf_value(x.rad())
    with workprec(53):
        lo, hi = arb_bounds(x)
    assert lo <= F(1, 3) <= hi
    assert (lo, hi) == (mid - rad, mid + rad), (float(hi - lo), float(2 * rad))
