"""Vadhan-Wang Equation (2): the event inequality of Definition 4.

Printed: for all T subset Range(View<A, M(.)>): Pr[View<A, M(x)> in T] <= e^eps Pr[View<A, M(x')> in T] + delta,
the randomness over the coins of M and of A.

Checked literally on tiny instances: randomized adversaries (coins r in the view) against random
2-round mechanisms with 1-bit answers: the least delta satisfying (2) over all 2^|Range| events T
(the range: coin values x answer pairs, up to 12 points) equals sum_v max(P(v) - e^eps P'(v), 0),
and equals the average over the coins of the deterministic adversaries' deltas (the events split
by coin value).
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _dp as D
from . import _interactive as I


@statement(
    "Equation (2)",
    "For all T subset Range(View<A, M(.)>): Pr[View<A, M(x)> in T] <= e^eps Pr[View<A, M(x')> in T] + delta.",
)
def equation(p: Proof) -> None:
    n = 0
    for _ in range(25 if p.full else 8):
        m = I.random_mech(p.rng, 2, 2, 2)
        w = p.rng.choice(D.W_CHOICES)
        nr = p.rng.randint(1, 3 if p.full else 2)
        advs = [I.random_single_adversary(p.rng, m) for _ in range(nr)]
        probs = D.rand_dist_seq(p.rng, nr, zeros=False)
        V0, V1 = I.mixed_view(m, 0, advs, probs), I.mixed_view(m, 1, advs, probs)
        for A0, A1 in ((V0, V1), (V1, V0)):
            full = {v: A0.get(v, F(0)) for v in set(A0) | set(A1)}
            lhs = D.hockey_all_events(full, A1, w)
            avg = sum((pr * D.hockey(I.single_view(m, 0 if A0 is V0 else 1, a), I.single_view(m, 1 if A0 is V0 else 0, a),
                                     w) for a, pr in zip(advs, probs)), F(0))
            n += 1
            if not p.require(lhs == D.hockey(A0, A1, w) == avg, "least delta over all events = positive-part sum = "
                             "coin-average of the deterministic deltas", f"{m} e^eps={w}"):
                return
    p.instances("randomized adversaries against 2-round 1-bit mechanisms: least delta over every event of the view "
                "range (coins x answers) = positive-part sum = average over coins", n, "exhaustive")
