"""Approximating OptComp with a certified guarantee (Murtagh-Vadhan Section 5).

* :mod:`.knapsack` Lemma 5.1, the knapsack table.
* :mod:`.lattice` the rounded composition ``w_i' = u^(a_i)`` and its OptComp (the
  engines' one inverse); exact floor/ceil decisions (:func:`lattice_exponents`).
* :mod:`.decision` Lemma 5.2 and the proof's form of Theorem 1.7.
* :mod:`.lemma53` Lemma 5.3.
* :mod:`.theorem17` Theorem 1.7 (variants ``up`` and ``completion``; the printed ones
  for the errata).
* :mod:`.sandwich` rigorous bounds on the true OptComp and delta_g from two lattices.

References: Murtagh-Vadhan, "The Complexity of Computing the Optimal Composition of
Differential Privacy" (TCC 2016), Section 5; ``docs/approx.md``; ``docs/errata.md``.
"""

from ..engines.costs import MAX_DEGREE, MAX_EXPONENT, MAX_POLY_BITS, MAX_PROOF_SECONDS
from .decision import lemma52_decide
from .knapsack import knapsack_arb, knapsack_sum
from .lattice import lattice_exponent_groups, lattice_exponents
from .lemma53 import lemma53_bound
from .sandwich import Bounds, delta_bounds, optcomp_bounds
from .theorem17 import FORMS, VARIANTS, ApproxResult, theorem17

__all__ = [
    "knapsack_sum",
    "knapsack_arb",
    "lemma52_decide",
    "lemma53_bound",
    "lattice_exponents",
    "lattice_exponent_groups",
    "theorem17",
    "ApproxResult",
    "Bounds",
    "optcomp_bounds",
    "delta_bounds",
    "VARIANTS",
    "FORMS",
    "MAX_DEGREE",
    "MAX_POLY_BITS",
    "MAX_PROOF_SECONDS",
    "MAX_EXPONENT",
]
