"""Vadhan-Wang Lemma 3 ([23]: pure indistinguishability composes along a chain).

Printed: if X ~(eps_1, 0) Y and Y ~(eps_2, 0) Z then X ~(eps_1 + eps_2, 0) Z.

Checked exactly: random X, Y, Z (with common support, zeros allowed) with e^eps_1, e^eps_2 their
least pure parameters (largest likelihood ratios): X and Z are (eps_1 + eps_2, 0)-indistinguishable
(every event, both directions); the bound is attained on some instances (recorded). Symbolically:
X(T) <= e^eps_1 Y(T) <= e^{eps_1 + eps_2} Z(T) for every T is the product of the two inequalities.
"""

from __future__ import annotations

from .._framework import Proof, statement
from . import _dp as D


@statement(
    "Lemma 3",
    "If X ~(eps_1, 0) Y and Y ~(eps_2, 0) Z, then X ~(eps_1 + eps_2, 0) Z.",
)
def lemma(p: Proof) -> None:
    n = tight = 0
    for _ in range(150 if p.full else 60):
        size = p.rng.randint(2, 4)
        supp = [i for i in range(size) if p.rng.random() < 0.85] or [0]
        X, Y, Z = (dict(zip(supp, D.rand_dist_seq(p.rng, len(supp), zeros=False))) for _ in range(3))
        w1, w2 = D.max_ratio(X, Y), D.max_ratio(Y, Z)
        n += 1
        if not p.require(D.dp_delta(X, Z, w1 * w2) == 0, "X ~(eps_1 + eps_2, 0) Z", f"X={X} Y={Y} Z={Z}"):
            return
        tight += D.max_ratio(X, Z) == w1 * w2
    p.instances("random X, Y, Z: with e^eps_i the least pure parameters, X, Z are (eps_1 + eps_2, 0)-indistinguishable",
                n)
    p.note(f"The bound is attained (max ratio of X/Z = e^(eps_1 + eps_2)) in {tight} of {n} instances.")
