"""Vadhan-Wang Equation (10): the conditionals (8) sum to 1.

Printed: sum_{a_{t-1}} Pr[T(0, q^(t)) = a_{t-1} | a_0..a_{t-2}]
= (e^eps sum_{a_{t-1}} Pr[M-vec(x_0, q^(t)) = (a_0..a_{t-1})] - sum_{a_{t-1}} Pr[M-vec(x_1, q^(t)) = ...]) / (...)
= (e^eps Pr[M-vec(x_0, q^(t)) = (a_0..a_{t-2})] - Pr[M-vec(x_1, q^(t)) = (a_0..a_{t-2})]) / ((e^eps - 1) Pr[T-vec(0,
q^(t-1)) = (a_0..a_{t-2})]) = 1.

Checked, each equality separately, exactly on every history with a non-zero denominator: the
middle expression uses the marginal of t-1 answers of M-vec under q^(t), which is M-vec under
q^(t-1) (a mechanism's earlier answers do not depend on later queries; printed with q^(t), which
is the same number); the last equality is the joint formula of the previous round. Also the
identity symbolically: (w A - B)/((w - 1) (w A - B)/(w - 1)) = 1 (sympy).
"""

from __future__ import annotations

import sympy as sp

from .._framework import Proof, statement
from . import _sim as S
from .theorem_1_5 import instances


@statement(
    "Equation (10)",
    "sum_{a_{t-1}} Pr[T(0, q^(t)) = a_{t-1} | a_0..a_{t-2}] = (e^eps Pr[M-vec(x_0, q^(t)) = (a_0..a_{t-2})] - "
    "Pr[M-vec(x_1, q^(t)) = (a_0..a_{t-2})]) / ((e^eps - 1) Pr[T-vec(0, q^(t-1)) = (a_0..a_{t-2})]) = 1.",
)
def equation(p: Proof) -> None:
    n = 0
    for m, w in instances(p):
        T, _ = S.thm52_T(m, w)
        for r in range(1, m.rounds):
            for h in m.histories(r):
                prefix = h[:-1]
                den = (w - 1) * T.path(0, prefix)
                if den == 0:
                    continue
                s1 = sum(T.cond[0][h].values())
                marg0 = sum(m.path(0, h + (a,)) for a in m.answers)
                marg1 = sum(m.path(1, h + (a,)) for a in m.answers)
                mid = (w * marg0 - marg1) / den
                n += 1
                if not p.require(marg0 == m.path(0, prefix) and marg1 == m.path(1, prefix) and s1 == mid == 1,
                                 "each equality of (10)", f"{m} e^eps={w} h={h}"):
                    return
    w, A, B = sp.symbols("w A B", positive=True)
    ok = sp.simplify((w * A - B) / ((w - 1) * ((w * A - B) / (w - 1))) - 1) == 0
    p.symbolic("(wA - B) / ((w-1) (wA - B)/(w-1)) = 1 where wA != B", ok)
    p.instances("every history of rounds >= 2 with non-zero denominator: sum of (8) = middle expression = 1; the "
                "marginals of M-vec under q^(t) equal M-vec under q^(t-1)", n, "exhaustive")
