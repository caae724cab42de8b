"""Tests of ``proofs/`` and ``exactdp proofs`` (issue 5).

* The default run (what CI runs) settles every entry: exit status 0, each entry
  verified / checked / refuted with a passing correction / not-checkable.
* Coverage: every numbered statement of the Murtagh-Vadhan text (parsed here from
  the paper) has a module and an entry; no entry names a statement the paper lacks.
* The CLI's JSON shape, its one-line exit-2 error, and its exit status on
  unsettled results.
* Every refuted entry has an erratum in docs/errata.md; the committed
  docs/proofs-report.md is the current default report.
* The framework's status rules on small synthetic entries.
* The checks can fail: deliberately false transcriptions (mutants of the helpers
  the checks use) are refuted.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import re
from fractions import Fraction as F
from pathlib import Path

import pytest

from exactdp.cli import main
from exactdp_proofs import _framework as fw
from exactdp_proofs._framework import STATUSES, Check, Correction, entries, run_entry
from exactdp_proofs._papers import PAPERS
from exactdp_proofs._report import coverage, paper_numbered, paper_text_path
from exactdp_proofs.murtagh_vadhan import NUMBERED

ROOT = Path(__file__).resolve().parents[2]
PAPER = "murtagh_vadhan"
KEYS = ["paper", "id", "statement", "status", "checks", "evidence", "correction", "implemented_by"]


def _cli(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(argv)
    return rc, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def default_run(tmp_path_factory):
    """One default run through the CLI: (exit status, parsed JSON, markdown report)."""
    report = tmp_path_factory.mktemp("proofs") / "proofs-report.md"
    rc, out, _ = _cli(["proofs", "--json", "--report", str(report)])
    return rc, json.loads(out), report.read_text(encoding="utf-8")


# --------------------------------------------------------------------------
# the default run


def test_default_run_settles_every_entry(default_run):
    rc, data, _ = default_run
    results = data["results"]
    assert rc == 0
    assert len(results) >= len(NUMBERED)
    for r in results:
        assert r["status"] in STATUSES, r["id"]
        if r["status"] == "refuted":
            assert r["correction"] is not None, r["id"]
            assert r["correction"]["status"] in ("verified", "checked"), r["id"]
            assert r["evidence"].startswith("Counterexample:"), r["id"]
        else:
            assert r["correction"] is None, r["id"]
        if r["status"] == "verified":
            assert any(c.startswith("symbolic:") for c in r["checks"]), r["id"]
        if r["status"] == "checked":
            m = re.match(r"N = (\d+) instances", r["evidence"])
            assert m and int(m.group(1)) > 0, r["id"]
            assert all(re.search(r"\[\d+ instances\]$", c) for c in r["checks"] if not c.startswith("symbolic:")), r["id"]
        if r["status"] == "not-checkable":
            why = r["evidence"].split("\n")[0]
            assert why.startswith("Not checkable: ") and len(why) > len("Not checkable: ") + 20, r["id"]


def test_json_shape(default_run):
    _, data, _ = default_run
    assert list(data) == ["results"]
    for r in data["results"]:
        assert list(r) == KEYS
        assert r["paper"] in PAPERS
        assert all(isinstance(r[k], str) for k in ("paper", "id", "statement", "status", "evidence"))
        assert isinstance(r["checks"], list) and all(isinstance(c, str) for c in r["checks"])
        assert r["statement"].strip()
        assert r["checks"] or r["status"] == "not-checkable", r["id"]
        if r["correction"] is not None:
            assert list(r["correction"]) == ["statement", "status", "checks", "evidence"]
            assert r["correction"]["checks"]
    ids = [(r["paper"], r["id"]) for r in data["results"]]
    assert len(ids) == len(set(ids))


def test_report_coverage_line_and_rows(default_run):
    _, data, md = default_run
    for paper in PAPERS:
        n = len(_numbered(paper))
        assert re.search(rf"Coverage: {n} numbered statements in the paper; {n} have checks", md), paper
    assert md.count("Coverage: ") == len(PAPERS)
    assert "Missing:" not in md
    for r in data["results"]:
        assert f"#### {r['id']}" in md


def test_committed_report_is_current(default_run):
    """docs/proofs-report.md is exactly what the default run writes (regenerate: `.venv/bin/exactdp proofs`)."""
    _, _, md = default_run
    from exactdp_proofs._mutants import split_report

    # the report's mutation section (after its marker) is written by `make proofs-mutants`: tests/proofs/test_mutants.py
    committed = split_report((ROOT / "docs" / "proofs-report.md").read_text(encoding="utf-8"))[0]
    assert committed == md, "docs/proofs-report.md is stale: regenerate it with `exactdp proofs` from the repo root"


# --------------------------------------------------------------------------
# coverage of the paper's numbered statements

def _module_name(stmt: str) -> str:
    """``Lemma 4.10`` -> ``lemma_4_10``; ``Definition 7`` -> ``definition_7``; ``Equation (3)`` -> ``equation_3``."""
    kind, num = stmt.split(None, 1)
    return f"{kind.lower()}_{num.strip('()').replace('.', '_')}"


def _numbered(paper):
    return list(importlib.import_module(f"exactdp_proofs.{paper}").NUMBERED)


@pytest.mark.parametrize("paper", list(PAPERS))
def test_every_listed_statement_has_a_module_and_an_entry(paper):
    numbered = _numbered(paper)
    ids = {e[0] for e in entries(paper)}
    for stmt in numbered:
        assert (ROOT / "proofs" / paper / f"{_module_name(stmt)}.py").is_file(), stmt
        assert stmt in ids, stmt
    # every entry belongs to a listed statement (steps are "<statement> (proof: ...)")
    for id in ids:
        base = fw.base_id(id)
        assert base in numbered, id
        assert id == base or re.fullmatch(re.escape(base) + r" \(proof: .+\)", id), id
    # every check module is named after a listed statement
    mods = {p.stem for p in (ROOT / "proofs" / paper).glob("*.py") if not p.stem.startswith("_")}
    assert mods == {_module_name(s) for s in numbered}


@pytest.mark.parametrize("paper", list(PAPERS))
def test_paper_numbered_statements_are_all_covered(paper):
    path = paper_text_path(paper)
    if path is None:
        pytest.skip("paper text not available (../shared/papers or $EXACTDP_PAPERS)")
    found = paper_numbered(paper)  # parsed from the paper's text (its parse_numbered, or the headings)
    assert len(found) >= 2  # the parse works (28 in Murtagh-Vadhan)
    assert set(found) == set(_numbered(paper))
    cov = coverage(paper, [Check(paper, s, "", "checked", [], "") for s in _numbered(paper)], numbered=found)
    assert cov["missing"] == [] and cov["with_checks"] == len(found)


# --------------------------------------------------------------------------
# CLI behaviour


def test_bad_paper_exits_2_with_one_line():
    rc, out, err = _cli(["proofs", "--paper", "no_such_paper", "--report", "-"])
    assert rc == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "paper" in lines[0] and "no_such_paper" in lines[0] and "murtagh_vadhan" in lines[0]


def test_id_filter_and_table(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no docs/ here: nothing is written
    rc, out, _ = _cli(["proofs", "--paper", "murtagh-vadhan", "--id", "Lemma 5.3 (proof"])
    assert rc == 0
    assert "3 entries" in out and "all conclusive" in out
    rows = [line for line in out.splitlines() if line.startswith("Lemma 5.3 (proof")]
    assert len(rows) == 3 and all(re.search(r"\sverified\s", line) for line in rows)
    assert not any(tmp_path.iterdir())


def _fake_check(status, correction=None, issues=()):
    return Check(PAPER, f"Lemma 9.{status}", "synthetic", status, ["x"], "", correction, 1, 0.0, list(issues))


@pytest.mark.parametrize(
    "checks, code",
    [
        ([_fake_check("checked"), _fake_check("verified"), _fake_check("not-checkable")], 0),
        ([_fake_check("refuted", Correction("fixed", "checked", ["y"], "", 3))], 0),
        ([_fake_check("checked"), _fake_check("refuted")], 1),
        ([_fake_check("refuted", Correction("fixed", "refuted", ["y"], "", 0))], 1),
        ([_fake_check("error")], 1),
        ([_fake_check("checked", issues=["engine disagrees"])], 1),
    ],
)
def test_cli_exit_status_follows_settledness(monkeypatch, checks, code):
    # the command runs entry by entry (a line per settled entry): every paper yields these checks
    monkeypatch.setattr(fw, "entries", lambda paper: [(f"E{i}", "text", None) for i in range(len(checks))])
    monkeypatch.setattr(fw, "run_entry", lambda paper, id, text, fn, full=False: checks[int(id[1:])])
    rc, out, _ = _cli(["proofs", "--report", "-"])
    assert rc == code
    assert ("all conclusive" in out) == (code == 0)


# --------------------------------------------------------------------------
# errata


def test_every_refuted_entry_has_an_erratum(default_run):
    _, data, _ = default_run
    errata = (ROOT / "docs" / "errata.md").read_text(encoding="utf-8")
    refuted = [r for r in data["results"] if r["status"] == "refuted"]
    assert refuted  # the paper has errata
    for r in refuted:
        assert r["id"] in errata, r["id"]
        kind, num = fw.base_id(r["id"]).split(None, 1)
        # a section heading names the statement (e.g. "## Vadhan-Zhang Lemma 2.4: ..."), or, for a
        # numbered display, the erratum that holds it mentions it in a heading or in its text
        heading = re.search(r"^##+ .*" + re.escape(kind) + r"s? .*" + re.escape(num), errata, re.M)
        assert heading or (kind == "Equation" and f"Equation {num}" in errata), r["id"]


# --------------------------------------------------------------------------
# the framework's status rules on synthetic entries


def _run(fn):
    return run_entry("synthetic", "Lemma 9.9", "synthetic statement", fn)


def test_status_verified_checked_not_checkable():
    c = _run(lambda p: p.verified("an identity", True))
    assert c.status == "verified" and c.settled
    c = _run(lambda p: p.instances("things", 7))
    assert c.status == "checked" and c.instances == 7 and c.settled and "N = 7 instances" in c.evidence

    def nc(p):
        p.not_checkable("quantifies over all machines")
        p.instances("illustration", 2)

    c = _run(nc)
    assert c.status == "not-checkable" and c.settled and "quantifies over all machines" in c.evidence


def test_refutation_without_correction_is_not_settled():
    def fn(p):
        p.instances("fine ones", 3)
        p.require(1 + 1 == 3, "arithmetic", "1 + 1 = 2")

    c = _run(fn)
    assert c.status == "refuted" and c.correction is None and not c.settled
    assert "1 + 1 = 2" in c.evidence


def test_refutation_with_failing_or_crashing_correction_is_not_settled():
    def failing(p):
        p.refute("claim", "x = 0")
        p.correct("weaker claim", lambda q: q.require(False, "weaker claim", "x = 1"))

    c = _run(failing)
    assert c.status == "refuted" and c.correction.status == "refuted" and not c.settled

    def crashing(p):
        p.refute("claim", "x = 0")
        p.correct("weaker claim", lambda q: 1 / 0)

    c = _run(crashing)
    assert c.correction.status == "error" and "ZeroDivisionError" in c.correction.evidence and not c.settled

    def empty(p):  # a correction that checks nothing does not count
        p.refute("claim", "x = 0")
        p.correct("weaker claim", lambda q: None)

    c = _run(empty)
    assert c.correction.status == "error" and not c.settled


def test_refutation_with_passing_correction_is_settled():
    def fn(p):
        p.refute("claim", "x = 0")
        p.correct("weaker claim", lambda q: q.instances("weaker claim holds", 5))

    c = _run(fn)
    assert c.status == "refuted" and c.correction.status == "checked" and c.settled
    assert c.to_dict()["correction"]["statement"] == "weaker claim"


def test_a_check_that_raises_is_an_error():
    def fn(p):
        p.instances("some", 2)
        raise KeyError("boom")

    c = _run(fn)
    assert c.status == "error" and not c.settled and "KeyError" in c.evidence
    c = _run(lambda p: None)  # records nothing: not a pass
    assert c.status == "error" and not c.settled


def test_a_failed_symbolic_proof_refutes():
    c = _run(lambda p: p.verified("x = x + 1", False))
    assert c.status == "refuted" and not c.settled


def test_library_disagreement_is_an_issue_not_an_erratum():
    def fn(p):
        p.instances("independent", 1)
        p.agree(F(1, 3), F(1, 2), "engine", "instance A")
        p.agree(p.library("engine", lambda: 1 / 0), F(1), "engine", "instance B")

    c = _run(fn)
    assert c.status == "checked" and not c.settled
    assert len(c.issues) == 2 and "not errata; the library or the transcription is wrong" in c.evidence
    assert "undecided: no third computation" in c.evidence


def test_a_third_computation_decides_a_disagreement():
    def fn(p):
        p.instances("independent", 1)
        p.agree(F(1, 3), F(1, 2), "engine", "A", third=lambda: F(1, 2))   # the library is wrong
        p.agree(F(1, 3), F(1, 2), "engine", "B", third=lambda: F(1, 3))   # the transcription is wrong
        p.agree(F(1, 3), F(1, 2), "engine", "C", third=lambda: F(1))      # neither

    c = _run(fn)
    assert not c.settled and len(c.issues) == 3
    assert "agrees with the transcription: the library is wrong" in c.issues[0]
    assert "agrees with the library: the transcription, i.e. the check, is wrong" in c.issues[1]
    assert "neither agrees" in c.issues[2]


def test_runs_are_reproducible():
    es = {e[0]: e for e in entries(PAPER)}
    a = run_entry(PAPER, *es["Lemma 5.1"])
    b = run_entry(PAPER, *es["Lemma 5.1"])
    assert a.to_dict() == b.to_dict() and a.status == "checked"


# --------------------------------------------------------------------------
# the checks can fail: false transcriptions are refuted


def _mutants():
    """(entry id, module, attribute, false version): each false version is a plausible mis-transcription."""
    from exactdp_proofs.murtagh_vadhan import _common as C
    from exactdp_proofs.murtagh_vadhan import _partition as R
    from exactdp_proofs.murtagh_vadhan import lemma_5_1, theorem_1_4
    from exactdp_proofs.murtagh_vadhan._approx import knapsack_sum

    rr, lemma410_T = C.rr, R.lemma410_T

    def stray_k_delta_formula(ws, deltas, t):  # Theorem 1.5 with the proof's stray exponent k in prod(1 - delta_i)
        k = len(ws)
        P = C.prod((1 - d) ** k for d in deltas)
        return 1 - P + P * C.S_brute(ws, t) / C.prod(1 + w for w in ws)

    def strict_knapsack(a, B, w):  # Lemma 5.1 with "sum_S a_i < B" in place of "<= B"
        return (knapsack_sum(a, B - 1, w)[0] if B > 0 else 0), (len(a) + 1) * (B + 1)

    def rr_unmirrored(w, delta):  # Definition 3.1 with the b = 1 row not mirrored
        p0, _ = rr(w, delta)
        return p0, p0

    def T_plus_one(D, ns):  # Lemma 4.10 with T off by one
        return lemma410_T(D, ns) + R.Rad.rational(1)

    def D_minus_one(zs, c):  # Theorem 1.6's instances with D one too small
        return max(1, R.least_power_at_least(min(F(c), F(2)), R.prod_int(zs)) - 1)

    def printed_as_correction(k, w, d, dg):  # a "correction" of Theorem 1.4 that repeats the printed value
        pt = theorem_1_4.printed_t(k, w, d, dg)
        return None if pt is None else pt[0]

    return [
        ("Theorem 1.5", C, "delta_formula", stray_k_delta_formula),
        ("Lemma 5.1", lemma_5_1, "knapsack_sum", strict_knapsack),
        ("Definition 3.1", C, "rr", rr_unmirrored),
        ("Lemma 4.10", R, "lemma410_T", T_plus_one),
        ("Theorem 1.6 (proof: delta_g * prod(1 + e^eps_i) = #SUM-PARTITION)", R, "lemma49_corrected_D", D_minus_one),
        ("Theorem 1.4", theorem_1_4, "corrected_t", printed_as_correction),
    ]


@pytest.mark.parametrize("i", range(6))
def test_false_transcriptions_are_refuted(monkeypatch, i):
    id, module, attr, mutant = _mutants()[i]
    es = {e[0]: e for e in entries(PAPER)}
    assert run_entry(PAPER, *es[id]).settled
    monkeypatch.setattr(module, attr, mutant)
    bad = run_entry(PAPER, *es[id])
    assert bad.status == "refuted", (id, bad.status, bad.evidence)
    assert not bad.settled
    if id == "Theorem 1.4":  # the statement stays refuted; its correction's own check now fails
        assert bad.correction.status == "refuted"


# --------------------------------------------------------------------------
# --full (slow): bounded in CI, the whole of it with EXACTDP_SLOW=full


@pytest.mark.slow
def test_full_mode_settles_entries(default_run):
    """``--full`` on the definitions and Lemmas 5.x (bounded, ~5 s); EXACTDP_SLOW=full runs every entry.

    Note: with EXACTDP_SLOW=full this currently fails on Theorem 1.3 (k = 100, eps = 2) through the core bug
    pinned by test_core_certified_delta_with_huge_computable_t (a library issue, not an erratum).
    """
    whole = os.environ.get("EXACTDP_SLOW", "").lower() == "full"
    quick = {(r["paper"], r["id"]): r for r in default_run[1]["results"]}
    for paper in PAPERS:
        for id, text, fn in entries(paper):
            if not whole and not (paper == PAPER and (id.startswith("Definition") or id.startswith("Lemma 5"))):
                continue
            c = run_entry(paper, id, text, fn, full=True)
            assert c.settled, (id, c.status, c.evidence)
            assert c.status == quick[(paper, id)]["status"], id
            m = re.match(r"N = (\d+) instances", quick[(paper, id)]["evidence"])
            if c.status == "checked":
                assert c.instances >= int(m.group(1)), id


# --------------------------------------------------------------------------
# a core bug found by `exactdp proofs --full` (Theorem 1.3 at k = 100, eps = 2), fixed:
# Computable.flog() overflowed for values > 1.8e308


def test_core_certified_delta_with_huge_computable_t():
    from flint import arb

    from exactdp import Computable, Mechanism, composed_delta

    # e^{eps_g} = e^720 > max float; the true delta_g is 0 (eps_g >= eps_1 = 2, delta = 0)
    r = composed_delta([Mechanism(eps=2)], exp_eps_g=Computable(lambda prec: arb(720).exp(), "e^720"),
                       engine="certified", digits=12)
    assert r.lower == 0 == r.upper
