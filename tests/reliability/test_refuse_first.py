"""Every refusal before the work (issue 26): a bad ``--alpha`` or ``--gaussian`` is refused
before the trade-off function is built (the fuzz measured 6-52 s and 18 s of work first),
and non-ASCII digits are refused by ``reduce --int-partition`` as by every other option.

The function that would do the work is replaced by one that fails the test when called.
"""

from __future__ import annotations

import pytest
from _cli import refused, run

import exactdp.fdp


@pytest.fixture
def no_curve(monkeypatch):
    def boom(*a, **k):
        raise AssertionError("the trade-off function was built before the refusal")

    monkeypatch.setattr(exactdp.fdp, "composition_tradeoff", boom)


@pytest.mark.parametrize("alpha", ["2", "3/2", "x", "٣"])
def test_tradeoff_alpha_refused_before_the_curve(capsys, no_curve, alpha):
    refused(*run(["tradeoff", "--eps", "1,0.113", "--delta", "1/1000", "-k", "100", "--alpha", alpha], capsys),
            "--alpha", "[0, 1]")


def test_tradeoff_alpha_at_the_ends_still_answered(capsys):
    rc, out, err = run(["tradeoff", "--exp-eps", "2", "--alpha", "1"], capsys)
    assert rc == 0 and "f(1) = 0" in out, (out, err)


@pytest.mark.parametrize("mu", ["-1", "x"])
def test_plot_gaussian_refused_before_the_curve(tmp_path, capsys, no_curve, mu):
    refused(*run(["plot", "tradeoff", "--eps", "1,0.113", "--delta", "1/1000", "-k", "100", "--gaussian", mu,
                  "-o", tmp_path / "f.png"], capsys), "--gaussian")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("z", ["١,٢", "1_0,2", "１,2", "2,٣"])
def test_reduce_refuses_non_ascii_digits(capsys, z):
    refused(*run(["reduce", "--int-partition", z], capsys), "--int-partition", "ASCII")


def test_a_long_unrecognized_argument_is_one_short_line(capsys):
    # the 10,000-case fuzz (seed 1): argparse echoed a 2,000-character list whole
    rc, out, err = run(["delta", "--eps", "1", "--delta'", "0.001," + "1" * 2000, "--eps-g", "1"], capsys)
    assert rc == 2 and out == "" and err.count("\n") == 1 and len(err) < 400 and "(2039 characters)" in err


def test_a_huge_eps_with_the_windowed_method_is_answered(capsys):
    # the fuzz: OverflowError in the windowed kernel's float model (exp(-ln w) for ln w = -1e308)
    rc, out, err = run(["delta", "--eps", "1e308", "--delta", "1e-6", "--eps-g", "1/3", "--method", "windowed"], capsys)
    assert rc == 0 and "Traceback" not in err, err
    # delta + (1 - delta)(e^eps - e^(1/3)) / (1 + e^eps) (the k = 1 closed form): 1 within e^-1e308
    assert "delta_g in [0.99999" in out
