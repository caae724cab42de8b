"""Rényi DP (Vadhan-Zhang Section 5), each value computed twice.

* Randomized response and its k-fold composition against a direct sum over the 2^k outcomes
  (binomially grouped, written here) and against mpmath at 50 digits when e^eps is irrational.
* Lemma 5.4 (products add) and Lemma 5.3's identity against direct computation on the joint law.
* Lemma 5.5's recursion against enumeration of every deterministic adversary.
* Theorem 5.1 on small concurrent compositions: exact equality ``E(ConComp) = prod E(M_i)``.
"""

from __future__ import annotations

import random
from fractions import Fraction as F
from math import comb

import mpmath
import pytest

from exactdp import InvalidArgument, mechanisms
from exactdp.interactive import random_two_round, randomized_response
from exactdp.renyi import (
    rdp_composition,
    rdp_randomized_response,
    renyi_chain,
    renyi_concurrent,
    renyi_divergence,
    renyi_interactive,
)


def test_rr_k_fold_against_direct_sum():
    for w, k, a in [(F(3), 1, 2), (F(3), 5, 2), (F(3, 2), 7, 3), (F(4), 3, 4)]:
        p, q = w / (1 + w), 1 / (1 + w)
        # outcomes of k RRs: j agreements; P = p^j q^(k-j), Q = q^j p^(k-j)
        E = sum(comb(k, j) * (p ** j * q ** (k - j)) ** a / (q ** j * p ** (k - j)) ** (a - 1) for j in range(k + 1))
        r = rdp_randomized_response(a, exp_eps=w, k=k)
        assert r.exp_exact == E and r.guarantee == "exact"
        with mpmath.workdps(50):  # never change the global precision other tests rely on
            ref = mpmath.log(mpmath.mpf(E.numerator) / E.denominator) / (a - 1)
            lo, hi = r.value.lower, r.value.upper
            assert mpmath.mpf(lo.numerator) / lo.denominator - mpmath.mpf(10) ** -40 <= ref
            assert ref <= mpmath.mpf(hi.numerator) / hi.denominator + mpmath.mpf(10) ** -40


@mpmath.workdps(50)
def test_rr_irrational_against_mpmath():
    for eps, k, a in [("0.1", 10, "2"), ("1", 3, "3/2"), ("0.5", 1, "7/3")]:
        r = rdp_randomized_response(a, eps=eps, k=k, digits=30)
        w = mpmath.e ** mpmath.mpf(eps)
        al = mpmath.mpf(F(a).numerator) / F(a).denominator
        ref = k * mpmath.log((w ** al + w ** (1 - al)) / (1 + w)) / (al - 1)
        lo, hi = r.value.lower, r.value.upper
        assert r.guarantee == "enclosure"
        assert mpmath.mpf(lo.numerator) / lo.denominator <= ref + mpmath.mpf(10) ** -45
        assert ref - mpmath.mpf(10) ** -45 <= mpmath.mpf(hi.numerator) / hi.denominator


def test_rational_powers_exact_and_fractional_order():
    # alpha = 3/2 with P/Q perfect squares: exact
    r = renyi_divergence([F(4, 5), F(1, 5)], [F(1, 5), F(4, 5)], F(3, 2))
    assert r.exp_exact == F(4, 5) * 2 + F(1, 5) * F(1, 2)  # (P/Q)^(3/2) Q: 4^(3/2)/5 + (1/4)^(3/2) 4/5
    assert renyi_divergence([F(1, 2), F(1, 2)], [F(1, 3), F(2, 3)], F(3, 2)).exp_exact is None
    assert renyi_divergence([F(1, 2), F(1, 2)], [F(1), F(0)], 2).infinite
    assert renyi_divergence([F(1, 2), F(1, 2)], [F(1, 2), F(1, 2)], 5).value.exact == 0


def test_lemma_5_4_products_add():
    rng = random.Random(5)
    for _ in range(30):
        def dist(n):
            v = [F(rng.randint(1, 5)) for _ in range(n)]
            return [x / sum(v) for x in v]
        U, U2, V, V2 = dist(2), dist(2), dist(3), dist(3)
        a = rng.choice([2, 3, 4])
        joint = renyi_divergence([x * y for x in U for y in V], [x * y for x in U2 for y in V2], a)
        assert joint.exp_exact == renyi_divergence(U, U2, a).exp_exact * renyi_divergence(V, V2, a).exp_exact


def test_lemma_5_3_identity_against_joint():
    rng = random.Random(6)
    for _ in range(30):
        def dist(n):
            v = [F(rng.randint(1, 5)) for _ in range(n)]
            return [x / sum(v) for x in v]
        U, U2 = dist(3), dist(3)
        conds = [(dist(2), dist(2)) for _ in range(3)]
        a = rng.choice([2, 3])
        Es = [renyi_divergence(c, c2, a).exp_exact for c, c2 in conds]
        joint = renyi_divergence([U[i] * conds[i][0][j] for i in range(3) for j in range(2)],
                                 [U2[i] * conds[i][1][j] for i in range(3) for j in range(2)], a)
        chain = renyi_chain(U, U2, Es, a)
        assert chain.exp_exact == joint.exp_exact
        # Lemma 5.3: raising a conditional divergence raises the joint one
        assert renyi_chain(U, U2, [Es[0] + 1] + Es[1:], a).exp_exact > joint.exp_exact


def test_lemma_5_5_dp_equals_enumeration_and_theorem_5_1():
    rng = random.Random(7)
    for i in range(8):
        _, m = random_two_round(rng, 6)
        for a in (2, 3, F(5, 2)):
            x, y = renyi_interactive(m, a), renyi_interactive(m, a, method="enumerate")
            if x.exp_exact is not None:
                assert x.exp_exact == y.exp_exact
            else:
                assert x.value.lower <= y.value.upper and y.value.lower <= x.value.upper
        _, m2 = random_two_round(rng, 6)
        cc, parts = renyi_concurrent([m, m2], 2)
        assert cc.exp_exact == parts[0].exp_exact * parts[1].exp_exact
        if i < 2:
            cce, _ = renyi_concurrent([m, randomized_response(3)], 2, method="enumerate")
            assert cce.exp_exact == renyi_interactive(m, 2).exp_exact * F(7, 3)


def test_composition_and_bad_input():
    assert rdp_composition(mechanisms(exp_eps=[3, 2]), 2).exp_exact == F(7, 3) * F(3, 2)  # (4 + 1/2)/3 = 3/2
    assert rdp_composition(mechanisms(exp_eps=[3], delta="1/10"), 2).infinite
    for bad in (1, "0.5", "nan", -2):
        with pytest.raises(InvalidArgument):
            rdp_randomized_response(bad, exp_eps=2)
    with pytest.raises(InvalidArgument):
        rdp_randomized_response(2)


def test_joint_quasi_convexity_lemma_2_2_corrected_form():
    """Vadhan-Zhang Lemma 2.2 as printed mixes ``(1 - l) Q0 + Q1`` (missing l) and ``D_inf``; checked here in
    the form its use needs: D_alpha((1-l) P0 + l P1 || (1-l) Q0 + l Q1) <= max(D_alpha(P0||Q0), D_alpha(P1||Q1))."""
    rng = random.Random(9)
    for _ in range(60):
        def dist(n):
            v = [F(rng.randint(1, 5)) for _ in range(n)]
            return [x / sum(v) for x in v]
        P0, Q0, P1, Q1 = dist(3), dist(3), dist(3), dist(3)
        lam = F(rng.randint(1, 9), 10)
        a = rng.choice([2, 3])
        mix = renyi_divergence([(1 - lam) * x + lam * y for x, y in zip(P0, P1)],
                               [(1 - lam) * x + lam * y for x, y in zip(Q0, Q1)], a).exp_exact
        assert mix <= max(renyi_divergence(P0, Q0, a).exp_exact, renyi_divergence(P1, Q1, a).exp_exact)
