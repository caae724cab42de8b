"""``certify`` and ``exactdp certify`` against independent computations.

The truth of a claim "(E, D)-DP" is computed here from first principles:
for rational ``e^eps`` the exact ``delta_g(E)`` of Theorem 1.5 by summing over
all subsets (``exactdp_proofs._reference.subset_formula_delta``); for rational eps by
the core's brute-force kernel at 60 digits (a second algorithm).
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from _cli import run
from hypothesis import example, given, settings
from hypothesis import strategies as st

from exactdp import Mechanism, composed_delta, mechanisms
from exactdp.certify import Undecided, certify
from exactdp.cli import main
from exactdp.errors import InvalidArgument
from exactdp_proofs._reference import subset_formula_delta

F = Fraction

RAT_W = st.builds(lambda q, p: F(q + p, q), st.integers(1, 4), st.integers(0, 12))
DELTA = st.one_of(st.just(F(0)), st.sampled_from([F(1, 100), F(1, 20)]))


@given(
    st.lists(st.tuples(RAT_W, DELTA), min_size=1, max_size=5),
    st.fractions(F(1), F(6), max_denominator=12),
    st.sampled_from([F(-1, 1000), F(0), F(1, 10**9), F(1, 50)]),
)
def test_decision_equals_exact_delta(items, t, shift):
    ws = [w for w, _ in items]
    ds = [d for _, d in items]
    exact = subset_formula_delta(ws, ds, t)
    D = exact + shift
    if not (0 <= D < 1):
        return
    c = certify([Mechanism(exp_eps=w, delta=d) for w, d in items], claim_exp_eps=t, claim_delta=D)
    assert c.holds == (exact <= D)
    assert c.delta_lower == c.delta_upper == exact  # the exact engine
    lo, hi = c.delta_margin()
    assert lo == hi == D - exact
    elo, ehi = c.eps_margin()
    assert (elo >= 0) if c.holds else (ehi < 0 or (elo <= 0 <= ehi))


@settings(max_examples=15)
@given(
    st.lists(st.tuples(st.fractions(F(0), F(2), max_denominator=20), DELTA), min_size=1, max_size=4),
    st.fractions(F(0), F(4), max_denominator=10),
    st.fractions(F(0), F(99, 100), max_denominator=1000),
)
@example([(F(0), F(0)), (F(0), F(1, 20))], F(0), F(1, 20))  # every eps_i = 0 (a core bug, since fixed)
def test_decision_eps_space_matches_brute_force(items, E, D):
    ms = [Mechanism(eps=e, delta=d) for e, d in items]
    ref = composed_delta(ms, eps_g=E, method="brute", engine="certified", digits=60)
    if ref.lower <= D <= ref.upper and ref.lower != ref.upper:
        return  # too close to call even at 60 digits (does not happen with these denominators)
    c = certify(ms, E, D)
    assert c.holds == (ref.upper <= D)
    assert c.delta_lower <= ref.upper and ref.lower <= c.delta_upper
    if not c.eps_infinite:
        assert (c.eps_upper <= E) or not c.holds or c.eps_lower <= E


def test_tie_holds_with_exact_zero_margin():
    # two mechanisms with e^eps = 2: delta_g(ln 2) = (4 - 2)/(3*3) = 2/9 exactly
    c = certify(mechanisms(exp_eps=[2, 2]), claim_exp_eps=2, claim_delta="2/9")
    assert c.holds and c.delta_margin() == (0, 0) and c.eps_margin() == (0, 0)
    assert not certify(mechanisms(exp_eps=[2, 2]), claim_exp_eps=2, claim_delta=F(2, 9) - F(1, 10**30)).holds
    # eps >= sum eps_i: delta_g = 1 - prod(1 - delta_i) exactly, even with transcendental e^eps
    c = certify(mechanisms(eps=["0.1", "0.2"], delta="1/10"), "0.3", "19/100")
    assert c.holds and c.delta_lower == c.delta_upper == F(19, 100)


def test_homogeneous_published_scale():
    # 100 x eps = 0.1: OptComp(1e-6) = 4.7745... (KOV regime); a claim of eps = 5 holds, eps = 4.7 fails
    ms = mechanisms(eps=["0.1"], k=100)
    assert certify(ms, 5, "1e-6").holds
    c = certify(ms, "4.7", "1e-6")
    assert not c.holds and c.eps_lower > F(47, 10)


def test_float_accountant_claims_one_ulp_off():
    # a float accountant's OptComp of 100 x eps = 0.1 at 1e-6, and its neighbours one ulp away:
    # the verdict must follow the exact comparison with the rigorous 40-digit enclosure
    import math

    ms = mechanisms(eps=["0.1"], k=100)
    ref = composed_delta(ms, eps_g=F(1), digits=40)
    y = float((ref.lower + ref.upper) / 2)
    for d in (y, math.nextafter(y, 0), math.nextafter(y, 1)):
        assert F(d) >= ref.upper or F(d) < ref.lower  # a float is never inside a 40-digit enclosure here
        assert certify(ms, 1, d).holds == (F(d) >= ref.upper)


def test_claim_exactly_at_the_boundary_in_both_directions():
    # k = 2, e^eps = 2: delta_g(ln 2) = (4 - 2) / 9 = 2/9 and OptComp(2/9) = ln 2, both exact ties
    ms = mechanisms(exp_eps=[2, 2])
    c = certify(ms, claim_exp_eps=2, claim_delta=F(2, 9))
    assert c.holds and c.eps_exp_exact == 2 and c.delta_lower == c.delta_upper == F(2, 9)
    assert not certify(ms, claim_exp_eps=F(2) - F(1, 10**40), claim_delta=F(2, 9)).holds
    # ln 2 as a decimal: the 16-digit float below ln 2 fails, the one above holds
    assert not certify(ms, "0.6931471805599453", F(2, 9)).holds  # ln 2 = 0.69314718055994530941...
    assert certify(ms, "0.6931471805599454", F(2, 9)).holds


def _binomial_bounds_k1e9(E: str):
    """For 10^9 mechanisms of eps = 0.01 at eps_g = E: a lower bound of delta_g (the first 30000
    of its nonnegative terms ``B_X(j) (1 - e^(E - eps (2j - k)))``, j >= m_hi, summed in mpmath
    at 50 digits) and an upper bound (``delta_g <= P[X >= m_hi] <= e^(-k KL(m_hi/k || p))``,
    Chernoff-Hoeffding). Both independent of the engines (no hypergeometric function, no window
    bound)."""
    import mpmath

    with mpmath.workdps(50):
        k, eps, E = 10**9, mpmath.mpf(1) / 100, mpmath.mpf(E)
        w = mpmath.exp(eps)
        p = w / (1 + w)
        m = int(mpmath.floor((k + E / eps) / 2)) + 1  # the classes with eps (2j - k) > E
        term = mpmath.exp(mpmath.loggamma(k + 1) - mpmath.loggamma(m + 1) - mpmath.loggamma(k - m + 1)
                          + m * mpmath.log(p) + (k - m) * mpmath.log(1 - p))
        lower, j = mpmath.mpf(0), m
        for _ in range(30000):
            lower += term * -mpmath.expm1(E - eps * (2 * j - k))
            term *= p * (k - j) / ((j + 1) * (1 - p))
            j += 1
        q = mpmath.mpf(m) / k
        upper = mpmath.exp(-k * (q * mpmath.log(q / p) + (1 - q) * mpmath.log((1 - q) / (1 - p))))
        return lower, upper


def test_a_billion_mechanisms_are_certified_against_binomial_bounds():
    """No blanket limit on k: 10^9 equal mechanisms go through the windowed kernel. The verdicts
    agree with bounds computed independently: a claim whose delta_g has a lower bound above the
    claimed delta fails, one whose Chernoff upper bound is below it holds."""
    ms = mechanisms(eps=["0.01"], k=10**9)
    low, _ = _binomial_bounds_k1e9("51300")
    assert low > 1.2e-5  # delta_g(51300) > 1e-5: the claim (51300, 1e-5) is false
    _, up = _binomial_bounds_k1e9("51600")
    assert up < 0.9e-5  # delta_g(51600) < 1e-5: the claim (51600, 1e-5) is true
    fails = certify(ms, "51300", "1e-5")
    holds = certify(ms, "51600", "1e-5")
    assert not fails.holds and holds.holds
    assert float(fails.delta_lower) >= float(low) * (1 - 1e-12)
    assert float(holds.delta_upper) <= float(up)
    # OptComp(1e-5) lies between the two claims (Theorem 1.5), in both reports
    for c in (fails, holds):
        assert 51300 < c.eps_lower <= c.eps_upper < 51600
    assert main(["certify", "--eps", "0.01", "-k", "1000000000", "--claim-eps", "51600", "--claim-delta", "1e-5"]) == 0


def test_a_composition_too_costly_for_every_method_is_refused_up_front():
    """10^6 mechanisms of 1000 incommensurable eps: the engines and the lattice sandwich both
    refuse up front; one CostTooHigh names the mechanisms and carries both estimates."""
    from exactdp.errors import CostTooHigh

    eps = [f"{0.001 + j * 0.000009973:.9f}" for j in range(1000)]
    with pytest.raises(CostTooHigh) as e:
        certify(mechanisms(eps=eps, k=1000), "100", "1e-5")
    assert e.value.parameter == "mechanisms" and set(e.value.estimate) == {"engines", "sandwich"}
    assert "sandwich" in str(e.value)


def test_huge_eps_is_decided():
    # delta_g(1) for eps_i = 1e300: every mechanism is nearly non-private; the claim (1, 0.1) fails
    c = certify(mechanisms(eps=["1e300"], k=2), 1, "0.1")
    assert c.holds is False
    # OptComp itself is refused (sum eps_i > 1e5); the report keeps rigorous wide bounds
    assert c.eps_lower == 1 and c.eps_upper == 2 * Fraction(10) ** 300


def test_undecided_raises_instead_of_guessing():
    ms = mechanisms(eps=["0.1"], k=3)
    r = composed_delta(ms, eps_g=0, digits=80)
    D = (r.lower + r.upper) / 2  # within 1e-80 of the true delta_g
    with pytest.raises(Undecided, match="undecided"):
        certify(ms, 0, D, max_digits=20)
    # with enough digits the claim is decided
    c = certify(ms, 0, D, max_digits=400)
    assert c.holds == (c.delta_upper <= D)


def test_sandwich_path_when_exact_cost_is_refused():
    # method="brute" with k = 27 is refused (CostTooHigh): the lattice sandwich decides
    eps = [F(i % 7 + 1, 97) for i in range(27)]
    ms = [Mechanism(eps=e) for e in eps]
    ref = composed_delta(ms, eps_g=F(1, 2), digits=30)  # the lattice method (a second algorithm)
    for D, expect in ((ref.upper * 2, True), (ref.lower / 2, False)):
        c = certify(ms, F(1, 2), D, method="brute")
        assert c.holds is expect and c.method == "lattice sandwich"
        assert c.delta_lower <= ref.upper and ref.lower <= c.delta_upper


def test_bad_input():
    ms = mechanisms(eps=["0.1"])
    with pytest.raises(InvalidArgument, match="claim_delta"):
        certify(ms, 1, "1.5")
    with pytest.raises(InvalidArgument, match="claim_eps"):
        certify(ms, "-1", "1e-6")
    with pytest.raises(InvalidArgument, match="claim_eps / claim_exp_eps"):
        certify(ms, 1, "1e-6", claim_exp_eps=2)
    with pytest.raises(InvalidArgument, match="claim_exp_eps"):
        certify(ms, None, "1e-6", claim_exp_eps="1/2")


# --------------------------------------------------------------------------
# CLI


def test_cli_json_shape(capsys):
    rc, out, _ = run(["certify", "--exp-eps", "2,2", "--claim-exp-eps", "2", "--claim-delta", "2/9", "--json"], capsys)
    assert rc == 0
    d = json.loads(out)
    assert set(d) >= {"holds", "delta_at_claim_eps", "optimal_eps", "margin", "claim", "decided_by"}
    assert d["holds"] is True
    assert d["delta_at_claim_eps"]["exact"] == "2/9"
    assert set(d["optimal_eps"]) >= {"lower", "upper"} and set(d["margin"]) == {"delta", "eps"}
    assert F(d["margin"]["delta"]["lower"]) == 0


def test_cli_exit_status(capsys):
    base = ["certify", "--eps", "0.1", "-k", "100", "--claim-delta", "1e-6"]
    rc, out, _ = run(base + ["--claim-eps", "4.7"], capsys)
    assert rc == 0 and "FAILS" in out and "NOT" in out
    rc, out, _ = run(base + ["--claim-eps", "4.7", "--exit-code"], capsys)
    assert rc == 1
    rc, out, _ = run(base + ["--claim-eps", "5", "--exit-code"], capsys)
    assert rc == 0 and "HOLDS" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["certify", "--eps", "0.1", "--claim-eps", "1", "--claim-delta", "1.5"],
        ["certify", "--eps", "0.1", "--claim-eps", "-1", "--claim-delta", "1e-6"],
        ["certify", "--eps", "0.1", "--claim-delta", "1e-6"],
        ["certify", "--eps", "0.1", "--claim-eps", "x", "--claim-delta", "1e-6"],
        ["certify", "--eps", "0.1,", "--claim-eps", "1", "--claim-delta", "1e-6"],
        ["certify", "--eps", "0.1", "--claim-eps", "nan", "--claim-delta", "1e-6"],
        ["certify", "--eps", "0.1", "--claim-eps", "inf", "--claim-delta", "1e-6"],
        ["certify", "--eps", "0.1", "--claim-exp-eps", "0.5", "--claim-delta", "1e-6"],
        ["certify", "--eps", "0.1", "--claim-eps", "1", "--claim-delta", "nan"],
        ["certify", "--eps", "0.1", "--claim-eps", "1", "--claim-delta", ""],
        ["certify", "--eps", "0.1", "-k", "10000000000000", "--claim-eps", "1", "--claim-delta", "1e-6"],
        ["certify", "--eps", "0.1,0.2", "-k", "1000000000000", "--claim-eps", "1", "--claim-delta", "1e-6"],
        ["certify", "--eps", "0.1", "--claim-eps", "1", "--claim-delta", "1e-99999999"],
        ["certify", "--eps", "0.1", "--claim-exp-eps", "1e99999999999999999", "--claim-delta", "0.1"],
    ],
)
def test_cli_bad_input_exit_2(capsys, argv):
    rc, _, err = run(argv, capsys)
    assert rc == 2 and err.startswith("exactdp: error:") and err.count("\n") == 1


def test_cli_undecided_exit_3(capsys):
    r = composed_delta(mechanisms(eps=["0.1"], k=3), eps_g=0, digits=80)
    D = (r.lower + r.upper) / 2
    Ds = f"{D.numerator}/{D.denominator}"
    rc, out, err = run(["certify", "--eps", "0.1", "-k", "3", "--claim-eps", "0", "--claim-delta", Ds, "--max-digits", "20"], capsys)
    assert rc == 3 and out == "" and err.startswith("exactdp: undecided:")
