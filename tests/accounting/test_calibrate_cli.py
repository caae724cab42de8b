"""``exactdp calibrate --sample-rate``: the certified sigma printed is itself re-certified by a
fresh accountant; bad input is one line and exit status 2."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction as F

import pytest
from _cli import run

from exactdp import Accountant, Gaussian, PoissonSampled


def dec(s):
    return F(Decimal(s))


def test_sampled_sigma_certified_is_what_is_printed(capsys):
    rc, out, err = run(["calibrate", "--eps-g", "1", "--delta-g", "1e-5", "-k", "50", "--sample-rate", "1/16",
                        "--tol", "1e-3", "--json"], capsys)
    assert rc == 0 and err == "", err
    d = json.loads(out)
    sigma = dec(d["sigma_certified"])
    least = d["gaussian_sigma"]
    assert dec(least["lower"]) < sigma and dec(least["upper"]) >= sigma
    assert sigma <= dec(least["lower"]) * (1 + F(1, 1000)) * (1 + F(1, 10**12))
    cert = d["certificate"]
    h = F(cert["lattice_h"])

    def eps_at(s):
        return Accountant().compose(PoissonSampled(Gaussian(s), F(1, 16)), 50).query(
            "epsilon", F(1, 10**5), cert["digits"], h=h).value

    assert eps_at(sigma).upper <= 1          # the printed decimal is certified
    assert eps_at(dec(least["lower"])).lower > 1
    assert d["relation"] == "add-remove" and "gaussian_mu" not in d and "eps0" in d


def test_unsampled_keeps_todays_fields_and_adds_sigma_certified(capsys):
    rc, out, err = run(["calibrate", "--eps-g", "1", "--delta-g", "1e-6", "-k", "10", "--digits", "12", "--json"], capsys)
    assert rc == 0
    d = json.loads(out)
    assert {"eps0", "gaussian_mu", "gaussian_sigma", "sigma_certified"} <= set(d)
    assert dec(d["sigma_certified"]) >= dec(d["gaussian_sigma"]["upper"])
    rc, out, err = run(["calibrate", "--eps-g", "1", "--delta-g", "1e-5", "-k", "10", "--sample-rate", "1/4",
                        "--tol", "1e-2"], capsys)
    assert rc == 0 and "certified sigma:" in out and "Poisson-sampled at 1/4" in out


@pytest.mark.parametrize("extra,flag", [
    (["--sample-rate", "2"], "--sample-rate"),
    (["--sample-rate", "0.1", "--tol", "0"], "--tol"),
    (["--sample-rate", "0.1", "--relation", "swap"], "--relation"),
])
def test_bad_input_one_line(extra, flag, capsys):
    rc, out, err = run(["calibrate", "--eps-g", "1", "--delta-g", "1e-5", "-k", "10"] + extra, capsys)
    assert rc == 2 and out == ""
    assert flag in err and "Traceback" not in err


def test_exp_eps_with_sample_rate_refused(capsys):
    rc, out, err = run(["calibrate", "--exp-eps-g", "3", "--delta-g", "1e-5", "-k", "10", "--sample-rate", "0.1"], capsys)
    assert rc == 2 and "--exp-eps-g" in err and err.count("\n") == 1
