"""Murtagh-Vadhan Definition 2.1 (delta-approximate max-divergence) and the remark after it.

Printed: D_inf^delta(Y || Z) = max_S ln((Pr[Y in S] - delta) / Pr[Z in S]); and
"M is (eps, delta)-DP iff D_inf^delta(M(D_0) || M(D_1)) <= eps for all neighbouring pairs".

Checked exactly in exp-space (``exp_dmax``), with the conventions the printed
formula needs (sets with Pr[Y in S] <= delta contribute nothing; Pr[Z in S] = 0 <
Pr[Y in S] - delta gives +inf).

Library cross-check: exactdp's trade-off function T(Z, Y) (Vadhan-Zhang Definition 1.6)
gives the same hockey-stick divergence (TradeOff.delta) and, by TradeOff.epsilon, the
least e^eps >= 1 with Y ~ (eps, delta) Z, i.e. max(1, exp(D_inf^delta(Y||Z))).
"""

from __future__ import annotations

import math
from fractions import Fraction as F

from .._crosscheck import FAILED, crosschecked
from .._framework import Proof, statement
from . import _common as C
from ._divergence import dp_all_sets, exp_dmax


@statement(
    "Definition 2.1",
    "D_inf^delta(Y||Z) = max_S ln((Pr[Y in S] - delta)/Pr[Z in S]); M is (eps,delta)-DP iff "
    "D_inf^delta(M(D_0)||M(D_1)) <= eps for all neighbouring D_0, D_1.",
    library=("exactdp.fdp.tradeoff_of", "exactdp.fdp.TradeOff.delta", "exactdp.fdp.TradeOff.epsilon"),
)
def definition(p: Proof) -> None:
    from exactdp.fdp import tradeoff_of

    n = n_lib = 0
    for idx in range(300 if p.full else 100):
        m = p.rng.randint(1, 5)
        Y, Z = C.rand_dist(p.rng, m), C.rand_dist(p.rng, m)
        d = C.rand_delta(p.rng)
        R = exp_dmax(Y, Z, d)
        ts = [F(1), F(2), F(7, 2)] + ([R] if R != math.inf and R >= 1 else [])
        if p.full or idx % 2 == 0:
            inst = f"Y={Y} Z={Z} delta={d}"
            f = p.library("exactdp tradeoff_of", tradeoff_of, Z, Y)
            if f is not FAILED:
                e = p.library("exactdp TradeOff.epsilon", f.epsilon, d)
                p.agree(FAILED if e is FAILED else e[1], None if R == math.inf else max(F(1), R),
                        "exactdp TradeOff.epsilon of T(Z, Y) (e^eps)", inst)
                for t in ts[:3]:
                    r = p.library("exactdp TradeOff.delta", f.delta, exp_eps=t)
                    p.agree(FAILED if r is FAILED else r.exact, C.hs_pair(Y, Z, t), "exactdp TradeOff.delta of T(Z, Y)",
                            f"{inst} t={t}")
                n_lib += 1
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
    crosschecked(p, "exactdp tradeoff_of(Z, Y): TradeOff.epsilon(delta) is max(1, exp(D_inf^delta(Y||Z))) (None when "
                 "infinite) and TradeOff.delta(e^eps) is sum_x max(Y(x) - e^eps Z(x), 0)", n_lib)
    p.note("The printed max needs two conventions: ln of a non-positive number (sets with Pr[Y in S] <= delta) is read "
           "as -inf, and x/0 for x > 0 as +inf. With delta < 1, S = whole space gives a finite candidate, so the max "
           "is well defined.")
