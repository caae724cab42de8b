"""Kairouz-Oh-Viswanath Corollary 2.3 (privacy region characterisation) and Appendix A's
total-variation bound.

Printed: M is (eps,delta)-DP if and only if R(M) subset R(eps,delta), where R(M) is the
union over neighbouring pairs of R(M, D, D') and R(eps, delta) is the region cut out by
P_FA + e^eps P_MD >= 1 - delta, e^eps P_FA + P_MD >= 1 - delta and their mirror images
(display lost; transcribed from ../shared/papers/README.md).

Checked exhaustively on finite mechanisms (both orders of the pair as neighbours):
Definition 1.1 <=> every vertex of the exact hull lies in R(eps, delta). Appendix A (its
heading lost): "the total variation distance cannot be larger than
delta + (1-delta)(e^eps - 1)/(e^eps + 1)", checked as a step.

Library cross-check: exactdp's PrivacyRegion.is_subset (the region of T(P0, P1) and of
T(P1, P0) inside dp_region(eps, delta)) gives the same verdict.
"""

from __future__ import annotations

from fractions import Fraction as F

import sympy as sp

from .._crosscheck import crosschecked
from .._framework import Proof, statement
from . import _common as C


@statement(
    "Corollary 2.3",
    "M is (eps,delta)-DP iff R(M) subset R(eps,delta) (R(M): union over neighbouring pairs of the convex hulls of "
    "the (P_MD, P_FA) points).",
    library=("exactdp.regions.PrivacyRegion.is_subset", "exactdp.regions.PrivacyRegion.of_tradeoff",
             "exactdp.regions.dp_region", "exactdp.fdp.tradeoff_of"),
)
def corollary(p: Proof) -> None:
    from exactdp.fdp import tradeoff_of
    from exactdp.regions import PrivacyRegion, dp_region

    def lib_inside(p0, p1, w, d):
        R = dp_region(exp_eps=w, delta=d)
        return all(PrivacyRegion.of_tradeoff(tradeoff_of(a, b)).is_subset(R) for a, b in ((p0, p1), (p1, p0)))

    n = n_lib = 0
    for _ in range(300 if p.full else 50):
        m = p.rng.randint(1, 5)
        p0, p1 = C.rand_dist(p.rng, m), C.rand_dist(p.rng, m)
        w = C.rand_w(p.rng)
        d0 = C.least_delta(p0, p1, w)
        for d in sorted({F(0), d0, d0 * F(9, 10), min(F(1), d0 * F(11, 10))}):
            region = C.hull(C.all_points(p0, p1)) + C.hull(C.all_points(p1, p0))  # both orders
            inside = all(C.in_R(v, w, d) for v in region)
            a = C.dp_all_sets(p0, p1, w, d)
            n += 1
            if not p.require(a == inside, "Definition 1.1 <=> hull vertices in R(eps,delta)",
                             f"p0={p0} p1={p1} e^eps={w} delta={d}: DP {a}, region inside {inside}"):
                return
            if d < 1:
                r = p.library("exactdp PrivacyRegion.is_subset", lib_inside, p0, p1, w, d)
                p.agree(r, a, "exactdp PrivacyRegion.is_subset(dp_region)", f"p0={p0} p1={p1} e^eps={w} delta={d}")
                n_lib += 1
    p.instances("(eps,delta)-DP <=> the hull of all 2^n points (both orders) lies in R(eps,delta) (n <= 5)", n,
                "exhaustive")
    crosschecked(p, "exactdp: the regions of T(P0, P1) and T(P1, P0) are subsets of dp_region(e^eps, delta) "
                 "(PrivacyRegion.is_subset) exactly when the pair is (eps, delta)-DP", n_lib)


@statement(
    "Corollary 2.3 (proof: Appendix A, total variation <= delta + (1-delta)(e^eps-1)/(e^eps+1))",
    "An (eps,delta)-DP mechanism has TV(M(D), M(D')) <= delta + (1-delta)(e^eps-1)/(e^eps+1) (the largest "
    "1 - P_FA - P_MD over R(eps,delta)); the Section 6.1 mechanism attains it.",
)
def tv_step(p: Proof) -> None:
    w, d = sp.symbols("w delta", positive=True)
    corner = (1 - d) / (1 + w)  # the vertex P_MD = P_FA = (1-delta)/(1+e^eps) of R(eps,delta)
    p.symbolic("1 - 2 (1-delta)/(1+e^eps) = delta + (1-delta)(e^eps-1)/(e^eps+1) (the corner of R(eps,delta))",
               sp.simplify(1 - 2 * corner - (d + (1 - d) * (w - 1) / (w + 1))) == 0)
    n = 0
    for _ in range(300 if p.full else 60):
        m = p.rng.randint(1, 5)
        w_ = C.rand_w(p.rng)
        d_ = C.rand_delta(p.rng)
        p0, p1 = C.shrink_to_dp(C.rand_dist(p.rng, m), C.rand_dist(p.rng, m), w_, d_)
        tv = sum((max(a - b, F(0)) for a, b in zip(p0, p1)), F(0))
        bound = d_ + (1 - d_) * (w_ - 1) / (w_ + 1)
        n += 1
        if not p.require(tv <= bound, "TV <= delta + (1-delta)(w-1)/(w+1)", f"p0={p0} p1={p1} w={w_} delta={d_}"):
            return
    for w_ in C.W_CHOICES:
        for d_ in (F(0), F(1, 10), F(1, 2)):
            k0, k1 = C.kov(w_, d_)
            tv = sum((max(a - b, F(0)) for a, b in zip(k0, k1)), F(0))
            n += 1
            if not p.require(tv == d_ + (1 - d_) * (w_ - 1) / (w_ + 1), "tight for Section 6.1's mechanism",
                             f"w={w_} delta={d_}: TV {tv}"):
                return
    p.instances("TV of random (eps,delta)-DP pairs below the bound; equality for the Section 6.1 mechanism", n)
    p.note("Appendix A's statement lost its heading and number in conversion; its text ('From Figure 1 it follows "
           "immediately that the total variation distance cannot be larger than ...') is checked here as an "
           "application of Corollary 2.3.")
