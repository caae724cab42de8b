"""Vadhan-Zhang Lemma 5.4 (Renyi divergence is additive over independent pairs).

Printed: if U, V (and U', V') are independent, D_alpha((U, V)||(U', V')) = D_alpha(U||U') + D_alpha(V||V').

Verified symbolically for symbolic alpha (sympy: the double sum factors), and checked exactly on random
pairs (alpha in {2, 3, 3/2, 101/100}; S_alpha of the product = the product of the S_alpha).
"""

from __future__ import annotations

from fractions import Fraction as F

import sympy as sp

from .._crosscheck import FAILED, crosschecked
from .._framework import Proof, statement
from . import _renyi as R
from . import _tradeoff as T


@statement(
    "Lemma 5.4",
    "If U, V are independent and U', V' are independent, D_alpha((U, V)||(U', V')) = D_alpha(U||U') + D_alpha(V||V').",
    library=("exactdp.renyi.renyi_concurrent", "exactdp.renyi.rdp_randomized_response"),
)
def lemma(p: Proof) -> None:
    al = sp.symbols("alpha", positive=True)
    u, up = sp.symbols("u0:3", positive=True), sp.symbols("w0:3", positive=True)
    v, vp = sp.symbols("v0:2", positive=True), sp.symbols("z0:2", positive=True)
    lhs = sum((u[i] * v[j]) ** al / (up[i] * vp[j]) ** (al - 1) for i in range(3) for j in range(2))
    rhs = sum(u[i] ** al / up[i] ** (al - 1) for i in range(3)) * sum(v[j] ** al / vp[j] ** (al - 1) for j in range(2))
    ok = sp.simplify(sp.expand(sp.expand_power_base(lhs - rhs, force=True))) == 0
    p.verified("S_alpha(U x V || U' x V') = S_alpha(U||U') S_alpha(V||V') for symbolic alpha, so the divergences add",
               ok)
    from exactdp.renyi import rdp_randomized_response, renyi_concurrent

    from . import _games as G
    from ._library import renyi_agree, to_lib

    n = n_lib = 0
    for _ in range(30 if p.full else 10):
        U = T.rand_pairs(p.rng, p.rng.randint(1, 3), 6, False)
        V = T.rand_pairs(p.rng, p.rng.randint(1, 3), 6, False)
        for a in (2, 3, F(3, 2), F(101, 100)):
            n += 1
            if a in (2, F(3, 2)):
                got = p.library("exactdp renyi_concurrent", renyi_concurrent,
                                [to_lib(G.noninteractive(U)), to_lib(G.noninteractive(V))], a)
                if got is not FAILED:
                    n_lib += renyi_agree(p, got[0], R.S(T.product_pairs(U, V), a), a,
                                         "exactdp renyi_concurrent (two non-interactive mechanisms)", f"U={U} V={V} alpha={a}")
            if not p.require(R.cmp(R.S(T.product_pairs(U, V), a), R.mul(R.S(U, a), R.S(V, a))) == 0, "additivity",
                             f"U={U} V={V} alpha={a}"):
                return
    p.instances("random pairs, alpha in {2, 3, 3/2, 101/100}", n)
    for w in (F(2), F(3), F(1000)):
        rr = [pq for pq in T.rr_pair(w) if pq[0] or pq[1]]
        for k in (1, 2, 3):
            for a in (2, 3, F(3, 2)):
                n_lib += renyi_agree(p, p.library("exactdp rdp_randomized_response", rdp_randomized_response, a,
                                                  exp_eps=w, k=k),
                                     R.S(T.product_pairs(*[rr] * k), a), a, "exactdp rdp_randomized_response",
                                     f"e^eps={w} k={k} alpha={a}")
    crosschecked(p, "exactdp renyi_concurrent of two non-interactive mechanisms (U and V) equals the independent "
                 "S_alpha of the product pair (alpha in {2, 3/2}), and rdp_randomized_response(alpha, e^eps, k) the "
                 "independent S_alpha of the k-fold product of RR_eps (e^eps in {2, 3, 1000}, k <= 3)", n_lib)
