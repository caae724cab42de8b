"""Kairouz-Oh-Viswanath Theorem 2.5 (the converse: Blackwell [Bla53]).

Printed (display lost): fix neighbouring D1, D2; if R(M', D1, D2) subset R(M, D1, D2),
there is a coupling of X = M(D) and Y = M'(D) forming a Markov chain D - X - Y,
D in {D1, D2}; i.e. a stochastic T with M'(D_b) = T(M(D_b)) for b = 1, 2.

Checked constructively: for random finite pairs whose regions are nested (exact hull
test), an exact LP finds T, re-verified exactly; pairs whose regions are not nested
have no T (the LP is infeasible, as Theorem 2.4 requires).
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import FAILED, crosschecked
from .._framework import Proof, statement
from . import _common as C


def nested(p0, p1, q0, q1) -> bool:
    return C.region_contains(C.all_points(p0, p1), C.all_points(q0, q1)) is None


@statement(
    "Theorem 2.5",
    "If R(M', D1, D2) subset R(M, D1, D2) then there is a stochastic T with M'(D_b) = T(M(D_b)), b = 1, 2 "
    "(a coupling with D - X - Y Markov).",
    library=("exactdp.interactive.blackwell_kernel", "exactdp.regions.PrivacyRegion.is_subset"),
)
def theorem(p: Proof) -> None:
    from exactdp.fdp import tradeoff_of
    from exactdp.interactive import blackwell_kernel
    from exactdp.regions import PrivacyRegion

    def lib(p0, p1, r0, r1, exists):
        inst = f"p={p0},{p1} q={r0},{r1}"
        r = p.library("exactdp blackwell_kernel", blackwell_kernel, p0, p1, r0, r1)
        p.agree(FAILED if r is FAILED else r.dominated, exists, "exactdp blackwell_kernel (dominated)", inst)
        sub = p.library("exactdp PrivacyRegion.is_subset", lambda: PrivacyRegion.of_tradeoff(tradeoff_of(r0, r1))
                        .is_subset(PrivacyRegion.of_tradeoff(tradeoff_of(p0, p1))))
        p.agree(sub, exists, "exactdp PrivacyRegion.is_subset (nested regions)", inst)

    n_pos = n_neg = n_lib = 0
    for _ in range(120 if p.full else 40):
        a, b = p.rng.randint(2, 4), p.rng.randint(2, 3)
        p0, p1 = C.rand_dist(p.rng, a), C.rand_dist(p.rng, a)
        q0, q1 = C.rand_dist(p.rng, b), C.rand_dist(p.rng, b)
        # move (q0, q1) toward its midpoint until nested (boundary cases included)
        s = F(1)
        for _ in range(12):
            mid = [(x + y) / 2 for x, y in zip(q0, q1)]
            r0 = [m + s * (x - m) for m, x in zip(mid, q0)]
            r1 = [m + s * (y - m) for m, y in zip(mid, q1)]
            if nested(p0, p1, r0, r1):
                break
            if p.rng.random() < 0.3:  # a non-nested pair: T must not exist
                T = C.garbling([p0, p1], [r0, r1])
                n_neg += 1
                if not p.require(T is None, "no T when the regions are not nested",
                                 f"p={p0},{p1} q={r0},{r1}: T={T}"):
                    return
                if p.full or n_neg % 3 == 0:
                    lib(p0, p1, r0, r1, False)
                    n_lib += 1
            s /= 2
        else:
            continue
        T = C.garbling([p0, p1], [r0, r1])
        n_pos += 1
        if not p.require(T is not None, "nested regions => a stochastic T exists",
                         f"p0={p0} p1={p1} q0={r0} q1={r1}"):
            return
        if p.full or n_pos % 2 == 0:
            lib(p0, p1, r0, r1, True)
            n_lib += 1
    p.instances("nested regions (exact hull test): an exact LP finds T with q_b = p_b T, re-verified exactly", n_pos)
    p.instances("regions not nested: the LP for T is infeasible", n_neg)
    crosschecked(p, "exactdp blackwell_kernel (verified kernel / exact Farkas certificate) and PrivacyRegion.is_subset "
                 "agree with the independent nesting test and LP, nested and not", n_lib)
    p.note("Blackwell's theorem for dichotomies; the paper cites [Bla53, Corollary of Theorem 10] for the proof. "
           "Checked constructively, not a transcription of a proof.")
