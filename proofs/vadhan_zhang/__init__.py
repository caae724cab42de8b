"""Checks of Vadhan, Zhang, "Concurrent Composition Theorems for Differential Privacy" (STOC 2023):
one module per numbered statement, display and footnote (``lemma_2_4.py``, ``equation_9.py``,
``footnote_1.py``), each registering the statement and key steps of its proof.

Shared exact transcriptions live in the underscore modules:

* ``_tradeoff`` -- trade-off functions of finite pairs (Neyman-Pearson and brute force over every
  test), piecewise-linear trade-off functions, f_{eps,delta}, the tensor product, the sup of
  Lemma 2.4 for finite sets, the chain rule of Claim 3.4 (two ways);
* ``_lp`` -- an exact rational simplex (LP feasibility) and Blackwell post-processings, every
  witness verified by exact matrix products;
* ``_games`` -- finite interactive mechanisms as game trees, every deterministic adversary, views,
  concurrent composition (Definition 1.5), Theorem 4.1's simulation (Y, Y', P);
* ``_renyi`` -- Renyi divergences of finite distributions, exact for integer orders and exact
  radical sums (signs certified by Arb) for rational orders;
* ``_gauss`` -- Gaussian trade-off functions G_mu in certified Arb arithmetic;
* ``_posets`` -- every small partial order (Definitions 2.4, 3.2, 3.3).

The paper numbers each kind separately in Section 1 (Definition 1.6, Proposition 1.7 and
Lemma 1.7 are different statements). Its numbered displays (1)-(23) and Footnote 1 count as
numbered statements: displays (6) and (19) lost their tags in the text conversion and are
found from the sentences that cite them; Definition 1.4's display was lost entirely and is
transcribed from the surrounding text (see its entry).
"""

from __future__ import annotations

import re
from typing import List

#: The numbered statements of the paper, in paper order (parsed from its text by :func:`parse_numbered`).
NUMBERED = [
    "Definition 1.1", "Definition 1.2", "Definition 1.3", "Definition 1.4", "Equation (1)", "Definition 1.5",
    "Theorem 1.1", "Theorem 1.2", "Theorem 1.3", "Theorem 1.4", "Definition 1.6", "Equation (2)",
    "Proposition 1.7", "Definition 1.8", "Theorem 1.5", "Lemma 1.6", "Lemma 1.7", "Equation (3)", "Footnote 1",
    "Definition 2.1", "Definition 2.2", "Lemma 2.1", "Definition 2.3", "Lemma 2.2", "Lemma 2.3", "Definition 2.4",
    "Lemma 2.4", "Equation (4)", "Equation (5)", "Equation (6)", "Lemma 2.5",
    "Definition 3.1", "Lemma 3.1", "Theorem 3.2", "Equation (7)", "Equation (8)", "Definition 3.2", "Definition 3.3",
    "Definition 3.4", "Lemma 3.3", "Claim 3.4", "Equation (9)", "Equation (10)", "Equation (11)", "Equation (12)",
    "Equation (13)", "Equation (14)", "Equation (15)",
    "Theorem 4.1", "Equation (16)", "Equation (17)", "Definition 4.1", "Equation (18)", "Equation (19)",
    "Equation (20)", "Theorem 4.2",
    "Theorem 5.1", "Definition 5.1", "Lemma 5.2", "Definition 5.2", "Lemma 5.3", "Lemma 5.4", "Lemma 5.5",
    "Equation (21)", "Equation (22)", "Equation (23)",
]

_KIND = {"THEOREM": "Theorem"}
_HEAD = re.compile(r"(?m)(?:^|\*\*)\s*(Definition|THEOREM|Theorem|Lemma|Proposition|Claim|Corollary|Fact)\s+"
                   r"(\d+\.\d+)(?:\*\*)?\s*(?:\.|\(|\$\()")
_TAGS = [
    re.compile(r"\\tag\{(\d+)\}"),                      # \tag{7}
    re.compile(r"\\q?quad \((\d+)\)\$\$"),              # ... \quad (4)$$
    re.compile(r"(?m)^\$*\((\d+)\)\$*\s*$"),            # a line "(5)" or "$$(14)$$"
    re.compile(r"(?m)\$\s*\((\d+)\)\s*$"),              # "...$ (9)" at the end of a line
    re.compile(r"\((\d+)\) is because"),                # displays whose tag was lost: "inequality (6) is because"
]
_SUP = {"¹": 1, "²": 2, "³": 3, "⁴": 4, "⁵": 5, "⁶": 6, "⁷": 7, "⁸": 8, "⁹": 9}
_FOOT = re.compile(r"(?m)^([¹²³⁴⁵⁶⁷⁸⁹])\w")


def parse_numbered(text: str) -> List[str]:
    """The numbered statements, displays and footnotes of the paper text, in order of appearance.

    Statements are recognised where they are stated (``Lemma 2.4.``, ``THEOREM 3.2 (...)``,
    ``Definition 2.2 $(...``), not where they are cited (``Lemma 1.7 says``); displays by their tags
    (or, for the two whose tags were lost, by the sentence citing them); footnotes by the
    superscript opening the footnote text.
    """
    found = {}
    for m in _HEAD.finditer(text):
        found.setdefault(f"{_KIND.get(m.group(1), m.group(1))} {m.group(2)}", m.start())
    for rx in _TAGS:
        for m in rx.finditer(text):
            found.setdefault(f"Equation ({int(m.group(1))})", m.start())
    for m in _FOOT.finditer(text):
        found.setdefault(f"Footnote {_SUP[m.group(1)]}", m.start())
    return sorted(found, key=lambda s: found[s])
