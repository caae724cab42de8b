"""Kairouz-Oh-Viswanath Theorem 4.4 (the geometric mechanism is optimal under composition).

Printed (heading lost; the sentence survives): under the k-fold composition experiment of
counting queries, the geometric mechanism (noise p(x) = ((e^eps - 1)/(e^eps + 1)) e^{-eps|x|},
x in Z) achieves the largest privacy region among all (eps, 0)-DP mechanisms,
universally for every pair of neighbouring databases simultaneously. Section 4.2 and
Appendix C: for a pair differing in k of the queries (by 1), its region is exactly (5)
with delta = 0.

Checked: symbolically, p is a distribution; for outputs shifted by one the likelihood
ratio is e^eps on x <= 0 and e^-eps on x >= 1, with P0(x <= 0) = e^eps/(1+e^eps) and the
same conditional law within each part under both hypotheses; so each differing query is
binary randomized response followed by a hypothesis-free post-processing (and the part
is a function of the output): the geometric mechanism has the region of randomized
response, and so its k-fold (adaptive) composition has the region of the k-fold
randomized response. Exactly: that region (every deterministic adversary choosing, per
query, the shift direction) equals (5) at delta = 0 (k <= 3), and the region of every
deterministic adversary over other (eps, 0)-DP mechanisms lies inside it (k = 2).
Library cross-check: exactdp's geometric_pair is the randomized response derived above,
and geometric_region(k) has exactly the region (5) at delta = 0.
"""

from __future__ import annotations

from fractions import Fraction as F

import sympy as sp

from .._crosscheck import FAILED, crosschecked, same_function
from .._framework import Proof, statement
from . import _adaptive as AD
from . import _common as C
from ._region import compare


@statement(
    "Theorem 4.4",
    "Under the k-fold composition experiment of counting queries, the geometric mechanism achieves the largest "
    "privacy region among all (eps, 0)-DP mechanisms, universally for every pair of neighbouring databases.",
    library=("exactdp.regions.geometric_pair", "exactdp.regions.geometric_region"),
)
def theorem(p: Proof) -> None:
    r = sp.symbols("r", positive=True)  # r = e^-eps in (0, 1)
    m = sp.symbols("m", integer=True, nonnegative=True)
    c = (1 - r) / (1 + r)  # (e^eps - 1)/(e^eps + 1)
    geo = sp.summation(r ** m, (m, 0, sp.oo)).args[0][0]  # sum_{m>=0} r^m = 1/(1-r), |r| < 1
    p.symbolic("sum_{m>=0} r^m = 1/(1-r) for 0 < r < 1", sp.simplify(geo - 1 / (1 - r)) == 0)
    p.symbolic("p is a distribution: c (1 + 2 r/(1-r)) = 1", sp.simplify(c * (1 + 2 * r * geo) - 1) == 0)
    # D0's output x = q + N, D1's x = q + 1 + N: P0(x) = c r^|x|, P1(x) = c r^|x-1|
    P0_le0 = c * geo  # x = -m, m >= 0
    P1_le0 = c * r * geo  # |x - 1| = m + 1
    p.symbolic("P0(x <= 0) = 1/(1+r) = e^eps/(1+e^eps), P1(x <= 0) = r/(1+r) = 1/(1+e^eps): randomized response",
               sp.simplify(P0_le0 - 1 / (1 + r)) == 0 and sp.simplify(P1_le0 - r / (1 + r)) == 0)
    ok = (sp.simplify(c * r ** m / P0_le0 - c * r ** (m + 1) / P1_le0) == 0  # x = -m
          and sp.simplify(c * r ** (m + 1) / (1 - P0_le0) - c * r ** m / (1 - P1_le0)) == 0)  # x = m + 1
    p.symbolic("within x <= 0 and within x >= 1 the conditional law of x is the same under D0 and D1 (likelihood ratio "
               "constant: 1/r on x <= 0, r on x >= 1)", ok)
    n = 0
    for w in (F(5, 4), F(2), F(3)):
        rr = C.binary_rr(w)
        fam = [rr, (rr[1], rr[0])]  # shift +1 or -1 (the swapped pair is the relabelled one)
        for k in ((1, 2, 3) if p.full or w == 2 else (1, 2)):
            for adv in AD.deterministic_adversaries(fam, k):
                V0, V1 = AD.views(fam, adv, k)
                out, inside = compare(V0, V1, C.theorem33_pairs(k, w, F(0)))
                n += 1
                if not p.require(out is None and inside is None, "geometric composition region = (5) at delta = 0",
                                 f"e^eps={w} k={k} adversary={adv}"):
                    return
    p.instances("k queries differing by +-1, the direction chosen adaptively (every deterministic adversary, k <= 3): "
                "the region of the composed geometric mechanisms (= of randomized response) equals (5) with delta = 0",
                n, "exhaustive")
    # larger k (where (6)'s terms with l >= 1 enter, i >= 2): the direction does not matter (a relabelling), so the
    # k-fold product of randomized responses stands for every adversary
    n4 = 0
    for w in (F(5, 4), F(2), F(3)):
        for k in range(4, 11 if p.full else 8):
            V0, V1 = C.product([C.binary_rr(w)] * k)
            out, inside = compare(V0, V1, C.theorem33_pairs(k, w, F(0)))
            n4 += 1
            if not p.require(out is None and inside is None, "geometric composition region = (5) at delta = 0",
                             f"e^eps={w} k={k} (product)"):
                return
    p.instances("k from 4 to 7 (--full 10): the k-fold product equals (5) with delta = 0", n4, "exact")
    m2 = 0
    for w in ((F(2), F(3, 2)) if p.full else (F(2),)):
        fam = AD.family(p.rng, w, F(0), extra=2 if p.full else 1, sizes=(3, 2))
        for adv in AD.deterministic_adversaries(fam, 2):
            V0, V1 = AD.views(fam, adv, 2)
            out, _ = compare(V0, V1, C.theorem33_pairs(2, w, F(0)))
            m2 += 1
            if not p.require(out is None, "any (eps,0)-DP composition inside the geometric one's region",
                             f"e^eps={w} adversary={adv}"):
                return
    p.instances("largest: every deterministic adversary over other (eps, 0)-DP mechanisms (k = 2) stays inside", m2,
                "exhaustive")
    crosschecked(p, "exactdp geometric_pair(e^eps) is (P0(x <= 0), P0(x >= 1)) = (e^eps, 1)/(1 + e^eps) and its mirror; "
                 "geometric_region(e^eps, k) has the boundary of (5) at delta = 0 (k <= 3; 5 with --full)", _library(p))
    p.note("Queries whose answers agree on the pair add hypothesis-free noise (no change to the region); queries "
           "shifted by -1 are randomized response with the outputs relabelled. The density's name 'p(k)' in our copy "
           "reuses k (the number of queries) as the noise value; read p(x).")


def _library(p: Proof) -> int:
    from exactdp.regions import geometric_pair, geometric_region

    n = 0
    for w in (F(5, 4), F(2), F(3)):
        g = p.library("exactdp geometric_pair", geometric_pair, exp_eps=w)
        rr = C.binary_rr(w)
        p.agree(FAILED if g is FAILED else (list(g[0]), list(g[1])), (rr[0], rr[1]), "exactdp geometric_pair",
                f"e^eps={w}")
        n += 1
        for k in range(1, 6 if p.full else 4):
            pairs = C.theorem33_pairs(k, w, F(0))
            R = p.library("exactdp geometric_region", geometric_region, exp_eps=w, k=k)
            same_function(p, FAILED if R is FAILED else R.tradeoff, lambda x, pairs=pairs: C.envelope(pairs, x),
                          C.envelope_breakpoints(pairs), "exactdp geometric_region (boundary)", f"e^eps={w} k={k}")
            n += 1
    return n
