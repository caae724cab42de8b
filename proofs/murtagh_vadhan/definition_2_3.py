"""Murtagh-Vadhan Definition 2.3 (DP under k-fold adaptive composition).

Printed: eps_1..eps_k >= 0, delta_1..delta_k in [0,1) satisfy (eps_g, delta_g)-DP
under adaptive composition if for every adversary A, D_inf^{delta_g}(V^0 || V^1)
<= eps_g, V^b the view (y_1, ..., y_k and A's coins) in composition game b.

Checked: the game is simulated exactly (random adaptive adversaries whose round-i
mechanisms are (eps_i, delta_i)-DP); the views are distributions; a non-adaptive
adversary's view is the product distribution of the composition (M_1, ..., M_k)
of Section 1 (so the definition extends the non-adaptive one); and the
condition D_inf^{delta_g}(V^0||V^1) <= eps_g is the hockey-stick condition.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _common as C
from ._adaptive import random_adversary, views
from ._divergence import exp_dmax


@statement(
    "Definition 2.3",
    "The parameters satisfy (eps_g,delta_g)-DP under adaptive composition if for every adversary A, "
    "D_inf^{delta_g}(V^0||V^1) <= eps_g (V^b: A's view in composition game b).",
)
def definition(p: Proof) -> None:
    n_dist = n_prod = n_cond = 0
    for _ in range(40 if p.full else 15):
        k = p.rng.randint(1, 3)
        ws = [C.rand_w(p.rng) for _ in range(k)]
        ds = [C.rand_delta(p.rng) for _ in range(k)]
        adaptive = p.rng.random() < 0.6
        adv = random_adversary(p.rng, ws, ds, m=2, ncoins=p.rng.randint(1, 2) if adaptive else 1, adaptive=adaptive)
        V0, V1 = views(adv, k)
        n_dist += 1
        if not p.require(sum(V0.values()) == 1 == sum(V1.values()), "views are distributions", f"{ws} {ds}"):
            return
        if not adaptive:
            pairs = [adv.choose(i, 0, ()) for i in range(k)]
            P0, P1 = C.product_dist(pairs)
            P0 = {(0,) + x: v for x, v in P0.items() if v}
            P1 = {(0,) + x: v for x, v in P1.items() if v}
            n_prod += 1
            if not p.require({x: v for x, v in V0.items() if v} == P0 and {x: v for x, v in V1.items() if v} == P1,
                             "non-adaptive view = product distribution", f"{ws} {ds}"):
                return
        keys = sorted(set(V0) | set(V1))
        if len(keys) <= 12:
            Y = [V0.get(x, F(0)) for x in keys]
            Z = [V1.get(x, F(0)) for x in keys]
            for dg in (F(0), F(1, 10), F(1, 3)):
                R = exp_dmax(Y, Z, dg)
                for t in (F(1), F(2), F(5)):
                    n_cond += 1
                    if not p.require((R <= t) == (C.hs_pair(Y, Z, t) <= dg), "D_inf condition = hockey-stick condition",
                                     f"{ws} {ds} dg={dg} t={t}"):
                        return
    p.instances("exact views of random adversaries (adaptive and not) sum to 1", n_dist)
    p.instances("a non-adaptive adversary's view (coins, y_1..y_k) is the product distribution of (M_1, ..., M_k)", n_prod)
    p.instances("D_inf^{delta_g}(V^0||V^1) <= eps_g  <=>  sum_v max(V^0(v) - e^eps_g V^1(v), 0) <= delta_g", n_cond, "exhaustive")
