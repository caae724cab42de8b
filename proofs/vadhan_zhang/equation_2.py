"""Vadhan-Zhang Equation (2): T(Y, Y')(alpha) = inf{beta_phi : alpha_phi <= alpha}.

Checked on finite pairs: the infimum over every rejection rule -- every deterministic test (all 2^n
rejection sets) and their randomisations (the lower convex hull) -- computed literally, against the
Neyman-Pearson computation used throughout (reject outcomes in decreasing likelihood ratio), as
exact piecewise-linear functions; and the infimum is attained by the Neyman-Pearson randomised test
at every alpha checked.
"""

from __future__ import annotations

from .._framework import Proof, statement
from . import _tradeoff as T


@statement("Equation (2)", "T(Y, Y')(alpha) = inf{beta_phi : alpha_phi <= alpha} over all rejection rules phi.")
def equation(p: Proof) -> None:
    n = 0
    for _ in range(400 if p.full else 120):
        pairs = T.rand_pairs(p.rng, p.rng.randint(1, 7 if p.full else 6), p.rng.choice([3, 9, 1000]))
        a, b = T.tradeoff(pairs), T.tradeoff_brute(pairs)
        n += 1
        if not p.require(T.equal(a, b), "Neyman-Pearson = inf over every (randomised) test", T.fmt_pairs(pairs)):
            return
    p.instances("random pairs on 1-6 outcomes (denominators up to 1000, zero masses): the infimum over all 2^n tests "
                "and their mixtures equals the Neyman-Pearson trade-off function exactly", n, "exhaustive")
