"""The code of :mod:`exactdp.audit`: running an audit of peer accountants (the package docstring describes it)."""

from __future__ import annotations

import json
import math
import os
import statistics
from typing import Callable, Optional, Sequence

from ..errors import InvalidArgument
from ..jobs import check_scheduler, output_file, read_state, run_tasks, write_atomic
from ..numbers import parse_choice
from ..numbers.parse import as_scalar
from .peers import PEERS, peer, peer_version, require_peer, timed_run, unsupported

__all__ = ["audit_grid", "run_audit", "summarize", "markdown", "audit_case", "GRIDS", "AUDIT_VERSION"]

AUDIT_VERSION = 1
GRIDS = ("quick", "full")


def _eps_g_for(groups: list) -> list:
    """Two eps_g for the delta direction: OptComp at delta_g = 1e-3 and 1e-6, to 2 significant digits
    (a float), so the least delta_g is of those sizes; half the sum of eps_i when OptComp is infinite."""
    from ..events import Composition, Mechanism
    from ..testing.check import Case, optimum

    comp = Composition([(Mechanism(eps=e, delta=d), n) for e, d, n in groups])
    out = []
    for dg in (1e-3, 1e-6):
        o = optimum(Case.of(comp, dg), 6)
        x = float(o.upper) if not o.infinite else 0.5 * sum(e * n for e, _, n in groups)
        v = float(f"{x:.2g}")
        if v not in out:
            out.append(v)
    return out


def audit_grid(grid: str = "full") -> list[dict]:
    """The cases of an audit grid: ``{"id", "label", "groups": [[eps, delta, count], ...],
    "delta_g": [...], "eps_g": [...]}``, every number a float.

    ``full``: pure eps in {0.1, 1} and k in {1, 10, ..., 10^4} (and 10^5 for eps = 0.1, one
    delta_g and one eps_g); approximate (0.1, 1e-8) to
    k = 10^4; a small eps (1e-4); a heterogeneous lattice (eps 0.1, 0.2, 0.4, k to 3000); a
    heterogeneous approximate mix; delta_g in {1e-3, 1e-6, 1e-9} (and 1e-10 at k = 10^3), two eps_g per case.
    ``quick``: a handful of small cases.

    Guarantee: exact (the cases). Raises: InvalidArgument (unknown grid).

    Examples:
        >>> [c["id"] for c in audit_grid("quick")][:2]
        ['pure-0.1-k1', 'pure-0.1-k10']
    """
    parse_choice(grid, "grid", GRIDS)
    cases: list[dict] = []

    def add(cid: str, label: str, groups: list, dgs: list) -> None:
        cases.append({"id": cid, "label": label, "groups": groups, "delta_g": dgs, "eps_g": _eps_g_for(groups)})

    if grid == "quick":
        for k in (1, 10, 100):
            add(f"pure-0.1-k{k}", "pure, homogeneous", [[0.1, 0.0, k]], [1e-3, 1e-6])
        add("approx-0.5-k10", "approximate, homogeneous", [[0.5, 1e-6, 10]], [1e-3, 1e-6])
        add("lattice-n3", "pure, heterogeneous", [[0.1, 0.0, 3], [0.2, 0.0, 3], [0.4, 0.0, 3]], [1e-3])
        return cases
    dgs = [1e-3, 1e-6, 1e-9]
    dgs_k1000 = dgs + [1e-10]  # where dp_accounting's PLD at 1e-4 is materially optimistic
    for eps in (0.1, 1.0):
        for k in (1, 10, 100, 1000, 10_000):
            add(f"pure-{eps}-k{k}", "pure, homogeneous", [[eps, 0.0, k]], dgs_k1000 if k == 1000 else dgs)
    # k = 10^5: one delta_g (exactdp's optimum takes about 15 s per query there)
    cases.append({"id": "pure-0.1-k100000", "label": "pure, homogeneous", "groups": [[0.1, 0.0, 100_000]],
                  "delta_g": [1e-6], "eps_g": [650.0]})
    for k in (1, 10, 100, 1000, 10_000):
        add(f"approx-0.1-1e-8-k{k}", "approximate, homogeneous", [[0.1, 1e-8, k]], dgs_k1000 if k == 1000 else dgs)
    for k in (1, 10):
        add(f"pure-1e-4-k{k}", "pure, homogeneous, small eps", [[1e-4, 0.0, k]], dgs)
    for n in (1, 10, 100, 1000):
        add(f"lattice-n{n}", "pure, heterogeneous", [[0.1, 0.0, n], [0.2, 0.0, n], [0.4, 0.0, n]],
            dgs_k1000 if n == 1000 else dgs)
    for n in (1, 10):
        add(f"mixed-n{n}", "approximate, heterogeneous", [[0.1, 0.0, n], [0.5, 1e-9, n], [1.0, 1e-8, n]], dgs)
    return cases


def audit_case(peer_name: str, knob: str, case: dict, digits: int = 20) -> dict:
    """Run one knob of one peer on one case (every query of both directions) and decide each answer.

    Returns ``{"records": [...]}``, one record per (direction, query, answer): peer, version, knob,
    case, the answer, its verdict (status, optimum, margin, relative excess), the peer's time and
    reproductions (``exactdp certify`` and the peer's Python call). A peer that raises gives
    ``"error"`` records; an unsupported knob an ``"unsupported"`` record.

    Guarantee: each status an exact decision (:func:`exactdp.testing.decide`). Raises: nothing
    for the peer's failures.
    """
    from ..testing.check import Case, decide

    p = peer(peer_name)
    version = peer_version(p.dist) if p.module else __import__("exactdp").__version__
    groups = [tuple(g) for g in case["groups"]]
    base = {"peer": peer_name, "version": version, "knob": knob, "case": case["id"], "label": case["label"],
            "k": sum(n for _, _, n in groups), "groups": [list(g) for g in groups]}
    why = unsupported(p, knob, groups)
    if why:
        return {"records": [{**base, "status": "unsupported", "reason": why}]}
    try:
        out, seconds = timed_run(p, knob, groups, list(case["delta_g"]), list(case["eps_g"]))
    except Exception as e:  # the peer's failure is a finding
        return {"records": [{**base, "status": "error", "reason": f"{type(e).__name__}: {str(e)[:300]}"}]}
    comp = p.composition(knob, groups)
    recs = []
    for direction in ("epsilon", "delta"):
        for q, answers in out[direction].items():
            for name, value in answers.items():
                value = as_scalar(value)
                v = decide(Case.of(comp, q, direction), value, digits=digits)
                d = v.to_dict(digits)
                recs.append({**base, "direction": direction, "query": q, "answer_name": name,
                             "answer": value if isinstance(value, (int, float)) and math.isfinite(value) else repr(value),
                             "status": v.status, "optimum": d["optimum"], "margin": d["margin"], "excess": d["excess"],
                             "seconds": round(seconds, 6), "reason": v.reason,
                             "reproduce": d["reproduce"], "python": p.python(knob, groups, direction, q)})
    return {"records": recs}


def run_audit(peers: Sequence[str], grid: str = "full", *, out: Optional[str] = None, scheduler: Optional[str] = None,
              workers: Optional[int] = None, progress: bool = False, knobs: Optional[Sequence[str]] = None,
              on_result: Optional[Callable[[dict], None]] = None) -> list[dict]:
    """Audit ``peers`` on ``grid``; return every record (in grid order).

    With ``out``, records are appended to ``out + ".partial"`` as tasks finish (resumable) and
    ``out`` is written atomically at the end (one record per line).

    Guarantee: as :func:`audit_case`; the records (times aside) do not depend on resumption or
    the scheduler.

    Raises:
        InvalidArgument: an unknown or missing peer (with the pip command), a bad grid or knob,
            an ``out`` that is a folder, a device or in a missing folder (before any work).
    """
    from .. import __version__

    if out is not None:  # before any work: a folder, a device or a missing folder is refused
        output_file(out, "--out")
        output_file(out + ".partial", "--out")
    if scheduler is not None:
        check_scheduler(scheduler)
    cases = audit_grid(grid)
    tasks = []
    for name in peers:
        p = require_peer(name)
        ks = list(p.knobs)
        if knobs:
            ks = [k for k in knobs if k in p.knobs]
            if not ks:
                raise InvalidArgument("--knob", f"one of {', '.join(p.knobs)} for {name}", ", ".join(knobs))
        for knob in ks:
            for c in cases:
                tasks.append((f"{name}|{knob}|{c['id']}", (name, knob, c)))
    header = {"exactdp_audit": AUDIT_VERSION, "grid": grid, "peers": list(peers), "knobs": list(knobs or []),
              "exactdp_version": __version__,
              "peer_versions": {n: peer_version(PEERS[n].dist) for n in peers}}
    return run_audit_tasks(audit_case, tasks, out=out, header=header, scheduler=scheduler, workers=workers,
                           progress=progress, on_result=on_result)


def run_audit_tasks(fn, tasks: list, *, out, header: dict, scheduler, workers, progress, on_result=None) -> list[dict]:
    """Run the peer tasks (resuming ``out + ".partial"``, on Dask when asked) and write the records
    to ``out`` once all are done; the records in task order. Guarantee: exact (the tasks' records).
    Raises: InvalidArgument (a state file of another audit; tasks lost to killed workers)."""
    partial = out + ".partial" if out else None
    if partial and os.path.exists(partial):
        read_state(partial, header, what="--out")
    res = run_tasks(fn, tasks, state=partial, header=header, scheduler=scheduler, workers=workers,
                    progress=progress, what="peer runs", on_result=on_result)
    records = [r for key, _ in tasks if key in res for r in res[key]["records"]]
    if out:
        if any(key not in res for key, _ in tasks):
            raise InvalidArgument("--out", "a complete audit", "tasks lost to killed workers: run again to resume")
        write_atomic(out, [json.dumps(r, sort_keys=True) for r in records])
        os.unlink(partial)  # type: ignore[arg-type]
    return records


def summarize(records: list[dict]) -> list[dict]:
    """Per (peer, knob, answer): answers, unsound, undecided, errors, the largest relative error
    below and above the optimum, the median time. Guarantee: exact counts. Raises: nothing."""
    rows: dict = {}
    for r in records:
        key = (r["peer"], r["knob"], r.get("answer_name", "-"))
        row = rows.setdefault(key, {"peer": r["peer"], "version": r["version"], "knob": r["knob"],
                                    "answer": r.get("answer_name", "-"), "answers": 0, "sound": 0, "unsound": 0,
                                    "undecided": 0, "error": 0, "unsupported": 0, "worst_below": 0.0,
                                    "worst_above": 0.0, "seconds": []})
        st = r["status"]
        row[st] = row.get(st, 0) + 1
        if st in ("sound", "unsound", "undecided"):
            row["answers"] += 1
            ex = r.get("excess")
            if isinstance(ex, (int, float)):
                if ex < 0:
                    row["worst_below"] = min(row["worst_below"], ex)
                else:
                    row["worst_above"] = max(row["worst_above"], ex)
            elif ex in ("inf", "-inf"):
                row["worst_above" if ex == "inf" else "worst_below"] = math.inf if ex == "inf" else -math.inf
            row["seconds"].append(r["seconds"])
    for r in records:  # a case a knob does not run counts against each of the knob's answers
        if r["status"] == "unsupported":
            mine = [k for k in rows if k[:2] == (r["peer"], r["knob"]) and k[2] != "-"]
            for k in mine:
                rows[k]["unsupported"] += 1
            if mine:
                rows[(r["peer"], r["knob"], "-")]["unsupported"] -= 1
    out = []
    for key, row in rows.items():
        if key[2] == "-" and row["unsupported"] == 0 and row["answers"] == 0 and row["error"] == 0:
            continue
        s = row.pop("seconds")
        row["median_seconds"] = statistics.median(s) if s else None
        out.append(row)
    return out


def fmt_rel(x: float, digits: int = 1) -> str:
    """A signed relative error for the audit tables: ``0``, ``+-inf`` or ``+1.2e-03`` (``digits``
    after the point). Guarantee: exact formatting of the float. Raises: nothing."""
    if x == 0:
        return "0"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return f"{x:+.{digits}e}"


def _optimum_text(opt: dict, digits: int = 6) -> str:
    """An optimum's enclosure ``{"lower", "upper"}`` (decimal strings) for a table: ``digits``
    significant digits, rounded outward, exponent kept (``[8.82675e-20, 8.82676e-20]``)."""
    if opt["lower"] == "inf":
        return "inf"
    from ..numbers import fraction_to_decimal, parse_rational

    lo, hi = parse_rational(opt["lower"], "optimum"), parse_rational(opt["upper"], "optimum")
    a, b = fraction_to_decimal(lo, digits, "down"), fraction_to_decimal(hi, digits, "up")
    return f"{a} (exact)" if lo == hi and parse_rational(a, "optimum") == lo else f"[{a}, {b}]"


def markdown(records: list[dict], *, max_unsound: int = 40) -> str:
    """The summary table and the unsound answers (with reproductions) as Markdown.

    Guarantee: exact counts; relative errors approximate (3 digits). Raises: nothing.
    """
    lines = ["| peer (version) | knob | answer | answers | unsound | undecided | errors | not run "
             "| worst below optimum | worst above optimum | median time per run (s) |",
             "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in summarize(records):
        t = f"{r['median_seconds']:.3g}" if r["median_seconds"] is not None else "-"
        lines.append(f"| {r['peer']} ({r['version']}) | {r['knob']} | {r['answer']} | {r['answers']} | {r['unsound']} "
                     f"| {r['undecided']} | {r['error']} | {r['unsupported']} | {fmt_rel(r['worst_below'])} "
                     f"| {fmt_rel(r['worst_above'])} | {t} |")
    bad = [r for r in records if r["status"] == "unsound"]
    bad.sort(key=lambda r: (r["excess"] if isinstance(r["excess"], float) else -math.inf))
    if bad:
        lines += ["", f"Unsound answers ({len(bad)}; the {min(len(bad), max_unsound)} worst by relative error):", "",
                  "| peer | knob | answer | case | query | peer's answer | optimum (certified) | relative error |",
                  "|---|---|---|---|---|---:|---|---:|"]
        for r in bad[:max_unsound]:
            q = f"delta_g = {r['query']!r}" if r["direction"] == "epsilon" else f"eps_g = {r['query']!r}"
            opt = r["optimum"]
            o = _optimum_text(opt)
            lines.append(f"| {r['peer']} | {r['knob']} | {r['answer_name']} | {r['case']} | {q} | {r['answer']!r} | {o} "
                         f"| {fmt_rel(r['excess']) if isinstance(r['excess'], float) else r['excess']} |")
    errs = [r for r in records if r["status"] == "error"]
    if errs:
        lines += ["", "Errors:", ""] + [f"* {r['peer']} {r['knob']} {r['case']}: {r['reason']}" for r in errs[:20]]
    return "\n".join(lines)

