"""docs/peers.md's scoreboard: the counts of ``docs/tools/peers_page.py`` and the page's freshness.

* A synthetic run (records of both suites written by hand, as the audits write them, to a
  temporary folder) is summarized, and each count, worst margin, median and ratio is compared
  with the value worked out by hand beside it.
* A stopped run (only the audit's state file) counts its finished cases and the rest as "not
  finished"; a peer that is not installed is named.
* The driver (``docs/tools/scoreboard.py``) runs each (suite, peer) once in its own process, under
  the memory cap, and a second run skips what is done; a cap of 256 MiB makes a 512 MiB
  allocation raise MemoryError.
* Staleness: the generated part of docs/peers.md is ``render`` of the stored summary
  (``docs/tools/peers-scoreboard.json``), and the summary names every peer of the registries it
  was run with.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from doc_blocks import ROOT

sys.path.insert(0, str(ROOT / "docs" / "tools"))
import peers_page as pp  # noqa: E402


def _dpsgd(knob, case, claim, verdict, rel, seconds, severity=""):
    return {"peer": "acc", "version": "1.0", "knob": knob, "case": case, "label": f"{case:0>20}: {case} steps",
            "claim": claim, "verdict": verdict, "relative": rel, "severity": severity, "seconds": seconds,
            "answer": 1.0, "certified": {"lower": "1", "upper": "1"}}


def _nr(knob, case, verdict="not-run"):
    return {"peer": "acc", "version": "1.0", "knob": knob, "case": case, "label": "", "verdict": verdict,
            "reason": "x"}


def _write(path, records, meta=None, partial=False):
    if partial:
        lines = [json.dumps({"header": 1})] + [json.dumps({"key": f"acc|{r['knob']}|{r['case']}", "records": [r]})
                                               for r in records]
        (path.parent / (path.name + ".partial")).write_text("\n".join(lines) + "\n")
    else:
        path.write_text("".join(json.dumps(r) + "\n" for r in records))
    if meta is not None:
        (path.parent / path.name.replace(".jsonl", ".meta.json")).write_text(json.dumps(meta))


def _cases_a():
    # knob "a" (one upper-bound claim per case), cases c1..c6:
    #   c1 sound +0.5 (2 s), c2 unsound material -0.25 (4 s), c3 unsound float-level -1e-12 (6 s),
    #   c4 undecided -0.9 (8 s: inside the enclosure, no margin), c5 not run, c6 error
    return [_dpsgd("a", "c1", "upper", "sound", 0.5, 2.0),
            _dpsgd("a", "c2", "upper", "unsound", -0.25, 4.0, "material"),
            _dpsgd("a", "c3", "upper", "unsound", -1e-12, 6.0, "float-level"),
            _dpsgd("a", "c4", "upper", "undecided", -0.9, 8.0),
            _nr("a", "c5"), _nr("a", "c6", "error")]


def _cases_b():
    # knob "b" (lower bound and estimate per case), cases c1, c2:
    #   c1: lower sound -0.1, estimate reported +0.3 (one run: 1 s)
    #   c2: lower invalid material +0.2, estimate outside its bar -0.6 (one run: 3 s)
    return [_dpsgd("b", "c1", "lower", "sound", -0.1, 1.0), _dpsgd("b", "c1", "estimate", "reported", 0.3, 1.0),
            _dpsgd("b", "c2", "lower", "invalid", 0.2, 3.0, "material"),
            _dpsgd("b", "c2", "estimate", "bar-violated", -0.6, 3.0)]


def _exactdp_times():
    # exactdp's certified answers timed in the same run: c1 1 s, c2 1 s, c3 2 s, c4 10 s
    return [{"peer": "exactdp", "knob": "certified", "case": c, "verdict": "agrees", "digits": 12, "seconds": t}
            for c, t in (("c1", 1.0), ("c2", 1.0), ("c3", 2.0), ("c4", 10.0))]


def test_counts_margins_and_times_of_a_synthetic_run(tmp_path):
    _write(tmp_path / "dpsgd-acc.jsonl", _cases_a() + _cases_b(),
           {"suite": "dpsgd", "peer": "acc", "status": "done", "vmhwm_kib": 2**20, "wall_seconds": 12.0})
    _write(tmp_path / "dpsgd-exactdp.jsonl", _exactdp_times(), {"suite": "dpsgd", "peer": "exactdp", "status": "done"})
    _write(tmp_path / "dpsgd-other.jsonl", [], {"suite": "dpsgd", "peer": "other", "status": "not installed",
                                                 "install": "exactdp[other]"})
    s = pp.summarize(pp.load_dir(str(tmp_path)), expected={"dpsgd": 6})["suites"]["dpsgd"]
    rows = {r["knob"]: r for r in s["rows"]}
    a, b = rows["a"], rows["b"]
    # knob a: 4 answers (c1..c4); unsound 2 of which 1 float-level; 1 error case, 1 not-run case
    assert (a["answers"], a["sound"], a["unsound"], a["unsound_float"], a["undecided"]) == (4, 1, 2, 1, 1)
    assert (a["invalid"], a["error"], a["not_run"], a["not_finished"]) == (0, 1, 1, 0)
    # the worst upper bound is the least relative error of a decided answer: c2's -0.25 (not c4's)
    assert a["worst"] == [{"claim": "upper", "relative": -0.25, "case": "c2 steps"}]
    # peer's times over c1..c4: 2, 4, 6, 8 -> median 5; exactdp's over the same: 1, 1, 2, 10 -> 1.5
    assert a["median_seconds"] == 5.0 and a["exactdp_median_seconds"] == 1.5
    assert a["ratio"] == pytest.approx(5.0 / 1.5)
    # knob b: 4 answers over 2 cases; 1 invalid (material), 1 estimate outside its bar, 1 estimate reported
    assert (b["answers"], b["sound"], b["invalid"], b["invalid_float"], b["bar-violated"], b["reported"]) == \
        (4, 1, 1, 0, 1, 1)
    # worst lower bound: the largest, +0.2 (c2); worst estimate: the largest in size, -0.6 (c2)
    assert b["worst"] == [{"claim": "lower", "relative": 0.2, "case": "c2 steps"},
                          {"claim": "estimate", "relative": -0.6, "case": "c2 steps"}]
    # one run per case: times 1 and 3 -> median 2; exactdp 1 and 1 -> 1; ratio 2
    assert (b["median_seconds"], b["exactdp_median_seconds"], b["ratio"]) == (2.0, 1.0, 2.0)
    # failed answers: c2's estimate (0.6), c2's upper (0.25), c2's lower (0.2), c3's upper (1e-12)
    assert s["failed_total"] == 4
    assert [(f["knob"], f["claim"], f["relative"]) for f in s["failed"]] == \
        [("b", "estimate", -0.6), ("a", "upper", -0.25), ("b", "lower", 0.2), ("a", "upper", -1e-12)]
    assert s["exactdp"]["agrees"] == 4 and s["exactdp"]["median_seconds"] == 1.5  # (1 + 2) / 2
    page = pp.render({"suites": {"dpsgd": s}})
    assert "| acc (1.0) | a | 4 | 1 | 1 / 1 | 0 / 0 | 0 | 0 | 1 | 1 | 1 | upper -2.50e-01 (c2 steps) | 5 | 1.5 | 3.3 |" in page
    assert "other: **not installed** (`pip install 'exactdp[other]'`)" in page


def test_a_stopped_run_and_the_optcomp_records(tmp_path):
    # a stopped DP-SGD run: only the state file, 2 of knob a's 6 cases finished
    _write(tmp_path / "dpsgd-acc.jsonl", _cases_a()[:2], partial=True)
    # an (eps, delta) run: statuses of run.audit_case; "excess" is the relative error
    base = {"peer": "acc", "version": "1.0", "knob": "k", "label": "pure", "seconds": 0.5}
    recs = [{**base, "case": "g1", "answer_name": "eps", "status": "sound", "excess": 0.01, "direction": "epsilon",
             "query": 1e-6},
            {**base, "case": "g1", "answer_name": "delta", "status": "unsound", "excess": "-inf", "direction": "delta",
             "query": 1.0},
            {**base, "case": "g2", "answer_name": "eps", "status": "unsound", "excess": -5e-16, "direction": "epsilon",
             "query": 1e-3},
            {**base, "case": "g3", "status": "unsupported", "reason": "x"},
            # past the run's memory limit per process: the limit's doing, counted as not run
            {**base, "case": "g4", "status": "error", "reason": "MemoryError: Unable to allocate 3 GiB"},
            {**base, "case": "g5", "status": "error", "reason": "RuntimeError: the peer's own failure"}]
    _write(tmp_path / "optcomp-acc.jsonl", recs, {"suite": "optcomp", "peer": "acc", "status": "done", "grid": "quick"})
    summary = pp.summarize(pp.load_dir(str(tmp_path)), expected={"dpsgd": 6, "optcomp": 3})["suites"]
    a = next(r for r in summary["dpsgd"]["rows"] if r["knob"] == "a")
    assert (a["answers"], a["sound"], a["unsound"], a["not_finished"]) == (2, 1, 1, 4)  # 6 cases - 2 finished
    assert summary["dpsgd"]["runs"][0]["finished"] is False
    k = summary["optcomp"]["rows"][0]
    # 3 answers; 2 unsound: -inf material, -5e-16 float-level; g3 and g4 not run, g5 an error
    assert (k["answers"], k["sound"], k["unsound"], k["unsound_float"], k["not_run"], k["error"]) == (3, 1, 2, 1, 2, 1)
    assert summary["optcomp"]["runs"][0]["memory_limited"] == 1  # g4
    assert "1 case run stopped by the memory limit" in pp.render({"suites": summary})
    assert k["worst"][0]["relative"] == -float("inf") and k["worst"][0]["case"] == "g1, eps_g = 1.0"


def test_the_memory_limit_makes_a_large_allocation_fail():
    # the child process caps its data segment at 256 MiB, then asks for 512 MiB
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import scoreboard; scoreboard.limit_memory(2**28)\n"
            "try:\n    b = bytearray(2**29)\nexcept MemoryError:\n    print('MemoryError')")
    out = subprocess.run([sys.executable, "-c", code, str(ROOT / "docs" / "tools")], capture_output=True, text=True,
                         timeout=60)
    assert out.stdout.strip() == "MemoryError", out.stderr


def test_the_page_is_render_of_the_stored_summary():
    summary = json.loads(pp.SUMMARY.read_text())
    page = pp.PAGE.read_text()
    block = page[page.index(pp.START):page.index(pp.END) + len(pp.END)]
    assert block == pp.render(summary), "docs/peers.md is stale: run python docs/tools/peers_page.py"
    assert set(summary["suites"]) == {"dpsgd", "optcomp"}
    for suite, s in summary["suites"].items():
        peers = {r["peer"] for r in s["runs"]}
        assert "exactdp" in peers  # the same-run timing of the ratios
        assert peers - {"exactdp"} <= set(pp.registered_peers(suite)), suite


def test_the_driver_runs_each_pair_once_and_records_its_process(tmp_path):
    # exactdp's own timing and its float engine (a peer always installed) on the small grid: seconds
    import scoreboard

    d = str(tmp_path)
    assert scoreboard.run_all(d, "quick", ["optcomp"], ["exactdp", "exactdp-float"]) == 0
    out, meta = scoreboard.files(d, "optcomp", "exactdp-float")
    m = json.loads(open(meta).read())
    assert m["status"] == "done" and m["vmhwm_kib"] > 0 and m["memory_limit_kib"] == 2 * 2**20
    stamp = os.stat(out).st_mtime_ns
    assert scoreboard.run_all(d, "quick", ["optcomp"], ["exactdp", "exactdp-float"]) == 0  # done: not run again
    assert os.stat(out).st_mtime_ns == stamp
    s = pp.summarize(pp.load_dir(d), expected={"optcomp": 5})["suites"]["optcomp"]
    row = s["rows"][0]
    # the quick grid: 5 cases, 2 delta_g each except the lattice case (1), 2 eps_g each -> 19 answers
    assert (row["peer"], row["answers"], row["not_finished"], row["exactdp_cases"]) == ("exactdp-float", 19, 0, 5)
