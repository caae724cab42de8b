"""``exactdp proofs``: run the executable checks of the papers' numbered statements.

Usage: ``exactdp proofs [--paper NAME] [--full] [--json] [--id TEXT] [--report PATH] [--state FILE] [--mutants]``.
The default run (what CI runs) is bounded (well under a minute); ``--full``
checks more instances. Prints a table with, per statement, the exactdp functions
that implement it (or, with ``--json``, ``{"results": [{"paper", "id", "statement",
"status", "checks", "evidence", "correction", "implemented_by"}, ...]}``); with
``--report PATH`` also the markdown report (the committed ``docs/proofs-report.md``
is written by ``make proofs-report``). ``--progress`` prints a line per entry as it is
settled; ``--state FILE`` makes the run resumable (entries settled by an earlier run with the
same ``--full`` and exactdp version are read back, not run again). Exit status 0 when every
entry is conclusive (a refutation counts only with a correction whose own check
passes), 1 otherwise, 2 on bad arguments.

``--mutants`` runs the mutation tests of the checks instead (issue 27; every mutant of
the selected papers / ids, cross-checks off) and prints each outcome and the score per
paper (``--json``: ``{"mutants": [...]}``); ``--report PATH`` then writes only the
report's mutation section (the checks part of PATH is kept, and a plain ``--report``
keeps PATH's mutation section). Exit status 0 when every mutant is killed (declared
true edits must survive), 1 otherwise.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from ..errors import InvalidArgument

DEFAULT_REPORT = "docs/proofs-report.md"


def register(sub) -> None:
    p = sub.add_parser(
        "proofs",
        help="check every numbered statement of the papers (proofs/), report errata",
        description="Run the executable checks in proofs/ (one per numbered statement and key proof steps); "
                    "--report PATH also writes the markdown report.",
    )
    p.add_argument("--paper", metavar="NAME", default=None, help="only this paper (e.g. murtagh_vadhan); default: all")
    p.add_argument("--full", action="store_true", help="check more instances (slower)")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--id", metavar="TEXT", default=None, help="only entries whose id contains TEXT (no report written "
                   "unless --report is given)")
    p.add_argument("--report", metavar="PATH", default=None,
                   help=f"also write the markdown report to PATH (the committed one is {DEFAULT_REPORT}: "
                        "`make proofs-report`); default: no report")
    p.add_argument("--state", metavar="FILE", default=None,
                   help="resumable: each settled entry is appended to FILE; a later run with the same FILE "
                        "(and --full) reads them back instead of running them again")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--progress", dest="progress", action="store_true", default=None,
                   help="one line on stderr per entry as it is settled (default: when stderr is a terminal)")
    g.add_argument("--no-progress", dest="progress", action="store_false", help="no progress lines")
    p.add_argument("--mutants", action="store_true",
                   help="run the mutation tests of the checks (false edits each check must refute on its own; "
                        "`make proofs-mutants`: all of them, with the report section)")
    p.set_defaults(func=run)


def _papers(name):
    from exactdp_proofs._papers import PAPERS

    if name is None:
        return list(PAPERS)
    key = name.replace("-", "_").lower()
    if key not in PAPERS:
        raise InvalidArgument("paper", "one of " + ", ".join(PAPERS), name)
    return [key]


def run(args) -> int:
    """Run the checks; see the module docstring for output and exit status."""
    from .common import check_outputs, emit_json

    papers = _papers(args.paper)
    report = args.report
    if report and report != "-":
        check_outputs(args, files=["report"])  # before the checks run: a folder or a device is refused
    check_outputs(args, files=["state"])
    from exactdp_proofs._framework import entries, run_entry
    from exactdp_proofs._report import coverage, render_markdown, render_table

    todo = [(paper, id, text, fn) for paper in papers for id, text, fn in entries(paper)
            if args.id is None or args.id.lower() in id.lower()]
    if not todo:
        # a typo in --id must not pass as "0 entries, all conclusive" (refused before any check runs)
        raise InvalidArgument("--id", "a text contained in at least one entry id (e.g. 'Theorem 1.5')", repr(args.id))
    from exactdp.links import links, parse_link

    implemented: dict = {}
    for stmt, fns in links().items():
        implemented.setdefault(parse_link(stmt), []).extend(fns)
    if args.mutants:
        return _run_mutants(args, papers, report)
    show = sys.stderr.isatty() if args.progress is None else args.progress
    from exactdp import __version__
    from exactdp.jobs import Appender, read_state

    header = {"exactdp_proofs": 1, "full": bool(args.full), "exactdp_version": __version__}
    done = read_state(args.state, header, what="--state") if args.state else {}
    app = Appender(args.state, header)
    t0 = time.perf_counter()
    results = []
    try:
        for i, (paper, id, text, fn) in enumerate(todo, 1):
            key = f"{paper}|{id}"
            if key in done:
                c, how = _check_of(done[key]), "(from --state)"
            else:
                c = run_entry(paper, id, text, fn, args.full)
                how = f"({c.seconds:.1f} s)"
                if c.status != "error":  # an entry that crashed is run again next time
                    app.write(_record_of(c, key))
            results.append(c)
            if show:  # each result as it is settled
                sys.stderr.write(f"[{i}/{len(todo)}] {paper} {id}: {c.status}{'' if c.settled else ' (inconclusive)'} "
                                 f"{how}\n")
                sys.stderr.flush()
    finally:
        app.close()
    elapsed = time.perf_counter() - t0

    if report and report != "-":
        from exactdp_proofs._mutants import join_report, split_report

        old = Path(report).read_text(encoding="utf-8") if Path(report).is_file() else ""
        _write(report, join_report(render_markdown(results, papers, args.full, implemented), split_report(old)[1]))

    if args.json:
        emit_json({"results": [{**c.to_dict(), "implemented_by": implemented.get((c.paper, c.id), [])} for c in results]})
    else:
        print(render_table(results, implemented_by=implemented))
        for paper in papers:
            if args.id is not None and not any(c.paper == paper for c in results):
                continue  # --id matched nothing in this paper
            cov = coverage(paper, [c for c in results if c.paper == paper])
            st = ", ".join(f"{v} {k}" for k, v in cov["by_status"].items())
            print(f"{paper}: {cov['with_checks']}/{cov['numbered']} numbered statements checked ({st}; "
                  f"{cov['claims']} results, {cov['definitions']} definitions); {cov['steps']} proof steps")
        bad = [c for c in results if not c.settled]
        print(f"{len(results)} entries in {elapsed:.1f}s" + (f"; {len(bad)} inconclusive: " + ", ".join(c.id for c in bad)
                                                              if bad else "; all conclusive")
              + (f"; report: {report}" if report and report != "-" else ""))
    return 0 if all(c.settled for c in results) else 1


def _record_of(c, key: str) -> dict:
    """A settled entry as a JSON record of the state file."""
    import dataclasses

    return {"key": key, **dataclasses.asdict(c)}


def _check_of(rec: dict):
    """The entry a state-file record holds."""
    from exactdp_proofs._framework import Check, Correction

    d = {k: v for k, v in rec.items() if k != "key"}
    if d.get("correction") is not None:
        d["correction"] = Correction(**d["correction"])
    return Check(**d)


def _write(report: str, text: str) -> None:
    """Write the report atomically (never half-written; a link is followed, a folder or a device refused)."""
    from exactdp.jobs import write_atomic

    write_atomic(report, text.split("\n")[:-1] if text.endswith("\n") else text.split("\n"), "--report")


def _run_mutants(args, papers, report) -> int:
    from exactdp_proofs._mutants import join_report, render_mutants_markdown, render_mutants_table, run_mutants, split_report

    from .common import emit_json

    t0 = time.perf_counter()
    results = run_mutants(papers, only=args.id, full=args.full)
    elapsed = time.perf_counter() - t0
    if args.id is not None and not results:
        raise InvalidArgument("--id", "a text contained in the entry id of at least one mutant", repr(args.id))
    if report and report != "-":
        old = Path(report).read_text(encoding="utf-8") if Path(report).is_file() else ""
        _write(report, join_report(split_report(old)[0], render_mutants_markdown(results, papers)))
    if args.json:
        emit_json({"mutants": [r.to_dict() for r in results]})
    else:
        print(render_mutants_table(results, papers))
        bad = [r for r in results if r.outcome not in ("killed", "true")]
        print(f"{len(results)} mutants in {elapsed:.1f}s" + (f"; {len(bad)} not killed" if bad else "; all killed")
              + (f"; report: {report}" if report and report != "-" else ""))
    return 0 if all(r.outcome in ("killed", "true") for r in results) else 1
