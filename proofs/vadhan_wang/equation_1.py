"""Vadhan-Wang Equation (1): the event inequality of Definition 1.

Printed: for all T subset Y, Pr[M(x) in T] <= e^eps Pr[M(x') in T] + delta.

Checked: for random output distributions P = M(x), Q = M(x') on up to 5 points and rational
e^eps, the least delta making (1) hold over all 2^|Y| events T (enumerated) is
sum_y max(P(y) - e^eps Q(y), 0), attained by T = {y : P(y) > e^eps Q(y)}; (1) at that delta holds
for every T and fails for a smaller delta at that T. (1) is one-directional: Definition 1
quantifies over both orders of an adjacent pair, so (eps, delta)-DP uses the maximum of both
directions (an instance where they differ is recorded).
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _dp as D


@statement(
    "Equation (1)",
    "For all T subset Y: Pr[M(x) in T] <= e^eps Pr[M(x') in T] + delta.",
)
def equation(p: Proof) -> None:
    n = 0
    asym = None
    for _ in range(80 if p.full else 30):
        k = p.rng.randint(1, 5)
        P, Q = D.rand_pair(p.rng, k)
        w = p.rng.choice(D.W_CHOICES)
        lhs = D.hockey_all_events(P, Q, w)
        Tstar = [y for y in P if P[y] > w * Q[y]]
        at_T = sum((P[y] - w * Q[y] for y in Tstar), F(0))
        n += 1
        if not p.require(lhs == D.hockey(P, Q, w) == at_T, "least delta over all events = positive-part sum",
                         f"P={P} Q={Q} e^eps={w}"):
            return
        if asym is None and D.hockey(P, Q, w) != D.hockey(Q, P, w):
            asym = (P, Q, w)
    p.instances("least delta satisfying (1) over all 2^|Y| events T = sum max(P - e^eps Q, 0) = value at "
                "T = {P > e^eps Q} (|Y| <= 5)", n, "exhaustive")
    if asym:
        P, Q, w = asym
        p.note(f"(1) is one-directional: e.g. P={[D.frac(P[i]) for i in sorted(P)]}, Q={[D.frac(Q[i]) for i in sorted(Q)]},"
               f" e^eps={D.frac(w)}: least delta {D.frac(D.hockey(P, Q, w))} for (x, x'), {D.frac(D.hockey(Q, P, w))} "
               "for (x', x); Definition 1's 'every pair of adjacent datasets' covers both orders.")
