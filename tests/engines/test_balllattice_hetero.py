"""The ball-lattice kernel on heterogeneous lattices (issue 14: "10^4 heterogeneous lattice
mechanisms certified in seconds"): the fixed-point product tree multiplied in ``z^g`` for
factors sharing a stride ``g``, checked against independent computations:

* the exact lattice kernel (exact integer coefficients; ``e^eps`` rational, 11/10 and its
  powers) on a few hundred mechanisms with up to 30 distinct exponents, among them
  exponents that share strides and a kernel whose every exponent is a multiple of 3 (the
  final polynomial is one in ``z^3``);
* the certified lattice kernel on exact integer coefficients for 1500 mechanisms with
  ``eps`` drawn from ``{1..60}/1000`` (``u = e^(1/1000)`` transcendental);
* Murtagh-Vadhan Theorem 1.5 read literally (the hockey-stick sum over ``{0,1,2,3}^k``,
  ``proofs/_reference.py``) in mpmath at 300 bits on six mechanisms;
* the law of the tilted product computed whole in Arb at 3000 bits (no window, no cut, no
  fixed point) against the stored fixed-point coefficients and their error bounds;
* for 10^4 mechanisms with ``eps`` in ``{1..100}/1000`` (the benchmark's case; slow):
  OptComp's enclosure against delta_g just beside it, and brackets by compositions whose
  ``eps`` are rounded down and up to multiples of 0.01;
* the cost model's simulated product lengths and memory against the build's.

No expected value comes from the kernel under test.
"""

from __future__ import annotations

import math
import random
import sys
from collections import Counter
from fractions import Fraction

import mpmath
import pytest
from _lattice import optcomp_peak

from exactdp import PrivacyProfile, composed_delta, mechanisms, optcomp
from exactdp._backend import arb, arb_poly, workprec
from exactdp.engines import balllattice as bl
from exactdp.engines.balllattice import BallLattice, tree_plan
from exactdp.engines.fields import ArbField, ExactField
from exactdp.engines.lattice import Lattice
from exactdp.numbers import RatExp
from exactdp_proofs._reference import hockey_stick_mp

BL = "lattice-balls"
U = Fraction(11, 10)


def rel_width(enc) -> float:
    mid = (enc.lower + enc.upper) / 2
    return float((enc.upper - enc.lower) / mid) if mid else float(enc.upper - enc.lower)


def het_exponents(seed: int, k: int, top: int) -> list[int]:
    rng = random.Random(seed)
    return [rng.randint(1, top) for _ in range(k)]


# 300 mechanisms over 30 exponents (strides 2..15 shared); evens with a few odd primes;
# multiples of 4 and 6 (strides 12, 4, 6, 2 meet before the rest)
SPECS = [
    het_exponents(1, 300, 30),
    [2 * j for j in het_exponents(2, 150, 20)] + [3] * 20 + [7] * 10 + [11] * 5,
    [4 * j for j in het_exponents(3, 80, 12)] + [6 * j for j in het_exponents(4, 80, 10)] + [1] * 30,
]


@pytest.mark.parametrize("exps", SPECS, ids=["uniform-1..30", "evens-and-primes", "fours-and-sixes"])
def test_heterogeneous_lattices_contain_the_exact_value(exps):
    ms = mechanisms(exp_eps=[U**a for a in exps])
    A = sum(exps)
    ts = {Fraction(1), U ** (A - 1)}
    for m in (A // 2 + 1, (3 * A) // 5, (7 * A) // 10, (4 * A) // 5):
        b = U ** (2 * m - A)
        ts |= {b, b * Fraction(10**6 + 1, 10**6), b * Fraction(10**6 - 1, 10**6)}
    for t in sorted(ts):
        ex = composed_delta(ms, exp_eps_g=t, engine="exact", method="lattice").exact
        r = composed_delta(ms, exp_eps_g=t, engine="certified", method=BL, digits=25)
        assert r.method == BL
        assert r.lower <= ex <= r.upper, (t, float(ex), r)
        assert rel_width(r) <= 1e-24 or r.exact is not None


def test_optcomp_on_a_heterogeneous_lattice_overlaps_the_exact_one():
    ms = mechanisms(exp_eps=[U**a for a in SPECS[0]], delta="1e-12")
    for dg in ("1e-4", "1e-9"):
        ex = optcomp(ms, dg, engine="exact", method="lattice")
        r = optcomp(ms, dg, engine="certified", method=BL)
        assert ex.guarantee == "exact" and r.method == BL
        assert r.lower <= ex.upper and ex.lower <= r.upper
        assert rel_width(r) <= 1e-28


def test_a_kernel_in_z_cubed_against_exact_integers():
    # every exponent a multiple of 3: the whole product is a polynomial in z^3, stored so;
    # S and sigma at thresholds across the range (tilted builds beyond the mean) and the
    # class values on and off the stride, against the exact count polynomial
    u = RatExp.from_exp(U)
    groups = [(3, 200), (6, 120), (9, 40), (12, 25)]
    L, B = Lattice.from_groups(u, groups), BallLattice(u, groups)
    A = L.A
    for m in (A // 2 + 1, A // 2 + 2, (3 * A) // 5, (4 * A) // 5 + 1, A - 4):
        t = RatExp.from_exp(U ** (2 * m - A - 1))
        s_ex, g_ex = L.evaluate(ExactField(), t)
        with workprec(6000):
            s_ref = arb(str(s_ex.numerator)) / arb(str(s_ex.denominator))
            g_ref = arb(str(g_ex.numerator)) / arb(str(g_ex.denominator))
        with workprec(128):
            s, g = B.evaluate(ArbField(128), t)
            assert s.contains(s_ref) and g.contains(g_ref), m
            assert g.rel_accuracy_bits() >= 120
    assert B._built and all(b.stride == 3 for b in B._built.values())
    for m in (A // 2, A // 2 + 1, A // 2 + 3, (2 * A) // 3):
        c = B._class_value(m, 128)
        with workprec(6000):
            ref = arb(str(L.coefficient(m))) * u.arb(6000) ** m
        assert c.contains(ref) and (L.coefficient(m) == 0 or c.rel_accuracy_bits() >= 100), m


@pytest.mark.parametrize("eps_g", ["0", "2", "6"])
def test_transcendental_base_against_exact_coefficients(eps_g):
    rng = random.Random(3)
    ms = mechanisms(eps=[f"{rng.randint(1, 60)}/1000" for _ in range(1500)])
    ref = composed_delta(ms, eps_g=eps_g, engine="certified", method="lattice")
    r = composed_delta(ms, eps_g=eps_g, engine="certified", method=BL)
    assert ref.method == "lattice" and r.method == BL
    assert r.lower <= ref.upper and ref.lower <= r.upper
    assert rel_width(r) <= 1e-29


def test_six_mechanisms_against_the_hockey_stick_sum_in_mpmath():
    eps = [Fraction(3, 10), Fraction(3, 5), Fraction(9, 10), Fraction(3, 10), Fraction(6, 5), Fraction(3, 5)]
    deltas = [Fraction(0)] * 6
    ms = mechanisms(eps=[str(e) for e in eps])
    # exponents 1, 2, 3, 1, 4, 2 of u = e^(3/10): eps_g at breakpoints and between them
    for eg in (Fraction(0), Fraction(3, 10), Fraction(9, 20), Fraction(6, 5), Fraction(21, 10), Fraction(3)):
        ref = hockey_stick_mp(eps, deltas, lambda: mpmath.exp(mpmath.mpf(eg.numerator) / eg.denominator), prec=300)
        r = composed_delta(ms, eps_g=str(eg), engine="certified", method=BL, digits=40)
        tol = abs(ref) * Fraction(1, 2**250) + Fraction(1, 2**280)  # the reference is a 300-bit float
        assert r.lower - tol <= ref <= r.upper + tol, (eg, float(ref), r)
        assert rel_width(r) <= 1e-39 or r.exact is not None


def _whole_law(groups, rho, prec):
    """``P_rho`` as a polynomial in ``z``: every binomial whole, multiplied in Arb."""
    with workprec(prec):
        p = arb_poly([1])
        for a, n in groups:
            x = rho**a
            row = [arb.bin_uiui(n, j) * x**j / (1 + x) ** n for j in range(n + 1)]
            spread = []
            for j, c in enumerate(row):
                spread += ([0] * (a - 1) if j else []) + [c]
            p = p * arb_poly(spread)
        return p.coeffs()


@pytest.mark.parametrize("groups, m_hi", [
    ([(1, 1200), (2, 800)], 2400),  # far above the mean: a tilted build, windows and cuts active
    ([(2, 300), (4, 200), (6, 90)], None),  # rho = u, stride 2
    ([(1, 50), (5, 400), (7, 300)], None),
])
def test_fixed_point_coefficients_and_their_error_bounds(groups, m_hi):
    # stored f, windowed and cut law p~, whole law p: 0 <= p~ 2^P - f <= err and
    # 0 <= p - p~ <= lost, so 0 <= p 2^P - f <= err + lost 2^P; p is 0 off the stride; the
    # mass missing from the stored polynomial: 0 <= 1 - F(1) 2^-P <= lost + err n 2^-P
    u = RatExp.from_exp(U)
    B = BallLattice(u, groups)
    b, _ = B._choose(m_hi if m_hi is not None else B.A // 2, 128, bl.MARGIN_BITS, False)
    with workprec(3000):
        rho = u.arb(3000) if b.key == "u" else arb(math.exp(b.lr))
        assert b.key == "u" or m_hi is not None
        whole = _whole_law(groups, rho, 3000)
        two_p = arb(2) ** b.scale
        lost_u = b.lost * two_p
        for i in range(b.poly.length()):
            d = whole[b.offset + b.stride * i] * two_p - int(b.poly[i])
            assert d >= 0 and d <= b.err + lost_u, i
        off_stride = [whole[j] for j in range(b.offset, min(len(whole), b.offset + b.stride * b.poly.length()))
                      if (j - b.offset) % b.stride]
        assert all(c.contains(0) for c in off_stride)
        missing = 1 - arb(int(b.poly(1))) / two_p
        assert missing >= 0 and missing <= b.lost + arb(b.err * b.poly.length()) / two_p


def test_a_privacy_profile_builds_once_for_nearby_queries(monkeypatch):
    rng = random.Random(5)
    prof = PrivacyProfile(mechanisms(eps=[f"{rng.randint(1, 100)}/1000" for _ in range(1000)]), method=BL)
    builds = []
    orig = BallLattice._build_uncached

    def counting(self, key, lr, wp, margin):
        builds.append((key, wp, margin))
        return orig(self, key, lr, wp, margin)

    monkeypatch.setattr(BallLattice, "_build_uncached", counting)
    r = prof.epsilon("1e-5")
    deltas = [prof.delta(eps_g=r.lower * f) for f in (Fraction(9, 10), Fraction(1), Fraction(11, 10))]
    assert len(builds) == 1, builds
    # delta_g decreases in eps_g, and 1e-5 lies between the values beside the answer
    assert deltas[0].lower > deltas[1].upper >= deltas[1].lower > deltas[2].upper
    assert deltas[1].lower <= Fraction(1, 10**5) * (1 + Fraction(1, 10**20))


def test_the_simulated_tree_matches_the_build():
    # the cost model's lengths (tree_plan, float) against the products the build made
    for groups, lu in (
        (sorted(Counter(het_exponents(1, 2000, 100)).items()), 1 / 1000),
        ([(1, 10**5), (2, 10**5), (3, 10**5)], 1 / 100),
        ([(a, 3000) for a in range(1, 11)], 1 / 100),
    ):
        u = RatExp.from_eps(Fraction(1, round(1 / lu)))
        B = BallLattice(u, groups)
        wp = bl._prec_step(144)
        b = B._build_uncached("u", B._lu, wp, bl.MARGIN_BITS)
        tot, big, final = tree_plan(B.live, B._lu, wp + bl.MARGIN_BITS)
        assert 0.5 <= b.work[0] / tot <= 1.5, (groups[:3], b.work, tot)
        assert 0.5 <= b.work[1] / big <= 1.5, (groups[:3], b.work, big)
        assert 0.7 <= b.poly.length() / final <= 1.3, (groups[:3], b.poly.length(), final)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_the_memory_estimate_bounds_the_peak_on_a_heterogeneous_lattice():
    rng = random.Random(1)
    r = optcomp_peak(BL, [f"{rng.randint(1, 100)}/1000" for _ in range(3000)])
    assert r["method"] == BL
    assert r["peak"] <= r["estimate"] <= max(40 * r["peak"], 50 * 2**20), r


def _rounded(eps_thousandths: list[int], up: bool) -> list[str]:
    return [f"{(-(-e // 10) if up else e // 10)}/100" for e in eps_thousandths]


@pytest.mark.slow
def test_ten_thousand_heterogeneous_mechanisms():
    # the benchmark's case (u = e^(1/1000), about 100 exponents, A ~ 5e5)
    rng = random.Random(1)
    th = [rng.randint(1, 100) for _ in range(10**4)]
    ms = mechanisms(eps=[f"{e}/1000" for e in th])
    r = optcomp(ms, "1e-5", engine="certified", digits=30, method=BL)  # auto takes the contour kernel
    assert r.method == BL and rel_width(r) <= 1e-29
    # eps* is the least eps_g with delta_g <= 1e-5: just beside the enclosure, delta_g is
    # certainly above and below 1e-5 (separate evaluations at other thresholds)
    step = Fraction(1, 10**6)
    below = composed_delta(ms, eps_g=r.lower - step, engine="certified", digits=30, method=BL)
    above = composed_delta(ms, eps_g=r.upper + step, engine="certified", digits=30, method=BL)
    assert below.method == above.method == BL
    assert below.lower > Fraction(1, 10**5) > above.upper
    # brackets: every eps rounded down (up) to a multiple of 0.01 (another base, u = e^(1/100),
    # about 11 exponents) composes to less (more) privacy loss
    lo = optcomp(mechanisms(eps=_rounded(th, up=False)), "1e-5", engine="certified", digits=30)
    hi = optcomp(mechanisms(eps=_rounded(th, up=True)), "1e-5", engine="certified", digits=30)
    assert lo.upper < r.lower and r.upper < hi.lower
    # and on a threshold grid delta_g decreases, bounded by the brackets' delta_g at the same eps_g
    prev = None
    for f in (Fraction(1, 2), Fraction(3, 4), Fraction(5, 4)):
        eg = r.lower * f
        d = composed_delta(ms, eps_g=eg, engine="certified", digits=20)
        assert prev is None or d.upper < prev.lower
        prev = d


def _exact(x: arb) -> Fraction:
    m, e = x.man_exp()
    return Fraction(int(m)) * Fraction(2) ** int(e)


def test_fixed_point_leaves_bound_every_point_of_their_balls():
    # wide balls (radius a few units of 2^-P): e must cover upper 2^P - floor(lower 2^P)
    rng = random.Random(7)
    P = 100
    with workprec(300):
        balls = [arb(rng.getrandbits(120)) * arb(2) ** -(P + 20) + arb(0, arb(rng.randint(1, 40)) * arb(2) ** -P)
                 for _ in range(200)]
        balls.append(arb(0, arb(2) ** -(P + 3)))  # a ball around 0: f = 0, the width still counted
    f, e = bl._fixed(balls, P)
    worst = 0
    with workprec(300):  # the balls' ends exactly
        for b, fi in zip(balls, f):
            lo, hi = _exact(b.lower()), _exact(b.upper())
            assert fi >= 0 and max(lo, Fraction(0)) * 2**P - fi >= 0
            worst = max(worst, hi * 2**P - fi)
    assert worst <= e < worst + 2


def test_a_cut_counts_the_error_of_every_coefficient_it_removes():
    # coefficients stored f (the last nonzero: the stored length is the true one), true ones
    # anywhere in [f, f + e]: the mass reported for a cut must bound the true mass removed
    # when every true coefficient is f + e
    from exactdp._backend import fmpz_poly

    rng = random.Random(8)
    L, e = 400, 7
    f = [int(1000 * math.exp(-((i - 200) / 30) ** 2 / 2)) + rng.randint(1, 3) for i in range(L)]
    for g, o in ((1, 0), (3, 30)):
        poly, off, mass = bl._cut(fmpz_poly(f), g, o, e, o + g * 200.0, (g * 30.0) ** 2, (2.0,), 10**9)
        lo = (off - o) // g
        kept = range(lo, lo + poly.length())
        assert 0 < len(kept) < L and [int(poly[i - lo]) for i in kept] == f[lo:lo + poly.length()]
        removed = sum(f[i] + e for i in range(L) if i not in kept)
        assert mass >= removed and mass == removed, (g, mass, removed)
