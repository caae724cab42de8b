"""Vadhan-Zhang Lemma 3.3 (Lemma 1.7 restated: the chain rule of f-DP).

Checked with ChainRule given by Claim 3.4's formula (9): T((X, Y), (X', Y')) equals it exactly on random
finite joint distributions (X up to 4 points, conditionals up to 4 outcomes, zero masses, probabilities
down to 10^-6), and it is continuous in each variable (finite S_i, the sup being the lower convex
envelope).
"""

from __future__ import annotations

from .._crosscheck import crosschecked
from .._framework import Proof, statement
from . import _tradeoff as T
from ._library import library_chain_rule
from .lemma_1_7 import check_continuity, continuity_instances, joint


@statement(
    "Lemma 3.3",
    "For X, X' with finite support there is ChainRule_{X,X'}, continuous in each variable, with T((X, Y), (X', Y')) = "
    "ChainRule_{X,X'}((T(Y|X=x, Y'|X'=x))_{x in supp X and supp X'}).",
    library=("exactdp.fdp.chain_rule",),
)
def lemma(p: Proof) -> None:
    n1 = n2 = n_lib = 0
    for _ in range(150 if p.full else 50):
        nx = p.rng.randint(1, 4)
        den = p.rng.choice([6, 10 ** 6])
        X = T.rand_pairs(p.rng, nx, den)
        conds = [T.rand_pairs(p.rng, p.rng.randint(1, 4), den) for _ in range(nx)]
        n1 += 1
        if p.full or n1 % 2:
            n_lib += library_chain_rule(p, X, conds, T.tradeoff(joint(X, conds)))
        if not p.require(T.equal(T.tradeoff(joint(X, conds)),
                                 T.chain_rule([(a, b, T.tradeoff(Y)) for (a, b), Y in zip(X, conds)])),
                         "T(joint) = formula (9)", f"X={X} conds={conds}"):
            return
    for X, fs, i, S in continuity_instances(p, 60 if p.full else 20):
        n2 += 1
        if not check_continuity(p, X, fs, i, S):
            return
    p.instances("T of random joint pairs = ChainRule of the conditional trade-off functions (formula (9))", n1)
    crosschecked(p, "exactdp chain_rule(X, X', (T(Y|x, Y'|x))_x) equals the independent T of the joint pair (every "
                 "other instance; all with --full)", n_lib)
    p.instances("continuity of formula (9) in each variable, finite S_i", n2)
