"""Vadhan-Zhang Lemma 2.1 (joint quasi-convexity of max-divergence, van Erven-Harremoes).

Printed: D_inf((1-lam) P0 + lam P1 || (1-lam) Q0 + Q1) <= max{D_inf(P0||Q0), D_inf(P1||Q1)},
with D_inf(P||Q) = sup_{T subset supp(P)} log(Pr(P(x) in T)/Pr(Q(x) in T)).

Checked exactly on random finite pairs: the sup over all subsets T of supp(P) equals the largest
pointwise ratio; the inequality with the intended second argument (1-lam) Q0 + lam Q1, and as printed
(the measure (1-lam) Q0 + Q1, which has more mass, so the printed inequality also holds).
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _divergences as Dv
from . import _tradeoff as T


@statement(
    "Lemma 2.1",
    "For pairs (P0, Q0), (P1, Q1) and lam in (0, 1): D_inf((1-lam) P0 + lam P1 || (1-lam) Q0 + [lam] Q1) <= "
    "max{D_inf(P0||Q0), D_inf(P1||Q1)}.",
)
def lemma(p: Proof) -> None:
    n = 0
    for _ in range(200 if p.full else 40):
        k = p.rng.randint(1, 5)
        a, b = T.rand_pairs(p.rng, k), T.rand_pairs(p.rng, k)
        if not p.require(Dv.sup_subsets_ratio(a) == Dv.max_ratio(a), "sup over subsets = largest ratio", str(a)):
            return
        for lam in (F(1, 10), F(1, 2), F(9, 10)):
            bound = max(Dv.max_ratio(a), Dv.max_ratio(b))
            n += 1
            if not p.require(Dv.sup_subsets_ratio(Dv.mix(lam, a, b)) <= bound, "intended inequality",
                             f"P0Q0={a} P1Q1={b} lam={lam}"):
                return
            if not p.require(Dv.sup_subsets_ratio(Dv.mix_printed(lam, a, b)) <= bound, "printed inequality",
                             f"P0Q0={a} P1Q1={b} lam={lam}"):
                return
    p.instances("random pairs on 1-5 outcomes, lam in {1/10, 1/2, 9/10}: D_inf of the mixture (by the sup over every "
                "subset) <= the larger D_inf, with (1-lam) Q0 + lam Q1 and as printed", n, "exhaustive")
    p.note("Typo (harmless): the printed second argument '(1 - lambda) Q_0 + Q_1' lacks the factor lambda (also in "
           "Lemma 2.2); as printed it is not a probability distribution, and the inequality still holds for it. "
           "'Pr(P(x) in T)' is to be read P(T).")
