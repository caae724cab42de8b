"""Independent reference computations for the GDP tests, in mpmath (nothing here imports exactdp).

* :func:`delta_integral`: ``sup_S P(S) - e^eps Q(S)`` for ``P = N(mu, 1)``, ``Q = N(0, 1)``,
  as the integral of ``(p - e^eps q)_+`` by quadrature (the optimal set is a half-line, so
  the integrand is split at its kink ``eps/mu + mu/2``, where ``p = e^eps q``).
* :func:`delta_closed`: Dong-Roth-Su's closed form at high precision (for parameters whose
  value is too small for quadrature).
* :func:`tradeoff_np`: the Neyman-Pearson test between N(0,1) and N(mu,1) at level alpha:
  the threshold solved by root finding on the normal tail, then its type II error.
* :func:`delta_product_2d`: the same ``sup_S`` for two independent Gaussian coordinates
  ``N((a, b), I)`` against ``N(0, I)``: the inner integral over y in closed form with the
  normal tail, the outer by quadrature (independent of the composition rule).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath as mp


def mpf(x) -> mp.mpf:
    x = Fraction(x)
    return mp.mpf(x.numerator) / x.denominator


def delta_integral(mu, eps, dps: int = 40) -> mp.mpf:
    with mp.workdps(dps):
        m, e = mpf(mu), mpf(eps)
        k = e / m + m / 2
        w = mp.exp(e)

        def f(x):  # p - e^eps q = e^eps q (p / (e^eps q) - 1), without cancellation near the kink
            return w * mp.npdf(x, 0, 1) * mp.expm1(m * x - m * m / 2 - e)

        h = 1 / max(k, 1)  # the tail beyond k decays on the scale 1/k
        return mp.quad(f, [k + t * h for t in (0, 0.5, 1, 2, 4, 8, 16, 32, 64)] + [mp.inf])


def delta_closed(mu, eps, dps: int = 60) -> mp.mpf:
    with mp.workdps(dps):
        m, e = mpf(mu), mpf(eps)
        if e == 0:  # Phi(x) - Phi(-x) = erf(x / sqrt 2), without the cancellation for tiny mu
            return mp.erf(m / (2 * mp.sqrt(2)))
        return mp.ncdf(-e / m + m / 2) - mp.exp(e) * mp.ncdf(-e / m - m / 2)


def root_bisect(f, lo, hi, dps: int, log_scale: bool = False) -> mp.mpf:
    """The root of a monotone ``f`` in ``[lo, hi]`` (a sign change) by bisection at ``dps`` digits."""
    with mp.workdps(dps):
        lo, hi = mp.mpf(lo), mp.mpf(hi)
        flo = f(lo) > 0
        for _ in range(int(dps * 3.33) + 16):  # the callers' brackets span a factor 4 or less, or [-100, 100]
            mid = mp.sqrt(lo * hi) if (log_scale and lo > 0) else (lo + hi) / 2
            if (f(mid) > 0) == flo:
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2


def tradeoff_np(mu, alpha, dps: int = 40) -> mp.mpf:
    with mp.workdps(dps):
        a, m = mpf(alpha), mpf(mu)
        # threshold t with P(N(0,1) > t) = alpha, by bisection on the tail (monotone)
        lo, hi = mp.mpf(-60), mp.mpf(60)
        for _ in range(dps * 4):
            mid = (lo + hi) / 2
            if 1 - mp.ncdf(mid) > a:
                lo = mid
            else:
                hi = mid
        t = (lo + hi) / 2
        return mp.ncdf(t - m)


def delta_product_2d(a, b, eps, dps: int = 30) -> mp.mpf:
    with mp.workdps(dps):
        A, B, e = mpf(a), mpf(b), mpf(eps)
        w = mp.exp(e)
        c = e + (A * A + B * B) / 2  # the set {a x + b y > c}: likelihood ratio > e^eps

        def inner(x):
            ys = (c - A * x) / B
            return mp.npdf(x, A, 1) * (1 - mp.ncdf(ys - B)) - w * mp.npdf(x, 0, 1) * (1 - mp.ncdf(ys))

        return mp.quad(inner, [-mp.inf, -10, -3, 0, 3, 10, mp.inf])
