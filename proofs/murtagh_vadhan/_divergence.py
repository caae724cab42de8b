"""Definition 2.1's delta-approximate max-divergence, in exp-space, by brute force over sets.

``exp_dmax(Y, Z, delta)`` is ``exp(D_inf^delta(Y || Z)) = max_S (Pr[Y in S] - delta) / Pr[Z in S]``
over all sets S of a finite output space, with the conventions the definition
needs: a set with ``Pr[Y in S] - delta <= 0`` contributes nothing (its log is
undefined / -inf) and one with ``Pr[Z in S] = 0 < Pr[Y in S] - delta`` gives
``+inf``. Guarantee: exact (Fractions; ``math.inf`` for +inf).
"""

from __future__ import annotations

import math
from fractions import Fraction as F
from typing import Sequence, Union

Num = Union[F, float]


def exp_dmax(Y: Sequence[F], Z: Sequence[F], delta: F) -> Num:
    n = len(Y)
    best: Num = -math.inf
    for mask in range(1, 1 << n):
        y = sum((Y[i] for i in range(n) if mask >> i & 1), F(0))
        z = sum((Z[i] for i in range(n) if mask >> i & 1), F(0))
        num = y - delta
        if num <= 0:
            continue
        if z == 0:
            return math.inf
        v = num / z
        if v > best:
            best = v
    return best


def dp_all_sets(Y: Sequence[F], Z: Sequence[F], t: F, delta: F) -> bool:
    """Definition 1.1 for one ordered pair: ``Pr[Y in S] <= t Pr[Z in S] + delta`` for every S."""
    n = len(Y)
    for mask in range(1 << n):
        y = sum((Y[i] for i in range(n) if mask >> i & 1), F(0))
        z = sum((Z[i] for i in range(n) if mask >> i & 1), F(0))
        if y > t * z + delta:
            return False
    return True


def le(a: Num, b: Num) -> bool:
    return a <= b
