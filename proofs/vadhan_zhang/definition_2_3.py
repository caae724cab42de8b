"""Vadhan-Zhang Definition 2.3 (Renyi divergence of order alpha > 1).

Printed: D_alpha(P||Q) = 1/(alpha-1) log(E_{x~Q}[(P(x)/Q(x))^alpha]).

Checked on random finite pairs with the exact sums S_alpha = E_{x~Q}[(P/Q)^alpha] = sum P^alpha Q^(1-alpha)
(Fractions for integer alpha, exact radical sums for alpha in {3/2, 5/2, 101/100}): D_alpha >= 0 with
equality iff P = Q (S_alpha >= 1); the data-processing inequality claimed after the definition;
D_alpha is non-decreasing in alpha (integer orders, compared as S_a^(b-1) <= S_b^(a-1)); and
D_alpha <= D_inf. The expectation over x ~ Q misses mass of P outside supp(Q); there D_alpha = inf
(the usual convention, used here).
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import crosschecked
from .._framework import Proof, statement
from . import _divergences as Dv
from . import _renyi as R
from . import _tradeoff as T

ORDERS = (2, 3, F(3, 2), F(5, 2), F(101, 100))


@statement(
    "Definition 2.3",
    "For alpha > 1: D_alpha(P||Q) = 1/(alpha - 1) log(E_{x~Q}[(P(x)/Q(x))^alpha]).",
    library=("exactdp.renyi.renyi_divergence",),
)
def definition(p: Proof) -> None:
    from exactdp.renyi import renyi_divergence

    from ._library import PQ, renyi_agree

    n = n_lib = 0
    for _ in range(60 if p.full else 20):
        k = p.rng.randint(1, 4)
        P, Q = T.rand_dist(p.rng, k, 6, False), T.rand_dist(p.rng, k, 6, False)
        pairs = list(zip(P, Q))
        Y = T.push(pairs, T.rand_kernel(p.rng, k, p.rng.randint(1, 3)))
        for a in ORDERS:
            s = R.S(pairs, a)
            n += 1
            n_lib += renyi_agree(p, p.library("exactdp renyi_divergence", renyi_divergence, *PQ(pairs), a), s, a,
                                 "exactdp renyi_divergence", f"{pairs} alpha={a}")
            c = R.cmp(s, F(1))
            if not p.require(c >= 0 and ((c == 0) == (P == Q)), "S_alpha >= 1, = 1 iff P = Q", f"{pairs} alpha={a}"):
                return
            if not p.require(R.cmp(R.S(Y, a), s) <= 0, "data processing", f"{pairs} alpha={a}"):
                return
            if not p.require(R.cmp(s, R.S([(F(1), F(1) / Dv.max_ratio(pairs))], a)) <= 0, "D_alpha <= D_inf",
                             f"{pairs} alpha={a}"):
                return
        for a, b in ((2, 3), (3, 5), (2, 10)):
            n += 1
            if not p.require(R.S(pairs, a) ** (b - 1) <= R.S(pairs, b) ** (a - 1), "non-decreasing in alpha",
                             f"{pairs} orders {a} < {b}"):
                return
    p.instances("random full-support pairs, alpha in {2, 3, 3/2, 5/2, 101/100}: non-negativity, identity of "
                "indiscernibles, data processing, D_alpha <= D_inf, monotonicity in alpha", n, "exact")
    crosschecked(p, "exactdp renyi_divergence(P, Q, alpha) on the same pairs: exp_exact = the exact S_alpha for integer "
                 "alpha; for fractional alpha its enclosure meets the independent ball of log(S_alpha)/(alpha - 1)", n_lib)
