"""Laws with atoms at irrational losses (randomized response, ``exp_eps`` mechanisms, subsampled
Laplace): the lattice is aligned to the atoms and each step's lower lattice shifted (Accounting
Lemma 8 with one tau per step), so the lower bound no longer loses up to h per atom.

References: exactdp's exact OptComp kernels on the same (eps, delta) composition (randomized
response under replace-one with two buckets is the (ln((2-p)/p), 0) mechanism); aligned steps
computed here with mpmath from the losses' closed forms, not by the library.
"""

from __future__ import annotations

import random
from fractions import Fraction as F

import mpmath as mp
import pytest

from exactdp import (
    Accountant,
    Laplace,
    Mechanism,
    PoissonSampled,
    RandomizedResponse,
    composed_delta,
    mechanisms,
    optcomp,
)


def _inside(enc, exact) -> bool:
    return enc.lower <= exact.upper and exact.lower <= enc.upper


def _aligned(gap, n: int) -> F:
    """``gap / n`` rounded down to 200 bits (mpmath at 80 digits): a step on which atoms ``gap`` apart
    lie ``n`` steps apart, up to 2^-200."""
    with mp.workdps(80):
        return F(int(mp.floor(gap() / n * mp.mpf(2) ** 200)), 2**200)


def test_atom_compositions_contain_the_exact_optimum():
    """Seeded random cases: randomized response (replace-one, 2 buckets) and (eps, delta) mechanisms
    with irrational eps (exp_eps), k up to 300, both queries, against the exact kernels."""
    rng = random.Random(23)
    for case in range(6):
        w = F(rng.randint(21, 80), 20)  # e^eps in (1.05, 4]
        k = rng.randint(1, 300)
        d = F(0)
        if case % 2 == 0:
            p = 2 / (w + 1)  # RR(p, 2) under replace-one: e^L = (2 - p) / p = w
            acc = Accountant("replace_one").compose(RandomizedResponse(p), k)
        else:
            d = F(1, 10 ** rng.randint(4, 9))
            acc = Accountant().compose(Mechanism(exp_eps=w, delta=d), k)
        comp = mechanisms(exp_eps=[w], delta=[d], k=k)
        eps = F(rng.randint(0, 15 * max(1, k // 10)), 10)
        exact_d = composed_delta(comp, eps, digits=30).value
        e = acc.delta(eps, digits=6)
        assert _inside(e, exact_d), (case, w, k, eps, e, exact_d)
        dg = min(F(1, 2), max(F(1, 10 ** rng.randint(2, 8)), 10 * k * d))  # above the point mass
        exact_e = optcomp(comp, dg, digits=30).value
        e = acc.epsilon(dg, digits=6)
        assert _inside(e, exact_e), (case, w, k, dg, e, exact_e)


def test_heterogeneous_irrational_atoms_contain_the_exact_optimum():
    """Two exp_eps mechanisms whose losses are not commensurable: the lattice is aligned to the one
    composed more often; the other's atoms are placed as before. Still an enclosure."""
    comp = mechanisms(exp_eps=[F(33, 20)] * 40 + [F(7, 5)] * 15)
    acc = Accountant().compose(comp)
    for eps in (F(0), F(2), F(5)):
        exact = composed_delta(comp, eps, digits=30).value
        assert _inside(acc.delta(eps, digits=3), exact)


@pytest.mark.parametrize("leaf,relation,comp", [
    (RandomizedResponse(F(40, 53)), "replace_one", mechanisms(exp_eps=[F(33, 20)], k=20)),  # e^L = 33/20
    (Mechanism(exp_eps=F(33, 20), delta=F(1, 10**6)), "add_remove",
     mechanisms(exp_eps=[F(33, 20)], delta=[F(1, 10**6)], k=20)),
])
def test_atom_lower_bound_error_is_second_order(leaf, relation, comp):
    """On lattices aligned to the atoms (steps L / N, L = ln(33/20)), the lower end's error against
    the exact optimum is below h^2 (relative); before the shift it lost up to h per atom and step
    (3 % at h = 1/64 for these 20 steps)."""
    acc = Accountant(relation).compose(leaf, 20)
    eps = F(3)
    exact = composed_delta(comp, eps, digits=30).value
    for n in (8, 16, 32):
        h = _aligned(lambda: mp.log(mp.mpf(33) / 20), n)
        r = acc.query("delta", eps, 6, h=h)
        assert _inside(r.value, exact)
        assert (exact.lower - r.value.lower) / exact.lower <= h * h, (n, float(h), r.value, exact)
        assert (r.value.upper - exact.upper) / exact.upper <= h * h, (n, float(h), r.value, exact)


def test_subsampled_laplace_width_is_second_order():
    """Poisson-subsampled Laplace (atoms at g(+-1), g(l) = ln(1 - q + q e^l), and a continuous part
    between): on lattices aligned to the atoms' gap, the width shrinks about 4 times when h halves
    (connect-the-dots above, shifted bins below); it shrank about 2 times (first order) when the
    lower bound put the atoms at the lattice point below them."""
    q = F(1, 10)

    def gap():
        qm = mp.mpf(q.numerator) / q.denominator
        g = [mp.log(1 - qm + qm * mp.e ** s) for s in (1, -1)]
        return g[0] - g[1]

    acc = Accountant().compose(PoissonSampled(Laplace(1), q), 30)
    widths = []
    for n in (16, 32, 64):
        r = acc.query("delta", F(1, 2), 6, h=_aligned(gap, n))
        widths.append(r.value.upper - r.value.lower)
    ratios = [float(a / b) for a, b in zip(widths, widths[1:])]
    assert all(3 <= x <= 6 for x in ratios), (ratios, [float(w) for w in widths])


def test_epsilon_at_losses_beyond_float_exponentials():
    """A thousand randomized-response steps reach losses above 709, where e^L overflows a float: the
    float proposal of epsilon works scaled, and the certified ends bracket the closed form. Two
    atoms of P-mass 1/2 at losses 1000 and 1001: delta(eps) = (1 - e^{eps - 1001}) / 2 on
    [1000, 1001], so epsilon(1/10) = 1001 + ln(4/5)."""
    from exactdp._backend import fmpz_poly
    from exactdp.accounting.lattice import LatticePLD, epsilon_bound

    Fb = 40
    up = LatticePLD(fmpz_poly([1 << (Fb - 1), 1 << (Fb - 1)]), 1000, 0, Fb, F(1), True)
    lo = LatticePLD(fmpz_poly([1 << (Fb - 1), 1 << (Fb - 1)]), 1000, 0, Fb, F(1), False)
    with mp.workdps(40):
        true = 1001 + mp.log(mp.mpf(4) / 5)
        e_hi, e_lo = epsilon_bound(up, F(1, 10), 120), epsilon_bound(lo, F(1, 10), 120)
        assert mp.mpf(e_lo.numerator) / e_lo.denominator <= true <= mp.mpf(e_hi.numerator) / e_hi.denominator
        assert (e_hi - e_lo) < F(1, 10**9)
