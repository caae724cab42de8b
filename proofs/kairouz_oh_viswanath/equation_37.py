"""Kairouz-Oh-Viswanath Equation (37) (converse of Theorem 3.3, Section 6.2).

Printed (display lost; the sentence survives: "since X^{i,b} is independent of the past
conditioned on b, we have [(37)]"): transcribed as
P(X^{i,b} = x | b, X^{<i}, Y^{<i}) = P~_b(x), the law of the Section 6.1 mechanism.

Checked exactly on the coupled experiment of deterministic adversaries (k = 2; sampled
for k = 3): the conditional law of x_i given (b, x_<i, y_<i) computed from the joint law
is P~_b for every past.
"""

from __future__ import annotations

from .._framework import Proof, statement
from . import _common as C
from . import _coupling as K
from .equation_36 import coupled_cases


@statement(
    "Equation (37)",
    "P(X^{i,b} = x | b, X^{<i}, Y^{<i}) = P~_b(x): the dominating outputs are i.i.d. given b, independent of the "
    "past (display lost; transcribed from the text).",
)
def equation(p: Proof) -> None:
    n = 0
    for w, d, fam, Ts, adv, k in coupled_cases(p):
        J = K.joint(fam, Ts, adv, k, w, d)
        kv = C.kov(w, d)
        for i in range(k):
            for b in (0, 1):
                want = {(x,): kv[b][x] for x in range(4) if kv[b][x]}
                for g, dist in K.conditional(J[b], lambda h, i=i: (h[2 * i],), lambda h, i=i: h[:2 * i]).items():
                    n += 1
                    if not p.require(dist == want, "P(x_i | b, past) = P~_b",
                                     f"e^eps={w} delta={d} k={k} step {i + 1} b={b} past={g}: {dist}"):
                        return
    p.instances("the conditional law of X_i given (b, x_<i, y_<i) is the Section 6.1 mechanism's P~_b, every past",
                n, "exact")
