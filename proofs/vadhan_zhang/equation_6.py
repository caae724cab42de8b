"""Vadhan-Zhang Equation (6) (its tag was lost in the conversion; the text cites "inequality (6)"): the
inequality in the convexity chain of Lemma 2.4's proof, justified by mixing: for (F_a, A_a) admissible
at a and (F_b, A_b) admissible at b, "A(F) = lam A_a(F_a) + (1 - lam) A_b(F_b)" is admissible at
lam a + (1 - lam) b.

Read as the mixture (F = F_a with probability lam, else F_b; A = A_a or A_b accordingly): checked exactly
for finite S with the optimal pairs of formula (4) at a and b (each a law on at most two
(function, point) pairs): the mixture is admissible and its value is lam h(a) + (1 - lam) h(b).
The printed formula, read literally as a convex combination of the two values A_a(F_a), A_b(F_b), is
not a function of a single F; the mixture is what the proof needs (harmless).
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _sup as Su
from . import _tradeoff as T


def optimal_pair(S, alpha):
    """A law on (function index, point) pairs attaining formula (4) at alpha (exact)."""
    alpha = F(alpha)
    pts = [(x, y, i) for i, f in enumerate(S) for x, y in f]
    best = None
    for x1, y1, i1 in pts:
        if x1 > alpha:
            continue
        cand = (y1, [(F(1), i1, x1)])
        if best is None or cand[0] < best[0]:
            best = cand
        for x2, y2, i2 in pts:
            if x2 <= alpha:
                continue
            lam = (x2 - alpha) / (x2 - x1)
            v = lam * y1 + (1 - lam) * y2
            if v < best[0]:
                best = (v, [(lam, i1, x1), (1 - lam, i2, x2)])
    return best


@statement(
    "Equation (6)",
    "h(lam a + (1 - lam) b) <= lam inf{E[F(A(F))] : E[A(F)] <= a} + (1 - lam) inf{E[F(A(F))] : E[A(F)] <= b}, "
    "because mixing admissible (F_a, A_a) and (F_b, A_b) is admissible at lam a + (1 - lam) b.",
)
def equation(p: Proof) -> None:
    n = 0
    for _ in range(40 if p.full else 15):
        S = Su.rand_S(p)
        for _ in range(4):
            a, b = F(p.rng.randint(0, 12), 12), F(p.rng.randint(0, 12), 12)
            lam = F(p.rng.randint(0, 6), 6)
            va, la = optimal_pair(S, a)
            vb, lb = optimal_pair(S, b)
            mixture = [(lam * w, i, x) for w, i, x in la] + [((1 - lam) * w, i, x) for w, i, x in lb]
            mean = sum(w * x for w, _, x in mixture)
            value = sum(w * T.value(S[i], x) for w, i, x in mixture)
            n += 1
            ok = (va == Su.h_formula(S, a) and vb == Su.h_formula(S, b) and mean <= lam * a + (1 - lam) * b
                  and value == lam * va + (1 - lam) * vb and Su.h_formula(S, lam * a + (1 - lam) * b) <= value)
            if not p.require(ok, "the mixture is admissible and attains lam h(a) + (1 - lam) h(b)",
                             f"S={S} a={a} b={b} lam={lam}"):
                return
    p.instances("finite S, optimal (F, A) at a and b mixed with weight lam: admissible at lam a + (1 - lam) b with value "
                "lam h(a) + (1 - lam) h(b)", n)
