"""Mutation testing of the proof checks (issue 27): ``proofs/_mutants.py`` and ``exactdp proofs --mutants``.

* The machinery: a mutant is a one-place textual edit of a check's function, compiled in the
  function's module; an edit that does not match exactly once is refused; a mutated function that
  the entry never calls is reported ``unreached``; the cross-checks are off (the library is not
  called) while a mutant runs.
* The registry: every theorem, lemma, corollary, fact, claim and proposition of every paper has at
  least one mutant; each mutant's edit matches its function (compiles).
* A bounded sample (CI): issue 27's four surviving mutants, now killed, and a fixed cheap sample per
  paper. ``make proofs-mutants`` (``EXACTDP_SLOW=full`` here) runs all of them.
* The report's mutation section lists exactly the registered mutants.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
from pathlib import Path

import pytest

from exactdp.cli import main
from exactdp_proofs import _framework as fw
from exactdp_proofs import _mutants as MU
from exactdp_proofs._papers import PAPERS

ROOT = Path(__file__).resolve().parents[2]
KINDS_WITH_MUTANTS = ("Theorem", "Lemma", "Corollary", "Fact", "Claim", "Proposition")


def _cli(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(argv)
    return rc, out.getvalue(), err.getvalue()


def _all():
    return [m for paper in PAPERS for m in MU.mutants(paper)]


# --------------------------------------------------------------------------
# the machinery


def test_mutated_function_edits_once_and_keeps_the_original():
    mod = importlib.import_module("exactdp_proofs.vadhan_wang.theorem_1_4")
    from fractions import Fraction as F

    new = MU.mutated_function(mod, "printed_homogeneous", "* d", "* d * 2")
    assert new(F(2), F(1, 10), 2) == 2 * mod.printed_homogeneous(F(2), F(1, 10), 2)
    with pytest.raises(ValueError, match="occurs 0 times"):
        MU.mutated_function(mod, "printed_homogeneous", "no such text", "x")
    with pytest.raises(ValueError, match="occurs 3 times"):
        MU.mutated_function(mod, "printed_delta_g", "(ws", "(xs")


def test_mutant_declaration_is_validated():
    with pytest.raises(ValueError, match="kind"):
        MU.mutant("vadhan_wang", "Theorem 1.4", "typo", "x", "theorem_1_4", "printed_homogeneous", "a", "b")
    with pytest.raises(ValueError, match="part"):
        MU.mutant("vadhan_wang", "Theorem 1.4", "constant", "x", "theorem_1_4", "printed_homogeneous", "a", "b",
                  part="proof")
    with pytest.raises(ValueError, match="change"):
        MU.mutant("vadhan_wang", "Theorem 1.4", "constant", "x", "theorem_1_4", "printed_homogeneous", "a", "a")


def test_crosscheck_off_does_not_call_the_library():
    calls = []

    def fn(p):
        r = p.library("engine", lambda: calls.append(1) or 3)
        p.agree(r, 3, "engine", "x")
        p.instances("independent", 1)

    on = fw.run_entry("synthetic", "Lemma 9.9", "s", fn)
    off = fw.run_entry("synthetic", "Lemma 9.9", "s", fn, crosscheck=False)
    assert calls == [1] and on.settled and off.settled and not off.issues


def test_unreached_and_survived_outcomes():
    # an edit of a function the entry does not call
    m = MU.mutant("vadhan_wang", "Lemma 3", "constant", "a function Lemma 3 never calls", "theorem_1_4",
                  "printed_homogeneous", "* d", "* d * 2")
    assert MU.run_mutant(m).outcome == "unreached"
    # an edit that keeps the statement true survives, and a declared-true edit is reported as such
    m = MU.mutant("vadhan_wang", "Theorem 1.4", "constant", "the bound doubled (true)", "theorem_1_4",
                  "printed_homogeneous", "return (w ** k - 1) / (w - 1) * d", "return 2 * (w ** k - 1) / (w - 1) * d")
    r = MU.run_mutant(m)
    assert r.outcome == "survived" and r.check.status == "checked"
    t = MU.mutant("vadhan_wang", "Theorem 1.4", "constant", "the bound doubled", "theorem_1_4", "printed_homogeneous",
                  "return (w ** k - 1) / (w - 1) * d", "return 2 * (w ** k - 1) / (w - 1) * d",
                  true="a larger delta is a weaker claim")
    assert MU.run_mutant(t).outcome == "true"
    assert MU.score([r, MU.run_mutant(t)], "vadhan_wang") == (0, 1)


def test_the_original_function_is_restored():
    mod = importlib.import_module("exactdp_proofs.vadhan_wang.theorem_1_4")
    before = mod.printed_delta_g
    MU.run_mutant(next(m for m in MU.mutants("vadhan_wang") if m.function == "printed_delta_g"))
    assert mod.printed_delta_g is before


# --------------------------------------------------------------------------
# the registry


@pytest.mark.parametrize("paper", list(PAPERS))
def test_every_theorem_lemma_corollary_has_a_mutant(paper):
    numbered = importlib.import_module(f"exactdp_proofs.{paper}").NUMBERED
    have = {fw.base_id(m.entry) for m in MU.mutants(paper) if not m.true}
    unmutated = getattr(importlib.import_module(f"exactdp_proofs.{paper}._mutants"), "UNMUTATED", {})
    assert all(len(why) > 20 for why in unmutated.values())
    want = [s for s in numbered if s.split()[0] in KINDS_WITH_MUTANTS]
    missing = [s for s in want if s not in have and s not in unmutated]
    assert not missing, f"{paper}: no mutant for {missing}"


def test_every_mutant_compiles_and_names_an_entry():
    ids = {paper: {e[0] for e in fw.entries(paper)} for paper in PAPERS}
    keys = set()
    for m in _all():
        assert m.entry in ids[m.paper], m
        assert m.key not in keys, m.key
        keys.add(m.key)
        mod = importlib.import_module(f"exactdp_proofs.{m.paper}.{m.module}")
        MU.mutated_function(mod, m.function, m.old, m.new)


def test_report_mutation_section_lists_the_registry():
    md = (ROOT / "docs" / "proofs-report.md").read_text(encoding="utf-8")
    head, section = MU.split_report(md)
    assert section.startswith(MU.MARKER), "regenerate with `make proofs-mutants`"
    for m in _all():
        name = m.name + (f" (true: {m.true})" if m.true else "")
        assert MU._md(name) in section, f"{m.key}: regenerate the mutation section with `make proofs-mutants`"
    rows = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| Entry")]
    assert len(rows) == len(_all())
    assert "| survived |" not in section and "| error |" not in section and "| unreached |" not in section


# --------------------------------------------------------------------------
# a bounded sample (CI); the whole set with EXACTDP_SLOW=full or `make proofs-mutants`

#: issue 27's four surviving mutants, now killed by the check alone
NAMED = [
    ("kairouz_oh_viswanath", "Theorem 3.5", "the 2 under the first root dropped"),
    ("kairouz_oh_viswanath", "Theorem 3.5", "the 2 under the second root dropped"),
    ("kairouz_oh_viswanath", "Theorem 4.3", "the printed variance constant 8 -> 16 (still false, from eps ~ 190)"),
    ("vadhan_wang", "Theorem 1.4", "the general delta_g x 3/4"),
    ("vadhan_wang", "Theorem 1.4", "the homogeneous delta x 3/4"),
    ("smith_thakurta", "Theorem 1", "the filter 10 % too lenient (sum mu_i^2 <= 1.1 mu_0^2)"),
]


def _find(paper, entry, name):
    return next(m for m in MU.mutants(paper) if m.entry == entry and m.name == name)


@pytest.mark.parametrize("paper, entry, name", NAMED)
def test_issue_27_surviving_mutants_are_killed(paper, entry, name):
    r = MU.run_mutant(_find(paper, entry, name))
    assert r.outcome == "killed", (r.outcome, r.detail)


def _sample():
    """Every third mutant of each paper (a fixed, cheap-enough sample), or all with EXACTDP_SLOW=full."""
    whole = os.environ.get("EXACTDP_SLOW", "").lower() == "full"
    out = []
    for paper in PAPERS:
        ms = MU.mutants(paper)
        out += ms if whole else ms[::3]
    return out


@pytest.mark.slow
@pytest.mark.parametrize("m", _sample(), ids=lambda m: f"{m.paper}:{m.key}")
def test_mutants_are_killed(m):
    r = MU.run_mutant(m)
    assert r.outcome == ("true" if m.true else "killed"), (r.outcome, r.detail)


def test_cli_mutants_json_and_exit_status(tmp_path):
    report = tmp_path / "r.md"
    report.write_text("# head\n\ntext\n", encoding="utf-8")
    rc, out, _ = _cli(["proofs", "--mutants", "--paper", "vadhan_wang", "--id", "Theorem 1.4", "--json",
                       "--report", str(report)])
    data = json.loads(out)
    assert rc == 0 and list(data) == ["mutants"] and data["mutants"]
    assert all(r["outcome"] in ("killed", "true") for r in data["mutants"])
    head, section = MU.split_report(report.read_text(encoding="utf-8"))
    assert head == "# head\n\ntext\n" and section.startswith(MU.MARKER)
    rc, _, err = _cli(["proofs", "--mutants", "--id", "no such entry"])
    assert rc == 2 and "--id" in err
