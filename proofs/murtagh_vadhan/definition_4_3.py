"""Murtagh-Vadhan Definition 4.3 (#P-easy)."""

from __future__ import annotations

from .._framework import Proof, statement


@statement(
    "Definition 4.3",
    "f is #P-easy if there is g in #P such that f can be computed in polynomial time given oracle access to g.",
)
def definition(p: Proof) -> None:
    p.not_checkable("a definition quantifying over #P functions and polynomial-time oracle machines")
