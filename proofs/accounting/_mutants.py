"""Mutants of the accounting lemmas' checks (see :mod:`exactdp_proofs._mutants`).

The false variants of these statements are function-level: each replaces the transcription a
check uses (a pair, a loss law, a split, a bound) by a false one, and the same check code must
refute it. They run in ``tests/proofs/test_accounting_lemmas.py`` (``test_false_variants_are_refuted``,
at least one per lemma, ``test_every_lemma_has_a_mutant``); none is a one-place text edit, so
the registry of text-edit mutants holds none and names where each lemma's variants live.
"""

from __future__ import annotations

MUTANTS: list = []

_WHERE = ("false variants by function replacement, refuted by the same check in "
          "tests/proofs/test_accounting_lemmas.py::test_false_variants_are_refuted")

UNMUTATED = {f"Lemma {i}": _WHERE for i in range(1, 14)}
