"""Tests of ``proofs/vadhan_zhang/`` (Vadhan-Zhang, STOC 2023; issue 12).

* The default run of the paper settles every entry (no ``error``; every refutation carries a
  correction whose own check passes; evidence in the report's format).
* Coverage: the numbered statements, displays and footnotes parsed from the paper text are exactly
  ``NUMBERED``; each has a module named after it and an entry; no entry names a statement the paper
  lacks; the report's coverage has nothing missing.
* Every refuted entry appears in docs/errata.md under a Vadhan-Zhang heading.
* The checks can fail: deliberately false transcriptions (mutants of the helpers the checks use)
  are refuted, and a false correction makes a correction's own check fail.
"""

from __future__ import annotations

import re
from fractions import Fraction as F
from pathlib import Path

import pytest

from exactdp_proofs._framework import STATUSES, entries, run_entry, run_paper
from exactdp_proofs._report import coverage, paper_text_path
from exactdp_proofs.vadhan_zhang import NUMBERED, parse_numbered

ROOT = Path(__file__).resolve().parents[2]
PAPER = "vadhan_zhang"


@pytest.fixture(scope="module")
def results():
    return run_paper(PAPER)


def _module_name(stmt: str) -> str:
    kind, num = stmt.split(" ", 1)
    return f"{kind.lower()}_{num.strip('()').replace('.', '_')}"


def _base(id: str) -> str:
    return id.split(" (proof: ", 1)[0]


# --------------------------------------------------------------------------
# the default run


def test_default_run_settles_every_entry(results):
    assert len(results) >= len(NUMBERED)
    for c in results:
        assert c.status in STATUSES, (c.id, c.status, c.evidence[:500])
        assert c.settled, (c.id, c.status, c.issues)
        if c.status == "refuted":
            assert c.correction is not None and c.correction.status in ("verified", "checked"), c.id
            assert c.evidence.startswith("Counterexample:"), c.id
        else:
            assert c.correction is None, c.id
        if c.status == "checked":
            assert re.match(r"N = \d+ instances", c.evidence), c.id
            assert all(re.search(r"\[\d+ instances\]$", x) for x in c.checks if not x.startswith("symbolic:")), c.id
        if c.status == "verified":
            assert any(x.startswith("symbolic:") for x in c.checks), c.id
    ids = [c.id for c in results]
    assert len(ids) == len(set(ids))


def test_expected_statuses(results):
    st = {c.id: c.status for c in results}
    refuted = {i for i, s in st.items() if s == "refuted"}
    assert refuted == {"Lemma 2.4", "Equation (4)", "Lemma 2.4 (proof: h is non-increasing and continuous)",
                       "Lemma 2.4 (proof: h(alpha) <= 1 - alpha)"}
    assert not [i for i, s in st.items() if s == "not-checkable"]


# --------------------------------------------------------------------------
# coverage


def test_numbered_statements_parsed_from_the_text():
    path = paper_text_path(PAPER)
    if path is None:
        pytest.skip("paper text not available (../shared/papers or $EXACTDP_PAPERS)")
    found = parse_numbered(path.read_text(encoding="utf-8"))
    assert len(found) >= 60
    assert len(found) == len(set(found))
    assert set(found) == set(NUMBERED)
    # statements are found where stated, not where cited ("Lemma 1.7 says", "Theorem 4.1 shows")
    assert found.count("Lemma 1.7") == 1 and "Theorem 4.1" in found
    # the displays whose tags were lost in the conversion are found from the sentences citing them
    assert "Equation (6)" in found and "Equation (19)" in found
    cov = coverage(PAPER, [], numbered=found)
    assert cov["numbered"] == len(NUMBERED)


def test_parse_does_not_take_citations_for_statements():
    text = ("Definition 1.1 considers only...\nLemma 1.7 says that ...\nTheorem 4.1 shows that\n"
            "Lemma 2.9 (Foo). A statement.\nwhere inequality (6) is because\n$$x \\tag{3}$$\n")
    assert parse_numbered(text) == ["Lemma 2.9", "Equation (6)", "Equation (3)"]


def test_every_numbered_statement_has_a_module_and_an_entry(results):
    ids = {c.id for c in results}
    for stmt in NUMBERED:
        assert (ROOT / "proofs" / PAPER / f"{_module_name(stmt)}.py").is_file(), stmt
        assert stmt in ids, stmt
    for id in ids:
        assert _base(id) in NUMBERED, id
        assert id == _base(id) or re.fullmatch(re.escape(_base(id)) + r" \(proof: .+\)", id), id
    mods = {p.stem for p in (ROOT / "proofs" / PAPER).glob("*.py") if not p.stem.startswith("_")}
    assert mods == {_module_name(s) for s in NUMBERED}


def test_report_coverage_has_nothing_missing(results):
    path = paper_text_path(PAPER)
    numbered = parse_numbered(path.read_text(encoding="utf-8")) if path else NUMBERED
    cov = coverage(PAPER, results, numbered=numbered)
    assert cov["missing"] == [] and cov["with_checks"] == len(NUMBERED)
    assert cov["by_status"].get("error", 0) == 0


def test_every_refuted_entry_has_an_erratum(results):
    errata = (ROOT / "docs" / "errata.md").read_text(encoding="utf-8")
    for c in results:
        if c.status == "refuted":
            assert c.id in errata, c.id
    assert re.search(r"^## Vadhan-Zhang Lemma 2\.4", errata, re.M)


def test_runs_are_reproducible():
    es = {e[0]: e for e in entries(PAPER)}
    for id in ("Claim 3.4", "Theorem 5.1"):
        a = run_entry(PAPER, *es[id])
        b = run_entry(PAPER, *es[id])
        assert a.to_dict() == b.to_dict() and a.status == "checked"


# --------------------------------------------------------------------------
# the checks can fail: false transcriptions are refuted


def _mutants():
    """(entry id, module, attribute, false version): each a plausible mis-transcription."""
    from exactdp_proofs.vadhan_zhang import _games as G
    from exactdp_proofs.vadhan_zhang import _renyi as R
    from exactdp_proofs.vadhan_zhang import _sup as Su
    from exactdp_proofs.vadhan_zhang import _tradeoff as T

    chain_rule, build, power_term = T.chain_rule, G._build, R.Rad.power_term.__func__

    def np_ascending(pairs):  # Neyman-Pearson with the likelihood ratio sorted the wrong way
        pairs = [(F(p), F(q)) for p, q in pairs]
        rest = sorted(((p, q) for p, q in pairs if p > 0), key=lambda t: t[1] / t[0])
        a, b = F(0), 1 - sum((q for p, q in pairs if p == 0), F(0))
        pts = [(a, b)]
        for p, q in rest:
            a, b = a + p, b - q
            pts.append((a, b))
        return T.normalize(pts)

    def chain_rule_under_x(items):  # formula (9) with E_{x~X} in place of E_{x~X'} for the f_x
        return chain_rule([(p, p, f) for p, q, f in items])

    def feps_wrong_kink(w, d):  # f_{eps,delta} with the kink at (1-delta)/w
        w, d = F(w), F(d)
        c = (1 - d) / w
        return T.normalize([(F(0), 1 - d), (c, max(F(0), 1 - d - w * c)), (1 - d, F(0)), (F(1), F(0))])

    def tensor_first(*fs):  # "the composition is as private as its first part"
        return fs[0]

    def build_case2_under_x(node, d, kernel=None):  # Case 2 weighting the answers by the law on x on both sides
        if node[0] == "A":
            node = ("A", tuple((a, p0, p0, ch) for a, p0, p1, ch in node[1]))
        return build(node, d, kernel)

    def power_term_swapped(cls, p, q, alpha):  # p^(1-alpha) q^alpha
        return power_term(cls, q, p, alpha)

    def h_single_points(S, alpha):  # formula (4) without mixing two (function, point) pairs
        alpha = F(alpha)
        return min(y for f in S for x, y in f if x <= alpha)

    def mul_as_sum(a, b):  # D_1 + D_2 transcribed as S_1 + S_2 instead of S_1 S_2
        from exactdp_proofs.vadhan_zhang._rdp import add

        return add(a, b)

    def view_drops_x_prime(node, strat):  # the view law on x' taken equal to the law on x
        return {t: (a, a) for t, (a, b) in view(node, strat).items()}

    view = G.view
    return [
        ("Equation (2)", T, "tradeoff", np_ascending),
        ("Claim 3.4", T, "chain_rule", chain_rule_under_x),
        ("Definition 1.8", T, "feps", feps_wrong_kink),
        ("Theorem 1.4", T, "tensor", tensor_first),
        ("Theorem 1.5", G, "_build", build_case2_under_x),
        ("Definition 2.3", R.Rad, "power_term", classmethod(power_term_swapped)),
        ("Theorem 5.1", R, "mul", mul_as_sum),
        ("Definition 1.2", G, "view", view_drops_x_prime),
        ("Lemma 2.4", Su, "h_formula", h_single_points),   # the correction's own check must now fail
    ]


@pytest.mark.parametrize("i", range(9))
def test_false_transcriptions_are_refuted(monkeypatch, i):
    from exactdp_proofs.vadhan_zhang import _games as G

    id, module, attr, mutant = _mutants()[i]
    es = {e[0]: e for e in entries(PAPER)}
    assert run_entry(PAPER, *es[id]).settled
    G._build_cached.cache_clear()
    G.all_views.cache_clear()
    G.tight_rec.cache_clear()
    monkeypatch.setattr(module, attr, mutant)
    try:
        bad = run_entry(PAPER, *es[id])
    finally:
        G._build_cached.cache_clear()
        G.all_views.cache_clear()
        G.tight_rec.cache_clear()
    assert not bad.settled, (id, bad.status, bad.evidence)
    if id == "Lemma 2.4":  # the statement stays refuted; its correction's own check now fails
        assert bad.status == "refuted" and bad.correction.status == "refuted", bad.correction.evidence
    else:
        assert bad.status == "refuted", (id, bad.status, bad.evidence)
