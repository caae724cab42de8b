"""Vadhan-Wang Theorem 5.4 (Corollary 1 restated).

Printed: if M_0..M_{k-1} are each (eps_i, 0)-DP then, given delta_g, the privacy parameter of
ConComp(M_0..M_{k-1}) is at most the least eps_g >= 0 with
(1/prod(1+e^eps_i)) sum_S max(e^{sum_S eps_i} - e^eps_g e^{sum_notS eps_i}, 0) <= delta_g; and for all
(eps, 0): (1+e^eps)^-k sum_i C(k,i) max(e^{i eps} - e^eps_g e^{(k-i) eps}, 0) <= delta_g.

Checked: for random pure-DP interactive mechanisms and delta_g in {0, 1/100, 1/10, 1/3}, the least
e^eps_g solving the printed inequality (exact rational) is valid: ConComp's least delta there
(every interleaving adversary) is <= delta_g; in the homogeneous case (e^eps_i all equal, mechanisms
of possibly smaller eps) the special form gives the same least eps_g as the general one.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import FAILED, crosschecked, exp_exact
from .._framework import Proof, statement
from . import _dp as D
from . import _instances as G
from . import _interactive as I


def least_t_printed(ws, dg):
    return D.least_t(lambda t: D.thm13_lhs(ws, t), D.breakpoints(ws), dg)


def least_t_homogeneous(w, k, dg):
    return D.least_t(lambda t: D.thm13_lhs_homogeneous(w, k, t), D.breakpoints([w] * k), dg)


@statement(
    "Theorem 5.4",
    "If M_i are (eps_i, 0)-DP, then given delta_g the privacy parameter of ConComp(M_0..M_{k-1}) is at most the least "
    "eps_g >= 0 with (1/prod(1+e^eps_i)) sum_S max(e^{sum_S eps_i} - e^eps_g e^{sum_notS eps_i}, 0) <= delta_g; "
    "homogeneous: (1+e^eps)^-k sum_i C(k,i) max(e^{i eps} - e^eps_g e^{(k-i) eps}, 0) <= delta_g.",
    library=("exactdp.optcomp", "exactdp.interactive.concurrent", "exactdp.interactive.delta_of"),
)
def theorem(p: Proof) -> None:
    from exactdp import optcomp
    from exactdp.interactive import concurrent, delta_of

    from ._library import mechanisms, to_lib

    n = n_h = n_lib = 0
    for _ in range(30 if p.full else 6):
        k = p.rng.choice([2, 2, 3])
        ms = [G.pure_mech(p.rng, s) for s in G.shapes_for_k(p.rng, k)]
        homog = p.rng.random() < 0.4
        if homog:
            w = max(x[1] for x in ms)
            ms = [(m, w) for m, _ in ms]
        mechs, ws = [x[0] for x in ms], [x[1] for x in ms]
        cc = p.library("exactdp concurrent", lambda: concurrent(*[to_lib(m) for m in mechs]))
        for dg in (F(0), F(1, 100), F(1, 10), F(1, 3)):
            t = least_t_printed(ws, dg)
            if homog:
                n_h += 1
                if not p.require(least_t_homogeneous(ws[0], k, dg) == t, "special form = general form",
                                 f"e^eps={ws[0]} k={k} delta_g={dg}"):
                    return
            got = I.cc_delta(mechs, t)
            n += 1
            inst = f"{mechs} e^eps_i={ws} delta_g={dg}"
            if dg == F(1, 10) or (p.full and dg > 0):
                n_lib += p.agree(exp_exact(p.library("exactdp optcomp (exact)", optcomp, mechanisms(ws, [F(0)] * k), dg,
                                                     engine="exact")), t, "exactdp optcomp (e^eps_g)", inst)
            if cc is not FAILED and (p.full or dg in (F(0), F(1, 10))):
                n_lib += p.agree(p.library("exactdp delta_of(concurrent)", delta_of, cc, exp_eps=t), got,
                                 "exactdp delta_of(concurrent(...)) (ConComp's least delta)", f"{inst} e^eps_g={t}")
            if not p.require(got <= dg, "ConComp is (eps_g, delta_g)-DP at the least printed eps_g",
                             f"{mechs} e^eps_i={ws} delta_g={dg}: e^eps_g={t}, true delta {got}"):
                return
    p.instances("pure-DP interactive mechanisms (k = 2, 3): ConComp's exact least delta at the least printed e^eps_g "
                "is <= delta_g (delta_g in {0, 1/100, 1/10, 1/3})", n)
    p.instances("homogeneous special form: same least e^eps_g as the general form", n_h)
    crosschecked(p, "exactdp optcomp(delta_g) of the (e^eps_i, 0) gives the least printed e^eps_g (delta_g = 1/10; "
                 "every delta_g > 0 with --full), and delta_of(concurrent(M_0, ..., M_{k-1}), e^eps_g) ConComp's exact "
                 "least delta (the independent interleaving game; delta_g in {0, 1/10}, all with --full)", n_lib)
