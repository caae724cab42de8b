"""Kairouz-Oh-Viswanath Remark 6.1 (the privacy region of a symmetric mechanism).

Printed (the hypothesis survives, the conclusion's display is lost): for a mechanism over
X and neighbours D0, D1 with P0, P1 the laws of M(D0), M(D1), "assume there exists a
permutation pi over X such that P0(x) = P1(pi(x)). Then, the privacy region is [lost]";
the text then uses it as "the privacy region is R({eps_i, delta_i}) = intersection of
R(eps_i, delta_i)". Transcribed as R(M, D0, D1) = intersection over j of R(eps_j, delta_j),
eps_j over the values log(P0(x)/P1(x)) >= 0, delta_j = sum_x max(P0(x) - e^{eps_j} P1(x), 0).
A footnote (number lost): "The symmetry assumption is to simplify notations".

Refuted as printed, whatever the lost delta_j's are: every R(eps, delta) is symmetric
under P_FA <-> P_MD, so an intersection of them is too, but P0 = P1 o pi does not make
R(M) symmetric when pi is not an involution (minimal: 3 outputs, pi a 3-cycle).
Correction: assume also P1(x) = P0(pi(x)) (e.g. pi an involution, as for the Section 6.1
mechanism and its products, the only use in the paper); then the transcribed formula
holds, checked exactly on random such mechanisms.

Library cross-checks: exactdp's TradeOff.is_symmetric finds the counterexample's T(P0, P1)
not symmetric; in the correction, tradeoff_from_guarantees of the (eps_j, delta_j)
equals tradeoff_of(P0, P1) exactly.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import FAILED, crosschecked
from .._framework import Proof, statement
from . import _common as C
from ._region import compare


def pairs_of(p0, p1):
    ratios = sorted({a / b for a, b in zip(p0, p1) if b > 0 and a >= b})
    return [(w, C.hs(p0, p1, w)) for w in ratios]


def swap_asymmetry(p0, p1):
    """A P_MD value where the lower boundaries of (P0, P1) and (P1, P0) differ (None: R(M) is symmetric)."""
    f = C.np_boundary(C.as_dist(p0), C.as_dist(p1))
    g = C.np_boundary(C.as_dist(p1), C.as_dist(p0))
    for x in sorted({x for x, _ in f} | {x for x, _ in g}):
        if C.pl_value(f, x) != C.pl_value(g, x):
            return x, C.pl_value(f, x), C.pl_value(g, x)
    return None


def corrected(q: Proof) -> None:
    from exactdp import Mechanism
    from exactdp.fdp import tradeoff_from_guarantees, tradeoff_of

    def lib_equal(p0, p1):
        gs = [Mechanism(exp_eps=w, delta=d) for w, d in pairs_of(p0, p1)]
        return tradeoff_from_guarantees(gs) == tradeoff_of(p0, p1)

    n = n_lib = 0
    for _ in range(300 if q.full else 100):
        m = q.rng.randint(2, 6)
        # a random involution pi: random disjoint transpositions
        items = list(range(m))
        q.rng.shuffle(items)
        pi = list(range(m))
        for a, b in zip(items[0::2], items[1::2]):
            if q.rng.random() < 0.8:
                pi[a], pi[b] = b, a
        p0 = C.rand_dist(q.rng, m)
        p1 = [p0[pi[x]] for x in range(m)]  # P1(x) = P0(pi(x)) and, pi being an involution, P0(x) = P1(pi(x))
        out, inside = compare(C.as_dist(p0), C.as_dist(p1), pairs_of(p0, p1))
        n += 1
        if not q.require(out is None and inside is None, "region = intersection",
                         f"p0={p0} pi={pi}: outside at {out}, strictly inside at {inside}"):
            return
        if (q.full or n % 2 == 0) and pairs_of(p0, p1):   # the library takes a non-empty list of guarantees
            q.agree(q.library("exactdp tradeoff_from_guarantees", lib_equal, p0, p1), True,
                    "exactdp tradeoff_from_guarantees(eps_j, delta_j) == tradeoff_of(P0, P1)", f"p0={p0} pi={pi}")
            n_lib += 1
    q.instances("random mechanisms with P0 = P1 o pi and P1 = P0 o pi (pi a random involution, n <= 6): exact lower "
                "boundary of R(M) = envelope of the intersection", n, "exact")
    crosschecked(q, "exactdp tradeoff_from_guarantees of the (e^eps_j, delta_j) equals tradeoff_of(P0, P1) (the "
                 "intersection is the region)", n_lib)


@statement(
    "Remark 6.1",
    "If P0(x) = P1(pi(x)) for a permutation pi of X, then R(M, D0, D1) = intersection of R(eps_j, delta_j) over "
    "eps_j = log(P0(x)/P1(x)) >= 0, delta_j = sum_x [P0(x) - e^eps_j P1(x)]^+ (conclusion lost; transcribed).",
    library=("exactdp.fdp.TradeOff.is_symmetric", "exactdp.fdp.tradeoff_of", "exactdp.fdp.tradeoff_from_guarantees"),
)
def remark(p: Proof) -> None:
    from exactdp.fdp import tradeoff_of

    p0 = [F(1, 2), F(1, 3), F(1, 6)]
    pi = [1, 2, 0]  # the 3-cycle 0 -> 1 -> 2 -> 0
    p1 = [F(0)] * 3
    for x in range(3):
        p1[pi[x]] = p0[x]
    asym = swap_asymmetry(p0, p1)
    f = p.library("exactdp tradeoff_of", tradeoff_of, p0, p1)
    p.agree(FAILED if f is FAILED else f.is_symmetric(), asym is None, "exactdp TradeOff.is_symmetric",
            f"P0={p0} P1={p1}")
    crosschecked(p, "exactdp TradeOff.is_symmetric of T(P0, P1) for the 3-cycle counterexample is the independent verdict "
                 "(not symmetric)", 1)
    h01, h10 = C.hs(p0, p1, F(2)), C.hs(p1, p0, F(2))
    if asym is not None and all(p0[x] == p1[pi[x]] for x in range(3)):
        x, a, b = asym
        p.refute("R(M) is an intersection of (eps, delta) regions",
                 f"P0 = (1/2, 1/3, 1/6), P1 = (1/6, 1/2, 1/3), pi the 3-cycle 0->1->2->0 (P0(x) = P1(pi(x))). R(M) is "
                 f"not symmetric under P_FA <-> P_MD: its lowest P_FA at P_MD = {x} is {a}, the mirror image's is {b}; "
                 f"e.g. sum_x [P0 - 2 P1]^+ = {h01} but sum_x [P1 - 2 P0]^+ = {h10}. Every R(eps, delta) is symmetric, "
                 "so no intersection of them equals R(M) (whatever the lost delta_j). n = 3 is minimal: on 2 outputs "
                 "every permutation is an involution.")
    n = 0
    bad = 0
    for _ in range(100 if p.full else 40):
        m = p.rng.randint(3, 6)
        q0 = C.rand_dist(p.rng, m)
        perm = list(range(m))
        p.rng.shuffle(perm)
        q1 = [F(0)] * m
        for x in range(m):
            q1[perm[x]] = q0[x]
        out, inside = compare(C.as_dist(q0), C.as_dist(q1), pairs_of(q0, q1))
        n += 1
        bad += out is not None or inside is not None
    p.note(f"On {n} random mechanisms with P0 = P1 o pi (pi a random permutation of 3..6 outputs) the transcribed "
           f"formula fails on {bad}. The paper applies the remark only to the Section 6.1 mechanism and its products, "
           "where pi is an involution: Theorem 3.3 is not affected.")
    p.correct("If P0(x) = P1(pi(x)) and P1(x) = P0(pi(x)) for a permutation pi (e.g. an involution), then "
              "R(M, D0, D1) = intersection over eps_j = log(P0(x)/P1(x)) >= 0 of R(eps_j, sum_x [P0(x) - e^eps_j P1(x)]^+).",
              corrected)
