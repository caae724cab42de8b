"""Vadhan-Zhang Equation (7): T((P_0(P), P_1(P)), (P_0(P'), P_1(P'))) >= T(P, P') (post-processing,
Lemma 2.9 of Dong-Roth-Su), for any randomized P_0, P_1 applied to the same sample with independent coins.

Checked exactly: random pairs (P, P') and random kernels P_0, P_1 (not only the Blackwell kernels of the
proof); the coupled pair's trade-off function is pointwise >= T(P, P').
"""

from __future__ import annotations

from .._framework import Proof, statement
from . import _tradeoff as T


@statement("Equation (7)", "T((P_0(P), P_1(P)), (P_0(P'), P_1(P'))) >= T(P, P').")
def equation(p: Proof) -> None:
    n = 0
    for _ in range(120 if p.full else 40):
        src = T.rand_pairs(p.rng, p.rng.randint(1, 4))
        K0 = T.rand_kernel(p.rng, len(src), p.rng.randint(1, 3))
        K1 = T.rand_kernel(p.rng, len(src), p.rng.randint(1, 3))
        joint = [(sum(s[0] * K0[k][i] * K1[k][j] for k, s in enumerate(src)),
                  sum(s[1] * K0[k][i] * K1[k][j] for k, s in enumerate(src)))
                 for i in range(len(K0[0])) for j in range(len(K1[0]))]
        n += 1
        if not p.require(T.le(T.tradeoff(src), T.tradeoff(joint)), "joint post-processing cannot help",
                         f"{src} K0={K0} K1={K1}"):
            return
    p.instances("random pairs, random kernels P_0, P_1 with independent coins on the same sample", n)
