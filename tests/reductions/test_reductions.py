"""The #P reduction chain of Murtagh-Vadhan Section 4, checked against independent references.

Every expected value is computed here from the problem definitions (Definitions
4.5-4.8): a literal loop over the subsets of ``[k]`` with ``math.prod`` for the
counts, mpmath at 60 digits for real values, sympy minimal polynomials for the
radical zero test. None is taken from the code under test.

1. Exact radicals: zero test against sympy, identities.
2. The problems: validation (InvalidArgument), immutability, brute-force solvers
   against the literal definitions, the refusal above the size limit.
3. Each reduction alone, with a brute-force oracle: answer = brute force of its
   own problem, the number of oracle calls the proof makes, the lemma's claim
   (e.g. #T-PARTITION of W' = #PARTITION of W), the constants.
4. The printed steps that fail: Lemma 4.9 (D = 0), Lemma 4.10 (all ones:
   2^k - 2), Lemma 4.11 (z'' above z: always 0), and why.
5. The whole chain down to OptComp (certified engine) on Hypothesis instances:
   many solutions, duplicates, ones, all ones, no solution.
6. The ``exactdp reduce`` command: JSON shape, exit status 2 on bad input.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import subprocess
import sys
from fractions import Fraction

import mpmath
import pytest
import sympy
from _cli import run
from hypothesis import assume, example, given
from hypothesis import strategies as st

from exactdp import Computable, Root
from exactdp._backend import arb, workprec
from exactdp.cli import main as cli_main
from exactdp.errors import CostTooHigh, InvalidArgument, PrecisionError
from exactdp.numbers import arb_bounds, log_sign_of_product
from exactdp.reductions import (
    IntPartition,
    LazyReal,
    Partition,
    RadicalSum,
    ReductionFailure,
    SumPartition,
    TPartition,
    Trace,
    gap_value,
    optcomp_oracle,
    run_chain,
    solve_int_partition,
    solve_partition,
    solve_sum_partition,
    solve_t_partition,
)
from exactdp.reductions.steps import _locate_j, _r_computable

F = Fraction
SLOW_FULL = os.environ.get("EXACTDP_SLOW", "").lower() == "full"


# --------------------------------------------------------------------------
# independent references (literal definitions)


def subsets(k):
    """Every P subset of [k] as a tuple of 0/1 (including the empty set and [k])."""
    return itertools.product((0, 1), repeat=k)


def ref_int_partition(z):
    """Definition 4.5, literally."""
    return sum(
        1
        for s in subsets(len(z))
        if math.prod(x for x, b in zip(z, s) if b) - math.prod(x for x, b in zip(z, s) if not b) == 0
    )


mpmath.mp.dps = 60


def mp_root(n, D):
    return mpmath.mpf(n) ** (mpmath.mpf(1) / D)


def mp_radical_sum(R):
    return mpmath.fsum(mpmath.mpf(q.numerator) / q.denominator * (mpmath.mpf(a.numerator) / a.denominator) ** (mpmath.mpf(1) / n) for a, n, q in R.terms)


def ref_partition_mp(D, n):
    """Definition 4.6 with 60-digit products (distinct products differ by far more than 1e-40)."""
    k = len(n)
    cnt = 0
    for s in subsets(k):
        a = mpmath.fprod(mp_root(x, D) for x, b in zip(n, s) if b)
        b_ = mpmath.fprod(mp_root(x, D) for x, b in zip(n, s) if not b)
        cnt += abs(a - b_) < mpmath.mpf(10) ** -40
    return cnt


def ref_t_partition_mp(D, n, T):
    Tm = mp_radical_sum(T)
    cnt = 0
    for s in subsets(len(n)):
        a = mpmath.fprod(mp_root(x, D) for x, b in zip(n, s) if b)
        b_ = mpmath.fprod(mp_root(x, D) for x, b in zip(n, s) if not b)
        cnt += abs(a - b_ - Tm) < mpmath.mpf(10) ** -40
    return cnt


def ref_sum_partition_mp(D, n, r_mp):
    tot = mpmath.mpf(0)
    for s in subsets(len(n)):
        a = mpmath.fprod(mp_root(x, D) for x, b in zip(n, s) if b)
        b_ = mpmath.fprod(mp_root(x, D) for x, b in zip(n, s) if not b)
        tot += max(a - r_mp * b_, 0)
    return tot


def least_D(N, c, m=2):
    """Least D >= 1 with N <= c^(D/m) (independent loop)."""
    D = 1
    while Fraction(N) ** m > Fraction(c) ** D:
        D += 1
    return D


# --------------------------------------------------------------------------
# strategies

SMALL = st.integers(1, 12)


@st.composite
def int_partition_instances(draw, max_half=4):
    """Z with many solutions (mirrored halves), duplicates, ones, all ones, or generic."""
    kind = draw(st.sampled_from(["mirrored", "duplicates", "with_ones", "all_ones", "generic"]))
    if kind == "mirrored":
        h = draw(st.lists(SMALL, min_size=1, max_size=max_half))
        return h + draw(st.permutations(h))
    if kind == "duplicates":
        return [draw(st.integers(2, 6))] * draw(st.integers(2, 8))
    if kind == "with_ones":
        h = draw(st.lists(SMALL, min_size=1, max_size=max_half))
        return draw(st.permutations(h + [1] * draw(st.integers(1, 3)) + h))
    if kind == "all_ones":
        return [1] * draw(st.integers(1, 7))
    return draw(st.lists(SMALL, min_size=1, max_size=2 * max_half))


@st.composite
def root_lists(draw, max_k=6):
    """(D, n) with n_i^(1/D) in [1, e]: n_i <= floor(e^D)."""
    D = draw(st.integers(1, 5))
    top = math.floor(math.e ** D)
    n = draw(st.lists(st.integers(1, min(top, 30)), min_size=1, max_size=max_k))
    return D, n


def bf_count_oracle(calls):
    def oracle(inst):
        calls.append(inst)
        return inst.count_brute_force()

    return oracle


def bf_sum_oracle(calls):
    def oracle(S):
        calls.append(S)
        return LazyReal(S.brute_force)

    return oracle


# --------------------------------------------------------------------------
# 1. exact radicals


@st.composite
def radical_sums(draw):
    terms = draw(
        st.lists(
            st.tuples(st.integers(-3, 3), st.sampled_from([1, 2, 3, 4, 8, 9, 12, 18, 27]), st.sampled_from([1, 2, 3, 4, 6])),
            min_size=1,
            max_size=3,
        )
    )
    return terms


@given(radical_sums())
@example([(1, 8, 6), (-1, 2, 2)])  # 8^(1/6) = 2^(1/2)
@example([(1, 12, 2), (-2, 3, 2)])  # sqrt(12) = 2 sqrt(3)
@example([(1, 4, 4), (-1, 2, 2)])
def test_radical_zero_test_agrees_with_sympy(terms):
    R = RadicalSum([(q, a, n) for q, a, n in terms])
    expr = sum(sympy.Integer(q) * sympy.Integer(a) ** sympy.Rational(1, n) for q, a, n in terms)
    x = sympy.Symbol("x")
    is_zero_sympy = sympy.minimal_polynomial(expr, x) == x if expr != 0 else True
    assert R.is_zero() == is_zero_sympy
    if not is_zero_sympy:
        v = sympy.N(expr, 50)
        assert R.sign() == (1 if v > 0 else -1)


def test_radical_identities():
    # Lemma 4.10's T with Z a square: T = gap(Z^(3/2)) for the product N = Z^2 (hand derivation:
    # g(Z^(3/2)) = Z^(3/(2D)) - (Z^2 / Z^(3/2))^(1/D) = Z^(3/(2D)) - Z^(1/(2D)) = sqrt(Z^(1/D)) (Z^(1/D) - 1))
    for Z, D in [(36, 11), (4, 4), (144, 15), (9, 7)]:
        w = RadicalSum.radical(Z, D)
        T = RadicalSum.radical(Z, 2 * D) * (w - 1)
        r = math.isqrt(Z)
        assert T == gap_value(F(r ** 3), Z * Z, D)
        assert T != gap_value(F(r ** 3 + 1), Z * Z, D)
        assert T < gap_value(F(r ** 3 + 1), Z * Z, D)
    assert RadicalSum.radical(2, 2) * RadicalSum.radical(2, 2) == 2
    assert RadicalSum.radical(F(1, 4), 2) == F(1, 2)
    assert (RadicalSum.radical(2, 3) - RadicalSum.radical(3, 3)).sign() == -1
    with pytest.raises(InvalidArgument):
        RadicalSum.radical(0, 2)
    with pytest.raises(InvalidArgument):
        RadicalSum.radical(2, 0)
    with pytest.raises(AttributeError):
        RadicalSum.radical(2, 2)._terms = ()


# --------------------------------------------------------------------------
# 2. the problems


@given(int_partition_instances())
@example([2, 3, 6])
@example([1])
@example([2, 3, 5])
def test_int_partition_brute_force_is_the_definition(z):
    assert IntPartition(z).count_brute_force() == ref_int_partition(z)


@given(root_lists())
def test_partition_brute_force_is_the_definition(Dn):
    D, n = Dn
    assert Partition(D, n).count_brute_force() == ref_partition_mp(D, n)


@given(root_lists(max_k=5), st.data())
def test_t_partition_brute_force_is_the_definition(Dn, data):
    D, n = Dn
    N = math.prod(n)
    k = len(n)
    mask = data.draw(st.lists(st.booleans(), min_size=k, max_size=k))
    a = math.prod(x for x, b in zip(n, mask) if b)
    a = max(a, N // a)
    assume(a * a > N)
    T = gap_value(F(a), N, D) if data.draw(st.booleans()) else RadicalSum.rational(F(data.draw(st.integers(1, 40)), 20))
    inst = TPartition(D, n, T)
    assert inst.count_brute_force() == ref_t_partition_mp(D, n, T)


@given(root_lists(max_k=5), st.fractions(F(21, 20), F(5), max_denominator=20))
def test_sum_partition_brute_force_is_the_definition(Dn, r):
    D, n = Dn
    S = SumPartition(D, n, r)
    ref = ref_sum_partition_mp(D, n, mpmath.mpf(r.numerator) / r.denominator)
    with workprec(200):
        lo, hi = arb_bounds(S.brute_force(200))
    assert mpmath.mpf(lo.numerator) / lo.denominator - mpmath.mpf(10) ** -40 <= ref
    assert ref <= mpmath.mpf(hi.numerator) / hi.denominator + mpmath.mpf(10) ** -40


@pytest.mark.parametrize(
    "make",
    [
        lambda: IntPartition([]),
        lambda: IntPartition([0, 2]),
        lambda: IntPartition([-3]),
        lambda: IntPartition([1.5]),
        lambda: IntPartition(["x"]),
        lambda: IntPartition([True]),
        lambda: IntPartition("23"),
        lambda: Partition(0, [2]),
        lambda: Partition(1, [3]),  # 3 > e
        lambda: Partition(2, [8]),  # sqrt(8) = 2.83 > e
        lambda: Partition(2, []),
        lambda: TPartition(2, [2, 3], 0),
        lambda: TPartition(2, [2, 3], RadicalSum.radical(2, 2) - RadicalSum.radical(3, 2)),
        lambda: SumPartition(2, [2, 3], 1),
        lambda: SumPartition(2, [2, 3], F(1, 2)),
        lambda: SumPartition(2, [2, 3], Root(1, 3)),
    ],
)
def test_bad_instances_raise_invalid_argument(make):
    with pytest.raises(InvalidArgument):
        make()


def test_instances_are_immutable_and_accept_exact_values():
    z = IntPartition([2, F(3), "6"])
    assert z.z == (2, 3, 6)
    with pytest.raises(AttributeError):
        z.n = (1,)
    assert Partition(2, [7]).w == (Root(7, 2),)  # sqrt(7) = 2.6458 <= e
    with pytest.raises(AttributeError):
        Partition(2, [7]).D = 3


def test_brute_force_refused_above_the_limit_with_an_estimate():
    with pytest.raises(CostTooHigh, match="estimated"):
        IntPartition([1] * 23).count_brute_force()
    with pytest.raises(CostTooHigh):
        IntPartition([2] * 6).count_brute_force(limit=5)
    # the Arb-per-subset problems stop earlier (T: 20, SUM: 18), with their own estimate
    with pytest.raises(CostTooHigh, match="2\\^21"):
        TPartition(1, [1] * 21, 1).count_brute_force()
    with pytest.raises(CostTooHigh, match="2\\^19"):
        SumPartition(1, [1] * 19, 2).brute_force(64)
    with pytest.raises(InvalidArgument, match="limit"):
        IntPartition([2]).count_brute_force(limit=-1)


def test_equal_n_share_one_root_object():
    # the engine groups equal w_i through dict lookups; one shared object settles them by
    # identity (Root.__eq__ would compare n^D' with n'^D: ~10^6 digits here)
    W = Partition(4000, [10**300, 10**300, 3])
    ws = W.w
    assert ws[0] is ws[1] and (ws[0].n, ws[0].D) == (10**300, 4000) and (ws[2].n, ws[2].D) == (3, 4000)


def test_chain_on_huge_integers_runs_and_is_bounded():
    # prod z_i of 3988 bits: under MAX_PRODUCT_BITS; C(2, 1) * 2 = 4 partitions (either 10^300 with either 3)
    z = [10**600, 10**600, 3, 3]
    assert run_chain(z, check=False).count == ref_int_partition(z) == 4
    with pytest.raises(InvalidArgument, match="2\\^4096"):
        run_chain([10**700, 10**700])


# --------------------------------------------------------------------------
# 3. each reduction alone, with a brute-force oracle


@given(int_partition_instances(), st.sampled_from([F(2), F(3, 2), F(5, 4), F(7)]))
def test_lemma_4_9_one_call_and_product_bound(z, c):
    calls = []
    inst = IntPartition(z)
    ans = solve_int_partition(inst, bf_count_oracle(calls), c=Root(c, 2))
    assert ans == ref_int_partition(z)
    assert len(calls) == 1
    W = calls[0]
    Z = math.prod(z)
    assert W.D == least_D(Z, c)  # D = max(1, ceil(log_sqrt(c) prod z))
    assert W.n == tuple(z)
    assert W.count_brute_force() == ref_int_partition(z)  # the lemma's claim


@st.composite
def partition_instances(draw, c=F(2)):
    z = draw(int_partition_instances(max_half=3))
    return Partition(least_D(math.prod(z), c), z)


@given(partition_instances())
@example(Partition(1, [1, 1, 1]))
def test_lemma_4_10_one_call_and_the_claim(W):
    calls = []
    ans = solve_partition(W, bf_count_oracle(calls), c=2)
    ref = ref_partition_mp(W.D, W.n)
    assert ans == ref
    if all(x == 1 for x in W.n):
        assert calls == [] and ans == 2 ** W.k
        return
    assert len(calls) == 1
    Wp = calls[0]
    N = math.prod(W.n)
    assert Wp.n == W.n + (N,) and Wp.D == W.D
    assert Fraction(N) ** 2 <= Fraction(2) ** W.D  # prod of W' = N^(2/D) <= c
    # T = sqrt(w_{k+1}) (w_{k+1} - 1), checked in mpmath
    wk1 = mp_root(N, W.D)
    assert abs(mp_radical_sum(Wp.T) - mpmath.sqrt(wk1) * (wk1 - 1)) < mpmath.mpf(10) ** -50
    assert ref_t_partition_mp(Wp.D, Wp.n, Wp.T) == ref  # the lemma's claim


def test_lemma_4_10_refuses_products_above_sqrt_c():
    with pytest.raises(InvalidArgument):
        solve_partition(Partition(2, [2, 3]), lambda W: 0, c=2)  # 6^(1/2) > 2^(1/2)


@st.composite
def t_partition_instances(draw):
    D, n = draw(root_lists(max_k=6))
    N = math.prod(n)
    kind = draw(st.sampled_from(["attained", "integer", "rational"]))
    if kind == "attained":
        mask = draw(st.lists(st.booleans(), min_size=len(n), max_size=len(n)))
        a = math.prod(x for x, b in zip(n, mask) if b)
        a = max(a, N // a)
        assume(a * a > N)
        T = gap_value(F(a), N, D)
    elif kind == "integer":
        a = draw(st.integers(math.isqrt(N) + 1, N + 3))
        T = gap_value(F(a), N, D)
    else:
        T = RadicalSum.rational(F(draw(st.integers(1, 60)), 20))
    return TPartition(D, n, T)


@given(t_partition_instances())
@example(TPartition(2, [2, 3, 6], RadicalSum.radical(3, 2)))
@example(TPartition(1, [2, 2, 2, 2], gap_value(F(8), 16, 1)))  # 8 - 2 = 6, four solutions
def test_lemma_4_11_four_calls_equals_brute_force(inst):
    calls = []
    ans = solve_t_partition(inst, bf_sum_oracle(calls))
    assert ans == ref_t_partition_mp(inst.D, inst.n, inst.T)
    assert len(calls) == 4
    assert all(S.n == inst.n and S.D == inst.D for S in calls)


@given(t_partition_instances())
def test_lemma_4_11_threshold_r_z(inst):
    """W_P - r_z W_notP >= 0  iff  gap(P) >= z, for z = T: decided exactly both ways."""
    D, n, T = inst.D, inst.n, inst.T
    N = math.prod(n)
    jf, jex, _ = _locate_j(T, N, D)
    assume(jex)  # r_T is the Root (j^2/N)^(1/D) exactly
    r = Root(F(jf * jf, N), D)
    # the paper's formula encloses the same number
    with workprec(300):
        assert _r_computable(T, N, D, "r").arb(300).overlaps(r.arb(300))
    for s in subsets(len(n)):
        a = math.prod(x for x, b in zip(n, s) if b)
        lhs = log_sign_of_product([(Root(a, D), 1), (Root(N // a, D), -1), (r, -1)]) >= 0
        rhs = gap_value(F(a), N, D) >= T
        assert lhs == rhs


@given(root_lists(max_k=6), st.sampled_from(["root", "rational", "computable"]), st.integers(2, 30))
def test_theorem_1_6_one_optcomp_call(Dn, kind, rr):
    D, n = Dn
    # every w_i = 1 (eps_i = 0) crashes the core engine: the bug is pinned in
    # test_optcomp_cases.py::test_eps_zero_mechanisms; the chain never asks it
    assume(any(x > 1 for x in n))
    r = {"root": Root(rr, 3), "rational": F(rr + 10, 10), "computable": Computable(lambda p: arb(rr + 10) / 10, "r")}[kind]
    S = SumPartition(D, n, r)
    calls = []

    def oracle(mechs, t):
        calls.append((mechs, t))
        return optcomp_oracle(mechs, t)

    v = solve_sum_partition(S, oracle)
    assert len(calls) == 1
    mechs, t = calls[0]
    assert [m.w for m in mechs] == [Root(x, D) for x in n] and all(m.delta == 0 for m in mechs)
    r_mp = {"root": mpmath.cbrt(rr), "rational": mpmath.mpf(rr + 10) / 10, "computable": mpmath.mpf(rr + 10) / 10}[kind]
    ref = ref_sum_partition_mp(D, n, r_mp)
    with workprec(160):  # arb_bounds rounds to the context precision
        lo, hi = arb_bounds(v.arb(160))
    tol = mpmath.mpf(10) ** -35
    assert mpmath.mpf(lo.numerator) / lo.denominator - tol <= ref <= mpmath.mpf(hi.numerator) / hi.denominator + tol
    assert hi - lo < F(1, 10 ** 30)


# --------------------------------------------------------------------------
# 4. the printed steps that fail


def test_as_printed_lemma_4_9_is_undefined_on_all_ones():
    # D = ceil(log_c 1) = 0: the 0-th root is undefined
    with pytest.raises(ReductionFailure, match="D = "):
        solve_int_partition(IntPartition([1, 1]), lambda W: 0, c=2, as_printed=True)
    r = run_chain([1, 1], as_printed=True)
    assert r.count is None and r.failure and "4.9" in r.failure
    assert r.brute_force_count == 4


@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_as_printed_lemma_4_10_all_ones(k):
    ref = ref_int_partition([1] * k)
    assert ref == 2 ** k  # every P, including the empty set and [k]
    assert solve_partition(Partition(1, [1] * k), lambda W: 0, as_printed=True) == 2 ** k - 2
    assert solve_partition(Partition(1, [1] * k), lambda W: 0) == 2 ** k
    r = run_chain([1] * k, as_printed=["4.10"])
    assert r.count == 2 ** k - 2 and r.brute_force_count == 2 ** k and r.oracle_calls == 0


@given(t_partition_instances())
@example(TPartition(2, [2, 3, 6], RadicalSum.radical(3, 2)))
def test_as_printed_lemma_4_11_always_returns_zero(inst):
    assert solve_t_partition(inst, bf_sum_oracle([]), as_printed=True) == 0


def test_as_printed_lemma_4_11_on_an_instance_with_solutions():
    inst = TPartition(2, [2, 3, 6], RadicalSum.radical(3, 2))  # sqrt(12) - sqrt(3): P = {0, 2}
    assert ref_t_partition_mp(2, [2, 3, 6], inst.T) == 1
    assert solve_t_partition(inst, bf_sum_oracle([]), as_printed=True) == 0
    assert solve_t_partition(inst, bf_sum_oracle([])) == 1
    r = run_chain([2, 3, 6], as_printed=["4.11"])
    assert r.certified and r.count == 0 and r.brute_force_count == 2


def test_why_lemma_4_11_fails_as_printed():
    """Above z, P^{z''} = P^z minus the solutions; below z (corrected), P^{z''} = P^z."""
    D, n = 2, [2, 3, 6, 6]
    N = math.prod(n)
    T = gap_value(F(36), N, D)  # attained: 6*6 and 2*3*6 (twice)
    jf, jex, _ = _locate_j(T, N, D)
    assert jex and jf == 36

    def P(z):
        return {s for s in subsets(len(n)) if gap_value(F(math.prod(x for x, b in zip(n, s) if b)), N, D) >= z}

    sols = {s for s in subsets(len(n)) if gap_value(F(math.prod(x for x, b in zip(n, s) if b)), N, D) == T}
    assert len(sols) == ref_t_partition_mp(D, n, T) == 3
    above = (T + gap_value(F(jf + 1), N, D)) / 2  # printed z'' in (z, z')
    prev = jf - 1
    lower = gap_value(F(prev), N, D) if prev * prev > N else RadicalSum.rational(0)
    below = (lower + T) / 2  # corrected z'' in (max(z_prev, 0), z)
    assert P(above) == P(T) - sols
    assert P(below) == P(T)


# --------------------------------------------------------------------------
# 5. the whole chain, down to OptComp


@given(int_partition_instances())
@example([2, 3, 6])
@example([2, 3, 5])
@example([2] * 8)
@example([1, 1, 2, 2])
@example([1])
@example([12, 12, 11, 11, 7, 7])
def test_chain_count_equals_brute_force(z):
    r = run_chain(z, check=False)
    assert r.certified
    assert r.count == ref_int_partition(z)
    assert r.oracle_calls == (0 if all(x == 1 for x in z) else 4)


@given(int_partition_instances(max_half=3), st.sampled_from([F(2), F(5, 4), F(7)]))
def test_chain_every_step_check_holds(z, c):
    r = run_chain(z, c=c)
    assert r.checks_hold is True
    assert r.count == r.brute_force_count == ref_int_partition(z)
    for s in r.steps:
        if s["step"] == "Theorem 1.6":
            assert s["sum_eps_le_ln_c"] is True  # Theorem 1.6: sum eps_i <= ln c


def test_chain_records_the_proof_structure():
    r = run_chain([2, 3, 6])
    names = [s["step"] for s in r.steps]
    assert names == ["Lemma 4.9", "Lemma 4.10", "Lemma 4.11"] + ["Theorem 1.6"] * 4
    assert [s["oracle_calls"] for s in r.steps] == [1, 1, 4, 1, 1, 1, 1]
    assert r.oracle_calls == 4
    # sum eps_i = ln(prod w_i) = ln(36^2)/D with D = 11 (least D with 36^2 <= 2^D: 2^11 = 2048 >= 1296)
    assert r.steps[0]["D"] == 11
    assert r.steps[3]["sum_eps"] == "ln(1296)/11"


def test_chain_computable_r_agrees():
    # r_T passed as the Computable of the printed formula (slow path in the engine)
    for z in ([2, 3, 6], [2, 2, 2, 2]):
        assert run_chain(z, check=False, r_form="computable").count == ref_int_partition(z)


def test_precision_escalation_and_bound():
    # #T-PARTITION instance of Lemma 4.10 for Z = (12,)*10: the count is C(10, 5) = 252
    z = [12] * 10
    D = least_D(12 ** 10, 2)
    calls = []
    solve_partition(Partition(D, z), bf_count_oracle(calls), c=2)
    Wp = calls[0]
    tr = Trace()
    assert solve_t_partition(Wp, bf_sum_oracle([]), prec=64, trace=tr) == math.comb(10, 5)
    assert tr.records[0]["precision_rounds"] > 1  # 64 bits do not pin the integer: escalation
    with pytest.raises(PrecisionError):
        solve_t_partition(Wp, bf_sum_oracle([]), prec=64, max_prec=64)
    with pytest.raises(InvalidArgument):
        solve_t_partition(Wp, bf_sum_oracle([]), max_prec=10)


def test_chain_bad_input():
    for z in ([], [0], [2, -1], ["a"]):
        with pytest.raises(InvalidArgument):
            run_chain(z)
    for c in (1, F(1, 2), 0, 8, "x"):
        with pytest.raises(InvalidArgument):
            run_chain([2, 3], c=c)
    with pytest.raises(InvalidArgument):
        run_chain([2, 3], as_printed=["4.12"])


def test_chain_brute_force_refused_but_chain_runs():
    r = run_chain([2, 3, 6, 6, 3, 2], brute_force_limit=4)
    assert r.brute_force_count is None and "refused" in r.brute_force_note
    assert r.count == ref_int_partition([2, 3, 6, 6, 3, 2])


@pytest.mark.slow
def test_chain_exhaustive_small_multisets():
    """Every multiset of {1..6} of size <= 5 (of {1..10}, size <= 7 with EXACTDP_SLOW=full):
    the corrected chain counts exactly, the printed Lemma 4.11 always gives 0."""
    values, top = (range(1, 11), 7) if SLOW_FULL else (range(1, 7), 5)
    for k in range(1, top + 1):
        for z in itertools.combinations_with_replacement(values, k):
            ref = ref_int_partition(z)
            assert run_chain(list(z), check=False).count == ref, z
            if any(x > 1 for x in z):
                assert run_chain(list(z), check=False, as_printed=["4.11"]).count == 0, z


# --------------------------------------------------------------------------
# 6. the command


def run_cli(args, capsys):
    return run(["reduce", *args], capsys)


def test_cli_json_shape(capsys):
    code, out, _ = run_cli(["--int-partition", "2,3,6,1", "--json"], capsys)
    assert code == 0
    d = json.loads(out)
    assert {"count", "brute_force_count", "certified", "oracle_calls", "steps"} <= set(d)
    assert d["count"] == d["brute_force_count"] == ref_int_partition([2, 3, 6, 1]) == 4
    assert d["certified"] is True and d["oracle_calls"] == 4
    # D = least D with (prod z_i)^2 <= 2^D (Lemma 4.9 at sqrt(c), c = 2): 36^2 = 1296 <= 2^11
    assert d["D"] == least_D(36, 2) == 11 and d["sum_eps"] == "ln(1296)/11" and d["sum_eps_le_ln_c"] is True
    lo, hi = (F(x) for x in d["sum_eps_decimal"].strip("[]").split(", "))
    v = mpmath.log(1296) / 11
    assert mpmath.mpf(lo.numerator) / lo.denominator <= v <= mpmath.mpf(hi.numerator) / hi.denominator
    assert isinstance(d["steps"], list) and d["steps"][0]["step"] == "Lemma 4.9"


def test_cli_human_trace(capsys):
    code, out, _ = run_cli(["--int-partition", "2,3,6"], capsys)
    assert code == 0
    for s in ("Lemma 4.9", "Lemma 4.10", "Lemma 4.11", "Theorem 1.6", "certified", "agrees"):
        assert s in out


def test_cli_as_printed(capsys):
    code, out, _ = run_cli(["--int-partition", "2,3,6", "--as-printed", "--json"], capsys)
    d = json.loads(out)
    assert code == 0 and d["count"] == 0 and d["brute_force_count"] == 2
    code, out, _ = run_cli(["--int-partition", "1,1", "--as-printed"], capsys)
    assert code == 1 and "FAILED" in out
    code, out, _ = run_cli(["--int-partition", "1,1", "--as-printed", "4.10", "--json"], capsys)
    assert code == 0 and json.loads(out)["count"] == 2


def _primes(n: int) -> list[int]:
    out: list[int] = []
    c = 2
    while len(out) < n:
        if all(c % p for p in out):
            out.append(c)
        c += 1
    return out


@pytest.mark.parametrize(
    "args",
    [
        ["--int-partition", "0,2"],
        ["--int-partition", "-1"],
        ["--int-partition", ""],
        ["--int-partition", "2,,3"],
        ["--int-partition", "2,x"],
        ["--int-partition", "2.5"],
        ["--int-partition", "2,3", "--c", "1"],
        ["--int-partition", "2,3", "--c", "0.5"],
        ["--int-partition", "2,3", "--c", "8"],
        ["--int-partition", "2,3", "--as-printed", "4.12"],
        ["--int-partition", "2,3", "--brute-force-limit", "30"],
        ["--int-partition", "2,3", "--max-prec", "10000000000"],
        ["--int-partition", "2,3", "--c", "nan"],
        ["--int-partition", "2,3", "--c", "inf"],
        ["--int-partition", "2,3", "--c", "1e-99999999"],
        ["--int-partition", "nan"],
        ["--int-partition", str(10**3000)],
        ["--int-partition", ",".join([str(10**300)] * 5)],
        # 60 primes: no multiplicative relations, so meet in the middle keeps 2^30 classes per
        # half; refused by the cost estimate. (42 primes, 2^21 per half, used to be refused; the
        # vector form of meet in the middle answers them in seconds. 80 values from 2..8 used
        # to be refused too; the classes of equal ratio are now merged.)
        ["--int-partition", ",".join(str(p) for p in _primes(60))],
        ["--int-partition", "2,3", "--c", "1.0000000001"],
        [],
    ],
    ids=lambda a: " ".join(x[:20] for x in a) or "none",
)
def test_cli_bad_input_exits_2(args, capsys):
    with pytest.raises(SystemExit) as e:
        raise SystemExit(cli_main(["reduce", *args]))
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("exactdp: error:") and err.count("\n") == 1


def test_cli_too_large_for_brute_force_still_runs(capsys):
    code, out, _ = run_cli(["--int-partition", "2,3,6,6,3,2", "--brute-force-limit", "4", "--json"], capsys)
    d = json.loads(out)
    assert code == 0 and d["brute_force_count"] is None and "refused" in d["brute_force_note"]
    assert d["count"] == ref_int_partition([2, 3, 6, 6, 3, 2])


def test_cli_entry_point_subprocess():
    exe = os.path.join(os.path.dirname(sys.executable), "exactdp")
    p = subprocess.run([exe, "reduce", "--int-partition", "2,3,6", "--json"], capture_output=True, text=True)
    assert p.returncode == 0 and json.loads(p.stdout)["count"] == 2
    p = subprocess.run([exe, "reduce", "--int-partition", "0"], capture_output=True, text=True)
    assert p.returncode == 2 and p.stderr.count("\n") == 1
