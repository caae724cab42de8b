"""``exactdp gdp``: the printed enclosures are the library's (each checked against mpmath at
higher precision), the JSON shape, one-line errors with exit status 2 naming the flag, and
``--help`` loading nothing numeric."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction as F

import mpmath as mp
import pytest
from _cli import run
from gdp_reference import delta_closed, mpf


def inside(d: dict, ref) -> bool:
    return F(d["lower"]) <= F(mp.nstr(ref, 60)) <= F(d["upper"])


def test_delta_json_is_the_closed_form(capsys):
    rc, out, err = run(["gdp", "--mu", "1", "--eps-g", "1", "--json"], capsys)
    assert rc == 0 and err == ""
    d = json.loads(out)
    assert list(d) == ["mu_sq", "mu", "delta_g"]
    assert d["mu_sq"] == "1" and d["mu"]["exact"] == "1" and d["delta_g"]["exact"] is None
    with mp.workdps(60):
        assert inside(d["delta_g"], delta_closed(1, 1, dps=60))


def test_epsilon_of_a_composed_list(capsys):
    """--mu 0.3,0.4 -k 4: mu^2 = 4 (0.09 + 0.16) = 1; eps at delta = 1e-5 is the root of delta_1."""
    rc, out, _ = run(["gdp", "--mu", "0.3,0.4", "-k", "4", "--delta-g", "1e-5", "--json", "--digits", "20"], capsys)
    d = json.loads(out)
    assert rc == 0 and d["mu_sq"] == "1" and list(d)[-1] == "eps_g"
    with mp.workdps(60):
        lo, hi = mpf(F(d["eps_g"]["lower"])), mpf(F(d["eps_g"]["upper"]))
        assert delta_closed(1, F(d["eps_g"]["lower"]), dps=60) > mp.mpf("1e-5") > delta_closed(1, F(d["eps_g"]["upper"]), dps=60)
        assert hi - lo < mp.mpf("1e-18")


def test_sigma_and_sensitivity_give_mu(capsys):
    rc, out, _ = run(["gdp", "--sigma", "4,4", "--sensitivity", "2", "--eps-g", "0", "--json"], capsys)
    d = json.loads(out)
    assert rc == 0 and d["mu_sq"] == "1/2"  # (2/4)^2 * 2
    with mp.workdps(60):
        assert inside(d["delta_g"], mp.erf(mp.sqrt(mp.mpf(1) / 2) / (2 * mp.sqrt(2))))


def test_alpha_and_largest_mu(capsys):
    rc, out, _ = run(["gdp", "--mu", "1", "--alpha", "0.05", "--json"], capsys)
    d = json.loads(out)
    with mp.workdps(60):
        assert inside(d["tradeoff"], mp.ncdf(mp.sqrt(2) * mp.erfinv(1 - 2 * mp.mpf("0.05")) - 1))
    rc, out, _ = run(["gdp", "--eps-g", "1", "--delta-g", "1e-5", "--json"], capsys)
    d = json.loads(out)
    assert rc == 0 and list(d) == ["mu"]
    with mp.workdps(60):
        lo, hi = F(d["mu"]["lower"]), F(d["mu"]["upper"])
        assert delta_closed(lo, 1, dps=60) < mp.mpf("1e-5") < delta_closed(hi, 1, dps=60)


def test_text_output(capsys):
    rc, out, err = run(["gdp", "--mu", "1", "--eps-g", "1", "--digits", "15"], capsys)
    assert rc == 0 and err == ""
    assert out == ("mu-GDP: mu^2 = 1, mu = 1 (exact)\nleast delta_g at eps_g = 1:\n"
                   "delta_g in [0.126936737506643, 0.126936737506644]\n")
    rc, out, _ = run(["gdp", "--mu", "2", "--delta-g", "0"], capsys)
    assert "eps_g = inf" in out
    rc, out, _ = run(["gdp", "--mu", "0", "--delta-g", "0.1"], capsys)
    assert "eps_g = 0 (exact)" in out


@pytest.mark.parametrize(
    "argv,flag",
    [
        (["gdp", "--mu", "-1", "--eps-g", "1"], "--mu"),
        (["gdp", "--mu", "1,x", "--eps-g", "1"], "--mu[1]"),
        (["gdp", "--mu", "nan", "--eps-g", "1"], "--mu"),
        (["gdp", "--mu", "1", "--eps-g", "-1"], "--eps-g"),
        (["gdp", "--mu", "1", "--exp-eps-g", "0.5"], "--exp-eps-g"),
        (["gdp", "--mu", "1", "--delta-g", "1"], "--delta-g"),
        (["gdp", "--mu", "1", "--alpha", "2"], "--alpha"),
        (["gdp", "--mu", "1"], "--eps-g / --exp-eps-g / --delta-g / --alpha"),
        (["gdp", "--mu", "1", "--eps-g", "1", "--delta-g", "0.1"], "--eps-g / --exp-eps-g / --delta-g / --alpha"),
        (["gdp", "--delta-g", "0.1"], "--mu"),
        (["gdp", "--sigma", "0", "--eps-g", "1"], "--sigma"),
        (["gdp", "--sigma", "1,2", "--sensitivity", "1,-2", "--eps-g", "1"], "--sensitivity[1]"),
        (["gdp", "--sigma", "1,2", "--sensitivity", "1,2,3", "--eps-g", "1"], "--sensitivity"),
        (["gdp", "--mu", "1", "--sensitivity", "2", "--eps-g", "1"], "--sensitivity"),
        (["gdp", "--mu", "1" * 1001, "--eps-g", "1"], "--mu"),
        (["gdp", "--mu", "1", "--eps-g", "1000"], "--eps-g"),
    ],
)
def test_errors_are_one_line_exit_2(argv, flag, capsys):
    rc, out, err = run(argv, capsys)
    assert rc == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"exactdp: error: {flag} must") or err.startswith(f"exactdp: error: {flag}:"), err


def test_argparse_errors(capsys):
    rc, out, err = run(["gdp", "--mu", "1", "--eps-g", "1", "--digits", "0"], capsys)
    assert rc == 2 and err.count("\n") == 1
    rc, out, err = run(["gdp", "--mu", "1", "--sigma", "1", "--eps-g", "1"], capsys)
    assert rc == 2 and "not allowed with" in err


def test_help_loads_nothing_numeric():
    code = ("import sys, contextlib, io\nfrom exactdp.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    try:\n        main(['gdp', '--help'])\n    except SystemExit:\n        pass\n"
            "print(sorted(m for m in ('flint', 'gmpy2', 'mpmath', 'numpy', 'sympy') if m in sys.modules))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.stdout.strip() == "[]", p.stdout + p.stderr
