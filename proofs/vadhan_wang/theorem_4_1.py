"""Vadhan-Wang Theorem 4.1 (Theorem 1.4 restated) and the steps of its proof (Section 4).

Printed: let sigma be any permutation of 0..n-1 [sic: of 0..k-1]; if interactive M_0..M_{k-1} are
each (eps_i, delta_i)-DP, ConComp(M_0..M_{k-1}) is (sum eps_i, delta_g)-DP with
delta_g = min_sigma (delta_sigma(0) + sum_{i>=1} e^{sum_{j<i} eps_sigma(j)} delta_sigma(i)); and
(sum eps_i, k e^{sum eps_i} max_i delta_i)-DP.

Checked exactly on random small interactive mechanisms as for Theorem 1.4 (every deterministic
interleaving adversary), with the minimum over all k! orders; the steps: the two-mechanism
derivation opening Section 4, each hybrid inequality (the combined adversary), and the
homogeneous case as group privacy.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import sympy as sp

from .._crosscheck import FAILED, crosschecked
from .._framework import Proof, statement
from . import _dp as D
from . import _instances as G
from . import _interactive as I


def printed_min_delta(ws, ds):
    k = len(ws)
    best = None
    for s in itertools.permutations(range(k)):
        v = ds[s[0]] + sum((D.prod(ws[s[j]] for j in range(i)) * ds[s[i]] for i in range(1, k)), F(0))
        best = v if best is None else min(best, v)
    return best


@statement(
    "Theorem 4.1",
    "For (eps_i, delta_i)-DP interactive M_i, ConComp(M_0..M_{k-1}) is (sum eps_i, delta_g)-DP, delta_g = min over "
    "permutations sigma of delta_sigma(0) + sum_{i>=1} e^{sum_{j<i} eps_sigma(j)} delta_sigma(i); and "
    "(sum eps_i, k e^{sum eps_i} max_i delta_i)-DP.",
    library=("exactdp.interactive.vw_delta", "exactdp.interactive.vw_best_order", "exactdp.interactive.vw_bound",
             "exactdp.interactive.compare_concurrent"),
)
def theorem(p: Proof) -> None:
    from exactdp.interactive import compare_concurrent, vw_best_order, vw_bound, vw_delta

    from ._library import mechanisms, to_lib

    n = n_lib = 0
    for _ in range(40 if p.full else 12):
        k = p.rng.choice([2, 2, 3])
        ms = [G.approx_mech(p.rng, s) for s in G.shapes_for_k(p.rng, k)]
        ws, ds = [x[1] for x in ms], [x[2] for x in ms]
        t = D.prod(ws)
        got = I.cc_delta([x[0] for x in ms], t)
        dmin = printed_min_delta(ws, ds)
        inst = f"e^eps_i={ws} delta_i={ds}"
        lms = mechanisms(ws, ds)
        orders = p.library("exactdp vw_delta (every order)",
                           lambda: min(vw_delta(lms, list(s)).exact for s in itertools.permutations(range(k))))
        p.agree(orders, dmin, "exactdp vw_delta (min over all orders)", inst)
        best = p.library("exactdp vw_best_order", vw_best_order, lms)
        p.agree(FAILED if best is FAILED else vw_delta(lms, best).exact, dmin, "exactdp vw_best_order (its delta)", inst)
        b = p.library("exactdp vw_bound", vw_bound, lms)
        p.agree(FAILED if b is FAILED else (b.best_order.exact, b.optimal), (dmin, 1 - D.prod(1 - d for d in ds)),
                "exactdp vw_bound (best order, optimal at sum eps_i)", inst)
        if p.full or n % 4 == 1:
            c = p.library("exactdp compare_concurrent", compare_concurrent, [to_lib(x[0]) for x in ms], ds, exp_eps_g=t)
            p.agree(FAILED if c is FAILED else c.concurrent, got, "exactdp compare_concurrent (concurrent delta)", inst)
        n_lib += 1
        n += 1
        if not p.require(got <= dmin <= k * t * max(ds), "true delta <= min_sigma delta_g <= k e^{sum eps} max delta",
                         f"{[x[0] for x in ms]} e^eps_i={ws} delta_i={ds}: true {got}, min {dmin}"):
            return
    p.instances("true least delta of ConComp at e^{sum eps_i} <= min over all k! orders of the printed sum "
                "<= k e^{sum eps_i} max delta_i (k = 2, 3)", n)
    # larger k: randomized responses RR_(eps_i, delta_i) (the worst case of each (eps_i, delta_i)), k = 4, 5
    # (--full 6), every interleaving adversary and all k! orders; RR_(0, delta) first attains the printed sum
    m = 0
    for k in (4, 5, 6) if p.full else (4, 5):
        for _ in range(4 if p.full else 2):
            ws = [p.rng.choice([F(1), F(2), F(3)]) for _ in range(k)]
            ds = [p.rng.choice([F(0), F(1, 1000), F(1, 10), F(1, 2)]) for _ in range(k)]
            if m == 0:
                ws[0], ds[0] = F(1), F(1, 10)
                ds[1:] = [F(0)] * (k - 1)
            got = I.cc_delta([I.noninteractive(*(D.rr(w, d) if d else D.rr_eps(w))) for w, d in zip(ws, ds)], D.prod(ws))
            dmin = printed_min_delta(ws, ds)
            m += 1
            if not p.require(got <= dmin <= k * D.prod(ws) * max(ds), "randomized responses, k = 4, 5: true delta <= "
                             "min_sigma delta_g <= k e^{sum eps} max delta", f"e^eps_i={ws} delta_i={ds}: true {got}, "
                             f"min {dmin}"):
                return
    p.instances("k = 4, 5 (--full 6) randomized responses RR_(eps_i, delta_i), every interleaving adversary and all k! "
                "orders (the first instance, RR_(0, 1/10) with pure ones, attains the printed minimum)", m)
    crosschecked(p, "exactdp vw_delta over all k! orders has the printed minimum; vw_best_order attains it; vw_bound's "
                 "best order and optimal delta (1 - prod(1 - delta_i), Vadhan-Zhang Theorem 1.3 at sum eps_i) agree; "
                 "compare_concurrent's exact concurrent delta equals the independent one (every 4th instance; all with --full)",
                 n_lib)
    p.note("Typos (harmless): 'sigma: {0..n-1} -> {0..n-1}' should read k; the proof's 'a similar argument as in the "
           "proof of Theorem 1.4' refers to Theorem 3.1 (Theorem 4.1 is Theorem 1.4 restated).")


@statement(
    "Theorem 4.1 (proof: two mechanisms, e^{2 eps} and (1 + e^eps) delta)",
    "For (eps, delta)-DP M, M~: Pr[View<A, ConComp(M(x), M~(x))> in S] <= e^eps Pr[View<A, ConComp(M(x'), M~(x))> in S] "
    "+ delta, the same from (M(x'), M~(x)) to (M(x'), M~(x')), hence <= e^{2 eps} Pr[View<A, ConComp(M(x'), M~(x'))> "
    "in S] + (1 + e^eps) delta.",
)
def two_mechanisms(p: Proof) -> None:
    n = 0
    for _ in range(12 if p.full else 5):
        w = p.rng.choice(D.W_CHOICES[1:])
        (m, _, d1), (mt, _, d2) = G.approx_mech(p.rng, None, w), G.approx_mech(p.rng, None, w)
        d = max(d1, d2)
        ms = [m, mt]
        for a, b in (((0, 0), (1, 1)), ((1, 1), (0, 0))):
            mid = (b[0], a[1])
            h1 = I.cc_hockey(ms, a, mid, w)
            h2 = I.cc_hockey(ms, mid, b, w)
            h = I.cc_hockey(ms, a, b, w * w)
            n += 1
            if not p.require(h1 <= d and h2 <= d and h <= (1 + w) * d, "each hybrid step <= delta; total <= (1+e^eps) delta",
                             f"{ms} e^eps={w} delta={d}: {h1}, {h2}, {h}"):
                return
    p.instances("both hybrid steps (combined adversary: the other mechanism simulated inside) need at most delta at "
                "e^eps, and the composition at most (1 + e^eps) delta at e^{2 eps} (every interleaving adversary)", n)


@statement(
    "Theorem 4.1 (proof: hybrid step i)",
    "For each i: Pr[View<A, ConComp(M_0(x'),..,M_{i-1}(x'), M_i(x),..,M_{k-1}(x))> in S] <= e^{eps_i} "
    "Pr[View<A, ConComp(M_0(x'),..,M_i(x'), M_{i+1}(x),..)> in S] + delta_i (A with the other mechanisms as one adversary).",
)
def hybrid(p: Proof) -> None:
    n = 0
    for _ in range(8 if p.full else 4):
        k = p.rng.choice([2, 3])
        ms = [G.approx_mech(p.rng, s) for s in G.shapes_for_k(p.rng, k)]
        mechs = [x[0] for x in ms]
        for i in range(k):
            Hi = tuple(1 if j < i else 0 for j in range(k))
            Hn = tuple(1 if j <= i else 0 for j in range(k))
            for a, b in ((Hi, Hn), (Hn, Hi)):
                got = I.cc_hockey(mechs, a, b, ms[i][1])
                n += 1
                if not p.require(got <= ms[i][2], "hybrid step i needs at most delta_i at e^eps_i",
                                 f"{mechs} i={i} worlds {a} vs {b}: {got} > {ms[i][2]}"):
                    return
    p.instances("H_i vs H_{i+1} (only M_i's input differs) over every interleaving adversary: least delta at e^eps_i "
                "<= delta_i, both directions", n)


@statement(
    "Theorem 4.1 (proof: homogeneous case is group privacy)",
    "With every (eps_i, delta_i) = (eps, delta): delta_0 + e^eps delta_1 + ... + e^{(k-2) eps} ... = sum_{i<k} e^{i eps} "
    "delta = (e^{k eps} - 1)/(e^eps - 1) delta, the group-privacy bound (Theorem 1.4's first form).",
)
def homogeneous(p: Proof) -> None:
    w, d = sp.symbols("w delta", positive=True)
    i, k = sp.symbols("i k", integer=True, positive=True)
    s = sp.summation(w ** i, (i, 0, k - 1))
    general = sp.simplify(s.args[1][0] if isinstance(s, sp.Piecewise) else s)
    ok = sp.simplify(general - (w ** k - 1) / (w - 1)) == 0
    small = all(sp.expand(sum(w ** j for j in range(kk)) * (w - 1) - (w ** kk - 1)) == 0 for kk in range(1, 8))
    p.verified("sum_{i=0}^{k-1} w^i = (w^k - 1)/(w - 1) for w != 1 (sympy, symbolic k; and k = 1..7 expanded); "
               "at w = 1 (eps = 0) the sum is k: the printed quotient is then 0/0", ok and small)
