"""Mechanisms with eps near the top of the float range (found by the fuzzer, issue 17).

Floats only guide the kernels; with eps = 1e308 their keys and sums overflow, and the
answer must still come from the exact rules. The value is known independently: one
mechanism with eps = E alone has delta_g(eps_g) = (e^E - e^eps_g) / (1 + e^E) (Murtagh-Vadhan
Theorem 1.5 with k = 1), and composing more mechanisms can only raise it (post-processing),
so for E = 1e308 and eps_g = 1 the composition's delta_g lies in [1 - 10^-300, 1].
"""

from __future__ import annotations

import warnings
from fractions import Fraction

import pytest

from exactdp import composed_delta, mechanisms


@pytest.mark.parametrize("method", ["mitm", "grouped", "brute", "auto"])
def test_a_mechanism_with_eps_1e308_dominates_every_method(method):
    ms = mechanisms(eps=["0.1", "0.2", "1e308"], k=4)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # numpy overflow warnings are failures here
        r = composed_delta(ms, eps_g="1", method=method, digits=20)
    lo, hi = r.value.lower, r.value.upper
    assert hi <= 1 and lo >= 1 - Fraction(1, 10**19)
