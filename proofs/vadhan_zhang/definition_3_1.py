"""Vadhan-Zhang Definition 3.1 (coupling property).

Printed: D has the coupling property if D(X, X') <= d and D(Y, Y') <= d imply couplings (X, Y) and
(X', Y') with D((X, Y), (X', Y')) <= d.

Checked for D = T (f-DP, the instance of Theorem 4.1) on arbitrary random finite pairs (X, X'),
(Y, Y') -- not generated from a common f -- with d their sup (the least d with both hypotheses,
Lemma 2.4): the couplings of Lemma 3.1's proof exist, have the right marginals and satisfy
T >= d. (Random f's and extreme f's are in Lemma 1.6 / 3.1.)
"""

from __future__ import annotations

from .._framework import Proof, statement
from . import _tradeoff as T
from .lemma_1_6 import check_coupling


@statement(
    "Definition 3.1",
    "D has the coupling property if D(X, X') <= d and D(Y, Y') <= d imply couplings (X, Y), (X', Y') with "
    "D((X, Y), (X', Y')) <= d.",
)
def definition(p: Proof) -> None:
    n = 0
    for _ in range(45 if p.full else 15):
        X = T.rand_pairs(p.rng, p.rng.randint(1, 3))
        Y = T.rand_pairs(p.rng, p.rng.randint(1, 3))
        d = T.envelope([T.tradeoff(X), T.tradeoff(Y)])
        n += 1
        if not check_coupling(p, d, X, Y):
            return
    p.instances("random pairs (X, X'), (Y, Y') on 1-3 outcomes, d = sup{T(X, X'), T(Y, Y')}: couplings with T >= d", n)
