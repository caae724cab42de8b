"""Murtagh-Vadhan Fact 2.2 (post-processing).

Printed: if f: S -> R is any randomized function then
D_inf^delta(f(Y) || f(Z)) <= D_inf^delta(Y || Z).

Checked exactly on finite spaces: f a random stochastic matrix (with zeros, so
deterministic maps occur), both divergences by brute force over all sets.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _common as C
from ._divergence import exp_dmax


@statement(
    "Fact 2.2",
    "For any randomized function f: D_inf^delta(f(Y)||f(Z)) <= D_inf^delta(Y||Z).",
)
def fact(p: Proof) -> None:
    n = 0
    for _ in range(600 if p.full else 200):
        a, b = p.rng.randint(1, 4), p.rng.randint(1, 4)
        Y, Z = C.rand_dist(p.rng, a), C.rand_dist(p.rng, a)
        f = [C.rand_dist(p.rng, b) for _ in range(a)]
        if p.rng.random() < 0.3:  # a deterministic map
            f = [[F(int(j == p.rng.randrange(b))) for j in range(b)] for _ in range(a)]
            f = [row if sum(row) == 1 else [F(1)] + [F(0)] * (b - 1) for row in f]
        d = C.rand_delta(p.rng)
        fY, fZ = C.push(Y, f), C.push(Z, f)
        before, after = exp_dmax(Y, Z, d), exp_dmax(fY, fZ, d)
        n += 1
        if not p.require(after <= before, "post-processing does not increase D_inf^delta",
                         f"Y={Y} Z={Z} f={f} delta={d}: {after} > {before}"):
            return
    p.instances("exp D_inf^delta(f(Y)||f(Z)) <= exp D_inf^delta(Y||Z), f random stochastic (some deterministic), "
                "both maxima over all sets", n, "exhaustive")
