"""Vadhan-Zhang Equation (3): the chain rule of KL divergence,
KL((X, Y) || (X', Y')) = KL(X || X') + E_{x~X} KL(Y|X=x || Y'|X'=x).

Verified symbolically (sympy): for X on 2 points and Y on 2 and 3 points with symbolic positive
probabilities (the last of each conditional law is one minus the others), the difference of the two
sides expands to zero.
"""

from __future__ import annotations

from functools import lru_cache

import sympy as sp

from .._framework import Proof, statement


@lru_cache(maxsize=None)
def kl_chain_identity(ny: int) -> bool:
    x0, x0p = sp.symbols("p q", positive=True)
    X, Xp = [x0, 1 - x0], [x0p, 1 - x0p]
    Y, Yp = [], []
    for x in range(2):
        a = list(sp.symbols(f"a{x}_0:{ny - 1}", positive=True))
        b = list(sp.symbols(f"b{x}_0:{ny - 1}", positive=True))
        Y.append(a + [1 - sum(a)])
        Yp.append(b + [1 - sum(b)])
    lhs = sum(X[x] * Y[x][y] * sp.log(X[x] * Y[x][y] / (Xp[x] * Yp[x][y])) for x in range(2) for y in range(ny))
    rhs = sum(X[x] * sp.log(X[x] / Xp[x]) for x in range(2)) + sum(
        X[x] * sum(Y[x][y] * sp.log(Y[x][y] / Yp[x][y]) for y in range(ny)) for x in range(2))
    d = sp.expand(sp.expand_log(lhs - rhs, force=True))
    return sp.simplify(d) == 0


@statement(
    "Equation (3)",
    "KL((X, Y) || (X', Y')) = KL(X || X') + E_{x~X} KL(Y|X=x || Y'|X'=x).",
)
def equation(p: Proof) -> None:
    p.verified("KL chain rule as an identity in the symbolic probabilities (X on 2 points, Y on 2 and 3 points)",
               kl_chain_identity(2) and kl_chain_identity(3))
