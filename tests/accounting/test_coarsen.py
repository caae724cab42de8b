"""Re-binning between powers (Accounting Lemma 13, ``exactdp.accounting.lattice.coarsen``): the
re-binned bounds against independent values: the closed form of k Gaussian steps (Lemma 2: one
Gaussian with sensitivity sqrt(k)), delta of small random lattice laws composed with random
measures summed directly in mpmath (a second algorithm, not ``delta_bound``), and the DP-SGD case
that the re-binning (and the cut budgets scaled by j / k) brought within 3 digits, against
certified bounds computed without re-binning."""

from __future__ import annotations

import math
import random
import sys
from fractions import Fraction as F
from pathlib import Path

import mpmath as mp
import pytest

from exactdp import Accountant, Gaussian, PoissonSampled
from exactdp._backend import fmpz_poly
from exactdp.accounting import lattice as Lt
from exactdp.accounting.laws import law_of
from exactdp.numbers import arb_bounds

sys.path.insert(0, str(Path(__file__).parent))
import dp_reference as R  # noqa: E402


def _delta_direct(d: Lt.LatticePLD, eps) -> mp.mpf:
    """Lemma 1's sum over the atoms of ``d``, term by term in mpmath (60 digits)."""
    with mp.workdps(60):
        one = mp.mpf(2) ** d.F
        h, tau = mp.mpf(d.h.numerator) / d.h.denominator, mp.mpf(d.tau.numerator) / d.tau.denominator
        s = mp.mpf(d.inf)
        for n, c in enumerate(d.poly.coeffs()):
            loss = (d.off + n) * h - tau
            if c and loss > eps:
                s += int(c) * (1 - mp.exp(eps - loss))
        return s / one


def _random_pld(rng, upper: bool, F_bits: int = 20, h=F(1, 7), tau=F(0)) -> Lt.LatticePLD:
    n = rng.randint(3, 30)
    cs = [rng.randint(0, 1 << 12) if rng.random() < 0.8 else 0 for _ in range(n)]
    return Lt.LatticePLD(fmpz_poly(cs), rng.randint(-20, 5), rng.choice((0, 0, 5)), F_bits, h, upper, tau)


def _product(a: Lt.LatticePLD, b: Lt.LatticePLD) -> Lt.LatticePLD:
    """The exact product of two lattice laws (units 2^-(2F), no rounding, no cut)."""
    fa, fb = a.mass(), b.mass()
    inf = fa * b.inf + a.inf * fb + a.inf * b.inf
    return Lt.LatticePLD(a.poly * b.poly, a.off + b.off, inf, a.F + b.F, a.h, a.upper, a.tau + b.tau)


@pytest.mark.parametrize("m", [2, 3, 5])
def test_coarsened_small_laws_bound_the_original_composed_with_anything(m):
    """Random small lattice laws (gaps, a +inf mass, a lower shift tau), re-binned m times coarser,
    composed with random lattice laws on the coarse step: the upper side's delta is at least the
    original's composed with the same law (the original put on the fine lattice exactly), the
    lower side's at most, at eps on both sides of every atom; summed directly."""
    rng = random.Random(13 + m)
    for trial in range(12):
        for upper in (True, False):
            tau = F(0) if upper else F(rng.randint(0, 6), 70)
            d = _random_pld(rng, upper, tau=tau)
            c = Lt.coarsen(d, m)
            assert c.h == d.h * m and c.tau == d.tau and c.inf == d.inf
            # the upper split keeps (at least) the mass; the lower merge keeps exactly what it had
            assert (c.mass() >= d.mass()) if upper else (c.mass() == d.mass())
            rest = _random_pld(rng, upper, h=d.h * m)
            rest = Lt.LatticePLD(rest.poly, rest.off, rest.inf, rest.F, rest.h, upper, F(0))
            a = _product(c, rest)
            b = _product(d, Lt.on_step(rest, d.h))
            for k in range(-6, 40):
                eps = mp.mpf(k) / 9
                da, db = _delta_direct(a, eps), _delta_direct(b, eps)
                if upper:
                    assert da >= db, (trial, m, k, da, db)
                else:
                    assert da <= db, (trial, m, k, da, db)


def test_lower_sweep_lifts_pools_to_their_point():
    """Uniform mass on every fine point: every pool is lifted to the coarse point at or above its
    first atom, so no mass falls by a whole coarse step: the re-binned lower law's mean loss stays
    within one coarse step of the original's, and below it (a post-processing lowers the mean
    of e^{-L}-weighted losses only through Jensen)."""
    d = Lt.LatticePLD(fmpz_poly([1000] * 200), -100, 0, 20, F(1, 50), False)
    c = Lt.coarsen(d, 4)

    def mean(x):
        return sum(int(v) * ((x.off + n) * float(x.h)) for n, v in enumerate(x.poly.coeffs())) / x.mass()

    assert mean(d) - 4 * float(d.h) < mean(c) <= mean(d) + 4 * float(d.h)
    assert c.mass() == d.mass()


@R.at50
@pytest.mark.parametrize("sigma,k", [(F(3, 2), 64), (F(4), 200)])
def test_re_binned_gaussian_powers_enclose_the_closed_form(sigma, k):
    """k unsampled Gaussian steps on the lattice, the power re-binned often (16 and 32 points a
    standard deviation, far coarser than the accountant's choice): both bounds still enclose Lemma
    2's closed form with sensitivity sqrt(k), within 5e-3 relative of it, and the width at eps = 0
    shrinks about 4 times when the points a standard deviation double (second order)."""
    law = law_of(Gaussian(sigma), "remove")
    h = F(1, 256)
    Fb = 60
    ia, ib = Lt.window(law, h, 1e-18)
    u1, l1 = Lt.discretise(law, h, Fb, ia, ib, Fb + 48)
    sd = math.sqrt(2 * (1 / (2 * float(sigma) ** 2)))  # the loss's variance is 2 eta
    mu = mp.sqrt(k) / R.mpf(sigma)
    widths = []
    for r in (16.0, 32.0):
        U = Lt.power(u1, k, 64, resolution=(sd, r))
        L = Lt.power(l1, k, 64, resolution=(sd, r))
        assert U.h > h and L.h > h  # re-binned
        for eps in (F(0), F(1, 2), F(2), F(4)):
            true = R.gdp_delta(mu, R.mpf(eps))
            hi = R.mpf(arb_bounds(Lt.delta_bound(U, eps, 160))[1])
            lo = R.mpf(arb_bounds(Lt.delta_bound(L, eps, 160))[0])
            assert lo <= true <= hi, (r, eps, lo, true, hi)
            if true > 1e-6:
                assert hi - lo < 5e-3 * true
            if eps == 0:
                widths.append(hi - lo)
    assert 2.5 < widths[0] / widths[1] < 6.5


def test_dpsgd_sigma_4_at_10_5_steps_answers_at_3_digits(monkeypatch):
    """sigma 4, q 1/256, 10^5 steps, delta 1e-5: refused before (the cut mass of the partial
    powers, repeated k / j times, held the width above 5e-4), now an enclosure at 3 digits that
    meets the certified enclosure computed on one lattice without re-binning."""
    ev = PoissonSampled(Gaussian(4), F(1, 256))
    e = Accountant().compose(ev, 10**5).epsilon("1e-5", digits=3)
    assert e.lower <= e.upper and float(e.upper - e.lower) <= 1e-3 * float(e.upper)
    import exactdp.accounting.accountant as A

    monkeypatch.setattr(A, "MIN_POINTS_PER_SD", 10**9)  # no re-binning
    acc = Accountant().compose(ev, 10**5)
    h = A._step(acc._parts, "remove", 2.0**-14, None)
    ref = acc.query("epsilon", "1e-5", 3, h=h).value
    assert ref.lower <= e.upper and e.lower <= ref.upper


@pytest.mark.slow
def test_dpsgd_sigma_half_at_delta_1e_15_answers_at_3_digits():
    """sigma 1/2, q 1/256, 10^5 steps, delta 1e-15 (refused before: 5.8e6 points): an enclosure at
    3 digits (about 30 s on a 2-core machine), above the 10^4-step answer (monotone in k)."""
    ev = PoissonSampled(Gaussian(F(1, 2)), F(1, 256))
    e = Accountant().compose(ev, 10**5).epsilon("1e-15", digits=3)
    assert float(e.upper - e.lower) <= 1e-3 * float(e.upper)
    small = Accountant().compose(ev, 10**4).epsilon("1e-15", digits=3)
    assert small.upper < e.lower
