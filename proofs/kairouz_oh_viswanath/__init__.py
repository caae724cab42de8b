"""Checks of Kairouz, Oh, Viswanath, "The Composition Theorem for Differential Privacy"
(ICML 2015; our copy is the arXiv text with Sections 6-9 and Appendices A-D): one module
per numbered statement, named after it (``theorem_3_3.py``, ``equation_38.py``), each
registering the statement and key steps of its proof.

Our copy of the paper lost, in the conversion to text, the headings of every numbered
statement and most displayed equations. The statements were located in the running
text (where it references them by number, and by the unnumbered statement paragraphs
that remain) and the lost displays transcribed from ``../shared/papers/README.md`` or
from the surrounding text; each entry says which. Shared exact transcriptions live in
``_common`` (hypothesis-testing points, privacy regions, exact hulls, the Section 6
mechanism, products, hockey-stick, exact LP), ``_region`` (exact comparison of a
composition's privacy region with Theorem 3.3's intersection), ``_arb`` and ``_bounds``
(certified Arb evaluation of the printed composition bounds and of the Gaussian
mechanism), ``_adaptive`` (the composition experiment of Section 3 with every
deterministic adversary), ``_coupling`` (the converse of Theorem 3.3 as an explicit
coupling), ``_mpc`` (the protocols of Section 5).

Ids: statements as numbered in the paper ("Theorem 3.3", "Remark 6.1"), numbered displays
as "Equation (38)" (module ``equation_38.py``), proof steps as "Theorem 4.3 (proof: ...)".
"""

from __future__ import annotations

import re
from typing import List

#: The numbered statements of the paper, in paper order (see :func:`parse_numbered`).
NUMBERED = [
    "Definition 1.1",
    "Theorem 2.1", "Remark 2.2", "Corollary 2.3", "Theorem 2.4", "Theorem 2.5",
    "Theorem 3.1", "Theorem 3.2", "Theorem 3.3", "Equation (5)", "Equation (6)", "Theorem 3.4", "Theorem 3.5",
    "Corollary 4.1", "Theorem 4.2", "Theorem 4.3", "Theorem 4.4",
    "Equation (24)", "Theorem 5.1",
    "Remark 6.1", "Equation (36)", "Equation (37)", "Equation (38)",
    "Equation (41)", "Equation (47)", "Equation (48)", "Equation (49)", "Equation (50)",
]

_KINDS = "Definition|Theorem|Lemma|Corollary|Proposition|Claim|Remark|Fact|Example"

#: A reference whose label in the text differs from the statement's own (a typo of the paper):
#: Section 9.1 cites "(cf. Theorem 2.2)" for the statement proved in Section 9.3 as "Remark 2.2".
ALIASES = {"Theorem 2.2": "Remark 2.2"}

#: Statements whose heading and every reference by number were lost, found by their text:
#: the paragraph that follows the phrase (the first sentence of the statement as it stands in
#: our copy). Definition 1.1's number is that of the earlier arXiv version's first page
#: ("Definition 1.1 (Differential Privacy [DMNS06, DKM+06])"); Theorem 4.2's is the one
#: between Corollary 4.1 and Theorem 4.3 (the paper numbers all statements of a section in one
#: sequence, as Theorem 2.1, Remark 2.2, Corollary 2.3 show).
ANCHORS = {
    "Definition 1.1": "A randomized mechanism MM over a set of databases is (ε,δ)",
    "Theorem 4.2": "the mechanism that adds Laplacian noise with variance",
}


def parse_numbered(text: str) -> List[str]:
    """The numbered statements of the paper found in its text, in paper order.

    Found: (a) every "<Kind> <s>.<n>" (and "<Kind>s a.b, c.d and e.f") of the running text outside citation brackets
    (``[BBDS12, Theorem 3.2]`` is the cited paper's theorem, not this one's), with the
    paper's one mislabelled reference mapped by :data:`ALIASES`; (b) every equation cited
    by number, "(5)" ... "(50)" (numbers in parentheses that the text uses as references:
    after "in", "than", "of", "into", "prove", "that", "used", "and"); (c) the statements
    in :data:`ANCHORS`, by their surviving first sentence.

    Not found (documented, not guessed): numbered displays that the text never cites
    (equations (1)-(4), (7)-(23), (25)-(35), (39)-(40), (42)-(46), which the conversion
    removed together with their numbers; their content, where it is a statement's, is
    checked in that statement's entry) and footnotes (the conversion merged them into the
    running text without their numbers; the one footnote that states mathematics, on
    [BBDS12, Theorem 3.2], is checked in the entry of Equation (49)).
    """
    found = {}
    clean = re.sub(r"\[[^\]]*\]", " ", text)
    for m in re.finditer(r"\b(" + _KINDS + r")s? (\d+\.\d+(?:(?:, | and |, and )\d+\.\d+)*)", clean):
        for num in re.findall(r"\d+\.\d+", m.group(2)):  # "Theorems 3.1, 3.2 and 3.3" lists three
            s = ALIASES.get(f"{m.group(1)} {num}", f"{m.group(1)} {num}")
            found.setdefault(s, m.start())
    for m in re.finditer(r"\b(?:in|than|of|into|prove|that|used|and) \((\d{1,2})\)", clean):
        found.setdefault(f"Equation ({m.group(1)})", m.start())
    for s, phrase in ANCHORS.items():
        i = clean.find(phrase)
        if i >= 0:
            found.setdefault(s, i)
    order = {s: i for i, s in enumerate(NUMBERED)}
    return sorted(found, key=lambda s: (order.get(s, len(order)), found[s]))
