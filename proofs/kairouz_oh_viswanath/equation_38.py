"""Kairouz-Oh-Viswanath Equation (38) (converse of Theorem 3.3, Section 6.2).

Printed (display lost; the surrounding text: "where we used (36) in the first equality
and (37) in the second. By induction, we get a decomposition [(38)]"; "Since the set of
nodes (X^{1,b}, ..., X^{4,b}) d-separates node b from the rest of the Bayesian network,
it follows ... that (38) is true"): transcribed as
P(V^b = (y_1..y_k)) = sum_{x_1..x_k} prod_i P~_b(x_i) P(y_1..y_k | x_1..x_k) with the second
factor independent of b: the adversary's view is a post-processing of the k-fold
Section 6.1 mechanism, whence (Theorem 2.4) its region lies in the composed one.

Checked exactly: the view marginal of the coupled experiment equals the view of the
real adaptive composition (computed independently from the mechanisms' own laws), and
P(y | x) computed from the joint is the same under b = 0 and b = 1.
"""

from __future__ import annotations

from .._framework import Proof, statement
from . import _adaptive as AD
from . import _coupling as K
from .equation_36 import coupled_cases, same_law


@statement(
    "Equation (38)",
    "P(V^b = v) = sum_x prod_i P~_b(x_i) P(v | x), P(v | x) free of b: the view is a post-processing of the k-fold "
    "Section 6.1 mechanism (display lost; transcribed from the text).",
)
def equation(p: Proof) -> None:
    n = n_pp = 0
    for w, d, fam, Ts, adv, k in coupled_cases(p):
        J = K.joint(fam, Ts, adv, k, w, d)
        V = AD.views(fam, adv, k)
        for b in (0, 1):
            view = K.marginal(J[b], lambda h: h[1::2])
            n += 1
            if not p.require({v: q for v, q in view.items() if q} == {v: q for v, q in V[b].items() if q},
                             "coupled view = adaptive composition's view",
                             f"e^eps={w} delta={d} k={k} b={b} adversary={adv}"):
                return
        m = same_law(p, "P(y_1..y_k | x_1..x_k) free of b", J, target=lambda h: h[1::2], full_key=lambda h: h[0::2],
                     small_key=lambda g: g, label=f"e^eps={w} delta={d} k={k} adversary={adv}")
        if m < 0:
            return
        n_pp += m
    p.instances("the view of the coupled experiment equals the real adaptive view (b = 0, 1; every 3rd deterministic "
                "adversary for k = 2, sampled k = 3)", n, "exact")
    p.instances("P(view | x_1..x_k) is the same under b = 0 and b = 1", n_pp, "exact")
