"""OptComp whose answer eps_g exceeds 10^5 (issue 22): answered in balls, not refused.

The kernels that take ``t = e^eps_g`` as one ball (homogeneous, windowed, windowed-groups,
meet in the middle) are limited by the size of the answer's ``t`` only. The values are
checked against closed forms and against Kairouz-Oh-Viswanath's binomial sum in mpmath:

* one mechanism of eps = E: ``delta_g(t) = (e^E - t) / (1 + e^E)`` for ``t <= e^E``
  (Murtagh-Vadhan Theorem 1.5 with k = 1), so ``eps_g = ln(e^E - delta_g (1 + e^E))``;
* k mechanisms of eps = E near ``eps_g = k E``: only the full set's term is positive while
  ``t > e^((k - 2) E)``, so ``delta_g = (e^(k E) - t) / (1 + e^E)^k`` and
  ``eps_g = k E + ln(1 - delta_g (1 + e^-E)^k)``;
* k = 3 10^5 of eps = 1 (eps_g about 1.4e5, beyond the old limit): ``delta_g`` at the two
  ends of the enclosure, by the binomial sum, brackets the target (delta_g decreases in eps_g).
"""

from __future__ import annotations

import mpmath
import pytest

from exactdp import mechanisms, optcomp
from exactdp.errors import CostTooHigh


def _inside(res, exact):
    lo, hi = (mpmath.mpf(x.numerator) / x.denominator for x in (res.value.lower, res.value.upper))
    assert lo <= exact <= hi, (lo, exact, hi)
    assert hi - lo <= abs(exact) * mpmath.mpf(10) ** -25


def test_one_mechanism_of_eps_2e5():
    r = optcomp(mechanisms(eps="200000"), delta_g="0.1", engine="certified")
    with mpmath.workdps(80):
        E = mpmath.mpf(200000)
        # ln(e^E - (1 + e^E)/10) = E + ln(9/10 - e^-E / 10)
        _inside(r, E + mpmath.log(mpmath.mpf(9) / 10 - mpmath.exp(-E) / 10))


def test_twenty_mechanisms_of_eps_1e4_near_their_sum():
    r = optcomp(mechanisms(eps="10000", k=20), delta_g="0.5", engine="certified")
    assert r.method == "homogeneous"
    with mpmath.workdps(80):
        E = mpmath.mpf(10000)
        _inside(r, 20 * E + mpmath.log(1 - (1 + mpmath.exp(-E)) ** 20 / 2))


def _kov_delta(k: int, eps: int, eps_g) -> mpmath.mpf:
    """``delta_g(eps_g)`` of k mechanisms of eps (delta 0): ``sum_i C(k, i) (e^(eps (k - i)) -
    e^(eps_g + eps i))^+ / (1 + e^eps)^k``, the terms in log space, summed from the last
    positive one down until they fall below 10^-60 of the sum."""
    i_top = int(mpmath.floor((k * eps - eps_g) / (2 * eps)))  # last i with a positive term
    lz = k * mpmath.log(1 + mpmath.exp(eps))
    total = mpmath.mpf(0)
    for i in range(i_top, -1, -1):
        lt = (mpmath.loggamma(k + 1) - mpmath.loggamma(i + 1) - mpmath.loggamma(k - i + 1)
              + eps * (k - i) - lz + mpmath.log(-mpmath.expm1(eps_g + 2 * eps * i - eps * k)))
        term = mpmath.exp(lt)
        total += term
        if term < total * mpmath.mpf(10) ** -60:
            break
    return total


def test_windowed_answer_beyond_1e5_brackets_the_binomial_sum():
    k = 300_000
    r = optcomp(mechanisms(eps="1", k=k), delta_g="1e-5", engine="certified", digits=30)
    assert r.method == "windowed"
    with mpmath.workdps(70):
        dg = mpmath.mpf(1) / 10**5
        lo, hi = (mpmath.mpf(x.numerator) / x.denominator for x in (r.value.lower, r.value.upper))
        assert lo > 100_000
        assert _kov_delta(k, 1, lo) >= dg >= _kov_delta(k, 1, hi)


def test_an_answer_too_large_to_hold_is_refused_with_its_size():
    # 10^10 mechanisms of eps = 1: eps_g about 4.6e9, t a rational of about 6.7e9 bits
    with pytest.raises(CostTooHigh) as e:
        optcomp(mechanisms(eps="1", k=10**10), delta_g="1e-5", engine="certified")
    assert "eps_g = 4.6" in str(e.value) and "bits" in str(e.value)
