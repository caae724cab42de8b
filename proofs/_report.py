"""Rendering of proof-check results: the markdown report and the coverage line.

The report is deterministic for a given code state (seeded instances, no
timings), so ``docs/proofs-report.md`` only changes when a check changes.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from pathlib import Path
from typing import Dict, List, Optional, Sequence

from ._framework import STATUSES, Check, statement_key

__all__ = ["numbered_statements", "paper_numbered", "paper_text_path", "coverage", "render_markdown", "render_table"]

_HEADING = re.compile(r"^(Definition|Theorem|Lemma|Fact|Corollary|Proposition|Claim) (\d+\.\d+)\s*$", re.M)


def paper_text_path(paper: str) -> Optional[Path]:
    """Path of the paper's plain text (``$EXACTDP_PAPERS`` or ``../shared/papers`` from the repo, or
    this package for statements kept in the repository), or None."""
    from ._papers import PAPERS

    fname = PAPERS[paper][1]
    roots = []
    if os.environ.get("EXACTDP_PAPERS"):
        roots.append(Path(os.environ["EXACTDP_PAPERS"]))
    here = Path(__file__).resolve().parent.parent
    roots += [here.parent / "shared" / "papers", here / "papers", Path(__file__).resolve().parent]
    for r in roots:
        if (r / fname).is_file():
            return r / fname
    return None


def numbered_statements(text: str) -> List[str]:
    """Distinct numbered statements ("Lemma 4.10") that head a line of the paper text, in paper order."""
    seen: Dict[str, None] = {}
    for m in _HEADING.finditer(text):
        seen.setdefault(f"{m.group(1)} {m.group(2)}", None)
    return sorted(seen, key=statement_key)


def paper_numbered(paper: str) -> List[str]:
    """The numbered statements of ``paper``: parsed from its text when it is at hand (by the
    paper package's own ``parse_numbered(text)`` when it has one, else by
    :func:`numbered_statements`), else the package's ``NUMBERED`` list."""
    from importlib import import_module

    pkg = import_module(f"{__package__}.{paper}")
    path = paper_text_path(paper)
    if path is None:
        return list(getattr(pkg, "NUMBERED", []))
    text = path.read_text(encoding="utf-8")
    parse = getattr(pkg, "parse_numbered", None)
    return list(parse(text)) if parse is not None else numbered_statements(text)


def coverage(paper: str, results: Sequence[Check], numbered: Optional[Sequence[str]] = None) -> dict:
    """Counts: numbered statements, how many have a check entry, by status; proof steps by status."""
    if numbered is None:
        numbered = paper_numbered(paper)
    by_id = {c.id: c for c in results if c.paper == paper}
    have = [s for s in numbered if s in by_id]
    st = Counter(by_id[s].status for s in have)
    steps = [c for c in results if c.paper == paper and c.is_step]
    defs = [s for s in have if s.startswith("Definition")]
    claims = [s for s in have if not s.startswith("Definition")]
    return {
        "numbered": len(numbered),
        "with_checks": len(have),
        "missing": [s for s in numbered if s not in by_id],
        "by_status": {k: st.get(k, 0) for k in STATUSES + ("error",) if st.get(k, 0) or k in STATUSES},
        # a definition's entry only shows that the definition and its code form agree: counted apart from the
        # statements that claim something (theorems, lemmas, ..., equations, footnotes)
        "definitions": len(defs),
        "definitions_by_status": dict(Counter(by_id[s].status for s in defs)),
        "claims": len(claims),
        "claims_by_status": dict(Counter(by_id[s].status for s in claims)),
        "steps": len(steps),
        "steps_by_status": dict(Counter(c.status for c in steps)),
    }


def _status_cell(c: Check) -> str:
    if c.status == "checked":
        return f"checked (N={c.instances})"
    if c.status == "refuted":
        ok = c.correction is not None and c.correction.status in ("verified", "checked")
        return "refuted, corrected" if ok else "refuted (no passing correction)"
    return c.status


def _coverage_line(cov: dict) -> str:
    parts = ", ".join(f"{v} {k}" for k, v in cov["by_status"].items())
    steps = ", ".join(f"{v} {k}" for k, v in sorted(cov["steps_by_status"].items()))
    line = (f"Coverage: {cov['numbered']} numbered statements in the paper; {cov['with_checks']} have checks "
            f"({parts}); plus {cov['steps']} checked steps inside proofs ({steps}).")
    if "definitions" in cov:
        line += (f" Counted apart: {cov['claims']} results (theorems, lemmas, corollaries, facts, claims, remarks, "
                 f"numbered equations and footnotes: {_counts(cov['claims_by_status'])}) and {cov['definitions']} "
                 f"definitions ({_counts(cov['definitions_by_status'])}; a definition's check only shows that the "
                 "definition and its code form agree).")
    if cov["missing"]:
        line += " Missing: " + ", ".join(cov["missing"]) + "."
    return line


def _counts(by_status: dict) -> str:
    return ", ".join(f"{v} {k}" for k, v in sorted(by_status.items())) or "none"


def _md(s: str) -> str:
    return s.replace("|", "\\|").replace("\n", " ")


def _impl(c: Check, implemented_by: Optional[dict]) -> str:
    fns = (implemented_by or {}).get((c.paper, c.id), [])
    return ", ".join(f"`{f}`" for f in fns)


def render_markdown(results: Sequence[Check], papers: Sequence[str], full: bool,
                    implemented_by: Optional[dict] = None) -> str:
    """The report written to ``docs/proofs-report.md``; ``implemented_by`` maps
    ``(paper, id)`` to the exactdp functions that implement the statement."""
    from ._papers import PAPERS

    out = [
        "# Proof checks",
        "",
        "Generated by `exactdp proofs" + (" --full" if full else "") + "` (do not edit by hand). Each numbered "
        "statement of a paper, and key steps inside its proofs, is transcribed as printed and checked:",
        "",
        "* **verified**: a symbolic proof (sympy) of the statement or step;",
        "* **checked (N=...)**: no counterexample in N exact (Fraction) or certified (Arb) instances;",
        "* **refuted**: an exact, minimised counterexample; the corrected statement is checked in turn "
        "(and listed in [errata.md](errata.md));",
        "* **not-checkable**: why not (e.g. a definition quantifying over all #P functions).",
        "",
    ]
    for paper in papers:
        rs = [c for c in results if c.paper == paper]
        cov = coverage(paper, rs)
        out += [f"## {PAPERS[paper][0]}", "", _coverage_line(cov), ""]
        out += ["| Statement | Status | Checked | Implemented by |", "|---|---|---|---|"]
        for c in rs:
            out.append(f"| {_md(c.id)} | {_status_cell(c)} | {_md(c.statement)} | {_impl(c, implemented_by)} |")
        out.append("")
        errs = [c for c in rs if c.status == "refuted"]
        if errs:
            out += ["### Errata found", ""]
            for c in errs:
                ce = c.evidence.split("\n")[0]
                out.append(f"* **{c.id}.** {ce}")
                if c.correction:
                    out.append(f"  *Correction ({c.correction.status}):* {c.correction.statement}")
            out.append("")
        out += ["### Details", ""]
        for c in rs:
            out += [f"#### {c.id}", "", f"*Statement:* {c.statement}", "", f"*Status:* {_status_cell(c)}", ""]
            if c.checks:
                out += ["*Checks:*", ""] + [f"* {_md(x)}" for x in c.checks] + [""]
            if c.evidence:
                out += ["*Evidence:* " + c.evidence.replace("\n", "  \n"), ""]
            if c.correction:
                k = c.correction
                out += [f"*Correction ({k.status}):* {k.statement}", ""]
                out += [f"* {_md(x)}" for x in k.checks] + [""]
                if k.evidence:
                    out += [k.evidence.replace("\n", "  \n"), ""]
    return "\n".join(out).rstrip() + "\n"


def render_table(results: Sequence[Check], show_time: bool = True, implemented_by: Optional[dict] = None) -> str:
    """Plain-text table for the terminal (with the implementing functions when given)."""
    w = max([len(c.id) for c in results] + [9])
    lines = [f"{'Statement'.ljust(w)}  {'Status'.ljust(26)}  {'time':>6}  implemented by"]
    for c in results:
        fns = ", ".join((implemented_by or {}).get((c.paper, c.id), []))
        lines.append(f"{c.id.ljust(w)}  {_status_cell(c).ljust(26)}  {c.seconds:6.2f}s  {fns}".rstrip())
    return "\n".join(lines)
