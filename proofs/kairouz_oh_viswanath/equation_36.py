"""Kairouz-Oh-Viswanath Equation (36) (converse of Theorem 3.3, Section 6.2).

Printed (display lost; the sentence survives: "Since (X,Y)-Z-W implies X-(Y,Z)-W, we
have [(36)]"): transcribed as the Markov property of the coupled experiment: given the
dominating output X^{i,b} and the past view (y_1..y_{i-1}), the i-th output Y_i depends
neither on b nor on the earlier X's: P(y_i | b, x_1..x_i, y_<i) = P(y_i | x_i, y_<i).

Checked exactly on the coupled experiment (see ``_coupling``) of deterministic
adversaries (k = 2; sampled for k = 3): conditionals computed from the joint law.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _adaptive as AD
from . import _coupling as K

CASES = [(F(2), F(1, 10)), (F(3, 2), F(0))]


def coupled_cases(p: Proof):
    """(e^eps, delta, family, simulators, adversary, k) for the coupled-experiment checks."""
    for w, d in CASES:
        fam = AD.family(p.rng, w, d, extra=1, sizes=(3,))
        Ts = K.simulators(fam, w, d)
        advs = list(AD.deterministic_adversaries(fam, 2))[:: 1 if p.full else 3]
        for adv in advs:
            yield w, d, fam, Ts, adv, 2
        for _ in range(6 if p.full else 2):
            yield w, d, fam, Ts, AD.random_adversary(p.rng, fam, 3), 3


def same_law(p: Proof, what: str, J, target, full_key, small_key, label) -> int:
    """P(target | b, full_key) must depend on (b, full_key) only through small_key; returns #conditionals."""
    seen = {}
    n = 0
    for b in (0, 1):
        for g, dist in K.conditional(J[b], target, full_key).items():
            s = small_key(g)
            n += 1
            if s in seen and seen[s] != dist:
                p.require(False, what, f"{label}: given {g} (b = {b}) {dist}, but {seen[s]} elsewhere with {s}")
                return -1
            seen.setdefault(s, dist)
    return n


@statement(
    "Equation (36)",
    "P(Y_i = y | b, X^{1..i}, Y_<i) = P(Y_i = y | X^{i,b}, Y_<i): the i-th output depends on b only through the "
    "dominating output X^{i,b} (display lost; transcribed from the text).",
)
def equation(p: Proof) -> None:
    n = 0
    for w, d, fam, Ts, adv, k in coupled_cases(p):
        J = K.joint(fam, Ts, adv, k, w, d)
        for i in range(k):
            m = same_law(p, "P(y_i | b, x_1..x_i, y_<i) depends only on (x_i, y_<i)", J,
                         target=lambda h, i=i: h[2 * i + 1],
                         full_key=lambda h, i=i: h[:2 * i + 1],  # (x_1, y_1, ..., x_i)
                         small_key=lambda g, i=i: (g[2 * i],) + g[1:2 * i:2],  # (x_i, y_1..y_{i-1})
                         label=f"e^eps={w} delta={d} k={k} step {i + 1} adversary={adv}")
            if m < 0:
                return
            n += m
    p.instances("P(y_i | b, x_1..x_i, y_<i) is the same for b = 0, 1 and every x_<i (every 3rd deterministic "
                "adversary for k = 2, all with --full; sampled ones for k = 3)", n, "exact")
