"""Kairouz-Oh-Viswanath Theorem 2.1 (differential privacy as hypothesis testing, [WZ10]).

Printed (display lost; transcribed from ../shared/papers/README.md): for any eps >= 0 and
delta in [0,1] ("delta in ," in our copy: "[0,1]" lost), M is (eps,delta)-DP if and only
if for all neighbouring D0, D1 and every rejection region S:
P_FA + e^eps P_MD >= 1 - delta and e^eps P_FA + P_MD >= 1 - delta,
with P_FA = P(M(D0) in S), P_MD = P(M(D1) not in S).

Checked exhaustively on finite mechanisms: for ONE ordered pair (D0, D1), the two
conditions over all 2^n rejection regions are equivalent to Definition 1.1 in BOTH
orders (the second condition is the first one for the swapped pair and S's complement).
Library cross-check: exactdp's dp_region(eps, delta) (KOV eq. (3), implementing this
theorem) contains every point (P_FA, P_MD) of the pair exactly when the two conditions hold.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import FAILED, crosschecked
from .._framework import Proof, statement
from . import _common as C


def conditions(p0, p1, w, d) -> bool:
    """Theorem 2.1's two conditions for the ordered pair (p0, p1), every rejection region S."""
    for md, fa in C.all_points(p0, p1):
        if fa + w * md < 1 - d or w * fa + md < 1 - d:
            return False
    return True


@statement(
    "Theorem 2.1",
    "M is (eps,delta)-DP iff for all neighbouring D0, D1 and all rejection regions S: P_FA + e^eps P_MD >= 1 - delta "
    "and e^eps P_FA + P_MD >= 1 - delta.",
    library=("exactdp.regions.dp_region", "exactdp.regions.PrivacyRegion.contains"),
)
def theorem(p: Proof) -> None:
    from exactdp.regions import dp_region

    n = n_lib = 0
    for idx in range(300 if p.full else 100):
        m = p.rng.randint(1, 5)
        p0, p1 = C.rand_dist(p.rng, m), C.rand_dist(p.rng, m)
        w = C.rand_w(p.rng)
        d0 = C.least_delta(p0, p1, w)
        for d in sorted({F(0), d0, d0 * F(9, 10), min(F(1), d0 * F(11, 10)), F(1, 5)}):
            a = C.dp_all_sets(p0, p1, w, d)
            b = conditions(p0, p1, w, d)
            n += 1
            if not p.require(a == b, "Definition 1.1 (both orders) <=> the two conditions (one order)",
                             f"p0={p0} p1={p1} e^eps={w} delta={d}: definition {a}, conditions {b}"):
                return
            if d < 1 and (p.full or idx % 4 == 0):
                R = p.library("exactdp dp_region", dp_region, exp_eps=w, delta=d)
                if R is not FAILED:
                    inside = all(R.contains(fa, md) for md, fa in C.all_points(p0, p1))
                    p.agree(inside, b, "exactdp dp_region (contains every (P_FA, P_MD) of the pair)",
                            f"p0={p0} p1={p1} e^eps={w} delta={d}")
                    n_lib += 1
    p.instances("(eps,delta)-DP by Definition 1.1 in both orders <=> the two printed conditions for the ordered pair "
                "over all 2^n rejection regions (n <= 5, delta at/around the threshold)", n, "exhaustive")
    crosschecked(p, "exactdp dp_region(e^eps, delta).contains(P_FA, P_MD) holds for all 2^n rejection regions exactly "
                 "when the two printed conditions do", n_lib)
    p.note("'delta in ,' in our copy is 'delta in [0,1]' with the interval lost in conversion (not an erratum).")
