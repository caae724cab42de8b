"""Mutation testing of the checks (issue 27): can a check refute a false statement on its own?

A *mutant* is a copy of one function of a check (the transcription of a statement, of
its correction, or of a formula the check compares with) with one printed detail made
false: a constant scaled, a term dropped, an inequality's direction or strictness
flipped, a hypothesis weakened. It is written as a textual edit of the function's
source (``old`` -> ``new``, which must occur exactly once in the function's body), so a
mutant reads like the mis-transcription it stands for and breaks loudly when the check
it mutates is rewritten.

A mutant is **killed** when the entry, run with the mutated function and with the
exactdp cross-checks off (:attr:`Proof.crosscheck`: the library is not consulted, so
only the transcription can refute), reports the false statement:

* ``part="statement"``: the entry's status is ``refuted`` (for an entry whose printed
  statement is already refuted, the mutated, still false statement must stay refuted);
* ``part="correction"``: the correction's own check is ``refuted``.

Otherwise it **survived** (status ``checked``/``verified``: the check did not notice) or
is an ``error`` (the check raised: not a refutation, so not killed either). A mutant
whose mutated function is never called is a defect of the mutant (``unreached``).

A paper's mutants are the list ``MUTANTS`` of its ``_mutants.py``, built with
:func:`mutant`. ``exactdp proofs --mutants`` runs them (``make proofs-mutants``: all of
them, with the report section); the test suite runs a bounded sample.

Guarantee: a kill is a recorded counterexample of the entry's own (exact or certified)
check; nothing here decides mathematics.
"""

from __future__ import annotations
import __future__

import ast
import importlib
import inspect
import textwrap
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable, Iterator, List, Optional, Sequence

from ._framework import Check, entries, run_entry

__all__ = ["KINDS", "Mutant", "MutantResult", "mutant", "mutants", "run_mutant", "run_mutants", "score",
           "render_mutants_table", "render_mutants_markdown", "MARKER", "split_report", "join_report"]

#: The kinds of edit (issue 27's list).
KINDS = ("constant", "term", "inequality", "hypothesis")

#: The heading that starts the mutation section of docs/proofs-report.md.
MARKER = "## Mutation testing of the checks"


@dataclass(frozen=True)
class Mutant:
    """One false variant of a check's transcription.

    ``paper``/``entry``: the entry whose check must refute it; ``module`` (relative to the
    paper's package, e.g. ``"_bounds"``) and ``function`` (a top-level function there) say
    what is edited, ``old`` -> ``new`` how; ``kind`` is one of :data:`KINDS`; ``name`` says
    in words which false statement the edit makes; ``part`` is ``"statement"`` or
    ``"correction"`` (the corrected statement of a refuted entry). ``true`` (non-empty) says why the edit
    turns out to be a *true* statement: then it is not a mutant, is not counted in the score, and must
    survive (a refutation of a true statement would be a defect of the check)."""

    paper: str
    entry: str
    kind: str
    name: str
    module: str
    function: str
    old: str
    new: str
    part: str = "statement"
    true: str = ""

    @property
    def key(self) -> str:
        return f"{self.entry} :: {self.name}"


def mutant(paper: str, entry: str, kind: str, name: str, module: str, function: str, old: str, new: str,
           part: str = "statement", true: str = "") -> Mutant:
    """Declare a mutant (see :class:`Mutant`); the kind and part are validated here."""
    if kind not in KINDS:
        raise ValueError(f"mutant kind must be one of {KINDS}: {kind!r}")
    if part not in ("statement", "correction"):
        raise ValueError(f"mutant part must be 'statement' or 'correction': {part!r}")
    if old == new:
        raise ValueError(f"a mutant must change its function: {name!r}")
    return Mutant(paper, entry, kind, name, module, function, old, new, part, true)


def mutants(paper: str) -> List[Mutant]:
    """The mutants of ``paper`` (its ``_mutants.MUTANTS``; none if it has no such module)."""
    try:
        mod = importlib.import_module(f"{__package__}.{paper}._mutants")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.endswith("._mutants"):
            return []
        raise
    return list(mod.MUTANTS)


# --------------------------------------------------------------------------
# building a mutated function

_FLAGS = __future__.annotations.compiler_flag


def mutated_function(module, name: str, old: str, new: str) -> Callable:
    """Compile a copy of the top-level function ``module.name`` (defined there or imported) with ``old`` replaced by ``new``
    in its body (decorators dropped: the copy is not registered anywhere). Raises ValueError
    unless ``old`` occurs exactly once in the body."""
    fn = inspect.unwrap(getattr(module, name))
    lines, first = inspect.getsourcelines(fn)
    src = textwrap.dedent("".join(lines))
    tree = ast.parse(src)
    fdef = tree.body[0]
    if not isinstance(fdef, ast.FunctionDef):
        raise ValueError(f"{module.__name__}.{name} is not a function")
    body_lines = src.splitlines(keepends=True)
    head, body = "".join(body_lines[:fdef.lineno - 1]), "".join(body_lines[fdef.lineno - 1:])
    n = body.count(old)
    if n != 1:
        raise ValueError(f"mutant text occurs {n} times (must be once) in {module.__name__}.{name}: {old!r}")
    # keep the line numbers of the original (blank lines in place of the decorators)
    src2 = "\n" * head.count("\n") + body.replace(old, new)
    tree2 = ast.parse(src2)
    ast.increment_lineno(tree2, first - 1)
    code = compile(tree2, inspect.getsourcefile(fn) or "<mutant>", "exec", flags=_FLAGS, dont_inherit=True)
    ns: dict = {}
    exec(code, fn.__globals__, ns)  # the globals of the module that defines it (``module`` may import it)
    return ns[fdef.name]


@contextmanager
def applied(m: Mutant) -> Iterator[dict]:
    """Within the block, ``module.function`` is the mutated copy (wrapped to count its calls); yields
    ``{"fn": the wrapper, "calls": count, "original": the original}``."""
    module = importlib.import_module(f"{__package__}.{m.paper}.{m.module}")
    original = getattr(module, m.function)
    new = mutated_function(module, m.function, m.old, m.new)
    state = {"calls": 0, "original": original}

    def wrapper(*args, **kwargs):
        state["calls"] += 1
        return new(*args, **kwargs)

    wrapper.__name__ = new.__name__
    wrapper.__wrapped_mutant__ = new  # type: ignore[attr-defined]
    state["fn"] = wrapper
    setattr(module, m.function, wrapper)
    try:
        yield state
    finally:
        setattr(module, m.function, original)


# --------------------------------------------------------------------------
# running


@dataclass
class MutantResult:
    """The outcome of one mutant: ``outcome`` is ``killed``, ``survived``, ``error``, ``unreached``, or ``true``
    (a declared true edit that, as it must, survived: not counted);
    ``check`` is the mutated entry's result (cross-checks off)."""

    mutant: Mutant
    outcome: str
    check: Optional[Check]
    seconds: float
    detail: str = ""

    def to_dict(self) -> dict:
        m = self.mutant
        return {"paper": m.paper, "entry": m.entry, "kind": m.kind, "name": m.name, "part": m.part,
                "module": m.module, "function": m.function, "outcome": self.outcome,
                "status": self.check.status if self.check else None,
                "correction_status": self.check.correction.status if self.check and self.check.correction else None,
                "detail": self.detail}


def _first_counterexample(c: Check, part: str) -> str:
    ev = c.correction.evidence if part == "correction" and c.correction else c.evidence
    line = ev.split("\n")[0]
    return line[:300] + ("..." if len(line) > 300 else "")


def run_mutant(m: Mutant, full: bool = False) -> MutantResult:
    """Run the entry of ``m`` with the mutant applied and the cross-checks off; classify the outcome."""
    es = {e[0]: e for e in entries(m.paper)}
    if m.entry not in es:
        return MutantResult(m, "error", None, 0.0, f"no entry {m.entry!r} in {m.paper}")
    id, text, fn = es[m.entry]
    t0 = time.perf_counter()
    try:
        with applied(m) as st:
            run_fn = st["fn"] if st["original"] is fn else fn
            c = run_entry(m.paper, id, text, run_fn, full=full, crosscheck=False)
    except ValueError as exc:  # the mutant's text no longer matches its function
        return MutantResult(m, "error", None, time.perf_counter() - t0, str(exc))
    dt = time.perf_counter() - t0
    if st["calls"] == 0:
        return MutantResult(m, "unreached", c, dt, f"{m.module}.{m.function} was never called by the entry")
    if m.part == "correction":
        if c.correction is None:
            return MutantResult(m, "error", c, dt, f"no correction recorded (status {c.status})")
        st_ = c.correction.status
    else:
        st_ = c.status
    if m.true:
        if st_ == "refuted":
            return MutantResult(m, "error", c, dt, "declared true, but refuted: " + _first_counterexample(c, m.part))
        return MutantResult(m, "true", c, dt, m.true)
    if st_ == "refuted":
        return MutantResult(m, "killed", c, dt, _first_counterexample(c, m.part))
    if st_ == "error":
        ev = c.correction.evidence if m.part == "correction" and c.correction else c.evidence
        return MutantResult(m, "error", c, dt, ev.split("\n")[0][:300])
    return MutantResult(m, "survived", c, dt, f"{m.part} status {st_}")


def run_mutants(papers: Sequence[str], only: Optional[str] = None, full: bool = False,
                select: Optional[Callable[[Mutant], bool]] = None) -> List[MutantResult]:
    """Run the mutants of ``papers`` (those whose entry id contains ``only``, and that ``select`` keeps)."""
    out = []
    for paper in papers:
        for m in mutants(paper):
            if only is not None and only.lower() not in m.entry.lower():
                continue
            if select is not None and not select(m):
                continue
            out.append(run_mutant(m, full))
    return out


def score(results: Sequence[MutantResult], paper: str) -> tuple:
    """(killed, total) for ``paper``; declared-true edits are not mutants and not counted."""
    rs = [r for r in results if r.mutant.paper == paper and not r.mutant.true]
    return sum(r.outcome == "killed" for r in rs), len(rs)


def _score_line(results, papers) -> List[str]:
    lines = []
    for paper in papers:
        k, n = score(results, paper)
        if n:
            entries_ = len({r.mutant.entry.split(" (proof: ")[0] for r in results if r.mutant.paper == paper
                            and not r.mutant.true})
            lines.append(f"{paper}: {k}/{n} mutants killed ({entries_} numbered statements)")
    real = [r for r in results if not r.mutant.true]
    k = sum(r.outcome == "killed" for r in real)
    true = sum(r.outcome == "true" for r in results)
    lines.append(f"total: {k}/{len(real)} mutants killed" + (f"; {true} edits shown true (not mutants)" if true else ""))
    return lines


def render_mutants_table(results: Sequence[MutantResult], papers: Sequence[str]) -> str:
    """Plain-text table for the terminal, then the score per paper."""
    w = max([len(r.mutant.entry) for r in results] + [5])
    lines = [f"{'Entry'.ljust(w)}  {'kind'.ljust(10)}  {'outcome'.ljust(9)}  {'time':>6}  mutant"]
    for r in results:
        m = r.mutant
        lines.append(f"{m.entry.ljust(w)}  {m.kind.ljust(10)}  {r.outcome.ljust(9)}  {r.seconds:5.2f}s  {m.name}"
                     + ("" if r.outcome == "killed" else f"  [{r.detail}]"))
    return "\n".join(lines + _score_line(results, papers))


def render_mutants_markdown(results: Sequence[MutantResult], papers: Sequence[str]) -> str:
    """The mutation section of docs/proofs-report.md (deterministic: no timings)."""
    from ._papers import PAPERS

    out = [MARKER, "",
           "Generated by `make proofs-mutants` (`exactdp proofs --mutants --report docs/proofs-report.md`; do not edit "
           "by hand). Each mutant is one false edit of a check's transcription (a constant scaled, a term dropped, an "
           "inequality flipped, a hypothesis weakened); it is **killed** when the entry's own check, with the exactdp "
           "cross-checks off, refutes it (a `correction` mutant: the corrected statement's check refutes it).", ""]
    out += [f"* {line}" for line in _score_line(results, papers)] + [""]
    for paper in papers:
        rs = [r for r in results if r.mutant.paper == paper]
        if not rs:
            continue
        k, n = score(results, paper)
        out += [f"### {PAPERS[paper][0]}: {k}/{n} killed", "", "| Entry | Kind | Part | Mutant | Outcome |",
                "|---|---|---|---|---|"]
        for r in rs:
            m = r.mutant
            name = m.name + (f" (true: {m.true})" if m.true else "")
            out.append(f"| {_md(m.entry)} | {m.kind} | {m.part} | {_md(name)} | {r.outcome} |")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def split_report(text: str) -> tuple:
    """(checks part, mutation section) of a report text; the section starts at :data:`MARKER` ('' if absent)."""
    i = text.find("\n\n" + MARKER + "\n")
    if i < 0:
        return text, ""
    return text[:i + 1], text[i + 2:]


def join_report(head: str, section: str) -> str:
    """The report: the checks part, then (if any) the mutation section after one blank line."""
    return head if not section else head.rstrip("\n") + "\n\n" + section


def _md(s: str) -> str:
    return s.replace("|", "\\|").replace("\n", " ")
