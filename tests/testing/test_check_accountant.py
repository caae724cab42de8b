"""exactdp.testing.check_accountant / assert_sound, tested with synthetic accountants (no peer needed).

Verdicts are checked against values computed independently: the reference formulas of
``gt_reference`` (Murtagh-Vadhan Theorem 1.5 over subsets or binomially, exact or in mpmath),
hand-computed optima (2 x RR with e^eps = 2 at eps_g = 0: delta = (4 - 1)/9 = 1/3), and
``exactdp certify``, which decides a claim through delta_g at the claimed eps (the other
side of Theorem 1.5 from the OptComp enclosure that check_accountant compares with).
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction as F

import pytest
from gt_reference import delta_exact, delta_homogeneous, exp_interval
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp import InvalidArgument, Mechanism, certify, mechanisms
from exactdp.cli import main
from exactdp.events import Composition
from exactdp.testing import (
    AccountantReport,
    Case,
    assert_sound,
    check_accountant,
    decide,
    exact_answer,
    float_groups,
    optimum,
    standard_cases,
)
from exactdp.testing import strategies as gst

TWO = mechanisms(exp_eps=[2], k=2)   # delta_g(eps_g = 0) = (2*2 - 1)/(1 + 2)^2 = 1/3, by hand


def upper_float(e) -> float:
    """The smallest float >= the enclosure's upper end (a correct accountant's answer)."""
    if e.infinite:
        return math.inf
    x = float(e.upper)
    return x if F(x) >= e.upper else math.nextafter(x, math.inf)


def lower_float(e) -> float:
    if e.infinite:
        return 1e6
    x = float(e.lower)
    return x if F(x) <= e.lower else math.nextafter(x, -math.inf)


def correct_eps(comp, delta_g):
    return upper_float(optimum(Case.of(comp, delta_g)))


def correct_delta(comp, eps_g):
    return upper_float(optimum(Case.of(comp, eps_g, "delta")))


# -- the float is compared as the float it is -----------------------------------


def test_float_one_third_is_below_one_third():
    # float(1/3) = 6004799503160661/2^54 < 1/3: an accountant printing 0.3333333333333333 is unsound
    assert F(1 / 3) < F(1, 3)
    case = Case.of(TWO, 0, "delta")
    assert optimum(case) == F(1, 3) == delta_exact([2, 2], [0, 0], 1)
    v = decide(case, 1 / 3)
    assert v.status == "unsound" and v.margin == F(1 / 3) - F(1, 3)
    assert decide(case, math.nextafter(1 / 3, 1)).status == "sound"
    assert decide(case, F(1, 3)).status == "sound" and decide(case, F(1, 3)).margin == 0   # a tie is sound
    assert decide(case, "1/3").status == "sound" and decide(case, Decimal("0.3333333333333333")).status == "unsound"


def test_exact_answer_conversions():
    assert exact_answer(0.1) == F(3602879701896397, 2**55)
    assert exact_answer("0.1") == F(1, 10) and exact_answer(Decimal("0.1")) == F(1, 10)
    assert exact_answer("inf") == math.inf and exact_answer(-math.inf) == -math.inf
    import numpy as np

    assert exact_answer(np.float64(0.25)) == F(1, 4)
    for bad in (math.nan, None, True, "abc", [1.0], Decimal("NaN")):
        with pytest.raises(InvalidArgument, match="answer"):
            exact_answer(bad)


# -- synthetic accountants on the standard cases ---------------------------------


@pytest.mark.parametrize("direction", ["epsilon", "delta"])
def test_correct_accountant_is_sound_everywhere(direction):
    acc = correct_eps if direction == "epsilon" else correct_delta
    r = check_accountant(acc, direction=direction)
    assert len(r.verdicts) == len(standard_cases(direction)) >= 30
    assert r.ok and not r.unsound and not r.errors and not r.undecided, r.table()
    assert r.max_excess is not None and r.max_excess < 1e-12


def test_optimistic_accountant_is_unsound_with_the_margin():
    def optimistic(comp, delta_g):  # 1e-6 relative below the optimum
        e = optimum(Case.of(comp, delta_g))
        return 12.5 if e.infinite else float(e.lower) * (1 - 1e-6)

    r = check_accountant(optimistic)
    infinite = [v for v in r.verdicts if v.optimum.infinite]
    zero = [v for v in r.verdicts if v.optimum.exact == 0]
    assert infinite, "the standard cases include an infinite optimum"
    assert len(r.unsound) == len(r.verdicts) - len(zero)
    for v in r.unsound:
        assert v.margin.upper < 0
        if not v.optimum.infinite:
            assert -1.01e-6 < v.excess < -0.99e-6
    with pytest.raises(AssertionError) as ex:
        assert_sound(optimistic)
    text = str(ex.value)
    assert "unsound answers (below the certified optimum" in text and "UNSOUND" in text and "exactdp certify" in text


def test_loose_accountant_reports_the_excess():
    r = check_accountant(lambda c, d: 1.1 * correct_eps(c, d), name="loose")
    assert r.ok and r.name == "loose"
    finite = [v for v in r.loose if math.isfinite(v.excess)]
    assert finite and all(0.0999 < v.excess < 0.1001 for v in finite)
    assert r.loose == sorted(r.loose, key=lambda v: -v.excess)
    with pytest.raises(AssertionError, match="more than 0.05 above the optimum"):
        assert_sound(r, max_excess=0.05)
    assert assert_sound(r, max_excess=0.2) is r


@pytest.mark.parametrize("kind", ["string", "decimal", "fraction"])
def test_answers_as_strings_decimals_fractions(kind):
    def acc(comp, eps_g):
        e = optimum(Case.of(comp, eps_g, "delta"), 25)
        x = e.upper if not e.infinite else math.inf
        if isinstance(x, F) and x < F(1, 10**300):
            x = F(1, 10**300)   # an upper end like 1e-1000026 has no decimal string the parser takes
        if kind == "fraction":
            return x
        s = str(Decimal(x.numerator) / Decimal(x.denominator)) if isinstance(x, F) else "inf"
        # Decimal division rounds to nearest at 28 digits: round up by one unit in the last place
        d = Decimal(s).next_plus() if isinstance(x, F) else Decimal("inf")
        return str(d) if kind == "string" else d

    r = check_accountant(acc, direction="delta")
    assert r.ok and not r.undecided, r.table()


def test_errors_nan_none_and_raising():
    calls = []

    def flaky(comp, delta_g):
        calls.append(1)
        n = len(calls)
        if n == 1:
            return math.nan
        if n == 2:
            return None
        if n == 3:
            raise RuntimeError("boom")
        return correct_eps(comp, delta_g)

    r = check_accountant(flaky, standard_cases()[:5])
    assert [v.status for v in r.verdicts] == ["error", "error", "error", "sound", "sound"]
    assert "RuntimeError: boom" in r.errors[2].reason and "not a number" in r.errors[0].reason
    assert not r.ok
    with pytest.raises(AssertionError, match="3 errors"):
        assert_sound(r)
    assert assert_sound(r, allow_errors=True) is r
    d = r.to_dict()
    assert d["counts"] == {"sound": 2, "unsound": 0, "undecided": 0, "error": 3} and len(d["verdicts"]) == 5


def test_negative_eps_and_infinities():
    case = Case.of(mechanisms(eps=[0.1], k=10), 1e-3)
    assert decide(case, -0.5).status == "unsound" and decide(case, -math.inf).status == "unsound"
    assert decide(case, math.inf).status == "sound"
    inf_case = Case.of(mechanisms(eps=[1], delta=0.1, k=1), 0.05)   # delta_g < delta: no finite eps
    assert optimum(inf_case).infinite
    assert decide(inf_case, 1e300).status == "unsound" and decide(inf_case, "inf").status == "sound"


def test_undecided_is_reported_honestly():
    # an answer within 1e-40 of an irrational optimum, with the refinement capped at 20 digits
    case = Case.of(mechanisms(eps=[0.5], k=3), 1e-3)
    e = optimum(case, 60)
    mid = (e.lower + e.upper) / 2
    v = decide(case, mid, digits=20, max_digits=20)
    assert v.status == "undecided" and "inside the optimum's enclosure" in v.reason
    assert decide(case, mid, digits=20, max_digits=320).status in ("sound", "unsound")
    r = check_accountant(lambda c, d: mid, [case], max_digits=20)
    assert r.ok and r.undecided and assert_sound(r) is r
    with pytest.raises(AssertionError, match="1 undecided"):
        assert_sound(r, allow_undecided=False)


def test_cost_refusal_is_undecided_not_a_crash():
    # 40 distinct eps on no usable lattice, 50 copies each: 51^20 classes a half, refused up front
    big = Composition([(Mechanism(eps=F(1, i) + F(1, 10**9)), 1) for i in range(2, 42)])
    case = Case(big.repeat(50), F(1, 10**6))
    v = decide(case, 1.0)
    assert v.status == "undecided" and "CostTooHigh" in v.reason


def test_bad_arguments():
    with pytest.raises(InvalidArgument, match="direction"):
        check_accountant(correct_eps, direction="eps")
    with pytest.raises(InvalidArgument, match=r"cases\[0\]"):
        check_accountant(correct_eps, ["nonsense"])
    with pytest.raises(InvalidArgument, match=r"cases\[0\]"):
        check_accountant(correct_eps, [Case.of(TWO, 0, "delta")])   # a delta case for the epsilon direction
    with pytest.raises(InvalidArgument, match="delta_g"):
        Case.of(TWO, 1.5)
    with pytest.raises(InvalidArgument, match="eps_g"):
        Case.of(TWO, -1, "delta")


# -- the verdicts agree with independent computations -----------------------------


@settings(max_examples=30)
@given(w=st.sampled_from([F(11, 10), F(3, 2), F(2), F(5)]), k=st.integers(1, 8),
       d=st.sampled_from([F(0), F(1, 1000)]), t=st.fractions(min_value=1, max_value=40, max_denominator=50),
       rel=st.fractions(min_value=F(-1, 10), max_value=F(1, 10), max_denominator=10**6))
def test_delta_verdicts_match_the_subset_formula(w, k, d, t, rel):
    """Direction delta at exp_eps_g = t rational: the optimum is the exact subset sum, so the verdict
    on an answer is a plain comparison with it."""
    comp = mechanisms(exp_eps=[w], delta=d, k=k)
    ref = delta_exact([w] * k, [d] * k, t)
    assert ref == delta_homogeneous(w, d, k, t)
    # the Case API takes eps_g; t = e^eps_g rational only at eps_g = 0, so use an ExpNum query directly
    from exactdp.engines import composed_delta

    assert composed_delta(comp, exp_eps_g=t).exact == ref
    case = Case.of(comp, 0, "delta")
    ref0 = delta_exact([w] * k, [d] * k, 1)
    v = decide(case, ref0 * (1 + rel))
    assert v.status == ("sound" if rel >= 0 else "unsound")
    assert v.margin == ref0 * rel


@settings(max_examples=25)
@given(case=gst.cases("epsilon", composition=gst.compositions(kinds=("homogeneous", "lattice"), with_delta=False)
                      .filter(lambda c: c.k <= 60)),
       rel=st.floats(min_value=-1e-3, max_value=1e-3))
def test_epsilon_verdicts_agree_with_certify(case, rel):
    """check_accountant compares with the OptComp enclosure; certify decides the same claim through
    delta_g at the claimed eps (the other side of Theorem 1.5). They must agree."""
    e = optimum(case)
    if e.infinite or e.upper == 0:
        return
    answer = float(e.upper) * (1 + rel)
    v = decide(case, answer)
    c = certify(case.composition, F(answer), case.query)
    assert v.status == ("sound" if c.holds else "unsound")


def test_epsilon_verdict_against_an_exp_bracket_reference():
    """10 x (exp_eps = 3/2): the verdict on eps answers around the optimum matches the reference
    delta (exact, binomial) at rational brackets of e^answer."""
    comp, D = mechanisms(exp_eps=["3/2"], k=10), F(1, 1000)
    e = optimum(Case.of(comp, D), 30)
    for answer in (float(e.lower) - 1e-12, float(e.upper) + 1e-12, float(e.lower) * 0.99, float(e.upper) * 1.01):
        lo, hi = exp_interval(F(answer))
        d_hi, d_lo = delta_homogeneous(F(3, 2), 0, 10, lo), delta_homogeneous(F(3, 2), 0, 10, hi)
        ref_sound = d_hi <= D   # delta_g(answer) <= delta_g(at lo bracket) <= D
        ref_unsound = d_lo > D
        assert ref_sound != ref_unsound
        assert decide(Case.of(comp, D), answer).status == ("sound" if ref_sound else "unsound")


def test_reproduction_command_decides_the_same(capsys):
    r = check_accountant(lambda c, d: float(optimum(Case.of(c, d)).lower) * (1 - 1e-9),
                         [Case.of(mechanisms(eps=[0.1], k=100), 1e-6)])
    v = r.unsound[0]
    cmd = v.reproduction()
    assert cmd.startswith("exactdp certify --eps 0.1000000000000000055511151231257827021181583404541015625 ")
    import shlex

    rc = main(shlex.split(cmd)[1:])
    out = capsys.readouterr().out
    assert rc == 0 and "FAILS" in out


def test_float_groups_and_report_text():
    assert float_groups(mechanisms(eps=[0.5, 0.25], delta=[1e-6, 0.0], k=4)) == [(0.5, 1e-6, 4), (0.25, 0.0, 4)]
    with pytest.raises(InvalidArgument, match="binary floats"):
        float_groups(mechanisms(eps=["0.1"]))     # 1/10 is not a float
    with pytest.raises(InvalidArgument, match="rational eps"):
        float_groups(mechanisms(exp_eps=[3]))
    for c in standard_cases("epsilon", "medium") + standard_cases("delta"):
        for e, d, n in float_groups(c.composition):
            assert F(e) in {m.eps for m, _ in c.composition.groups()}
        assert F(float(c.query)) == c.query
    r = AccountantReport(direction="epsilon", name="x")
    assert str(r) == "x: 0 cases (epsilon): 0 sound, 0 unsound, 0 undecided, 0 errors" and r.ok
