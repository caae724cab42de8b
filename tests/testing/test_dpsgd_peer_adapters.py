"""The DP-SGD audit's adapters of autodp, the Fourier accountant and PLD_accounting, each run for
real on tiny cases (they skip, saying so, where the peer is not installed: pip install
'exactdp[peers]'; the test extra installs them).

Nothing here takes a peer's number as an expected value: each answer is judged by the audit
against exactdp's certified enclosure (the shipped corpus's, or a fresh one for one step), and
where a test asserts which side of the truth an answer lies, the truth is also computed
independently in mpmath (``tests/accounting/dp_reference.py``: the mu-GDP closed form, the
one-step hockey stick of the subsampled Gaussian).
"""

from __future__ import annotations

import sys
from fractions import Fraction as F
from pathlib import Path

import pytest

from exactdp import Gaussian, PoissonSampled
from exactdp.audit.dpsgd import DPSGD_PEERS, audit_dpsgd_vector, not_run, run_dpsgd_peer
from exactdp.corpus import load_corpus
from exactdp.noise_events import Composed
from exactdp.testing.dpsgd import EventCase, decide_event

sys.path.insert(0, str(Path(__file__).parents[1] / "accounting"))
import dp_reference as R  # noqa: E402

VECTORS = {v["id"]: v for v in load_corpus(suite="dpsgd")}


def _need(name: str):
    pytest.importorskip(DPSGD_PEERS[name].module, reason=f"{name} is not installed (pip install 'exactdp[peers]')")


def _vector(sigma, q, k, relation, **query):
    """The one shipped corpus vector with these parameters and query (``delta=`` or ``eps=``, the
    float as given); its certified enclosure is stored."""
    from exactdp.testing.dpsgd import case_of_vector, dpsgd_params

    [(what, x)] = query.items()
    out = []
    for v in VECTORS.values():
        if v["relation"] != relation or F(v["query"].get(what, "-1")) != F(x):
            continue
        try:
            if dpsgd_params(case_of_vector(v).event) == (F(sigma), F(q), k):
                out.append(v)
        except Exception:  # noqa: BLE001  (a schedule or Laplace: not a DP-SGD vector)
            continue
    [v] = out
    return v


def _one(name, knob, v):
    [r] = audit_dpsgd_vector(name, knob, v)["records"]
    return r


def _mu10_delta_1e10():
    """100 unsampled Gaussian steps of sigma 1 (mu = 10), epsilon at delta 1e-10; its truth in mpmath."""
    v = VECTORS["e7525f0efb86e9024429"]
    assert v["relation"] == "add_remove" and F(v["query"]["delta"]) == F(1e-10)
    truth = R.invert(lambda e: R.gdp_delta(10, e), R.mpf(F(v["query"]["delta"])), hi=1000)
    return v, truth


# -- autodp ---------------------------------------------------------------------------------------


def test_autodp_rdp_bound_is_sound_on_a_small_dpsgd_case():
    """NoisySGD_Mechanism's RDP epsilon, an upper bound, above the certified enclosure (100 steps, q 0.01)."""
    _need("autodp")
    r = _one("autodp", "rdp", _vector(1, 0.01, 100, "add_remove", delta=1e-5))
    assert (r["claim"], r["verdict"]) == ("upper", "sound") and float(r["relative"]) > 0
    assert F(r["answer"]) >= F(r["certified"]["upper"])


def test_autodp_analytical_gaussian_judged_as_the_closed_form_says():
    """ComposeGaussian's analytical-Gaussian epsilon for mu = 10: the verdict agrees with the mpmath
    closed form (sound exactly when the answer is at least the truth)."""
    _need("autodp")
    v, truth = _mu10_delta_1e10()
    r = _one("autodp", "gaussian", v)
    assert r["claim"] == "upper"
    with R.mp.workdps(50):
        above = R.mpf(F(r["answer"])) >= truth
    assert r["verdict"] == ("sound" if above else "unsound")
    assert "ComposeGaussian()([GaussianMechanism(sigma=1.0)], [100])" in DPSGD_PEERS["autodp"].script(
        "gaussian", 1.0, 1.0, 100, "add_remove", "epsilon", 1e-10)


def test_autodp_compose_afa_estimate_reported_with_its_signed_error(capsys):
    """ComposeAFA's epsilon (an estimate without an error bar) is reported with its signed error,
    whose sign the mpmath closed form confirms; autodp's search prints nothing through the adapter."""
    _need("autodp")
    v, truth = _mu10_delta_1e10()
    r = _one("autodp", "afa", v)
    assert capsys.readouterr().out == ""
    assert (r["claim"], r["verdict"]) == ("estimate", "reported")
    with R.mp.workdps(50):
        below = R.mpf(F(r["answer"])) < truth
    assert (float(r["relative"]) < 0) == below


def test_autodp_refusals_name_the_reason():
    _need("autodp")
    import scipy.integrate

    p = DPSGD_PEERS["autodp"]
    sub = EventCase.of(Composed([(PoissonSampled(Gaussian(1), "0.01"), 10)]), "1e-5")
    assert "unsampled Gaussians only" in not_run(p, "gaussian", sub)
    why = not_run(p, "afa", sub)
    assert (why is None) == hasattr(scipy.integrate, "quadrature")
    assert why is None or "scipy.integrate.quadrature" in why
    assert "add/remove" in not_run(p, "rdp", EventCase.of(sub.event, "1e-5", relation="remove"))


# -- the Fourier accountant -----------------------------------------------------------------------


@pytest.mark.parametrize("relation", ["remove", "add_remove"])
def test_fourier_accountant_one_step_against_the_closed_form(relation):
    """One subsampled step (sigma 1, q 0.01) at delta 1e-5: get_epsilon_R's estimate (the remove
    direction, as exactdp's "remove"; asked for add/remove as its docs say) is reported with a signed
    error enclosure that contains its distance to the mpmath closed form."""
    _need("fourier_accountant")
    case = EventCase.of(Composed([(PoissonSampled(Gaussian(1), "0.01"), 1)]), "1e-5", relation=relation)
    out, _, script = run_dpsgd_peer(DPSGD_PEERS["fourier_accountant"], "nx=1e6,L=20", case)
    assert set(out) == {"estimate"} and "get_epsilon_R(target_delta=1e-05" in script
    [v] = decide_event(case, out, digits=6)
    assert v.status == "reported" and v.claim == "estimate"

    def delta(e):  # add/remove: the larger direction (here the remove one)
        ds = [R.sub_delta(e, 1, F(1, 100), 1, d) for d in (["remove"] if relation == "remove" else ["remove", "add"])]
        return max(ds)

    with R.mp.workdps(50):
        truth = R.invert(delta, R.mpf(F(1, 10**5)), hi=10)
        err = R.mpf(F(out["estimate"])) - truth
        assert R.mpf(v.error.lower) <= err <= R.mpf(v.error.upper)


def test_fourier_accountant_substitute_is_replace_one():
    """get_epsilon_S (substitute) answers exactdp's replace_one: 1000 steps of q 1/256 lie within
    0.1 % of the certified enclosure (the add/remove value is 35 % lower, so a wrong mapping shows)."""
    _need("fourier_accountant")
    r = _one("fourier_accountant", "nx=1e6,L=20", _vector(1, 1 / 256, 1000, "replace_one", delta=1e-5))
    assert r["claim"] == "estimate" and r["verdict"] == "reported" and abs(float(r["relative"])) < 1e-3
    assert "get_epsilon_S(" in r.get("reproduce", DPSGD_PEERS["fourier_accountant"].script(
        "nx=1e6,L=20", 1.0, 1 / 256, 1000, "replace_one", "epsilon", 1e-5))


def test_fourier_accountant_tiny_delta_is_far_below():
    """At delta 1e-20 the Newton search stops when delta is within 1e-10 (absolute) of the target:
    the estimate lies materially below the certified enclosure (3000 steps, sigma 2, q 0.01)."""
    _need("fourier_accountant")
    r = _one("fourier_accountant", "nx=1e6,L=20", VECTORS["6ac3fa5aadb75f4eb343"])
    assert F(VECTORS["6ac3fa5aadb75f4eb343"]["query"]["delta"]) == F(1e-20)
    assert r["verdict"] == "reported" and float(r["relative"]) < -0.1
    assert F(r["answer"]) < F(r["certified"]["lower"])


def test_fourier_accountant_refusals():
    _need("fourier_accountant")
    p = DPSGD_PEERS["fourier_accountant"]
    sub = Composed([(PoissonSampled(Gaussian(1), "0.01"), 10)])
    assert "exactdp's remove" in not_run(p, "nx=1e6,L=20", EventCase.of(sub, "1e-5", relation="add"))
    assert "q < 1" in not_run(p, "nx=1e6,L=20", EventCase.of(Gaussian(1), "1e-5"))
    assert not_run(p, "nx=1e6,L=20", EventCase.of(sub, "1e-5", relation="replace_one")) is None


# -- PLD_accounting -------------------------------------------------------------------------------


def test_pld_accounting_subsampled_bound_is_sound():
    """subsample_pld (interval 1e-3) then self_compose(1000): delta at eps 0.5, an upper bound, above
    the certified enclosure; at delta 1e-20 its infinite epsilon is a (trivially) sound upper bound."""
    _need("PLD_accounting")
    r = _one("PLD_accounting", "subsample-1e-3", _vector(1, 1 / 256, 1000, "add_remove", eps=0.5))
    assert (r["claim"], r["verdict"]) == ("upper", "sound") and F(r["answer"]) >= F(r["certified"]["upper"])
    r = _one("PLD_accounting", "subsample-1e-3", VECTORS["6ac3fa5aadb75f4eb343"])
    assert r["claim"] == "upper" and r["verdict"] == "sound"


def test_pld_accounting_one_step_upper_bound_against_the_closed_form():
    """One subsampled step (sigma 1, q 0.01) at delta 1e-5: the DOMINATES epsilon is at least the
    mpmath closed form (the larger direction), and the audit does not call it unsound."""
    _need("PLD_accounting")
    v = _vector(1, 0.01, 1, "add_remove", delta=1e-5)
    r = _one("PLD_accounting", "subsample-1e-3", v)
    with R.mp.workdps(50):
        truth = R.invert(lambda e: max(R.sub_delta(e, 1, F(1, 100), 1, d) for d in ("remove", "add")),
                         R.mpf(F(1e-5)), hi=10)
        assert R.mpf(F(r["answer"])) >= truth
    assert r["claim"] == "upper" and r["verdict"] in ("sound", "undecided")
    assert "subsample_pld(pld=base, sampling_probability=0.01).self_compose(1)" in DPSGD_PEERS["PLD_accounting"].script(
        "subsample-1e-3", 1.0, 0.01, 1, "add_remove", "epsilon", 1e-5)


def test_pld_accounting_refusals():
    _need("PLD_accounting")
    p = DPSGD_PEERS["PLD_accounting"]
    assert "audited as dp_accounting" in not_run(p, "subsample-1e-4", EventCase.of(Gaussian(1), "1e-5"))
    sub = Composed([(PoissonSampled(Gaussian(1), "0.01"), 10)])
    assert "add/remove" in not_run(p, "subsample-1e-4", EventCase.of(sub, "1e-5", relation="replace_one"))
    big = Composed([(PoissonSampled(Gaussian("0.5"), "0.5"), 10**6)])
    assert "points" in not_run(p, "subsample-1e-4", EventCase.of(big, "1e-5"))


def test_cli_names_the_suite_of_a_dpsgd_only_peer(capsys):
    from exactdp.cli import main

    for name in ("fourier_accountant", "PLD_accounting"):
        assert main(["audit", "--peer", name, "--quick"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and f"({name} audits with --suite dpsgd)" in err[0]
