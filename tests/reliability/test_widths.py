"""Enclosures as narrow as the point allows (issue 26): the certified trade-off function at
alpha = 0 is its vertical first segment's lower end, f(0) = prod (1 - delta_i) exactly; it
returned [f(0), 1]."""

from __future__ import annotations

from fractions import Fraction

import pytest

from exactdp import composition_tradeoff, mechanisms


@pytest.mark.parametrize("eps, delta, k", [(["1.989"], ["88e-3"], 1), (["0.1", "0.3"], ["1e-3", "0"], 3),
                                           (["0.5"], ["1/7"], 4)])
def test_f_at_zero_is_exact(eps, delta, k):
    f = composition_tradeoff(mechanisms(eps=eps, delta=delta, k=k))
    want = Fraction(1)
    for d in delta:
        want *= (1 - Fraction(d)) ** k  # prod (1 - delta_i): the mass both distributions share
    v = f(0)
    assert v.exact == want, (v, want)
    # a little to the right, an enclosure of width far below 10^-15 that stays below f(0)
    w = f(Fraction(1, 10**6))
    assert w.upper <= want and w.upper - w.lower < Fraction(1, 10**15)
