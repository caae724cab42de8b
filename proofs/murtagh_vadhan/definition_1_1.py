"""Murtagh-Vadhan Definition 1.1 (differential privacy).

Printed: M is (eps, delta)-DP if for all neighbouring D_0, D_1 and all
S subset Range(M): Pr[M(D_0) in S] <= e^eps Pr[M(D_1) in S] + delta.

Checked: on finite output spaces the "for all S" condition (every one of the
2^n sets) is equivalent to the hockey-stick form sum_y max(P0(y) - e^eps P1(y), 0)
<= delta used throughout the paper (Theorem 1.5's proof), for both orders of the
pair (neighbouring pairs are ordered).
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _common as C
from ._divergence import dp_all_sets


@statement(
    "Definition 1.1",
    "M is (eps,delta)-DP if for all neighbouring D_0, D_1 and all S: Pr[M(D_0) in S] <= e^eps Pr[M(D_1) in S] + delta.",
)
def definition(p: Proof) -> None:
    n = 0
    for _ in range(400 if p.full else 120):
        m = p.rng.randint(1, 5)
        p0, p1 = C.rand_dist(p.rng, m), C.rand_dist(p.rng, m)
        w = C.rand_w(p.rng)
        hs = C.hs_pair(p0, p1, w)
        for d in {F(0), hs, hs / 2, (1 + hs) / 2, F(1, 10)}:
            if not (0 <= d <= 1):
                continue
            a = dp_all_sets(p0, p1, w, d)
            b = hs <= d
            n += 1
            if not p.require(a == b, "for-all-S condition <=> hockey-stick <= delta",
                             f"p0={p0} p1={p1} e^eps={w} delta={d}: all-sets {a}, hockey {b}"):
                return
    p.instances("Pr[Y in S] <= e^eps Pr[Z in S] + delta for all 2^n sets S  <=>  sum max(P0 - e^eps P1, 0) <= delta "
                "(n <= 5 outputs, delta at and around the threshold)", n, "exhaustive")
    p.note("Read with ordered neighbouring pairs: (D_0, D_1) and (D_1, D_0) are both constrained, so DP means the "
           "hockey-stick bound in both directions (as Definition 3.1's M~ satisfies).")
