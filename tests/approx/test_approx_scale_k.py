"""Theorem 1.7 and the lattice sandwich at k = 10^9: the rounded exponents are kept as counts.

Each value is checked against the definition worked out by hand: a mechanism rounded to
``a_i = 0`` contributes nothing to OptComp of the rounded problem, and ``a_i = k eps_i / eps0``
for rational eps on a rational lattice.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from exactdp import Composition, mechanisms
from exactdp.approx import delta_bounds, lattice_exponent_groups, lattice_exponents, optcomp_bounds, theorem17
from exactdp.approx.lattice import LatticeProblem
from exactdp.errors import CostTooHigh
from exactdp.numbers import RatExp

K = 10**9


@pytest.fixture
def no_expansion(monkeypatch):
    """Forbid iterating or indexing a composition of more than 10^7 mechanisms."""
    real_iter, real_get = Composition.__iter__, Composition.__getitem__

    def it(self):
        if self.k > 10**7:
            raise AssertionError(f"iterated a composition of {self.k} mechanisms")
        return real_iter(self)

    def get(self, i):
        if self.k > 10**7:
            raise AssertionError(f"indexed a composition of {self.k} mechanisms")
        return real_get(self, i)

    monkeypatch.setattr(Composition, "__iter__", it)
    monkeypatch.setattr(Composition, "__getitem__", get)


def test_theorem17_completion_with_every_eps_rounded_to_zero(no_expansion):
    # eps0 = eta / k = 10^7: every a_i = floor(0.01 / 10^7) = 0, OptComp of the rounded problem is 0
    # (delta_g >= 0 = 1 - P), so eps* = 0 + eta exactly
    r = theorem17(mechanisms(eps=["0.01"], k=K), "1e-5", eta=10**16, variant="completion")
    assert r.value.exact == 10**16 and r.degree == 0 and r.k == K


def test_theorem17_and_sandwich_of_eps_zero(no_expansion):
    z = mechanisms(eps=[0], k=K)
    assert theorem17(z, "1e-5", eta=1).value.exact == 0
    assert theorem17(z, "1e-5", eta=1, form="proof").value.exact == 0
    assert optcomp_bounds(z, "1e-5").value.exact == 0
    assert delta_bounds(z, eps_g=1).value.exact == 0


def test_exponent_groups_and_the_list_refusal(no_expansion):
    c = mechanisms(eps=["0.25", "0.3", "0.2"], k=K)
    # 0.25 / 0.1 = 2.5 -> 2, 0.3 -> 3, 0.2 -> 2 (floor); the counts add up per exponent
    assert lattice_exponent_groups(c, eps0="0.1") == [(2, 2 * K), (3, K)]
    assert lattice_exponent_groups(c, eps0="0.1", rounding="up") == [(2, K), (3, 2 * K)]
    with pytest.raises(CostTooHigh) as ei:
        lattice_exponents(c, eps0="0.1")
    assert "lattice_exponent_groups" in ei.value.alternative
    # small compositions: the list, in order, agrees with the groups
    small = mechanisms(eps=["0.25", "0.3"], k=3)
    assert lattice_exponents(small, eps0="0.1") == [2, 3] * 3


def test_lattice_problem_from_counts_refuses_the_per_mechanism_list():
    u = RatExp.from_exp(F(2))
    p = LatticeProblem(u, groups=[(0, K), (1, 2)])
    assert (p.k, p.A) == (K + 2, 2)
    with pytest.raises(CostTooHigh):
        p.a
    q = LatticeProblem(u, [1, 0, 1])
    assert (q.k, q.A, q.a, q.groups) == (3, 2, [1, 0, 1], [(0, 1), (1, 2)])
