"""Vadhan-Wang Lemma 4 (post-processing).

Printed: if M: X -> Y is (eps, delta)-DP and F: Y -> Z is any randomized function, then F o M is
(eps, delta)-DP.

Checked exactly: random output pairs (M(x), M(x')) on 2-4 points, random Markov kernels F to 2-4
points (including deterministic maps), rational e^eps: the least delta of (F(M(x)), F(M(x'))) at e^eps
is at most M's, both directions. ("M: X -> Y" for MultiSets(X) -> Y: harmless.)
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _dp as D


@statement(
    "Lemma 4",
    "If M is (eps, delta)-DP and F is any randomized function, then F o M is (eps, delta)-DP.",
)
def lemma(p: Proof) -> None:
    n = 0
    for _ in range(300 if p.full else 100):
        P, Q = D.rand_pair(p.rng, p.rng.randint(2, 4))
        outs = list(range(p.rng.randint(2, 4)))
        if p.rng.random() < 0.3:
            fmap = {y: {p.rng.choice(outs): F(1)} for y in P}
        else:
            fmap = D.rand_stochastic(p.rng, list(P), outs)
        w = p.rng.choice(D.W_CHOICES)
        FP, FQ = D.push(P, lambda y: fmap[y]), D.push(Q, lambda y: fmap[y])
        n += 1
        if not p.require(D.dp_delta(FP, FQ, w) <= D.dp_delta(P, Q, w), "F o M is (eps, delta)-DP",
                         f"P={P} Q={Q} F={fmap} e^eps={w}"):
            return
    p.instances("random pairs and Markov kernels (30% deterministic): least delta of F o M <= that of M", n)
