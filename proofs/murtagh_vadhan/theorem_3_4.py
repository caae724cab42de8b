"""Murtagh-Vadhan Theorem 3.4 (adaptive composition has the same optimum).

Printed: the parameters satisfy (eps_g, delta_g)-DP under adaptive composition
iff OptComp((eps_1,delta_1),...,(eps_k,delta_k), delta_g) <= eps_g.

Checked exactly: random adaptive adversaries (mechanism and databases chosen from
the coins and past outputs) never produce views whose hockey-stick divergence
exceeds Theorem 1.5's delta_g(eps_g) (the "if" direction, at every breakpoint);
the proof's simulator T^ (coins, then T_i^{r,y_<i} from Lemma 3.2 applied to
the M~ outputs) reproduces V^0 and V^1 exactly; and the non-adaptive M~
adversary attains delta_g(eps_g) (the "only if" direction).

Library cross-check: exactdp composed_delta equals the attained delta_g(eps_g),
optcomp the independent least e^eps_g, and certify's verdict on (eps_g, delta_g)
is the theorem's criterion OptComp(delta_g) <= eps_g.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import FAILED, crosschecked, exp_exact
from .._framework import Proof, statement
from . import _common as C
from ._adaptive import random_adversary, views


@statement(
    "Theorem 3.4",
    "The parameters satisfy (eps_g,delta_g)-DP under adaptive composition iff "
    "OptComp((eps_1,delta_1),...,(eps_k,delta_k),delta_g) <= eps_g.",
    library=("exactdp.composed_delta", "exactdp.optcomp", "exactdp.certify"),
)
def theorem(p: Proof) -> None:
    n_if = n_sim = n_only = n_lib = 0
    for _ in range(40 if p.full else 14):
        k = p.rng.randint(1, 3)
        ws = [C.rand_w(p.rng) for _ in range(k)]
        ds = [C.rand_delta(p.rng) for _ in range(k)]
        adv = random_adversary(p.rng, ws, ds, m=p.rng.randint(2, 3), ncoins=p.rng.randint(1, 2))
        V0, V1 = views(adv, k)
        ts = [t for t in C.formula_breakpoints(ws) if t >= 1] + [F(1), F(6, 5)]
        for t in ts:
            n_if += 1
            if not p.require(C.hockey(V0, V1, t) <= C.delta_formula(ws, ds, t),
                             "adaptive views are (eps_g, delta_g(eps_g))-DP with Theorem 1.5's delta_g",
                             f"ws={ws} ds={ds} t={t}"):
                return
        # the simulator T^ of the proof
        R0, R1 = C.product_dist([C.rr(w, d) for w, d in zip(ws, ds)])
        sims = []
        for R in (R0, R1):
            S: dict = {}
            for pr_r, r in adv.coins:
                for z, pz in R.items():
                    if not pz:
                        continue
                    frontier = [((r,), pr_r * pz)]
                    for i in range(k):
                        nxt = []
                        for h, pr in frontier:
                            p0, p1 = adv.choose(i, r, h[1:])
                            T = C.simulator(p0, p1, ws[i], ds[i])
                            for y, q in enumerate(T[z[i]]):
                                if q:
                                    nxt.append((h + (y,), pr * q))
                        frontier = nxt
                    for h, pr in frontier:
                        S[h] = S.get(h, F(0)) + pr
            sims.append(S)
        n_sim += 1
        clean = lambda D: {x: v for x, v in D.items() if v}
        if not p.require(clean(sims[0]) == clean(V0) and clean(sims[1]) == clean(V1), "T^(M~^k(b)) ~ V^b",
                         f"ws={ws} ds={ds}"):
            return
        for t in ts:
            n_only += 1
            if not p.require(C.hockey(R0, R1, t) == C.delta_formula(ws, ds, t), "the M~ adversary attains delta_g(eps_g)",
                             f"ws={ws} ds={ds} t={t}"):
                return
        n_lib += _library(p, ws, ds, ts)
    p.instances("random adaptive adversaries (k <= 3, coins, history-dependent (eps_i,delta_i)-DP choices): "
                "max_Q V^0(Q) - e^eps_g V^1(Q) <= delta_g(eps_g) of Theorem 1.5 at every breakpoint", n_if)
    p.instances("the proof's simulator: T^(M~_(eps_1,delta_1)(b),...,M~_(eps_k,delta_k)(b)) = V^b exactly", n_sim)
    p.instances("'only if': the non-adaptive M~ adversary attains delta_g(eps_g) exactly", n_only)
    crosschecked(p, "exactdp composed_delta equals the attained delta_g(eps_g), optcomp the independent least e^eps_g, "
                 "and certify(eps_g, delta_g) holds exactly when the independent OptComp(delta_g) <= eps_g", n_lib)


def _library(p: Proof, ws, ds, ts) -> int:
    from exactdp import Mechanism, certify, composed_delta, optcomp

    ms = [Mechanism(exp_eps=w, delta=d) for w, d in zip(ws, ds)]
    inst = f"ws={ws} ds={ds}"
    n = 0
    for t in ts[:2]:
        dg = C.delta_formula(ws, ds, t)
        r = p.library("exactdp composed_delta (exact)", composed_delta, ms, exp_eps_g=t, engine="exact")
        p.agree(FAILED if r is FAILED else r.exact, dg, "exactdp composed_delta (exact)", f"{inst} t={t}")
        topt = C.optcomp_t_formula(ws, ds, dg)
        p.agree(exp_exact(p.library("exactdp optcomp (exact)", optcomp, ms, dg, engine="exact")), topt,
                "exactdp optcomp (exact)", f"{inst} delta_g={dg}")
        for claim_t in sorted({t, max(F(1), t * F(9, 10))}):
            c = p.library("exactdp certify", certify, ms, claim_exp_eps=claim_t, claim_delta=dg)
            p.agree(FAILED if c is FAILED else c.holds, topt is not None and topt <= claim_t, "exactdp certify (holds)",
                    f"{inst} claim (e^eps_g, delta_g) = ({claim_t}, {dg})")
        n += 1
    return n
