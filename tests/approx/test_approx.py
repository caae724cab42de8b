"""Murtagh-Vadhan Section 5 (exactdp.approx) against independent computations.

Expected values come from first principles in this file (subset enumeration
for Lemma 5.1, the exact OptComp of rational ``e^eps`` by walking the
breakpoints of S(t), Taylor brackets of ``e^x`` from ``exactdp_proofs._reference``)
or from a second algorithm of the core (``optcomp(method="brute")``), never
from the code under test.

1. Lemma 5.1 table == subset enumeration (exact, every cell); the Arb row form
   encloses the exact value.
2. Lemma 5.2 decision == comparison with the exact OptComp.
3. Lemma 5.3 on random instances and shifts (exact in exp-space; rigorous
   enclosures in eps-space).
4. Theorem 1.7: the guarantee for variants up / completion, both forms equal;
   the printed outputs fail it (the errata counterexamples).
5. The sandwich (eps- and exp-space) contains the true value.
6. CLI shapes and exit statuses.
"""

from __future__ import annotations

import json
import math
import os
from fractions import Fraction
from itertools import combinations

import pytest
from _cli import run
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from exactdp import Mechanism, mechanisms, optcomp
from exactdp._backend import arb, fmpq, workprec
from exactdp.approx import (
    delta_bounds,
    knapsack_arb,
    knapsack_sum,
    lattice_exponents,
    lemma52_decide,
    lemma53_bound,
    optcomp_bounds,
    theorem17,
)
from exactdp.cli import main
from exactdp.errors import CostTooHigh, InvalidArgument
from exactdp.numbers import arb_bounds
from exactdp_proofs._reference import exp_bracket, subset_formula_delta

F = Fraction
SLOW_FULL = os.environ.get("EXACTDP_SLOW", "") == "full"


# --------------------------------------------------------------------------
# independent references


def ref_subset_sum(a, B, w):
    """Lemma 5.1's sum by enumerating every subset."""
    k = len(a)
    tot = 0
    for r in range(k + 1):
        for S in combinations(range(k), r):
            if sum(a[i] for i in S) <= B:
                p = 1
                for i in S:
                    p = p * w[i]
                tot = tot + p
    return tot


def ref_tstar(ws, deltas, dg):
    """Exact ``t* = e^{OptComp}`` for rational ``ws`` (None when OptComp is infinite).

    S(t) = sum_S max(W_S - t W_notS, 0) is piecewise linear with kinks at
    W_S / W_notS; walk the kinks above 1 upwards to the first with
    S <= tau Z, then solve the linear piece.
    """
    P = F(1)
    Z = F(1)
    for w, d in zip(ws, deltas):
        P *= 1 - d
        Z *= 1 + w
    tau = 1 - (1 - F(dg)) / P
    if tau < 0:
        return None
    target = tau * Z
    k = len(ws)
    pairs = []
    for mask in range(1 << k):
        a = F(1)
        b = F(1)
        for i, w in enumerate(ws):
            if mask >> i & 1:
                a *= w
            else:
                b *= w
        pairs.append((a, b))

    def S(t):
        return sum((a - t * b for a, b in pairs if a > t * b), F(0))

    if S(F(1)) <= target:
        return F(1)
    kinks = sorted({a / b for a, b in pairs if a / b > 1})
    prev = F(1)
    for c in kinks:
        if S(c) <= target:
            act = [(a, b) for a, b in pairs if a / b >= c]
            sa = sum(a for a, _ in act)
            sb = sum(b for _, b in act)
            t = (sa - target) / sb
            assert prev <= t <= c
            return t
        prev = c
    raise AssertionError("unreachable: S(W) = 0")


def log_bounds(t: Fraction):
    with workprec(300):
        return arb_bounds(arb(fmpq(t.numerator, t.denominator)).log())


def exp_neg_half(x: Fraction):
    """Rational bracket of e^{-x/2} (Taylor, exactdp_proofs._reference)."""
    return exp_bracket(-x / 2, 200)


def brute_eps(ms, dg, digits=25):
    """OptComp by the core's brute-force kernel (a second algorithm)."""
    return optcomp(ms, dg, method="brute", digits=digits)


def upper_ref(ms, dg, eta):
    """An upper bound on OptComp(ms, e^{-eta/2} dg) (+inf when infinite), via a Taylor bracket."""
    lo, _ = exp_neg_half(eta)
    r = optcomp(ms, lo * dg, method="brute", digits=25)
    return math.inf if r.infinite else r.upper


# --------------------------------------------------------------------------
# strategies

RAT_W = st.builds(lambda q, p: F(q + p, q), st.integers(1, 4), st.integers(0, 12))
DELTA = st.one_of(st.just(F(0)), st.sampled_from([F(1, 100), F(1, 20), F(1, 10)]))
DG = st.one_of(st.just(F(0)), st.fractions(F(0), F(99, 100), max_denominator=100))
EPS = st.fractions(F(0), F(3), max_denominator=40)


# --------------------------------------------------------------------------
# 1. Lemma 5.1


@given(st.lists(st.tuples(st.integers(0, 5), RAT_W), min_size=0, max_size=7), st.integers(0, 14))
@example([(0, F(2)), (3, F(3, 2))], 0)
def test_knapsack_table_equals_subset_enumeration(items, B):
    a = [x for x, _ in items]
    w = [y for _, y in items]
    val, rows = knapsack_sum(a, B, w, table=True)
    assert val == ref_subset_sum(a, B, w)
    # every cell F(r, s) is the sum over subsets of the first r items
    for r in range(len(a) + 1):
        for s in range(B + 1):
            assert rows[r][s] == ref_subset_sum(a[:r], s, w[:r])


@given(st.lists(st.tuples(st.integers(0, 6), RAT_W), min_size=1, max_size=8), st.integers(0, 20))
def test_knapsack_arb_rows_enclose_exact(items, B):
    a = [x for x, _ in items]
    w = [y for _, y in items]
    exact = ref_subset_sum(a, B, w)
    with workprec(80):
        v = knapsack_arb(a, B, [arb(fmpq(x.numerator, x.denominator)) for x in w])
        lo, hi = arb_bounds(v)
    assert lo <= exact <= hi
    assert hi - lo <= exact * F(1, 2**60)


def test_knapsack_rejects_bad_input():
    with pytest.raises(InvalidArgument, match="a\\[1\\]"):
        knapsack_sum([1, -1], 2, [2, 3])
    with pytest.raises(InvalidArgument, match="B"):
        knapsack_sum([1], -1, [2])
    with pytest.raises(InvalidArgument, match="w"):
        knapsack_sum([1, 2], 2, [2])


# --------------------------------------------------------------------------
# 2. Lemma 5.2


@given(
    st.sampled_from([F(2), F(3, 2), F(5, 4), F(3)]),
    st.lists(st.tuples(st.integers(0, 4), DELTA), min_size=1, max_size=5),
    DG,
    st.fractions(F(1), F(40), max_denominator=30),
)
def test_lemma52_exact_equals_reference(u, items, dg, t):
    a = [x for x, _ in items]
    ds = [d for _, d in items]
    ref = ref_tstar([u**x for x in a], ds, dg)
    got = lemma52_decide(a, dg, exp_base=u, exp_star=t, deltas=ds)
    assert got == (ref is not None and t >= ref)
    if ref is not None:  # at t* itself the answer is yes (the least feasible value)
        assert lemma52_decide(a, dg, exp_base=u, exp_star=ref, deltas=ds)


@given(
    st.sampled_from([F(1, 10), F(1, 4), F(1, 3)]),
    st.lists(st.tuples(st.integers(0, 5), DELTA), min_size=1, max_size=5),
    DG,
    st.fractions(F(0), F(4), max_denominator=50),
)
def test_lemma52_eps_space_agrees_with_core(e0, items, dg, es):
    a = [x for x, _ in items]
    ds = [d for _, d in items]
    ms = [Mechanism(eps=x * e0, delta=d) for x, d in items]
    r = brute_eps(ms, dg)
    got = lemma52_decide(a, dg, es, eps0=e0, deltas=ds)
    if r.infinite:
        assert got is False
    elif es >= r.upper:
        assert got is True
    elif es < r.lower:
        assert got is False
    else:  # es inside the enclosure: only an exact tie is possible
        assert r.lower == r.upper == es and got is True


def test_lemma52_tie_at_sum_of_eps():
    # delta_g = 1 - prod(1 - delta_i): OptComp = sum eps_i = 3/5 exactly
    assert lemma52_decide([1, 2], "1/10", "3/5", eps0="1/5", deltas=["1/10", 0])
    assert not lemma52_decide([1, 2], "1/10", "59/100", eps0="1/5", deltas=["1/10", 0])


# --------------------------------------------------------------------------
# 3. Lemma 5.3


@given(
    st.lists(st.tuples(RAT_W, DELTA), min_size=1, max_size=4),
    DG,
    st.sampled_from([F(1), F(3, 2), F(4, 3), F(2), F(6, 5)]),
)
def test_lemma53_exact_in_exp_space(items, dg, r):
    """OptComp(w s) <= OptComp(w, s^{-k/2} dg) + k ln s with s = r^2 (everything rational)."""
    ws = [w for w, _ in items]
    ds = [d for _, d in items]
    k = len(ws)
    s = r * r
    left = ref_tstar([w * s for w in ws], ds, dg)
    right = ref_tstar(ws, ds, dg / r**k)
    if right is None:
        return  # the bound is +inf
    assert left is not None
    assert left <= right * s**k
    # the function encloses the same bound
    lo, hi = lemma53_bound([Mechanism(exp_eps=w, delta=d) for w, d in items], delta_g=dg, exp_c=s)
    blo, bhi = log_bounds(right * s**k)
    assert lo <= bhi and blo <= hi


@settings(max_examples=15)
@given(st.lists(st.tuples(EPS, DELTA), min_size=1, max_size=4), DG, st.fractions(F(0), F(1), max_denominator=20))
def test_lemma53_eps_space(items, dg, c):
    ms = [Mechanism(eps=e, delta=d) for e, d in items]
    shifted = [Mechanism(eps=e + c, delta=d) for e, d in items]
    lo, hi = lemma53_bound(ms, c, dg)
    left = brute_eps(shifted, dg)
    if hi == math.inf:
        return
    assert not left.infinite and left.lower <= hi
    # the bound itself: OptComp at a Taylor bracket of e^{-kc/2} dg, plus kc
    k = len(ms)
    _, s_hi = exp_bracket(-k * c / 2, 200)
    ref = brute_eps(ms, min(s_hi * dg, dg))
    assert ref.lower + k * c <= hi


# --------------------------------------------------------------------------
# 4. Theorem 1.7


@settings(max_examples=25)
@given(
    st.lists(st.tuples(EPS, DELTA), min_size=1, max_size=4),
    DG,
    st.fractions(F(1, 20), F(2), max_denominator=20),
    st.sampled_from(["up", "completion"]),
)
@example([(F(1, 2), F(0))], F(0), F(1), "up")
@example([(F(299, 100), F(0))], F(1, 2), F(1), "completion")
def test_theorem17_guarantee_and_forms_agree(items, dg, eta, variant):
    ms = [Mechanism(eps=e, delta=d) for e, d in items]
    fast = theorem17(ms, dg, eta, variant=variant, digits=18)
    proof = theorem17(ms, dg, eta, variant=variant, form="proof", digits=18)
    assert fast.infinite == proof.infinite
    L = brute_eps(ms, dg)
    if fast.infinite:
        assert upper_ref(ms, dg, eta) == math.inf
        return
    assert fast.lower <= proof.upper and proof.lower <= fast.upper
    assert fast.upper - fast.lower < F(1, 10**15) * max(1, fast.upper)
    assert not L.infinite and L.lower <= fast.upper  # OptComp(dg) <= eps*
    assert fast.lower <= upper_ref(ms, dg, eta) + eta  # eps* <= OptComp(e^{-eta/2} dg) + eta
    assert fast.eps0 == eta / len(ms)


@settings(max_examples=25)
@given(
    st.lists(st.tuples(RAT_W, DELTA), min_size=1, max_size=4),
    DG,
    st.sampled_from([F(4), F(9, 4), F(25, 16), F(2)]),
    st.sampled_from(["up", "completion"]),
    st.sampled_from(["fast", "proof"]),
)
def test_theorem17_exact_guarantee_in_exp_space(items, dg, u, variant, form):
    """With u^k a perfect square every quantity is rational: the guarantee is checked exactly."""
    k = len(items)
    uk = u**k
    assume(math.isqrt(uk.numerator) ** 2 == uk.numerator and math.isqrt(uk.denominator) ** 2 == uk.denominator)
    ms = [Mechanism(exp_eps=w, delta=d) for w, d in items]
    r = theorem17(ms, dg, exp_base=u, variant=variant, form=form)
    ws = [w for w, _ in items]
    ds = [d for _, d in items]
    t_true = ref_tstar(ws, ds, dg)
    sq = F(math.isqrt(u.numerator**k), math.isqrt(u.denominator**k))
    t_up = ref_tstar(ws, ds, dg / sq)  # e^{OptComp(e^{-eta/2} dg)}, eta = k ln u
    if r.infinite:
        assert t_up is None
        return
    assert r.exp_exact is not None
    assert t_true is not None and t_true <= r.exp_exact  # OptComp(dg) <= eps*
    if t_up is not None:
        assert r.exp_exact <= t_up * u**k  # eps* <= OptComp(e^{-eta/2} dg) + eta


def test_errata_printed_output_fails_lower_inequality():
    # k = 1, eps = 1/2, eta = 1, delta_g = 0: OptComp = 1/2, the printed output rounds eps down to 0
    ms = mechanisms(eps=["1/2"])
    r = theorem17(ms, 0, 1, variant="printed")
    assert r.exact == 0 and optcomp(ms, 0).exact == F(1, 2)
    assert theorem17(ms, 0, 1, variant="up").exact == 1


def test_errata_printed_plus_eta_fails_lower_inequality():
    # k = 1, eps = 299/100, eta = 1, delta_g = 1/2: OptComp = ln((e^2.99 - 1)/2) = 2.2452...,
    # OptComp(eps' = 2) + 1 = ln((e^2 - 1)/2) + 1 = 2.1614...
    ms = mechanisms(eps=["299/100"])
    r = theorem17(ms, "1/2", 1, variant="printed+eta", digits=25)
    L = brute_eps(ms, "1/2")
    assert r.upper < L.lower
    # the same failure exactly in exp-space: w = 15/2, u = 2: t* = 13/4 > (3/2) * 2
    ms = mechanisms(exp_eps=["15/2"])
    r = theorem17(ms, "1/2", exp_base=2, variant="printed+eta")
    assert r.exp_exact == 3 and ref_tstar([F(15, 2)], [F(0)], F(1, 2)) == F(13, 4)
    # the corrected outputs satisfy the theorem on both
    for v in ("up", "completion"):
        assert theorem17(mechanisms(eps=["299/100"]), "1/2", 1, variant=v).lower >= L.upper


@settings(max_examples=15)
@given(st.lists(st.tuples(EPS, DELTA), min_size=1, max_size=4), DG, st.fractions(F(1, 10), F(2), max_denominator=10))
def test_printed_output_is_a_lower_bound(items, dg, eta):
    ms = [Mechanism(eps=e, delta=d) for e, d in items]
    r = theorem17(ms, dg, eta, variant="printed")
    L = brute_eps(ms, dg)
    if L.infinite:
        assert r.infinite
    else:
        assert r.infinite is False and r.lower <= L.upper


def test_theorem17_proof_form_counts_tables():
    ms = mechanisms(eps=["0.105"], k=10)
    r = theorem17(ms, "1e-6", "0.1", form="proof")
    # binary search over m in [0, A = 110]: ceil(log2 110) = 7 decisions + m = 0, 2 tables each, + final
    assert r.degree == 110 and 2 * 8 <= r.tables <= 2 * 10


def test_theorem17_rejects_bad_input():
    ms = mechanisms(eps=["0.1"])
    for bad in (0, "-1", "x"):
        with pytest.raises(InvalidArgument, match="eta"):
            theorem17(ms, "1e-6", bad)
    with pytest.raises(InvalidArgument, match="exp_base"):
        theorem17(ms, "1e-6", exp_base=1)
    with pytest.raises(InvalidArgument, match="variant"):
        theorem17(ms, "1e-6", 1, variant="down")
    with pytest.raises(InvalidArgument, match="form"):
        theorem17(ms, "1e-6", 1, form="slow")
    with pytest.raises(InvalidArgument, match="delta_g"):
        theorem17(ms, "1.5", 1)
    with pytest.raises(InvalidArgument, match="eta / exp_base"):
        theorem17(ms, "1e-6", 1, exp_base=2)
    with pytest.raises(CostTooHigh):
        theorem17(mechanisms(eps=[1], k=10), "1e-6", "1e-7")


def test_exploding_costs_refused_before_exact_work():
    # A = sum a_i ~ 1e300 / ln 2: the exact floor decision alone would compare 2^(1.4e300) with w
    with pytest.raises(CostTooHigh, match="use exp_base >= e\\^"):
        theorem17(mechanisms(eps=["1e300"], k=2), "1/10", exp_base=2)
    with pytest.raises(CostTooHigh, match="use eta >="):
        theorem17(mechanisms(eps=["1e300"], k=2), "1/10", "1/10")
    # k = 1000, eta = 0.001: degree 10^7 with 1000-bit coefficients (~10 GB); eta >= k^2 * 0.01 / 2e9 = 0.005 fits
    with pytest.raises(CostTooHigh, match="use eta >= 0.005"):
        theorem17(mechanisms(eps=["0.01"], k=1000), "1e-6", "0.001")
    # the proof's form at k = 1000, eta = 0.01 (about 2e10 table cells): refused, pointing to the fast form
    with pytest.raises(CostTooHigh, match="form='fast'"):
        theorem17(mechanisms(eps=["0.01"], k=1000), "1e-6", "0.01", form="proof")
    # exp-space lattice u = 1 + 1e-10: about 1e9 lattice steps for eps = 0.1
    with pytest.raises(CostTooHigh, match="exp_base >= 1 \\+"):
        theorem17(mechanisms(eps=["0.1"]), "1e-6", exp_base="1.0000000001")
    with pytest.raises(CostTooHigh, match="width"):
        optcomp_bounds(mechanisms(eps=["1e300"]), "1/10", base="exp")


# --------------------------------------------------------------------------
# discretisation


def test_lattice_exponents_exact_floors():
    assert lattice_exponents(mechanisms(eps=["0.3", "0.25", 0]), eps0="0.1") == [3, 2, 0]
    assert lattice_exponents(mechanisms(eps=["0.3", "0.25", 0]), eps0="0.1", rounding="up") == [3, 3, 0]
    # ln(11/10) = 0.09531...: irrational, decided by Arb
    assert lattice_exponents(mechanisms(exp_eps=["11/10"]), eps0="1/100") == [9]
    # exp-space: 8 = 2^3 exactly, 9 in (2^3, 2^4)
    assert lattice_exponents(mechanisms(exp_eps=[8, 9]), exp_base=2) == [3, 3]
    assert lattice_exponents(mechanisms(exp_eps=[8, 9]), exp_base=2, rounding="up") == [3, 4]


@given(RAT_W, st.sampled_from([F(1, 100), F(1, 7), F(1, 3)]))
def test_lattice_exponent_brackets_w(w, e0):
    (a,) = lattice_exponents([Mechanism(exp_eps=w)], eps0=e0)
    # u^a <= w < u^{a+1}, checked with Taylor brackets of e^{a e0}
    assert exp_bracket(a * e0)[1] <= w or a * e0 == 0
    assert exp_bracket((a + 1) * e0)[0] > w


# --------------------------------------------------------------------------
# 5. the sandwich


@settings(max_examples=15)
@given(st.lists(st.tuples(RAT_W, DELTA), min_size=1, max_size=4), DG)
def test_sandwich_exp_space_exact(items, dg):
    ms = [Mechanism(exp_eps=w, delta=d) for w, d in items]
    ref = ref_tstar([w for w, _ in items], [d for _, d in items], dg)
    b = optcomp_bounds(ms, dg, width="1e-3", base="exp")
    if ref is None:
        assert b.infinite
        return
    lo, hi = log_bounds(ref)
    assert b.lower <= hi and lo <= b.upper
    assert b.width_reached and b.upper - b.lower <= F(1, 1000)
    assert b.exact_lower is not None and b.exact_lower <= ref <= b.exact_upper  # exact rational sandwich


@settings(max_examples=10)
@given(st.lists(st.tuples(EPS, DELTA), min_size=1, max_size=4), DG)
def test_sandwich_eps_space_contains_core_value(items, dg):
    ms = [Mechanism(eps=e, delta=d) for e, d in items]
    r = brute_eps(ms, dg)
    b = optcomp_bounds(ms, dg, width="1e-3")
    assert b.infinite == r.infinite
    if not r.infinite:
        assert b.lower <= r.upper and r.lower <= b.upper and b.upper - b.lower <= F(1, 1000)


@settings(max_examples=15)
@given(st.lists(st.tuples(RAT_W, DELTA), min_size=1, max_size=4), st.fractions(F(1), F(5), max_denominator=9))
def test_delta_bounds_contain_exact(items, t):
    ws = [w for w, _ in items]
    ds = [d for _, d in items]
    ms = [Mechanism(exp_eps=w, delta=d) for w, d in items]
    ref = subset_formula_delta(ws, ds, t)
    for base in ("eps", "exp"):
        b = delta_bounds(ms, exp_eps_g=t, width="1e-4", base=base)
        assert b.lower <= ref <= b.upper and b.upper - b.lower <= F(1, 10**4)


# --------------------------------------------------------------------------
# 6. CLI


def test_cli_approx_json(capsys):
    rc, out, _ = run(["approx", "--eps", "0.105", "-k", "10", "--delta-g", "1e-6", "--eta", "0.1", "--json"], capsys)
    assert rc == 0
    d = json.loads(out)
    assert set(d) >= {"eps_star", "eta", "eps0", "k", "lattice_degree", "variant", "form", "guarantee", "optcomp"}
    assert set(d["eps_star"]) == {"exact", "lower", "upper"}
    assert d["eta"] == "1/10" and d["eps0"] == "1/100" and d["k"] == 10
    # the true OptComp (brute force) lies in the reported bounds, eps* is their upper end
    r = optcomp(mechanisms(eps=["0.105"], k=10), "1e-6", digits=25)
    assert F(d["optcomp"]["lower"]) <= r.lower and r.upper <= F(d["optcomp"]["upper"])
    assert F(d["eps_star"]["upper"]) == F(d["optcomp"]["upper"])


def test_cli_approx_width_sandwich(capsys):
    # rational e^eps: the true OptComp is exact (ref_tstar); the sandwich must hold it within the width
    rc, out, _ = run(["approx", "--exp-eps", "11/10,6/5,13/10", "--delta-g", "1/100", "--eta", "0.1", "--width", "1e-4", "--json"], capsys)
    assert rc == 0
    d = json.loads(out)["sandwich"]
    lo, hi = log_bounds(ref_tstar([F(11, 10), F(6, 5), F(13, 10)], [0, 0, 0], F(1, 100)))
    assert F(d["lower"]) <= lo and hi <= F(d["upper"])
    assert d["width_reached"] and F(d["upper"]) - F(d["lower"]) <= F(1, 10**4)


def test_cli_approx_human_and_exp_base(capsys):
    rc, out, _ = run(["approx", "--exp-eps", "2,3", "--delta-g", "1/10", "--exp-base", "2", "--form", "proof"], capsys)
    assert rc == 0 and "eps*" in out and "guarantee" in out and "proof form" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["approx", "--eps", "0.1", "--delta-g", "1e-6", "--eta", "0"],
        ["approx", "--eps", "0.1", "--delta-g", "1e-6", "--eta", "-1"],
        ["approx", "--eps", "0.1", "--delta-g", "1.5", "--eta", "0.1"],
        ["approx", "--eps", "0.1", "--delta-g", "1e-6", "--exp-base", "1"],
        ["approx", "--eps", "0.1", "--delta-g", "1e-6"],
        ["approx", "--eps", "-0.1", "--delta-g", "1e-6", "--eta", "0.1"],
        ["approx", "--eps", "0.1", "--delta-g", "1e-6", "--eta", "0.1", "--variant", "printed"],
        ["approx", "--eps", "0.1", "--delta-g", "1e-6", "--eta", "nan"],
        ["approx", "--eps", "0.1", "--delta-g", "1e-6", "--eta", "inf"],
        ["approx", "--eps", "0.1", "--delta-g", "nan", "--eta", "0.1"],
        ["approx", "--eps", "", "--delta-g", "1e-6", "--eta", "0.1"],
        ["approx", "--eps", "0.1", "--delta-g", "1e-6", "--eta", "0.1", "--width", "0"],
        ["approx", "--eps", "0.1", "-k", "100000000000", "--delta-g", "1e-6", "--eta", "0.1"],
        ["approx", "--eps", "1e300", "-k", "2", "--delta-g", "0.1", "--exp-base", "2"],
        ["approx", "--eps", "0.01", "-k", "1000", "--delta-g", "1e-6", "--eta", "0.001"],
        ["approx", "--eps", "0.1,1e-2000", "--delta-g", "0.1", "--eta", "0.1"],
        ["approx", "--eps", "0.1", "--delta-g", "0.1", "--eta", "1/1e5000"],
    ],
)
def test_cli_approx_bad_input_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as e:
        rc = main(argv)
        raise SystemExit(rc)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("exactdp: error:") and err.count("\n") == 1


# --------------------------------------------------------------------------
# slow: a wider sweep of the guarantee (bounded by default; EXACTDP_SLOW=full enlarges it)


@pytest.mark.slow
@settings(max_examples=300 if SLOW_FULL else 40)
@given(
    st.lists(st.tuples(EPS, DELTA), min_size=1, max_size=6),
    DG,
    st.fractions(F(1, 50), F(3), max_denominator=50),
)
def test_slow_theorem17_guarantee_sweep(items, dg, eta):
    ms = [Mechanism(eps=e, delta=d) for e, d in items]
    L = brute_eps(ms, dg, digits=20)
    U = upper_ref(ms, dg, eta)
    for v in ("up", "completion"):
        r = theorem17(ms, dg, eta, variant=v, digits=15)
        if r.infinite:
            assert U == math.inf
            continue
        assert L.lower <= r.upper and r.lower <= U + eta
