"""Vadhan-Wang Equation (6): T's first answer on RR output 0.

Printed: Pr[T(0, q_0) = a_0] = (e^eps Pr[M(x_0, q_0) = a_0] - Pr[M(x_1, q_0) = a_0])/(e^eps - 1).

Checked on random (eps, 0)-DP mechanisms (e^eps their least pure parameter, or larger): for every
first query, (6) is a probability distribution on the answers (non-negative because
Pr[M(x_1, q_0) = a] <= e^eps Pr[M(x_0, q_0) = a]; sums to (e^eps - 1)/(e^eps - 1) = 1), and with (7)
the RR mixture e^eps/(1+e^eps) T(0) + 1/(1+e^eps) T(1) is M(x_0, q_0)'s answer distribution.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _sim as S
from .theorem_1_5 import instances


def first_round(p: Proof, c: int) -> None:
    n = 0
    for m, w in instances(p):
        T, _ = S.thm52_T(m, w)
        for h in m.histories(0):
            d = T.cond[c][h]
            n += 1
            if not p.require(all(v >= 0 for v in d.values()) and sum(d.values()) == 1,
                             f"Equation ({6 + c}) is a distribution", f"{m} e^eps={w} q0={h}"):
                return
            for b in (0, 1):
                mix = {a: (w if b == 0 else 1) / (1 + w) * T.cond[0][h][a] + (1 if b == 0 else w) / (1 + w) * T.cond[1][h][a]
                       for a in m.answers}
                n += 1
                if not p.require(all(mix[a] == m.cond[b][h].get(a, F(0)) for a in m.answers),
                                 "RR mixture of (6), (7) = M(x_b, q_0)", f"{m} e^eps={w} b={b} q0={h}"):
                    return
    p.instances(f"Equation ({6 + c}) transcribed: a distribution for every first query; the RR_eps mixture of (6), (7) "
                "is M(x_b, q_0) for b = 0, 1", n, "exhaustive")


@statement(
    "Equation (6)",
    "Pr[T(0, q_0) = a_0] = (e^eps Pr[M(x_0, q_0) = a_0] - Pr[M(x_1, q_0) = a_0])/(e^eps - 1).",
)
def equation(p: Proof) -> None:
    first_round(p, 0)
