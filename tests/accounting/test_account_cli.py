"""``exactdp account``: the printed enclosure holds independent values (Gaussian DP in closed
form, computed here with mpmath); bad input and explosive requests are one line, exit 2."""

from __future__ import annotations

import sys
from fractions import Fraction as F
from pathlib import Path

import pytest
from _cli import refused, run, run_json

sys.path.insert(0, str(Path(__file__).parent))
import dp_reference as R  # noqa: E402


@R.at50
def _inside(d, value) -> bool:
    return R.mpf(F(d["lower"])) <= value <= R.mpf(F(d["upper"]))


def test_gaussian_epsilon_json_holds_gdp(capsys):
    out = run_json(["account", "--gaussian", "2", "--steps", "9", "--delta-g", "1e-6", "--digits", "8"], capsys)
    true = R.invert(lambda e: R.gdp_delta(R.mpf(3) / 2, e), R.mpf("1e-6"))
    assert _inside(out["eps_g"], true)
    assert out["lattice"]["points"] == 0  # unsampled Gaussians: closed form


def test_sampled_delta_json_holds_quadrature(capsys):
    out = run_json(["account", "--gaussian", "1", "--sample-rate", "1/10", "--steps", "2", "--eps-g", "1/20",
                    "--relation", "remove", "--digits", "3"], capsys)
    assert _inside(out["delta_g"], R.sub_delta(F(1, 20), 1, F(1, 10), 2, "remove"))
    assert out["lattice"]["points"] > 0


def test_laplace_text_output(capsys):
    rc, out, err = run(["account", "--laplace", "1", "--steps", "1", "--eps-g", "1/2", "--digits", "4"], capsys)
    assert rc == 0 and "delta_g in [" in out
    lo, hi = (F(x) for x in out.split("delta_g in [")[1].split("]")[0].split(", "))
    true = R.laplace_delta(F(1, 2), 1)
    assert R.mpf(lo) <= true <= R.mpf(hi) + R.mpf(10) ** -5  # printed to 6 digits, rounded outward


@pytest.mark.parametrize("argv,word", [
    (["--gaussian", "0", "--steps", "3", "--delta-g", "1e-5"], "--gaussian"),
    (["--gaussian", "-1", "--steps", "3", "--delta-g", "1e-5"], "--gaussian"),
    (["--gaussian", "1", "--sample-rate", "0", "--steps", "3", "--delta-g", "1e-5"], "--sample-rate"),
    (["--gaussian", "1", "--sample-rate", "3/2", "--steps", "3", "--delta-g", "1e-5"], "--sample-rate"),
    (["--gaussian", "1", "--steps", "0", "--delta-g", "1e-5"], "--steps"),
    (["--gaussian", "1", "--steps", "3", "--delta-g", "1"], "--delta-g"),
    (["--gaussian", "1", "--steps", "3", "--delta-g", "0"], "--delta-g"),
    (["--gaussian", "1", "--steps", "3", "--delta-g", "1e-5", "--digits", "13"], "--digits"),
    (["--gaussian", "1", "--steps", "3", "--eps-g", "-1"], "--eps-g"),
])
def test_bad_input_is_one_line(argv, word, capsys):
    refused(*run(["account"] + argv, capsys), word)


def test_explosive_requests_refused_with_the_estimate(capsys):
    rc, out, err = run(["account", "--gaussian", "1", "--sample-rate", "1/100", "--steps", "1000", "--delta-g", "1e-5",
                        "--digits", "12"], capsys)
    refused(rc, out, err, "--digits", "GiB", "the most that fit")
    rc, out, err = run(["account", "--gaussian", "1/100", "--sample-rate", "1/2", "--steps", "1000000000",
                        "--delta-g", "1e-5"], capsys)
    refused(rc, out, err, "--steps", "GiB")
