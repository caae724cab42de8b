"""Vadhan-Wang Equation (9): T's later answers on RR output 1 (the mirror of Equation (8)).

Printed: Pr[T(1, q^(t)) = a_{t-1} | a_0..a_{t-2}] = (e^eps Pr[M-vec(x_1, q^(t)) = (a_0..a_{t-1})] -
Pr[M-vec(x_0, q^(t)) = (a_0..a_{t-1})]) / ((e^eps - 1) Pr[T-vec(1, q^(t-1)) = (a_0..a_{t-2})]).

Checked as Equation (8) (``equation_8.later_rounds`` with c = 1).
"""

from __future__ import annotations

from .._framework import Proof, statement
from .equation_8 import later_rounds


@statement(
    "Equation (9)",
    "Pr[T(1, q^(t)) = a_{t-1} | a_0..a_{t-2}] = (e^eps Pr[M-vec(x_1, q^(t)) = (a_0..a_{t-1})] - Pr[M-vec(x_0, q^(t)) = "
    "(a_0..a_{t-1})]) / ((e^eps - 1) Pr[T-vec(1, q^(t-1)) = (a_0..a_{t-2})]).",
)
def equation(p: Proof) -> None:
    later_rounds(p, 1)
