"""Lemma 2.4's formula (4) for finite S, computed from its definition, and the infinite family that
refutes it. Guarantee: exact."""

from __future__ import annotations

from fractions import Fraction as F
from typing import List, Sequence

from . import _tradeoff as T
from .proposition_1_7 import rand_convex


def h_formula(S: Sequence[T.TF], alpha) -> F:
    """Formula (4) at alpha for finite S: inf over random F on S and A: S -> [0,1] with E[A(F)] <= alpha of
    E[F(A(F))]. By Caratheodory (points of the plane) two pairs (f, a) suffice, and each f may be taken at
    a breakpoint (f is linear between them): the least value over single breakpoints with a <= alpha and over
    two breakpoints mixed to mean alpha."""
    alpha = F(alpha)
    pts = sorted({pt for f in S for pt in f})
    best = min(y for x, y in pts if x <= alpha)
    for x1, y1 in pts:
        if x1 > alpha:
            continue
        for x2, y2 in pts:
            if x2 <= alpha:
                continue
            lam = (x2 - alpha) / (x2 - x1)      # weight on the first point: mean exactly alpha
            best = min(best, lam * y1 + (1 - lam) * y2)
    return best


def f_n(n: int) -> T.TF:
    """max(0, 1 - n alpha): T of P = (1/n, 1 - 1/n), Q = (1, 0)."""
    return T.normalize([(F(0), F(1)), (F(1, n), F(0)), (F(1), F(0))])


def family_value(alpha, N: int = 10 ** 6) -> F:
    """Formula (4) for S = {f_n : n >= 1} at alpha: 1 at alpha = 0 (E[A(F)] <= 0 forces A = 0 and every
    f_n(0) = 1); at alpha > 0 the constant choice F = f_n, A = alpha with n >= 1/alpha gives 0."""
    alpha = F(alpha)
    if alpha == 0:
        return F(1)
    n = -(-alpha.denominator // alpha.numerator)  # ceil(1/alpha)
    return T.value(f_n(n), alpha)


def rand_S(p, k=None):
    k = k or p.rng.randint(1, 4)
    return [p.rng.choice([T.rand_tf(p.rng, 3), rand_convex(p.rng)]) for _ in range(k)]


def upper_bounds(p, S: List[T.TF], count: int):
    """Members h' of F with h' <= f pointwise for every f in S (upper bounds in the poset)."""
    out = [T.envelope(S + [T.rand_tf(p.rng, 3)]) for _ in range(count)]
    for _ in range(4 * count):
        g = rand_convex(p.rng)
        if all(T.le(g, f) for f in S):
            out.append(g)
    return out
