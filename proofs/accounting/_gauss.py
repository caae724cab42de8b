"""Gaussian and Laplace quantities in mpmath at high precision for the accounting lemmas.

Guarantee: approximate, to far more digits than the comparisons need: every function runs at
``mp.dps = DPS`` (30 digits); quadratures (``mpmath.quad``, tanh-sinh, split at the
crossings) are compared with a relative tolerance ``TOL`` (1e-15), which a false statement
misses by many orders of magnitude (the mutants in the tests miss by more than 1e-4).

* ``Phi``, ``Phibar`` (upper tail), the Balle-Wang closed form ``gauss_delta``;
* ``mixture_hs``: sup_S P(S) - alpha Q(S) for one-dimensional mixtures of N(m_i, sigma^2),
  by the definition: S = {p > alpha q} found as the sign pattern of an exponential sum (at
  most as many roots as sign changes of its coefficients), and P(S) - alpha Q(S) summed in
  closed form over its intervals;
* ``quad_hs``: the same by quadrature of (p - alpha q)_+ (a second, slower computation);
* ``hs2d_equal``: sup_S for two-dimensional pairs (1-q) N(0) + q N(a) vs (1-q) N(0) + q N(b)
  with |a| = |b|, by quadrature over one coordinate of a closed-form integral over the other.
"""

from __future__ import annotations

from typing import Callable, List, Sequence, Tuple

import mpmath
from mpmath import mp, mpf

DPS = 30
TOL = mpf(10) ** -15

Mix = List[Tuple[object, object]]  # (weight, mean) components, common sigma


def Phi(x):
    return mpmath.erfc(-x / mpmath.sqrt(2)) / 2


def Phibar(x):
    return mpmath.erfc(x / mpmath.sqrt(2)) / 2


def npdf(x, m, s):
    return mpmath.exp(-((x - m) ** 2) / (2 * s * s)) / (s * mpmath.sqrt(2 * mpmath.pi))


def gauss_delta(sigma, Delta, eps):
    """Lemma 2's closed form (Balle-Wang Theorem 8) for (N(Delta, sigma^2), N(0, sigma^2))."""
    sigma, Delta, eps = mpf(sigma), mpf(Delta), mpf(eps)
    return Phi(-eps * sigma / Delta + Delta / (2 * sigma)) - mpmath.exp(eps) * Phi(-eps * sigma / Delta - Delta / (2 * sigma))


def gdp_delta(mu, eps):
    """The (eps, delta) profile of mu-GDP (Dong, Roth, Su, Corollary 2.13)."""
    mu, eps = mpf(mu), mpf(eps)
    return Phi(-eps / mu + mu / 2) - mpmath.exp(eps) * Phi(-eps / mu - mu / 2)


def mix_pdf(mix: Mix, s) -> Callable:
    return lambda x: sum(w * npdf(x, m, s) for w, m in mix)


def mix_mass_above(mix: Mix, s, t):
    """P(X > t) for X ~ sum w_i N(m_i, s^2)."""
    return sum(w * Phibar((t - m) / s) for w, m in mix)


def mix_mass_between(mix: Mix, s, a, b):
    """P(a < X < b) for X ~ sum w_i N(m_i, s^2), each term from the tail it lies in (no cancellation
    of 1 - (1 - tiny))."""
    out = mpf(0)
    for w, m in mix:
        za, zb = (a - m) / s, (b - m) / s
        if zb <= 0:
            out += w * (Phi(zb) - Phi(za))
        elif za >= 0:
            out += w * (Phibar(za) - Phibar(zb))
        else:
            out += w * (1 - Phi(za) - Phibar(zb))
    return out


def _expsum(terms: Sequence[Tuple[object, object, object]]) -> Callable:
    """x -> sum c e^{k x + k0}: (p - alpha q)(x) / phi(x / s) for Gaussian mixtures."""
    return lambda x: sum(c * mpmath.exp(k * x + k0) for c, k, k0 in terms)


def _roots(g: Callable, lo, hi, n: int) -> List:
    """Sign changes of g on a grid of n + 1 points of [lo, hi], refined by bisection."""
    xs = [lo + (hi - lo) * i / n for i in range(n + 1)]
    vs = [g(x) for x in xs]
    out = []
    for (x0, v0), (x1, v1) in zip(zip(xs, vs), zip(xs[1:], vs[1:])):
        if v0 == 0:
            out.append(x0)
        elif v0 * v1 < 0:
            try:
                out.append(mpmath.findroot(g, (x0, x1), solver="anderson"))
            except (ZeroDivisionError, ValueError):  # a degenerate step: plain bisection
                out.append(mpmath.findroot(g, (x0, x1), solver="bisect"))
    return out


def mixture_hs(P: Mix, Q: Mix, s, alpha, *, n: int = 160):
    """sup_S P(S) - alpha Q(S) for one-dimensional Gaussian mixtures with common sd s: the set
    {p > alpha q} is a union of intervals between the roots of an exponential sum."""
    s, alpha = mpf(s), mpf(alpha)
    P = [(w, m) for w, m in P if w != 0]
    Q = [(w, m) for w, m in Q if w != 0]
    terms = [(mpf(w), mpf(m) / s ** 2, -mpf(m) ** 2 / (2 * s ** 2)) for w, m in P]
    terms += [(-alpha * mpf(w), mpf(m) / s ** 2, -mpf(m) ** 2 / (2 * s ** 2)) for w, m in Q]
    g = _expsum(terms)
    span = max(abs(mpf(m)) for _, m in P + Q) + 1
    # the roots lie where two terms balance: |x| <= s^2 (|log ratios| + ...) / min spacing; scan wide
    ks = sorted({t[1] for t in terms})
    gap = min((b - a for a, b in zip(ks, ks[1:])), default=mpf(1))
    logs = max(abs(mpmath.log(abs(t[0]))) for t in terms if t[0] != 0) + max(abs(t[2]) for t in terms)
    L = span + (2 * logs + 10) / gap
    roots = sorted(_roots(g, -L, L, n))
    edges = [-mpmath.inf] + roots + [mpmath.inf]
    total = mpf(0)
    for a, b in zip(edges, edges[1:]):
        if a == -mpmath.inf:
            mid = b - 1 if b != mpmath.inf else mpf(0)
        else:
            mid = a + 1 if b == mpmath.inf else (a + b) / 2
        if g(mid) > 0:
            total += mix_mass_between(P, s, a, b) - alpha * mix_mass_between(Q, s, a, b)
    return total


def quad_hs(p: Callable, q: Callable, alpha, points: Sequence = ()):
    """sup_S P(S) - alpha Q(S) = integral of (p - alpha q)_+ by quadrature, split at ``points``."""
    alpha = mpf(alpha)
    pts = [-mpmath.inf] + sorted(mpf(x) for x in points) + [mpmath.inf]
    c = max([p(x) for x in pts[1:-1]] + [mpf(10) ** -300])  # mpmath.quad's tolerance is absolute: scale to ~1
    return c * mpmath.quad(lambda x: max(p(x) - alpha * q(x), 0) / c, pts)


def replace_pair(q, Delta) -> Tuple[Mix, Mix]:
    """Lemma 6's pair: ((1-q) N(0) + q N(Delta), (1-q) N(0) + q N(-Delta))."""
    q, Delta = mpf(q), mpf(Delta)
    return [(1 - q, 0), (q, Delta)], [(1 - q, 0), (q, -Delta)]


def replace_loss(q, Delta, s) -> Callable:
    """Lemma 6's loss L(x) = ln(1 - q + q e^{l(x)}) - ln(1 - q + q e^{l(-x)})."""
    q, Delta, s = mpf(q), mpf(Delta), mpf(s)

    def base(x):  # the loss of N(Delta) vs N(0) at x
        return (Delta * x - Delta ** 2 / 2) / s ** 2

    return lambda x: mpmath.log(1 - q + q * mpmath.exp(base(x))) - mpmath.log(1 - q + q * mpmath.exp(base(-x)))


def replace_delta(q, Delta, s, eps):
    """Lemma 6's curve from its loss law: L is increasing, so delta = P(X > x*) - e^eps Q(X > x*)
    with L(x*) = eps."""
    L = replace_loss(q, Delta, s)
    eps = mpf(eps)
    lo, hi = mpf(-1), mpf(1)
    while L(lo) > eps:
        lo *= 2
    while L(hi) < eps:
        hi *= 2
    x = mpmath.findroot(lambda t: L(t) - eps, (lo, hi), solver="anderson")
    P, Q = replace_pair(q, Delta)
    return mix_mass_above(P, s, x) - mpmath.exp(eps) * mix_mass_above(Q, s, x)


def hs2d_equal(q, s, c, h, alpha):
    """sup_S P(S) - alpha Q(S) for P = (1-q) N(0, s^2 I) + q N((c, h)), Q = (1-q) N(0) + q N((c, -h))
    in the plane (every pair of means of equal norm, after a rotation). For fixed y the
    integrand in x is u phi(x) + v phi(x - c), whose positive part integrates in closed form."""
    q, s, c, h, alpha = (mpf(v) for v in (q, s, c, h, alpha))
    if c == 0:  # the first coordinate integrates out: the pair on the second axis
        return mixture_hs([(1 - q, 0), (q, h)], [(1 - q, 0), (q, -h)], s, alpha)

    def inner(y):
        u = (1 - q) * (1 - alpha) * npdf(y, 0, s)
        v = q * (npdf(y, h, s) - alpha * npdf(y, -h, s))
        # u + v e^{(c x - c^2/2)/s^2} > 0; with c > 0 the exponential increases in x
        if u >= 0 and v >= 0:
            return u + v
        if u <= 0 and v <= 0:
            return mpf(0)
        x0 = (s ** 2 * mpmath.log(-u / v) + c ** 2 / 2) / c
        if v > 0:   # positive for x > x0
            return u * Phibar(x0 / s) + v * Phibar((x0 - c) / s)
        return u * Phi(x0 / s) + v * Phi((x0 - c) / s)

    pts = [-mpmath.inf, mpf(0), mpmath.inf]
    if h != 0:
        pts = [-mpmath.inf, s ** 2 * mpmath.log(alpha) / (2 * h), mpmath.inf]
    return mpmath.quad(inner, pts)


class precision:
    """``with precision():`` runs at DPS digits and restores the caller's."""

    def __enter__(self):
        self.old = mp.dps
        mp.dps = DPS

    def __exit__(self, *exc):
        mp.dps = self.old


def close(a, b, tol=TOL, floor=mpf(10) ** -35) -> bool:
    """|a - b| <= tol max(|a|, |b|) + floor (the floor far below every delta compared)."""
    return abs(a - b) <= tol * max(abs(a), abs(b)) + floor


def fmt(x) -> str:
    return mpmath.nstr(x, 12)
