"""Vadhan-Zhang Definition 2.1 (generalized probability distance) for the paper's three instances.

Printed: (D, <=, D) with (D, <=) a poset, D mapping pairs of random variables into D, closed under
post-processing (D(g(X), g(X')) <= D(X, X')) and jointly convex (if D(X_i, X'_i) <= d for all i then
D(X_I, X'_I) <= d).

Checked exactly on random finite pairs, for the three instances of Section 2:
f-DP (D = trade-off functions with f <= g iff f >= g pointwise, D = T): the order is reflexive,
antisymmetric and transitive; T(g(X), g(X')) >= T(X, X') for deterministic maps and random kernels g;
joint convexity with d the sup of the T(X_i, X'_i);
pure DP (D_inf) and Renyi DP (D_alpha, alpha in {2, 3, 3/2}): post-processing and joint convexity.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _divergences as Dv
from . import _renyi as R
from . import _tradeoff as T


def rand_map(rng, n, m):
    """A deterministic function {0..n-1} -> {0..m-1} as a 0/1 kernel."""
    out = []
    for _ in range(n):
        j = rng.randrange(m)
        out.append([F(1) if k == j else F(0) for k in range(m)])
    return out


@statement(
    "Definition 2.1",
    "A generalized probability distance (D, <=, D): (D, <=) a poset; D(X, X') in D; post-processing "
    "D(g(X), g(X')) <= D(X, X'); joint convexity: D(X_i, X'_i) <= d for all i implies D(X_I, X'_I) <= d.",
)
def definition(p: Proof) -> None:
    n_order = n_pp = n_jc = 0
    for _ in range(60 if p.full else 25):
        f, g, h = (T.rand_tf(p.rng, 3, 3) for _ in range(3))
        le = lambda a, b: T.le(b, a)   # poset order: a <= b iff a(x) >= b(x) for every x
        n_order += 1
        ok = le(f, f) and (not (le(f, g) and le(g, f)) or T.equal(f, g)) and (not (le(f, g) and le(g, h)) or le(f, h))
        if not p.require(ok, "(F, <=) is a partial order", f"{T.fmt_tf(f)} {T.fmt_tf(g)} {T.fmt_tf(h)}"):
            return
    for _ in range(60 if p.full else 25):
        n = p.rng.randint(1, 5)
        X = T.rand_pairs(p.rng, n)
        for K in (rand_map(p.rng, n, p.rng.randint(1, 3)), T.rand_kernel(p.rng, n, p.rng.randint(1, 3))):
            Y = T.push(X, K)
            n_pp += 1
            ok = T.le(T.tradeoff(X), T.tradeoff(Y)) and Dv.max_ratio(Y) <= Dv.max_ratio(X)
            for a in (2, 3, F(3, 2)):
                ok = ok and R.cmp(R.S(Y, a), R.S(X, a)) <= 0
            if not p.require(ok, "post-processing (T, D_inf, D_alpha)", f"X={X} K={K}"):
                return
    for _ in range(60 if p.full else 25):
        n = p.rng.randint(1, 4)
        fam = [T.rand_pairs(p.rng, n) for _ in range(p.rng.randint(1, 3))]
        w = T.rand_dist(p.rng, len(fam), 5, False)
        mixed = [(sum(wi * X[j][0] for wi, X in zip(w, fam)), sum(wi * X[j][1] for wi, X in zip(w, fam)))
                 for j in range(n)]
        n_jc += 1
        ok = T.le(T.envelope([T.tradeoff(X) for X in fam]), T.tradeoff(mixed))
        ok = ok and Dv.max_ratio(mixed) <= max(Dv.max_ratio(X) for X in fam)
        for a in (2, 3, F(3, 2)):
            ok = ok and _renyi_jc(fam, mixed, a)
        if not p.require(ok, "joint convexity (T with d = sup, D_inf, D_alpha)", f"family={fam} weights={w}"):
            return
    p.instances("(F, <=) reflexive, antisymmetric, transitive on random trade-off functions", n_order)
    p.instances("post-processing by deterministic maps and random kernels: T, D_inf, D_alpha (alpha = 2, 3, 3/2)", n_pp)
    p.instances("joint convexity of mixtures with common weights: T (d = sup), D_inf, D_alpha", n_jc)


def _renyi_jc(fam, mixed, a) -> bool:
    """S_alpha(mixture) <= max_i S_alpha(X_i) (i.e. D_alpha(mixture) <= max_i D_alpha(X_i))."""
    sm = R.S(mixed, a)
    return any(R.cmp(sm, R.S(X, a)) <= 0 for X in fam)
