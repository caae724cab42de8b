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

from .._framework import Proof, statement
from . import _common as C


@statement(
    "Theorem 2.4",
    "If M dominates M' (D - X - Y Markov), then R(M', D1, D2) subset R(M, D1, D2) for all neighbouring D1, D2.",
)
def theorem(p: Proof) -> None:
    n = n_pure = 0
    for _ in range(300 if p.full else 100):
        a, b = p.rng.randint(1, 4), p.rng.randint(1, 4)
        p0, p1 = C.rand_dist(p.rng, a), C.rand_dist(p.rng, a)
        T = C.rand_channel(p.rng, a, b)
        q0, q1 = C.push(p0, T), C.push(p1, T)
        out = C.region_contains(C.all_points(p0, p1), C.all_points(q0, q1))
        n += 1
        if not p.require(out is None, "R(M') subset R(M)", f"p0={p0} p1={p1} T={T}: point {out} outside"):
            return
        w = C.rand_w(p.rng)
        if C.least_delta(p0, p1, w) == 0:
            n_pure += 1
            if not p.require(C.dp_all_sets(q0, q1, w, F(0)), "(eps,0)-DP is preserved", f"p0={p0} p1={p1} T={T}"):
                return
    p.instances("points of M' = T(M) (all 2^m rejection regions) in the exact hull of M's points (|X|, |Y| <= 4)", n,
                "exhaustive")
    p.instances("the [WZ10] special case: M (eps,0)-DP => T(M) (eps,0)-DP", n_pure, "exhaustive")
