"""Vadhan-Zhang Claim 3.4 (the ChainRule function of f-DP) and the steps of its proof.

Printed: ChainRule_{X,X'}((f_x)_x)(alpha) = inf_{alpha_x in [0,1]} {E_{x~X'}[f_x(alpha_x)] : E_{x~X}[alpha_x] <= alpha} (9).

Checked exactly on random finite joint distributions (zero masses, supports only partly shared): the
trade-off function of the joint pair (Neyman-Pearson) equals formula (9) computed two independent ways
-- by merging the pieces of the scaled f_x in slope order, and by brute force over the vertices of the
programme (every a_x at a breakpoint of f_x except at most one) -- at every breakpoint and at random
alpha. The expectation E_{x~X'} runs over x in supp X and supp X' (the function's arguments); x outside
contribute 0 (rejected for free or accepted at no cost).
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import crosschecked
from .._framework import Proof, statement
from . import _tradeoff as T
from ._library import library_chain_rule
from .lemma_1_7 import joint


def instance(p: Proof, nmax=3, ymax=3):
    nx = p.rng.randint(1, nmax)
    X = T.rand_pairs(p.rng, nx)
    conds = [T.rand_pairs(p.rng, p.rng.randint(1, ymax)) for _ in range(nx)]
    items = [(a, b, T.tradeoff(Y)) for (a, b), Y in zip(X, conds)]
    return X, conds, items


@statement(
    "Claim 3.4",
    "ChainRule_{X,X'}((f_x)_x)(alpha) = inf_{alpha_x in [0,1]} {E_{x~X'}[f_x(alpha_x)] : E_{x~X}[alpha_x] <= alpha}.",
    library=("exactdp.fdp.chain_rule", "exactdp.interactive.mechanism_tradeoff"),
)
def claim(p: Proof) -> None:
    n = n_lib = 0
    for _ in range(120 if p.full else 40):
        X, conds, items = instance(p)
        lhs = T.tradeoff(joint(X, conds))
        merged = T.chain_rule(items)
        n += 1
        n_lib += library_chain_rule(p, X, conds, merged, mechanism=True)
        if not p.require(T.equal(lhs, merged), "T(joint) = formula (9) (merged pieces)", f"X={X} conds={conds}"):
            return
        for a in sorted({x for x, _ in lhs} | {F(p.rng.randint(0, 20), 20)}):
            n += 1
            if not p.require(T.value(lhs, a) == T.chain_rule_at(items, a), "T(joint) = formula (9) (vertex brute force)",
                             f"X={X} conds={conds} alpha={a}"):
                return
    p.instances("random joint pairs (X on 1-3 points, conditionals on 1-3 outcomes): T((X, Y), (X', Y')) = formula (9), "
                "as functions and at every breakpoint by brute force", n)
    crosschecked(p, "exactdp chain_rule(X, X', (T(Y|x, Y'|x))_x) and mechanism_tradeoff of the two-answer mechanism "
                 "(X, then Y given X, no queries) equal formula (9) on the same instances", n_lib)
