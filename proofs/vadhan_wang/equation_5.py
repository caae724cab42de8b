"""Vadhan-Wang Equation (5) and the averaging step of Lemma 1's proof.

Printed: suppose, for contradiction, a randomized adversary A and an event T with
Pr[View<A, M(x)> in T] > e^eps Pr[View<A, M(x')> in T] + delta (5); since
Pr[View<A, M(x)> in T] = E_{r_A}[Pr_{r_M}[View<A(r_A), M(x; r_M)> in T]], some fixed r_A satisfies (5) too,
so the deterministic A_{r_A} = A(r_A) with T_{r_A} = {(m_1, m_3, ...) : (r_A, m_1, m_3, ...) in T} violates (4).

Checked exactly: randomized adversaries (coin values r with rational probabilities, a random
deterministic strategy per coin) against random mechanisms, e^eps and delta chosen below the true
privacy so that (5) holds (T = the optimal event of the mixture, and random events): the expectation
identity holds per event, and some coin value r satisfies (5) with T_r; when (5) fails for every
deterministic adversary at (eps, delta), it fails for every randomized one (the contrapositive).
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _dp as D
from . import _interactive as I


@statement(
    "Equation (5)",
    "Pr[View<A, M(x)> in T] > e^eps Pr[View<A, M(x')> in T] + delta (the contradiction hypothesis for a randomized A); "
    "then some fixed coins r_A give a deterministic A_{r_A} and T_{r_A} with the same strict inequality.",
)
def equation(p: Proof) -> None:
    n = found = 0
    for _ in range(30 if p.full else 12):
        m = I.random_mech(p.rng, 2, 2, 2)
        nr = p.rng.randint(2, 3)
        advs = [I.random_single_adversary(p.rng, m) for _ in range(nr)]
        probs = D.rand_dist_seq(p.rng, nr, zeros=False)
        w = p.rng.choice(D.W_CHOICES)
        V0, V1 = I.mixed_view(m, 0, advs, probs), I.mixed_view(m, 1, advs, probs)
        events = [{v for v in V0 if V0[v] > w * V1.get(v, F(0))}]
        keys = sorted(set(V0) | set(V1))
        events += [{v for v in keys if p.rng.random() < 0.5} for _ in range(3)]
        for delta in (F(0), D.hockey(V0, V1, w) / 2):
            for T in events:
                lhs = sum((V0.get(v, F(0)) for v in T), F(0))
                rhs = w * sum((V1.get(v, F(0)) for v in T), F(0)) + delta
                slices = []
                for r, adv in enumerate(advs):
                    Tr = {v[1:] for v in T if v[0] == r}
                    A0, A1 = I.single_view(m, 0, adv), I.single_view(m, 1, adv)
                    slices.append((sum((A0.get(v, F(0)) for v in Tr), F(0)), sum((A1.get(v, F(0)) for v in Tr), F(0))))
                n += 1
                if not p.require(lhs == sum(pr * a for pr, (a, _) in zip(probs, slices)),
                                 "Pr[View in T] = E_r Pr[View<A(r), M> in T_r]", f"{m}"):
                    return
                if lhs > rhs:
                    found += 1
                    if not p.require(any(a > w * b + delta for a, b in slices), "some r_A violates (5) with T_{r_A}",
                                     f"{m} advs={advs} probs={probs} e^eps={w} delta={delta} T={T}"):
                        return
    p.instances(f"randomized adversaries: the expectation identity per event, and every violation of (5) ({found} found) "
                "is inherited by some fixed coin value with the sliced event", n)
