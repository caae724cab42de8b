"""Murtagh-Vadhan Theorem 1.2 (basic composition, Dwork et al.).

Printed: for every eps >= 0, delta in [0,1] and (eps,delta)-DP M_1..M_k, the
composition is (k eps, k delta)-DP.

Checked exactly through Theorem 1.5 (whose formula is checked against the
product distribution there) and, for small k, directly on the product
distribution of Definition 3.1's M~ (which dominates every (eps,delta)-DP
mechanism by Lemma 3.3): delta_g(k eps) <= k delta. Symbolic sub-lemma: at
e^eps_g = W = prod e^eps_i every term W_S - W W_notS = W_S (1 - W_notS^2) is <= 0,
so delta_g(sum eps_i) = 1 - prod(1 - delta_i) <= sum delta_i (Bernoulli/union bound).
Library cross-check: exactdp's basic_bound gives eps_g = sum eps_i exactly when
delta_g >= sum delta_i (its enclosure contains k ln e^eps), and refuses below.
"""

from __future__ import annotations

from fractions import Fraction as F

import sympy as sp

from .._crosscheck import contains_log, crosschecked
from .._framework import FAILED, Proof, statement
from . import _common as C
from ._sym import identical


@statement(
    "Theorem 1.2",
    "For eps >= 0, delta in [0,1] and (eps,delta)-DP M_1..M_k, the composition (M_1..M_k) is (k eps, k delta)-DP.",
    library=("exactdp.bounds.basic_bound",),
)
def theorem(p: Proof) -> None:
    WS, WnS = sp.symbols("W_S W_notS", positive=True)
    p.symbolic("W_S - W * W_notS = W_S (1 - W_notS^2) with W = W_S W_notS, W_notS >= 1: every term of S(W) is <= 0",
               identical(WS - (WS * WnS) * WnS, WS * (1 - WnS ** 2)))
    n = 0
    for k in range(1, 9 if p.full else 7):
        for w in (F(1), F(3, 2), F(2), F(3)):
            for d in (F(0), F(1, 100), F(1, 10), F(1, 3), F(9, 10)):
                ws, ds = [w] * k, [d] * k
                t = w ** k
                v = C.delta_formula(ws, ds, t)
                n += 1
                if not p.require(v <= k * d and v == 1 - (1 - d) ** k, "delta_g(k eps) <= k delta",
                                 f"k={k} e^eps={w} delta={d}: {v}"):
                    return
                if k <= 3:
                    P0, P1 = C.product_dist([C.rr(w, d)] * k)
                    n += 1
                    if not p.require(C.hockey(P0, P1, t) <= k * d, "product distribution", f"k={k} e^eps={w} delta={d}"):
                        return
    for _ in range(60 if p.full else 20):  # heterogeneous: (sum eps_i, sum delta_i)
        k = p.rng.randint(1, 6)
        ws = [C.rand_w(p.rng) for _ in range(k)]
        ds = [C.rand_delta(p.rng) / k for _ in range(k)]
        n += 1
        if not p.require(C.delta_formula(ws, ds, C.prod(ws)) <= sum(ds), "heterogeneous (sum eps_i, sum delta_i)",
                         f"ws={ws} ds={ds}"):
            return
    p.instances("delta_g at e^eps_g = e^{k eps} is exactly 1 - (1-delta)^k <= k delta (k <= 6; product distribution for "
                "k <= 3); heterogeneous form (sum eps_i, sum delta_i) on random instances", n)
    crosschecked(p, "exactdp basic_bound at delta_g = k delta is eps_g = k eps (exact for rational eps, an enclosure "
                 "containing k ln e^eps otherwise) and does not apply below k delta", _library(p))


def _library(p: Proof) -> int:
    """exactdp basic_bound against (k eps, k delta): exp-space eps (enclosure of k ln w) and rational eps (exact)."""
    from exactdp import Mechanism
    from exactdp.bounds import basic_bound

    cases = [([Mechanism(exp_eps=w, delta=d)] * k, w ** k, k * d, True)
             for k in (1, 3, 6) for w in (F(3, 2), F(3)) for d in (F(0), F(1, 10))]
    cases += [([Mechanism(eps=e, delta=d)] * k, k * e, k * d, False)
              for k, e, d in ((1, F(1, 10), F(1, 100)), (4, F(1, 2), F(0)), (7, F(2), F(1, 20)))]
    n = 0
    for ms, value, dg, exp_space in cases:
        inst = f"{len(ms)} x {ms[0]}, delta_g = {dg}"
        b = p.library("exactdp basic_bound", basic_bound, ms, dg)
        if b is FAILED:
            continue
        n += 1
        if not b.applies:
            p.issue(f"exactdp basic_bound does not apply at delta_g = k delta on {inst}: {b.reason}")
            continue
        if exp_space:
            contains_log(p, b.value, value, "exactdp basic_bound", inst)
        else:
            p.agree(b.value.exact, value, "exactdp basic_bound (exact)", inst)
        if dg > 0:
            below = p.library("exactdp basic_bound", basic_bound, ms, dg * F(999, 1000))
            if below is not FAILED and below.applies:
                p.issue(f"exactdp basic_bound applies below delta_g = sum delta_i on {inst}")
    return n
