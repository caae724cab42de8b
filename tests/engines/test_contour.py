"""The contour kernel (``method="lattice-contour"``): lattice tails as Cauchy integrals on one
circle, checked against independent computations:

* the tails ``sum_{m >= M} c_m w^m`` from the exact integer coefficients of
  ``prod (1 + z^a)^n`` (FLINT's exact product, summed in exact rationals for ``w = 1001/1000``
  and in mpmath at 400 bits for ``w = e^(+-1/1000)``): the ball contains them and is as
  accurate as asked;
* the exact lattice kernel (exact integer coefficients, ``e^eps`` = powers of 11/10): the
  enclosure of delta_g contains the exact value at thresholds across the law, with the circle
  used (not the fallback), also where the X tail is below its law's mean (the complement);
* exact OptComp (the exact lattice kernel's rational ``t*``) inside the contour's enclosure;
* Murtagh-Vadhan Theorem 1.5 read literally (every subset, ``proofs/_reference.py``) for
  k <= 10, where no circle can be certified (the kernel's fallback answers);
* the ball-lattice kernel on 1,000 heterogeneous mechanisms (eps in {10..500}/1000) at 30
  digits, and (slow) on the benchmark's 10^4;
* the choice: ``auto`` takes the contour for the benchmark's 10^4 mechanisms (by the estimates,
  nothing built) and does not offer it where no circle can be certified;
* the memory estimate against the peak measured (``/proc/self/status``) on 3,000 mechanisms.

No expected value comes from the kernel under test.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from fractions import Fraction

import mpmath
import pytest
from _lattice import U, lattice_case, optcomp_peak

from exactdp import composed_delta, mechanisms, optcomp
from exactdp._backend import arb, fmpq, fmpz_poly, workprec
from exactdp.engines.choose import auto_kernel, choose_structure, detect_lattice_groups
from exactdp.engines.contour import LATTICE_CONTOUR, ContourLattice, tail_sum
from exactdp.engines.fields import ArbField
from exactdp.engines.kernel import Request
from exactdp.numbers import RatExp
from exactdp_proofs._reference import subset_formula_delta

CT = "lattice-contour"


def count_poly(groups) -> list[int]:
    """The exact coefficients of ``prod (1 + z^a)^n`` (FLINT's exact integer product)."""
    c = fmpz_poly([1])
    for a, n in groups:
        c *= fmpz_poly([1] + [0] * (a - 1) + [1]) ** n
    return [int(x) for x in c.coeffs()]


def ball_contains(v, x: Fraction) -> bool:
    with workprec(max(200, x.numerator.bit_length() + x.denominator.bit_length() + 64)):
        return bool(v.contains(arb(x.numerator) / x.denominator))


TAIL_GROUPS = [
    [(1, 400), (2, 300), (3, 300)],
    [(1, 150), (2, 150), (3, 150), (5, 100), (7, 60)],
    [(a, 60) for a in range(3, 15)],
]


def rational_tail(cs, q: Fraction, sign: int, M: int) -> Fraction:
    """``sum_{m >= M} c_m q^(sign m)`` exactly: ``x^M P(x)`` for ``P = sum_j c_(M+j) z^j`` evaluated
    at ``x = q^sign`` by FLINT's exact rational evaluation (Python Fractions take minutes here)."""
    x = q if sign > 0 else 1 / q
    v = fmpz_poly(cs[M:])(fmpq(x.numerator, x.denominator)) * fmpq(x.numerator, x.denominator) ** M
    return Fraction(int(v.p), int(v.q))


@pytest.mark.parametrize("groups", TAIL_GROUPS)
def test_tail_contains_the_exact_rational_tail(groups):
    cs = count_poly(groups)
    A = len(cs) - 1
    q = Fraction(1001, 1000)
    u = RatExp.from_exp(q)
    mean_u = sum(a * n * q**a / (1 + q**a) for a, n in groups)  # the X law's mean
    sd = float(sum(a * a * n * q**a / (1 + q**a) ** 2 for a, n in groups)) ** 0.5
    done = 0
    for z in (1.0, 3.0, 6.0, 12.0):
        M = int(float(mean_u) + z * sd) + 1
        for sign in (1, -1):
            exact = rational_tail(cs, q, sign, M)
            for prec in (64, 100):
                v = tail_sum(groups, u, sign, M, prec)
                if v is None:  # no circle: allowed only where the law is thin (not these)
                    continue
                assert ball_contains(v, exact), (groups, M, sign, prec)
                assert v.rel_accuracy_bits() >= prec
                done += 1
    assert A > 0 and done >= 12


def test_tail_contains_the_tail_for_a_transcendental_base():
    # 1000 mechanisms (exponents 10..59; with every exponent 1 mod 3 instead, G dips near
    # theta = 2 pi / 3 to about 155 and no circle is certified at 100 bits: the fallback's case)
    groups = [(a, 20) for a in range(10, 60)]
    cs = count_poly(groups)
    u = RatExp.from_eps(Fraction(1, 1000))
    mpmath.mp.prec = 400
    e = mpmath.exp(mpmath.mpf(1) / 1000)
    A = len(cs) - 1
    for M in (A // 2 + 1000, A // 2 + 2000, A // 2 + 3000):  # 1.1, 2.8, 4.5 sd above the X law's mean
        for sign in (1, -1):
            x = e if sign > 0 else 1 / e
            ref = mpmath.mpf(0)
            for c in reversed(cs[M:]):  # Horner: sum_j c_(M+j) x^j, then x^M
                ref = ref * x + c
            ref *= x**M
            v = tail_sum(groups, u, sign, M, 100)
            assert v is not None
            man, ex = ref.man_exp
            with workprec(420):  # the reference to about 2^-380 (its own rounding), then overlap
                rb = arb(int(man)) * arb(2) ** int(ex)
                assert v.overlaps(rb + arb(0, abs(rb) * arb(2) ** -380)), (M, sign)
            assert v.rel_accuracy_bits() >= 100


CASES = [
    [(1, 600), (2, 400), (3, 300)],
    [(0, 7), (1, 600), (2, 500), (4, 200)],  # seven mechanisms of eps = 0 (a factor 2 each)
    [(2, 900), (3, 700)],
    [(1, 900), (2, 600), (5, 100)],
]


@pytest.mark.parametrize("spec", CASES)
def test_delta_contains_the_exact_lattice_value(spec):
    ms, A = lattice_case(spec)
    groups = [(RatExp.from_exp(U**a), n) for a, n in spec]
    struct = choose_structure(None, CT, groups=groups)
    assert isinstance(struct, ContourLattice)
    f = ArbField(120)
    # the X law's mean sits above A/2: thresholds below it (the complement), at it and above
    for frac in (Fraction(52, 100), Fraction(55, 100), Fraction(6, 10), Fraction(7, 10), Fraction(8, 10)):
        m = int(A * frac)
        t = U ** (2 * m - A) * Fraction(10**6 + 1, 10**6)
        ex = composed_delta(ms, exp_eps_g=t, engine="exact", method="lattice").exact
        r = composed_delta(ms, exp_eps_g=t, engine="certified", method=CT, digits=25)
        assert r.method == CT
        assert r.lower <= ex <= r.upper, (spec, frac)
        assert float((r.upper - r.lower) / ex) < 1e-24
        s, _ = struct.evaluate(f, RatExp.from_exp(t))
    # the circle answers most thresholds (one far out in a tail may come from the polynomial,
    # checked above all the same)
    assert struct.contour_sums >= 4


def test_optcomp_contains_the_exact_optcomp():
    ms, _ = lattice_case([(1, 500), (2, 300), (4, 100)])
    for dg in ("1e-5", "1e-2"):
        ex = optcomp(ms, dg, engine="exact", method="lattice", digits=20)
        r = optcomp(ms, dg, engine="certified", method=CT, digits=30)
        assert r.method == CT
        assert r.lower <= ex.lower and ex.upper <= r.upper or (r.lower <= ex.upper and ex.lower <= r.upper)
        # the exact t* is rational: its logarithm lies in the certified enclosure
        t = ex.exp_exact
        with workprec(200):
            lt = (arb(t.numerator) / t.denominator).log()
            assert bool(lt >= arb(r.lower.numerator) / r.lower.denominator)
            assert bool(lt <= arb(r.upper.numerator) / r.upper.denominator)


def test_small_compositions_fall_back_to_the_polynomial_and_match_every_subset():
    rng = random.Random(5)
    for k in (3, 6, 10):
        a = [rng.randint(1, 6) for _ in range(k)]
        ws = [U**x for x in a]
        ms = mechanisms(exp_eps=ws)
        groups = [(RatExp.from_exp(U**x), n) for x, n in Counter(a).items()]
        struct = choose_structure(None, CT, groups=groups)
        for t in (Fraction(1), U ** 3, U ** (sum(a) - 1)):
            ref = subset_formula_delta(ws, [0] * k, t)
            r = composed_delta(ms, exp_eps_g=t, engine="certified", method=CT, digits=20)
            assert r.lower <= ref <= r.upper
            struct.evaluate(ArbField(100), RatExp.from_exp(t))
        assert struct.contour_sums == 0 and struct.polynomial_sums >= 1


def hetero(n: int, seed: int) -> list:
    rng = random.Random(seed)
    return [Fraction(rng.randint(10, 500), 1000) for _ in range(n)]


def test_agrees_with_the_ball_lattice_kernel_on_a_thousand_heterogeneous():
    ms = mechanisms(eps=hetero(1000, 3))
    a = optcomp(ms, "1e-5", engine="certified", method=CT, digits=30)
    b = optcomp(ms, "1e-5", engine="certified", method="lattice-balls", digits=30)
    assert a.method == CT
    assert a.lower <= b.upper and b.lower <= a.upper  # both contain the true eps_g
    assert float((a.upper - a.lower) / a.lower) < 1e-29


def test_auto_takes_the_contour_for_ten_thousand_and_not_for_ten():
    for n, want in ((10**4, True), (10, False)):
        c = Counter(round(e * 1000) for e in hetero(n, 0))
        groups = [(RatExp.from_eps(Fraction(a, 1000)), k) for a, k in sorted(c.items())]
        req = Request(groups)
        req.set_lattice(detect_lattice_groups([v for v, _ in groups]))
        assert LATTICE_CONTOUR.offered(req) is want
        if want:
            assert auto_kernel(req, exact_first=False, prec=140).name == CT


@pytest.mark.slow
def test_ten_thousand_heterogeneous_agrees_with_the_ball_lattice_kernel():
    ms = mechanisms(eps=hetero(10**4, 0))
    a = optcomp(ms, "1e-5", engine="certified", method=CT, digits=30)
    b = optcomp(ms, "1e-5", engine="certified", method="lattice-balls", digits=30)
    assert a.lower <= b.upper and b.lower <= a.upper
    assert float((a.upper - a.lower) / a.lower) < 1e-29


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_the_memory_estimate_bounds_the_peak():
    rng = random.Random(0)
    eps = [Fraction(rng.randint(10, 500), 1000) for _ in range(3000)]
    r = optcomp_peak(CT, eps, warm=["0.1", "0.2"] * 150)
    assert r["method"] == CT
    assert r["peak"] <= r["estimate"] <= max(40 * r["peak"], 50 * 2**20), r


def test_no_plan_when_the_fft_grid_would_not_fit():
    """Regression (the auto benchmark): three values with no small common lattice (0.01,
    0.0123456789, 0.0271828: exponents up to 2.7e8 of e^(1e-10)) made the contour kernel's planning
    allocate a 32 GiB grid while auto asked it for an estimate. It is not offered there; auto
    answers with another kernel, and its enclosure meets meet in the middle's at 30 digits."""
    from exactdp import mechanisms, optcomp

    ms = mechanisms(eps=["0.01", "0.0123456789", "0.0271828"] * 100)
    r = optcomp(ms, "1e-5", engine="certified")
    assert r.method != CT
    other = optcomp(ms, "1e-5", engine="certified", method="windowed-groups" if r.method != "windowed-groups" else "mitm")
    assert max(r.value.lower, other.value.lower) <= min(r.value.upper, other.value.upper)


def test_one_group_agrees_with_the_windowed_kernel():
    """One group (10^6 equal mechanisms): the contour kernel is offered, and its enclosures of
    OptComp and delta_g meet the windowed kernel's (binomial tails: another algorithm)."""
    ms = mechanisms(eps=["0.01"], k=10**6)
    a = optcomp(ms, "1e-5", engine="certified", method=CT, digits=30)
    b = optcomp(ms, "1e-5", engine="certified", method="windowed", digits=30)
    assert a.method == CT and a.lower <= b.upper and b.lower <= a.upper
    da = composed_delta(ms, eps_g=b.lower, engine="certified", method=CT, digits=30)
    db = composed_delta(ms, eps_g=b.lower, engine="certified", method="windowed", digits=30)
    assert da.lower <= db.upper and db.lower <= da.upper


def test_auto_takes_windowed_for_ten_thousand_equal_and_the_contour_for_a_hundred_million():
    # by the estimates (nothing built): the windowed kernel's binomial window grows like sqrt(k)
    for k, want in ((10**4, "windowed"), (10**8, CT)):
        req = Request([(RatExp.from_eps(Fraction(1, 10000)), k)])
        req.set_lattice(detect_lattice_groups([v for v, _ in req.groups]))
        assert auto_kernel(req, exact_first=False, prec=140).name == want


def test_large_eps_per_mechanism_answers_in_few_evaluations(monkeypatch):
    """Regression: 10^4 mechanisms of eps 1 (eps_g = 4995.7 at delta_g 1e-5). The float search
    stopped on an underflowed slope 1000 left of ln t* and Newton in balls then walked the
    thresholds one linear piece at a time (186 evaluations, up to 2304 bits, 4.7 s); the answer
    meets the windowed kernel's, within a few evaluations."""
    calls = []
    orig = ContourLattice._sums_uncached
    monkeypatch.setattr(ContourLattice, "_sums_uncached", lambda self, m, p: calls.append(p) or orig(self, m, p))
    ms = mechanisms(eps=["1"], k=10**4)
    a = optcomp(ms, "1e-5", engine="certified", method=CT, digits=30)
    b = optcomp(ms, "1e-5", engine="certified", method="windowed", digits=30)
    assert a.lower <= b.upper and b.lower <= a.upper
    assert len(calls) <= 12 and max(calls) < 400, calls


def test_saddle_point_has_the_asked_mean():
    from exactdp.engines.contour import Law

    rng = random.Random(5)
    for _ in range(200):
        groups = [(rng.randint(1, 500), rng.randint(1, 10**5)) for _ in range(rng.randint(1, 20))]
        law = Law(groups)
        A = sum(a * n for a, n in groups)
        M = rng.uniform(0.001, 0.999) * A
        s = law.saddle(M)
        mean, var = law.moments(s)
        # the mean is within float resolution of M: |mean - M| <= var * (a few ulp of s)
        assert abs(mean - M) <= 1e-9 * A + var * 1e-12 * max(1.0, abs(s)), (groups, M, s, mean)
