"""exactdp.integrations.opacus against the real Opacus (``make test-opacus``, which CI runs, builds
the environment with opacus and a CPU torch; in the default environment the tests that need
Opacus skip, saying so).

* A tiny model (a linear layer on random data) trained for a few steps with Opacus's
  PrivacyEngine and Poisson sampling, ExactAccountant installed with the one line the guide
  shows: the history is Opacus's, and Opacus's own RDP and PRV accountants, run on the same
  history as peers, claim upper bounds: each must be >= exactdp's certified lower end.
* The answers against independent values written from the mathematics
  (``tests/accounting/dp_reference.py``): full-batch steps are mu-GDP in closed form (over
  phases too), and one subsampled step's hockey stick is in closed form.
* state_dict round trips, the registry name, refusals, the docs guide's examples.
"""

from __future__ import annotations

import math
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "accounting"))
sys.path.insert(0, str(ROOT / "tests" / "docs"))
import dp_reference as R  # noqa: E402
from doc_blocks import run_python_blocks  # noqa: E402

from exactdp.errors import InvalidArgument  # noqa: E402

GUIDE = ROOT / "docs/guides/opacus.md"
SKIP = "opacus is not installed here: make test-opacus (run by CI) builds its environment with a CPU torch"


@pytest.fixture(scope="module")
def opacus():
    return pytest.importorskip("opacus", reason=SKIP)


@pytest.fixture
def Exact(opacus):
    from exactdp.integrations.opacus import ExactAccountant

    return ExactAccountant


def test_without_opacus_the_module_imports_and_says_which_extra():
    code = ("import sys; sys.modules['opacus'] = None; sys.modules['opacus.accountants'] = None\n"
            "import exactdp.integrations.opacus as m\n"
            "from exactdp.errors import InvalidArgument\n"
            "try:\n    m.ExactAccountant()\nexcept InvalidArgument as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert out == "opacus must be installed to use this integration (pip install 'exactdp[opacus]'): found not installed\n"


def _inside(enc, value) -> bool:
    with R.mp.workdps(50):
        return R.mpf(enc.lower) <= value <= R.mpf(enc.upper)


def test_training_a_tiny_model_with_poisson_sampling(opacus, Exact):
    import torch
    from opacus.accountants import PRVAccountant, RDPAccountant

    torch.manual_seed(0)
    x, y = torch.randn(64, 4), torch.randn(64, 1)
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), batch_size=16)
    model = torch.nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

    engine = opacus.PrivacyEngine()
    engine.accountant = Exact(digits=3)       # the one line the guide shows
    model, optimizer, loader = engine.make_private(module=model, optimizer=optimizer, data_loader=loader,
                                                   noise_multiplier=1.3, max_grad_norm=1.0, poisson_sampling=True)
    for _ in range(2):  # two epochs of 4 Poisson batches (sample rate 1/4)
        for xb, yb in loader:
            optimizer.zero_grad()
            torch.nn.functional.mse_loss(model(xb), yb).backward()
            optimizer.step()

    acc = engine.accountant
    assert acc.history == [(1.3, 0.25, 8)] and len(acc) == 8
    eps = engine.get_epsilon(1e-5)
    enc = acc.get_epsilon_enclosure(1e-5)
    assert Fraction(eps) >= enc.upper and enc.lower < enc.upper
    assert enc.upper - enc.lower <= Fraction(1, 10**3) * enc.upper
    # the peers on the same history: a valid upper bound is never below the certified lower end
    for peer in (RDPAccountant(), PRVAccountant()):
        peer.history = list(acc.history)
        assert peer.get_epsilon(1e-5) >= enc.lower, type(peer).__name__


def test_full_batch_phases_are_mu_gdp(Exact):
    """Steps with sample rate 1 are Gaussian steps: mu^2 = sum num_steps / noise_multiplier^2."""
    acc = Exact(digits=3)
    for _ in range(3):
        acc.step(noise_multiplier=2.0, sample_rate=1.0)
    acc.step(noise_multiplier=4.0, sample_rate=1.0)
    acc.step(noise_multiplier=2.0, sample_rate=0.0)   # samples nothing: leaks nothing
    assert acc.history == [(2.0, 1.0, 3), (4.0, 1.0, 1), (2.0, 0.0, 1)] and len(acc) == 5
    mu = R.mp.sqrt(R.mpf(Fraction(3, 4) + Fraction(1, 16)))
    eps = acc.get_epsilon(1e-5)
    lo = acc.get_epsilon_enclosure(1e-5).lower
    assert R.gdp_delta(mu, eps) <= 1e-5 <= R.gdp_delta(mu, lo)


def test_one_subsampled_step(Exact):
    sigma, q = 0.75, 0.25
    acc = Exact(digits=4)
    acc.step(noise_multiplier=sigma, sample_rate=q)
    enc = acc.get_epsilon_enclosure(1e-3)
    delta = lambda e: max(R.sub_delta(e, sigma, q, 1, "remove"), R.sub_delta(e, sigma, q, 1, "add"))
    assert delta(acc.get_epsilon(1e-3)) <= 1e-3 <= delta(enc.lower)


def test_state_dict_registry_and_refusals(opacus, Exact):
    from opacus.accountants import RDPAccountant, create_accountant

    acc = Exact(relation="remove", digits=2)
    acc.step(noise_multiplier=1.0, sample_rate=0.5)
    acc.step(noise_multiplier=1.0, sample_rate=0.5)
    state = acc.state_dict()
    assert state["history"] == [(1.0, 0.5, 2)] and state["mechanism"] == "exactdp"
    other = Exact()
    other.load_state_dict(state)
    assert (other.history, other.relation, other.digits) == ([(1.0, 0.5, 2)], "remove", 2)
    assert other.get_epsilon(1e-5) == acc.get_epsilon(1e-5)
    with pytest.raises(ValueError, match="cannot be loaded"):
        other.load_state_dict(RDPAccountant().state_dict())
    assert isinstance(create_accountant("exactdp"), Exact)
    assert isinstance(opacus.PrivacyEngine(accountant="exactdp").accountant, Exact)

    assert Exact().get_epsilon(1e-5) == 0.0                     # no step yet
    silent = Exact()
    silent.step(noise_multiplier=0.0, sample_rate=0.1)          # a step without noise
    assert silent.get_epsilon(1e-5) == math.inf
    for kwargs, match in (({"noise_multiplier": -1.0, "sample_rate": 0.1}, "noise_multiplier must be >= 0"),
                          ({"noise_multiplier": 1.0, "sample_rate": 1.5}, r"sample_rate must be in \[0, 1\]")):
        with pytest.raises(InvalidArgument, match=match):
            Exact().step(**kwargs)
    with pytest.raises(InvalidArgument, match=r"delta must be in \(0, 1\)"):
        acc.get_epsilon(0.0)
    with pytest.raises(InvalidArgument, match="relation must be one of"):
        Exact(relation="zero")
    bad = Exact()
    with pytest.raises(InvalidArgument, match=r"history\[0\] must be a \(noise_multiplier, sample_rate, num_steps\)"):
        bad.load_state_dict({"history": [(1.0, 0.5)], "mechanism": "exactdp"})


def test_the_guide_runs(opacus):
    n, report = run_python_blocks(GUIDE)
    assert not report, report
    assert n >= 3


def _dpsgd_vector(vid):
    from exactdp.corpus import load_corpus

    [v] = [v for v in load_corpus(suite="dpsgd") if v["id"] == vid]
    return v


def test_opacus_dpsgd_audit_peer(opacus):
    """``exactdp audit --suite dpsgd --peer opacus``'s adapter on two small corpus cases, each answer
    judged against the corpus's certified enclosure. 100 steps of sigma 1 at q 0.01, delta 1e-5: the
    RDP and PRV upper bounds hold (sound); the GDP answer is an estimate, reported with its signed
    error. 100 unsampled steps of sigma 1 (mu = 10) at delta 1e-10: the GDP estimate's signed error
    has the sign the mpmath closed form gives it."""
    from exactdp.audit.dpsgd import audit_dpsgd_vector

    sub = _dpsgd_vector("32a69053c2c936cabc59")
    assert sub["relation"] == "add_remove" and Fraction(sub["query"]["delta"]) == Fraction(1e-5)
    by = {}
    for knob in ("rdp", "gdp", "prv"):
        [r] = audit_dpsgd_vector("opacus", knob, sub)["records"]
        by[knob] = r
    assert (by["rdp"]["claim"], by["rdp"]["verdict"]) == ("upper", "sound")
    assert (by["prv"]["claim"], by["prv"]["verdict"]) == ("upper", "sound")
    assert (by["gdp"]["claim"], by["gdp"]["verdict"]) == ("estimate", "reported")
    for r in by.values():
        assert Fraction(r["answer"]) >= Fraction(r["certified"]["upper"]) or r["claim"] == "estimate"

    gauss = _dpsgd_vector("e7525f0efb86e9024429")
    [r] = audit_dpsgd_vector("opacus", "gdp", gauss)["records"]
    with R.mp.workdps(50):
        truth = R.invert(lambda e: R.gdp_delta(10, e), R.mpf(Fraction(gauss["query"]["delta"])), hi=1000)
        above = R.mpf(Fraction(r["answer"])) > truth
    assert r["verdict"] == "reported" and (float(r["relative"]) > 0) == above


def test_opacus_dpsgd_audit_refusals(opacus):
    from exactdp.audit.dpsgd import DPSGD_PEERS, not_run
    from exactdp.noise_events import Composed, Gaussian, PoissonSampled
    from exactdp.testing.dpsgd import EventCase

    p = DPSGD_PEERS["opacus"]
    ev = Composed([(PoissonSampled(Gaussian(1), "0.01"), 10)])
    assert "add/remove" in not_run(p, "rdp", EventCase.of(ev, "1e-5", relation="replace_one"))
    assert "epsilon for a delta" in not_run(p, "gdp", EventCase.of(ev, "1/2", direction="delta"))
    assert not_run(p, "prv", EventCase.of(ev, "1e-5")) is None
