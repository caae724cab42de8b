"""Independent references for the ground-truth tests (nothing here calls exactdp's engines).

* :func:`delta_exact` is Murtagh-Vadhan Theorem 1.5 over all 2^k subsets
  (:func:`exactdp_proofs._reference.subset_formula_delta`), exact for rational ``e^eps_i`` and ``t``.
* :func:`delta_homogeneous` is the same sum for k equal mechanisms grouped by the number of
  "high" outcomes (binomial weights), exact for rational ``w`` and ``t``; fast for k in the thousands.
* :func:`delta_mp` evaluates either formula in mpmath at high precision for irrational ``w``.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import mpmath

from exactdp_proofs._reference import exp_bracket, subset_formula_delta


def delta_exact(ws, deltas, t):
    return subset_formula_delta([Fraction(w) for w in ws], [Fraction(d) for d in deltas], Fraction(t))


def delta_homogeneous(w, delta, k, t):
    """1 - (1-delta)^k (1 - sum_l C(k,l) max(w^(k-l) - t w^l, 0) / (1+w)^k), in integers:
    with w = p/q and t = a/b, the sum times q^k b is sum_l C(k,l) (p^(k-l) q^l b - a p^l q^(k-l))."""
    w, t, delta = Fraction(w), Fraction(t), Fraction(delta)
    p, q, a, b = w.numerator, w.denominator, t.numerator, t.denominator
    s = 0
    hi, lo = p**k, q**k          # p^(k-l) q^l and p^l q^(k-l), updated as l grows
    for l in range(k + 1):
        d = hi * b - a * lo
        if d <= 0:
            break
        s += comb(k, l) * d
        if l < k:
            hi, lo = hi // p * q, lo // q * p
    return 1 - (1 - delta) ** k * (1 - Fraction(s, (p + q) ** k * b))


def delta_mp(ws, deltas, t, dps=60):
    """The subset formula in mpmath (ws, t mpmath numbers or callables of the context)."""
    with mpmath.workdps(dps):
        ws = [w() if callable(w) else mpmath.mpf(w) for w in ws]
        tt = t() if callable(t) else mpmath.mpf(t)
        k = len(ws)
        S = mpmath.mpf(0)
        for mask in range(1 << k):
            a = b = mpmath.mpf(1)
            for i, w in enumerate(ws):
                if mask >> i & 1:
                    a *= w
                else:
                    b *= w
            if a - tt * b > 0:
                S += a - tt * b
        P = Z = mpmath.mpf(1)
        for w, d in zip(ws, deltas):
            P *= 1 - mpmath.mpf(Fraction(d).numerator) / Fraction(d).denominator
            Z *= 1 + w
        return +(1 - P * (1 - S / Z))


def exp_interval(x: Fraction, bits: int = 300):
    """Rationals lo <= e^x <= hi (x rational), from the Taylor bracket of the reference module."""
    return exp_bracket(Fraction(x), bits)
