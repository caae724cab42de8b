"""Vadhan-Zhang Equation (8): T(P, P') = f for the pair (P, P') realising the trade-off function f
("a function is called a trade-off function if it is equal to T(P, P') for some P, P'").

Checked exactly: for random trade-off functions and the extreme ones, the canonical pair used by the
construction (one outcome per linear piece) has T(P, P') = f.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _tradeoff as T
from .proposition_1_7 import rand_convex


@statement("Equation (8)", "T(P, P') = f for the pair (P, P') with T(P, P') = f chosen in Lemma 3.1's proof.")
def equation(p: Proof) -> None:
    n = 0
    fs = [T.PERFECT, T.IDENTITY, T.feps(F(10) ** 6, F(1, 10) ** 9)]
    fs += [rand_convex(p.rng) for _ in range(60 if p.full else 25)] + [T.rand_tf(p.rng) for _ in range(25)]
    for f in fs:
        n += 1
        if not p.require(T.equal(T.tradeoff(T.canonical(f)), f), "T(canonical pair of f) = f", T.fmt_tf(f)):
            return
    p.instances("random and extreme trade-off functions: the canonical pair realises f exactly", n)
