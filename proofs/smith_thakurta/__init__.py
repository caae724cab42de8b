"""Checks of Smith, Thakurta, "Fully Adaptive Composition for Gaussian Differential Privacy"
(arXiv 2210.17520): one module per numbered statement (``theorem_1.py``, ``claim_2.py``,
``footnote_1.py``), each registering the statement and key steps of its proof.

The paper numbers per kind and has three numbered items that state mathematics:
Theorem 1 (the GDP filter: sum mu_i^2 <= mu_0^2 gives mu_0-GDP against a fully adaptive
analyst), Claim 2 (reduction to additive Gaussian noise) and Footnote 1 (the recursion for
the canonical Cholesky factor). It has no numbered displays.

Shared transcriptions: ``_exact`` (exact Q(sqrt) arithmetic, the canonical Cholesky factor,
Footnote 1's recursion), ``_gauss`` (certified Arb: Phi, G_mu, delta_mu(eps), the trade-off
vertex test), ``_finite`` (finite-output GDP mechanisms, the filter, every deterministic
adaptive adversary), ``_sim`` (seeded sampling of the simulator F* against A(b)), ``_sym``
(sympy).
"""

from __future__ import annotations

import re

#: The numbered statements of the paper, in paper order.
NUMBERED = ["Theorem 1", "Claim 2", "Footnote 1"]

_HEADING = re.compile(r"^(Definition|Theorem|Lemma|Fact|Corollary|Proposition|Claim|Remark|Example) (\d+)\.\s*$", re.M)
# the HTML-to-text conversion renders footnote n as "n" (mark) then "n" "n" (footnote text label),
# glued between a word and the footnote's first (capitalised) word: "factor111Specifically"
_FOOTNOTE = re.compile(r"(?<=[a-z])(\d{1,2})\1\1(?=[A-Z])")
_DISPLAY = re.compile(r"\((\d+)\)\s*$", re.M)


def parse_numbered(text: str) -> list[str]:
    """Numbered statements (headings "Theorem 1."), numbered displays ("(3)" ending a line)
    and footnotes of the paper text, in order of appearance."""
    found: list[tuple[int, str]] = []
    for m in _HEADING.finditer(text):
        found.append((m.start(), f"{m.group(1)} {m.group(2)}"))
    for m in _FOOTNOTE.finditer(text):
        found.append((m.start(), f"Footnote {m.group(1)}"))
    for m in _DISPLAY.finditer(text):
        found.append((m.start(), f"Equation ({m.group(1)})"))
    out: list[str] = []
    for _, s in sorted(found):
        if s not in out:
            out.append(s)
    return out
