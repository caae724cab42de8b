"""Kairouz-Oh-Viswanath Remark 2.2 (randomized decision rules stay in the privacy region).

Printed (display lost): for all neighbouring D, D' and a mechanism M, the pair of
false-alarm and missed-detection probabilities achieved by ANY decision rule gamma is
in the privacy region R(M, D, D') = conv{(P_MD(S), P_FA(S)) : S subset X}. Proof
(Section 9.3): a randomized rule is a partition S_1..S_N with acceptance (rejection of
H0) probabilities 1 >= p_1 >= ... >= p_N >= 0; with p_0 = 1, p_{N+1} = 0,
P_FA = sum_i (p_i - p_{i+1}) P0(S_1 u ... u S_i) (and P_MD likewise): a convex
combination of threshold rules.

Checked: random finite mechanisms and random rational randomized rules, exact
membership in the exact convex hull of the 2^n deterministic points; the proof's
Abel-summation step as an exact identity for both coordinates.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _common as C


def randomized_point(p0, p1, phi):
    """(P_MD, P_FA) of the rule rejecting H0 with probability phi[x] on output x."""
    fa = sum((a * f for a, f in zip(p0, phi)), F(0))
    md = sum((b * (1 - f) for b, f in zip(p1, phi)), F(0))
    return md, fa


def rand_rule(rng, n):
    return [F(rng.randint(0, 6), 6) if rng.random() < 0.8 else F(rng.randint(0, 1)) for _ in range(n)]


@statement(
    "Remark 2.2",
    "For all neighbouring D, D' and mechanism M, (P_MD, P_FA) of any (randomized) decision rule lies in "
    "R(M, D, D') = conv{(P_MD(S), P_FA(S))}.",
)
def remark(p: Proof) -> None:
    n = 0
    for _ in range(400 if p.full else 150):
        m = p.rng.randint(1, 5)
        p0, p1 = C.rand_dist(p.rng, m), C.rand_dist(p.rng, m)
        poly = C.hull(C.all_points(p0, p1))
        for _ in range(3):
            phi = rand_rule(p.rng, m)
            q = randomized_point(p0, p1, phi)
            n += 1
            if not p.require(C.in_hull(poly, q), "randomized rule's point in conv of deterministic points",
                             f"p0={p0} p1={p1} phi={phi} point={q}"):
                return
    p.instances("(P_MD, P_FA) of random randomized rules in the exact hull of all 2^n deterministic points "
                "(n <= 5)", n, "exact")
    p.note("Section 9.1 cites this statement as '(cf. Theorem 2.2)' while Section 9.3 proves 'Remark 2.2': a "
           "harmless mislabel of the paper (one shared counter), not an erratum.")


@statement(
    "Remark 2.2 (proof: Abel summation over the sorted acceptance probabilities)",
    "With p_0 = 1 >= p_1 >= ... >= p_N >= p_{N+1} = 0: P_FA = sum_{i=0}^{N} (p_i - p_{i+1}) P0(S_1 u..u S_i) and "
    "P_MD = sum_i (p_i - p_{i+1}) P1(complement of S_1 u..u S_i); the weights are a probability vector.",
)
def step(p: Proof) -> None:
    n = 0
    for _ in range(400 if p.full else 150):
        m = p.rng.randint(1, 6)
        p0, p1 = C.rand_dist(p.rng, m), C.rand_dist(p.rng, m)
        phi = rand_rule(p.rng, m)
        levels = sorted(set(phi), reverse=True)  # p_1 > ... > p_N, S_i = {x : phi(x) = p_i}
        ps = [F(1)] + levels + [F(0)]
        md, fa = F(0), F(0)
        weights = []
        for i in range(len(ps) - 1):
            wgt = ps[i] - ps[i + 1]
            weights.append(wgt)
            S = [x for x in range(m) if phi[x] in levels[:i]]
            pm, pf = C.error_point(p0, p1, S)
            md += wgt * pm
            fa += wgt * pf
        n += 1
        ok = (md, fa) == randomized_point(p0, p1, phi) and all(x >= 0 for x in weights) and sum(weights) == 1
        if not p.require(ok, "Abel summation identity and convex weights", f"p0={p0} p1={p1} phi={phi}"):
            return
    p.instances("the proof's convex combination of threshold rules equals (P_MD, P_FA) of the randomized rule "
                "exactly; weights p_i - p_{i+1} >= 0 sum to 1", n, "exact")
    p.note("The display of P_FA was lost in conversion; transcribed from the surrounding text ('we used p_0 = 1 and "
           "p_{N+1} = 0, and hence it is included in the convex hull ... of decision rules with hard thresholding').")
