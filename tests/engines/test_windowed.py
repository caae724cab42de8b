"""The windowed homogeneous kernel (issue 14, item 1), checked against independent computations:

* the exact engine (exact binomials, rational ``e^eps``), every direction, deltas, eps_g at
  and around breakpoints;
* mpmath at 80 digits summing every term of ``S(t) / Z`` (k up to 10^5);
* exact binomial tails (Fractions) for :func:`binomial_tail`;
* Hypothesis: the enclosure contains the exact value; monotone in k and in eps_g;
* the edges: eps = 0, eps_g >= k eps, delta_g near 0 and 1, delta = 0 and > 0, k = 1.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from fractions import Fraction

import mpmath
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from exactdp import Mechanism, composed_delta, optcomp
from exactdp.engines.base import Prepared
from exactdp.engines.choose import choose_structure
from exactdp.engines.windowed import Windowed, binomial_tail
from exactdp.errors import CostTooHigh, InvalidArgument
from exactdp.events import Composition
from exactdp.numbers import RatExp, arb_bounds

W = "windowed"


def mpq(x: Fraction) -> mpmath.mpf:
    """A Fraction as an mpf at the working precision (rounded; the tests compare with 60 digits' slack)."""
    return mpmath.mpf(x.numerator) / x.denominator


def comp(k: int, *, eps=None, exp_eps=None, delta=0) -> Composition:
    m = Mechanism(eps=eps, delta=delta) if eps is not None else Mechanism(exp_eps=exp_eps, delta=delta)
    return Composition.of([m]).repeat(k)


def exact_delta(k: int, w: Fraction, t: Fraction, P: Fraction = Fraction(1)) -> Fraction:
    """delta_g by the definition (Kairouz-Oh-Viswanath's sum), in Fractions: a second algorithm."""
    Z = (1 + w) ** k
    S = sum(math.comb(k, m) * max(w**m - t * w ** (k - m), 0) for m in range(k + 1))
    return (1 - P) + P * S / Z


# ------------------------------------------------------------------ binomial tails


@pytest.mark.parametrize("k", [1, 2, 9, 40, 333])
@pytest.mark.parametrize("x", [Fraction(1), Fraction(3, 2), Fraction(1, 7), Fraction(11, 10)])
def test_binomial_tail_against_fractions(k, x):
    p = x / (1 + x)
    pmf = [math.comb(k, m) * p**m * (1 - p) ** (k - m) for m in range(k + 1)]
    for m0 in sorted({-1, 0, 1, k // 3, k // 2, k - 1, k, k + 1}):
        up = sum(pmf[max(m0, 0):])
        dn = sum(pmf[: max(m0 + 1, 0)])
        for lower, want in ((False, up), (True, dn)):
            v = binomial_tail(k, RatExp.from_exp(x), m0, 128, lower=lower)
            lo, hi = arb_bounds(v)
            assert lo <= want <= hi, (k, x, m0, lower)
            if want > Fraction(1, 10**20):
                assert hi - lo <= want * Fraction(1, 2**100), (k, x, m0, lower, v)


@pytest.mark.parametrize("x", [Fraction(11, 10), Fraction(101, 100), Fraction(10, 11)])
def test_binomial_tail_as_a_hypergeometric_function_against_fractions(x, monkeypatch):
    # the 2F1 path (used for long windows, here forced at k = 3000) against exact Fractions,
    # both directions, from the mode out to far tails
    import exactdp.engines.windowed as wmod

    monkeypatch.setattr(wmod, "HYPGEOM_MIN_TERMS", 0)
    k = 3000
    a, b = x.numerator, x.denominator  # P[X = m] = C(k, m) a^m b^(k - m) / (a + b)^k, in integers
    cnt = [math.comb(k, m) * a**m * b ** (k - m) for m in range(k + 1)]
    Z = (a + b) ** k
    p = float(x / (1 + x))
    mode = math.floor((k + 1) * p)
    sd = math.sqrt(k * p * (1 - p))
    for z in (1.5, 3, 8, 20):
        for lower in (False, True):
            m0 = int(mode - z * sd) if lower else int(mode + z * sd)
            want = Fraction(sum(cnt[: m0 + 1]) if lower else sum(cnt[m0:]), Z)
            v = binomial_tail(k, RatExp.from_exp(x), m0, 128, lower=lower)
            lo, hi = arb_bounds(v)
            assert lo <= want <= hi, (x, z, lower)
            assert hi - lo <= want * Fraction(1, 2**100), (x, z, lower, v)


@pytest.mark.parametrize("eps,k", [("0.01", 10**6), ("0.3", 2 * 10**6), ("0.001", 10**7)])
def test_hypergeometric_and_window_sums_agree_at_large_k(eps, k, monkeypatch):
    # two algorithms for one tail: Arb's 2F1 and the window sum with its tail bound
    import exactdp.engines.windowed as wmod

    w = RatExp(Fraction(1), Fraction(eps))  # e^eps
    lw = float(Fraction(eps))
    p = 1 / (1 + math.exp(-lw))
    mode, sd = (k + 1) * p, math.sqrt(k * p * (1 - p))
    for z in (0.5, 4.3, 12):
        m0 = int(mode + z * sd)
        monkeypatch.setattr(wmod, "HYPGEOM_MIN_TERMS", 0)  # the function wherever it applies
        a = binomial_tail(k, w, m0, 128)
        monkeypatch.undo()
        monkeypatch.setattr(wmod, "HYPGEOM_MAX_PREC", 0)  # the window sum
        b = binomial_tail(k, w, m0, 128)
        monkeypatch.undo()
        assert a.overlaps(b), (eps, k, z)
        assert float(a.rad() / a.mid()) < 2.0**-100 and float(b.rad() / b.mid()) < 2.0**-100


# ------------------------------------------------------------------ against the exact engine


@pytest.mark.parametrize("k", [1, 2, 7, 50, 301, 2000])
@pytest.mark.parametrize("w", ["11/10", "3/2", "101/100"])
def test_delta_against_exact_engine_at_and_around_breakpoints(k, w):
    wq = Fraction(w)
    c = comp(k, exp_eps=w)
    ln_w = math.log(float(wq))
    # breakpoints t = w^(2m - k) >= 1 near the middle of the distribution, and around them
    ms = sorted({(k + 1) // 2, (k + 1) // 2 + 1, int(k / 2 + math.sqrt(k)) + 1, k})
    for m in ms:
        if 2 * m - k < 0:
            continue
        bp = wq ** (2 * m - k)
        for t in (bp, bp * (1 + Fraction(1, 10**6)), max(Fraction(1), bp * (1 - Fraction(1, 10**6)))):
            if t.numerator.bit_length() > 20000:
                continue
            ex = composed_delta(c, exp_eps_g=t, engine="exact", method="homogeneous").exact
            r = composed_delta(c, exp_eps_g=t, engine="certified", method=W, digits=30)
            assert r.method == W
            assert r.value.contains(ex), (k, w, m, t)
            if ex > 0:
                assert (r.upper - r.lower) <= ex * Fraction(1, 10**29)
    assert ln_w > 0


@pytest.mark.parametrize("k", [1, 3, 64, 1000])
@pytest.mark.parametrize("delta", ["0", "1/1000"])
@pytest.mark.parametrize("dg", ["1/10", "1/1000", "1/1000000", "999/1000"])
def test_optcomp_against_exact_engine(k, delta, dg):
    c = comp(k, exp_eps="6/5", delta=delta)
    ex = optcomp(c, dg, engine="exact", method="homogeneous")
    r = optcomp(c, dg, engine="certified", method=W, digits=25)
    assert r.infinite == ex.infinite
    if ex.infinite:
        return
    t = ex.exp_exact
    assert t is not None
    with mpmath.workdps(60):
        true_eps = mpmath.log(mpq(t)) if t != 1 else mpmath.mpf(0)
        assert mpq(r.lower) <= true_eps <= mpq(r.upper), (k, delta, dg, r.value, t)
    if t != 1:
        assert (r.upper - r.lower) / r.upper < Fraction(1, 10**24)


# ------------------------------------------------------------------ against mpmath (every term)


def mp_delta(k: int, eps: str, eps_g: str, dps: int = 80) -> mpmath.mpf:
    """delta_g = P[X >= m_hi] - e^eps_g P[Y >= m_hi] summing every term in mpmath (binomial pmf by
    the multiplicative recurrence), at ``dps`` digits; a second algorithm (no window)."""
    with mpmath.workdps(dps):
        e = mpmath.mpf(Fraction(eps).numerator) / Fraction(eps).denominator
        g = mpmath.mpf(Fraction(eps_g).numerator) / Fraction(eps_g).denominator
        w = mpmath.exp(e)
        p = w / (1 + w)
        q = 1 / (1 + w)
        t = mpmath.exp(g)
        s = mpmath.mpf(0)
        # pmf of X at m: C(k,m) p^m q^(k-m); of Y at m: C(k,m) q^m p^(k-m)
        lx = mpmath.log(q) * k  # m = 0
        ly = mpmath.log(p) * k
        bx, by = mpmath.exp(lx), mpmath.exp(ly)
        for m in range(k + 1):
            if (2 * m - k) * e > g:
                s += bx - t * by
            if m < k:
                bx = bx * (k - m) / (m + 1) * (p / q)
                by = by * (k - m) / (m + 1) * (q / p)
        return s


@pytest.mark.parametrize("k,eps,eps_g", [
    (1000, "1/10", "3"),
    (5000, "1/100", "1/2"),
    (20000, "1/20", "30"),
    pytest.param(100000, "1/100", "7/2", marks=pytest.mark.slow),
    pytest.param(100000, "1/100", "1/3", marks=pytest.mark.slow),
])
def test_delta_against_mpmath_full_sum(k, eps, eps_g):
    want = mp_delta(k, eps, eps_g)
    r = composed_delta(comp(k, eps=eps), eps_g=eps_g, engine="certified", method=W, digits=40)
    with mpmath.workdps(80):
        lo, hi = mpq(r.lower), mpq(r.upper)
        assert lo <= want <= hi, (k, eps, eps_g, r.value, want)
        assert (hi - lo) <= want * mpmath.mpf(10) ** -39


# ------------------------------------------------------------------ properties


@given(k=st.integers(1, 300), num=st.integers(101, 400), j=st.integers(0, 40))
@example(k=1, num=101, j=0)
@example(k=300, num=400, j=40)
def test_contains_exact_value(k, num, j):
    w = Fraction(num, 100)
    t = w**j if j <= k else w**k
    want = exact_delta(k, w, t)
    r = composed_delta(comp(k, exp_eps=w), exp_eps_g=t, engine="certified", method=W, digits=20)
    assert r.value.contains(want)


@given(k=st.integers(1, 3000), eps_g=st.fractions(0, 5, max_denominator=100))
def test_monotone_in_k_and_eps_g(k, eps_g):
    c1, c2 = comp(k, eps="1/20"), comp(k + 1, eps="1/20")
    a = composed_delta(c1, eps_g=eps_g, engine="certified", method=W, digits=20)
    b = composed_delta(c2, eps_g=eps_g, engine="certified", method=W, digits=20)
    assert b.upper >= a.lower  # one more mechanism never makes the composition more private
    c = composed_delta(c1, eps_g=eps_g + Fraction(1, 7), engine="certified", method=W, digits=20)
    assert c.lower <= a.upper  # larger eps_g, smaller delta_g


# ------------------------------------------------------------------ edges


def test_eps_zero():
    c = comp(1000, eps="0", delta="1/100")
    P = Fraction(99, 100) ** 1000
    assert composed_delta(c, eps_g=0, engine="certified", method=W).exact == 1 - P
    assert optcomp(c, "1/2", engine="certified", method=W).infinite  # 1/2 < 1 - P (P is tiny)


@pytest.mark.parametrize("k,delta", [(10**8, "0"), (3000, "1e-12")])
def test_eps_g_at_or_beyond_k_eps_is_exactly_one_minus_P(k, delta):
    c = comp(k, eps="1/100", delta=delta)
    P = (1 - Fraction(delta)) ** k
    for eps_g in (Fraction(k, 100), Fraction(k, 100) + 1):
        r = composed_delta(c, eps_g=eps_g, engine="certified", method=W)
        assert r.exact == 1 - P
    # OptComp at delta_g = 1 - P: eps_g = sum eps_i exactly
    assert optcomp(c, 1 - P, engine="certified", method=W).exact == Fraction(k, 100)


def test_k_one_equals_the_mechanism():
    # one (eps, 0)-DP mechanism: delta_g(eps_g) = (e^eps - e^eps_g) / (1 + e^eps) for eps_g < eps
    r = composed_delta(comp(1, exp_eps=3), exp_eps_g=2, engine="certified", method=W)
    assert r.value.contains(Fraction(1, 4))
    r = optcomp(comp(1, exp_eps=3), "1/4", engine="certified", method=W)
    with mpmath.workdps(50):
        assert mpq(r.lower) <= mpmath.log(2) <= mpq(r.upper)


@pytest.mark.parametrize("dg", ["1e-300", "1e-30", "0.999999", "0.5"])
def test_delta_g_near_0_and_1(dg):
    # the two directions agree: delta at the ends of the OptComp enclosure brackets delta_g
    c = comp(10**6, eps="1/100")
    r = optcomp(c, dg, engine="certified", method=W, digits=20)
    lo = composed_delta(c, eps_g=r.lower, engine="certified", method=W, digits=20)
    hi = composed_delta(c, eps_g=r.upper, engine="certified", method=W, digits=20)
    d = Fraction(dg)
    assert hi.lower <= d <= lo.upper
    assert r.upper - r.lower <= r.upper * Fraction(1, 10**19)


def test_large_k_without_materialising():
    c = comp(10**9, eps="1/100")
    r = optcomp(c, "1e-6", engine="certified", digits=30)
    assert r.method == W
    # both directions agree: delta_g just outside the enclosure is on the right side of 1e-6
    # (at its ends the two enclosures overlap: eps_g is known to 35 digits, delta_g to 30)
    d = Fraction(1, 10**6)
    assert composed_delta(c, eps_g=r.lower * (1 - Fraction(1, 10**20)), engine="certified").lower > d
    assert composed_delta(c, eps_g=r.upper * (1 + Fraction(1, 10**20)), engine="certified").upper < d
    assert composed_delta(c, eps_g=r.lower, engine="certified").upper >= d
    # the central-limit (Gaussian DP) value mu = sqrt(k) eps is a first-order check: eps_g = k eps^2/2 + ...
    assert 5.0e4 < float(r.lower) < 5.3e4


# ------------------------------------------------------------------ choice and refusals


def test_auto_picks_windowed_when_exact_would_not_fit():
    p = Prepared(comp(10**6, exp_eps="11/10"))
    assert p.method == W
    assert Prepared(comp(100, exp_eps="11/10")).method == "homogeneous"  # exact fits: unchanged
    with pytest.raises(CostTooHigh):
        composed_delta(comp(10**6, exp_eps="11/10"), exp_eps_g=2, engine="exact")
    r = composed_delta(comp(10**6, exp_eps="11/10"), exp_eps_g=2)  # auto: certified
    assert r.engine == "certified" and r.method == W


def test_windowed_needs_one_group():
    from exactdp.numbers import RatExp as R

    with pytest.raises(InvalidArgument):
        choose_structure(None, W, groups=[(R.from_eps(Fraction(1, 10)), 3), (R.from_eps(Fraction(1, 5)), 2)])
    assert isinstance(choose_structure(None, W, groups=[(R.from_eps(Fraction(1, 10)), 3)]), Windowed)


# ------------------------------------------------------------------ the search, repeated queries, costs


def test_plateau_of_ln_S_does_not_stall_the_search():
    # eps = 0.1, k = 10^7: S = Z (1 - 1e-30) over most of [0, ln W], the float search's slope
    # underflows there; the piece table finds t* in one step (it took minutes before)
    c = comp(10**7, eps="1/10")
    r = optcomp(c, "1e-5", engine="certified", digits=20)
    d = Fraction(1, 10**5)
    assert composed_delta(c, eps_g=r.lower * (1 - Fraction(1, 10**15)), engine="certified").lower > d
    assert composed_delta(c, eps_g=r.upper * (1 + Fraction(1, 10**15)), engine="certified").upper < d
    p = Prepared(c)
    from exactdp.engines.inverse import Target

    tg = Target(p.P, d)
    L0 = p.struct.locate_float(tg.log_float() + p.log_Z)
    assert L0 is not None and abs(L0 - float(r.lower)) <= 1e-9 * float(r.lower)


def test_profile_repeated_queries_agree_with_fresh_ones():
    from exactdp import PrivacyProfile

    c = comp(10**6, eps="1/100")
    prof = PrivacyProfile(c, engine="certified", digits=20)
    assert prof.method == W
    for eg in [Fraction(j, 4) for j in range(1, 30, 3)] + [Fraction(3, 2)] * 2:
        a = prof.delta(eg)
        b = composed_delta(c, eps_g=eg, engine="certified", digits=20)  # a fresh kernel
        assert a.lower <= b.upper and b.lower <= a.upper
    for dg in ("1e-3", "1e-9", "1e-3"):
        a = prof.epsilon(dg)
        b = optcomp(c, dg, engine="certified", digits=20)
        assert a.lower <= b.upper and b.lower <= a.upper


CHILD = r"""
import json, sys
def hwm():
    for line in open('/proc/self/status'):
        if line.startswith('VmHWM'):
            return int(line.split()[1]) * 1024
from exactdp import Mechanism, optcomp
from exactdp.events import Composition
from exactdp.engines.base import Prepared
from exactdp.engines.costs import EVALS_OPTCOMP
from exactdp.numbers import digits_to_bits
eps, k = sys.argv[1], int(sys.argv[2])
c = Composition.of([Mechanism(eps=eps)]).repeat(k)
p = Prepared(c)
b, e = p.struct.estimate("arb", digits_to_bits(30) + 32)
optcomp(Composition.of([Mechanism(eps=eps)]).repeat(10), "1e-10", engine="certified")  # the backends load lazily: not the kernel's memory
from exactdp._backend import np
np.zeros(1)  # NumPy too (the windowed kernel loads it at its first NumPy call): not the kernel's memory
base = hwm()
optcomp(c, "1e-10", engine="certified")
print(json.dumps({"peak": hwm() - base, "estimate": b.then(e, EVALS_OPTCOMP).bytes}))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
@pytest.mark.parametrize("eps,k", [("0.01", 10**5), ("0.1", 10**7), pytest.param("0.01", 10**9, marks=pytest.mark.slow)])
def test_estimate_bounds_the_measured_peak_memory(eps, k):
    p = subprocess.run([sys.executable, "-c", CHILD, eps, str(k)], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    r = json.loads(p.stdout.strip().splitlines()[-1])
    assert r["peak"] <= r["estimate"] <= max(40 * r["peak"], 50 * 2**20), r


def test_exact_engine_through_the_windowed_kernel_is_exact():
    # the exact field goes through exact binomials: the same Fraction as the homogeneous kernel
    c = comp(40, exp_eps="5/4", delta="1/100")
    t = Fraction(5, 4) ** 6
    a = composed_delta(c, exp_eps_g=t, engine="exact", method=W)
    want = exact_delta(40, Fraction(5, 4), t, Fraction(99, 100) ** 40)
    assert a.exact == want
    assert optcomp(c, a.exact, engine="exact", method=W).exp_exact == t


def test_optcomp_beyond_eps_g_1e5_is_answered_and_brackets_delta_g():
    # eps = 1, k = 10^6: OptComp at 1e-5 is about k tanh(1/2) = 4.6e5 > 1e5 (refused until the
    # limit became the answer's size); delta_g, computed forwards at the enclosure's two ends,
    # brackets the target (delta_g decreases in eps_g)
    c = comp(10**6, eps="1")
    r = optcomp(c, "1e-5", engine="certified")
    assert 4.5e5 < r.lower < r.upper < 4.8e5
    d_lo = composed_delta(c, eps_g=r.value.lower, engine="certified", digits=40)
    d_hi = composed_delta(c, eps_g=r.value.upper, engine="certified", digits=40)
    assert d_lo.value.lower >= Fraction(1, 10**5) >= d_hi.value.upper


@pytest.mark.parametrize("k,eps,prec", [(10**9, "0.01", 145), (10**6, "1/3", 80), (7, "2", 64)])
def test_ball_power_is_as_narrow_as_rounding(k, eps, prec):
    """``(1 + e^eps)^k`` in balls contains the value from mpmath at 3x the bits and is about
    ``2^-prec`` wide (the base's radius times ``k`` was ``k 2^-prec``: 2^-115 at k = 10^9, 145
    bits)."""
    from exactdp.engines.fields import ArbField

    v = ArbField(prec).power(RatExp.from_eps(Fraction(eps)), k, one_plus=True)
    with mpmath.workprec(3 * prec + 64):
        ref = (1 + mpmath.exp(mpq(Fraction(eps)))) ** k
        lo, hi = arb_bounds(v)
        assert mpq(lo) <= ref <= mpq(hi)
        assert (mpq(hi) - mpq(lo)) / ref < mpmath.mpf(2) ** (-(prec - 4))


@pytest.mark.parametrize("k,eps", [(10**9, 0.01), (10**6, 0.05), (4 * 10**4, 0.3)])
def test_float_model_from_the_table_agrees_with_the_window_sums(k, eps):
    """The O(log n) float model from the table of pieces (built by the float inverse) against the
    window sums it replaces (two float computations of ln S and its slope, by different sums)."""
    struct = Windowed(RatExp.from_eps(Fraction(eps)), k)
    assert struct.locate_float(struct._approx_uncached(k * eps / 4)[0]) is not None  # builds the table
    m, la, _ = struct._table
    lnts = [float((2 * m[i] - k) * eps) + 0.3 * eps for i in (len(m) // 9, len(m) // 5, len(m) // 3)]
    for lnt in lnts:
        quick = struct._approx_from_table(lnt)
        struct._table = False  # the window sums only
        slow = struct._approx_uncached(lnt)
        struct._table = (m, la, _)
        assert quick is not None
        assert quick[0] == pytest.approx(slow[0], rel=1e-9)
        assert quick[1] == pytest.approx(slow[1], rel=1e-6)


def test_optcomp_at_an_exact_tie_with_eps_g_zero_is_zero():
    """delta_g equal to the composition's delta at eps_g = 0 (computed by the exact engine): the
    certified inverse, which now tries its certificate before deciding S(1), must still answer
    exactly 0 (S(1) = tau Z: no t > 1 can be certified from below)."""
    ms = comp(30, exp_eps=Fraction(6, 5))
    d0 = composed_delta(ms, exp_eps_g=1, engine="exact").value.lower
    r = optcomp(ms, d0, engine="certified", digits=20)
    assert r.value.lower == r.value.upper == 0
    # and a hair above it the answer is 0, a hair below it positive (S decreases in t)
    assert optcomp(ms, d0 * (1 + Fraction(1, 10**30)), engine="certified").value.upper == 0
    assert optcomp(ms, d0 * (1 - Fraction(1, 10**6)), engine="certified").value.lower > 0


@pytest.mark.parametrize("k,eps", [(10**9, "0.01"), (10**9, "0.001"), (10**9, "0.005"), (2 * 10**8, "0.02")])
def test_float_inverse_near_the_crossing_agrees_with_the_whole_table(k, eps):
    """The float inverse from a table near the normal estimate of the crossing against the one
    from the whole table of pieces (52 sd) and the certified OptComp, at goals from
    delta_g = 0.9 to 1e-300: within one piece (``2 eps`` in ``ln t``; floats only choose where
    Newton starts)."""
    import exactdp.engines.windowed as wmod

    w = RatExp.from_eps(Fraction(eps))
    lz = k * math.log1p(math.exp(float(Fraction(eps))))
    near, whole = Windowed(w, k), Windowed(w, k)
    for dg in (0.9, 1e-5, 1e-10, 1e-50, 1e-300):
        a = near.locate_float(math.log(dg) + lz)
        assert near._near is not None
        old = wmod.NEAR_TABLE_MIN
        wmod.NEAR_TABLE_MIN = 10**12
        try:
            b = whole.locate_float(math.log(dg) + lz)
        finally:
            wmod.NEAR_TABLE_MIN = old
        assert a is not None and b is not None
        c = optcomp(comp(k, eps=eps), Fraction(dg), engine="certified", digits=20).value
        width = 2 * float(Fraction(eps))
        assert abs(a - b) <= width and float(c.lower) - width <= a <= float(c.upper) + width, dg


def test_float_inverse_beyond_e700_is_not_capped():
    # k = 2: S(t) = w^2 - t on [1, w^2] (the subsets {} and {i} give <= 0 there) and
    # Z = (1 + w)^2, so S / Z = tau at ln t* = 2 eps + ln(1 - tau (1 + 1/w)^2) = 2e6 - 1e-6 + ...;
    # the linear step on the piece was capped at e^700 (ln t* = 700: inside the OptComp limit)
    prep = Prepared(comp(2, eps="1e6"), W)
    tau = 1e-6
    L = prep.struct.locate_float(math.log(tau) + prep.log_Z)
    assert L == pytest.approx(2e6 + math.log1p(-tau), abs=1e-6)


@pytest.mark.parametrize("eps,dg", [("1e40", "1e-6"), ("1e11", "1e-6"), ("1e11", "0.99999999999999")])
def test_optcomp_of_huge_eps_is_refused_not_crashed(eps, dg):
    # eps_g = 2 eps + ln(1 - dg) (closed form above) is beyond the cost limits in every case; the
    # float model cannot see ln(1 - dg) beside ln Z = 2e40 (it answered t* = 1 and the ball Newton built
    # a 2.9e40-bit t: OverflowError), nor ln dg ~ -1e-24 beside 2e6 (the answer 2e6 went through), and
    # the e^700 cap above put 2e11 at 700 (MemoryError)
    with pytest.raises(CostTooHigh) as ei:
        optcomp(comp(2, eps=eps), dg, engine="certified", method=W)
    assert "about eps_g = 2e+" in str(ei.value)  # the answer located (2 eps) and its size refused
    assert ei.value.estimate["bytes"] > 2**31
    assert ei.value.alternative.startswith("composed_delta")
