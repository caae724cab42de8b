"""Vadhan-Zhang Lemma 3.1 (Lemma 1.6 restated: (F, <=, T) has the coupling property) and its proof.

Printed proof: take (P, P') with T(P, P') = f; by Blackwell's theorem there are P_0 with P_0(P) = X,
P_0(P') = X' and P_1 with P_1(P) = Y, P_1(P') = Y'; couple as (P_0(P), P_1(P)) and (P_0(P'), P_1(P')); then
T(coupled) >= T(P, P') (7) = f (8).

Checked with the extreme f's (0, 1 - alpha, f_{eps,delta} with e^eps = 10^6 and delta = 10^-9,
G-like piecewise-linear f's with many pieces) and random ones; the kernels P_0, P_1 come from the exact
LP and are verified exactly; Equations (7) and (8) are checked in their own entries.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _tradeoff as T
from .lemma_1_6 import check_coupling, coupling_instances


@statement(
    "Lemma 3.1",
    "(F, <=, T) has the coupling property: if T(X, X') >= f and T(Y, Y') >= f there are couplings with "
    "T((X, Y) || (X', Y')) >= f.",
)
def lemma(p: Proof) -> None:
    n = 0
    fs = [T.PERFECT, T.IDENTITY, T.feps(F(10) ** 6, F(1, 10) ** 9), T.feps(F(1), F(1, 2)),
          T.tradeoff(T.product_pairs(*[T.rr_pair(F(2), 0)] * 3))]
    for f in fs:
        c = T.canonical(f)
        for _ in range(3):
            X = T.push(c, T.rand_kernel(p.rng, len(c), p.rng.randint(1, 3)))
            Y = T.push(c, T.rand_kernel(p.rng, len(c), p.rng.randint(1, 3)))
            n += 1
            if not check_coupling(p, f, X, Y):
                return
    for f, X, Y in coupling_instances(p, 40 if p.full else 10):
        n += 1
        if not check_coupling(p, f, X, Y):
            return
    p.instances("f in {0, 1 - alpha, f_(ln 10^6, 10^-9), f_(0, 1/2), (RR_(ln 2))^(x)3} and random f: the proof's "
                "couplings have the right marginals and T >= f", n)
