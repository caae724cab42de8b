"""Accounting Lemma 2: the Gaussian pair (N(Delta, sigma^2), N(0, sigma^2)), its closed form
(Balle-Wang 2018, Theorem 8), its loss law N(eta, 2 eta), and k-fold composition as one
Gaussian pair with sensitivity Delta sqrt(k) (mu-GDP, mu = sqrt(k) Delta/sigma).

Checks (mpmath, 30 digits, agreement to 1e-15 relative): the closed form against
sup_S P(S) - e^eps Q(S) computed from the definition (the set {p > e^eps q} and its masses)
for sigma from 0.3 to 20, Delta in {1/2, 1, 2}, eps from -1 to 20, and against quadrature of
(p - e^eps q)_+ on a subset; the closed form against Lemma 1's expectation over the loss law
N(eta, 2 eta) (quadrature); for k = 2..4 the expectation over the composed loss law
N(k eta, 2 k eta) (the sum of k independent losses, Lemma 1) against the closed form with
sensitivity Delta sqrt(k) and against the mu-GDP profile; sympy: the two closed forms agree.
"""

from __future__ import annotations

import mpmath
import sympy as sp
from mpmath import mpf

from .._framework import Proof, statement
from . import _gauss as G


def composed_sensitivity(Delta, k):
    """The sensitivity of the one Gaussian pair equivalent to k steps (the transcription checked)."""
    return mpf(Delta) * mpmath.sqrt(k)


def loss_expectation(mean, var, eps):
    """Lemma 1's E_P[(1 - e^{eps - L})_+] for L ~ N(mean, var), by quadrature from eps."""
    sd = mpmath.sqrt(var)
    z0 = (eps - mean) / sd
    c = G.npdf(z0, 0, 1) if z0 > 0 else mpf(1)  # mpmath.quad's tolerance is absolute: integrate f / c ~ 1
    t = 1 / max(z0, mpf(1))  # the scale on which the integrand decays above z0
    pts = [z0] + [z0 + t * 4 ** j for j in range(-1, 3)] + [mpmath.inf]
    return c * mpmath.quad(lambda z: (1 - mpmath.exp(eps - mean - sd * z)) * G.npdf(z, 0, 1) / c, pts)


@statement("Lemma 2", "Gaussian pair: delta(eps) = Phi(-eps sigma/Delta + Delta/(2 sigma)) - e^eps Phi(-eps sigma/Delta - "
           "Delta/(2 sigma)); loss N(eta, 2 eta); k-fold = one Gaussian with Delta sqrt(k) (mu-GDP, mu = sqrt(k) Delta/sigma)")
def lemma(p: Proof) -> None:
    with G.precision():
        _check(p)


def _check(p: Proof) -> None:
    e, s, D = sp.symbols("epsilon sigma Delta", positive=True)
    k = sp.symbols("k", positive=True)
    mu = sp.sqrt(k) * D / s
    bw = sp.Matrix([-e * s / (D * sp.sqrt(k)) + D * sp.sqrt(k) / (2 * s), -e * s / (D * sp.sqrt(k)) - D * sp.sqrt(k) / (2 * s)])
    gdp = sp.Matrix([-e / mu + mu / 2, -e / mu - mu / 2])
    p.symbolic("Balle-Wang with sensitivity Delta sqrt(k) = the mu-GDP profile with mu = sqrt(k) Delta/sigma "
               "(the arguments of Phi agree)", sp.simplify(bw - gdp) == sp.zeros(2, 1))
    sigmas = [mpf(3) / 10, mpf(1), mpf(20)]
    deltas = [mpf(1) / 2, mpf(2)]
    epss = [mpf(-1), mpf(0), mpf(2), mpf(20)]
    if p.full:
        sigmas += [mpf(7) / 10, mpf(4), mpf(10)]
        deltas += [mpf(1)]
        epss += [mpf(1) / 2, mpf(5), mpf(8), mpf(13)]
    n = nq = nl = 0
    with G.precision():
        for sigma in sigmas:
            for Delta in deltas:
                for eps in epss:
                    closed = G.gauss_delta(sigma, Delta, eps)
                    direct = G.mixture_hs([(1, Delta)], [(1, 0)], sigma, mpmath.exp(eps))
                    if not p.require(G.close(closed, direct), "closed form = sup_S P(S) - e^eps Q(S)",
                                     lambda: f"sigma {sigma}, Delta {Delta}, eps {eps}: {G.fmt(closed)} vs {G.fmt(direct)}"):
                        return
                    n += 1
                    eta = Delta ** 2 / (2 * sigma ** 2)
                    via_loss = loss_expectation(eta, 2 * eta, eps) if eps >= 0 else None
                    if via_loss is not None:
                        if not p.require(G.close(closed, via_loss), "closed form = E over the loss law N(eta, 2 eta)",
                                         lambda: f"sigma {sigma}, Delta {Delta}, eps {eps}: {G.fmt(closed)} vs {G.fmt(via_loss)}"):
                            return
                        nl += 1
                    if n % (2 if p.full else 5) == 0:
                        x0 = sigma ** 2 * eps / Delta + Delta / 2
                        quad = G.quad_hs(lambda x: G.npdf(x, Delta, sigma), lambda x: G.npdf(x, 0, sigma),
                                         mpmath.exp(eps), [x0, -8 * sigma, 0, Delta, Delta + 8 * sigma])
                        if not p.require(G.close(closed, quad, mpf(10) ** -15), "closed form = quadrature of (p - e^eps q)_+",
                                         lambda: f"sigma {sigma}, Delta {Delta}, eps {eps}: {G.fmt(closed)} vs {G.fmt(quad)}"):
                            return
                        nq += 1
        p.instances("closed form vs the definition (the set {p > e^eps q}), sigma 0.3-20, Delta 1/2-2, eps -1..20", n,
                    "mpmath 30 digits")
        p.instances("closed form vs quadrature of (p - e^eps q)_+ (to 1e-15)", nq, "mpmath 30 digits")
        p.instances("closed form vs E_P[(1 - e^{eps - L})_+] over the loss law N(eta, 2 eta)", nl, "mpmath 30 digits")
        nk = 0
        for sigma in sigmas:
            for Delta in (deltas if p.full else deltas[:1]):
                for kk in (2, 3, 4):
                    for eps in (mpf(0), mpf(2)) + ((mpf(1) / 2, mpf(6)) if p.full else ()):
                        eta = Delta ** 2 / (2 * sigma ** 2)
                        composed = loss_expectation(kk * eta, 2 * kk * eta, eps)
                        claim = G.gauss_delta(sigma, composed_sensitivity(Delta, kk), eps)
                        gdp = G.gdp_delta(mpmath.sqrt(kk) * Delta / sigma, eps)
                        if not p.require(G.close(composed, claim) and G.close(claim, gdp),
                                         "k-fold = one Gaussian with Delta sqrt(k) = mu-GDP",
                                         lambda: f"k {kk}, sigma {sigma}, Delta {Delta}, eps {eps}: composed {G.fmt(composed)}, "
                                                 f"claim {G.fmt(claim)}, mu-GDP {G.fmt(gdp)}"):
                            return
                        nk += 1
        p.instances("k = 2..4: E over the composed loss law N(k eta, 2k eta) = closed form with Delta sqrt(k) = mu-GDP", nk,
                    "mpmath 30 digits")
