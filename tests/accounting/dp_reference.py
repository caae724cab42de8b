"""Independent references for the accountant's tests, written from the mathematics (mpmath at
50 digits), not from exactdp's code.

* Gaussian: delta(eps) of mu-GDP, Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) (Balle-Wang
  2018, Theorem 8; Dong-Roth-Su Corollary 2.13), and its inverse by bisection;
* Poisson-subsampled Gaussian, one step: the hockey-stick divergence of the mixture pair in
  closed form (the set where the densities cross is a half-line); two steps: one mpmath
  quadrature of the one-step formula over the first step's output;
* Laplace, one step: 1 - e^{(eps - E)/2} for 0 <= eps < E.
"""

from __future__ import annotations

import functools

import mpmath as mp


def at50(fn):
    """Run ``fn`` at 50 digits without touching the global mpmath precision (other tests use it)."""
    @functools.wraps(fn)
    def run(*args, **kwargs):
        with mp.workdps(50):
            return fn(*args, **kwargs)
    return run


def mpf(x):
    """An mpf from an int, float, string or Fraction (exactly, at the working precision)."""
    from fractions import Fraction

    if isinstance(x, Fraction):
        return mp.mpf(x.numerator) / x.denominator
    return mp.mpf(x)


@at50
def Phi(x):
    return mp.ncdf(x)


@at50
def gdp_delta(mu, eps):
    mu, eps = mpf(mu), mpf(eps)
    return Phi(-eps / mu + mu / 2) - mp.e**eps * Phi(-eps / mu - mu / 2)


@at50
def invert(f, delta, lo=0, hi=200):
    """The eps >= 0 with f(eps) = delta (f decreasing), by bisection to 40 digits."""
    lo, hi = mp.mpf(lo), mp.mpf(hi)
    if f(lo) <= delta:
        return lo
    for _ in range(200):
        m = (lo + hi) / 2
        if f(m) > delta:
            lo = m
        else:
            hi = m
    return (lo + hi) / 2


@at50
def sub_hockey(alpha, sigma, q, direction):
    """H_alpha(P || Q) of one step of the Poisson-subsampled Gaussian (sensitivity 1):
    remove: P = (1-q) N(0, s^2) + q N(1, s^2), Q = N(0, s^2); add: the pair reversed.
    The densities cross once: P - alpha Q > 0 on a half-line."""
    s, q, a = mpf(sigma), mpf(q), mpf(alpha)
    if direction == "remove":
        # (1-q) + q e^{(2x-1)/(2s^2)} > a  <=>  x > x*
        if a <= 1 - q:
            return 1 - a
        xs = s**2 * mp.log((a - 1 + q) / q) + mp.mpf(1) / 2
        # upper tails as Phi(-z) (1 - Phi(z) at 50 digits loses values below 1e-50)
        return (1 - q) * Phi(-xs / s) + q * Phi(-(xs - 1) / s) - a * Phi(-xs / s)
    # add: P = N(0), Q = mixture; N(0) - a((1-q) N(0) + q N(1)) > 0 <=> 1 > a((1-q) + q e^{(2x-1)/(2s^2)})
    if a * (1 - q) >= 1:
        return mp.mpf(0)
    xs = s**2 * mp.log((1 / a - 1 + q) / q) + mp.mpf(1) / 2  # below xs
    return Phi(xs / s) - a * ((1 - q) * Phi(xs / s) + q * Phi((xs - 1) / s))


@at50
def sub_loss(x, sigma, q, direction):
    s, q = mpf(sigma), mpf(q)
    g = mp.log((1 - q) + q * mp.e**((2 * x - 1) / (2 * s**2)))
    return g if direction == "remove" else -g


@at50
def sub_density_P(x, sigma, q, direction):
    s, q = mpf(sigma), mpf(q)
    phi = lambda y: mp.npdf(y, 0, s)
    if direction == "remove":
        return (1 - q) * phi(x) + q * phi(x - 1)
    return phi(x)


@at50
def sub_delta(eps, sigma, q, k, direction):
    """delta(eps) of k = 1 or 2 steps of the subsampled Gaussian in one direction."""
    a = mp.e ** mpf(eps)
    if k == 1:
        return sub_hockey(a, sigma, q, direction)
    assert k == 2
    # H_a(P^2 || Q^2) = E_{x ~ P}[H_{a e^{-L(x)}}(P || Q)]
    f = lambda x: sub_density_P(x, sigma, q, direction) * sub_hockey(a * mp.e ** (-sub_loss(x, sigma, q, direction)),
                                                                     sigma, q, direction)
    s = mpf(sigma)
    return mp.quad(f, [-mp.inf, -10 * s, -3 * s, 0, mp.mpf(1) / 2, 1, 3 * s, 10 * s, mp.inf])


@at50
def laplace_delta(eps, E):
    eps, E = mpf(eps), mpf(E)
    return mp.mpf(0) if eps >= E else 1 - mp.e ** ((eps - E) / 2)


@at50
def replace_delta(eps, sigma, q):
    """delta(eps) of one step of the Poisson-subsampled Gaussian under replace-one (sensitivity 1):
    P = (1-q) N(0, s^2) + q N(1, s^2), Q = (1-q) N(0, s^2) + q N(-1, s^2); the loss is increasing,
    so delta = P(X > x*) - e^eps Q(X > x*) with x* the root of the loss (found by bisection on the
    log-density ratio, not by a formula for it)."""
    s, q, eps = mpf(sigma), mpf(q), mpf(eps)

    def loss(x):
        return (mp.log((1 - q) * mp.npdf(x, 0, s) + q * mp.npdf(x, 1, s))
                - mp.log((1 - q) * mp.npdf(x, 0, s) + q * mp.npdf(x, -1, s)))

    lo, hi = mp.mpf(-1), mp.mpf(1)
    while loss(hi) < eps:
        hi *= 2
    while loss(lo) > eps:
        lo *= 2
    xs = mp.findroot(lambda x: loss(x) - eps, (lo, hi), solver="bisect", tol=mp.mpf(10) ** -45)
    up = lambda m: Phi(-(xs - m) / s)  # noqa: E731 (the upper tail, accurate where it is tiny)
    return (1 - q) * up(0) + q * up(1) - mp.e**eps * ((1 - q) * up(0) + q * up(-1))
