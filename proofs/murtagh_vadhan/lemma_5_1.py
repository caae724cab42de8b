"""Murtagh-Vadhan Lemma 5.1 (the knapsack-style dynamic program).

Printed: given non-negative integers a_1..a_k, B and weights w_1..w_k in R, one can
compute sum_{S subset [k], sum_S a_i <= B} prod_{i in S} w_i in time O(Bk), by the
table F(r, s) with F(0, s) = 1, F(r, s) = F(r-1, s) + w_r F(r-1, s - a_r) if a_r <= s,
else F(r-1, s).

Checked: the printed recursion (transcribed literally) against brute force over
all subsets, with rational weights (positive, zero, negative) and with symbolic
weights (a polynomial identity per shape); the table has (k+1)(B+1) cells.
Library cross-check: exactdp's knapsack_sum (rational weights) equals brute force.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import sympy as sp

from .._crosscheck import crosschecked
from .._framework import Proof, statement
from ._approx import knapsack_brute, knapsack_sum


@statement(
    "Lemma 5.1",
    "Given non-negative integers a_1..a_k, B and real weights w_1..w_k, sum_{S: sum_S a_i <= B} prod_S w_i can be "
    "computed in time O(Bk) (table F(r,s) with F(0,s) = 1, F(r,s) = F(r-1,s) + w_r F(r-1,s-a_r) if a_r <= s).",
    library=("exactdp.approx.knapsack.knapsack_sum",),
)
def lemma(p: Proof) -> None:
    from exactdp.approx.knapsack import knapsack_sum as lib_knapsack_sum

    n = n_sym = n_lib = 0
    for _ in range(600 if p.full else 200):
        k = p.rng.randint(0, 7)
        a = [p.rng.randint(0, 4) for _ in range(k)]
        B = p.rng.randint(0, 10)
        w = [F(p.rng.randint(-5, 7), p.rng.randint(1, 4)) for _ in range(k)]
        v, cells = knapsack_sum(a, B, w)
        brute = knapsack_brute(a, B, w)
        n += 1
        if not p.require(v == brute and cells == (k + 1) * (B + 1),
                         "F(k, B) = brute-force sum; (k+1)(B+1) cells", f"a={a} B={B} w={w}"):
            return
        p.agree(p.library("exactdp knapsack_sum", lib_knapsack_sum, a, B, w), brute, "exactdp knapsack_sum",
                f"a={a} B={B} w={w}")
        n_lib += 1
    ws = sp.symbols("w1:5")
    for k in range(0, 4 if not p.full else 5):
        for a in itertools.product(range(3), repeat=k):
            for B in range(0, 5):
                v, _ = knapsack_sum(list(a), B, list(ws[:k]))
                n_sym += 1
                if not p.require(sp.expand(v - knapsack_brute(list(a), B, list(ws[:k]))) == 0, "symbolic weights",
                                 f"a={a} B={B}"):
                    return
    p.instances("printed recursion = brute force over all 2^k subsets (rational weights incl. 0 and negative; "
                "table size (k+1)(B+1), i.e. O(Bk) cells of O(1) work)", n)
    p.instances("polynomial identity in symbolic weights w_1..w_k for every a in {0,1,2}^k, B <= 4 (k <= 3)", n_sym,
                "exhaustive")
    crosschecked(p, "exactdp knapsack_sum (Fraction weights) equals the brute-force sum over all subsets", n_lib)
    p.note("'F(k B)' and 'F(r s)' in our copy are F(k, B), F(r, s) with the commas lost in conversion.")
