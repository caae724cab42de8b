"""Two-sided verdicts on accountants of events (exactdp.testing.dpsgd): each verdict kind shown on
a deliberately wrong toy accountant whose answers are built from independent references
(tests/accounting/dp_reference.py: the mu-GDP closed form in mpmath at 50 digits, and the
one- and two-step subsampled Gaussian by closed form and quadrature), never from exactdp's."""

from __future__ import annotations

import math
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest

from exactdp import Gaussian, Mechanism, PoissonSampled
from exactdp.errors import InvalidArgument
from exactdp.noise_events import Composed
from exactdp.testing import AccountantReport, EventCase, EventReport, assert_sound, check_accountant, check_events
from exactdp.testing.dpsgd import FLOAT_LEVEL, decide_event, dpsgd_params

sys.path.insert(0, str(Path(__file__).parents[1] / "accounting"))
import dp_reference as R  # noqa: E402

# 4 steps of Gaussian(1): mu = 2 (mu^2 = 4 x 1/1); its eps at delta 1e-5 by bisection of the closed form
GAUSS4 = Composed([(Gaussian(1), 4)])
T_GAUSS4 = float(R.invert(lambda e: R.gdp_delta(2, e), R.mpf("1e-5")))

# two steps of PoissonSampled(Gaussian(1), 1/2), remove direction: delta at eps = 1 by quadrature
SUB2 = Composed([(PoissonSampled(Gaussian(1), F(1, 2)), 2)])
T_SUB2 = float(R.sub_delta(1, 1, F(1, 2), 2, "remove"))


def toy(value):
    return lambda event, query, relation: value


def one(value, claim="upper", cases=None, **kw):
    r = check_events(toy(value), cases or [(GAUSS4, "1e-5")], claim=claim, **kw)
    assert len(r.verdicts) == 1
    return r.verdicts[0]


@pytest.mark.parametrize("method", ["auto", "accountant"])
def test_upper_bound_ten_percent_low_is_unsound_and_high_is_sound(method):
    v = one(T_GAUSS4 * 0.9, method=method)
    assert v.status == "unsound" and v.severity == "material"
    assert v.error.upper < 0 and abs(v.relative + 0.1) < 1e-3
    assert one(T_GAUSS4 * 1.1, method=method).status == "sound"


@pytest.mark.parametrize("method", ["auto", "accountant"])
def test_lower_bound_ten_percent_high_is_invalid_and_low_is_sound(method):
    v = one(T_GAUSS4 * 1.1, "lower", method=method)
    assert v.status == "invalid" and v.severity == "material" and v.error.lower > 0
    assert one(T_GAUSS4 * 0.9, "lower", method=method).status == "sound"


def test_estimate_with_and_without_an_error_bar():
    est = T_GAUSS4 * 1.01
    good = one({"estimate": est, "error": 0.02 * T_GAUSS4})
    bad = one({"estimate": est, "error": 0.001 * T_GAUSS4})
    plain = one(est, "estimate")
    assert (good.status, bad.status, plain.status) == ("sound", "bar-violated", "reported")
    # the signed error encloses est - true (the mpmath value, 40 digits)
    assert float(plain.error.lower) - 1e-12 <= est - T_GAUSS4 <= float(plain.error.upper) + 1e-12
    assert bad.severity == "material" and plain.severity == ""


def test_prv_style_triple_judged_claim_by_claim():
    r = check_events(toy({"lower": T_GAUSS4 * 1.05, "estimate": T_GAUSS4, "upper": T_GAUSS4 * 0.95}),
                     [(GAUSS4, "1e-5")])
    assert {v.claim: v.status for v in r.verdicts} == {"lower": "invalid", "estimate": "reported", "upper": "unsound"}
    assert not r.ok and len(r.invalid) == 1 and len(r.unsound) == 1


def test_refines_only_as_needed_and_undecided_only_at_max_digits():
    # 1e-4 relative below the truth: 2 digits cannot decide, 6 can (closed form: cheap)
    v = one(T_GAUSS4 * (1 - 1e-4), max_digits=8)
    assert v.status == "unsound" and 4 <= v.digits <= 8
    assert one(T_GAUSS4 * 0.5).digits == 2
    # the float nearest the truth: no enclosure of 12 digits separates it
    u = one(T_GAUSS4, max_digits=12)
    assert u.status == "undecided" and u.digits == 12 and "12 digits" in u.reason


def test_float_level_severity():
    v = one(T_GAUSS4 * (1 - 1e-11), max_digits=12)
    assert v.status == "unsound" and v.severity == "float-level" and abs(v.relative) < FLOAT_LEVEL


def test_subsampled_two_steps_delta_direction_remove():
    cases = [EventCase.of(SUB2, 1, direction="delta", relation="remove")]
    low = check_events(toy(T_SUB2 * 0.9), cases, direction="delta").verdicts[0]
    high = check_events(toy(T_SUB2 * 1.1), cases, direction="delta", claim="lower").verdicts[0]
    assert (low.status, high.status) == ("unsound", "invalid")
    ok = check_events(toy({"lower": T_SUB2 * 0.9, "upper": T_SUB2 * 1.1}), cases, direction="delta")
    assert ok.ok and len(ok.sound) == 2


def test_infinite_optimum():
    # an (eps, delta) step keeps a point mass delta_1 = 1/100 at infinite loss; asked at 1e-3 < delta_1, eps = inf
    ev = Composed([(PoissonSampled(Mechanism(eps=1, delta=F(1, 100)), 1), 1), (Gaussian(1), 1)])
    r = check_events(toy({"upper": math.inf, "lower": 50.0}), [(ev, "1e-3")])
    assert {v.claim: v.status for v in r.verdicts} == {"upper": "sound", "lower": "sound"}
    assert one(1e6, cases=[(ev, "1e-3")]).status == "unsound"


def test_check_accountant_and_assert_sound_dispatch_on_events():
    r = check_accountant(toy(T_GAUSS4 * 0.9), [(GAUSS4, "1e-5")])
    assert isinstance(r, EventReport) and len(r.unsound) == 1
    with pytest.raises(AssertionError, match="1 unsound") as e:
        assert_sound(toy(T_GAUSS4 * 0.9), [(GAUSS4, "1e-5")])
    assert "UNSOUND" in str(e.value)
    with pytest.raises(AssertionError, match="1 invalid"):
        assert_sound(toy(T_GAUSS4 * 1.1), [(GAUSS4, "1e-5")], claim="lower")
    assert assert_sound(toy(T_GAUSS4 * 1.1), [(GAUSS4, "1e-5")]).ok
    # (eps, delta) compositions keep their report
    from exactdp import mechanisms

    assert isinstance(check_accountant(toy(0.5), [(mechanisms(exp_eps=[2], k=2), 0)], direction="delta"),
                      AccountantReport)


def test_errors_and_bad_input():
    def boom(event, query, relation):
        raise RuntimeError("no")

    assert check_events(boom, [(GAUSS4, "1e-5")]).errors[0].reason.startswith("the accountant raised RuntimeError")
    assert one(float("nan")).status == "error"
    with pytest.raises(InvalidArgument, match="claim"):
        check_events(toy(1.0), [(GAUSS4, "1e-5")], claim="median")
    with pytest.raises(InvalidArgument, match="answer"):
        check_events(toy({"upper": 1.0, "median": 2.0}), [(GAUSS4, "1e-5")])
    with pytest.raises(InvalidArgument, match="delta"):
        EventCase.of(GAUSS4, 0)
    with pytest.raises(InvalidArgument, match="relation"):
        EventCase.of(GAUSS4, "1e-5", relation="swap")


def test_decide_event_against_a_stored_enclosure_never_recomputes():
    from exactdp.numbers import Enclosure

    c = EventCase.of(GAUSS4, "1e-5")
    stored = EventCase(c.event, c.query, direction=c.direction, relation=c.relation, certified=Enclosure(F(1), F(2)), digits=1)
    [v] = decide_event(stored, {"upper": 1.5})
    assert v.status == "undecided" and v.certified == Enclosure(F(1), F(2))


def test_dpsgd_params():
    assert dpsgd_params(SUB2) == (1, F(1, 2), 2)
    assert dpsgd_params(GAUSS4) == (1, 1, 4)
    with pytest.raises(InvalidArgument):
        dpsgd_params(Composed([(Gaussian(1), 1), (Gaussian(2), 1)]))
