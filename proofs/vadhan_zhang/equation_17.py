"""Vadhan-Zhang Equation (17): View(B <-> M(x')) = View(B <-> P(Y')) (Theorem 4.1's conclusion on x').

Checked as Equation (16), on the second dataset.
"""

from __future__ import annotations

from .._framework import Proof, statement
from .equation_16 import check_side


@statement("Equation (17)", "View(B <-> M(x')) = View(B <-> P(Y')) for every adversary B.")
def equation(p: Proof) -> None:
    p.instances("every deterministic adversary of random and extreme finite mechanisms: the law on x'", check_side(p, 1),
                "exhaustive")
