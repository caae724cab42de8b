"""Tests of ``proofs/smith_thakurta`` (Smith, Thakurta, "Fully Adaptive Composition for Gaussian
Differential Privacy"; issue 12).

* The default run of the paper settles every entry: no ``error``, each refutation carries a
  correction whose own check passes, and the statuses are the expected ones.
* Coverage: the numbered statements parsed from the paper text are exactly ``NUMBERED``; each
  has a module and an entry; no entry names a statement the paper lacks.
* Every refuted entry has an erratum in docs/errata.md.
* The checks can fail: deliberately false transcriptions (mutants of the helpers the checks
  use) are refuted.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest

from exactdp.cli import main
from exactdp_proofs._framework import STATUSES, Check, entries, run_entry
from exactdp_proofs._report import coverage, paper_numbered, paper_text_path
from exactdp_proofs.smith_thakurta import NUMBERED, parse_numbered

ROOT = Path(__file__).resolve().parents[2]
PAPER = "smith_thakurta"

EXPECTED = {
    "Theorem 1": "checked",
    "Theorem 1 (proof: the filter's budget arithmetic)": "checked",
    "Theorem 1 (proof: reduction to mu_0 = 1)": "verified",
    "Theorem 1 (proof: Sigma_T = I - m m^T is PSD)": "verified",
    "Theorem 1 (proof: warm-up covariance)": "verified",
    "Theorem 1 (proof: the canonical Cholesky factor is unique)": "checked",
    "Theorem 1 (proof: leading blocks L_i)": "checked",
    "Theorem 1 (proof: the online simulator outputs N(b m, I))": "checked",
    "Theorem 1 (proof: prefixes of norm 1)": "checked",
    "Theorem 1 (proof: fully adaptive simulation)": "checked",
    "Claim 2": "checked",
    "Claim 2 (proof: simulating M_i by F_i(H_i))": "verified",
    "Footnote 1": "refuted",
}


def _cli(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(argv)
    return rc, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def run():
    rc, out, _ = _cli(["proofs", "--paper", PAPER, "--json", "--report", "-"])
    return rc, json.loads(out)["results"]


# --------------------------------------------------------------------------
# the default run


def test_default_run_settles_every_entry(run):
    rc, results = run
    assert rc == 0
    for r in results:
        assert r["paper"] == PAPER
        assert r["status"] in STATUSES, (r["id"], r["evidence"])
        if r["status"] == "refuted":
            assert r["evidence"].startswith("Counterexample:"), r["id"]
            assert r["correction"] is not None and r["correction"]["status"] in ("verified", "checked"), r["id"]
        else:
            assert r["correction"] is None, r["id"]
        if r["status"] == "verified":
            assert any(c.startswith("symbolic:") for c in r["checks"]), r["id"]
        if r["status"] == "checked":
            assert re.match(r"N = \d+ instances", r["evidence"]), r["id"]
    assert {r["id"]: r["status"] for r in results} == EXPECTED


def test_footnote_1_counterexample_and_correction(run):
    _, results = run
    r = {x["id"]: x for x in results}["Footnote 1"]
    assert "m = (1/2)" in r["evidence"] and "9/16 != 3/4" in r["evidence"]
    assert "m = (1, 0)" in r["evidence"]
    assert "sqrt((1 - |m_i|_2^2)/(1 - |m_{i-1}|_2^2))" in r["correction"]["statement"]
    assert r["correction"]["status"] == "verified"


def test_runs_are_reproducible():
    es = {e[0]: e for e in entries(PAPER)}
    for id in ("Theorem 1 (proof: the canonical Cholesky factor is unique)", "Theorem 1 (proof: fully adaptive simulation)"):
        a = run_entry(PAPER, *es[id])
        b = run_entry(PAPER, *es[id])
        assert a.to_dict() == b.to_dict() and a.status == "checked"


# --------------------------------------------------------------------------
# coverage


def _module_name(stmt: str) -> str:
    kind, num = stmt.split()
    return f"{kind.lower()}_{num}"


def test_parse_numbered_matches_the_list():
    path = paper_text_path(PAPER)
    if path is None:
        pytest.skip("paper text not available (../shared/papers or $EXACTDP_PAPERS)")
    found = parse_numbered(path.read_text(encoding="utf-8"))
    assert found == NUMBERED
    assert paper_numbered(PAPER) == NUMBERED


def test_parse_numbered_finds_headings_footnotes_and_displays():
    text = ("Intro.\n\nTheorem 1.\n\nLet x.\nthe factor111Specifically, y.\n\nLemma 3.\n\nz = 1 (4)\n"
            "the year 2022 and 111 apples\nClaim 2.\n\nmore222Here\n")
    assert parse_numbered(text) == ["Theorem 1", "Footnote 1", "Lemma 3", "Equation (4)", "Claim 2", "Footnote 2"]


def test_every_numbered_statement_has_a_module_and_an_entry():
    ids = {e[0] for e in entries(PAPER)}
    for stmt in NUMBERED:
        assert (ROOT / "proofs" / PAPER / f"{_module_name(stmt)}.py").is_file(), stmt
        assert stmt in ids, stmt
    for id in ids:
        base = id.split(" (", 1)[0]
        assert base in NUMBERED, id
        assert id == base or re.fullmatch(re.escape(base) + r" \(proof: .+\)", id), id
    mods = {p.stem for p in (ROOT / "proofs" / PAPER).glob("*.py") if not p.stem.startswith("_")}
    assert mods == {_module_name(s) for s in NUMBERED}


def test_coverage_is_complete(run):
    _, results = run
    checks = [Check(PAPER, r["id"], r["statement"], r["status"], r["checks"], r["evidence"]) for r in results]
    cov = coverage(PAPER, checks)
    assert cov["numbered"] == len(NUMBERED) == 3
    assert cov["missing"] == [] and cov["with_checks"] == len(NUMBERED)
    assert cov["steps"] == len(EXPECTED) - len(NUMBERED)
    # a statement the text has but the package lacks would show up as missing
    cov2 = coverage(PAPER, checks, numbered=NUMBERED + ["Claim 3"])
    assert cov2["missing"] == ["Claim 3"]


def test_every_refuted_entry_has_an_erratum(run):
    _, results = run
    errata = (ROOT / "docs" / "errata.md").read_text(encoding="utf-8")
    for r in results:
        if r["status"] == "refuted":
            kind, num = r["id"].split(" (", 1)[0].split()
            assert re.search(rf"^## Smith-Thakurta {kind} {num}:", errata, re.M), r["id"]


# --------------------------------------------------------------------------
# the checks can fail: false transcriptions are refuted


def _printed_diag_batch(S):
    """Numpy mutant: Footnote 1's recursion as printed, for a batch of Sigma_i = I - m_i m_i^T:
    row i is l = L_{i-1}^{-1} Sigma[i, :i] (= -m_i L_{i-1}^{-1} m_{i-1}) and the diagonal entry is the printed
    ratio (1 - |m_i|^2)/(1 - |m_{i-1}|^2), without the square root (a prefix of norm 1 takes the corrected branch)."""
    N, n, _ = S.shape
    L = np.zeros_like(S)
    r = np.ones(N)                                   # 1 - |m_{i-1}|^2
    for i in range(n):
        r_new = r - (1.0 - S[:, i, i])               # 1 - |m_i|^2
        live = r > 1e-12
        for j in range(i):                           # forward solve L_{i-1} l = Sigma[i, :i]
            v = S[:, i, j] - np.sum(L[:, i, :j] * L[:, j, :j], axis=1)
            d = L[:, j, j]
            L[:, i, j] = np.where(live & (np.abs(d) > 1e-12), v / np.where(np.abs(d) > 1e-12, d, 1.0), 0.0)
        L[:, i, i] = np.where(live, np.maximum(r_new, 0.0) / np.where(live, r, 1.0), 1.0)
        r = np.maximum(r_new, 0.0)
    return L


def _mutants():
    from exactdp_proofs.smith_thakurta import _exact as X
    from exactdp_proofs.smith_thakurta import _finite as FN
    from exactdp_proofs.smith_thakurta import _gauss as GS
    from exactdp_proofs.smith_thakurta import _sim as SIM
    from exactdp_proofs.smith_thakurta import claim_2, footnote_1, theorem_1

    orig_ff, orig_G, orig_rr_parts, orig_forced = X.footnote_factor, GS.G, claim_2._rr_parts, X.chol_forced

    def printed_as_correction(m, diag="sqrt", degenerate=True):  # a "correction" that keeps the printed diagonal
        return orig_ff(m, diag="printed", degenerate=degenerate)

    def filter_double(spent2, mu2, mu0):  # budget sum mu_i^2 <= 2 mu_0^2
        return spent2 + mu2 <= 2 * mu0 * mu0

    def filter_plain_sum(spent2, mu2, mu0):  # a filter on squared budgets that forgets the running sum
        return mu2 <= mu0 * mu0

    def G_half(mu, alpha):  # G_{mu/2}: a stricter curve than mu-GDP
        return orig_G(GS.A(mu) / 2, alpha)

    def sigma_plus(m):  # I + m m^T
        T = len(m)
        return [[(1 if i == j else 0) + F(m[i]) * F(m[j]) for j in range(T)] for i in range(T)]

    def negative_diag(A, zero_cols):  # the negative square root on the diagonal
        L = orig_forced(A, zero_cols)
        if L is None:
            return None
        n = len(L)
        for j in range(n):
            for i in range(j, n):
                L[i][j] = -L[i][j]
        return L

    def rr_parts_wrong(w, mu):  # flip probability (1 - y - p)/(1 - y)
        p, y, _ = orig_rr_parts(w, mu)
        return p, y, GS.Ball(lambda: (1 - y() - GS.A(p)) / (1 - y()))

    def simulate_without_u(adv, T, b, mu0, N, rng, factor=None, use_u=True):  # answers m_i W_0 (the naive approach)
        return orig_simulate(adv, T, b, mu0, N, rng, factor, False)

    def simulate_printed(adv, T, b, mu0, N, rng, factor=None, use_u=True):
        return orig_simulate(adv, T, b, mu0, N, rng, _printed_diag_batch, use_u)

    orig_simulate = SIM.simulate
    return [
        ("Footnote 1", footnote_1, "footnote_factor", printed_as_correction, "correction"),
        ("Theorem 1", FN, "filter_accepts", filter_double, "refuted"),
        ("Theorem 1 (proof: the filter's budget arithmetic)", FN, "filter_accepts", filter_plain_sum, "refuted"),
        ("Claim 2", FN, "filter_accepts", filter_double, "refuted"),
        ("Theorem 1", GS, "G", G_half, "refuted"),
        ("Theorem 1 (proof: the online simulator outputs N(b m, I))", theorem_1, "sigma", sigma_plus, "refuted"),
        ("Theorem 1 (proof: the canonical Cholesky factor is unique)", X, "chol_forced", negative_diag, "refuted"),
        ("Claim 2 (proof: simulating M_i by F_i(H_i))", claim_2, "_rr_parts", rr_parts_wrong, "refuted"),
        ("Theorem 1 (proof: fully adaptive simulation)", SIM, "simulate", simulate_without_u, "refuted"),
        ("Theorem 1 (proof: fully adaptive simulation)", SIM, "simulate", simulate_printed, "refuted"),
    ]


@pytest.mark.parametrize("i", range(10))
def test_false_transcriptions_are_refuted(monkeypatch, i):
    id, module, attr, mutant, how = _mutants()[i]
    es = {e[0]: e for e in entries(PAPER)}
    assert run_entry(PAPER, *es[id]).settled
    monkeypatch.setattr(module, attr, mutant)
    bad = run_entry(PAPER, *es[id])
    assert bad.status == "refuted", (id, bad.status, bad.evidence)
    assert not bad.settled
    if how == "correction":  # the statement stays refuted; its correction's own check now fails
        assert bad.correction is not None and bad.correction.status == "refuted"


def test_simulator_sampling_detects_the_printed_factor_directly():
    """The statistical test has power against the printed footnote: a seeded run rejects it."""
    from exactdp_proofs.smith_thakurta import _sim as SIM

    name, T, adv = SIM.ADVERSARIES[0]
    rng = np.random.default_rng(7)
    W, mus = SIM.simulate(adv, T, 1, 1.0, 20_000, rng, factor=_printed_diag_batch)
    H, hmus = SIM.real(adv, T, 1, 1.0, 20_000, rng)
    fails = [t for t, s, thr in SIM.compare(W, mus, H, hmus, 1, 1e-6) if s > thr]
    assert fails


# --------------------------------------------------------------------------
# exact helpers: a few fixed values


def test_exact_helpers_fixed_values():
    from exactdp_proofs.smith_thakurta._exact import Surd, canonical, footnote_factor, sigma

    assert Surd.sqrt(F(8, 3)) == Surd({6: F(2, 3)})          # sqrt(8/3) = 2 sqrt(6)/3
    assert (Surd.sqrt(2) * Surd.sqrt(6)) == Surd.of(2) * Surd.sqrt(3)
    assert not (Surd.sqrt(2) + Surd.sqrt(3)).is_zero()
    L, cnt = canonical(sigma([F(3, 5), F(4, 5)]))             # rank 1: one zero column
    assert cnt == 1 and L[0][0] == Surd.of(F(4, 5)) and L[1][0] == Surd.of(F(-3, 5)) and L[1][1].is_zero()
    assert footnote_factor([F(1, 2)], diag="printed")[0][0] == Surd.of(F(3, 4))
    assert footnote_factor([F(1, 2)])[0][0] == Surd.sqrt(F(3, 4))


def test_certified_gaussian_fixed_values():
    from exactdp_proofs.smith_thakurta._gauss import A, G, Phi, delta_gdp, prec

    with prec(128):
        # G_mu(1/2) = Phi(-mu) = 0.158655...; G_0(alpha) = 1 - alpha; delta_mu(0) = 2 Phi(mu/2) - 1 = 0.382924...
        assert (G(1, F(1, 2)) - Phi(-1)).contains(0) and abs(float(G(1, F(1, 2)).mid()) - 0.15865525393145705) < 1e-15
        assert G(0, F(1, 3)).overlaps(A(F(2, 3))) and not G(0, F(1, 3)).overlaps(A(F(1, 3)))
        assert (delta_gdp(1, 0) - (2 * Phi(F(1, 2)) - 1)).contains(0)
        assert abs(float(delta_gdp(1, 0).mid()) - 0.38292492254802624) < 1e-15


@pytest.mark.slow
def test_full_mode_settles_cheap_entries():
    """``--full`` on the entries that stay cheap (a few seconds); `exactdp proofs --paper smith_thakurta --full`
    runs all of them (about 75 s)."""
    for id, text, fn in entries(PAPER):
        if id.startswith("Claim 2") or "Sigma_T" in id or "norm 1" in id:
            c = run_entry(PAPER, id, text, fn, full=True)
            assert c.settled and c.status == EXPECTED[id], (id, c.status, c.evidence)
