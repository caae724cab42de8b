"""Meet in the middle keeps whole groups in one half when that balances (issue 16: OptComp of
1000 x e^eps = 2 and 1000 x e^eps = 3/2 took 45 s, its groups shared between the halves put
111,723 tied pairs in the band of every evaluation)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from exactdp import composed_delta, mechanisms, optcomp
from exactdp.engines.mitm import half_classes, split_groups
from exactdp.numbers import RatExp


def test_two_large_groups_go_whole_to_the_two_halves():
    a, b = RatExp.from_exp(Fraction(2)), RatExp.from_exp(Fraction(3, 2))
    left, right = split_groups([(a, 1000), (b, 1000)])
    assert {tuple(left), tuple(right)} == {((a, 1000),), ((b, 1000),)}
    # every mechanism is in exactly one half
    assert sum(n for _, n in left + right) == 2000


def test_many_small_groups_are_balanced():
    # ten groups of 3: whole groups balance as well as shared counts (4^5 classes a half)
    gs = [(RatExp.from_exp(Fraction(100 + i, 100)), 3) for i in range(1, 11)]
    left, right = split_groups(gs)
    assert half_classes(left) == half_classes(right) == 4 ** 5
    # one group of 1000 and ten of 1: sharing the big group is far better balanced than whole groups
    gs = [(RatExp.from_exp(Fraction(2)), 1000)] + [(RatExp.from_exp(Fraction(100 + i, 100)), 1) for i in range(1, 11)]
    left, right = split_groups(gs)
    assert sum(n for _, n in left + right) == 1010 and max(half_classes(left), half_classes(right)) <= 4 * 2**10 * 501


@pytest.mark.parametrize("t", [Fraction(2) ** 10, Fraction(3, 2) ** 40, Fraction(7) ** 5 * Fraction(5, 4) ** 3])
def test_mitm_equals_the_grouped_kernel_exactly(t):
    ms = mechanisms(exp_eps=["2", "3/2", "5/4"], k=60)
    a = composed_delta(ms, exp_eps_g=t, engine="exact", method="mitm").value.exact
    b = composed_delta(ms, exp_eps_g=t, engine="exact", method="grouped").value.exact
    assert a == b and a is not None


def test_the_reported_case_agrees_across_engines():
    ms = mechanisms(exp_eps=["2", "3/2"], k=1000)
    ex = optcomp(ms, "1e-3", engine="exact")
    ce = optcomp(ms, "1e-3", engine="certified", digits=30)
    assert ex.method == "mitm" and ce.value.lower <= ex.value.upper and ex.value.lower <= ce.value.upper
    # t* is exact: delta_g at t* is the claimed delta_g exactly (Theorem 1.5's inverse)
    assert composed_delta(ms, exp_eps_g=ex.exp_exact, engine="exact").value.exact == Fraction(1, 1000)
