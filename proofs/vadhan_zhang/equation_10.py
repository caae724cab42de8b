"""Vadhan-Zhang Equation (10): f_x(alpha) := T(Y|X=x, Y'|X'=x)(alpha), and the inequality after it: every
rule phi with E_{y~Y|x}[phi_x(y)] = alpha_x has 1 - E_{y'~Y'|x}[phi_x(y')] >= f_x(alpha_x).

Checked exhaustively: for every deterministic test phi on the joint outcomes of random finite instances
and every x in the common support, the restriction phi_x(y) = phi(x, y) satisfies the inequality.
"""

from __future__ import annotations

from .._framework import Proof, statement
from . import _tradeoff as T
from .claim_3_4 import instance


@statement(
    "Equation (10)",
    "f_x(alpha) := T(Y|X=x, Y'|X'=x)(alpha); any phi with E_{Y|x}[phi_x] = alpha_x has 1 - E_{Y'|x}[phi_x] >= f_x(alpha_x).",
)
def equation(p: Proof) -> None:
    n = 0
    for _ in range(40 if p.full else 15):
        X, conds, items = instance(p)
        outcomes = [(x, j) for x, Y in enumerate(conds) for j in range(len(Y))]
        for mask in range(1 << len(outcomes)):
            phi = {o for k, o in enumerate(outcomes) if mask >> k & 1}
            for x, ((px, qx), Y) in enumerate(zip(X, conds)):
                if not (px and qx):
                    continue
                ax = sum(a for j, (a, _) in enumerate(Y) if (x, j) in phi)
                bx = 1 - sum(b for j, (_, b) in enumerate(Y) if (x, j) in phi)
                n += 1
                if not p.require(bx >= T.value(items[x][2], ax), "beta_x >= f_x(alpha_x)", f"X={X} conds={conds} phi={phi}"):
                    return
    p.instances("every deterministic joint test and every x in the common support", n, "exhaustive")
