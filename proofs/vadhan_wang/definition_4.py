"""Vadhan-Wang Definition 4 (interactive differential privacy), with Equation (2) as its condition.

Printed: M is an (eps, delta)-DP interactive mechanism if for every pair of adjacent datasets x, x'
and every adversary A, for all T subset Range(View<A, M(.)>):
Pr[View<A, M(x)> in T] <= e^eps Pr[View<A, M(x')> in T] + delta (randomness of M and A).

Checked: (a) for a noninteractive mechanism (one round, one possible query) the definition is
Definition 1: the least delta over every deterministic adversary (enumerated), both orders of the
pair, equals the least delta of the output distributions; (b) randomized adversaries (coins in the
view) never need more delta than the deterministic ones (the definition's supremum is over all
adversaries; see Lemma 1); (c) adaptivity matters: an instance is recorded where some adaptive
adversary needs strictly more delta than every adversary that fixes its queries in advance, so
Definition 4 is not the per-query-sequence condition.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import FAILED, crosschecked, exp_exact
from .._framework import Proof, statement
from . import _dp as D
from . import _interactive as I


def interactive_delta_enum(m: I.Mech, w: F) -> F:
    """Least delta for Definition 4 over every deterministic adversary (enumerated), both orders."""
    return max(D.dp_delta(I.single_view(m, 0, a), I.single_view(m, 1, a), w) for a in I.single_adversaries(m))


@statement(
    "Definition 4",
    "M is an (eps, delta)-DP interactive mechanism if for every adjacent x, x', every adversary A and every "
    "T subset Range(View<A, M(.)>): Pr[View<A, M(x)> in T] <= e^eps Pr[View<A, M(x')> in T] + delta.",
    library=("exactdp.interactive.privacy_loss", "exactdp.interactive.delta_of"),
)
def definition(p: Proof) -> None:
    from exactdp.interactive import delta_of, privacy_loss

    from ._library import to_lib

    n_a = n_b = n_c = n_lib = 0
    for _ in range(40 if p.full else 15):
        P, Q = D.rand_pair(p.rng, p.rng.randint(2, 4))
        w = p.rng.choice(D.W_CHOICES)
        m = I.noninteractive(P, Q)
        n_a += 1
        if not p.require(interactive_delta_enum(m, w) == D.dp_delta(P, Q, w), "noninteractive case = Definition 1",
                         f"P={P} Q={Q} e^eps={w}"):
            return
    adaptive_gap = None
    for _ in range(40 if p.full else 15):
        m = I.random_mech(p.rng, 2, 2, 2)
        w = p.rng.choice(D.W_CHOICES[1:])
        det = interactive_delta_enum(m, w)
        lm = p.library("exactdp InteractiveMechanism", to_lib, m) if (p.full or n_c % 3 == 0) else FAILED
        if lm is not FAILED:
            for method in ("dp", "enumerate"):
                p.agree(p.library(f"exactdp delta_of ({method})", delta_of, lm, exp_eps=w, method=method), det,
                        f"exactdp delta_of ({method})", f"{m} e^eps={w}")
            for d in (F(0), F(1, 10)):
                p.agree(exp_exact(p.library("exactdp privacy_loss", privacy_loss, lm, d)), I.single_privloss_t(m, d),
                        "exactdp privacy_loss (e^eps)", f"{m} delta={d}")
            n_lib += 1
        for _ in range(3):
            nr = p.rng.randint(2, 3)
            advs = [I.random_single_adversary(p.rng, m) for _ in range(nr)]
            probs = D.rand_dist_seq(p.rng, nr, zeros=False)
            got = D.dp_delta(I.mixed_view(m, 0, advs, probs), I.mixed_view(m, 1, advs, probs), w)
            n_b += 1
            if not p.require(got <= det, "randomized adversaries need no more delta than deterministic ones",
                             f"{m} e^eps={w}"):
                return
        na = I.nonadaptive_hockey(m, w)
        n_c += 1
        if not p.require(na <= det, "non-adaptive adversaries are adversaries", f"{m}"):
            return
        if na < det and adaptive_gap is None:
            adaptive_gap = (m, w, na, det)
    p.instances("one-round one-query mechanisms: Definition 4's least delta = Definition 1's", n_a, "exhaustive")
    p.instances("randomized adversaries (2-3 coin values, coins in the view) need at most the deterministic delta",
                n_b)
    p.instances("2-round mechanisms: adversaries fixing their queries in advance need at most the adaptive delta", n_c,
                "exhaustive")
    crosschecked(p, "exactdp on the same 2-round mechanisms (as game trees): delta_of(e^eps), by its dynamic programme and "
                 "by enumeration, equals the least delta over every deterministic adversary; privacy_loss(delta) equals "
                 "the independent PrivLoss (delta in {0, 1/10})", n_lib)
    if adaptive_gap:
        m, w, na, det = adaptive_gap
        p.note(f"Adaptivity matters: {m} at e^eps = {D.frac(w)}: every non-adaptive adversary needs delta <= "
               f"{D.frac(na)}, an adaptive one {D.frac(det)}.")
