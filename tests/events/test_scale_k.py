"""Compositions of 10^9 mechanisms through the public API and the command line (issue 14).

Every value at k = 10^9 is checked against one computed independently: a closed form
(Theorem 1.5 at eps_g >= sum eps_i, the Renyi divergence of randomized response), a
published upper bound written out here in mpmath (Dwork-Rothblum-Vadhan, KOV Theorem 3.4),
or another algorithm at a smaller k (monotonicity in k). The comparisons of the API with
``Composition.repeat`` and with the command line are consistency checks, not independent
ones (they are said to be). Every path that used to expand a composition one mechanism at
a time is run with the expansion forbidden (``_no_expansion``): it answers, or refuses up
front with ``CostTooHigh``.
"""

from __future__ import annotations

import json
import tracemalloc
from fractions import Fraction as F

import mpmath
import pytest

from exactdp import Composition, Mechanism, composed_delta, mechanisms, optcomp
from exactdp.cli import main
from exactdp.errors import CostTooHigh
from exactdp.events import MAX_MECHANISMS

K = 10**9
EPS = F(1, 100)


@pytest.fixture
def no_expansion(monkeypatch):
    """Forbid every per-mechanism walk of a large composition: iteration, indexing, the run
    list (3 x 10^9 runs for ``mechanisms(eps=[a, b, c], k=10**9)``), ``==`` and ``hash``."""
    big = 10**7
    real = {name: getattr(Composition, name) for name in ("__iter__", "__getitem__", "runs", "__eq__", "__hash__")}

    def guard(name):
        def f(self, *a):
            if self.k > big:
                raise AssertionError(f"Composition.{name} on k = {self.k}: a per-mechanism expansion")
            return real[name](self, *a)
        return f

    for name in real:
        monkeypatch.setattr(Composition, name, guard(name))


def _cli(capsys, argv):
    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


# --------------------------------------------------------------------------
# building and describing without expansion


def test_limit_is_shared_and_refusal_names_k_and_the_range():
    from exactdp.cli.common import MAX_CLI_MECHANISMS

    assert MAX_MECHANISMS == MAX_CLI_MECHANISMS >= 3 * K
    with pytest.raises(CostTooHigh) as ei:
        mechanisms(eps=["0.1", "0.2"], k=MAX_MECHANISMS // 2 + 1)
    assert ei.value.parameter == "k" and "[1, 1e+12]" in str(ei.value)


def test_cli_refusal_beyond_the_limit_is_one_line(capsys):
    rc, out, err = _cli(capsys, ["epsilon", "--eps", "0.01", "-k", str(MAX_MECHANISMS + 1), "--delta-g", "1e-5"])
    assert rc == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("exactdp: error: -k:") and "[1, 1e+12]" in err


def test_memory_of_three_values_times_1e9(no_expansion):
    """mechanisms(eps=[3 values], k=10**9), its groups, delta_product and JSON in a few KiB."""
    tracemalloc.start()
    try:
        c = mechanisms(eps=["0.01", "0.02", "0.03"], k=K)
        gs = c.groups()
        P = c.delta_product
        text = json.dumps(c.to_json())
        desc = c.describe()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2 * 2**20
    # independent: the counts are K each, the product of (1 - 0)^n is 1
    assert [(m.eps, n) for m, n in gs] == [(F(1, 100), K), (F(1, 50), K), (F(3, 100), K)]
    assert c.k == 3 * K and P == 1
    assert Composition.loads(text).groups() == gs and len(text) < 1000
    assert desc.count(str(K)) == 3


# --------------------------------------------------------------------------
# values at k = 10^9, against independent ones


def test_delta_at_the_sum_of_eps_is_the_closed_form(no_expansion):
    """Theorem 1.5: at eps_g >= sum eps_i, S(t) = 0 and delta_g = 1 - prod (1 - delta_i)."""
    c = Composition([(Mechanism(eps=EPS), K - 1), (Mechanism(eps=EPS, delta="1e-6"), 1)])
    for eg in (K * EPS, K * EPS + 1):
        r = composed_delta(c, eps_g=eg)
        assert r.value.lower == r.value.upper == F(1, 10**6)  # 1 - (1 - 1e-6) * 1^(k-1)
        assert r.method == "windowed"
    # the same identity read the other way: OptComp(1 - P) = sum eps_i
    assert optcomp(c, "1e-6").value.exact == K * EPS
    h = mechanisms(eps=[EPS], k=K)
    assert composed_delta(h, eps_g=K * EPS).value.exact == 0


def test_optcomp_below_published_upper_bounds_and_monotone_in_k(no_expansion):
    """KOV Theorem 3.4 (third term) and Dwork-Rothblum-Vadhan, computed here in mpmath, bound the
    certified OptComp from above; OptComp at k' = 10^4 (the binomial-row kernel) and 10^5 bound it
    from below (k' < k copies are a sub-composition: OptComp is increasing in k)."""
    dg = F(1, 10**5)
    r = optcomp(mechanisms(eps=[EPS], k=K), dg)
    assert r.engine == "certified" and r.method == "windowed"
    with mpmath.workdps(40):
        e, k = mpmath.mpf(1) / 100, mpmath.mpf(K)
        root = e * mpmath.sqrt(2 * k * mpmath.log(mpmath.mpf(10) ** 5))  # log(1 / delta_g)
        kov34 = k * e * (mpmath.exp(e) - 1) / (mpmath.exp(e) + 1) + root   # KOV Thm 3.4, delta~ = delta_g
        drv = k * e * (mpmath.exp(e) - 1) + root                          # DRV advanced composition
        kov34_down = F(mpmath.nstr(kov34 * (1 - mpmath.mpf(10) ** -30), 35))
        drv_q = F(mpmath.nstr(drv, 35))
    assert r.value.upper <= kov34_down <= drv_q
    # the bound is within 0.4% of the optimum here (169.8 above 51347.25): a real check, not a loose one
    assert kov34_down - r.value.lower < 200
    lower_k = [optcomp(mechanisms(eps=[EPS], k=10**4), dg, method="homogeneous"),
               optcomp(mechanisms(eps=[EPS], k=10**5), dg)]
    assert lower_k[0].value.upper < lower_k[1].value.lower and lower_k[1].value.upper < r.value.lower


def test_api_repeat_and_cli_agree(capsys, no_expansion):
    """Consistency (not independence): mechanisms(k=10**9), Composition.repeat and the command
    line give the same enclosures."""
    a = optcomp(mechanisms(eps=["0.01"], k=K), "1e-5")
    b = optcomp(Composition([(Mechanism(eps="0.01"), 1)]).repeat(K), "1e-5")
    assert (a.value.lower, a.value.upper) == (b.value.lower, b.value.upper)
    rc, out, _ = _cli(capsys, ["epsilon", "--eps", "0.01", "-k", str(K), "--delta-g", "1e-5", "--json"])
    d = json.loads(out)
    assert rc == 0 and d["eps_g"]["lower"] == a.value.to_dict(30)["lower"] and d["eps_g"]["upper"] == a.value.to_dict(30)["upper"]
    da = composed_delta(mechanisms(eps=["0.01"], k=K), eps_g=1)
    rc, out, _ = _cli(capsys, ["delta", "--eps", "0.01", "-k", str(K), "--eps-g", "1", "--json"])
    d = json.loads(out)
    assert rc == 0 and d["delta_g"]["upper"] == da.value.to_dict(30)["upper"] == "1"


def test_cli_epsilon_and_delta_answer_and_exact_engine_refuses(capsys, no_expansion):
    rc, out, err = _cli(capsys, ["epsilon", "--eps", "0.01", "-k", str(K), "--delta-g", "1e-5"])
    assert rc == 0 and "eps_g in [51347.24978261691215" in out and "certified, method: windowed" in out
    rc, out, err = _cli(capsys, ["delta", "--eps", "0.01", "-k", str(K), "--eps-g", "1"])
    assert rc == 0 and "method: windowed" in out
    rc, out, err = _cli(capsys, ["epsilon", "--exp-eps", "101/100", "-k", str(K), "--delta-g", "1e-5", "--engine", "exact"])
    assert rc == 2 and out == "" and err.count("\n") == 1
    assert "estimated at about" in err and "engine='certified'" in err


def test_renyi_of_1e9_randomized_responses(capsys, no_expansion):
    """RR_eps has D_2 = log((w^2 + 1/w) / (1 + w)), w = e^eps; the composition's is k times it."""
    rc, out, _ = _cli(capsys, ["renyi", "--eps", "0.01", "-k", str(K), "--alpha", "2", "--json"])
    assert rc == 0
    d = json.loads(out)["rdp"]
    with mpmath.workdps(40):
        w = mpmath.exp(mpmath.mpf(1) / 100)
        ref = K * mpmath.log((w**2 + 1 / w) / (1 + w))
    assert F(d["lower"]) <= F(mpmath.nstr(ref, 35)) * (1 + F(1, 10**25)) and F(mpmath.nstr(ref, 35)) * (1 - F(1, 10**25)) <= F(d["upper"])


def test_eps_zero_mechanisms_answer_or_refuse_before_building_2_to_the_k(no_expansion):
    """k mechanisms with eps = 0: OptComp = 0 (S(t) = 0 for t >= 1). The lattice kernel's constant
    2^k is now in its cost estimate (it used to abort the process in GMP at 1e10), so a kernel
    that builds no 2^k answers: 0 exactly, and delta_g(eps_g = 0) = 0 (every subset has ratio 1)."""
    assert optcomp(mechanisms(exp_eps=[1], k=3 * K), "1e-5").value.exact == 0
    big = mechanisms(exp_eps=[1], k=10**12)
    assert optcomp(big, "1e-5").value.exact == 0
    assert composed_delta(big, eps_g=0).value.exact == 0


def test_cost_of_the_zero_exponent_group_is_estimated():
    from exactdp.engines.lattice import lattice_build

    # 2^n0 in every one of the A + 1 coefficients: n0 (A + 1) bits, about 8 bytes per bit at peak
    assert lattice_build([(0, 10**9)]).bytes >= 10**9
    assert lattice_build([(0, 10**9), (1, 3), (2, 5)]).bytes >= 14 * 10**9


# --------------------------------------------------------------------------
# features that refuse up front rather than expand


def test_certify_answers_without_expanding(capsys, no_expansion):
    """certify has no blanket limit on k: at K it answers through the windowed kernel, without
    expanding the composition, in agreement with composed_delta's enclosure at the claim (the
    same kernel: consistency; tests/certify checks the verdicts against independent bounds)."""
    from exactdp import certify

    c = certify(mechanisms(eps=["0.01"], k=K), 60000, "1e-5")
    d = composed_delta(mechanisms(eps=["0.01"], k=K), eps_g=60000)
    assert c.holds and c.delta_upper <= F(1, 10**5) and c.delta_lower <= d.value.upper and d.value.lower <= c.delta_upper
    rc, out, err = _cli(capsys, ["certify", "--eps", "0.01", "-k", str(K), "--claim-eps", "60000", "--claim-delta", "1e-5"])
    assert rc == 0 and "HOLDS" in out and err == ""


@pytest.mark.parametrize("argv", [
    ["concurrent", "--eps", "0.01"],
    ["region", "--eps", "0.01"],
    ["tradeoff", "--eps", "0.01", "--alpha", "0.1"],
    ["approx", "--eps", "0.01", "--delta-g", "1e-5", "--eta", "0.01"],
    ["epsilon", "--eps", "0.01,0.02,0.03", "--delta-g", "1e-5"],
])
def test_other_commands_refuse_in_one_line(capsys, no_expansion, argv):
    rc, out, err = _cli(capsys, argv + ["-k", str(K)])
    assert rc == 2 and out == "" and err.count("\n") == 1 and err.startswith("exactdp: error:")


@pytest.mark.slow
def test_bounds_of_two_groups_answers_with_the_optimum_beyond_eps_g_1e5(capsys, no_expansion):
    """2 x 10^9 mechanisms (eps 0.01, 0.02): OptComp at 1e-5 is about 2.5e5, once refused (its
    sum of eps is 3e7); now answered by the windowed-groups kernel, and it must lie below the
    upper bound of Kairouz-Oh-Viswanath Theorem 3.5 (an independent, published formula) and
    above the mean privacy loss ``sum eps_i tanh(eps_i / 2)`` (delta_g < 1/2 needs more)."""
    import math

    rc, out, _ = _cli(capsys, ["bounds", "--eps", "0.01,0.02", "--delta-g", "1e-5", "-k", str(K), "--json"])
    assert rc == 0
    b = json.loads(out)["bounds"]
    opt, kov = b["optimal"]["eps_g"], b["kov_3_5"]["eps_g"]
    mean = K * (0.01 * math.tanh(0.005) + 0.02 * math.tanh(0.01))
    assert mean < F(opt["lower"]) <= F(opt["upper"]) < F(kov["lower"])


def test_bounds_command_answers(capsys, no_expansion):
    rc, out, _ = _cli(capsys, ["bounds", "--eps", "0.01", "-k", str(K), "--delta-g", "1e-5", "--json"])
    assert rc == 0
    d = json.loads(out)
    assert json.dumps(d).count("51347.2497") >= 1


def test_plot_bounds_refuses_before_exponentiating_the_bounds(monkeypatch, no_expansion):
    """bound_regions computes e^(basic bound) exactly (1.44 k eps bits: an abort at k = 10^11);
    the optimal region, which refuses k > 2e5 equal mechanisms, now comes first."""
    from exactdp.regions import plots

    def forbidden(eps):
        raise AssertionError("e^eps built before the refusal")

    monkeypatch.setattr(plots, "_exp_up", forbidden)
    with pytest.raises(CostTooHigh, match="classes"):
        plots.bound_regions(mechanisms(eps=["0.01"], k=K))


def test_tradeoff_from_guarantees_reads_a_composition_as_its_distinct_mechanisms(no_expansion):
    from exactdp.fdp import tradeoff_from_guarantees

    ms = [Mechanism(eps="0.01"), Mechanism(eps="0.02", delta="1e-3"), Mechanism(eps="0.03")]
    # independent: the max over a set does not depend on repeats
    assert tradeoff_from_guarantees(Composition([(m, K) for m in ms])) == tradeoff_from_guarantees(ms)
    assert tradeoff_from_guarantees(Composition([(m, 2) for m in ms])) == tradeoff_from_guarantees(ms * 2)


def test_testing_helpers_do_not_hash_the_composition(no_expansion):
    from exactdp import testing

    h = mechanisms(eps=["0.01"], k=K)
    # consistency with the engine (the same digits)
    assert testing.optimum(testing.Case.of(h, "1e-5")) == optcomp(mechanisms(eps=["0.01"], k=K), "1e-5", digits=20).value
    h3 = mechanisms(eps=["0.01", "0.02", "0.03"], k=K)
    with pytest.raises(CostTooHigh):
        testing.optimum(testing.Case.of(h3, "1e-5"))
    counts = testing.check_accountant(lambda c, q: 60000, [(h, "1e-5"), (h3, "1e-5")]).counts()
    assert counts["sound"] == 1 and counts["sound"] + counts["undecided"] + counts["error"] == 2


def test_batch_query_at_1e9(no_expansion):
    from exactdp.batch.query import answer_line

    r = answer_line('{"mechanisms": {"eps": ["0.01"], "k": 1000000000}, "delta_g": "1e-5"}')
    assert r["result"]["eps_g"]["lower"].startswith("51347.2497826169")
    r = answer_line('{"mechanisms": {"eps": ["0.01", "0.02", "0.03"], "k": 1000000000}, "delta_g": "1e-5"}')
    assert r["error"]["type"] == "CostTooHigh"
