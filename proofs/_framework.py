"""The proof-checking framework: result types, the statement registry, the runner.

A paper's subpackage (``proofs/<paper>/``) holds one module per numbered
statement. Each module registers one or more *entries* with :func:`statement`:
the printed statement itself and, separately, key steps inside its proof. An
entry is a function ``fn(p: Proof) -> None`` that transcribes the statement or
step as printed and checks it, recording what it did on ``p``:

* ``p.verified(what)`` a symbolic proof of the statement or step (sympy),
* ``p.instances(what, n)`` ``n`` exact (or certified) instances, no counterexample,
* ``p.refute(what, counterexample)`` an exact, minimised counterexample,
* ``p.not_checkable(why)`` the statement is not machine-checkable (why),
* ``p.correct(statement, fn)`` the corrected statement and its own check.

A failed comparison inside an entry is reported with ``p.require(ok, what,
counterexample)``: a check that does not hold is a refutation, never an
exception. An entry that raises is reported with status ``error``.

Status of an entry (:data:`STATUSES`): ``refuted`` if any counterexample was
recorded; else ``not-checkable`` if so declared; else ``verified`` if a
symbolic proof was recorded; else ``checked`` (``n`` instances in total).
"""

from __future__ import annotations

import importlib
import pkgutil
import random
import re
import time
import traceback
from dataclasses import dataclass, field
from typing import Callable, Optional

__all__ = [
    "STATUSES",
    "FAILED",
    "Check",
    "Correction",
    "Proof",
    "statement",
    "entries",
    "run_entry",
    "run_paper",
    "statement_key",
    "base_id",
]

#: The four conclusive states; ``error`` marks an entry that crashed.
STATUSES = ("verified", "checked", "refuted", "not-checkable")


class _Failed:
    def __repr__(self) -> str:
        return "FAILED"


#: Returned by :meth:`Proof.library` when the library call raised.
FAILED = _Failed()


@dataclass
class Correction:
    """A corrected statement and the result of its own check.

    ``status`` must be ``verified`` or ``checked`` for the erratum to count as
    settled (the corrected statement holds wherever it was checked).
    """

    statement: str
    status: str
    checks: list[str]
    evidence: str
    instances: int = 0

    def to_dict(self) -> dict:
        return {
            "statement": self.statement,
            "status": self.status,
            "checks": list(self.checks),
            "evidence": self.evidence,
        }


@dataclass
class Check:
    """The result of checking one numbered statement, or one step of its proof.

    Fields: ``paper`` (subpackage name), ``id`` (``"Lemma 4.10"``, or
    ``"Lemma 4.10 (proof: ...)"`` for a step), ``statement`` (brief
    transcription), ``status`` (one of :data:`STATUSES`, or ``error``),
    ``checks`` (what was done), ``evidence`` (numbers, counterexample),
    ``correction`` (for ``refuted``), ``instances`` (N for ``checked``).
    """

    paper: str
    id: str
    statement: str
    status: str
    checks: list[str]
    evidence: str
    correction: Optional[Correction] = None
    instances: int = 0
    seconds: float = 0.0
    issues: list = field(default_factory=list)

    @property
    def is_step(self) -> bool:
        """A key step inside a proof (``"Lemma 4.10 (proof: ...)"``), not a numbered statement
        (``"Equation (3)"`` is a statement)."""
        return base_id(self.id) != self.id

    @property
    def settled(self) -> bool:
        """Conclusive: not an error, no library issue, and a refutation carries a passing correction."""
        if self.status not in STATUSES or self.issues:
            return False
        if self.status == "refuted":
            return self.correction is not None and self.correction.status in ("verified", "checked")
        return True

    def to_dict(self) -> dict:
        return {
            "paper": self.paper,
            "id": self.id,
            "statement": self.statement,
            "status": self.status,
            "checks": list(self.checks),
            "evidence": self.evidence,
            "correction": self.correction.to_dict() if self.correction else None,
        }


class Proof:
    """Accumulates the sub-checks of one entry (see the module docstring).

    Attributes: ``full`` (check more instances), ``rng`` (a ``random.Random``
    seeded from the entry id, so runs are reproducible).
    """

    def __init__(self, paper: str, id: str, full: bool = False, crosscheck: bool = True):
        self.paper = paper
        self.id = id
        self.full = full
        #: False: the exactdp cross-checks are skipped (:meth:`library` returns FAILED without calling),
        #: so that the statement is judged by its transcription alone (the mutation runs, issue 27)
        self.crosscheck = crosscheck
        self.rng = random.Random(f"{paper}:{id}")
        self.checks: list[str] = []
        self.evidence: list[str] = []
        self.counterexamples: list[str] = []
        self.n = 0
        self.proved = False
        self.why_not: Optional[str] = None
        self.correction: Optional[Correction] = None
        self.issues: dict[str, int] = {}

    # -- recording -------------------------------------------------------
    def verified(self, what: str, ok: bool = True, counterexample: str = "") -> bool:
        """Record a symbolic proof of the statement or step (``ok`` from sympy)."""
        if ok:
            self.checks.append(f"symbolic: {what}")
            self.proved = True
        else:
            self.refute(what, counterexample or "the symbolic identity does not hold")
        return ok

    def symbolic(self, what: str, ok: bool, counterexample: str = "") -> bool:
        """Record a symbolic sub-lemma that supports, but does not by itself prove, the entry."""
        if ok:
            self.checks.append(f"symbolic: {what}")
        else:
            self.refute(what, counterexample or "the symbolic identity does not hold")
        return ok

    def instances(self, what: str, n: int, kind: str = "exact") -> None:
        """Record ``n`` instances (``kind``: exact | exhaustive | certified | random) that all passed."""
        self.checks.append(f"{kind}: {what} [{n} instances]")
        self.n += n

    def require(self, ok: bool, what: str, counterexample) -> bool:
        """A comparison inside an instance loop: a failure becomes a counterexample.

        ``counterexample`` is a string, or a callable returning one (built only on failure:
        formatting exact instances can cost more than checking them)."""
        if not ok:
            self.refute(what, counterexample() if callable(counterexample) else counterexample)
        return ok

    def refute(self, what: str, counterexample: str) -> None:
        """Record a counterexample to the statement or step as printed."""
        self.checks.append(f"counterexample: {what}")
        self.counterexamples.append(f"{what}: {counterexample}")

    def library(self, what: str, fn: Callable, *args, **kwargs):
        """Call an exactdp function used as a cross-check; an exception is recorded as a
        library issue (not an erratum) and :data:`FAILED` is returned. With ``crosscheck`` off the
        function is not called and :data:`FAILED` is returned, no issue recorded."""
        if not self.crosscheck:
            return FAILED
        try:
            return fn(*args, **kwargs)
        except Exception as exc:
            self.issue(f"{what} raised {type(exc).__name__}: {exc}")
            return FAILED

    def agree(self, lib_value, value, what: str, instance: str, third: Optional[Callable[[], object]] = None) -> bool:
        """Compare a library cross-check value with the independently computed one.

        A disagreement is recorded as an issue (never an erratum: the paper's statement is judged by
        the transcription), reported and counted, and makes the run fail. It is not assumed to be a
        library bug: either side may be wrong (if the library and the transcription shared a mistake,
        nothing here would catch it). ``third`` (optional) computes the value a third way; its verdict
        is recorded with the issue (which side it agrees with), else the issue says it is undecided.
        """
        if lib_value is FAILED:
            return False
        if lib_value != value:
            self.issue(f"{what} disagrees with the independent value on {instance}: {lib_value} vs {value}"
                       + _third_verdict(lib_value, value, third))
            return False
        return True

    def issue(self, text: str) -> None:
        """Record a problem of the exactdp library found while cross-checking."""
        self.issues[text] = self.issues.get(text, 0) + 1

    def note(self, text: str) -> None:
        """Add a line of evidence (numbers, remarks)."""
        self.evidence.append(text)

    def not_checkable(self, why: str) -> None:
        """Declare the statement not machine-checkable, saying why."""
        self.why_not = why

    def correct(self, statement: str, fn: Callable[["Proof"], None]) -> Correction:
        """Attach a corrected statement; ``fn`` checks it on a fresh :class:`Proof`."""
        sub = Proof(self.paper, self.id + " [correction]", self.full, self.crosscheck)
        try:
            fn(sub)
            status = sub.status()
            ev = sub.evidence_text()
        except Exception as exc:  # reported, not raised: the runner must finish
            status = "error"
            ev = f"correction check raised {type(exc).__name__}: {exc}\n" + traceback.format_exc(limit=4)
        self.correction = Correction(statement, status, sub.checks, ev, sub.n)
        self._sub_issues = list(sub.issues)
        return self.correction

    # -- conclusion ------------------------------------------------------
    def status(self) -> str:
        if self.counterexamples:
            return "refuted"
        if self.why_not is not None:
            return "not-checkable"
        if self.proved:
            return "verified"
        if self.n > 0:
            return "checked"
        return "error"

    def evidence_text(self) -> str:
        parts = []
        st = self.status()
        if st == "refuted":
            parts.append("Counterexample: " + " | ".join(self.counterexamples))
        if st == "not-checkable":
            parts.append("Not checkable: " + (self.why_not or ""))
        if self.n:
            parts.append(f"N = {self.n} instances, no counterexample" if st != "refuted" else f"{self.n} instances passed")
        parts.extend(self.evidence)
        if self.issues:
            parts.append("exactdp cross-check disagreements (not errata; the library or the transcription is wrong, "
                         "which one a third computation decides): "
                         + "; ".join(f"{t} [x{c}]" for t, c in self.issues.items()))
        return "\n".join(parts)


def _third_verdict(lib_value, value, third) -> str:
    if third is None:
        return " (undecided: no third computation; the library or the transcription is wrong)"
    try:
        t = third()
    except Exception as exc:
        return f" (the third computation raised {type(exc).__name__}: undecided)"
    if t == value:
        return " (a third computation agrees with the transcription: the library is wrong)"
    if t == lib_value:
        return " (a third computation agrees with the library: the transcription, i.e. the check, is wrong)"
    return f" (a third computation gives {t}: neither agrees)"


# --------------------------------------------------------------------------
# registry

_REGISTRY: dict[str, list[tuple[str, str, Callable[[Proof], None]]]] = {}


def statement(id: str, text: str, *, library: tuple = ()) -> Callable[[Callable[[Proof], None]], Callable[[Proof], None]]:
    """Register ``fn(p: Proof)`` as the check of entry ``id`` (statement ``text``).

    The paper is the subpackage of the calling module (``proofs.<paper>.x``).
    ``library`` names (dotted, e.g. ``"exactdp.optcomp"``) the exactdp functions the
    entry cross-checks; a test fails when one of them does not exist.
    """

    def deco(fn: Callable[[Proof], None]) -> Callable[[Proof], None]:
        parts = fn.__module__.split(".")
        paper = parts[1] if len(parts) > 2 and parts[0] in ("proofs", "exactdp_proofs") else parts[0]
        _REGISTRY.setdefault(paper, []).append((id, text, fn))
        fn.entry_id = id  # type: ignore[attr-defined]
        fn.library = tuple(library)  # type: ignore[attr-defined]
        return fn

    return deco


#: Kinds of numbered statements (papers number them "Lemma 4.10" or, per kind, "Definition 7").
KINDS = ("Definition", "Theorem", "Lemma", "Fact", "Corollary", "Proposition", "Claim", "Remark", "Example",
         "Equation", "Footnote")


_STEP = re.compile(r" \(proof: .*\)$")


def base_id(id: str) -> str:
    """The numbered statement an entry belongs to: ``"Lemma 4.10 (proof: x)"`` -> ``"Lemma 4.10"``;
    ``"Equation (3)"`` is its own base."""
    return _STEP.sub("", id)


def statement_key(id: str) -> tuple:
    """Sort key: by section and number (the paper's order), statement before its steps.

    ``"Lemma 4.10"`` sorts as (4, 10); a paper that numbers per kind (``"Definition 7"``)
    sorts as (7, 0) within the kind's order of appearance (callers keep registration order).
    """
    m = re.match(r"(" + "|".join(KINDS) + r")\s+\(?(\d+)(?:\.(\d+))?", id)
    if not m:
        return (99, 99, id)
    return (int(m.group(2)), int(m.group(3) or 0), 0 if base_id(id) == id else 1)


def entries(paper: str) -> list[tuple[str, str, Callable[[Proof], None]]]:
    """Import every check module of ``paper`` and return its entries in paper order."""
    pkg = importlib.import_module(f"{__package__}.{paper}")
    for info in pkgutil.iter_modules(pkg.__path__):
        if not info.name.startswith("_"):
            importlib.import_module(f"{__package__}.{paper}.{info.name}")
    es = list(_REGISTRY.get(paper, []))
    order = {id: i for i, (id, _, _) in enumerate(es)}
    # the paper's own list of numbered statements (NUMBERED, in paper order) decides the order
    # when it has one; else section.number from the id; a statement's steps follow it
    numbered = {s: i for i, s in enumerate(getattr(pkg, "NUMBERED", []))}

    def key(e):
        base = base_id(e[0])
        sk = statement_key(e[0])
        pos = (numbered[base], 0) if base in numbered else sk[:2]
        return (pos, sk[2], order[e[0]])

    es.sort(key=key)
    return es


def run_entry(paper: str, id: str, text: str, fn: Callable[[Proof], None], full: bool = False,
              crosscheck: bool = True) -> Check:
    """Run one entry; an exception becomes a Check with status ``error``. ``crosscheck=False`` skips the
    exactdp cross-checks (:attr:`Proof.crosscheck`)."""
    p = Proof(paper, id, full, crosscheck)
    t0 = time.perf_counter()
    try:
        fn(p)
        status = p.status()
        ev = p.evidence_text()
    except Exception as exc:
        status = "error"
        ev = f"check raised {type(exc).__name__}: {exc}\n" + traceback.format_exc(limit=6)
    dt = time.perf_counter() - t0
    issues = list(p.issues)
    if p.correction is not None and getattr(p, "_sub_issues", None):
        issues += p._sub_issues
    return Check(paper, id, text, status, p.checks, ev, p.correction, p.n, dt, issues)


def run_paper(paper: str, full: bool = False, only: Optional[str] = None) -> list[Check]:
    """Run every entry of ``paper`` (those whose id contains ``only``, if given)."""
    out = []
    for id, text, fn in entries(paper):
        if only is not None and only.lower() not in id.lower():
            continue
        out.append(run_entry(paper, id, text, fn, full))
    return out
