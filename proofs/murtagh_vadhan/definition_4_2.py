"""Murtagh-Vadhan Definition 4.2 (#P-hard)."""

from __future__ import annotations

from .._framework import Proof, statement


@statement(
    "Definition 4.2",
    "g is #P-hard if every f in #P can be computed in polynomial time given oracle access to g.",
)
def definition(p: Proof) -> None:
    p.not_checkable("a definition quantifying over all #P functions and all polynomial-time oracle machines; the "
                    "concrete reductions that use it (Lemmas 4.9-4.11, Theorem 1.6) are checked on instances")
