"""Vadhan-Wang Theorem 5.2 (Theorem 1.5 restated) and the steps of its proof; the Section 6 experiment.

Printed proof: T is defined by its first-round distributions (Equations (6), (7)) and its
conditionals (Equations (8), (9)), with the joint T-vec in the denominator; "therefore" the joint
is Pr[T-vec(c, q) = a] = (e^eps Pr[M-vec(x_c, q) = a] - Pr[M-vec(x_{1-c}, q) = a])/(e^eps - 1); each is
a distribution (Equation (10)), non-negative by (eps, 0)-DP; and mixing T(0), T(1) with RR's
probabilities gives M(x_0)'s view.

Checked: T transcribed from Equations (6)-(9) as printed (``_sim.thm52_T``) on random pure-DP
mechanisms and on 'RR then public' mechanisms; see each step. Remarks (harmless): the case "t = 0"
of the proof is the first query q_0, i.e. t = 1 in its own notation (q^(t) = (q_0..q_{t-1}));
the non-negativity it cites, M-vec(x_0) <= e^eps M-vec(x_1), is the one T(1) needs (T(0) needs the
mirrored one, also implied by (eps, 0)-DP); (6)-(9) divide by e^eps - 1, so the proof needs eps > 0;
and (8)-(9) are 0/0 when the prefix has T-vec probability 0 (for instance after a round-1 answer
with likelihood ratio exactly e^eps); T may answer anything there, as that prefix never occurs.
"""

from __future__ import annotations

from fractions import Fraction as F

import sympy as sp

from .._crosscheck import FAILED, crosschecked, exp_exact
from .._framework import Proof, statement
from . import _dp as D
from . import _interactive as I
from . import _sim as S
from .theorem_1_5 import check_simulator, instances, library_simulator


@statement(
    "Theorem 5.2",
    "If M is an interactive (eps, 0)-DP mechanism, then for every adjacent x_0, x_1 there is an interactive "
    "mechanism T with View(A, M(x_b)) = View(A, T(RR_(eps,0)(b))) for every adversary A and b in {0, 1}.",
    library=("exactdp.interactive.rr_simulator", "exactdp.interactive.verify_simulation"),
)
def theorem(p: Proof) -> None:
    from exactdp.interactive import verify_simulation

    from ._library import to_lib

    n = n_lib = 0
    undefined = 0
    for m, w in instances(p):
        T, und = S.thm52_T(m, w)
        lm = p.library("exactdp InteractiveMechanism", to_lib, m)
        if lm is not FAILED:
            p.agree(p.library("exactdp verify_simulation", verify_simulation, lm, to_lib(T, labels=("0", "1")), w), True,
                    "exactdp verify_simulation (accepts the T of Equations (6)-(9))", f"{m} e^eps={w}")
            n_lib += library_simulator(p, m, w)
        undefined += und
        c = check_simulator(p, m, w, T, "T of Equations (6)-(9)")
        if not c:
            return
        n += c
    p.instances("T built from Equations (6)-(9) as printed (0/0 conditionals filled arbitrarily): valid interactive "
                "mechanism; for every deterministic adversary and b, View(A, T(RR(b))) = View(A, M(x_b))", n, "exhaustive")
    crosschecked(p, "exactdp verify_simulation accepts the T built here from Equations (6)-(9), and exactdp rr_simulator's "
                 "own T passes the independent view comparison", n_lib)
    p.note(f"{undefined} conditionals were 0/0 in (8)-(9) (prefix of T-vec probability 0, in the RR-then-public "
           "mechanisms): the printed proof leaves them undefined; any choice works.")


@statement(
    "Theorem 5.2 (proof: the joint distribution of T-vec)",
    "Pr[T-vec(0, q^(t)) = (a_0..a_{t-1})] = (e^eps Pr[M-vec(x_0, q^(t)) = a] - Pr[M-vec(x_1, q^(t)) = a])/(e^eps - 1), "
    "and symmetrically for T(1), as the product of the conditionals (6)-(9).",
)
def joint(p: Proof) -> None:
    n = 0
    for m, w in instances(p):
        T, _ = S.thm52_T(m, w)
        for h in m.full_histories():
            for r in range(1, m.rounds + 1):
                hh = h[:2 * r]
                for c, (xa, xb) in ((0, (0, 1)), (1, (1, 0))):
                    want = (w * m.path(xa, hh) - m.path(xb, hh)) / (w - 1)
                    n += 1
                    if not p.require(T.path(c, hh) == want, "product of the printed conditionals = printed joint",
                                     f"{m} e^eps={w} c={c} path={hh}"):
                        return
    p.instances("on every query/answer path of every round: product of the conditionals (6)-(9) = the printed joint "
                "formula, for c = 0, 1", n, "exhaustive")


@statement(
    "Theorem 5.2 (proof: mixing T(0), T(1) with RR's probabilities gives M(x_b))",
    "e^eps/(1+e^eps) Pr[T-vec(0,q) = a] + 1/(1+e^eps) Pr[T-vec(1,q) = a] = Pr[M-vec(x_0, q) = a] (and the mirror for b = 1), "
    "hence Pr[View(A, T(RR(0))) = (r, a)] = Pr[R = r] Pr[M-vec(x_0, q_r) = a] = Pr[View(A, M(x_0)) = (r, a)].",
)
def mixing(p: Proof) -> None:
    w, P0, P1 = sp.symbols("w P0 P1", positive=True)
    T0 = (w * P0 - P1) / (w - 1)
    T1 = (w * P1 - P0) / (w - 1)
    ok0 = sp.simplify(w / (1 + w) * T0 + 1 / (1 + w) * T1 - P0) == 0
    ok1 = sp.simplify(1 / (1 + w) * T0 + w / (1 + w) * T1 - P1) == 0
    p.verified("w/(1+w) (wP0 - P1)/(w-1) + 1/(1+w) (wP1 - P0)/(w-1) = P0 and 1/(1+w) (wP0-P1)/(w-1) + w/(1+w) "
               "(wP1-P0)/(w-1) = P1 identically (sympy, w = e^eps != 1)", ok0 and ok1)


@statement(
    "Theorem 5.2 (proof: Section 6 experiment, RR_(eps,delta) simulates 2-round 1-bit mechanisms)",
    "Section 6: for random 2-round mechanisms M_p with 1-bit messages (10 parameters), a chosen delta and "
    "eps = PrivLoss(M_p, delta) (all adversaries), the LP for an interactive post-processing T-vec of RR_(eps,delta) "
    "with Pr[M-vec(b, q) = (a_0, a_1)] = sum_c Pr[RR_(eps,delta)(b) = c] Pr[T-vec(c, q) = (a_0, a_1)], T-vec >= 0, "
    "normalised for every adversary, first answer independent of q_1, is feasible in every trial.",
    library=("exactdp.interactive.privacy_loss", "exactdp.interactive.find_simulator"),
)
def section6(p: Proof) -> None:
    from exactdp.interactive import find_simulator, privacy_loss

    from ._library import from_lib, to_lib

    n = feas = n_lib = 0
    skipped = 0
    unverified: list = []
    deltas = [F(0), F(1, 10 ** 9), F(1, 100), F(1, 20), F(1, 10), F(1, 4), F(1, 2), F(9, 10)]
    trials = 1000 if p.full else 25
    while n < trials:
        params = S.rand_section6_params(p.rng)
        m = S.section6_mech(params)
        d = p.rng.choice(deltas)
        t = I.single_privloss_t(m, d)
        if t is None:  # PrivLoss is infinite at this delta: no finite eps to test
            skipped += 1
            continue
        n += 1
        T, opt = S.section6_lp(m, t, d)
        if p.full or n % 5 == 1:
            inst = f"p={[D.frac(x) for x in params]} delta={d}"
            lm = to_lib(m)
            for method in ("dp", "enumerate"):
                p.agree(exp_exact(p.library(f"exactdp privacy_loss ({method})", privacy_loss, lm, d, method=method)), t,
                        f"exactdp privacy_loss ({method})", inst)
            r = p.library("exactdp find_simulator", find_simulator, lm, t, d)
            if r is not FAILED and r.status == "unverified":  # no claim made (the float LP failed its exact check)
                unverified.append(f"{inst} e^eps={t}")
            elif r is not FAILED and p.agree(r.status, "verified" if T is not None else "infeasible",
                                             "exactdp find_simulator (status)", f"{inst} e^eps={t}") and r.T is not None:
                Tl = from_lib(r.T, m)
                ok = all(S.nonzero(I.single_view(m, b, adv)) == S.view_through_rr(Tl, D.rr(t, d)[b], adv)
                         for adv in I.single_adversaries(m) for b in (0, 1))
                p.agree(ok, True, "exactdp find_simulator (its T simulates M: the independent view check)", inst)
            n_lib += 1
        if not p.require(T is not None, "the LP is feasible",
                         f"p={[D.frac(x) for x in params]} delta={d} e^eps={t}: phase-1 optimum {opt}"):
            return
        bad = S.section6_verify(m, t, d, T)
        if not p.require(bad is None, "the witness satisfies the printed constraints exactly",
                         f"p={[D.frac(x) for x in params]} delta={d} e^eps={t}: {bad}"):
            return
        Tm = S.section6_T_mech(T)
        for adv in I.single_adversaries(m):
            for b in (0, 1):
                if not p.require(S.nonzero(I.single_view(m, b, adv)) == S.view_through_rr(Tm, D.rr(t, d)[b], adv),
                                 "views with T(RR_(eps,delta)(b)) = views with M_p(b)",
                                 f"p={params} delta={d} b={b} A={adv}"):
                    return
        feas += 1
    p.instances(f"random M_p (parameters on a grid of twelfths, delta in {[D.frac(x) for x in deltas]}), "
                "eps = PrivLoss(M_p, delta) exact over all 4 adversaries and both directions; exact simplex finds "
                "T-vec, verified in rationals against every printed constraint and by the views of all 4 adversaries",
                feas)
    crosschecked(p, "exactdp on the same M_p (every 5th trial; all with --full): privacy_loss(delta) by its dynamic "
                 "programme and by enumeration equals the exact PrivLoss; find_simulator is 'verified' and its T passes "
                 "the independent view check for all 4 adversaries", n_lib)
    if unverified:
        p.note(f"Library issue open: exactdp find_simulator made no claim ('unverified': its float LP's answer failed "
               f"the exact check) on {len(unverified)} of the {n_lib} compared trials where the exact simplex finds "
               f"T-vec, first {unverified[0]}; 'unverified' is not compared (only the library's claims are).")
    p.note(f"The paper ran over 10,000 trials (sampling not stated); this is a seeded bounded version ({trials} trials; "
           f"--full: 1000); {skipped} draws with infinite PrivLoss at the chosen delta were redrawn. Figures 1-2 (the "
           "mechanism and its concurrent composition) were lost in conversion; M_p is transcribed from the text.")
