"""Vadhan-Wang Theorem 5.1 ([18]: noninteractive (eps, delta)-DP mechanisms are post-processings of RR_(eps,delta)).

Printed: if M is (eps, delta)-DP, then for every adjacent x_0, x_1 there is a randomized algorithm T
with T(RR(b)) identically distributed to M(x_b) for b = 0, 1 (RR = RR_(eps,delta), Definition 10).

Checked: for random pairs (M(x_0), M(x_1)) on 2-5 outputs, with rational e^eps and delta their
exact least delta (both directions), an exact simplex searches T (its reduced form: T(0, .), T(1, .)
with (1-delta)/(1+e^eps) (e^eps T(0, .) + T(1, .)) <= M(x_0) and the mirror; T('Iam0'), T('Iam1') the
normalised remainders); every witness is verified in rationals: each T(c, .) is a distribution and
sum_c Pr[RR(b) = c] T(c, .) = M(x_b) exactly. Also at a larger delta and a larger e^eps than needed.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _dp as D
from . import _sim as S


def verify(P, Q, w, d, T) -> bool:
    ys = set(P) | set(Q)
    for c, dist in T.items():
        if any(v < 0 for v in dist.values()) or sum(dist.values()) != 1:
            return False
    R0, R1 = D.rr(w, d)
    for Rb, target in ((R0, P), (R1, Q)):
        out = D.push(Rb, lambda c: T[c])
        if any(out.get(y, F(0)) != target.get(y, F(0)) for y in ys):
            return False
    return True


@statement(
    "Theorem 5.1",
    "If M is (eps, delta)-DP, then for every adjacent x_0, x_1 there is a randomized T with T(RR_(eps,delta)(b)) "
    "identically distributed to M(x_b) for b = 0 and b = 1.",
)
def theorem(p: Proof) -> None:
    n = 0
    for _ in range(60 if p.full else 20):
        P, Q = D.rand_pair(p.rng, p.rng.randint(2, 5))
        w = p.rng.choice(D.W_CHOICES)
        d = D.dp_delta(P, Q, w)
        if d >= 1:
            continue
        for ww, dd in ((w, d), (w, (d + 1) / 2), (w * 2, d)):
            T, opt = S.thm51_T(P, Q, ww, dd)
            n += 1
            if not p.require(T is not None, "a post-processing T exists (LP feasible)",
                             f"P={P} Q={Q} e^eps={ww} delta={dd}: phase-1 optimum {opt}"):
                return
            if not p.require(verify(P, Q, ww, dd, T), "T(RR(b)) = M(x_b) exactly, T a Markov kernel",
                             f"P={P} Q={Q} e^eps={ww} delta={dd}"):
                return
    p.instances("random (eps, delta)-DP output pairs (delta exact, also larger delta or eps): T found by exact simplex and "
                "verified in rationals: T(RR_(eps,delta)(b)) = M(x_b) for b = 0, 1", n)
