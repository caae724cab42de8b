"""The windowed grouped kernel (issue 14: a few distinct eps values with large counts, any values).

Every value is checked against a different algorithm: the grouped kernel's sum over all
``prod (n_i + 1)`` classes (exact rationals where ``e^eps`` is rational, else Arb balls),
the certified ball-lattice kernel on commensurable values, the windowed homogeneous kernel
where the groups are one value split in two, and monotonicity in each eps.
"""

from __future__ import annotations

import math
import subprocess
import sys
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp import Composition, Mechanism, composed_delta, mechanisms, optcomp
from exactdp._backend import workprec
from exactdp.engines.choose import choose_structure
from exactdp.engines.fields import ArbField
from exactdp.engines.grouped import Grouped
from exactdp.engines.multiwindow import WindowedGroups
from exactdp.engines.structure import Structure
from exactdp.errors import InvalidArgument
from exactdp.numbers import RatExp

WG = "windowed-groups"


def _groups(spec):
    return [(RatExp.from_eps(F(e)), n) for e, n in spec]


def _comp(pairs) -> Composition:
    """``n`` copies of each mechanism, as one composition (counts, never a list)."""
    parts = [Composition.of([m]).repeat(n) for m, n in pairs]
    out = parts[0]
    for p in parts[1:]:
        out = out + p
    return out


def _inside(a, b) -> bool:
    """Enclosure ``a`` (lower, upper) contains the exact or enclosed ``b``."""
    return a.lower <= b.lower and b.upper <= a.upper


@pytest.mark.parametrize("spec,L", [
    ([("0.01", 300), ("0.0123456789", 500)], "1.5"),
    ([("0.01", 300), ("0.0123456789", 500)], "9"),  # far tail: the tilted windows
    ([("0.3", 40), ("0.05", 200), ("0.0271828", 120)], "4"),
    ([("0.1", 5), ("0.2", 3), ("0.01", 2000)], "2.2"),  # small groups enumerated whole
    ([("0.5", 400), ("0.25", 400)], "0"),  # ties at ln t = 0 (lambda = 0 classes), decided exactly
    ([("1/3", 30), ("1/7", 50), ("1/11", 60)], "2/3"),  # rational loss ties at eps_g
])
def test_S_and_sigma_against_the_sum_over_all_classes(spec, L):
    groups = _groups(spec)
    t = RatExp.from_eps(F(L))
    with workprec(200):
        f = ArbField(200)
        s1, g1 = WindowedGroups(groups).evaluate(f, t)
        s2, g2 = Grouped(groups).evaluate(f, t)
    assert s1.overlaps(s2) and g1.overlaps(g2)
    assert s1.rad() <= abs(s1.mid()) * 2.0**-190 and g1.rad() <= abs(g1.mid()) * 2.0**-190


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 40), st.integers(1, 60)), min_size=2, max_size=3, unique_by=lambda x: x[0]),
       st.integers(0, 30))
def test_exact_values_inside_the_enclosures(gs, tq):
    """Rational e^eps (exp_eps = 1 + a/40): the exact engine's value of delta_g (grouped kernel,
    exact rationals) lies inside the windowed grouped kernel's certified enclosure, at rational
    e^eps_g including breakpoints of the loss."""
    ms = _comp([(Mechanism(exp_eps=1 + F(a, 40)), n) for a, n in gs])
    t = 1 + F(tq, 10)
    exact = composed_delta(ms, exp_eps_g=t, engine="exact", method="grouped").value
    got = composed_delta(ms, exp_eps_g=t, engine="certified", method=WG, digits=25).value
    assert _inside(got, exact)
    assert got.upper - got.lower <= max(got.upper, F(1, 10**300)) * F(1, 10**24)


@pytest.mark.parametrize("spec", [[("0.01", 200), ("0.0123456789", 300)], [("0.3", 20), ("0.05", 100), ("0.1", 60)]])
@pytest.mark.parametrize("dg", ["1e-3", "1e-9"])
def test_optcomp_against_the_grouped_kernel(spec, dg):
    ms = _comp([(Mechanism(eps=e), n) for e, n in spec])
    a = optcomp(ms, dg, engine="certified", method=WG, digits=25).value
    b = optcomp(ms, dg, engine="certified", method="grouped", digits=25).value
    assert a.lower <= b.upper and b.lower <= a.upper
    assert a.upper - a.lower <= a.upper * F(1, 10**24)


@pytest.mark.parametrize("k", [10**5, 10**6])
def test_commensurable_groups_against_the_ball_lattice(k):
    """eps 0.01 and 0.03 (u = e^0.01, exponents 1 and 3): two different kernels, one answer."""
    ms = mechanisms(eps=["0.01", "0.03"], k=k)
    for dg in ("1e-5", "1e-12"):
        a = optcomp(ms, dg, method=WG).value
        b = optcomp(ms, dg, method="lattice-balls").value
        assert a.lower <= b.upper and b.lower <= a.upper, dg
    e = optcomp(ms, "1e-5", method="lattice-balls").value.lower
    a = composed_delta(ms, eps_g=e, method=WG).value
    b = composed_delta(ms, eps_g=e, method="lattice-balls").value
    assert a.lower <= b.upper and b.lower <= a.upper


def test_one_value_split_in_two_groups_is_the_homogeneous_composition():
    """10^6 mechanisms of eps = 0.01 as two groups whose values are equal only exactly (e^0.01
    and e^(1/100) written differently would merge; here the second group is eps = 0.01 + 1e-30,
    so the kernel sees two values): within 1e-20 of the windowed homogeneous answer for 2 x 10^6."""
    two = mechanisms(eps=["0.01", "0.010000000000000000000000000001"], k=10**6)
    one = mechanisms(eps=["0.01"], k=2 * 10**6)
    assert choose_structure(groups=[(RatExp.from_eps(F("0.01")), 1), (RatExp.from_eps(F("0.010000000000000000000000000001")), 1)],
                            method=WG).method == WG
    a = optcomp(two, "1e-5", method=WG).value
    b = optcomp(one, "1e-5", method="windowed").value
    assert abs(float(a.lower) - float(b.lower)) <= 1e-15 * float(b.lower) + 1e-20 * 2 * 10**6


def test_monotone_in_each_eps_at_scale():
    """delta_g grows with every eps_i (a coarser mechanism never helps): 0.0123456789 sits between
    0.0123456 and 0.0123457, each composition with 10^6 copies of 0.01 beside it."""
    eg = "190"
    lo, mid, hi = (composed_delta(mechanisms(eps=["0.01", e], k=10**6), eps_g=eg, method=WG).value
                   for e in ("0.0123456", "0.0123456789", "0.0123457"))
    assert lo.upper < mid.lower and mid.upper < hi.lower


def test_one_large_group_and_a_few_small_ones():
    """5 x 10^6 mechanisms of eps = 0.01 beside five others of incommensurable eps: refused before
    (the grouped sum has 1.6e8 classes); now their OptComp lies between that of the large group
    alone and that of the large group plus five copies of the largest small eps (monotone)."""
    big = Composition.of([Mechanism(eps="0.01")]).repeat(5 * 10**6)
    small = ["0.0123456789", "0.05", "0.1", "0.2", "0.3"]
    r = optcomp(big + mechanisms(eps=small), "1e-5")
    assert r.method == WG
    alone = optcomp(big, "1e-5").value
    assert alone.upper < r.value.lower
    # the same five, each raised to 0.3 (commensurable with 0.01: the ball lattice)
    upper = optcomp(big + mechanisms(eps=["0.3"], k=5), "1e-5").value
    assert r.value.upper < upper.lower


def test_float_model_agrees_with_the_ball_evaluation():
    W = WindowedGroups(_groups([("0.01", 10**6), ("0.0123456789", 10**6)]))
    for lnt in (50.0, 190.0, 300.0):
        a = W.approx(lnt)
        b = Structure.approx(W, lnt)  # the default: an evaluation in balls at 64 bits
        assert a[0] == pytest.approx(b[0], rel=1e-12) and a[1] == pytest.approx(b[1], rel=1e-6)


def test_auto_takes_it_where_other_kernels_refuse():
    ms = mechanisms(eps=["0.01", "0.0123456789"], k=10**5)
    r = optcomp(ms, "1e-5")
    assert r.method == WG
    with pytest.raises(InvalidArgument):
        optcomp(mechanisms(eps=["0.01"], k=10), "1e-5", method=WG)


def test_command_line():
    p = subprocess.run([sys.executable, "-m", "exactdp", "epsilon", "--eps", "0.01,0.0123456789", "-k", "100000",
                        "--delta-g", "1e-5", "--method", WG], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and "windowed-groups" in p.stdout
    ref = optcomp(mechanisms(eps=["0.01", "0.0123456789"], k=10**5), "1e-5").value
    assert f"{math.floor(float(ref.lower) * 1e6) / 1e6:.6f}" in p.stdout
