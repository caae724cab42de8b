"""``certify`` at its edges (issues 16 and 17): the decided precision, consistent margins,
no undocumented errors, bounded reports.

References: delta_g of k equal mechanisms with transcendental ``e^eps`` by
Kairouz-Oh-Viswanath's sum evaluated in mpmath at 4000 bits (independent of the
engines); Theorem 1.5's equivalence ``delta_g(E) <= D iff OptComp(D) <= E``.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import mpmath

from exactdp import mechanisms
from exactdp.certify import certify


def kov_delta_at(eps: F, k: int, eps_g: F, bits: int = 4000) -> F:
    """delta_g(eps_g) of k mechanisms (eps, 0), KOV / Theorem 1.5, in mpmath (rounded to a Fraction)."""
    with mpmath.workprec(bits):
        w = mpmath.exp(mpmath.mpf(eps.numerator) / eps.denominator)
        t = mpmath.exp(mpmath.mpf(eps_g.numerator) / eps_g.denominator)
        s = mpmath.fsum(math.comb(k, m) * max(w**m - t * w ** (k - m), 0) for m in range(k + 1))
        v = s / (1 + w) ** k
        m_, e_ = v.man_exp
        return F(int(m_)) * F(2) ** int(e_)


def test_a_claim_decided_at_many_digits_reports_at_them():
    # the claim sits 1e-100 (relative) below the true delta_g: decided only past 100 digits
    ms = mechanisms(eps=["0.1"], k=20)
    true = kov_delta_at(F(1, 10), 20, F(1))
    c = certify(ms, "1", true * (1 - F(1, 10**100)), max_digits=1000)
    assert not c.holds
    assert c.decided_digits is not None and c.decided_digits >= 100
    assert c.delta.lower <= true * (1 + F(1, 10**900)) and true * (1 - F(1, 10**900)) <= c.delta.upper
    # the margins are on the verdict's side (no negative "shortfall" at the printed digits)
    assert c.delta_margin().upper < 0
    assert c.eps_margin().upper <= 0 and c.eps.lower >= 1
    h = certify(ms, "1", true * (1 + F(1, 10**100)), max_digits=1000)
    assert h.holds and h.delta_margin().lower > 0 and h.eps_margin().lower >= 0 and h.eps.upper <= 1


def test_exact_decisions_have_no_decided_digits():
    c = certify(mechanisms(exp_eps=[2, 2]), claim_exp_eps=2, claim_delta="2/9")  # delta_g(ln 2) = 2/9 exactly
    assert c.holds and c.decided_digits is None


def test_many_distinct_values_decided_by_the_sandwich_with_a_bounded_report():
    # 300 distinct e^eps: no exact kernel fits the limits; the sandwich decides, and the
    # reported eps (a side result) is refined within its own budget
    ms = mechanisms(exp_eps=[f"{1000 + i}/1000" for i in range(1, 301)])
    c = certify(ms, "1", "1e-6")
    assert not c.holds and c.method == "lattice sandwich"
    assert c.eps.lower >= 1 and c.eps.upper < 1000  # OptComp(1e-6) <= sum eps_i = 38.9...
    assert c.eps_margin().upper <= 0
