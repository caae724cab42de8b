"""Murtagh-Vadhan Lemma 3.3 (OptComp is attained by randomized response).

Printed: OptComp((eps_1,delta_1),...,(eps_k,delta_k), delta_g)
= OptComp(M~_(eps_1,delta_1), ..., M~_(eps_k,delta_k), delta_g).

Checked: (>=) each M~ is (eps_i, delta_i)-DP (Definition 3.1, verified there);
(<=) for random (eps_i,delta_i)-DP mechanisms M_i on small output spaces, the
composition's hockey-stick curve never exceeds that of the M~ composition (at
every breakpoint and between), so OptComp(M_1..M_k, delta_g) <= OptComp(M~.., delta_g)
for every delta_g; and the proof's simulation is verified exactly: the product
of the Lemma 3.2 maps T_i sends M~^k(b) to (M_1(D_b), ..., M_k(D_b)).
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _common as C


@statement(
    "Lemma 3.3",
    "OptComp((eps_1,delta_1),...,(eps_k,delta_k),delta_g) = OptComp(M~_(eps_1,delta_1),...,M~_(eps_k,delta_k),delta_g).",
)
def lemma(p: Proof) -> None:
    n_curve = n_sim = 0
    for _ in range(60 if p.full else 20):
        k = p.rng.randint(1, 3)
        ws = [C.rand_w(p.rng) for _ in range(k)]
        mechs = []
        ds = []
        for i in range(k):
            p0, p1, dmin = C.rand_dp_mechanism(p.rng, p.rng.randint(1, 3), ws[i])
            d = dmin if p.rng.random() < 0.6 else dmin + (1 - dmin) / 3
            mechs.append((p0, p1))
            ds.append(d)
        M0, M1 = C.product_dist(mechs)
        R0, R1 = C.product_dist([C.rr(w, d) for w, d in zip(ws, ds)])
        ts = sorted(set(C.likelihood_breakpoints(M0, M1)) | set(C.likelihood_breakpoints(R0, R1)) | {F(1)})
        ts = [t for t in ts if t >= 1]
        for a, b in zip(ts, ts[1:] + [ts[-1] + 1]):
            for t in (a, (a + b) / 2):
                n_curve += 1
                if not p.require(C.hockey(M0, M1, t) <= C.hockey(R0, R1, t), "hockey(M) <= hockey(M~) at every e^eps_g",
                                 f"mechs={mechs} ws={ws} ds={ds} t={t}"):
                    return
        # the simulation in the proof: T_1 x ... x T_k applied coordinatewise
        Ts = [C.simulator(m[0], m[1], w, d) for m, w, d in zip(mechs, ws, ds)]
        sim0: dict = {}
        sim1: dict = {}
        for x in R0:
            for y in M0:
                pr = C.prod(Ts[i][x[i]][y[i]] for i in range(k))
                sim0[y] = sim0.get(y, F(0)) + R0[x] * pr
                sim1[y] = sim1.get(y, F(0)) + R1[x] * pr
        n_sim += 1
        if not p.require(sim0 == M0 and sim1 == M1, "(T_1,...,T_k)(M~^k(b)) = (M_1(D_b),...,M_k(D_b))", f"{mechs} {ws} {ds}"):
            return
    p.instances("random (eps_i,delta_i)-DP M_1..M_k (k <= 3): max_Q M^k_0(Q) - t M^k_1(Q) <= the same for M~^k at all "
                "breakpoints t >= 1 and midpoints (so OptComp(M..) <= OptComp(M~..) for every delta_g)", n_curve)
    p.instances("the proof's simulation: the product of Lemma 3.2's T_i maps M~^k(b) exactly onto M^k(b)", n_sim)
    p.note("Direction >= holds because each M~_(eps_i,delta_i) is (eps_i,delta_i)-DP (Definition 3.1, verified).")
