"""Tests of the Vadhan-Wang proof checks (``proofs/vadhan_wang/``, issue 12).

* The default run settles every entry: no ``error``, every refutation carries a correction
  whose own check passes, statuses are consistent with the evidence.
* Coverage: the numbered statements parsed from the paper text (``parse_numbered``) are
  exactly ``NUMBERED``; each has a module named after it and an entry; every entry names a
  listed statement (or a step of one); the report's coverage has nothing missing.
* Every refuted entry has an erratum in ``docs/errata.md``.
* The checks can fail: deliberately false transcriptions (mutants) are refuted.
"""

from __future__ import annotations

import re
from fractions import Fraction as F
from pathlib import Path

import pytest

from exactdp_proofs._framework import STATUSES, Check, entries, run_entry, run_paper
from exactdp_proofs._report import coverage, paper_text_path
from exactdp_proofs.vadhan_wang import NUMBERED, parse_numbered

ROOT = Path(__file__).resolve().parents[2]
PAPER = "vadhan_wang"
STEP = re.compile(r"^(.+?) \(proof: .+\)$")


def _base(id: str) -> str:
    m = STEP.match(id)
    return m.group(1) if m else id


def _module_name(stmt: str) -> str:
    """'Theorem 4.1' -> theorem_4_1, 'Definition 7' -> definition_7, 'Equation (6)' -> equation_6."""
    kind, num = stmt.split(" ", 1)
    return f"{kind.lower()}_{num.strip('()').replace('.', '_')}"


@pytest.fixture(scope="module")
def results():
    return run_paper(PAPER)


def _by_id(results):
    return {c.id: c for c in results}


# --------------------------------------------------------------------------
# the default run


def test_default_run_settles_every_entry(results):
    assert len(results) >= len(NUMBERED)
    for c in results:
        assert c.status in STATUSES, (c.id, c.status, c.evidence)
        assert c.settled, (c.id, c.status, c.evidence)
        if c.status == "refuted":
            assert c.correction is not None and c.correction.status in ("verified", "checked"), c.id
            assert c.evidence.startswith("Counterexample:"), c.id
        else:
            assert c.correction is None, c.id
        if c.status == "checked":
            assert c.instances > 0 and re.match(r"N = \d+ instances", c.evidence), c.id
        if c.status == "verified":
            assert any(x.startswith("symbolic:") for x in c.checks), c.id
    ids = [c.id for c in results]
    assert len(ids) == len(set(ids))


def test_known_outcomes(results):
    by = _by_id(results)
    refuted = sorted(c.id for c in results if c.status == "refuted")
    assert refuted == ["Lemma 5", "Lemma 5 (proof: RR_(eps_i,0) is a special case, so the ConComp infimum is >= the "
                                  "Comp(RR) one)"]
    assert "constant mechanism" in by["Lemma 5"].evidence and "ln 2" in by["Lemma 5"].evidence
    assert by["Theorem 4.1 (proof: homogeneous case is group privacy)"].status == "verified"
    assert by["Theorem 5.2 (proof: mixing T(0), T(1) with RR's probabilities gives M(x_b))"].status == "verified"
    # the Section 6 experiment and its conjecture are present and pass
    assert any(c.id.startswith("Theorem 5.2 (proof: Section 6 experiment") and c.status == "checked" for c in results)
    assert any(c.id.startswith("Corollary 1 (proof: Section 6 conjecture") and c.status == "checked" for c in results)


def test_runs_are_reproducible():
    es = {e[0]: e for e in entries(PAPER)}
    for id in ("Theorem 1.4", "Theorem 5.2 (proof: Section 6 experiment, RR_(eps,delta) simulates 2-round 1-bit "
                              "mechanisms)"):
        a, b = run_entry(PAPER, *es[id]), run_entry(PAPER, *es[id])
        assert a.to_dict() == b.to_dict() and a.status == "checked"


# --------------------------------------------------------------------------
# coverage


def test_numbered_statements_parsed_from_the_paper():
    path = paper_text_path(PAPER)
    if path is None:
        pytest.skip("paper text not available (../shared/papers or $EXACTDP_PAPERS)")
    found = parse_numbered(path.read_text(encoding="utf-8"))
    assert found == NUMBERED  # same statements, same (paper) order
    assert len(found) == 37
    assert {"Theorem 1.4", "Corollary 1", "Definition 10", "Equation (10)", "Lemma 5"} <= set(found)


def test_parse_numbered_on_snippets():
    text = "\n".join([
        "Theorem 1.4 ()",
        "Theorem 1.1 shows the global privacy degradation",  # prose, not a heading
        "Lemma 3 ([23])",
        r"\forall T \Pr[M(x)\in T]\leq e^{\varepsilon}\Pr[M(x')\in T]+\delta (1)",
        "  \u2022 [1] Beimel, A.: Distributed private data analysis. pp. 451-468. Springer (2008)",
        "Theorem 4.1 (Theorem 1.4 restated)",
    ])
    assert parse_numbered(text) == ["Theorem 1.4", "Lemma 3", "Equation (1)", "Theorem 4.1"]


def test_every_listed_statement_has_a_module_and_an_entry():
    ids = {e[0] for e in entries(PAPER)}
    for stmt in NUMBERED:
        assert (ROOT / "proofs" / PAPER / f"{_module_name(stmt)}.py").is_file(), stmt
        assert stmt in ids, stmt
    for id in ids:
        assert _base(id) in NUMBERED, id  # no entry names a statement the paper lacks
    mods = {p.stem for p in (ROOT / "proofs" / PAPER).glob("*.py") if not p.stem.startswith("_")}
    assert mods == {_module_name(s) for s in NUMBERED}


def test_report_coverage_has_nothing_missing(results):
    cov = coverage(PAPER, results, numbered=NUMBERED)
    assert cov["missing"] == [] and cov["with_checks"] == len(NUMBERED) == 37
    assert cov["by_status"].get("error", 0) == 0


# --------------------------------------------------------------------------
# errata


def test_every_refuted_entry_has_an_erratum(results):
    errata = (ROOT / "docs" / "errata.md").read_text(encoding="utf-8")
    for c in results:
        if c.status == "refuted":
            assert c.id in errata, c.id
            kind, num = _base(c.id).split(" ", 1)
            assert re.search(r"^## Vadhan-Wang .*" + re.escape(kind) + r"s? .*" + re.escape(num), errata, re.M), c.id


# --------------------------------------------------------------------------
# the checks can fail: false transcriptions are refuted


def _mutants():
    """(entry id, module, attribute, false version): each a plausible mis-transcription of a helper the check uses."""
    from exactdp_proofs.vadhan_wang import _dp, _interactive, equation_3, theorem_1_2, theorem_1_4, theorem_4_1

    rr, thm52_T, privloss = _dp.rr, _sim_mod().thm52_T, _interactive.single_privloss_t
    eps_prime = theorem_1_2.eps_prime

    def rr_unmirrored(w, delta):  # Definition 10 with RR(1) not mirrored
        P0, _ = rr(w, delta)
        return P0, dict(P0)

    def lhs_no_positive_part(ws, t):  # Theorem 1.3 without the max(., 0)
        k = len(ws)
        s = F(0)
        for mask in range(1 << k):
            s += (_dp.prod(ws[i] for i in range(k) if mask >> i & 1)
                  - t * _dp.prod(ws[i] for i in range(k) if not mask >> i & 1))
        return s / _dp.prod(1 + w for w in ws)

    def nonadaptive_hockey(mechs, world0, world1, t):  # adversaries fixing order and queries in advance only
        return _nonadaptive(mechs, world0, world1, t)

    def thm52_swapped(m, w, x0=0, x1=1):  # Equations (6)-(9) with x_0 and x_1 exchanged
        return thm52_T(m, w, x1, x0)

    def privloss_too_small(m, delta, x0=0, x1=1):  # Section 6 with eps below PrivLoss(M_p, delta)
        t = privloss(m, delta, x0, x1)
        return t if t is None else (1 + t) / 2

    def delta_g_halved(ws, ds):  # Theorem 1.4's delta_g without the e^{sum eps_j} factors, halved
        return sum(ds) / 2

    def min_delta_max_only(ws, ds):  # Theorem 4.1's delta_g replaced by max_i delta_i
        return max(ds)

    def eps_prime_quarter(k, eps, dp):  # Theorem 1.2 with a constant four times too small
        return eps_prime(k, eps, dp) / 4

    def chain_rhs_inf(EY, Ezs):  # Equation (3) with the supremum over y transcribed as an infimum
        return EY * min(Ezs)

    return [
        ("Definition 10", _dp, "rr", rr_unmirrored),
        ("Theorem 1.3", _dp, "thm13_lhs", lhs_no_positive_part),
        ("Lemma 1", _interactive, "cc_hockey", nonadaptive_hockey),
        ("Theorem 5.2", _sim_mod(), "thm52_T", thm52_swapped),
        ("Theorem 5.2 (proof: Section 6 experiment, RR_(eps,delta) simulates 2-round 1-bit mechanisms)", _interactive,
         "single_privloss_t", privloss_too_small),
        ("Theorem 1.4", theorem_1_4, "printed_delta_g", delta_g_halved),
        ("Theorem 4.1", theorem_4_1, "printed_min_delta", min_delta_max_only),
        ("Theorem 1.2", theorem_1_2, "eps_prime", eps_prime_quarter),
        ("Equation (3)", equation_3, "chain_rhs", chain_rhs_inf),
    ]


def _sim_mod():
    from exactdp_proofs.vadhan_wang import _sim

    return _sim


def _nonadaptive(mechs, world0, world1, t):
    """Least delta over adversaries that fix the interleaving and every query in advance (not all adversaries)."""
    import itertools

    from exactdp_proofs.vadhan_wang._dp import hockey

    k = len(mechs)
    slots = [j for j in range(k) for _ in range(mechs[j].rounds)]
    best = F(0)
    for order in set(itertools.permutations(slots)):
        for qs in itertools.product(*[mechs[j].queries[order[:i].count(j)] for i, j in enumerate(order)]):
            V = []
            for world in (world0, world1):
                dist = {((), tuple(() for _ in mechs)): F(1)}
                for i, j in enumerate(order):
                    nxt = {}
                    for (ans, hs), pr in dist.items():
                        h = hs[j] + (qs[i],)
                        for a, pa in mechs[j].cond[world[j]][h].items():
                            key = (ans + (a,), hs[:j] + (h + (a,),) + hs[j + 1:])
                            nxt[key] = nxt.get(key, F(0)) + pr * pa
                    dist = nxt
                V.append({ans: pr for (ans, _), pr in dist.items()})
            best = max(best, hockey(V[0], V[1], t))
    return best


@pytest.mark.parametrize("i", range(9))
def test_false_transcriptions_are_refuted(monkeypatch, i):
    id, module, attr, mutant = _mutants()[i]
    es = {e[0]: e for e in entries(PAPER)}
    assert run_entry(PAPER, *es[id]).settled
    monkeypatch.setattr(module, attr, mutant)
    bad = run_entry(PAPER, *es[id])
    assert bad.status == "refuted", (id, bad.status, bad.evidence)
    assert not bad.settled


def test_lemma_5_correction_can_fail(monkeypatch):
    """A 'correction' that claimed a smaller privacy loss than Comp(RR) (e^eps_g halfway to 1) is refuted."""
    from exactdp_proofs.vadhan_wang import lemma_5

    real = lemma_5.rr_privloss_t
    es = {e[0]: e for e in entries(PAPER)}
    monkeypatch.setattr(lemma_5, "rr_privloss_t", lambda ws, dg: (1 + real(ws, dg)) / 2)
    bad = run_entry(PAPER, *es["Lemma 5"])
    assert bad.status == "refuted" and bad.correction.status == "refuted" and not bad.settled


def test_lemma_5_counterexample_is_checked(monkeypatch):
    """With a mechanism that is exactly RR_(ln 2, 0) in place of the constant one, there is no counterexample."""
    from exactdp_proofs.vadhan_wang import _dp, _interactive, lemma_5

    monkeypatch.setattr(lemma_5, "constant_mech", lambda: _interactive.noninteractive(*_dp.rr_eps(F(2))))
    es = {e[0]: e for e in entries(PAPER)}
    c = run_entry(PAPER, *es["Lemma 5"])
    assert not c.evidence.startswith("Counterexample:")


def test_status_of_a_synthetic_step_id_is_a_step():
    """Steps are '<statement> (proof: ...)'; numbered displays 'Equation (n)' are statements (see the report)."""
    assert Check(PAPER, "Theorem 4.1 (proof: x)", "", "checked", [], "").is_step
    assert _base("Theorem 4.1 (proof: x)") == "Theorem 4.1" and _base("Equation (6)") == "Equation (6)"
