"""Murtagh-Vadhan Definition 2.1 (delta-approximate max-divergence) and the remark after it.

Printed: D_inf^delta(Y || Z) = max_S ln((Pr[Y in S] - delta) / Pr[Z in S]); and
"M is (eps, delta)-DP iff D_inf^delta(M(D_0) || M(D_1)) <= eps for all neighbouring pairs".

Checked exactly in exp-space (``exp_dmax``), with the conventions the printed
formula needs (sets with Pr[Y in S] <= delta contribute nothing; Pr[Z in S] = 0 <
Pr[Y in S] - delta gives +inf).
"""

from __future__ import annotations

import math
from fractions import Fraction as F

from .._framework import Proof, statement
from . import _common as C
from ._divergence import dp_all_sets, exp_dmax


@statement(
    "Definition 2.1",
    "D_inf^delta(Y||Z) = max_S ln((Pr[Y in S] - delta)/Pr[Z in S]); M is (eps,delta)-DP iff "
    "D_inf^delta(M(D_0)||M(D_1)) <= eps for all neighbouring D_0, D_1.",
)
def definition(p: Proof) -> None:
    n = 0
    for _ in range(300 if p.full else 100):
        m = p.rng.randint(1, 5)
        Y, Z = C.rand_dist(p.rng, m), C.rand_dist(p.rng, m)
        d = C.rand_delta(p.rng)
        R = exp_dmax(Y, Z, d)
        ts = [F(1), F(2), F(7, 2)] + ([R] if R != math.inf and R >= 1 else [])
        for t in ts:
            a = R <= t
            b = dp_all_sets(Y, Z, t, d)
            c = C.hs_pair(Y, Z, t) <= d
            n += 1
            if not p.require(a == b == c, "D_inf^delta <= ln t  <=>  (ln t, delta)-DP for this ordered pair",
                             f"Y={Y} Z={Z} delta={d} t={t}: {a} {b} {c}"):
                return
    p.instances("exp(D_inf^delta(Y||Z)) <= e^eps  <=>  Pr[Y in S] <= e^eps Pr[Z in S] + delta for all S  <=>  hockey-stick "
                "<= delta (thresholds include e^eps = exp(D_inf^delta) itself)", n, "exhaustive")
    p.note("The printed max needs two conventions: ln of a non-positive number (sets with Pr[Y in S] <= delta) is read "
           "as -inf, and x/0 for x > 0 as +inf. With delta < 1, S = whole space gives a finite candidate, so the max "
           "is well defined.")
