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
)
def theorem(p: Proof) -> None:
    n = n_h = 0
    for _ in range(30 if p.full else 6):
        k = p.rng.choice([2, 2, 3])
        ms = [G.pure_mech(p.rng, s) for s in G.shapes_for_k(p.rng, k)]
        homog = p.rng.random() < 0.4
        if homog:
            w = max(x[1] for x in ms)
            ms = [(m, w) for m, _ in ms]
        mechs, ws = [x[0] for x in ms], [x[1] for x in ms]
        for dg in (F(0), F(1, 100), F(1, 10), F(1, 3)):
            t = least_t_printed(ws, dg)
            if homog:
                n_h += 1
                if not p.require(least_t_homogeneous(ws[0], k, dg) == t, "special form = general form",
                                 f"e^eps={ws[0]} k={k} delta_g={dg}"):
                    return
            got = I.cc_delta(mechs, t)
            n += 1
            if not p.require(got <= dg, "ConComp is (eps_g, delta_g)-DP at the least printed eps_g",
                             f"{mechs} e^eps_i={ws} delta_g={dg}: e^eps_g={t}, true delta {got}"):
                return
    p.instances("pure-DP interactive mechanisms (k = 2, 3): ConComp's exact least delta at the least printed e^eps_g "
                "is <= delta_g (delta_g in {0, 1/100, 1/10, 1/3})", n)
    p.instances("homogeneous special form: same least e^eps_g as the general form", n_h)
