"""The ``exactdp`` command: bad input, JSON schemas, and values checked independently.

* Every subcommand (delta, epsilon, approx, certify, reduce, proofs) refuses bad
  input with exit status 2, exactly one line on stderr naming the parameter,
  nothing on stdout and no traceback (in-process through ``exactdp.cli.main``,
  and once per subcommand through the installed ``exactdp`` script).
* ``--json`` prints one JSON object with the keys of issue 2's contract
  (``delta``, ``epsilon``) or of the subcommand's documented schema.
* Values agree with independent computations: the k = 1 closed form
  ``delta_g = delta + (1 - delta) (e^eps - e^eps_g)_+ / (1 + e^eps)`` and its
  inverse, ``2/9`` for two mechanisms with ``e^eps = 2`` at ``eps_g = ln 2``, the
  Kairouz-Oh-Viswanath sum written out here in Fractions, brute-force partition
  counts for ``reduce``.

References: Murtagh-Vadhan Theorem 1.5 (the formula), Theorem 1.7 (approx),
Kairouz-Oh-Viswanath Theorem 3.3 (homogeneous sum).
"""

from __future__ import annotations

import json
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from decimal import Decimal
from fractions import Fraction
from io import StringIO
from itertools import product
from math import comb, prod
from pathlib import Path

import mpmath
import pytest
from _cli import run, run_json
from hypothesis import given
from hypothesis import strategies as st

import exactdp.numbers
import exactdp.numbers.expnum
from exactdp.cli import main

ROOT = Path(__file__).resolve().parents[2]


def dec(s: str) -> Fraction:
    return Fraction(Decimal(s))


def significant_digits(s: str) -> int:
    mant = s.lstrip("-").split("e")[0].replace(".", "").lstrip("0")
    return len(mant)


# --------------------------------------------------------------------------
# bad input: exit 2, one line on stderr naming the parameter, nothing on stdout

MECH_BAD = [
    (["--eps", "-1"], "eps[0]"),
    (["--eps", "0.5,-0.1"], "eps[1]"),
    (["--eps", "nan"], "eps[0]"),
    (["--eps", "NaN"], "eps[0]"),
    (["--eps", "inf"], "eps[0]"),
    (["--eps=-inf"], "eps[0]"),
    (["--eps", ""], "--eps"),
    (["--eps", "1,,2"], "--eps"),
    (["--eps", "1,"], "--eps"),
    (["--eps", "1/0"], "eps[0]"),
    (["--eps", "abc"], "eps[0]"),
    (["--eps", "1/2/3"], "eps[0]"),
    (["--eps", "0x10"], "eps[0]"),
    (["--exp-eps", "0.5"], "--exp-eps[0]"),
    (["--exp-eps", "0"], "--exp-eps[0]"),
    (["--exp-eps", "abc"], "--exp-eps[0]"),
    (["--eps", "1", "--delta", "1"], "delta[0]"),
    (["--eps", "1", "--delta", "-0.1"], "delta[0]"),
    (["--eps", "1", "--delta", "nan"], "delta[0]"),
    (["--eps", "1", "--delta", "1.5"], "delta[0]"),
    (["--eps", "1", "--delta", ""], "--delta"),
    (["--eps", "1,2", "--delta", "0.1,0.2,0.3"], "delta"),
    (["--eps", "1", "-k", "0"], "-k"),
    (["--eps", "1", "-k", "-3"], "-k"),
    (["--eps", "1", "-k", "abc"], "-k"),
    (["--eps", "1", "--exp-eps", "2"], "--exp-eps"),
    ([], "--eps"),
]

SUBCOMMAND_REST = {
    "delta": ["--eps-g", "1"],
    "epsilon": ["--delta-g", "0.1"],
    "approx": ["--delta-g", "0.1", "--eta", "0.1"],
    "certify": ["--claim-eps", "1", "--claim-delta", "0.1"],
}

BAD = [([cmd] + mech + rest, frag) for cmd, rest in SUBCOMMAND_REST.items() for mech, frag in MECH_BAD]

E1 = ["--eps", "1"]
BAD += [
    # delta
    (["delta", *E1, "--eps-g", "-1"], "--eps-g"),
    (["delta", *E1, "--eps-g", "nan"], "--eps-g"),
    (["delta", *E1, "--eps-g", "inf"], "--eps-g"),
    (["delta", *E1, "--eps-g", "abc"], "--eps-g"),
    (["delta", *E1, "--eps-g", "1/0"], "--eps-g"),
    (["delta", *E1, "--exp-eps-g", "0.5"], "--exp-eps-g"),
    (["delta", *E1, "--exp-eps-g", "nan"], "--exp-eps-g"),
    (["delta", *E1], "--eps-g"),
    (["delta", *E1, "--eps-g", "1", "--exp-eps-g", "2"], "--exp-eps-g"),
    (["delta", *E1, "--eps-g", "1", "--engine", "foo"], "--engine"),
    (["delta", *E1, "--eps-g", "1", "--method", "foo"], "--method"),
    (["delta", *E1, "--eps-g", "1", "--digits", "0"], "--digits"),
    (["delta", *E1, "--eps-g", "1", "--digits", "x"], "--digits"),
    (["delta", *E1, "--eps-g", "1", "--digits", "100000"], "digits"),
    (["delta", "--eps", "0.1,0.2", "--eps-g", "1", "--method", "homogeneous"], "homogeneous"),
    (["delta", "--exp-eps", "2,3", "--eps-g", "1", "--method", "lattice"], "lattice"),
    (["delta", "--eps", "0.1", "--exp-eps-g", "2", "--engine", "exact"], "exact engine"),
    # epsilon
    (["epsilon", *E1, "--delta-g", "1"], "--delta-g"),
    (["epsilon", *E1, "--delta-g", "-0.1"], "--delta-g"),
    (["epsilon", *E1, "--delta-g", "nan"], "--delta-g"),
    (["epsilon", *E1, "--delta-g", "inf"], "--delta-g"),
    (["epsilon", *E1, "--delta-g", "abc"], "--delta-g"),
    (["epsilon", *E1, "--delta-g", "1/0"], "--delta-g"),
    (["epsilon", *E1, "--delta-g", ""], "--delta-g"),
    (["epsilon", *E1], "--delta-g"),
    (["epsilon", *E1, "--delta-g", "0.1", "--engine", "foo"], "--engine"),
    (["epsilon", *E1, "--delta-g", "0.1", "--method", "foo"], "--method"),
    (["epsilon", "--eps", "0.1", "--delta-g", "0.1", "--engine", "exact"], "exact engine"),
    # approx
    (["approx", *E1, "--delta-g", "1", "--eta", "0.1"], "--delta-g"),
    (["approx", *E1, "--delta-g", "-0.1", "--eta", "0.1"], "--delta-g"),
    (["approx", *E1, "--delta-g", "0.1", "--eta", "0"], "eta"),
    (["approx", *E1, "--delta-g", "0.1", "--eta", "-1"], "eta"),
    (["approx", *E1, "--delta-g", "0.1", "--eta", "nan"], "eta"),
    (["approx", *E1, "--delta-g", "0.1", "--eta", "inf"], "eta"),
    (["approx", *E1, "--delta-g", "0.1", "--eta", "1/0"], "eta"),
    (["approx", *E1, "--delta-g", "0.1", "--eta", "abc"], "eta"),
    (["approx", *E1, "--delta-g", "0.1", "--exp-base", "1"], "--exp-base"),
    (["approx", *E1, "--delta-g", "0.1", "--exp-base", "0.5"], "--exp-base"),
    (["approx", *E1, "--delta-g", "0.1", "--exp-base", "abc"], "--exp-base"),
    (["approx", *E1, "--delta-g", "0.1"], "--eta"),
    (["approx", *E1, "--delta-g", "0.1", "--eta", "0.1", "--exp-base", "2"], "--exp-base"),
    (["approx", *E1, "--delta-g", "0.1", "--eta", "0.1", "--variant", "foo"], "--variant"),
    (["approx", *E1, "--delta-g", "0.1", "--eta", "0.1", "--form", "foo"], "--form"),
    (["approx", *E1, "--delta-g", "0.1", "--eta", "0.1", "--digits", "0"], "--digits"),
    # certify
    (["certify", *E1, "--claim-eps", "1", "--claim-delta", "1"], "--claim-delta"),
    (["certify", *E1, "--claim-eps", "1", "--claim-delta", "-0.1"], "--claim-delta"),
    (["certify", *E1, "--claim-eps", "1", "--claim-delta", "nan"], "--claim-delta"),
    (["certify", *E1, "--claim-eps", "1", "--claim-delta", "abc"], "--claim-delta"),
    (["certify", *E1, "--claim-eps", "-1", "--claim-delta", "0.1"], "--claim-eps"),
    (["certify", *E1, "--claim-eps", "nan", "--claim-delta", "0.1"], "--claim-eps"),
    (["certify", *E1, "--claim-eps", "inf", "--claim-delta", "0.1"], "--claim-eps"),
    (["certify", *E1, "--claim-eps", "1/0", "--claim-delta", "0.1"], "--claim-eps"),
    (["certify", *E1, "--claim-exp-eps", "0.5", "--claim-delta", "0.1"], "--claim-exp-eps"),
    (["certify", *E1, "--claim-delta", "0.1"], "--claim-eps"),
    (["certify", *E1, "--claim-eps", "1"], "--claim-delta"),
    (["certify", *E1, "--claim-eps", "1", "--claim-delta", "0.1", "--method", "foo"], "--method"),
    (["certify", *E1, "--claim-eps", "1", "--claim-delta", "0.1", "--max-digits", "0"], "--max-digits"),
    (["certify", *E1, "--claim-eps", "1", "--claim-delta", "0.1", "--digits", "0"], "--digits"),
    # reduce
    (["reduce", "--int-partition", ""], "--int-partition"),
    (["reduce", "--int-partition", "2,,3"], "--int-partition"),
    (["reduce", "--int-partition", "1,-2"], "--int-partition"),
    (["reduce", "--int-partition", "0"], "--int-partition"),
    (["reduce", "--int-partition", "abc"], "--int-partition"),
    (["reduce", "--int-partition", "1/0"], "--int-partition"),
    (["reduce", "--int-partition", "nan"], "--int-partition"),
    (["reduce", "--int-partition", "1.5"], "--int-partition"),
    (["reduce"], "--int-partition"),
    (["reduce", "--int-partition", "1,2", "--c", "1"], "--c"),
    (["reduce", "--int-partition", "1,2", "--c", "-1"], "--c"),
    (["reduce", "--int-partition", "1,2", "--c", "nan"], "--c"),
    (["reduce", "--int-partition", "1,2", "--c", "inf"], "--c"),
    (["reduce", "--int-partition", "1,2", "--c", "abc"], "--c"),
    (["reduce", "--int-partition", "1,2", "--c", "100"], "--c"),
    (["reduce", "--int-partition", "1,2", "--as-printed", "foo"], "--as-printed"),
    (["reduce", "--int-partition", "1,2", "--max-prec", "10"], "--max-prec"),
    (["reduce", "--int-partition", "1,2", "--brute-force-limit", "0"], "--brute-force-limit"),
    # proofs
    (["proofs", "--paper", "foo"], "paper"),
    (["proofs", "--bogus"], "--bogus"),
    (["proofs", "--id", "no-such-statement-xyz"], "--id"),
    # the command itself
    ([], "COMMAND"),
    (["frobnicate"], "COMMAND"),
]


def _assert_one_line_error(rc, out, err, fragment):
    assert rc == 2, (rc, out, err)
    assert out == "", f"stdout on error: {out!r}"
    assert err.endswith("\n") and err.count("\n") == 1, f"not exactly one line: {err!r}"
    assert err.startswith("exactdp: error: "), err
    assert "Traceback" not in err
    assert fragment in err, f"{fragment!r} not named in {err!r}"


@pytest.mark.parametrize("argv,fragment", BAD, ids=[" ".join(a)[:70] or "(none)" for a, _ in BAD])
def test_bad_input_exits_2_with_one_line(argv, fragment, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # `exactdp proofs` may write a report under ./docs
    rc, out, err = run(argv, capsys)
    _assert_one_line_error(rc, out, err, fragment)


# too-large requests: the message gives the estimate and the faster option
TOO_LARGE = [
    (["delta", "--eps", "1", "-k", "60", "--eps-g", "1", "--method", "brute"], ["2^60", "1.15e+18", "auto", "exactdp approx"]),
    (["delta", "--eps", "1", "-k", "30", "--eps-g", "1", "--method", "brute"], ["2^30", "1.07e+09", "mitm"]),
    (["epsilon", "--eps", "1", "-k", "60", "--delta-g", "0.1", "--method", "brute"], ["2^60", "1.15e+18", "exactdp approx"]),
    # 60 distinct eps: meet in the middle cannot group them (20 copies of 3 values now run in 0.5 s)
    (["epsilon", "--eps", ",".join(f"1/{i}" for i in range(2, 62)), "--delta-g", "0.1", "--method", "mitm"],
     ["meet in the middle", "1.07e+09", "exactdp approx"]),
    (["certify", "--eps", "1", "-k", "60", "--claim-eps", "1", "--claim-delta", "0.1", "--method", "brute"], ["2^60", "1.15e+18", "auto"]),
    (["certify", "--eps", "1", "-k", "30", "--claim-eps", "1", "--claim-delta", "0.1", "--method", "brute"], ["2^30", "mitm"]),
    (["approx", "--eps", "1", "--delta-g", "0.1", "--eta", "1e-12"], ["1e+12", "use eta >="]),
    # found by the fuzzer: a huge eta rounds every eps_i up to eta / k, beyond what OptComp searches
    (["approx", "--eps", "0.05", "--delta-g", "1e-6", "--eta", "1e308"], ["--eta", "A ln u = 1e+308", "use eta <= 1e+08"]),
    (["approx", "--exp-eps", "2,2,3/2,1,2", "-k", "100", "--delta-g", "1e-3", "--eta", "0.922438214764e13"],
     ["--eta", "7.38e+12", "use eta <= 1.25e+08"]),
    # 2^3000 overflowed the float that printed it
    (["delta", "--eps", "0.1,2,0.05", "-k", "1000", "--eps-g", "1/3", "--method", "brute"], ["2^3000 = 10^903", "auto"]),
    # mechanisms with eps = 0 leave the kernel (they scale S and Z alike): 2^2000 subsets
    (["delta", "--eps", "0,2,0.05", "-k", "1000", "--eps-g", "1/3", "--method", "brute"], ["2^2000 = 10^602", "auto"]),
]


@pytest.mark.parametrize("argv,fragments", TOO_LARGE, ids=[" ".join(a)[:70] for a, _ in TOO_LARGE])
def test_too_large_requests_name_estimate_and_faster_option(argv, fragments, capsys):
    rc, out, err = run(argv, capsys)
    _assert_one_line_error(rc, out, err, fragments[0])
    for f in fragments[1:]:
        assert f in err, (f, err)


def _script():
    exe = Path(sys.executable).with_name("exactdp")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "exactdp.cli"]


@pytest.mark.parametrize(
    "argv,fragment",
    [
        (["delta", "--eps", "nan", "--eps-g", "1"], "eps[0]"),
        (["epsilon", "--eps", "1", "--delta-g", "1"], "--delta-g"),
        (["approx", "--eps", "1", "--delta-g", "0.1", "--eta", "0"], "eta"),
        (["certify", "--eps", "1", "--claim-eps", "1", "--claim-delta", "-0.1"], "--claim-delta"),
        (["reduce", "--int-partition", "1/0"], "--int-partition"),
        (["proofs", "--paper", "foo"], "paper"),
    ],
)
def test_installed_script_bad_input(argv, fragment, tmp_path):
    p = subprocess.run(_script() + argv, capture_output=True, text=True, cwd=tmp_path, timeout=120)
    _assert_one_line_error(p.returncode, p.stdout, p.stderr, fragment)


# --------------------------------------------------------------------------
# core bugs found here (reported to the lead and fixed), kept as regressions


def test_exact_engine_refusal_names_eps_g(capsys):
    rc, out, err = run(["delta", "--exp-eps", "2", "--eps-g", "1", "--engine", "exact"], capsys)
    _assert_one_line_error(rc, out, err, "eps_g")


@pytest.mark.skipif(sys.platform != "linux", reason="uses RLIMIT_AS")
def test_huge_homogeneous_k_is_computed_or_refused(tmp_path):
    import resource

    def limit():  # keep the failure cheap and local: 1 GB of address space
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    p = subprocess.run(
        _script() + ["delta", "--eps", "0.1", "-k", "1000000", "--eps-g", "1", "--digits", "10"],
        capture_output=True, text=True, cwd=tmp_path, timeout=300, preexec_fn=limit,
    )
    if p.returncode == 0:
        assert "delta_g in [" in p.stdout
    else:
        _assert_one_line_error(p.returncode, p.stdout, p.stderr, "")


def test_approximate_search_does_not_escalate_precision(capsys, monkeypatch):
    seen = []
    orig = exactdp.numbers.expnum._log_product_arb

    def spy(factors, prec):
        seen.append(prec)
        return orig(factors, prec)

    monkeypatch.setattr(exactdp.numbers.expnum, "_log_product_arb", spy)
    rc, out, err = run(["epsilon", "--eps", "1", "-k", "6", "--delta-g", "0.1", "--method", "brute", "--digits", "15"], capsys)
    assert rc == 0, err
    # eps_g of 6 x eps=1 at 0.1 is an ordinary number; no sign decision needs thousands of bits
    assert max(seen, default=0) <= 4096, f"sign decisions escalated to {max(seen)} bits"


# --------------------------------------------------------------------------
# JSON schemas


def test_delta_json_schema(capsys):
    d = run_json(["delta", "--eps", "0.1", "-k", "10", "--eps-g", "0.5", "--digits", "25"], capsys)
    assert set(d["delta_g"]) == {"exact", "lower", "upper"}
    assert {"engine", "method", "guarantee", "precision_bits", "digits", "k"} <= set(d)
    assert d["delta_g"]["exact"] is None and d["engine"] == "certified" and d["guarantee"] == "enclosure"
    assert d["k"] == 10 and d["digits"] == 25 and d["method"] == "homogeneous"
    lo, hi = dec(d["delta_g"]["lower"]), dec(d["delta_g"]["upper"])
    assert 0 < lo < hi < 1
    assert significant_digits(d["delta_g"]["lower"]) >= 25 and significant_digits(d["delta_g"]["upper"]) >= 25


def test_delta_json_exact(capsys):
    d = run_json(["delta", "--exp-eps", "2,2", "--exp-eps-g", "2"], capsys)
    assert d["delta_g"]["exact"] == "2/9"  # (2*2 - 2*1) / (1 + 2)^2
    assert d["engine"] == "exact" and d["guarantee"] == "exact"
    assert dec(d["delta_g"]["lower"]) <= Fraction(2, 9) <= dec(d["delta_g"]["upper"])


def test_epsilon_json_schema_exact(capsys):
    d = run_json(["epsilon", "--exp-eps", "2,2", "--delta-g", "2/9"], capsys)
    assert set(d["eps_g"]) == {"exact", "exp_exact", "lower", "upper"}
    assert {"infinite", "engine", "method", "guarantee", "precision_bits", "digits", "k"} <= set(d)
    assert d["eps_g"]["exact"] == "log(2)" and d["eps_g"]["exp_exact"] == "2"
    assert d["infinite"] is False and d["engine"] == "exact"
    with mpmath.workdps(60):
        ln2 = Fraction(mpmath.nstr(mpmath.log(2), 50))  # within 1e-50 of ln 2
    slack = Fraction(1, 10**45)
    assert dec(d["eps_g"]["lower"]) <= ln2 - slack and ln2 + slack <= dec(d["eps_g"]["upper"])


def test_epsilon_json_infinite(capsys):
    # delta_g = 0.05 < 1 - (1 - 0.1) = 0.1: no finite eps_g
    d = run_json(["epsilon", "--eps", "1", "--delta", "0.1", "--delta-g", "0.05"], capsys)
    assert d["infinite"] is True and d["eps_g"]["lower"] == d["eps_g"]["upper"] == "inf"


def test_approx_json_schema(capsys):
    d = run_json(["approx", "--eps", "0.5,0.25", "--delta-g", "0.1", "--eta", "0.01"], capsys)
    assert {"eps_star", "infinite", "eta", "eps0", "k", "lattice_degree", "variant", "form", "delta_g", "guarantee", "optcomp"} <= set(d)
    assert {"lower", "upper"} <= set(d["eps_star"]) and {"lower", "upper", "infinite"} <= set(d["optcomp"])


def test_certify_json_schema(capsys):
    d = run_json(["certify", "--exp-eps", "2,2", "--claim-exp-eps", "2", "--claim-delta", "2/9"], capsys)
    assert {"holds", "claim", "delta_at_claim_eps", "optimal_eps", "margin", "decided_by", "engine", "method", "k"} <= set(d)
    assert set(d["claim"]) == {"eps", "exp_eps", "delta"} and set(d["margin"]) == {"delta", "eps"}


def test_reduce_json_schema(capsys):
    d = run_json(["reduce", "--int-partition", "2,3,6,1"], capsys)
    assert {"count", "brute_force_count", "certified", "oracle_calls", "steps"} <= set(d)


def test_proofs_json_schema(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    d = run_json(["proofs", "--id", "Lemma 5.1"], capsys)
    assert d["results"], "at least one entry"
    for r in d["results"]:
        assert {"paper", "id", "statement", "status", "checks", "evidence", "correction"} <= set(r)
        assert "Lemma 5.1" in r["id"]
    assert not (tmp_path / "docs").exists()  # --id writes no report


# --------------------------------------------------------------------------
# values against independent computations


def k1_delta(w: Fraction, delta: Fraction, t: Fraction) -> Fraction:
    """k = 1 (Murtagh-Vadhan Thm 1.5 with one mechanism): delta + (1 - delta) (w - t)_+ / (1 + w)."""
    return delta + (1 - delta) * max(w - t, 0) / (1 + w)


@pytest.mark.parametrize(
    "w,delta,t",
    [(Fraction(3), Fraction(0), Fraction(2)), (Fraction(11, 10), Fraction(1, 1000), Fraction(21, 20)),
     (Fraction(5, 2), Fraction(1, 7), Fraction(1)), (Fraction(2), Fraction(0), Fraction(3))],
)
def test_delta_k1_closed_form_exact(w, delta, t, capsys):
    d = run_json(["delta", "--exp-eps", str(w), "--delta", str(delta), "--exp-eps-g", str(t)], capsys)
    assert Fraction(d["delta_g"]["exact"]) == k1_delta(w, delta, t)


def test_delta_two_mechanisms_two_ninths_human(capsys):
    rc, out, err = run(["delta", "--exp-eps", "2", "-k", "2", "--exp-eps-g", "2"], capsys)
    assert rc == 0 and err == ""
    assert "exact:    2/9\n" in out
    assert "engine: exact, method: homogeneous" in out


@pytest.mark.parametrize("method", ["homogeneous", "lattice", "grouped", "brute", "mitm"])
def test_delta_two_ninths_every_method(method, capsys):
    d = run_json(["delta", "--exp-eps", "2,2", "--exp-eps-g", "2", "--method", method], capsys)
    assert d["delta_g"]["exact"] == "2/9" and d["method"] == method


def test_delta_k1_closed_form_transcendental(capsys):
    # eps = 1/2, eps_g = 1/5, delta = 1/10: delta_g = 1/10 + (9/10)(e^0.5 - e^0.2)/(1 + e^0.5)
    d = run_json(["delta", "--eps", "1/2", "--delta", "0.1", "--eps-g", "0.2", "--digits", "30"], capsys)
    with mpmath.workdps(80):
        w, t = mpmath.exp(mpmath.mpf(1) / 2), mpmath.exp(mpmath.mpf(1) / 5)
        v = mpmath.mpf(1) / 10 + mpmath.mpf(9) / 10 * (w - t) / (1 + w)
        ref = Fraction(mpmath.nstr(v, 70))  # within 1e-70 of the true value
    slack = Fraction(1, 10**65)
    assert dec(d["delta_g"]["lower"]) <= ref - slack and ref + slack <= dec(d["delta_g"]["upper"])
    assert dec(d["delta_g"]["upper"]) - dec(d["delta_g"]["lower"]) <= Fraction(1, 10**29)


def test_delta_homogeneous_kov_sum(capsys):
    # Kairouz-Oh-Viswanath (MV Thm 1.4 in exp-space): sum_m C(k,m) (w^m - t w^(k-m))_+ / (1 + w)^k
    w, k, t = Fraction(3, 2), 10, Fraction(2)
    ref = sum(comb(k, m) * max(w**m - t * w ** (k - m), 0) for m in range(k + 1)) / (1 + w) ** k
    d = run_json(["delta", "--exp-eps", "3/2", "-k", str(k), "--exp-eps-g", "2"], capsys)
    assert Fraction(d["delta_g"]["exact"]) == ref
    d = run_json(["delta", "--exp-eps", "3/2", "-k", str(k), "--exp-eps-g", "2", "--engine", "certified"], capsys)
    assert dec(d["delta_g"]["lower"]) <= ref <= dec(d["delta_g"]["upper"])


def test_delta_heterogeneous_brute_force(capsys):
    # Theorem 1.5 by literal enumeration of the 2^4 subsets
    ws = [Fraction(11, 10), Fraction(6, 5), Fraction(3, 2), Fraction(2)]
    deltas = [Fraction(1, 100), Fraction(0), Fraction(1, 50), Fraction(1, 1000)]
    t = Fraction(7, 4)
    S = Fraction(0)
    for bits in product([0, 1], repeat=4):
        ws_in = prod((w for w, b in zip(ws, bits) if b), start=Fraction(1))
        ws_out = prod((w for w, b in zip(ws, bits) if not b), start=Fraction(1))
        S += max(ws_in - t * ws_out, 0)
    P = prod((1 - d for d in deltas), start=Fraction(1))
    ref = 1 - P * (1 - S / prod((1 + w for w in ws), start=Fraction(1)))
    d = run_json(["delta", "--exp-eps", ",".join(map(str, ws)), "--delta", ",".join(map(str, deltas)), "--exp-eps-g", str(t)], capsys)
    assert Fraction(d["delta_g"]["exact"]) == ref


@pytest.mark.parametrize(
    "w,delta,dg",
    [(Fraction(3), Fraction(0), Fraction(1, 4)), (Fraction(5, 2), Fraction(1, 10), Fraction(1, 5)),
     (Fraction(2), Fraction(0), Fraction(1, 2))],
)
def test_epsilon_k1_inverse_exact(w, delta, dg, capsys):
    # (w - t)_+ <= tau (1 + w), tau = 1 - (1 - dg)/(1 - delta): t* = max(1, w - tau (1 + w))
    tau = 1 - (1 - dg) / (1 - delta)
    t_star = max(Fraction(1), w - tau * (1 + w))
    d = run_json(["epsilon", "--exp-eps", str(w), "--delta", str(delta), "--delta-g", str(dg)], capsys)
    assert Fraction(d["eps_g"]["exp_exact"]) == t_star
    assert k1_delta(w, delta, t_star) <= dg  # achieves delta_g ...
    if t_star > 1:
        assert k1_delta(w, delta, t_star * (1 - Fraction(1, 10**9))) > dg  # ... and nothing smaller does


def test_epsilon_k1_inverse_transcendental(capsys):
    # eps = 1/2, delta = 0, delta_g = 1/10: eps_g = ln(e^0.5 - 0.1 (1 + e^0.5))
    d = run_json(["epsilon", "--eps", "0.5", "--delta-g", "0.1", "--digits", "30"], capsys)
    assert d["engine"] == "certified" and d["eps_g"]["exact"] is None
    with mpmath.workdps(80):
        w = mpmath.exp(mpmath.mpf(1) / 2)
        ref = Fraction(mpmath.nstr(mpmath.log(w - (w + 1) / 10), 70))
    slack = Fraction(1, 10**65)
    assert dec(d["eps_g"]["lower"]) <= ref - slack and ref + slack <= dec(d["eps_g"]["upper"])
    assert significant_digits(d["eps_g"]["lower"]) >= 30


def test_epsilon_float_engine_close(capsys):
    d = run_json(["epsilon", "--eps", "0.5", "--delta-g", "0.1", "--engine", "float"], capsys)
    assert d["guarantee"] == "approximate"
    w = mpmath.exp(mpmath.mpf(1) / 2)
    assert abs(float(dec(d["eps_g"]["lower"])) - float(mpmath.log(w - (w + 1) / 10))) < 1e-12


def test_epsilon_human_infinite(capsys):
    rc, out, err = run(["epsilon", "--eps", "1", "--delta", "0.1", "--delta-g", "0.05"], capsys)
    assert rc == 0 and "eps_g = inf" in out


def test_approx_k1_against_closed_form(capsys):
    # k = 1, eta = 0.01: eps0 = 0.01, eps = 0.503 rounds up to 0.51, so eps* = OptComp(0.51)
    # = ln(e^0.51 - 0.1 (1 + e^0.51)); the true OptComp(0.503) lies in the printed bounds.
    d = run_json(["approx", "--eps", "0.503", "--delta-g", "0.1", "--eta", "0.01"], capsys)
    with mpmath.workdps(60):
        def oc(eps):
            w = mpmath.exp(mpmath.mpf(eps))
            return Fraction(mpmath.nstr(mpmath.log(w - (w + 1) / 10), 50))
        star, true = oc("0.51"), oc("0.503")
    slack = Fraction(1, 10**40)
    assert dec(d["eps_star"]["lower"]) <= star + slack and star - slack <= dec(d["eps_star"]["upper"])
    assert dec(d["optcomp"]["lower"]) <= true <= dec(d["optcomp"]["upper"])
    assert true <= dec(d["eps_star"]["upper"]) <= true + Fraction(1, 100) + slack  # within eta


@pytest.mark.parametrize(
    "claim_delta,holds",
    [("2/9", True), ("0.2222", False), ("0.2223", True), ("0", False)],
)
def test_certify_against_two_ninths(claim_delta, holds, capsys):
    d = run_json(["certify", "--exp-eps", "2,2", "--claim-exp-eps", "2", "--claim-delta", claim_delta], capsys)
    assert d["holds"] is holds
    rc, out, err = run(["certify", "--exp-eps", "2,2", "--claim-exp-eps", "2", "--claim-delta", claim_delta, "--exit-code"], capsys)
    assert rc == (0 if holds else 1) and err == ""
    assert ("HOLDS" if holds else "FAILS") in out


def test_certify_eps_side_against_closed_form(capsys):
    # k = 1, eps = 0.5: OptComp(0.1) = ln(e^0.5 - 0.1 (1 + e^0.5)) = 0.3567...; claims on either side
    w = mpmath.exp(mpmath.mpf(1) / 2)
    true = float(mpmath.log(w - (w + 1) / 10))
    above, below = f"{true + 1e-9:.12f}", f"{true - 1e-9:.12f}"
    assert run_json(["certify", "--eps", "0.5", "--claim-eps", above, "--claim-delta", "0.1"], capsys)["holds"] is True
    assert run_json(["certify", "--eps", "0.5", "--claim-eps", below, "--claim-delta", "0.1"], capsys)["holds"] is False


def _int_partition_count(z):
    """#INT-PARTITION by brute force: subsets P with prod_P z_i = prod_notP z_i."""
    n = 0
    for bits in product([0, 1], repeat=len(z)):
        a = prod((x for x, b in zip(z, bits) if b), start=1)
        c = prod((x for x, b in zip(z, bits) if not b), start=1)
        n += a == c
    return n


@pytest.mark.parametrize("z", [[2, 3, 6, 1], [1, 1], [2, 2, 3, 3], [3, 1, 1, 2, 2, 1], [5, 7]])
def test_reduce_count_against_brute_force(z, capsys):
    d = run_json(["reduce", "--int-partition", ",".join(map(str, z)), "--no-brute-force"], capsys)
    assert d["count"] == _int_partition_count(z)


def test_reduce_refused_brute_force_names_estimate(capsys):
    rc, out, err = run(["reduce", "--int-partition", "2,3,6,1,2,3", "--brute-force-limit", "4"], capsys)
    assert rc == 0 and err == ""
    assert "brute force over 2^6" in out and "refused" in out


def test_proofs_runs_selected_entries(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    rc, out, err = run(["proofs", "--id", "Lemma 5.3"], capsys)
    assert rc == 0 and err == ""
    assert "all conclusive" in out


def test_help_exits_0(capsys):
    for cmd in ["delta", "epsilon", "approx", "certify", "reduce", "proofs"]:
        rc, out, err = run([cmd, "--help"], capsys)
        assert rc == 0 and out.startswith("usage: exactdp " + cmd) and err == ""


def test_log_sign_fast_path_with_base_near_one():
    from flint import arb, fmpq

    from exactdp._backend import workprec
    from exactdp.numbers import RatExp, log_sign_of_product

    d = 1 + Fraction(4504, 2**52)  # a double near 1 + 1e-12
    q = d - Fraction(49, 100 * 2**52)  # rounds up to d: float(q) - q = +0.49 ulp
    e = 20_000_000
    # t with log t = e log q + 5e-10 (to 55 digits): log(q^e / t) = -5e-10 < 0
    with mpmath.workdps(60):
        t = Fraction(mpmath.nstr(mpmath.exp(e * mpmath.log(mpmath.mpf(q.numerator) / q.denominator) + mpmath.mpf("5e-10")), 55))
    with workprec(400):
        v = e * arb(fmpq(q.numerator, q.denominator)).log() - arb(fmpq(t.numerator, t.denominator)).log()
        true_sign = 1 if v > 0 else -1 if v < 0 else None
    assert true_sign == -1
    assert log_sign_of_product([(RatExp.from_exp(q), e), (RatExp.from_exp(t), -1)]) == true_sign


# --------------------------------------------------------------------------
# property: the command agrees with the k = 1 closed form on random exact inputs

_ge1 = st.builds(lambda n, d: 1 + Fraction(n, d), st.integers(0, 50), st.integers(1, 20))
_unit = st.builds(lambda n, d: Fraction(n, n + d), st.integers(0, 20), st.integers(1, 20))


def _json_quiet(argv):
    out, err = StringIO(), StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        rc = main([str(a) for a in argv] + ["--json"])
    assert rc == 0 and err.getvalue() == ""
    return json.loads(out.getvalue())


@given(w=_ge1, delta=_unit, t=_ge1)
def test_delta_k1_closed_form_property(w, delta, t):
    d = _json_quiet(["delta", "--exp-eps", w, "--delta", delta, "--exp-eps-g", t])
    assert Fraction(d["delta_g"]["exact"]) == k1_delta(w, delta, t)


@given(w=_ge1, delta=_unit, dg=_unit)
def test_epsilon_k1_closed_form_property(w, delta, dg):
    d = _json_quiet(["epsilon", "--exp-eps", w, "--delta", delta, "--delta-g", dg])
    if dg < delta:  # below 1 - (1 - delta): no finite eps_g
        assert d["infinite"] is True
        return
    tau = 1 - (1 - dg) / (1 - delta)
    assert Fraction(d["eps_g"]["exp_exact"]) == max(Fraction(1), w - tau * (1 + w))


@pytest.mark.parametrize(
    "argv,fragment",
    [
        (["epsilon", "--eps", "0.25", "--delta\n 0,1", "--delta-g", "1e-3"], "--delta\\n 0,1"),
        (["epsilon", "--eps", "0.1\n2", "--delta-g", "1e-3"], "'0.1\\n2'"),
        (["delta", "--eps", "0.1", "--eps-g", "1\r\x1b[2J"], "--eps-g"),
    ],
)
def test_line_breaks_typed_into_a_value_stay_on_the_one_error_line(argv, fragment, capsys):
    # found by the fuzzer: argparse echoed a value holding a line break on two stderr lines
    rc, out, err = run(argv, capsys)
    _assert_one_line_error(rc, out, err, fragment)
    assert "\x1b" not in err and "\r" not in err


def test_keys_beyond_the_float_range_print_no_numpy_warning(tmp_path):
    # found by the fuzzer: eps = 1e308 overflowed meet in the middle's float keys, and numpy's
    # RuntimeWarnings reached stderr beside the answer
    p = subprocess.run(_script() + ["delta", "--eps", "0.1,0.1,1e308", "-k", "10", "--eps-g", "1"],
                       capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert p.returncode == 0 and p.stderr == "", p.stderr[-1000:]
    assert "delta_g in [0.99999999999999999999999999999" in p.stdout


@pytest.mark.parametrize("argv", [
    ["approx", "--exp-eps", "11/10", "-k", "300", "--delta-g", "1e-3", "--exp-base", "11/10"],
    ["certify", "--exp-eps", "11/10", "-k", "300", "--claim-eps", "1", "--claim-delta", "1e-3"],
])
def test_a_long_exact_ln_is_elided_in_the_text_output(argv, capsys):
    # found by the fuzzer: approx printed a 14-million-character ln(p/q); the JSON keeps the whole
    rc, out, err = run(argv, capsys)
    assert rc == 0 and not err
    assert max(len(line) for line in out.splitlines()) < 300, out
    rc, js, _ = run(["epsilon", "--exp-eps", "11/10", "-k", "300", "--delta-g", "1e-3", "--json"], capsys)
    whole = json.loads(js)["eps_g"]["exp_exact"]  # t* = e^OptComp from the engine, in full
    assert len(whole) > 300 and f"ln({whole[:50]}...({len(whole)} chars))" in out
