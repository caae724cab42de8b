"""Vadhan-Zhang Lemma 2.3 (joint convexity of f-DP) and the steps of its proof.

Printed: if T(X_i, X'_i) >= f for all i in I and I is a random index, then T(X_I, X'_I) >= f.

Checked exactly: random families of pairs on a common finite space mixed with common weights (the
index unobserved), f the largest trade-off function below all T(X_i, X'_i) (their sup, Lemma 2.4)
and random smaller f. Step: each line of the displayed chain, for every deterministic test phi.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _tradeoff as T


def family(p: Proof):
    n = p.rng.randint(1, 4)
    fam = [T.rand_pairs(p.rng, n) for _ in range(p.rng.randint(1, 3))]
    w = T.rand_dist(p.rng, len(fam), 5, False)
    mixed = [(sum(wi * X[j][0] for wi, X in zip(w, fam)), sum(wi * X[j][1] for wi, X in zip(w, fam))) for j in range(n)]
    return fam, w, mixed


@statement(
    "Lemma 2.3",
    "If T(X_i, X'_i) >= f for all i in I and I is a random variable on I, then T(X_I, X'_I) >= f.",
)
def lemma(p: Proof) -> None:
    n = 0
    for _ in range(150 if p.full else 50):
        fam, w, mixed = family(p)
        sup = T.envelope([T.tradeoff(X) for X in fam])
        for f in (sup, T.envelope([sup, T.rand_tf(p.rng, 3)])):
            n += 1
            if not p.require(T.le(f, T.tradeoff(mixed)), "T(X_I, X'_I) >= f", f"family={fam} weights={w}"):
                return
    p.instances("random families (1-3 pairs on 1-4 outcomes), common weights, f = sup of the T(X_i, X'_i) and smaller",
                n)


@statement(
    "Lemma 2.3 (proof: the displayed chain)",
    "T(X_I, X'_I)(alpha) = inf_phi {E_i E[1 - phi(X'_i)] : E_i E[phi(X_i)] <= alpha} >= inf_phi {E_i f(E[phi(X_i)]) : ...} "
    ">= inf_phi {f(E_i E[phi(X_i)]) : ...} >= f(alpha).",
)
def chain(p: Proof) -> None:
    n = 0
    for _ in range(60 if p.full else 20):
        fam, w, mixed = family(p)
        f = T.envelope([T.tradeoff(X) for X in fam])
        k = len(mixed)
        for mask in range(1 << k):
            phi = [F(mask >> j & 1) for j in range(k)]
            a_i = [sum(phi[j] * X[j][0] for j in range(k)) for X in fam]
            b_i = [1 - sum(phi[j] * X[j][1] for j in range(k)) for X in fam]
            a = sum(wi * x for wi, x in zip(w, a_i))
            beta = sum(wi * y for wi, y in zip(w, b_i))
            line1 = 1 - sum(phi[j] * mixed[j][1] for j in range(k))
            line3 = sum(wi * T.value(f, x) for wi, x in zip(w, a_i))
            n += 1
            ok = (line1 == beta and sum(phi[j] * mixed[j][0] for j in range(k)) == a
                  and beta >= line3 >= T.value(f, a))
            if not p.require(ok, "split over i; T(X_i, X'_i) >= f; Jensen (f convex); f non-increasing",
                             f"family={fam} weights={w} phi={phi}"):
                return
    p.instances("every deterministic test phi on random families: beta_phi = E_i beta_i >= E_i f(alpha_i) >= "
                "f(E_i alpha_i), and f(E_i alpha_i) >= f(alpha) for alpha >= E_i alpha_i by monotonicity", n, "exhaustive")
    p.note("Typos (harmless): the first line's constraint reads E[phi(X'_I)] <= alpha where E[phi(X_I)] is meant, and "
           "the step labelled '(f non-decreasing)' uses T(X_i, X'_i) >= f (f is non-increasing, which the last step "
           "uses).")
