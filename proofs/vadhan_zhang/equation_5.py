"""Vadhan-Zhang Equation (5): convexity of h (Lemma 2.4's proof),
h(lam a + (1-lam) b) = inf{E[F(A(F))] : E[A(F)] <= lam a + (1-lam) b}
<= lam inf{... <= a} + (1-lam) inf{... <= b} = lam h(a) + (1-lam) h(b).

Checked exactly for finite S (formula (4) evaluated from its definition by Caratheodory pairs):
random a, b, lam; every value of the chain.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _sup as Su


@statement(
    "Equation (5)",
    "h(lam a + (1 - lam) b) = inf{E[F(A(F))] : E[A(F)] <= lam a + (1 - lam) b} <= lam h(a) + (1 - lam) h(b).",
)
def equation(p: Proof) -> None:
    n = 0
    for _ in range(40 if p.full else 15):
        S = Su.rand_S(p)
        for _ in range(6):
            a, b = F(p.rng.randint(0, 12), 12), F(p.rng.randint(0, 12), 12)
            lam = F(p.rng.randint(0, 6), 6)
            n += 1
            if not p.require(Su.h_formula(S, lam * a + (1 - lam) * b) <= lam * Su.h_formula(S, a) + (1 - lam) *
                             Su.h_formula(S, b), "h convex", f"S={S} a={a} b={b} lam={lam}"):
                return
    p.instances("finite S (1-4 random trade-off functions), a, b in k/12, lam in k/6", n)
