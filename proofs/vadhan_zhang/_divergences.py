"""Max-divergence and helpers shared by Section 2 and 5 checks. Guarantee: exact."""

from __future__ import annotations

import math
from fractions import Fraction as F
from typing import Sequence, Tuple

INF = math.inf


def max_ratio(pairs: Sequence[Tuple[F, F]]):
    """exp(D_inf(P||Q)) = max_x P(x)/Q(x) over supp P (INF when Q(x) = 0 < P(x))."""
    best = F(0)
    for p, q in pairs:
        if p > 0:
            if q == 0:
                return INF
            best = max(best, p / q)
    return best


def sup_subsets_ratio(pairs: Sequence[Tuple[F, F]]):
    """exp(D_inf) as printed: sup over nonempty T subset supp(P) of P(T)/Q(T)."""
    idx = [i for i, (p, _) in enumerate(pairs) if p > 0]
    best = F(0)
    for mask in range(1, 1 << len(idx)):
        P = sum(pairs[idx[k]][0] for k in range(len(idx)) if mask >> k & 1)
        Q = sum(pairs[idx[k]][1] for k in range(len(idx)) if mask >> k & 1)
        if Q == 0:
            return INF
        best = max(best, P / Q)
    return best


def mix(lam: F, a, b):
    """The pair ((1-lam) P0 + lam P1, (1-lam) Q0 + lam Q1) on a common outcome space."""
    return [((1 - lam) * p0 + lam * p1, (1 - lam) * q0 + lam * q1) for (p0, q0), (p1, q1) in zip(a, b)]


def mix_printed(lam: F, a, b):
    """As printed in Lemmas 2.1 and 2.2: the second argument (1 - lam) Q0 + Q1 (lam missing)."""
    return [((1 - lam) * p0 + lam * p1, (1 - lam) * q0 + q1) for (p0, q0), (p1, q1) in zip(a, b)]
