"""Vadhan-Wang Lemma 5 (PrivLoss of ConComp of pure-DP mechanisms vs. composed randomized response).

Printed: suppose interactive M_0..M_{k-1}, each M_i (eps_i, 0)-DP. For any eps_0..eps_{k-1} >= 0,
delta_g in [0, 1): PrivLoss(ConComp(M_0..M_{k-1}), delta_g) = PrivLoss(Comp(RR_(eps_0,0)..RR_(eps_{k-1},0)), delta_g).

Refuted as printed: the equality is claimed for every tuple of (eps_i, 0)-DP mechanisms, but a
mechanism that ignores its input is (eps, 0)-DP for every eps and has privacy loss 0. The proof's
first direction ("since RR_(eps_i,0) can be viewed as a special case of interactive DP mechanisms,
inf{ConComp(M_i) ...} >= inf{Comp(RR) ...}") only shows that the supremum over mechanisms is at least
the RR value. Correction: PrivLoss(ConComp(M_0..M_{k-1}), delta_g) <= PrivLoss(Comp(RR_(eps_i,0)), delta_g),
with equality when every M_i is RR_(eps_i,0); equivalently the supremum over all (eps_i, 0)-DP
interactive M_i of the left side equals the right side. (Theorem 5.4 / Corollary 1 use only "<=".)
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

from .._framework import Proof, statement
from . import _dp as D
from . import _instances as G
from . import _interactive as I
from . import _sim as S

DELTA_GS = (F(0), F(1, 100), F(1, 10), F(1, 3))


def rr_product(ws):
    pairs = [D.rr_eps(w) for w in ws]
    return D.product([a for a, _ in pairs]), D.product([b for _, b in pairs])


def rr_privloss_t(ws, dg):
    """e^{PrivLoss(Comp(RR_(eps_i,0)), delta_g)} from the product distribution of Definition 5's RR (exact)."""
    P, Q = rr_product(ws)
    return D.hockey_least_t(P, Q, dg)


def constant_mech() -> I.Mech:
    """One round, one query, one answer: the output ignores the input."""
    return I.Mech([(None,)], ("y",), {0: {(None,): {"y": F(1)}}, 1: {(None,): {"y": F(1)}}}, "Const")


def counterexample(p: Proof, what: str) -> None:
    m = constant_mech()
    w, dg = F(2), F(0)
    lhs = I.single_privloss_t(m, dg)
    rhs = rr_privloss_t([w], dg)
    lhs2, rhs2 = I.single_privloss_t(m, F(1, 10)), rr_privloss_t([w], F(1, 10))
    if I.pure_w(m) == 1 and lhs != rhs:
        p.refute(what, f"k = 1, M_0 the constant mechanism (one answer, whatever the input; (eps_0, 0)-DP for every "
                       f"eps_0), eps_0 = ln 2, delta_g = 0: PrivLoss(ConComp(M_0), 0) = ln {D.frac(lhs)} = 0 but "
                       f"PrivLoss(Comp(RR_(ln 2, 0)), 0) = ln {D.frac(rhs)}; at delta_g = 1/10: ln {D.frac(lhs2)} vs "
                       f"ln {D.frac(rhs2)}.")


def check_le(q: Proof) -> None:
    """PrivLoss(ConComp(M_i), delta_g) <= PrivLoss(Comp(RR_(eps_i,0)), delta_g) on random pure mechanisms."""
    n = 0
    for _ in range(30 if q.full else 8):
        k = q.rng.choice([1, 2, 2, 3])
        ms = [G.pure_mech(q.rng, s) for s in G.shapes_for_k(q.rng, k)]
        if q.rng.random() < 0.3:
            ms[0] = (G.rr_then_public(q.rng, F(2)), F(2))
        mechs, ws = [x[0] for x in ms], [x[1] for x in ms]
        for dg in DELTA_GS:
            t = rr_privloss_t(ws, dg)
            n += 1
            if not q.require(I.cc_delta(mechs, t) <= dg, "PrivLoss(ConComp(M_i)) <= PrivLoss(Comp(RR))",
                             f"{mechs} e^eps_i={ws} delta_g={dg} e^eps_g={t}"):
                return
    q.instances("random pure-DP interactive mechanisms (k <= 3): ConComp is (ln t, delta_g)-DP at "
                "t = e^{PrivLoss(Comp(RR_(eps_i,0)), delta_g)} (RR product of Definition 5; every interleaving "
                "adversary), delta_g in {0, 1/100, 1/10, 1/3}", n)


def check_eq_rr(q: Proof) -> None:
    """Equality when M_i = RR_(eps_i, 0) (as one-round interactive mechanisms)."""
    n = 0
    for ws in ([F(2)], [F(3, 2), F(2)], [F(2), F(2)], [F(5, 4), F(3), F(3, 2)], [F(4), F(4, 3)]):
        mechs = [I.noninteractive(*D.rr_eps(w)) for w in ws]
        P, Q = rr_product(ws)
        bps = D.breakpoints(ws)
        for t in sorted({F(1)} | {b for b in bps if b >= 1} | {(a + b) / 2 for a, b in zip(bps, bps[1:]) if a >= 1}):
            n += 1
            if not q.require(I.cc_delta(mechs, t) == D.dp_delta(P, Q, t), "ConComp(RR_i) has the delta curve of Comp(RR_i)",
                             f"e^eps_i={ws} t={t}"):
                return
        for dg in DELTA_GS:
            t = rr_privloss_t(ws, dg)
            if t > 1:
                n += 1
                if not q.require(I.cc_delta(mechs, t) <= dg < I.cc_delta(mechs, t - F(1, 10 ** 6)),
                                 "same least e^eps_g", f"e^eps_i={ws} delta_g={dg}"):
                    return
    q.instances("M_i = RR_(eps_i,0): ConComp's least delta equals the product's at every breakpoint and midpoint (both "
                "piecewise linear), so the PrivLoss values are equal", n, "exhaustive")


@statement(
    "Lemma 5",
    "If interactive M_0..M_{k-1} are (eps_i, 0)-DP, then for any eps_i >= 0, delta_g in [0, 1): "
    "PrivLoss(ConComp(M_0..M_{k-1}), delta_g) = PrivLoss(Comp(RR_(eps_0,0)..RR_(eps_{k-1},0)), delta_g).",
)
def lemma(p: Proof) -> None:
    counterexample(p, "the equality for every tuple of (eps_i, 0)-DP mechanisms")

    def corr(q: Proof) -> None:
        check_le(q)
        check_eq_rr(q)

    p.correct(
        "PrivLoss(ConComp(M_0..M_{k-1}), delta_g) <= PrivLoss(Comp(RR_(eps_0,0)..RR_(eps_{k-1},0)), delta_g) for "
        "(eps_i, 0)-DP interactive M_i, with equality when every M_i = RR_(eps_i,0); i.e. the supremum of the left side "
        "over all such M_i equals the right side.",
        corr,
    )


@statement(
    "Lemma 5 (proof: RR_(eps_i,0) is a special case, so the ConComp infimum is >= the Comp(RR) one)",
    "Since RR_(eps_0,0)..RR_(eps_{k-1},0) are a special case of interactive DP mechanisms, inf{eps_g : ConComp(M_0..M_{k-1}) "
    "is (eps_g, delta_g)-DP} >= inf{eps_g : Comp(RR_(eps_0,0)..RR_(eps_{k-1},0)) is (eps_g, delta_g)-DP}.",
)
def special_case(p: Proof) -> None:
    counterexample(p, "inf for ConComp(M_i) >= inf for Comp(RR) for the given M_i")
    p.correct(
        "The special case gives the inequality for M_i = RR_(eps_i,0) (with equality), hence for the supremum over all "
        "(eps_i, 0)-DP M_i: sup_M PrivLoss(ConComp(M_0..M_{k-1}), delta_g) >= PrivLoss(Comp(RR_(eps_i,0)), delta_g).",
        check_eq_rr,
    )


@statement(
    "Lemma 5 (proof: ConComp(T_0(RR), ..., T_{k-1}(RR)) is a post-processing of Comp(RR))",
    "With T_i from Theorem 1.5, View<A, ConComp(M_0(x_b)..M_{k-1}(x_b))> = View<A, ConComp(T_0(RR_(eps_0,0)(b)).."
    "T_{k-1}(RR_(eps_{k-1},0)(b)))>, a randomized function of Comp(RR_(eps_i,0))(b), so it is (eps*_g, delta_g)-DP "
    "whenever Comp(RR) is.",
)
def post_processing(p: Proof) -> None:
    n = 0
    for _ in range(8 if p.full else 4):
        k = p.rng.choice([2, 2, 3])
        ms = [G.pure_mech(p.rng, s) for s in G.shapes_for_k(p.rng, k)]
        mechs, ws = [x[0] for x in ms], [x[1] for x in ms]
        Ts = [S.solve_T(m, w) for m, w in ms]
        rrs = [D.rr_eps(w) for w in ws]
        for _ in range(3):
            adv = I.random_cc_adversary(p.rng, mechs)
            views = []
            for b in (0, 1):
                direct = I.cc_view(mechs, (b,) * k, adv)
                via: dict = {}
                for cs in itertools.product((0, 1), repeat=k):
                    pc = D.prod(rrs[i][b][cs[i]] for i in range(k))
                    for v, pv in I.cc_view(Ts, cs, adv).items():
                        via[v] = via.get(v, F(0)) + pc * pv
                n += 1
                if not p.require(S.nonzero(direct) == S.nonzero(via),
                                 "View<A, ConComp(M_i(x_b))> = sum_c Pr[Comp(RR)(b) = c] View<A, ConComp(T_i(c_i))>",
                                 f"{mechs} b={b}"):
                    return
                views.append(direct)
            P, Q = D.product([r[0] for r in rrs]), D.product([r[1] for r in rrs])
            for t in (F(1), (1 + D.prod(ws)) / 2, D.prod(ws)):
                n += 1
                if not p.require(D.dp_delta(views[0], views[1], t) <= D.dp_delta(P, Q, t),
                                 "the post-processed view needs no more delta than Comp(RR)", f"{mechs} t={t}"):
                    return
    p.instances("random pure mechanisms with T_i from Theorem 1.5, random interleaving adversaries: the view with "
                "ConComp(M_i(x_b)) is exactly the RR-vector mixture of the views with ConComp(T_i(c_i)), and its delta "
                "at e^eps_g is at most Comp(RR)'s", n)
    p.note("Typo (harmless): the proof writes T_i(RR_(eps,0)(b)) for T_i(RR_(eps_i,0)(b)).")
