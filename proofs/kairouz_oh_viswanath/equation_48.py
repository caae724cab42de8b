"""Kairouz-Oh-Viswanath Equation (48) (Appendix C.1: the (eta, tau, nu)-approximation of [BBDS12]).

Printed (display lost): "a mechanism M is said to give a (eta, tau, nu)-approximation for a
single cut query q(., .), if for every graph G and every nonempty S it holds that [(48)]";
the [BBDS12] definition reads P[(1-eta) q(G,S) - tau <= M(G,S) <= (1+eta) q(G,S) + tau] >= 1 - nu.
"""

from __future__ import annotations

from .._framework import Proof, statement


@statement(
    "Equation (48)",
    "M gives an (eta, tau, nu)-approximation for cut queries if for every graph G and nonempty S, "
    "P[(1-eta) q(G,S) - tau <= M(G,S) <= (1+eta) q(G,S) + tau] >= 1 - nu (display lost; [BBDS12]'s definition).",
)
def equation(p: Proof) -> None:
    p.not_checkable("a definition of an accuracy notion from [BBDS12] (no assertion to check); its display was lost in "
                    "conversion and is read from the cited paper. It is used only by the asymptotic bounds (49)-(50).")
