"""Gaussian trade-off functions in certified Arb arithmetic.

``G_mu = T(N(0, 1), N(mu, 1))``, ``G_mu(alpha) = Phi(Phi^{-1}(1 - alpha) - mu)`` (Dong-Roth-Su).
The Neyman-Pearson test at threshold c (reject when y >= c) has type I error
``alpha = 1 - Phi(c)`` and type II error ``Phi(c - mu)``.

Decisions are made on balls: :func:`certainly_le` is True only when the inequality is certain at
some precision up to ``maxprec``; a ball that still straddles is reported, never guessed.

Guarantee: enclosures (every returned ball contains the exact value).
"""

from __future__ import annotations

from fractions import Fraction as F

from flint import arb, ctx


def A(x) -> arb:
    """An exact rational (or int) as a ball (exact when the denominator is a power of two)."""
    x = F(x)
    return arb(x.numerator) / arb(x.denominator)


def Phi(x: arb) -> arb:
    return (-x / arb(2).sqrt()).erfc() / 2


def Phi_inv(u: arb) -> arb:
    return -arb(2).sqrt() * (2 * u).erfcinv()


def G(mu, alpha) -> arb:
    """``G_mu(alpha)`` for rational mu >= 0 and alpha in (0, 1)."""
    return Phi(Phi_inv(1 - A(alpha)) - A(mu))


def test_errors(mu, c) -> tuple:
    """(alpha, beta) of the threshold test y >= c between N(0,1) and N(mu,1)."""
    c = A(c)
    return 1 - Phi(c), Phi(c - A(mu))


def interval_masses(mu, cuts) -> list:
    """(P, Q) masses of N(0,1), N(mu,1) on the intervals cut at the sorted rationals ``cuts``."""
    pts = [None] + [A(c) for c in cuts] + [None]
    out = []
    for lo, hi in zip(pts, pts[1:]):
        p = (Phi(hi) if hi is not None else arb(1)) - (Phi(lo) if lo is not None else arb(0))
        q = (Phi(hi - A(mu)) if hi is not None else arb(1)) - (Phi(lo - A(mu)) if lo is not None else arb(0))
        out.append((p, q))
    return out


def certainly(pred, maxprec: int = 1024) -> bool:
    """Evaluate ``pred()`` (a function returning a ball comparison) at rising precision until True;
    False means "not certified" (the caller reports it)."""
    old = ctx.prec
    try:
        prec = 64
        while prec <= maxprec:
            ctx.prec = prec
            if pred():
                return True
            prec *= 2
        return False
    finally:
        ctx.prec = old


def decide(holds, fails, maxprec: int = 4096):
    """Three-valued: True if ``holds()`` is certain at some precision up to ``maxprec``, False if ``fails()``
    is, None if neither (the caller reports the instance as undecided; nothing is guessed)."""
    old = ctx.prec
    try:
        prec = 64
        while prec <= maxprec:
            ctx.prec = prec
            if holds():
                return True
            if fails():
                return False
            prec *= 2
        return None
    finally:
        ctx.prec = old
