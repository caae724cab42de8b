"""Vadhan-Zhang Definition 3.4 (chain rule property) and its KL example.

Printed: (D, <=, D) has the chain rule if for every (X, X') there is ChainRule_{X,X'}:
D^{supp X and supp X'} -> D, continuous in each variable, with
D((X, Y), (X', Y')) = ChainRule_{X,X'}((D(Y|X=x, Y'|X'=x))_x) for all Y, Y'. Example: KL.

Checked on random finite instances for the instances the paper discusses: f-DP (ChainRule = formula
(9); the value is unchanged when the conditional pairs are swapped for others with the same trade-off
functions and outside the common support), KL (Equation (3), symbolic) and Renyi divergence:
S_alpha((X, Y)) = sum_x X(x)^alpha X'(x)^(1-alpha) S_alpha(Y|x || Y'|x) (the display in Lemma 5.3's
proof; exact for alpha = 2, 3), a function of the conditional divergences, increasing and continuous in
each, infinite when supp X is not inside supp X'.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _renyi as R
from . import _tradeoff as T
from .equation_3 import kl_chain_identity
from .lemma_1_7 import joint, split


@statement(
    "Definition 3.4",
    "D has the chain rule if D((X, Y), (X', Y')) = ChainRule_{X,X'}((D(Y|X=x, Y'|X'=x))_{x in supp X and supp X'}) for a "
    "function ChainRule_{X,X'} continuous in each variable.",
)
def definition(p: Proof) -> None:
    n_f = n_r = 0
    for _ in range(60 if p.full else 20):
        nx = p.rng.randint(1, 4)
        X = T.rand_pairs(p.rng, nx)
        conds = [T.rand_pairs(p.rng, p.rng.randint(1, 3)) for _ in range(nx)]
        alt = [split(Y, p.rng) if px and qx else T.rand_pairs(p.rng, 2) for (px, qx), Y in zip(X, conds)]
        cr = T.chain_rule([(px, qx, T.tradeoff(Y)) for (px, qx), Y in zip(X, conds)])
        n_f += 1
        if not p.require(T.equal(T.tradeoff(joint(X, conds)), cr) and T.equal(T.tradeoff(joint(X, alt)), cr),
                         "f-DP: T(joint) = ChainRule of the conditional trade-off functions", f"X={X} conds={conds}"):
            return
        for a in (2, 3):
            direct = R.S(joint(X, conds), a)
            if any(px > 0 and qx == 0 for px, qx in X):
                want = R.INF
            else:
                want = F(0)
                for (px, qx), Y in zip(X, conds):
                    if px and qx:
                        s = R.S(Y, a)
                        if s == R.INF:
                            want = R.INF
                            break
                        want += px ** a * qx ** (1 - a) * s
            n_r += 1
            if not p.require(R.cmp(direct, want) == 0, "Renyi: S_alpha((X, Y)) = sum X^a X'^(1-a) S_alpha(Y|x)",
                             f"X={X} conds={conds} alpha={a}"):
                return
    p.symbolic("KL: the chain rule of the example is an identity (Equation (3))", kl_chain_identity(2))
    p.instances("f-DP: ChainRule (formula (9)) reproduces T of the joint pair, invariant under replacing conditional "
                "pairs by others with equal trade-off functions", n_f)
    p.instances("Renyi (alpha = 2, 3): the joint divergence is a function of the conditional ones", n_r)
