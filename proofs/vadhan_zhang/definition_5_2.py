"""Vadhan-Zhang Definition 5.2 (Renyi divergence, restated in Section 5).

Printed: D_alpha(P||Q) = 1/(alpha - 1) log E_{x~Q}[P(x)/Q(x)]^alpha.

Read literally, (E_{x~Q}[P(x)/Q(x)])^alpha = (sum_x P(x))^alpha = 1 whenever supp P is inside supp Q, so the
literal reading is identically 0 there -- a typesetting slip (the power belongs inside the expectation, as in
Definition 2.3). Checked exactly: the literal reading is 0 on random full-support pairs with P != Q, while
the intended reading (= Definition 2.3) is positive on them and 0 only for P = Q.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import crosschecked
from .._framework import Proof, statement
from . import _renyi as R
from . import _tradeoff as T


@statement(
    "Definition 5.2",
    "For alpha > 1: D_alpha(P||Q) = 1/(alpha - 1) log E_{x~Q}[(P(x)/Q(x))^alpha] (printed with the power outside the "
    "brackets).",
    library=("exactdp.renyi.renyi_divergence",),
)
def definition(p: Proof) -> None:
    from exactdp.renyi import renyi_divergence

    from ._library import renyi_agree

    n = n_lib = 0
    for _ in range(60 if p.full else 20):
        k = p.rng.randint(2, 4)
        P, Q = T.rand_dist(p.rng, k, 6, False), T.rand_dist(p.rng, k, 6, False)
        literal = sum(q * (pp / q) for pp, q in zip(P, Q)) ** 2
        for a in (2, 3, F(3, 2)):
            n += 1
            n_lib += renyi_agree(p, p.library("exactdp renyi_divergence", renyi_divergence, P, Q, a),
                                 R.S(list(zip(P, Q)), a), a, "exactdp renyi_divergence", f"P={P} Q={Q} alpha={a}")
            if not p.require(literal == 1 and (R.cmp(R.S(list(zip(P, Q)), a), F(1)) > 0) == (P != Q),
                             "literal reading is 0; intended reading is the Renyi divergence", f"P={P} Q={Q} alpha={a}"):
                return
    p.instances("random full-support pairs, alpha in {2, 3, 3/2}", n)
    crosschecked(p, "exactdp renyi_divergence computes the intended reading on the same pairs (exact S_alpha for "
                 "integer alpha, meeting enclosures for 3/2)", n_lib)
    p.note("Typo (harmless): the exponent alpha is printed outside E_{x~Q}[...]; Definition 2.3 prints the intended "
           "E_{x~Q}[(P(x)/Q(x))^alpha], which every later step uses.")
