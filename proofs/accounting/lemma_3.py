"""Accounting Lemma 3: the Laplace pair (Lap(Delta, b), Lap(0, b)): its loss law (atoms at
+-Delta/b and a density between) and its closed-form delta(eps).

Checks (mpmath, 30 digits): the loss law's total mass is 1 and its atoms are P(X >= Delta)
and P(X <= 0) (quadrature of the density); Lemma 1's expectation over this loss law and the
closed form against sup_S P(S) - e^eps Q(S) by quadrature of (p - e^eps q)_+, for
b/Delta from 0.3 to 20 and eps from -2 t to 2 t (t = Delta/b) and beyond.
"""

from __future__ import annotations

import mpmath
from mpmath import mpf

from .._framework import Proof, statement
from . import _gauss as G


def laplace_law(t):
    """Lemma 3's loss law of (Lap(Delta, b), Lap(0, b)), t = Delta/b: (atoms {loss: P-mass}, density on (-t, t))."""
    return {t: mpf(1) / 2, -t: mpmath.exp(-t) / 2}, (lambda l: mpmath.exp((l - t) / 2) / 4)


def laplace_delta(t, eps):
    """Lemma 3's closed form."""
    if eps <= -t:
        return 1 - mpmath.exp(eps)
    if eps >= t:
        return mpf(0)
    return 1 - mpmath.exp((eps - t) / 2)


def lap_pdf(x, m, b):
    return mpmath.exp(-abs(x - m) / b) / (2 * b)


@statement("Lemma 3", "Laplace pair, t = Delta/b: loss atoms +t (P-mass 1/2), -t (P-mass e^{-t}/2), density "
           "e^{(l - t)/2}/4 between; delta(eps) = 1 - e^eps (eps <= -t), 1 - e^{(eps - t)/2} (|eps| <= t), 0 (eps >= t)")
def lemma(p: Proof) -> None:
    with G.precision():
        _check(p)


def _check(p: Proof) -> None:
    ratios = [mpf(3) / 10, mpf(1), mpf(4), mpf(20)] + ([mpf(7) / 10, mpf(10)] if p.full else [])
    n = nl = 0
    with G.precision():
        for bD in ratios:
            Delta, b = mpf(1), bD
            t = Delta / b
            atoms, dens = laplace_law(t)
            total = sum(atoms.values()) + mpmath.quad(dens, [-t, t])
            up = mpmath.quad(lambda x: lap_pdf(x, Delta, b), [Delta, mpmath.inf])
            down = mpmath.quad(lambda x: lap_pdf(x, Delta, b), [-mpmath.inf, 0])
            if not p.require(G.close(total, 1) and G.close(up, atoms[t]) and G.close(down, atoms[-t]),
                             "the loss law: total mass 1, atoms P(X >= Delta), P(X <= 0)",
                             lambda: f"b/Delta {bD}: total {G.fmt(total)}, atoms {G.fmt(up)} {G.fmt(down)}"):
                return
            nl += 1
            for frac in [mpf(-3), mpf(-1), mpf(-1) / 2, mpf(0), mpf(1) / 3, mpf(9) / 10, mpf(1), mpf(2)]:
                eps = frac * t
                alpha = mpmath.exp(eps)
                x0 = (eps * b + Delta) / 2  # the crossing inside (0, Delta) when |eps| < t
                quad = G.quad_hs(lambda x: lap_pdf(x, Delta, b), lambda x: lap_pdf(x, 0, b), alpha,
                                 [0, Delta] + ([x0] if 0 < x0 < Delta else []))
                closed = laplace_delta(t, eps)
                via = sum(m * max(1 - mpmath.exp(eps - l), 0) for l, m in atoms.items())
                if eps < t:
                    via += mpmath.quad(lambda l: (1 - mpmath.exp(eps - l)) * dens(l), [max(eps, -t), t])
                tol, floor = mpf(10) ** -15, mpf(10) ** -25  # at eps = t the integrand is 0 up to rounding
                if not p.require(G.close(quad, closed, tol, floor) and G.close(via, closed, tol, floor),
                                 "closed form = E over the loss law = quadrature of (p - e^eps q)_+",
                                 lambda: f"b/Delta {bD}, eps {G.fmt(eps)}: quadrature {G.fmt(quad)}, loss law {G.fmt(via)}, "
                                         f"closed {G.fmt(closed)}"):
                    return
                n += 1
    p.instances("loss law of Lap(Delta, b) vs Lap(0, b): mass 1 and its two atoms (quadrature)", nl, "mpmath 30 digits")
    p.instances("closed form vs Lemma 1's expectation vs quadrature of the definition, b/Delta 0.3-20, eps/t -3..2", n,
                "mpmath 30 digits")
