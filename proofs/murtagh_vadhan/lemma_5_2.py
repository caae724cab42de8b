"""Murtagh-Vadhan Lemma 5.2 (deciding OptComp <= eps* on a lattice) and its set K.

Printed: if eps_i = a_i eps_0 (a_i non-negative integers), whether OptComp <= eps* can be
decided in time O((k/eps_0) sum eps_i): with
K = {T : sum_{notT} eps_i >= eps* + sum_T eps_i} = {T : sum_T eps_i <= (sum eps_i - eps*)/2}
  = {T : sum_T a_i <= B}, B = floor((sum eps_i - eps*)/(2 eps_0)),
the sum of Theorem 1.5 equals sum_{T in K} (e^{sum eps_i} prod_T e^{-eps_i} - e^{eps*} prod_T e^{eps_i}),
two Lemma 5.1 tables.

Checked exactly on lattice instances with e^{eps_0} rational. Library cross-checks:
exactdp optcomp (the exact OptComp) and exactdp's lemma52_decide (the decision, in its
exact exp-space form).
"""

from __future__ import annotations

from fractions import Fraction as F

import sympy as sp

from .._crosscheck import crosschecked
from .._framework import FAILED, Proof, statement
from . import _common as C
from ._approx import lemma52_B, lemma52_decide, lemma52_sum
from ._sym import identical

QS = (F(3, 2), F(2), F(5, 4), F(3))


def _instances(p: Proof, count: int):
    out = []
    for _ in range(count):
        k = p.rng.randint(1, 6)
        q = p.rng.choice(QS)
        a = [p.rng.randint(0, 4) for _ in range(k)]
        A = sum(a)
        e = p.rng.randint(0, 2 * A + 2)
        t = q ** e / 2 ** p.rng.randint(0, 1) if e else F(1)  # e^{eps*}, on and off the lattice
        t = max(t, F(1))
        out.append((q, a, t))
    return out


@statement(
    "Lemma 5.2",
    "If eps_i = a_i eps_0 (a_i non-negative integers, eps_0 > 0), whether OptComp((eps_i,delta_i), delta_g) <= eps* can "
    "be decided in time O((k/eps_0) sum eps_i).",
    library=('exactdp.optcomp', 'exactdp.approx.decision.lemma52_decide'),
)
def lemma(p: Proof) -> None:
    from exactdp import Mechanism, optcomp
    from exactdp.approx.decision import lemma52_decide as lib_decide

    n = n_lib = 0
    for q, a, t in _instances(p, 120 if p.full else 50):
        ds = [C.rand_delta(p.rng) for _ in a]
        P = C.prod(1 - d for d in ds)
        ws = [q ** ai for ai in a]
        for dg in (F(1, 10), F(1, 3), 1 - P + P / 5):
            if not (0 <= dg < 1):
                continue
            dec = lemma52_decide(q, a, ds, t, dg)
            topt = C.optcomp_t_formula(ws, ds, dg)
            truth = topt is not None and topt <= t
            n += 1
            if not p.require(dec == truth, "Lemma 5.2's decision = (OptComp <= eps*)",
                             f"q={q} a={a} t={t} ds={ds} dg={dg}: decision {dec}, OptComp <= eps* is {truth}"):
                return
            r = p.library("exactdp optcomp (exact)", optcomp, [Mechanism(exp_eps=w, delta=d) for w, d in zip(ws, ds)],
                          dg, engine="exact")
            p.agree(r if r is FAILED else (None if r.infinite else r.exp_exact), topt, "exactdp optcomp (exact)",
                    f"q={q} a={a} ds={ds} dg={dg}")
            p.agree(p.library("exactdp lemma52_decide", lib_decide, a, dg, exp_base=q, exp_star=t, deltas=ds), dec,
                    "exactdp lemma52_decide", f"q={q} a={a} t={t} ds={ds} dg={dg}")
            n_lib += 1
            B = lemma52_B(q, a, t)
            if not p.require(B <= sum(a) // 2, "B <= sum a_i / 2 (table size O(Bk) = O((k/eps_0) sum eps_i))",
                             f"q={q} a={a} t={t}"):
                return
    p.instances("the knapsack decision (two Lemma 5.1 tables, Theorem 1.5's inequality) agrees with OptComp <= eps* from "
                "an independent exact inverse of Theorem 1.5 (exactdp optcomp agrees); B <= sum a_i / 2", n)
    crosschecked(p, "exactdp lemma52_decide (exp-space form: e^{eps_0} = q, e^{eps*} = t) returns the independent "
                 "decision", n_lib)


@statement(
    "Lemma 5.2 (proof: the set K and the sum over K)",
    "K = {T : sum_notT eps_i >= eps* + sum_T eps_i} = {T : sum_T eps_i <= (sum eps_i - eps*)/2} = {T : sum_T a_i <= B}, "
    "B = floor((sum eps_i - eps*)/(2 eps_0)); and sum_S max(e^{sum_S eps_i} - e^{eps*} e^{sum_notS eps_i}, 0) = "
    "sum_{T in K} (e^{sum eps_i} prod_T e^{-eps_i} - e^{eps*} prod_T e^{eps_i}) (T = complement of S).",
)
def set_K(p: Proof) -> None:
    e_all, e_T, e_star = sp.symbols("E E_T e_star", real=True)
    # sum_notT = E - E_T; first <=> second: (E - E_T) - (e* + E_T) = 2 ((E - e*)/2 - E_T)
    p.symbolic("(E - E_T) - (eps* + E_T) = 2((E - eps*)/2 - E_T): the first two descriptions of K coincide",
               identical((e_all - e_T) - (e_star + e_T), 2 * ((e_all - e_star) / 2 - e_T)))
    n = n_sum = 0
    for q, a, t in _instances(p, 150 if p.full else 60):
        k = len(a)
        A = sum(a)
        B = lemma52_B(q, a, t)
        for mask in range(1 << k):
            aT = sum(a[i] for i in range(k) if mask >> i & 1)
            in1 = q ** (A - aT) >= t * q ** aT            # sum_notT eps >= eps* + sum_T eps
            in2 = q ** (2 * aT) * t <= q ** A             # sum_T eps <= (sum eps - eps*)/2
            in3 = aT <= B
            n += 1
            if not p.require(in1 == in2 == in3, "three descriptions of K agree", f"q={q} a={a} t={t} T={mask:b}"):
                return
        ws = [q ** ai for ai in a]
        n_sum += 1
        if not p.require(lemma52_sum(q, a, t) == C.S_brute(ws, t), "sum over S = sum over T in K",
                         f"q={q} a={a} t={t}"):
            return
    p.instances("membership of every T subset [k] in the three descriptions of K agrees (exact comparisons of "
                "powers of e^{eps_0}; eps* on and off the lattice, B < 0 included)", n, "exhaustive")
    p.instances("Theorem 1.5's sum over S equals the K-sum computed with two Lemma 5.1 tables (w_i = e^{-eps_i}, "
                "w_i = e^{eps_i})", n_sum)
    p.note("When eps* > sum eps_i, B < 0 and K is empty (Lemma 5.1 is stated for B >= 0; the sum is then 0).")
