"""Murtagh-Vadhan Definition 4.7 (#T-PARTITION)."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

from .._framework import Proof, statement
from . import _partition as R


@statement(
    "Definition 4.7",
    "#T-PARTITION: given D, w_1..w_k (D-th roots of positive integers in [1, e]) and a positive real T, count the "
    "P subset [k] with prod_P w_i - prod_notP w_i = T.",
)
def definition(p: Proof) -> None:
    n = 0
    for D in (1, 2, 3):
        for k in range(1, 5 if p.full else 4):
            for ns in itertools.combinations_with_replacement(range(1, 6), k):
                N = R.prod_int(ns)
                gaps = [R.gap(D, X, Y) for _, X, Y in R.splits(ns)]
                Ts = [g for g in gaps if g.sign() > 0][:2] + [R.Rad.rational(F(3, 2))]
                for T in Ts:
                    a = R.count_t_partition(D, ns, T)
                    # second algorithm: solve x - W/x = T, j = x^D; count P with prod_P n_i = j (j must be an integer)
                    j, is_int = R.j_of_z(D, N, T)
                    b = sum(1 for _, X, _ in R.splits(ns) if X == j) if is_int else 0
                    n += 1
                    if not p.require(a == b, "direct count = count via the quadratic", f"D={D} ns={ns} T={T}: {a} vs {b}"):
                        return
    p.instances("count by exact radical comparison = count of P with prod_P n_i = j_T, j_T from solving x - W/x = T "
                "(T attained gaps and T = 3/2)", n, "exhaustive")
