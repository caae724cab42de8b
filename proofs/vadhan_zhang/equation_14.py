"""Vadhan-Zhang Equation (14): ChainRule(f_1, .., sup S_i, .., f_n)(alpha) = inf over alpha_1..alpha_n with
E_{j~X}[alpha_j] <= alpha, a law F_i on S_i and A_i with E[A_i(F_i)] <= alpha_i, of
E_{F_i} E_{j~X'}[f_j(alpha_j) 1(j != i) + F_i(A_i(F_i)) 1(j = i)] -- and, the conclusion of the proof, this equals
(13).

Checked exactly for finite S_i: ChainRule with the i-th argument the sup of S_i (the lower convex
envelope, formula (4) for finite sets), by the vertex brute force of formula (9), equals (13)'s value at
every alpha tested.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _tradeoff as T
from .equation_13 import items_with, points_13, value_13
from .lemma_1_7 import continuity_instances


@statement(
    "Equation (14)",
    "ChainRule(f_1, .., sup S_i, .., f_n)(alpha) = inf_{alpha_j, F_i, A_i} {E_{F_i} E_{j~X'}[f_j(alpha_j) 1(j != i) + "
    "F_i(A_i(F_i)) 1(j = i)] : E_{j~X}[alpha_j] <= alpha, E_{F_i}[A_i(F_i)] <= alpha_i} (= (13)).",
)
def equation(p: Proof) -> None:
    n = 0
    for X, fs, i, S in continuity_instances(p, 20 if p.full else 6):
        env = T.envelope(S)
        pts = points_13(X, fs, i, S)
        for a in (F(0), F(1, 7), F(1, 3), F(2, 3), F(1)):
            n += 1
            if not p.require(T.chain_rule_at(items_with(X, fs, i, env), a) == value_13(pts, a),
                             "ChainRule(.., sup S_i, ..) = (13)", f"X={X} i={i} alpha={a}"):
                return
    p.instances("finite S_i, |supp X| <= 3, alpha in {0, 1/7, 1/3, 2/3, 1}", n)
