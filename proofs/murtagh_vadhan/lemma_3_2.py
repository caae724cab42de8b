"""Murtagh-Vadhan Lemma 3.2 (KOV: M~ simulates every (eps,delta)-DP mechanism).

Printed: for every (eps,delta)-DP M and neighbouring D_0, D_1 there is a
randomized T with T(M~_(eps,delta)(b)) ~ M(D_b) for b = 0, 1. (Proof deferred
to the full version.)

Checked constructively on finite mechanisms: T is built by an exact LP (A, B >= 0
of mass (1-delta)/(1+e^eps) with e^eps A + B <= P0, A + e^eps B <= P1; then
T(.|1) = A/a, T(.|2) = B/a and T(.|0), T(.|3) carry the remainders; see
``_common.simulator``), and T(M~(b)) = M(D_b) is verified exactly. Conversely the
LP is infeasible on every sampled mechanism that is not (eps,delta)-DP, as Fact
2.2 requires. Library cross-check: exactdp's blackwell_kernel (Vadhan-Zhang Theorem
3.2: a verified kernel or an exact Farkas certificate) decides the same existence.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import FAILED, crosschecked
from .._framework import Proof, statement
from . import _common as C


@statement(
    "Lemma 3.2",
    "For every (eps,delta)-DP M and neighbouring D_0, D_1 there is a randomized T with T(M~_(eps,delta)(b)) "
    "identically distributed to M(D_b), b = 0, 1.",
    library=("exactdp.interactive.blackwell_kernel",),
)
def lemma(p: Proof) -> None:
    from exactdp.interactive import blackwell_kernel

    def lib(p0, p1, w, d, exists):
        r = p.library("exactdp blackwell_kernel", blackwell_kernel, *C.rr(w, d), p0, p1)
        return p.agree(FAILED if r is FAILED else r.dominated, exists, "exactdp blackwell_kernel (dominated)",
                       f"P0={p0} P1={p1} e^eps={w} delta={d}")

    n_pos = n_neg = n_lib = 0
    for idx in range(500 if p.full else 150):
        m = p.rng.randint(1, 4)
        w = C.rand_w(p.rng)
        p0, p1, dmin = C.rand_dp_mechanism(p.rng, m, w)
        # at the least delta (the tight case) and above it
        for d in {dmin, dmin + (1 - dmin) * F(p.rng.randint(1, 3), 4)}:
            T = C.simulator(p0, p1, w, d)
            q0, q1 = C.rr(w, d)
            ok = T is not None and C.is_stochastic(T) and C.push(q0, T) == p0 and C.push(q1, T) == p1
            n_pos += 1
            if not p.require(ok, "T exists and T(M~(b)) = M(D_b) exactly",
                             f"P0={p0} P1={p1} e^eps={w} delta={d}: T={T}"):
                return
            if p.full or idx % 5 == 0:
                lib(p0, p1, w, d, True)
                n_lib += 1
        if dmin > 0:
            d = dmin * F(p.rng.randint(0, 3), 4)
            n_neg += 1
            if not p.require(C.simulator(p0, p1, w, d) is None, "no T when M is not (eps,delta)-DP",
                             f"P0={p0} P1={p1} e^eps={w} delta={d}"):
                return
            if p.full or idx % 5 == 0:
                lib(p0, p1, w, d, False)
                n_lib += 1
    p.instances("random (eps,delta)-DP mechanisms on <= 4 outputs (delta tight and loose): an exact stochastic T with "
                "T(M~_(eps,delta)(b)) = M(D_b) for b = 0, 1", n_pos)
    p.instances("mechanisms that are not (eps,delta)-DP: the LP for T is infeasible (consistent with Fact 2.2)", n_neg)
    crosschecked(p, "exactdp blackwell_kernel(M~_(eps,delta), M) finds a verified kernel exactly when the independent LP "
                 "does, and an exact certificate of infeasibility when M is not (eps, delta)-DP", n_lib)
    p.note("The lemma's proof is in the full version; this is a constructive check by exact LP, not a transcription.")
