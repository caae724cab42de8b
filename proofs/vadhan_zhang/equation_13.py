"""Vadhan-Zhang Equation (13): sup{ChainRule(f_1, .., f_i, .., f_n) : f_i in S_i}(alpha) written, by Lemma 2.4,
as inf over a law F_i on S_i, budgets A(F_i) with E[A(F_i)] <= alpha, and allocations A_j(F_i) with
E_{j~X}[A_j(F_i)] <= A(F_i), of E_{F_i} E_{j~X'}[f_j(A_j(F_i)) 1(j != i) + F_i(A_i(F_i)) 1(j = i)] (the
inner inf taken inside because the A_j(f_i) are chosen separately for each f_i).

Checked exactly for finite S_i: the last expression, evaluated from its definition (a law on at most two
members of S_i by Caratheodory, budgets at breakpoints, the inner infimum by the vertex brute force of
formula (9)), equals the sup in the poset (the lower convex envelope of the ChainRule values).
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _tradeoff as T
from .lemma_1_7 import continuity_instances


def items_with(X, fs, i, fi):
    return [(a, b, fi if j == i else fs[j]) for j, (a, b) in enumerate(X)]


def points_13(X, fs, i, S):
    """(budget, inner infimum) pairs: for each member g of S_i, the inner inf over the allocations A_j given the
    budget A(g) = b, i.e. formula (9) with f_i = g at b (vertex brute force), at each breakpoint b."""
    pts = []
    for g in S:
        its = items_with(X, fs, i, g)
        pts += [(b, T.chain_rule_at(its, b)) for b, _ in T.chain_rule(its)]
    return pts


def value_13(pts, alpha) -> F:
    """The outer inf over laws of F_i (at most two members, Caratheodory) and budgets with mean <= alpha."""
    best = min(v for b, v in pts if b <= alpha)
    for b1, v1 in pts:
        if b1 > alpha:
            continue
        for b2, v2 in pts:
            if b2 > alpha:
                lam = (b2 - alpha) / (b2 - b1)
                best = min(best, lam * v1 + (1 - lam) * v2)
    return best


@statement(
    "Equation (13)",
    "sup(ChainRule(.., f_i, ..) : f_i in S_i)(alpha) = inf_{F_i, A, A_j} {E_{F_i} E_{j~X'}[f_j(A_j(F_i)) 1(j != i) + "
    "F_i(A_i(F_i)) 1(j = i)] : E_{j~X}[A_j(F_i)] <= A(F_i), E_{F_i}[A(F_i)] <= alpha}.",
)
def equation(p: Proof) -> None:
    n = 0
    for X, fs, i, S in continuity_instances(p, 20 if p.full else 6):
        sup = T.envelope([T.chain_rule(items_with(X, fs, i, g)) for g in S])
        pts = points_13(X, fs, i, S)
        for a in (F(0), F(1, 7), F(1, 3), F(2, 3), F(1)):
            n += 1
            if not p.require(value_13(pts, a) == T.value(sup, a), "(13)'s last expression = the sup",
                             f"X={X} i={i} alpha={a}"):
                return
    p.instances("finite S_i (1-4 functions), |supp X| <= 3, alpha in {0, 1/7, 1/3, 2/3, 1}", n)
