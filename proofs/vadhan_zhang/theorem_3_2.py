"""Vadhan-Zhang Theorem 3.2 (Blackwell's theorem, as in Dong-Roth-Su).

Printed: for P, Q on X and P', Q' on Y, (1) T(P, Q) <= T(P', Q') iff (2) there is a randomized Proc with
Proc(P) = P' and Proc(Q) = Q'.

Checked exactly on finite pairs: (2) => (1) for random kernels; (1) => (2): for random pairs with
T(P, Q) <= T(P', Q') pointwise a kernel is found by the exact LP (the search) and verified by exact matrix
products (the check). Here <= is pointwise, as in Dong-Roth-Su and as Lemma 3.1's proof uses it; read with
the reversed poset order of Section 2 the statement would be false (see the evidence).
"""

from __future__ import annotations

from .._crosscheck import FAILED, crosschecked
from .._framework import Proof, statement
from . import _lp
from . import _tradeoff as T


@statement(
    "Theorem 3.2",
    "For P, Q on X and P', Q' on Y: T(P, Q) <= T(P', Q') iff there is a randomized Proc: X -> Y with Proc(P) = P' and "
    "Proc(Q) = Q'.",
    library=("exactdp.interactive.blackwell_kernel",),
)
def theorem(p: Proof) -> None:
    from exactdp.interactive import blackwell_kernel

    from ._library import PQ

    lib = {"n": 0, "unverified": 0, "no": 0}

    def library(src, dst, exists: bool) -> None:
        """exactdp blackwell_kernel on (src, dst): its decision and status as the independent ones, its kernel
        verified by the independent exact check."""
        inst = f"{T.fmt_pairs(src)} -> {T.fmt_pairs(dst)}"
        r = p.library("exactdp blackwell_kernel", blackwell_kernel, *PQ(src), *PQ(dst))
        if r is FAILED:
            return
        lib["n"] += 1
        p.agree(r.dominated, exists, "exactdp blackwell_kernel (dominated)", inst)
        if r.status == "unverified":  # no claim (the float LP's answer failed its exact check)
            lib["unverified"] += 1
        elif p.agree(r.status, "verified" if exists else "infeasible", "exactdp blackwell_kernel (status)", inst) \
                and exists:
            p.agree(_lp.is_kernel_between(src, r.kernel, dst), True,
                    "exactdp blackwell_kernel (its kernel: the independent exact check)", inst)

    n21 = n12 = 0
    for _ in range(80 if p.full else 30):
        src = T.rand_pairs(p.rng, p.rng.randint(1, 5))
        dst = T.push(src, T.rand_kernel(p.rng, len(src), p.rng.randint(1, 4)))
        n21 += 1
        if not p.require(T.le(T.tradeoff(src), T.tradeoff(dst)), "(2) => (1): post-processing", f"{src} -> {dst}"):
            return
        if p.full or n21 % 5 == 0:
            library(src, dst, True)
    tries = 0
    while n12 < (60 if p.full else 20) and tries < 5000:
        tries += 1
        src = T.rand_pairs(p.rng, p.rng.randint(2, 5))
        dst = T.rand_pairs(p.rng, p.rng.randint(2, 4))
        g = T.tradeoff(dst)
        # independent pairs (dst not built from src), dst informative (T(dst) != 1 - alpha), (1) holding
        if T.equal(g, T.IDENTITY) or not T.le(T.tradeoff(src), g):
            if lib["no"] < (20 if p.full else 5) and not T.le(T.tradeoff(src), g):
                lib["no"] += 1   # (1) fails: the library must find no kernel
                library(src, dst, False)
            continue
        K = _lp.blackwell_kernel(src, dst)
        n12 += 1
        if p.full or n12 % 2:
            library(src, dst, True)
        if not p.require(K is not None and _lp.is_kernel_between(src, K, dst), "(1) => (2): a kernel exists",
                         f"{T.fmt_pairs(src)} dominates {T.fmt_pairs(dst)}"):
            return
    p.instances("(2) => (1): random pairs and random kernels", n21)
    p.instances("(1) => (2): independent random pairs with T(P, Q) <= T(P', Q') != 1 - alpha (P', Q' on 2-4 outcomes): "
                "a kernel from the exact LP, verified exactly", n12)
    crosschecked(p, "exactdp blackwell_kernel on pairs of both directions (every fifth post-processed pair, every "
                 "other dominated pair; all with --full; and pairs where (1) fails): its exact decision 'dominated' is the independent "
                 "T(P, Q) <= T(P', Q'); 'verified' kernels pass the independent exact check, and it is 'infeasible' "
                 "where (1) fails", lib["n"])
    if lib["unverified"]:
        p.note(f"Library issue open: exactdp blackwell_kernel made no claim ('unverified') on {lib['unverified']} of "
               "the compared pairs (not compared).")
    p.note("Notation (harmless): '<=' is pointwise here (as in [3]); under Section 2's poset order (f <= g iff f >= g "
           "pointwise) the statement would be false: P = Q (T = 1 - alpha) and P', Q' disjoint (T = 0) have T(P, Q) <= "
           "T(P', Q') in the poset, but no Proc maps equal distributions to different ones.")
