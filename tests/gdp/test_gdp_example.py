"""The worked example examples/gdp_filter_analysis.py (scikit-learn's diabetes data): it runs,
its ledger adds up exactly to the budget (recomputed from the queries' declared mu_i), the
refused query spent nothing, every noise scale is at least sensitivity / mu_i, the declared
sensitivities hold on the real data (every record replaced by the extreme records), and the
(eps, delta) it prints enclose mpmath's values for mu_0 = 1/2."""

from __future__ import annotations

import importlib.util
from fractions import Fraction as F
from pathlib import Path

import mpmath as mp
import numpy as np
import pytest
from gdp_reference import delta_closed, root_bisect

pytest.importorskip("sklearn")  # the test extra installs it; skipped only on a bare install

ROOT = Path(__file__).resolve().parents[2]


def load_example():
    spec = importlib.util.spec_from_file_location("gdp_filter_analysis", ROOT / "examples" / "gdp_filter_analysis.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def run():
    mod = load_example()
    lines: list[str] = []
    f = mod.analysis(out=lines.append)
    return mod, f, "\n".join(lines)


def test_ledger_adds_up_to_the_budget_exactly(run):
    _, f, _ = run
    asked = [F(1, 25), F(1, 25), F(1, 16), F(1, 16), F(1, 16)]  # (1/5)^2, (1/5)^2, (1/4)^2 x 3
    log = f.log
    assert [e.mu_sq for e in log[:5]] == asked
    assert [e.accepted for e in log] == [True, True, True, True, False, True]
    assert log[5].mu_sq == F(1, 4) - sum(asked[:4])  # "the rest": 9/200
    assert log[4].spent == log[3].spent  # the refusal spent nothing
    assert f.spent == F(1, 4) and f.remaining == 0
    assert all(e.charge == "exact" for e in log)


def test_noise_is_at_least_sensitivity_over_mu(run):
    _, f, _ = run
    for e in f.log:
        if e.accepted:
            assert F(e.sigma) ** 2 * e.mu_sq >= e.sensitivity_sq


def test_declared_sensitivities_hold_on_the_data(run):
    """Replace each patient by each extreme record: the queries move by at most their declared
    sensitivity (the threshold of queries 2-4 fixed at the first answer)."""
    mod, f, _ = run
    data = mod.load()
    n = len(data["progression"])
    thr = 150.7  # about the first answer (any threshold works: the bounds hold for all)
    extremes = [(p, b, bp) for p in mod.PROGRESSION for b in mod.BMI for bp in mod.BP]

    def queries(d):
        prog, bmi, bp = d["progression"], np.clip(d["bmi"], *mod.BMI), d["bp"]
        hi = prog > thr
        return [np.array([np.clip(prog, *mod.PROGRESSION).mean()]), np.array([float(hi.sum())]),
                np.array([bmi[hi].sum(), bmi[~hi].sum()]),
                np.histogram(bmi[hi], bins=mod.BMI_BINS)[0].astype(float), np.array([np.clip(bp, *mod.BP).mean()])]

    base = queries(data)
    sens_sq = [e.sensitivity_sq for e in f.log]
    declared = [sens_sq[0], sens_sq[1], sens_sq[2], sens_sq[3], sens_sq[5]]
    worst = [0.0] * 5
    for i in range(0, n, 3):
        for p, b, bp in extremes:
            d = {k: v.copy() for k, v in data.items()}
            d["progression"][i], d["bmi"][i], d["bp"][i] = p, b, bp
            for j, (q0, q1) in enumerate(zip(base, queries(d))):
                worst[j] = max(worst[j], float(((q1 - q0) ** 2).sum()))
    for w, s in zip(worst, declared):
        assert w <= float(s) * (1 + 1e-9)
    assert declared[0] == (F(321, n)) ** 2 and declared[2] == 2 * 43**2


def test_printed_guarantee_encloses_mpmath(run):
    _, f, text = run
    assert "spent sum mu_i^2 = 1/4 = 0.25; left 0 = 0" in text
    line_eps = next(x for x in text.splitlines() if "(eps, 1e-5)-DP" in x)
    lo, hi = (F(x) for x in line_eps.split("= [")[1].rstrip("]").split(", "))
    with mp.workdps(50):
        root = root_bisect(lambda e: delta_closed(F(1, 2), mp.nstr(e, 60), dps=55) - mp.mpf("1e-5"), 1, 3, dps=45)
        assert lo <= F(mp.nstr(root, 45)) <= hi
        line_d = next(x for x in text.splitlines() if "(1, delta)-DP" in x)
        dlo, dhi = (F(x) for x in line_d.split("= [")[1].rstrip("]").split(", "))
        assert dlo <= F(mp.nstr(delta_closed(F(1, 2), 1, dps=50), 45)) <= dhi


def test_script_runs_as_a_program(capsys):
    assert load_example().main(["--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "REFUSED (nothing spent)" in out and "left 0 = 0" in out
