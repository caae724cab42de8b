"""Accounting Lemma 6: Poisson subsampling under replace_one for the Gaussian mechanism:
the tight dominating pair ((1-q) N(0) + q N(Delta), (1-q) N(0) + q N(-Delta)) (Lebeda, Regehr,
Kamath, Steinke, SaTML 2025, Proposition 13 as cited by dp_accounting), with Delta the bound
on one record's contribution (dp_accounting's REPLACE_ONE convention).

Why configurations suffice: conditioning on the sample of the common records and translating,
M(D) and M(D') are mixtures over the sample T of (1-q) N(f(T)) + q N(f(T) + a) and
(1-q) N(f(T)) + q N(f(T) + b) with |a|, |b| <= Delta; H is jointly convex, so the sup over
datasets is the sup over (a, b). Checks (mpmath, 30 digits): the stated curve, computed
from the loss law (L increasing: a threshold), dominates sup_S P(S) - e^eps Q(S) of every
one-dimensional configuration (a, b) of a grid of [-Delta, Delta]^2 and every
two-dimensional configuration with |a| = |b| of a grid of norms and angles (for two
(q, sigma, eps) by default, all with --full) (the plane integral
in closed form along one axis, quadrature along the other), and equals it at a = -b =
+-Delta (tight), for (q, sigma) in {(0.01, 1), (0.3, 0.5), (0.5, 2)} (more with --full) and eps
in {0, 1/2, 2} (and 8); the add/remove pairs of Lemma 5 with the same Delta fall below the
true curve somewhere (not dominating), those with 2 Delta dominate it but exceed it
somewhere (not tight).
"""

from __future__ import annotations

import itertools

import mpmath
from mpmath import mpf

from .._framework import Proof, statement
from . import _gauss as G


def claim_curve(q, Delta, s, eps):
    """Lemma 6's delta(eps) (the transcription checked): the stated pair's curve from its loss law."""
    return G.replace_delta(q, Delta, s, eps)


def add_remove_curve(q, Delta, s, eps):
    """max of Lemma 5's remove and add curves for the subsampled Gaussian with sensitivity Delta."""
    alpha = mpmath.exp(eps)
    rem = G.mixture_hs([(q, Delta), (1 - q, 0)], [(1, 0)], s, alpha)
    add = G.mixture_hs([(1, 0)], [(1 - q, 0), (q, Delta)], s, alpha)
    return max(rem, add)


CONFIGS_1D = [(1, -1), (-1, 1), (1, 0), (0, 1), (0, -1), (1, mpf(1) / 2), (mpf(1) / 2, -mpf(1) / 2), (1, -mpf(1) / 2),
              (-mpf(1) / 2, 1), (0, 0)]


@statement("Lemma 6", "Poisson subsampling under replace_one, Gaussian(sigma, Delta): ((1-q) N(0) + q N(Delta), "
           "(1-q) N(0) + q N(-Delta)) is a tight dominating pair; loss ln(1 - q + q e^{l(x)}) - ln(1 - q + q e^{l(-x)}); "
           "the add/remove pairs with Delta do not dominate, those with 2 Delta are not tight")
def lemma(p: Proof) -> None:
    with G.precision():
        _check(p)


def _check(p: Proof) -> None:
    params = [(mpf(1) / 100, mpf(1)), (mpf(3) / 10, mpf(1) / 2), (mpf(1) / 2, mpf(2))]
    epss = [mpf(0), mpf(1) / 2, mpf(2)]
    configs = list(CONFIGS_1D)
    angles = [2 * mpmath.pi / 3, mpmath.pi]
    if p.full:
        params += [(mpf(1), mpf(1)), (mpf(1) / 1000, mpf(3) / 10), (mpf(1) / 10, mpf(5))]
        epss += [mpf(8)]
        configs += [(a, b) for a in (-1, -mpf(1) / 2, mpf(1) / 2, 1) for b in (-1, -mpf(1) / 4, mpf(3) / 4)]
        angles += [mpmath.pi / 3, 5 * mpmath.pi / 6, 11 * mpmath.pi / 12]
    Delta = mpf(1)
    n1 = n2 = 0
    below = above = 0
    if True:
        for (q, s), eps in itertools.product(params, epss):
            alpha = mpmath.exp(eps)
            claim = claim_curve(q, Delta, s, eps)
            for a, b in configs:
                h = G.mixture_hs([(1 - q, 0), (q, mpf(a) * Delta)], [(1 - q, 0), (q, mpf(b) * Delta)], s, alpha)
                if not p.require(h <= claim * (1 + G.TOL) + mpf(10) ** -35, "a configuration exceeds the stated curve",
                                 lambda: f"q {q}, sigma {s}, eps {eps}, (a, b) = ({a}, {b}) Delta: {G.fmt(h)} > {G.fmt(claim)}"):
                    return
                if abs(mpf(a) - mpf(b)) == 2 and not p.require(G.close(h, claim, mpf(10) ** -15),
                                                               "the stated curve is attained at a = -b = +-Delta",
                                                               lambda: f"q {q}, sigma {s}, eps {eps}: {G.fmt(h)} vs {G.fmt(claim)}"):
                    return
                n1 += 1
            plane = p.full or (q, s) == params[0] and eps in (0, 2)  # each plane integral costs ~0.3 s
            for rho, th in itertools.product((mpf(1), mpf(1) / 2), angles if plane else ()):
                c = 0 if th == mpmath.pi else rho * Delta * mpmath.cos(th / 2)  # cos(pi/2) exactly 0
                hh = rho * Delta * mpmath.sin(th / 2)
                h2 = G.hs2d_equal(q, s, c, hh, alpha)
                if not p.require(h2 <= claim * (1 + mpf(10) ** -12) + mpf(10) ** -35,
                                 "a plane configuration exceeds the stated curve",
                                 lambda: f"q {q}, sigma {s}, eps {eps}, |a| = |b| = {rho} Delta at angle {G.fmt(th)}: "
                                         f"{G.fmt(h2)} > {G.fmt(claim)}"):
                    return
                if rho == 1 and th == mpmath.pi and not p.require(G.close(h2, claim, mpf(10) ** -12),
                                                                  "attained in the plane at a = -b",
                                                                  lambda: f"q {q}, sigma {s}, eps {eps}: {G.fmt(h2)} vs {G.fmt(claim)}"):
                    return
                n2 += 1
            ar1 = add_remove_curve(q, Delta, s, eps)
            ar2 = add_remove_curve(q, 2 * Delta, s, eps)
            if not p.require(ar2 >= claim * (1 - G.TOL), "the add/remove pair with 2 Delta dominates",
                             lambda: f"q {q}, sigma {s}, eps {eps}: {G.fmt(ar2)} < {G.fmt(claim)}"):
                return
            below += ar1 < claim * (1 - mpf(10) ** -6)
            above += ar2 > claim * (1 + mpf(10) ** -6)
    p.instances("one-dimensional configurations (a, b) in [-Delta, Delta]^2: sup_S <= the stated curve, equality at "
                "a = -b = +-Delta", n1, "mpmath 30 digits")
    p.instances("plane configurations |a| = |b| in {Delta, Delta/2}, angles pi/3..pi: sup_S <= the stated curve, "
                "equality at a = -b", n2, "mpmath 30 digits")
    cases = len(params) * len(epss)
    if not p.require(below > 0, "the add/remove pair with the same Delta is not dominating: no (q, sigma, eps) where it "
                     "falls below", f"{cases} cases"):
        return
    if not p.require(above > 0, "the add/remove pair with 2 Delta is not tight: no case where it exceeds", f"{cases} cases"):
        return
    p.instances(f"the add/remove pair with Delta falls below the true curve ({below} of {cases} cases); with 2 Delta it "
                f"dominates and exceeds it ({above} of {cases})", cases, "mpmath 30 digits")
