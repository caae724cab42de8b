"""Vadhan-Zhang Equation (4): the display of Lemma 2.4,
sup S = h(alpha) := inf_{F: supp(F) subset S, A: S -> [0,1]} {E[F(A(F))] : E[A(F)] <= alpha}.

Refuted as printed with Lemma 2.4 (same counterexample: S = {max(0, 1 - n alpha) : n >= 1} gives h(0) = 1 and
h = 0 on (0, 1], not a trade-off function); corrected to its closure at 0, which equals (4) for finite S.
See ``lemma_2_4.py`` and docs/errata.md.
"""

from __future__ import annotations

from .._framework import Proof, statement
from .lemma_2_4 import COUNTER, check_family, correction


@statement(
    "Equation (4)",
    "sup S = h(alpha) := inf_{F: supp(F) subset S, A: S -> [0,1]} {E[F(A(F))] : E[A(F)] <= alpha}.",
)
def equation_4(p: Proof) -> None:
    if check_family(p):
        p.refute("sup S = h (formula (4))", COUNTER)
    p.correct("sup S = h-bar: formula (4) on (0, 1], its limit at 0 (equal to formula (4) for finite S).",
              lambda q: correction(q, 6))
