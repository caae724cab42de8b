"""Vadhan-Wang Equation (4): Lemma 1's condition for a deterministic adversary.

Printed: Pr[View<A, M(x)> in T] <= e^eps Pr[View<A, M(x')> in T] + delta, for every T subset
Range(View<A, M(.)>), A deterministic.

Checked literally: for deterministic adversaries (enumerated) against random 2-round mechanisms
and against concurrent compositions of two one-round mechanisms, the least delta satisfying (4)
over all 2^|Range| events T (enumerated) equals the positive-part sum; the view of a deterministic
adversary is its answer sequence (its queries are functions of it), so the range has at most
|answers|^rounds points.
"""

from __future__ import annotations

from .._framework import Proof, statement
from . import _dp as D
from . import _interactive as I


@statement(
    "Equation (4)",
    "For a deterministic adversary A and every T subset Range(View<A, M(.)>): "
    "Pr[View<A, M(x)> in T] <= e^eps Pr[View<A, M(x')> in T] + delta.",
)
def equation(p: Proof) -> None:
    n = 0
    for _ in range(6 if p.full else 3):
        m = I.random_mech(p.rng, 2, 2, 2)
        w = p.rng.choice(D.W_CHOICES)
        for adv in I.single_adversaries(m):
            V0, V1 = I.single_view(m, 0, adv), I.single_view(m, 1, adv)
            for A0, A1 in ((V0, V1), (V1, V0)):
                n += 1
                if not p.require(D.hockey_all_events(A0, A1, w) == D.hockey(A0, A1, w), "least delta over all events",
                                 f"{m} A={adv} e^eps={w}"):
                    return
        mechs = [I.random_mech(p.rng, 1, 2, 2) for _ in range(2)]
        for adv in I.cc_adversaries(mechs):
            V0, V1 = I.cc_view(mechs, (0, 0), adv), I.cc_view(mechs, (1, 1), adv)
            n += 1
            if not p.require(D.hockey_all_events(V0, V1, w) == D.hockey(V0, V1, w), "least delta over all events",
                             f"{mechs} e^eps={w}"):
                return
    p.instances("every deterministic adversary of random 2-round mechanisms and of ConComp of two one-round "
                "mechanisms: least delta over every event of the view range = positive-part sum", n, "exhaustive")
