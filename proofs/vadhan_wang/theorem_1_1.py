"""Vadhan-Wang Theorem 1.1 (Basic Composition [7]).

Printed: for every eps >= 0, delta in [0,1], if M_0..M_{k-1} are each (eps, delta)-DP, then
Comp(M_0..M_{k-1}) is (k eps, k delta)-DP.

Checked on finite mechanisms restricted to an adjacent pair (x, x'): each M_i is a random pair
(M_i(x), M_i(x')) of output distributions; with e^eps rational, delta is the largest of their
exact least deltas (Definition 1, both directions), and the product distributions (independent
coins) are (k eps, k delta)-DP, decided exactly. The largest ratio of the true delta to k delta
is recorded.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _dp as D


@statement(
    "Theorem 1.1",
    "For every eps >= 0, delta in [0,1]: if M_0..M_{k-1} are each (eps, delta)-DP, then Comp(M_0..M_{k-1}) is "
    "(k eps, k delta)-DP.",
)
def theorem(p: Proof) -> None:
    n = 0
    worst = F(0)
    for _ in range(120 if p.full else 40):
        k = p.rng.randint(1, 4 if p.full else 3)
        w = p.rng.choice(D.W_CHOICES)
        pairs = [D.rand_pair(p.rng, p.rng.randint(2, 3)) for _ in range(k)]
        delta = max(D.dp_delta(P, Q, w) for P, Q in pairs)
        P = D.product([a for a, _ in pairs])
        Q = D.product([b for _, b in pairs])
        got = D.dp_delta(P, Q, w ** k)
        n += 1
        if not p.require(got <= k * delta, "Comp is (k eps, k delta)-DP",
                         f"e^eps={w} pairs={pairs}: delta={delta}, composed delta at e^(k eps) = {got} > k delta"):
            return
        if delta:
            worst = max(worst, got / (k * delta))
    p.instances("product of k <= 3 random (eps, delta)-DP pairs (delta = their largest exact delta, e^eps rational) "
                "is (k eps, k delta)-DP (exact)", n)
    # the whole range: the worst case over all (eps, delta)-DP mechanisms is the RR_(eps, delta) product (Theorem 1.3,
    # attained there); its least delta at e^{k eps} is 1 - (1-delta)^k (1 - LHS(e^{k eps})), computed exactly
    m = 0
    for k in (1, 2, 10, 50, 200) + ((1000,) if p.full else ()):
        for w in (F(1), F(1001, 1000), F(2), F(1000)):
            for delta in (F(0), F(1, 10 ** 9), F(1, 10), F(1, 2), F(1)):
                t = w ** k
                lhs = D.thm13_lhs_homogeneous(w, k, t) if k <= 200 else F(0)  # 0: every term has w^i <= t w^(k-i)
                worst = 1 - (1 - delta) ** k * (1 - lhs)
                m += 1
                if worst > k * delta:
                    p.refute("worst case (RR product) within (k eps, k delta)",
                             f"k={k} e^eps={w} delta={delta}: least delta {float(worst)} > k delta")
                    return
    p.instances("the worst case over all mechanisms (RR_(eps,delta) product, Theorem 1.3's homogeneous formula) at "
                "e^{k eps}: k up to 200 (1000 with --full), e^eps from 1 to 1000, delta from 0 to 1", m)
    p.note(f"Largest ratio (true delta at e^(k eps)) / (k delta) seen on the random instances: {float(worst):.3f} "
           "(1 when k = 1).")
