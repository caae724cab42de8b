"""Vadhan-Zhang Equation (15): E_{j~X'}[f_j(alpha_j) 1(j != i)] = E_{j~X'}[f_j(E_{F_i}[A_j(F_i)]) 1(j != i)]
<= E_{j~X'} E_{F_i}[f_j(A_j(F_i)) 1(j != i)] for alpha_j = E_{F_i}[A_j(F_i)] (trade-off functions are convex).

Checked exactly: random X', random trade-off functions f_j, random laws of F_i and allocations A_j.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _tradeoff as T


@statement(
    "Equation (15)",
    "E_{j~X'}[f_j(E_{F_i}[A_j(F_i)]) 1(j != i)] <= E_{j~X'} E_{F_i}[f_j(A_j(F_i)) 1(j != i)].",
)
def equation(p: Proof) -> None:
    n = 0
    for _ in range(200 if p.full else 60):
        nj = p.rng.randint(1, 4)
        Xp = T.rand_dist(p.rng, nj)
        fs = [T.rand_tf(p.rng, 3) for _ in range(nj)]
        i = p.rng.randrange(nj)
        law = T.rand_dist(p.rng, p.rng.randint(1, 3), 5, False)
        A = [[F(p.rng.randint(0, 12), 12) for _ in law] for _ in range(nj)]
        lhs = sum(Xp[j] * T.value(fs[j], sum(w * a for w, a in zip(law, A[j]))) for j in range(nj) if j != i)
        rhs = sum(Xp[j] * sum(w * T.value(fs[j], a) for w, a in zip(law, A[j])) for j in range(nj) if j != i)
        n += 1
        if not p.require(lhs <= rhs, "Jensen for each convex f_j", f"X'={Xp} fs={fs} law={law} A={A}"):
            return
    p.instances("random X', f_j, laws of F_i on 1-3 members, allocations in k/12", n)
