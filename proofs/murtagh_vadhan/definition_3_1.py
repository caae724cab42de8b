"""Murtagh-Vadhan Definition 3.1 (the randomized response M~_(eps,delta) of Kairouz-Oh-Viswanath).

The table was lost in our text; transcribed from KOV (and the lead's brief):
with alpha = 1 - delta, on b = 0 output 0 w.p. delta, 1 w.p. alpha e^eps/(1+e^eps),
2 w.p. alpha/(1+e^eps), 3 w.p. 0; on b = 1 the mirror. The text then notes
"M~_(eps,delta) is in fact (eps,delta)-DP".

Verified symbolically: both rows are distributions and the hockey-stick
divergence at e^eps is exactly delta in both directions (so M~ is (eps,delta)-DP
and no smaller delta works at that eps). Library cross-check: exactdp's
randomized_response (regions) has exactly these two rows.
"""

from __future__ import annotations

import sympy as sp

from .._crosscheck import FAILED, crosschecked
from .._framework import Proof, statement
from . import _common as C
from ._sym import identical, same_sign_product


@statement(
    "Definition 3.1",
    "M~_(eps,delta): {0,1} -> {0,1,2,3}; b=0: (delta, alpha e^eps/(1+e^eps), alpha/(1+e^eps), 0), b=1: the mirror; "
    "alpha = 1 - delta. It is (eps,delta)-DP.",
    library=("exactdp.regions.randomized_response",),
)
def definition(p: Proof) -> None:
    from exactdp.regions import randomized_response

    w = sp.symbols("w", positive=True)       # w = e^eps >= 1
    d = sp.symbols("delta", nonnegative=True)
    u = sp.symbols("u", nonnegative=True)    # u = w - 1 >= 0
    a = 1 - d
    p0 = [d, a * w / (1 + w), a / (1 + w), sp.Integer(0)]
    p1 = [sp.Integer(0), a / (1 + w), a * w / (1 + w), d]
    ok_sum = identical(sum(p0), 1) and identical(sum(p1), 1)
    p.symbolic("each row sums to 1 (entries are >= 0 for w > 0, 0 <= delta <= 1)", ok_sum)
    # differences P0(y) - w P1(y), y = 0..3: delta, 0, -(1-delta)(w-1), -w delta
    diffs = [sp.simplify((x - w * y).subs(w, 1 + u)) for x, y in zip(p0, p1)]
    ok_d = (
        identical(diffs[0], d)
        and identical(diffs[1], 0)
        and same_sign_product(diffs[2], -1, [1 - d, u])
        and same_sign_product(diffs[3], -1, [1 + u, d])
    )
    # by the mirror symmetry the other direction has the same differences
    diffs_rev = [sp.simplify((y - w * x).subs(w, 1 + u)) for x, y in zip(p0, p1)]
    ok_r = all(identical(dr, dd) for dr, dd in zip(diffs_rev, [diffs[3], diffs[2], diffs[1], diffs[0]]))
    p.verified("P0(y) - e^eps P1(y) = (delta, 0, -(1-delta)(e^eps-1), -e^eps delta) for y = 0..3 (signs: delta >= 0, "
               "1 - delta > 0, e^eps - 1 >= 0), so sum_y max(P0 - e^eps P1, 0) = delta; the reverse direction is the "
               "mirror image. Hence M~ is (eps, delta)-DP with equality.", ok_d and ok_r)
    n = 0
    for wq in C.W_CHOICES:
        for dq in C.DELTA_CHOICES:
            q0, q1 = C.rr(wq, dq)
            n += 1
            if not p.require(C.hs_pair(q0, q1, wq) == dq == C.hs_pair(q1, q0, wq) and sum(q0) == 1 == sum(q1),
                             "exact instance", f"e^eps={wq} delta={dq}"):
                return
            r = p.library("exactdp randomized_response", randomized_response, exp_eps=wq, delta=dq)
            p.agree(FAILED if r is FAILED else (tuple(r[0]), tuple(r[1])), (q0, q1), "exactdp randomized_response",
                    f"e^eps={wq} delta={dq}")
    p.instances("hockey-stick at e^eps equals delta in both directions", n)
    crosschecked(p, "exactdp.regions.randomized_response(e^eps, delta) has exactly the two rows above", n)
    p.note("Transcription: the table of Definition 3.1 was lost in our copy; entries are KOV's randomized response "
           "as given in the project brief.")
