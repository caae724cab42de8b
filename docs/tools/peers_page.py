"""Write docs/peers.md: the scoreboard of the peer audits (``make scoreboard`` runs it last).

    python docs/tools/peers_page.py --dir build/scoreboard     # summarize a run, then write the page
    python docs/tools/peers_page.py                            # the page again from the stored summary

``--dir`` reads what ``docs/tools/scoreboard.py run`` left there: per (suite, peer) the records
(``<suite>-<peer>.jsonl``, or the ``.jsonl.partial`` state file of a run that was stopped: its
finished cases count, the others are "not finished") and the meta file (peak memory, times, load,
or "not installed"). :func:`summarize` turns them into the scoreboard, stored in
``docs/tools/peers-scoreboard.json`` (tens of kB; the records stay in ``build/``), and
:func:`render` writes the page's generated part from that summary, between the
``<!-- scoreboard:start -->`` and ``<!-- scoreboard:end -->`` markers; the rest of the page
(what the failures mean, older runs) is written by hand and kept. tests/docs/test_peers_page.py
fails when the page's generated part is not ``render`` of the stored summary.

Counting (per suite, peer and knob): every answer a peer gives is one verdict: *sound*,
*unsound* (a claimed upper bound below the certified optimum), *invalid* (a claimed lower bound
above it), *outside bar* (an estimate outside the error bar it states), *estimate* (an estimate
with no bar, reported), *undecided*; unsound and invalid answers are *float-level* when
|relative error| < :data:`FLOAT_LEVEL`, else *material*. *errors* (the peer raised) and *not
run* (a case the adapter does not give the peer, one too costly, one that ran out of the run's
memory limit per process, a run not finished) count cases. The worst margin of each claim is its signed relative error (answer - true) / true, over
the decided answers, nearest to failing: the least for an upper bound, the largest for a lower bound, the largest
in size for an estimate.
"""

from __future__ import annotations

import argparse
import datetime
import glob
import json
import math
import os
import re
import statistics
import sys
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # this checkout's exactdp, not an installed one
PAGE = ROOT / "docs" / "peers.md"
SUMMARY = ROOT / "docs" / "tools" / "peers-scoreboard.json"
START, END = "<!-- scoreboard:start -->", "<!-- scoreboard:end -->"

#: |relative error| below which an unsound or invalid answer is float-level rounding.
FLOAT_LEVEL = 1e-9
#: Failed answers listed per suite (the largest by |relative error|).
MAX_FAILED = 40
EXACTDP = "exactdp"
SUITE_TITLES = {"dpsgd": "DP-SGD accountants (the shipped DP-SGD corpus)",
                "optcomp": "Compositions of (eps, delta) mechanisms (the audit grid)"}
VERDICTS = ("sound", "unsound", "invalid", "bar-violated", "reported", "undecided")


# --------------------------------------------------------------------------
# reading a run


def read_records(path: str) -> tuple[list, bool]:
    """The records of a finished audit file, or of a state file (``finished`` False)."""
    if os.path.exists(path):
        with open(path) as f:
            return [json.loads(x) for x in f if x.strip()], True
    recs = []
    if os.path.exists(path + ".partial"):
        with open(path + ".partial") as f:
            lines = f.read().splitlines()
        for line in lines[1:]:  # the header first; a torn last line is not a record
            try:
                recs += json.loads(line)["records"]
            except (ValueError, KeyError):
                continue
    return recs, False


def _num(x) -> Optional[float]:
    if isinstance(x, bool) or x is None:
        return None
    if isinstance(x, (int, float)):
        return float(x)
    if isinstance(x, str):
        try:
            return float(x)
        except ValueError:
            return None
    return None


def normalize(suite: str, r: dict) -> dict:
    """One record of either suite in the scoreboard's terms: verdict, claim, relative error."""
    if suite == "dpsgd":
        verdict, claim, rel = r["verdict"], r.get("claim", "-"), _num(r.get("relative"))
        fl = r.get("severity") == "float-level"
    else:
        st = r["status"]
        verdict = {"unsupported": "not-run"}.get(st, st)
        claim = "estimate" if r.get("answer_name") == "estimate" else "upper"
        rel = _num(r.get("excess"))
        fl = rel is not None and abs(rel) < FLOAT_LEVEL
    if verdict == "error" and str(r.get("reason", "")).startswith("MemoryError"):
        verdict = "not-run"  # past the scoreboard's memory limit per process: the limit's, not the peer's
    if verdict == "not-run" or verdict == "error":
        claim = "-"
    return {"peer": r["peer"], "version": r.get("version"), "knob": r["knob"], "case": r.get("case", ""),
            "label": r.get("label", ""), "claim": claim, "verdict": verdict, "relative": rel,
            "float_level": bool(fl) and verdict in ("unsound", "invalid"), "seconds": _num(r.get("seconds")),
            "answer": r.get("answer"), "query": r.get("query"), "direction": r.get("direction"),
            "certified": r.get("certified") or r.get("optimum"), "reason": r.get("reason", "")}


def expected_cases(suite: str, grid: str) -> Optional[int]:
    """How many cases a complete run of one knob has (None when unknown)."""
    import warnings

    warnings.filterwarnings("ignore", message=r".* is a float: it is taken as its binary value")  # the grid's floats
    try:
        if suite == "dpsgd":
            from exactdp.testing.dpsgd import read_vectors, shipped_dpsgd_path

            return sum(1 for v in read_vectors(shipped_dpsgd_path()) if "events" in v)
        from exactdp.audit import audit_grid

        return len(audit_grid(grid))
    except Exception:  # noqa: BLE001  (a summary without the denominator still counts what ran)
        return None


def registered_peers(suite: str) -> dict:
    """The registry of a suite's peers (name -> peer)."""
    if suite == "dpsgd":
        from exactdp.audit.dpsgd import DPSGD_PEERS

        return DPSGD_PEERS
    from exactdp.audit.peers import PEERS

    return PEERS


def knobs_of(suite: str, peer: str) -> list:
    p = registered_peers(suite).get(peer)
    return list(p.knobs) if p is not None else []


# --------------------------------------------------------------------------
# the scoreboard


def _worst(claim: str, rs: list) -> Optional[dict]:
    xs = [r for r in rs if r["relative"] is not None and not math.isnan(r["relative"])]
    if not xs:
        return None
    if claim == "upper":
        w = min(xs, key=lambda r: r["relative"])
    elif claim == "lower":
        w = max(xs, key=lambda r: r["relative"])
    else:
        w = max(xs, key=lambda r: abs(r["relative"]))
    return {"claim": claim, "relative": w["relative"], "case": _short_label(w)}


def _short_label(r: dict) -> str:
    """A record's case as the page shows it: the DP-SGD label without its id, or the grid case's id."""
    m = re.match(r"^[0-9a-f]{20}: (.*)$", r["label"] or "")
    if m:
        return m.group(1)
    if r.get("direction"):
        return f"{r['case']}, {'delta_g' if r['direction'] == 'epsilon' else 'eps_g'} = {r['query']!r}"
    return r["case"]


def _median(xs: list) -> Optional[float]:
    return statistics.median(xs) if xs else None


def summarize(runs: list, *, expected: Optional[dict] = None) -> dict:
    """The scoreboard of one run: ``runs`` is a list of ``{"suite", "peer", "meta", "records",
    "finished"}``; ``expected`` maps a suite to the number of cases of a complete run of one knob.
    Returns ``{"suites": {suite: {"runs": [...], "rows": [...], "failed": [...], "exactdp": {...}}}}``."""
    expected = expected or {}
    out: dict = {}
    for suite in sorted({r["suite"] for r in runs}):
        mine = [r for r in runs if r["suite"] == suite]
        ex = next((r for r in mine if r["peer"] == EXACTDP), None)
        ex_time = {}
        ex_row = None
        if ex is not None:
            ex_time = {x["case"]: float(x["seconds"]) for x in ex["records"] if _num(x.get("seconds")) is not None}
            agree = sum(1 for x in ex["records"] if x.get("verdict") == "agrees")
            disagree = sum(1 for x in ex["records"] if x.get("verdict") == "disagrees")
            ex_row = {"cases": len(ex_time), "median_seconds": _median(list(ex_time.values())),
                      "agrees": agree, "disagrees": disagree, "finished": ex["finished"],
                      "digits": sorted({x.get("digits") for x in ex["records"] if x.get("digits")})}
        rows, failed, run_info = [], [], []
        for run in sorted(mine, key=lambda r: r["peer"]):
            meta = dict(run.get("meta") or {})
            info = {"peer": run["peer"], "status": meta.get("status", "unknown"), "finished": run["finished"],
                    **{k: meta[k] for k in ("install", "wall_seconds", "cpu_seconds", "vmhwm_kib", "load_start",
                                            "load_end", "resumed_cases", "started", "grid", "memory_limit_kib") if k in meta}}
            run_info.append(info)
            if run["peer"] == EXACTDP or meta.get("status") == "not installed":
                continue
            recs = [normalize(suite, r) for r in run["records"]]
            info["memory_limited"] = len({(r["knob"], r["case"]) for r in recs
                                          if r["verdict"] == "not-run" and r["reason"].startswith("MemoryError")})
            info["version"] = next((r["version"] for r in recs if r["version"]), None)
            knobs = list(dict.fromkeys((run.get("knobs") or []) + [r["knob"] for r in recs]))
            for knob in knobs:
                rk = [r for r in recs if r["knob"] == knob]
                answers = [r for r in rk if r["verdict"] in VERDICTS]
                cases = {r["case"] for r in rk}
                row = {"peer": run["peer"], "version": info["version"], "knob": knob, "answers": len(answers),
                       **{v: sum(1 for r in answers if r["verdict"] == v) for v in VERDICTS},
                       "unsound_float": sum(1 for r in answers if r["verdict"] == "unsound" and r["float_level"]),
                       "invalid_float": sum(1 for r in answers if r["verdict"] == "invalid" and r["float_level"]),
                       "error": len({r["case"] for r in rk if r["verdict"] == "error"}),
                       "not_run": len({r["case"] for r in rk if r["verdict"] == "not-run"}),
                       "not_finished": 0}
                n = expected.get(suite)
                if n is not None and not run["finished"]:
                    row["not_finished"] = max(0, n - len(cases))
                decided = [r for r in answers if r["verdict"] != "undecided"]  # inside the enclosure's width
                row["worst"] = [w for w in (_worst(c, [r for r in decided if r["claim"] == c])
                                            for c in ("upper", "lower", "estimate")) if w]
                ran = {}
                for r in answers:
                    if r["seconds"] is not None:
                        ran[r["case"]] = r["seconds"]  # one run per case: its claims share the time
                row["cases_answered"] = len(ran)
                row["median_seconds"] = _median(list(ran.values()))
                same = [c for c in ran if c in ex_time]
                row["exactdp_cases"] = len(same)
                row["exactdp_median_seconds"] = _median([ex_time[c] for c in same])
                pm = _median([ran[c] for c in same])
                em = row["exactdp_median_seconds"]
                row["ratio"] = pm / em if pm is not None and em else None
                rows.append(row)
                failed += [r for r in answers if r["verdict"] in ("unsound", "invalid", "bar-violated")]
        failed.sort(key=lambda r: -abs(r["relative"]) if r["relative"] is not None else 0.0)
        keep = ("peer", "knob", "claim", "label", "case", "answer", "certified", "relative", "float_level", "verdict",
                "direction", "query")
        out[suite] = {"runs": run_info, "rows": rows, "exactdp": ex_row, "failed_total": len(failed),
                      "failed": [{k: r[k] for k in keep} for r in failed[:MAX_FAILED]]}
    return {"suites": out}


def load_dir(d: str) -> list:
    """The runs ``scoreboard.py run`` left in ``d``."""
    runs = []
    for meta_path in sorted(glob.glob(os.path.join(d, "*.meta.json"))):
        with open(meta_path) as f:
            meta = json.load(f)
        base = meta_path[: -len(".meta.json")]
        recs, finished = read_records(base + ".jsonl")
        runs.append({"suite": meta["suite"], "peer": meta["peer"], "meta": meta, "records": recs,
                     "finished": finished or meta.get("status") == "not installed",
                     "knobs": knobs_of(meta["suite"], meta["peer"])})
    # a run stopped before its meta file was written: its state file still counts
    for partial in sorted(glob.glob(os.path.join(d, "*.jsonl.partial"))):
        base = partial[: -len(".jsonl.partial")]
        if os.path.exists(base + ".meta.json"):
            continue
        suite, _, peer = os.path.basename(base).partition("-")
        recs, _ = read_records(base + ".jsonl")
        runs.append({"suite": suite, "peer": peer, "meta": {"status": "stopped"}, "records": recs, "finished": False,
                     "knobs": knobs_of(suite, peer)})
    return runs


# --------------------------------------------------------------------------
# the page


def _t(x: Optional[float]) -> str:
    return "-" if x is None else f"{x:.3g}"


def _rel(x: Optional[float]) -> str:
    if x is None:
        return "-"
    if x == 0:
        return "0"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return f"{x:+.2e}"


def _ratio(x: Optional[float]) -> str:
    if x is None:
        return "-"
    return f"{x:.2g}" if x < 10 else f"{x:.0f}"


def _gib(kib: Optional[int]) -> str:
    return "-" if kib is None else f"{kib / 2**20:.2f} GiB"


def _run_line(suite: str, info: dict, expected: Optional[int]) -> str:
    if info["status"] == "not installed":
        return f"* {info['peer']}: **not installed** (`pip install '{info.get('install', '')}'`); not run."
    done = "finished" if info["finished"] else "**stopped before the end** (its finished cases are counted)"
    parts = [f"{info['peer']}" + (f" {info['version']}" if info.get("version") else "") + f": {done}"]
    if "wall_seconds" in info:
        parts.append(f"{info['wall_seconds']:.0f} s wall, {info.get('cpu_seconds', 0):.0f} s CPU, "
                     f"peak memory {_gib(info.get('vmhwm_kib'))}"
                     + (f" (limit {_gib(info['memory_limit_kib'])})" if info.get("memory_limit_kib") else "")
                     + f", load {info.get('load_start')} -> {info.get('load_end')}")
    if info.get("memory_limited"):
        n = info["memory_limited"]
        parts.append(f"{n} case run{'s' if n > 1 else ''} stopped by the memory limit (counted as not run)")
    if info.get("resumed_cases"):
        parts.append(f"resumed after {info['resumed_cases']} cases (times of the last session)")
    return "* " + "; ".join(parts) + "."


def _worst_text(ws: list) -> str:
    return "; ".join(f"{w['claim']} {_rel(w['relative'])} ({w['case']})" for w in ws) or "-"


def render(summary: dict) -> str:
    """The page's generated part (between the markers) from a summary. Deterministic."""
    lines = [START, ""]
    head = summary.get("head", {})
    if head:
        lines += [f"Run of {head.get('date')} with `make scoreboard` (`docs/tools/scoreboard.py`): exactdp "
                  f"{head.get('exactdp_version')}, on {head.get('machine')}, shared with other jobs: the load "
                  "average (1 minute) at each process's start and end is given below, and times are wall times "
                  f"of that run. One after another, as `make scoreboard` runs them, the processes take "
                  f"{head.get('wall_seconds', 0):.0f} s ({head.get('wall_seconds', 0) / 60:.0f} min) of wall time at "
                  f"this load and {head.get('cpu_seconds', 0):.0f} s of CPU. " + head.get("note", ""), ""]
    for suite in ("dpsgd", "optcomp"):
        s = summary["suites"].get(suite)
        if s is None:
            continue
        lines += [f"### {SUITE_TITLES[suite]}", ""]
        if s.get("scope"):
            lines += [s["scope"], ""]
        lines += ["Processes of this run (one per peer):", ""]
        lines += [_run_line(suite, i, s.get("expected")) for i in s["runs"] if i["peer"] != EXACTDP]
        ex = s.get("exactdp")
        exi = next((i for i in s["runs"] if i["peer"] == EXACTDP), None)
        if ex:
            what = ("each corpus vector recomputed at its own digits "
                    f"({', '.join(str(d) for d in ex['digits'])}): {ex['agrees']} agree with the stored enclosure, "
                    f"{ex['disagrees']} disagree" if suite == "dpsgd" else
                    f"every query of each grid case at {', '.join(str(d) for d in ex['digits'])} digits")
            lines.append(f"* exactdp's certified answers, timed in the same run: {what}; {ex['cases']} cases, median "
                         f"{_t(ex['median_seconds'])} s" + (f"; {_run_line(suite, exi, None)[2:]}" if exi else ""))
        lines += ["", "| peer (version) | knob | answers | sound | unsound: material / float-level | invalid: "
                  "material / float-level | estimate outside its bar | estimate, no bar | undecided | errors | not run "
                  "| worst margin (claim: relative error, case) | median time per case (s) | exactdp, same cases (s) "
                  "| ratio |",
                  "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|"]
        for r in s["rows"]:
            nr = f"{r['not_run']}" + (f" + {r['not_finished']} not finished" if r["not_finished"] else "")
            lines.append(
                f"| {r['peer']} ({r['version'] or '-'}) | {r['knob']} | {r['answers']} | {r['sound']} "
                f"| {r['unsound'] - r['unsound_float']} / {r['unsound_float']} "
                f"| {r['invalid'] - r['invalid_float']} / {r['invalid_float']} | {r['bar-violated']} | {r['reported']} "
                f"| {r['undecided']} | {r['error']} | {nr} | {_worst_text(r['worst'])} | {_t(r['median_seconds'])} "
                f"| {_t(r['exactdp_median_seconds'])} | {_ratio(r['ratio'])} |")
        for i in s["runs"]:
            if i["status"] == "not installed":
                lines.append(f"| {i['peer']} | (not installed) | | | | | | | | | | | | | |")
        if s["failed"]:
            lines += ["", f"Failed answers of this suite ({s['failed_total']}; the {len(s['failed'])} largest by "
                      "relative error):", "",
                      "| peer | knob | claim | case | answer | certified | relative error | verdict |",
                      "|---|---|---|---|---:|---|---:|---|"]
            for r in s["failed"]:
                c = r["certified"] or {}
                cert = (f"[{c.get('lower')}, {c.get('upper')}]" if isinstance(c, dict) else str(c))
                q = ""
                if suite == "optcomp" and r.get("direction"):
                    q = f", {'delta_g' if r['direction'] == 'epsilon' else 'eps_g'} = {r['query']!r}"
                sev = "float-level" if r["float_level"] else "material"
                lines.append(f"| {r['peer']} | {r['knob']} | {r['claim']} | {r['label'] or r['case']}{q} "
                             f"| {r['answer']!r} | {cert} | {_rel(r['relative'])} | {r['verdict']} ({sev}) |")
        lines.append("")
    lines.append(END)
    return "\n".join(lines)


HEAD_NOTE = ("Each peer's time is the median, over the cases it answered, of its wall time per case (one "
             "run answers all of a case's queries); exactdp's is the median of its certified answers over the "
             "same cases, and the ratio divides the first by the second: below 1, the peer is faster.")


def write_page(summary: dict) -> None:
    old = PAGE.read_text() if PAGE.exists() else "# Audits of other accountants\n\n" + START + "\n" + END + "\n"
    block = render(summary)
    pat = re.compile(re.escape(START) + ".*?" + re.escape(END), re.S)
    if pat.search(old):
        text = pat.sub(lambda _m: block, old)
    else:
        text = old.rstrip() + "\n\n" + block + "\n"
    PAGE.write_text(text)


def summarize_dir(d: str, note: str = "") -> dict:
    """The summary of the run in ``d``, with the page's head (date, versions, machine)."""
    from exactdp import __version__

    runs = load_dir(d)
    grids = {r["suite"]: r["meta"].get("grid", "full") for r in runs if r["meta"].get("grid")}
    expected = {s: expected_cases(s, grids.get(s, "full")) for s in {r["suite"] for r in runs}}
    summary = summarize(runs, expected=expected)
    for suite, s in summary["suites"].items():
        n = s["expected"] = expected.get(suite)
        s["scope"] = (f"Every knob over the {n} vectors of the shipped DP-SGD corpus (exactdp/corpus/dpsgd)."
                      if suite == "dpsgd" else
                      f"Every knob over the `{grids.get(suite, 'full')}` grid of `exactdp.audit.audit_grid` ({n} cases). "
                      "exactdp's times are for the grid's (eps, delta) compositions; the randomized-response knobs "
                      "hand their peer a mechanism of nearby rational e^eps, checked exactly.")
    machine = next((r["meta"]["machine"] for r in runs if r["meta"].get("machine")), "")
    starts = sorted(r["meta"]["started"] for r in runs if r["meta"].get("started"))
    walls = [r["meta"]["wall_seconds"] for r in runs if "wall_seconds" in r["meta"]]
    cpus = [r["meta"]["cpu_seconds"] for r in runs if "cpu_seconds" in r["meta"]]
    summary["head"] = {"date": starts[0][:10] if starts else datetime.date.today().isoformat(),
                       "wall_seconds": round(sum(walls), 1), "cpu_seconds": round(sum(cpus), 1),
                       "exactdp_version": __version__, "machine": machine, "note": (HEAD_NOTE + " " + note).strip()}
    return summary


def main(argv: list) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", help="a scoreboard run's folder (default: write the page from the stored summary)")
    ap.add_argument("--note", default="", help="a sentence for the page's head")
    a = ap.parse_args(argv)
    if a.dir:
        summary = summarize_dir(a.dir, a.note)
        SUMMARY.write_text(json.dumps(summary, indent=1, sort_keys=True) + "\n")
    else:
        summary = json.loads(SUMMARY.read_text())
    write_page(summary)
    print(f"wrote {PAGE} and {SUMMARY}" if a.dir else f"wrote {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
