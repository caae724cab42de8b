"""Checks of Vadhan, Wang, "Concurrent Composition of Differential Privacy" (TCC 2021): one module
per numbered statement, named after it (``theorem_4_1.py``, ``definition_7.py``,
``equation_6.py``), each registering the statement and key steps of its proof.

The paper numbers definitions, lemmas and the corollary per kind ("Definition 7", "Lemma 3",
"Corollary 1"), theorems by section ("Theorem 4.1"), and displays by a global counter
("Equation (6)"); the ids keep that numbering. The Section 6 experiment (unnumbered) is the
step "Theorem 5.2 (proof: Section 6 experiment ...)" and its composition conjecture the step
"Corollary 1 (proof: Section 6 conjecture ...)".

Shared exact transcriptions live in the underscore modules: ``_dp`` (noninteractive:
events, Definitions 5 and 10, Theorem 1.3's formula), ``_interactive`` (finite interactive
mechanisms, deterministic adversaries, concurrent and ordered composition, coin
realisations), ``_sim`` (the simulators of Theorems 5.1, 1.5/5.2 and the Section 6 LP),
``_lp`` (exact simplex), ``_arb`` (certified decisions with Arb balls).
"""

from __future__ import annotations

import re
from typing import List

#: The numbered statements of the paper, in paper order (also parsed from its text by the tests).
NUMBERED = [
    "Definition 1", "Equation (1)", "Theorem 1.1", "Theorem 1.2", "Theorem 1.3",
    "Definition 2", "Definition 3", "Definition 4", "Equation (2)", "Theorem 1.4", "Definition 5", "Theorem 1.5",
    "Corollary 1", "Equation (3)",
    "Definition 6", "Lemma 1", "Equation (4)", "Equation (5)", "Definition 7", "Definition 8", "Lemma 2",
    "Definition 9", "Lemma 3", "Theorem 3.1",
    "Theorem 4.1",
    "Definition 10", "Theorem 5.1", "Lemma 4", "Theorem 5.2", "Equation (6)", "Equation (7)", "Equation (8)",
    "Equation (9)", "Equation (10)", "Lemma 5", "Theorem 5.3", "Theorem 5.4",
]

_HEADING = re.compile(r"^(Definition|Theorem|Lemma|Corollary|Proposition|Claim|Fact) (\d+(?:\.\d+)?)(?: \(.*\))?\s*$")
_DISPLAY = re.compile(r"\\.*\s\((\d+)\)\s*$")


def parse_numbered(text: str) -> List[str]:
    """The numbered statements of the paper text, in order of appearance.

    A statement heads its own line ("Theorem 4.1 (Theorem 1.4 restated)", "Lemma 1",
    "Theorem 1.4 ()"); a numbered display is a line of LaTeX ending in its number "(n)"
    (the reference list, whose lines end in "(year)", has no backslash). The paper has no
    footnote stating mathematics (its two footnotes are the authors' affiliations).
    """
    out: List[str] = []
    for line in text.splitlines():
        s = line.strip()
        m = _HEADING.match(s)
        if m:
            sid = f"{m.group(1)} {m.group(2)}"
        else:
            d = _DISPLAY.search(s)
            if not d or s.startswith("\u2022"):
                continue
            sid = f"Equation ({d.group(1)})"
        if sid not in out:
            out.append(sid)
    return out
