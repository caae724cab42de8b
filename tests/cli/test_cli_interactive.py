"""``exactdp concurrent``, ``exactdp renyi``, ``exactdp experiment``: JSON contracts, values checked
against formulas written here, bad input (exit 2, one line on stderr, nothing on stdout)."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction as F

import pytest
from _cli import run, run_json

from exactdp import composed_delta, mechanisms


def test_concurrent_json_contract_exact(capsys):
    d = run_json(["concurrent", "--exp-eps", "2,3,5", "--delta", "1/100,1/10,1/1000"], capsys)
    ws, ds = [F(2), F(3), F(5)], [F(1, 100), F(1, 10), F(1, 1000)]
    given = ds[0] + 2 * ds[1] + 6 * ds[2]
    # keys delta/(w-1): 1/100, 1/20, 1/4000 -> order [1, 0, 2]: 1/10 + 3/100 + 6/1000
    assert d["vw_bound"] == {"given_order": str(given), "best_order": str(F(1, 10) + F(3, 100) + F(6, 1000)),
                             "order": [1, 0, 2]}
    assert d["optimal"] == str(composed_delta(mechanisms(exp_eps=ws, delta=ds), exp_eps_g=30).exact)
    assert d["eps_g"]["exact"] == "log(30)"


def test_concurrent_json_enclosures(capsys):
    d = run_json(["concurrent", "--eps", "0.1,0.5", "--delta", "1e-6,1e-3", "--digits", "20"], capsys)
    assert d["eps_g"] == "3/5"
    import mpmath

    with mpmath.workdps(40):
        best = mpmath.mpf("1e-3") + mpmath.e ** mpmath.mpf("0.5") * mpmath.mpf("1e-6")
        lo, hi = d["vw_bound"]["best_order"]["lower"], d["vw_bound"]["best_order"]["upper"]
        assert mpmath.mpf(lo) <= best <= mpmath.mpf(hi)
    assert d["vw_bound"]["order"] == [1, 0]


def test_renyi_json(capsys):
    d = run_json(["renyi", "--exp-eps", "3", "-k", "10", "--alpha", "2"], capsys)
    assert d["rdp"]["exp_exact"] == str(F(7, 3) ** 10) and d["guarantee"] == "exact"
    d = run_json(["renyi", "--eps", "0.1", "-k", "10", "--alpha", "2"], capsys)
    import math

    w = math.exp(0.1)
    assert abs(float(d["rdp"]["lower"]) - 10 * math.log((w * w + 1 / w) / (1 + w))) < 1e-12
    assert run_json(["renyi", "--eps", "1", "--delta", "0.1", "--alpha", "2"], capsys)["rdp"]["exact"] == "inf"


def test_experiment_json(capsys):
    d = run_json(["experiment", "vw-section6", "--trials", "3", "--seed", "4", "--no-progress"], capsys)
    assert d["trials"] == 3 and d["verified_exact"] == d["feasible"] == 3
    assert d["below_tight"]["infeasible_exact"] == d["below_tight"]["tested"]


@pytest.mark.parametrize("argv, flag", [
    (["concurrent", "--eps", "-1"], "eps[0]"),  # named as by exactdp delta (see MECH_BAD in test_cli.py)
    (["concurrent", "--exp-eps", "2", "--delta", "1.5"], "delta[0]"),
    (["concurrent", "--eps", "0.1", "-k", "30000"], "-k"),
    (["renyi", "--eps", "0.1", "--alpha", "1"], "--alpha"),
    (["renyi", "--eps", "0.1", "--alpha", "abc"], "--alpha"),
    (["renyi", "--eps", "0.1"], "--alpha"),
    (["experiment", "vw-section6", "--trials", "0"], "--trials"),
    (["experiment", "vw-section6", "--trials", "2", "--delta", "1"], "--delta"),
    (["experiment", "nope", "--trials", "2"], "name"),
])
def test_bad_input_one_line_exit_2(argv, flag, capsys):
    rc, out, err = run(argv, capsys)
    assert rc == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert flag in err, err


def test_installed_script_and_help_load_nothing_numeric():
    code = ("import sys; from exactdp.cli import main\n"
            "try:\n    main(['concurrent', '--help'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in ('flint', 'gmpy2', 'mpmath', 'numpy', 'highspy', 'dask') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
    assert out.strip().endswith("[]"), out
