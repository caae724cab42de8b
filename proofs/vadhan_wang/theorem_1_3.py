"""Vadhan-Wang Theorem 1.3 (Optimal Composition [18, 21]) and its homogeneous special case.

Printed: if M_0..M_{k-1} are each (eps_i, delta_i)-DP then, given any delta_g > 0,
Comp(M_0..M_{k-1}) is (eps_g, delta_g)-DP for the least eps_g >= 0 with

    (1/prod(1+e^eps_i)) sum_{S subset {0..k-1}} max(e^{sum_S eps_i} - e^eps_g e^{sum_notS eps_i}, 0)
        <= 1 - (1-delta_g)/prod(1-delta_i),

and when all are (eps, delta)-DP, (1+e^eps)^-k sum_i C(k,i) max(e^{i eps} - e^eps_g e^{(k-i) eps}, 0)
<= 1 - (1-delta_g)/(1-delta)^k.

Checked (exp-space, e^eps_i rational, so the least e^eps_g is an exact rational): (a) the bound,
on random finite mechanisms: the product distributions are (eps_g, delta_g)-DP at the least eps_g;
(b) it is attained: for the products of Definition 10's RR_(eps_i, delta_i) the least delta at
e^eps_g equals the formula solved for delta_g (so no smaller eps_g works for them); (c) the special
case equals the general formula with equal eps_i (all k <= 6, a grid of e^eps, e^eps_g).
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import FAILED, crosschecked, exp_exact
from .._framework import Proof, statement
from . import _dp as D


def formula_delta_g(ws, ds, t):
    """The printed inequality solved for delta_g at e^eps_g = t: 1 - prod(1-delta_i) (1 - LHS)."""
    return 1 - D.prod(1 - d for d in ds) * (1 - D.thm13_lhs(ws, t))


@statement(
    "Theorem 1.3",
    "If M_i is (eps_i, delta_i)-DP (i < k), then for any delta_g > 0 Comp(M_0..M_{k-1}) is (eps_g, delta_g)-DP for "
    "the least eps_g >= 0 with (1/prod(1+e^eps_i)) sum_S max(e^{sum_S eps_i} - e^eps_g e^{sum_notS eps_i}, 0) <= "
    "1 - (1-delta_g)/prod(1-delta_i); homogeneous case: (1+e^eps)^-k sum_i C(k,i) max(e^{i eps} - e^eps_g "
    "e^{(k-i) eps}, 0) <= 1 - (1-delta_g)/(1-delta)^k.",
    library=("exactdp.optcomp", "exactdp.composed_delta"),
)
def theorem(p: Proof) -> None:
    from exactdp import composed_delta, optcomp

    from ._library import mechanisms

    n_bound = n_tight = n_hom = n_lib = 0
    none = 0
    for _ in range(100 if p.full else 35):
        k = p.rng.randint(1, 4 if p.full else 3)
        ws = [p.rng.choice(D.W_CHOICES) for _ in range(k)]
        pairs = [D.rand_pair(p.rng, p.rng.randint(2, 3)) for _ in range(k)]
        ds = [D.dp_delta(P, Q, w) for (P, Q), w in zip(pairs, ws)]
        if any(d >= 1 for d in ds):
            continue
        P = D.product([a for a, _ in pairs])
        Q = D.product([b for _, b in pairs])
        for dg in (F(1, 100), F(1, 10), F(1, 3), F(3, 4)):
            t = D.thm13_least_t(ws, ds, dg)
            if p.full or n_bound % 3 == 0:
                p.agree(exp_exact(p.library("exactdp optcomp (exact)", optcomp, mechanisms(ws, ds), dg, engine="exact")),
                        t, "exactdp optcomp (e^eps_g)", f"e^eps_i={ws} delta_i={ds} delta_g={dg}")
                n_lib += 1
            if t is None:
                none += 1
                continue
            n_bound += 1
            if not p.require(D.dp_delta(P, Q, t) <= dg, "Comp is (eps_g, delta_g)-DP at the least eps_g",
                             f"e^eps_i={ws} pairs={pairs} delta_g={dg}: e^eps_g={t}, true delta {D.dp_delta(P, Q, t)}"):
                return
        # (b) RR products attain the formula
        rr = [D.rr(w, d) for w, d in zip(ws, ds)]
        R0 = D.product([a for a, _ in rr])
        R1 = D.product([b for _, b in rr])
        for t in sorted({F(1), max(ws) if ws else F(1), D.prod(ws), F(3, 2)}):
            n_tight += 1
            if not p.require(D.dp_delta(R0, R1, t) == formula_delta_g(ws, ds, t),
                             "delta of the RR_(eps_i,delta_i) product = formula solved for delta_g",
                             f"e^eps_i={ws} delta_i={ds} t={t}"):
                return
            if p.full or n_tight % 3 == 0:
                r = p.library("exactdp composed_delta (exact)", composed_delta, mechanisms(ws, ds), exp_eps_g=t,
                              engine="exact")
                p.agree(FAILED if r is FAILED else r.exact, formula_delta_g(ws, ds, t), "exactdp composed_delta",
                        f"e^eps_i={ws} delta_i={ds} t={t}")
                n_lib += 1
    for k in range(1, 7):
        for w in (F(1), F(3, 2), F(2), F(3)):
            for t in sorted({F(1), w, w ** 2, F(5, 2), w ** k}):
                n_hom += 1
                if not p.require(D.thm13_lhs_homogeneous(w, k, t) == D.thm13_lhs([w] * k, t),
                                 "special case = general formula with equal eps_i", f"k={k} e^eps={w} t={t}"):
                    return
    p.instances("the bound: random finite mechanisms (k <= 3, delta_i their exact deltas at rational e^eps_i), "
                "product distributions (eps_g, delta_g)-DP at the least eps_g (exact least e^eps_g)", n_bound)
    p.instances("attained: the product of RR_(eps_i, delta_i) (Definition 10) has exactly the formula's delta_g", n_tight)
    p.instances("the homogeneous special case equals the general formula (k <= 6)", n_hom, "exhaustive")
    crosschecked(p, "exactdp optcomp equals the least e^eps_g of the formula and composed_delta its delta_g (exact engine)",
                 n_lib)
    p.note(f"{none} (instance, delta_g) pairs had no eps_g at all (1 - (1-delta_g)/prod(1-delta_i) < 0, or the left side "
           "never gets that small): the statement is then vacuous.")
