"""``exactdp region | tradeoff | bounds | calibrate | plot``: schemas, values checked independently, bad input.

* JSON: one object on one line with the issue's keys; values against computations made
  here (the product of randomized responses; the advanced-composition formula in mpmath;
  composed_delta at the calibrated ends).
* Bad input: exit status 2, one line on stderr naming the flag, nothing on stdout, no
  file written (plot), no traceback; once through the installed ``exactdp`` script.
* Figures: a PNG and an SVG are written, and are images.

References: Kairouz-Oh-Viswanath Theorems 3.3-3.5; Murtagh-Vadhan Theorems 1.3, 1.5.
"""

from __future__ import annotations

import subprocess
import sys
from decimal import Decimal
from fractions import Fraction as F
from pathlib import Path

import mpmath
import pytest
from _cli import run, run_json
from regions_reference import np_curve, product_atoms, rr_atoms

from exactdp import composed_delta, mechanisms


@pytest.fixture(autouse=True)
def _mp_precision():
    """mpmath at 40 digits for every test here (its precision is global: set per test, not at import)."""
    with mpmath.workdps(40):
        yield


def dec(s):
    return F(Decimal(s))


def test_region_json_exact(capsys):
    d = run_json(["region", "--exp-eps", "2,3/2", "--delta", "1/10,0"], capsys)
    curve = np_curve(product_atoms([rr_atoms(F(2), F(1, 10)), rr_atoms(F(3, 2), F(0))]))
    expect = curve + [(1 - a, 1 - b) for a, b in curve[1:-1]]
    assert [[F(x), F(y)] for x, y in d["vertices"]] == [[a, b] for a, b in expect]
    assert d["exact"] is True and d["count"] == len(expect) and d["vertices"][0] == ["0", "1"]


def test_region_json_enclosures_and_theorem_3_3(capsys):
    d = run_json(["region", "--eps", "0.4", "-k", "3", "--theorem-3-3", "--digits", "12"], capsys)
    assert d["exact"] is False and d["vertices"][0] == ["0", "1"]
    x = d["vertices"][1][0]
    assert set(x) == {"lower", "upper"} and dec(x["lower"]) < dec(x["upper"])
    # first vertex after (0, 1): (P0(all good), P1(not all good)) = (w^3, 1 - 1)/(1 + w)^3 ... alpha = 1/(1+w)^3
    w = mpmath.exp(mpmath.mpf("0.4"))
    assert dec(x["lower"]) <= F(mpmath.nstr(1 / (1 + w) ** 3, 30)) <= dec(x["upper"])
    t = d["theorem_3_3"]
    assert t["equal_to_curve"] is True and t["count"] == d["count"]
    d2 = run_json(["region", "--eps", "0.4,0.2", "--theorem-3-3"], capsys)
    assert d2["theorem_3_3"]["applies"] is False


def test_tradeoff_json(capsys):
    d = run_json(["tradeoff", "--exp-eps", "2", "-k", "2", "--alpha", "1/3"], capsys)
    assert d["beta"] == "1/3" and d["exact"] is True  # on the segment (1/9, 5/9)-(5/9, 1/9)
    d = run_json(["tradeoff", "--eps", "0.4", "-k", "1", "--alpha", "0.1", "--digits", "20"], capsys)
    v = 1 - mpmath.exp(mpmath.mpf("0.4")) * mpmath.mpf("0.1")
    assert dec(d["beta"]["lower"]) <= F(mpmath.nstr(v, 30)) <= dec(d["beta"]["upper"])
    d = run_json(["tradeoff", "--exp-eps", "3"], capsys)
    assert d["vertices"] == [["0", "1"], ["1/4", "1/4"], ["1", "0"]]


def test_bounds_json(capsys):
    d = run_json(["bounds", "--eps", "0.1", "--delta", "0.001", "-k", "30", "--delta-g", "0.05", "--digits", "20"], capsys)
    b = d["bounds"]
    assert set(b) == {"basic", "advanced", "kov_3_4", "kov_3_5", "optimal"}
    e = mpmath.mpf("0.1")
    adv = mpmath.sqrt(60 * mpmath.log(50)) * e + 30 * e * (mpmath.exp(e) - 1)
    assert dec(b["advanced"]["eps_g"]["lower"]) <= F(mpmath.nstr(adv, 35)) <= dec(b["advanced"]["eps_g"]["upper"])
    assert b["basic"]["eps_g"] == {"lower": "3", "upper": "3"} and b["basic"]["eps_g_exact"] == "3"
    opt = dec(b["optimal"]["eps_g"]["upper"])
    for n in ("basic", "advanced", "kov_3_4", "kov_3_5"):
        assert dec(b[n]["eps_g"]["lower"]) > opt
    d = run_json(["bounds", "--eps", "0.1,0.2", "--delta-g", "0.01"], capsys)
    assert d["bounds"]["advanced"]["applies"] is False and "heterogeneous" in d["bounds"]["advanced"]["reason"]


def test_bounds_text_shows_excess(capsys):
    rc, out, err = run(["bounds", "--eps", "0.1", "--delta", "0.001", "-k", "30", "--delta-g", "0.05"], capsys)
    assert rc == 0 and "above the optimum" in out and "Kairouz-Oh-Viswanath Theorem 3.4" in out


def test_calibrate_json(capsys):
    d = run_json(["calibrate", "--eps-g", "1", "--delta-g", "1e-6", "-k", "10", "--digits", "12"], capsys)
    lo, hi = dec(d["eps0"]["lower"]), dec(d["eps0"]["upper"])
    assert composed_delta(mechanisms(eps=lo, k=10), eps_g=1).upper <= F(1, 10**6) < composed_delta(mechanisms(eps=hi, k=10), eps_g=1).lower
    assert set(d["gaussian_sigma"]) >= {"lower", "upper"} and dec(d["gaussian_sigma"]["lower"]) > 0
    d = run_json(["calibrate", "--eps-g", "100", "--delta-g", "0.1", "-k", "1", "--paper", "--digits", "8"], capsys)
    assert [p["meets_budget"] for p in d["paper"]] == [True, True, False, True]  # Theorem 4.3 fails, corrected holds


BAD = [
    (["region", "--eps", "-1"], "--eps[0]"),
    (["region", "--exp-eps", "0.5"], "--exp-eps[0]"),
    (["region", "--eps", "1", "--delta", "1.5"], "--delta[0]"),
    (["region", "--eps", "nan"], "--eps[0]"),
    (["tradeoff", "--eps", "1", "--alpha", "2"], "--alpha"),
    (["tradeoff", "--eps", "1", "--alpha", "x"], "--alpha"),
    (["bounds", "--eps", "1", "--delta-g", "1"], "--delta-g"),
    (["bounds", "--eps", "1", "--delta-g", "inf"], "--delta-g"),
    (["calibrate", "--eps-g", "1", "--delta-g", "1e-5", "-k", "0"], "-k"),
    (["calibrate", "--eps-g", "1", "--delta-g", "1e-5", "-k", "3", "--sensitivity", "0"], "--sensitivity"),
    (["calibrate", "--eps-g", "1", "--delta-g", "1e-5", "-k", "3", "--delta0", "0.5"], "--delta-g"),
    (["calibrate", "--eps-g", "-2", "--delta-g", "1e-5", "-k", "3"], "--eps-g"),
    (["calibrate", "--eps-g", "1", "--delta-g", "1e-5", "-k", "3", "--delta0", "1"], "--delta0"),
    (["plot", "region", "--eps", "1", "-o", "fig.pdf"], "-o"),
    (["plot", "bogus", "--eps", "1", "-o", "fig.png"], "kind"),
    (["region", "--eps", "1" * 2000], "--eps"),
]


@pytest.mark.parametrize("argv,name", BAD)
def test_bad_input_one_line_exit_2(argv, name, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rc, out, err = run(argv, capsys)
    assert rc == 2 and out == "", (rc, out, err)
    assert err.count("\n") == 1 and err.startswith("exactdp: error:") and "Traceback" not in err, err
    assert name in err, err
    assert list(tmp_path.iterdir()) == []


def test_plot_missing_directory_writes_nothing(capsys, tmp_path):
    rc, out, err = run(["plot", "region", "--eps", "1", "-o", str(tmp_path / "no" / "fig.png")], capsys)
    assert rc == 2 and "-o" in err and not (tmp_path / "no").exists()


@pytest.mark.parametrize("kind,ext,extra", [("region", "png", ["--each-k"]), ("tradeoff", "svg", ["--gaussian", "1"]),
                                            ("bounds", "png", ["--delta", "0.01"])])
def test_plot_writes_an_image(kind, ext, extra, capsys, tmp_path):
    out_file = tmp_path / f"fig.{ext}"
    rc, out, err = run(["plot", kind, "--exp-eps", "3/2", "-k", "3", "-o", str(out_file)] + extra, capsys)
    assert rc == 0, err
    data = out_file.read_bytes()
    assert data.startswith(b"\x89PNG") if ext == "png" else b"<svg" in data[:2000]
    assert [p.name for p in tmp_path.iterdir()] == [out_file.name]  # no temporary file left


def test_installed_script_exit_2():
    exe = Path(sys.executable).with_name("exactdp")
    p = subprocess.run([str(exe), "calibrate", "--eps-g", "1", "--delta-g", "2", "-k", "3"], capture_output=True, text=True)
    assert p.returncode == 2 and p.stdout == "" and p.stderr.count("\n") == 1 and "--delta-g" in p.stderr


def test_help_does_not_load_the_numeric_stack():
    code = ("import sys; from exactdp.cli import build_parser; build_parser(); "
            "print(sorted(m for m in ('flint', 'gmpy2', 'mpmath', 'numpy', 'matplotlib') if m in sys.modules))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert p.stdout.strip() == "[]", p.stdout + p.stderr
