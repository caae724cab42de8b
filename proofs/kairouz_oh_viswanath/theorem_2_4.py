"""Kairouz-Oh-Viswanath Theorem 2.4 (data processing inequality for privacy regions).

Printed (display lost): if M dominates M' (D - X - Y a Markov chain, Y = M'(D), X = M(D)),
then for all neighbouring D1, D2: R(M', D1, D2) subset R(M, D1, D2). Corollary noted in
the text: M (eps, 0)-DP implies M' (eps, 0)-DP ([WZ10, Lemma 2.6]).

Checked: random finite pairs and random stochastic matrices T (Y = T(X)); every point
of M' (all 2^m rejection regions) lies in the exact hull of M's points; and the (eps,0)
special case by Definition 1.1.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import crosschecked
from .._framework import Proof, statement
from . import _common as C


@statement(
    "Theorem 2.4",
    "If M dominates M' (D - X - Y Markov), then R(M', D1, D2) subset R(M, D1, D2) for all neighbouring D1, D2.",
    library=("exactdp.regions.PrivacyRegion.is_subset", "exactdp.fdp.tradeoff_of"),
)
def theorem(p: Proof) -> None:
    from exactdp.fdp import tradeoff_of
    from exactdp.regions import PrivacyRegion

    def lib_subset(q0, q1, p0, p1):
        return PrivacyRegion.of_tradeoff(tradeoff_of(q0, q1)).is_subset(PrivacyRegion.of_tradeoff(tradeoff_of(p0, p1)))

    n = n_pure = n_lib = 0
    for idx in range(300 if p.full else 100):
        a, b = p.rng.randint(1, 4), p.rng.randint(1, 4)
        p0, p1 = C.rand_dist(p.rng, a), C.rand_dist(p.rng, a)
        T = C.rand_channel(p.rng, a, b)
        q0, q1 = C.push(p0, T), C.push(p1, T)
        out = C.region_contains(C.all_points(p0, p1), C.all_points(q0, q1))
        n += 1
        if not p.require(out is None, "R(M') subset R(M)", f"p0={p0} p1={p1} T={T}: point {out} outside"):
            return
        if p.full or idx % 2 == 0:
            p.agree(p.library("exactdp PrivacyRegion.is_subset", lib_subset, q0, q1, p0, p1), True,
                    "exactdp PrivacyRegion.is_subset (R(T(M)) in R(M))", f"p0={p0} p1={p1} T={T}")
            n_lib += 1
        w = C.rand_w(p.rng)
        if C.least_delta(p0, p1, w) == 0:
            n_pure += 1
            if not p.require(C.dp_all_sets(q0, q1, w, F(0)), "(eps,0)-DP is preserved", f"p0={p0} p1={p1} T={T}"):
                return
    p.instances("points of M' = T(M) (all 2^m rejection regions) in the exact hull of M's points (|X|, |Y| <= 4)", n,
                "exhaustive")
    # the tight case: e^eps the largest likelihood ratio of M (its least pure eps) and channels that keep it (the
    # identity, a permutation, a merge of two outputs), where T(M) needs exactly the same eps
    n_tight = 0
    for _ in range(60 if p.full else 20):
        a = p.rng.randint(2, 4)
        p0, p1 = C.rand_dist(p.rng, a, zeros=False), C.rand_dist(p.rng, a, zeros=False)
        w = max(max(x / y, y / x) for x, y in zip(p0, p1))
        perm = list(range(a))
        p.rng.shuffle(perm)
        merge = [[F(int(j == min(i, a - 2))) for j in range(a - 1)] for i in range(a)]
        for T in ([[F(int(j == perm[i])) for j in range(a)] for i in range(a)], merge, C.rand_channel(p.rng, a, 3)):
            q0, q1 = C.push(p0, T), C.push(p1, T)
            n_tight += 1
            if not p.require(C.dp_all_sets(q0, q1, w, F(0)), "(eps,0)-DP is preserved (eps the least for M)",
                             f"p0={p0} p1={p1} T={T} e^eps={w}"):
                return
    p.instances("the [WZ10] special case: M (eps,0)-DP => T(M) (eps,0)-DP", n_pure, "exhaustive")
    p.instances("... at M's least eps (e^eps its largest likelihood ratio), through a permutation (which keeps that "
                "eps exactly), a merge of two outputs and a random channel", n_tight, "exhaustive")
    crosschecked(p, "exactdp PrivacyRegion.is_subset finds the region of the pair pushed through the channel inside that "
                 "of (P0, P1)", n_lib)
