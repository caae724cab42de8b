"""Vadhan-Zhang Lemma 2.2 (joint quasi-convexity of Renyi divergence, van Erven-Harremoes).

Printed: for alpha > 1, pairs (P0, Q0), (P1, Q1), lam in (0, 1):
D_alpha((1-lam) P0 + lam P1 || (1-lam) Q0 + Q1) <= max{D_alpha(P0||Q0), D_inf(P1||Q1)}.

Two typos make the printed form weaker than intended (the missing lam on Q1, and D_inf where
D_alpha is meant); both forms are checked. Exact: S_alpha sums in Fractions (alpha = 2, 3, 10) and
exact radical sums with certified signs (alpha = 3/2, 101/100); D_alpha(mixture) <= max D_alpha <=>
S_alpha(mixture) <= max S_alpha. Large alpha (100) with --full.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _divergences as Dv
from . import _renyi as R
from . import _tradeoff as T


def _le_max(s, cands) -> bool:
    return any(R.cmp(s, c) <= 0 for c in cands)


@statement(
    "Lemma 2.2",
    "For alpha > 1, pairs (P0, Q0), (P1, Q1) and lam in (0, 1): D_alpha((1-lam) P0 + lam P1 || (1-lam) Q0 + [lam] Q1) "
    "<= max{D_alpha(P0||Q0), D_[alpha](P1||Q1)} (printed: Q1 without lam, D_inf in the second term).",
)
def lemma(p: Proof) -> None:
    n = 0
    orders = [2, 3, 10, F(3, 2), F(101, 100)] + ([100, F(201, 2)] if p.full else [])
    for _ in range(40 if p.full else 15):
        k = p.rng.randint(1, 4)
        a, b = T.rand_pairs(p.rng, k), T.rand_pairs(p.rng, k)
        for lam in (F(1, 3), F(1, 2)):
            for al in orders:
                n += 1
                m = Dv.mix(lam, a, b)
                if not p.require(_le_max(R.S(m, al), [R.S(a, al), R.S(b, al)]), "intended: max of the two D_alpha",
                                 f"P0Q0={a} P1Q1={b} lam={lam} alpha={al}"):
                    return
                r1 = Dv.max_ratio(b)
                printed_b = R.INF if r1 == R.INF else R.S([(F(1), 1 / r1)], al) if r1 > 0 else F(0)
                if not p.require(_le_max(R.S(Dv.mix_printed(lam, a, b), al), [R.S(a, al), printed_b]),
                                 "as printed (measure (1-lam)Q0 + Q1, D_inf(P1||Q1))",
                                 f"P0Q0={a} P1Q1={b} lam={lam} alpha={al}"):
                    return
    p.instances(f"random pairs on 1-4 outcomes (zero masses allowed), lam in {{1/3, 1/2}}, alpha in {orders}: the "
                "intended and the printed inequality", n, "exact")
    p.note("Typos (harmless): '(1 - lambda) Q_0 + Q_1' lacks lambda, and the second term of the max is printed "
           "D_inf(P_1||Q_1) where D_alpha(P_1||Q_1) is meant (the printed bound is weaker since D_alpha <= D_inf); "
           "both readings hold.")
