"""The certified ball-lattice kernel (issue 14, "grouped and lattice kernels at scale"),
checked against independent computations:

* the exact lattice kernel (exact integer coefficients, rational ``e^eps`` such as 11/10 and
  its powers): the enclosure contains the exact delta_g, at t = 1, at breakpoints and
  beside them, near t = W, with deltas mixed in, k up to a few thousand, and is narrow;
* the certified lattice kernel on exact coefficients for eps given as rationals;
* the windowed kernel for one group (k = 10^5);
* exact OptComp (exact lattice) against the ball kernel's OptComp enclosure;
* exact binomial sums (Fractions) for the window's omitted-mass bound;
* the refusal of a size beyond the limits, with the estimate.

No expected value comes from the kernel under test.
"""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from fractions import Fraction

import pytest
from _lattice import U, lattice_case

from exactdp import composed_delta, mechanisms, optcomp
from exactdp._backend import arb, workprec
from exactdp.engines.balllattice import BallLattice, binomial_window
from exactdp.engines.choose import METHODS, choose_structure, detect_lattice_groups
from exactdp.engines.costs import cost_limits
from exactdp.engines.fields import ArbField, ExactField
from exactdp.engines.lattice import Lattice
from exactdp.errors import CostTooHigh, InvalidArgument
from exactdp.numbers import RatExp

BL = "lattice-balls"


def within(enc, x: Fraction) -> bool:
    return enc.lower <= x <= enc.upper


def rel_width(enc) -> float:
    mid = (enc.lower + enc.upper) / 2
    return float((enc.upper - enc.lower) / mid) if mid else float(enc.upper - enc.lower)


CASES = [
    [(1, 40), (2, 25)],
    [(1, 300), (3, 200), (7, 50)],
    [(2, 1000), (3, 1000)],
    [(1, 1500), (2, 1000)],
    [(5, 7), (1, 900)],
    [(5, 1000), (6, 800)],  # t = 1 is 10 sd below the X law's mean: a second, tilted polynomial for Y
]


@pytest.mark.parametrize("spec", CASES)
def test_enclosure_contains_the_exact_lattice_value(spec):
    ms, A = lattice_case(spec)
    # t = 1, breakpoints u^(2m - A) and their neighbours, t just below W = u^A
    ts = {Fraction(1), Fraction(3), U ** (A - 1), U ** (A - 2) * Fraction(999, 1000)}
    for m in (A // 2 + 1, (3 * A) // 5, (4 * A) // 5, A - 3):
        b = U ** (2 * m - A)
        ts |= {b, b * Fraction(10**6 + 1, 10**6), b * Fraction(10**6 - 1, 10**6)}
    for t in sorted(ts):
        ex = composed_delta(ms, exp_eps_g=t, engine="exact", method="lattice").exact
        r = composed_delta(ms, exp_eps_g=t, engine="certified", method=BL, digits=25)
        assert r.method == BL
        assert within(r, ex), (spec, t)
        assert rel_width(r) <= 1e-24


def test_random_lattices_against_exact():
    rng = random.Random(14)
    for _ in range(25):
        spec = sorted({rng.randint(1, 9): rng.randint(1, 400) for _ in range(rng.randint(1, 4))}.items())
        ms, A = lattice_case(spec, delta=rng.choice(["0", "1e-9"]))
        m = rng.randint(A // 2 + 1, A)
        t = U ** (2 * m - A) * rng.choice([Fraction(1), Fraction(10**9 + 1, 10**9), Fraction(10**9 - 1, 10**9)])
        t = max(t, Fraction(1))
        ex = composed_delta(ms, exp_eps_g=t, engine="exact", method="lattice").exact
        r = composed_delta(ms, exp_eps_g=t, engine="certified", method=BL, digits=20)
        assert within(r, ex), (spec, m)
        assert rel_width(r) <= 1e-19 or r.exact is not None


def test_deltas_mixed_in():
    spec = [(1, 200), (2, 150), (4, 30)]
    exp_eps = [U] * 200 + [U**2] * 150 + [U**4] * 30
    deltas = ["1/1000"] * 200 + ["0"] * 150 + ["1e-6"] * 30
    ms = mechanisms(exp_eps=exp_eps, delta=deltas)
    A = sum(a * n for a, n in spec)
    for t in (Fraction(1), U ** (A // 3), U ** (A // 2 + 1) * Fraction(7, 8)):
        ex = composed_delta(ms, exp_eps_g=t, engine="exact", method="lattice").exact
        r = composed_delta(ms, exp_eps_g=t, engine="certified", method=BL)
        assert within(r, ex) and rel_width(r) <= 1e-29


def test_t_at_and_above_W_is_exact():
    ms, A = lattice_case([(1, 30), (2, 20)], delta="1/100")
    for t in (U**A, U ** (A + 1)):
        r = composed_delta(ms, exp_eps_g=t, engine="certified", method=BL)
        ex = composed_delta(ms, exp_eps_g=t, engine="exact", method="lattice").exact
        assert r.exact == ex == 1 - Fraction(99, 100) ** 50


@pytest.mark.parametrize("eps_g", ["0", "0.5", "3", "7.25"])
def test_eps_rationals_against_the_exact_coefficient_lattice(eps_g):
    # u = e^(1/100) transcendental: both kernels certified, the reference from exact integers
    ms = mechanisms(eps=["0.01", "0.02", "0.05"], delta=["0", "1e-7", "0"], k=400)
    ref = composed_delta(ms, eps_g=eps_g, engine="certified", method="lattice")
    r = composed_delta(ms, eps_g=eps_g, engine="certified", method=BL)
    assert ref.method == "lattice" and r.method == BL
    assert r.lower <= ref.upper and ref.lower <= r.upper
    assert rel_width(r) <= 1e-29


@pytest.mark.parametrize("eps_g", ["1", "20", "60"])
def test_one_group_agrees_with_windowed(eps_g):
    ms = mechanisms(eps="0.01", k=10**5)
    w = composed_delta(ms, eps_g=eps_g, method="windowed")
    r = composed_delta(ms, eps_g=eps_g, method=BL)
    assert w.method == "windowed" and r.method == BL
    assert r.lower <= w.upper and w.lower <= r.upper
    assert rel_width(r) <= 1e-29


@pytest.mark.parametrize("spec, dg", [
    ([(1, 300), (2, 200)], "1e-3"),
    ([(1, 300), (2, 200)], "1e-9"),
    ([(2, 500), (3, 400), (5, 20)], "1e-6"),
])
def test_optcomp_overlaps_the_exact_lattice(spec, dg):
    ms, _ = lattice_case(spec, delta="1e-13")
    ex = optcomp(ms, dg, engine="exact", method="lattice")
    r = optcomp(ms, dg, engine="certified", method=BL)
    assert ex.guarantee == "exact" and r.method == BL
    assert r.lower <= ex.upper and ex.lower <= r.upper
    assert rel_width(r) <= 1e-28


def test_float_engine_and_exact_field_fallback():
    ms, A = lattice_case([(1, 60), (3, 40)])
    t = U ** (A // 2 + 7)
    ex = composed_delta(ms, exp_eps_g=t, engine="exact", method="lattice").exact
    f = composed_delta(ms, exp_eps_g=t, engine="float", method=BL)
    assert abs(float(f.lower / ex) - 1) < 1e-25
    # the exact field goes through exact integers: equal to the exact lattice kernel's value
    assert composed_delta(ms, exp_eps_g=t, engine="exact", method=BL).exact == ex


def test_kernel_far_tail_against_exact_integers():
    # thresholds far above the X law's mean (tilted polynomials), S and sigma both checked
    u = RatExp.from_exp(U)
    groups = [(1, 1200), (2, 800)]
    L, B = Lattice.from_groups(u, groups), BallLattice(u, groups)
    A = L.A
    for m in (A // 2 + 1, 1500, 2400, 2700, A - 1):
        t = RatExp.from_exp(U ** (2 * m - A - 1))
        s_ex, g_ex = L.evaluate(ExactField(), t)
        with workprec(4000):
            s_ref = arb(str(s_ex.numerator)) / arb(str(s_ex.denominator))
            g_ref = arb(str(g_ex.numerator)) / arb(str(g_ex.denominator))
        with workprec(128):
            s, g = B.evaluate(ArbField(128), t)
            assert s.contains(s_ref) and g.contains(g_ref), m
            # S = X - t sigma cancels; its radius is small against the terms, sigma's against sigma
            assert g.rel_accuracy_bits() >= 120
            assert s.rad() <= (abs(s) + t.arb(128) * g).upper() * arb(2) ** -118


@pytest.mark.parametrize("n, x, lo, hi", [(4, Fraction(1), 1, 3), (50, Fraction(3, 2), 20, 40),
                                           (300, Fraction(1, 7), 10, 70), (333, Fraction(11, 10), 120, 220)])
def test_binomial_window_bound_against_fractions(n, x, lo, hi):
    p = x / (1 + x)
    pmf = [math.comb(n, m) * p**m * (1 - p) ** (n - m) for m in range(n + 1)]
    with workprec(128):
        terms, rest = binomial_window(n, arb(x.numerator) / x.denominator, lo, hi, 128)
    omitted = sum(pmf[:lo]) + sum(pmf[hi + 1:])
    with workprec(2000):  # the references as (nearly) points
        for m, b in zip(range(lo, hi + 1), terms):
            assert b.contains(arb(pmf[m].numerator) / pmf[m].denominator)
        om = arb(omitted.numerator) / omitted.denominator
        assert rest >= om and rest <= 2 * om + arb(2) ** -100


def test_auto_picks_a_ball_kernel_for_three_large_groups():
    # the exact lattice alone was refused (about 5.8e3 s and 189 GiB); nothing is built here.
    # auto took the ball-lattice kernel until the contour kernel (same values, 0.04-0.08 s
    # against 0.11 s measured), which its estimate now ranks first
    st = choose_structure(groups=[(RatExp.from_eps(Fraction(j, 100)), 10**5) for j in (1, 2, 3)])
    assert st.method == "lattice-contour"
    assert BL in METHODS


def test_a_size_beyond_the_limits_is_refused_with_the_estimate():
    ws = [(RatExp.from_eps(Fraction(j, 10**6)), 10**5) for j in (1, 999_999)]
    with pytest.raises(CostTooHigh) as e:
        choose_structure(groups=ws, method=BL)
    assert "estimated at about" in str(e.value) and e.value.estimate["seconds"] > 0
    with cost_limits(seconds=1e-6):
        with pytest.raises(CostTooHigh, match="ball-lattice"):
            choose_structure(groups=[(RatExp.from_eps(Fraction(1, 100)), 10**5),
                                     (RatExp.from_eps(Fraction(1, 50)), 10**5)], method=BL)


def test_not_a_lattice_is_invalid():
    with pytest.raises(InvalidArgument):
        choose_structure([RatExp.from_exp(Fraction(2)), RatExp.from_exp(Fraction(3))], BL)
    assert detect_lattice_groups([RatExp.from_exp(Fraction(2)), RatExp.from_exp(Fraction(3))]) is None


CHILD = r"""
import json, sys
def hwm():
    for line in open('/proc/self/status'):
        if line.startswith('VmHWM'):
            return int(line.split()[1]) * 1024
from exactdp import mechanisms, optcomp
from exactdp.engines.base import Prepared
from exactdp.engines.costs import EVALS_OPTCOMP
from exactdp.numbers import digits_to_bits
ms = mechanisms(eps=["0.01", "0.02", "0.03"], k=int(sys.argv[1]))
prep = Prepared(ms, "lattice-balls")
b, e = prep.struct.estimate("arb", digits_to_bits(30) + 32)
base = hwm()
r = optcomp(ms, "1e-5", method="lattice-balls")
print(json.dumps({"method": r.method, "peak": hwm() - base, "estimate": b.then(e, EVALS_OPTCOMP).bytes,
                  "lower": float(r.lower), "upper": float(r.upper)}))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_three_large_groups_run_and_the_estimate_bounds_the_peak_memory():
    # the case (refused before: about 5.8e3 s and 189 GiB for exact coefficients)
    p = subprocess.run([sys.executable, "-c", CHILD, str(10**5)], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    r = json.loads(p.stdout.strip().splitlines()[-1])
    assert r["method"] == BL and r["lower"] <= r["upper"]
    assert r["peak"] <= r["estimate"] <= max(40 * r["peak"], 50 * 2**20), r
    # independent bracket: the mechanisms lie between 3 * 10^5 mechanisms of eps 0.01 and of 0.03
    lo = optcomp(mechanisms(eps="0.01", k=3 * 10**5), "1e-5", method="windowed")
    hi = optcomp(mechanisms(eps="0.03", k=3 * 10**5), "1e-5", method="windowed")
    assert lo.upper < r["lower"] and r["upper"] < hi.lower


def test_float_search_estimate_against_a_ball_evaluation():
    # the saddle-point estimate used by the search (approximate) against the kernel in balls at
    # 64 bits (Structure.approx); a wrong estimate only slows the search, so this guards speed
    from exactdp.engines.structure import Structure

    B = BallLattice(RatExp.from_eps(Fraction(1, 100)), [(1, 10**4), (2, 10**4), (3, 10**4)])
    for L in (0.0, 5.0, 20.0, 35.0, 50.0, 80.0):
        (a, sa), (b, sb) = B.approx(L), Structure.approx(B, L)
        assert abs(a - b) <= 1e-3 and abs(sa - sb) <= 1e-2 * abs(sb) + 1e-300, (L, a, b, sa, sb)


def test_one_build_serves_every_step_of_the_inverse(monkeypatch):
    # the composed polynomial does not depend on eps_g: an OptComp (the float search, Newton's
    # steps, the certificate) builds it once, and a second query on the same prepared
    # composition (the profile's case) builds nothing; the answer against the exact lattice
    from exactdp import PrivacyProfile
    from exactdp.engines import balllattice

    builds = []
    real = balllattice.BallLattice._build_uncached

    def counted(self, *args):
        builds.append(args)
        return real(self, *args)

    monkeypatch.setattr(balllattice.BallLattice, "_build_uncached", counted)
    rng = random.Random(1)
    ws = [U ** rng.randint(1, 12) for _ in range(60)]
    prof = PrivacyProfile(mechanisms(exp_eps=[str(w) for w in ws]), engine="certified", method=BL)
    r = prof.epsilon("1e-5")
    assert len(builds) == 1, builds
    prof.epsilon(Fraction(1, 10**5) * (1 + Fraction(1, 10**6)))
    assert len(builds) == 1, builds
    exact = optcomp(mechanisms(exp_eps=[str(w) for w in ws]), "1e-5", engine="exact", method="lattice")
    assert r.lower <= exact.lower and exact.upper <= r.upper


def test_the_tilt_search_mean_is_the_moments_mean_bit_for_bit():
    # _mean (the bisection's fast form) against _moments' mean, the same float operations
    from exactdp.engines.balllattice import _mean, _moments, _tilt_for

    rng = random.Random(7)
    for _ in range(200):
        groups = [(rng.randint(1, 500), rng.randint(1, 10**6)) for _ in range(rng.randint(1, 40))]
        lr = rng.choice([-1, 1]) * 10 ** rng.uniform(-9, 2.5)
        assert _mean(groups, lr) == _moments(groups, lr)[0]
    B = BallLattice(RatExp.from_eps(Fraction(1, 1000)), [(a, 3) for a in range(1, 101)])
    for m in (10, 5000, 7575, 15140):
        assert B._tilt(m) == _tilt_for(B.live, B.A, m)
