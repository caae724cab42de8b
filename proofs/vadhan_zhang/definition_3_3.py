"""Vadhan-Zhang Definition 3.3 (continuous in each variable).

Printed: f: A^S -> B (S finite) is continuous in each variable if for every i and fixed other arguments,
x -> f(a_1, .., x, .., a_n) is continuous.

What Theorem 4.1's proof uses it for is checked exhaustively for n = 2 over every complete poset A with
at most 2 elements and B with at most 3 (4 with --full), and every function A^2 -> B: continuity in each
variable implies monotonicity in the product order ("by monotonicity of ChainRule") and
f(sup S_1, sup S_2) = sup f(S_1 x S_2) for every product of nonempty sets (the exchange of sup and
ChainRule over a product set of adversaries, Equations (19)-(20)).
"""

from __future__ import annotations

import itertools

from .._framework import Proof, statement
from . import _posets as Po


def product_le(A, x, y):
    return Po.le(A, x[0], y[0]) and Po.le(A, x[1], y[1])


@statement(
    "Definition 3.3",
    "f: A^S -> B is continuous in each variable if for every i and fixed a_j (j != i), x -> f(a_1, .., x, .., a_n) is "
    "continuous.",
)
def definition(p: Proof) -> None:
    n = 0
    As = Po.complete_posets(2)
    Bs = Po.complete_posets(4 if p.full else 3)
    for A in As:
        pts = [(a, b) for a in range(A[0]) for b in range(A[0])]
        subsets = list(Po.nonempty_subsets(A[0]))
        for B in Bs:
            for vals in itertools.product(range(B[0]), repeat=len(pts)):
                f = dict(zip(pts, vals))
                each = all(f[(Po.sup(A, S), b)] == Po.sup(B, [f[(s, b)] for s in S]) for S in subsets for b in range(A[0]))
                each = each and all(f[(a, Po.sup(A, S))] == Po.sup(B, [f[(a, s)] for s in S])
                                    for S in subsets for a in range(A[0]))
                if not each:
                    continue
                n += 1
                mono = all(Po.le(B, f[x], f[y]) for x in pts for y in pts if product_le(A, x, y))
                prod = all(f[(Po.sup(A, S1), Po.sup(A, S2))] == Po.sup(B, [f[(s, t)] for s in S1 for t in S2])
                           for S1 in subsets for S2 in subsets)
                if not p.require(mono and prod, "continuous in each variable => monotone and sup over product sets",
                                 f"A={sorted(A[1])} B={sorted(B[1])} f={f}"):
                    return
    p.instances("every function A^2 -> B continuous in each variable (A <= 2 elements, B <= 3 or 4, complete): monotone in "
                "the product order and commuting with sups of product sets", n, "exhaustive")
