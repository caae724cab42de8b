"""Kairouz-Oh-Viswanath Equation (49) (Appendix C.1: [BBDS12, Theorem 3.2]'s error bound for k queries).

Printed (display lost): the additive error tau_0 of the Johnson-Lindenstrauss mechanism
queried k times is bounded as in [BBDS12, Theorem 3.2] (an O(.) bound), with a footnote
(number lost in conversion, merged into the text): "The original theorem is stated for a
single query with k = 1. Here we state it more generally with arbitrary k. This requires
scaling nu by 1/k to take into account the union bound over k query outputs in the
utility guarantee in (48)."

Not checkable: an asymptotic bound (unspecified constants) proved in another paper, its
display lost. The footnote's mathematics, the union bound, is checked exactly: if each of
k events fails with probability <= nu/k, all hold with probability >= 1 - nu.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

from .._framework import Proof, statement
from . import _common as C


@statement(
    "Equation (49)",
    "[BBDS12, Theorem 3.2] for k queries: the JL mechanism's additive error tau_0 = O(...) (display lost), with nu "
    "scaled by 1/k for the union bound over the k outputs (footnote).",
)
def equation(p: Proof) -> None:
    p.not_checkable("an O(.) bound with unspecified constants, proved in [BBDS12] (Theorem 3.2 there) and restated for "
                    "k queries; the display was lost in conversion. Only the footnote's union bound is checked.")
    n = 0
    for _ in range(200):
        k = p.rng.randint(1, 4)
        outcomes = list(itertools.product((0, 1), repeat=k))  # 1 = that query's guarantee fails
        probs = C.rand_dist(p.rng, len(outcomes))
        fail = [sum((q for o, q in zip(outcomes, probs) if o[j]), F(0)) for j in range(k)]
        nu = k * max(fail)  # the least nu with every failure probability <= nu/k
        any_fail = sum((q for o, q in zip(outcomes, probs) if any(o)), F(0))
        n += 1
        if not p.require(any_fail <= nu, "union bound", f"k={k} law={probs}"):
            return
    p.instances("footnote: P(some of k guarantees fails) <= nu when each fails with probability <= nu/k (random joint "
                "laws, k <= 4)", n, "exact")
