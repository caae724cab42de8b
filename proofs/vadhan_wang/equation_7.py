"""Vadhan-Wang Equation (7): T's first answer on RR output 1 (the mirror of Equation (6)).

Printed: Pr[T(1, q_0) = a_0] = (e^eps Pr[M(x_1, q_0) = a_0] - Pr[M(x_0, q_0) = a_0])/(e^eps - 1).

Checked as Equation (6) (``equation_6.first_round`` with c = 1).
"""

from __future__ import annotations

from .._framework import Proof, statement
from .equation_6 import first_round


@statement(
    "Equation (7)",
    "Pr[T(1, q_0) = a_0] = (e^eps Pr[M(x_1, q_0) = a_0] - Pr[M(x_0, q_0) = a_0])/(e^eps - 1).",
)
def equation(p: Proof) -> None:
    first_round(p, 1)
