"""Murtagh-Vadhan Lemma 4.4 (computing OptComp is #P-easy)."""

from __future__ import annotations

from .._framework import Proof, statement


@statement("Lemma 4.4", "Computing OptComp is #P-easy.")
def lemma(p: Proof) -> None:
    p.not_checkable("a complexity statement whose proof is deferred to the full version (not in our copy); it asserts "
                    "the existence of a polynomial-time oracle algorithm over a #P function, which no finite set of "
                    "instances can confirm")
