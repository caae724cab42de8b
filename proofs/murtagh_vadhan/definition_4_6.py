"""Murtagh-Vadhan Definition 4.6 (#PARTITION over D-th roots in [1, e])."""

from __future__ import annotations

import itertools

from exactdp._backend import arb, fmpz, workprec

from .._framework import Proof, statement
from . import _partition as R


def _le_e_power(n: int, D: int) -> bool:
    """n <= e^D decided with the rational bracket L <= e <= L + 2/21!, L = sum_{j<=20} 1/j! (exact)."""
    from fractions import Fraction as F
    from math import factorial

    L = sum((F(1, factorial(j)) for j in range(21)), F(0))
    U = L + F(2, factorial(21))
    if n <= L ** D:
        return True
    if n > U ** D:
        return False
    raise ArithmeticError("bracket too wide")


@statement(
    "Definition 4.6",
    "#PARTITION: given D in N and w_1..w_k with 1 <= w_i <= e each the D-th root of a positive integer, count the "
    "P subset [k] with prod_P w_i - prod_notP w_i = 0.",
)
def definition(p: Proof) -> None:
    n = n_range = 0
    for D in (1, 2, 3, 4):
        for k in range(1, 5 if p.full else 4):
            for ns in itertools.combinations_with_replacement(range(1, 8), k):
                a = R.count_partition(D, ns)                                   # radical zero test
                b = sum(1 for _, X, Y in R.splits(ns) if X == Y)               # raise to the D-th power
                with workprec(128):                                            # numeric, certified separation
                    c = 0
                    for _, X, Y in R.splits(ns):
                        v = arb(fmpz(X)).root(D) - arb(fmpz(Y)).root(D)
                        if v.contains(0):
                            c += 1
                n += 1
                if not p.require(a == b == c, "three counts agree", f"D={D} ns={ns}: {a} {b} {c}"):
                    return
                n_range += 1
                in_range = all(R.within_e(x, D) for x in ns)
                if not p.require(in_range == all(_le_e_power(x, D) for x in ns), "range test", f"D={D} ns={ns}"):
                    return
    p.instances("count via exact radical arithmetic = count via D-th powers of products = count via Arb balls "
                "(D <= 4, k <= 3, n_i <= 7)", n, "exhaustive")
    p.instances("the constraint 1 <= n^(1/D) <= e decided by Arb (n <= e^D) agrees with a rational bracket of e "
                "(partial sums of sum 1/j!)", n_range)
    p.note("All P subset [k] are counted, including P = emptyset and P = [k]: for W all ones the count is 2^k "
           "(see the Lemma 4.10 erratum).")
