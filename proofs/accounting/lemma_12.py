"""Accounting Lemma 12: lattice tails as contour integrals, and the three bounds that certify the
trapezoidal rule on a circle (the contour kernel, ``exactdp/engines/contour.py``).

For ``C(z) = prod_j (1 + z^(a_j))^(n_j) = sum c_m z^m``, ``w > 0``, ``R > w``, ``r = R / w``:

(a) ``sum_{m >= M} c_m w^m = (1/2pi) int_{-pi}^{pi} f``, ``f(theta) = C(R e^(i theta))
    (r e^(i theta))^-M / (1 - e^(-i theta) / r)``;
(b) ``|C(R e^(i theta))| <= C(R) exp(-G(theta) / 2)``, ``G = sum n_j kappa_j sin^2(a_j theta/2)``,
    ``kappa_j = 4 x_j / (1 + x_j)^2``, ``x_j = R^(a_j)``;
(c) ``sin x >= (23/24) x`` for ``0 <= x <= 1/2``;
(d) the ``N``-point trapezoidal rule ``T_N = (1/N) sum_k f(2 pi k / N)`` errs by at most
    ``2 M_d / (e^(d N) - 1)`` for ``0 < d < ln r``, ``M_d = max(C(R e^-d) e^(M d),
    C(R e^d) e^(-M d)) r^-M / (1 - e^d / r)``;
(e) keeping only the points with ``|theta_k| <= theta_0`` errs by at most (d)'s bound plus
    ``C(R) r^-M max_{|theta_k| > theta_0} e^(-G(theta_k) / 2) / (1 - 1/r)``.

Checks (mpmath at 60 digits against exact rational tails from the expanded polynomial):
seeded random small compositions (2-4 groups, exponents 1..5, counts 1..12), rational ``w``
and ``R``, thresholds above and below the mean: (a) by the rule with enough points (``4A + 8``
at least) that (d)'s bound is below ``10^-60``; (b) at random
angles; (c) at ``x = 1/2`` (``sin x / x`` decreases on ``(0, pi)``) and on a grid; (d) for
``N`` from a third of the degree upwards (so that the rule's error is visible) and several
``d``; (e) with ``theta_0`` a random fraction of ``pi``.
"""

from __future__ import annotations

from fractions import Fraction as F

import mpmath

from .._framework import Proof, statement

DPS = 60


def mp(x):
    """An mpf from a Fraction (exactly up to the working precision) or a number."""
    return mpmath.mpf(x.numerator) / x.denominator if isinstance(x, F) else mpmath.mpf(x)


def coefficients(groups) -> list[int]:
    """The coefficients of ``prod (1 + z^a)^n`` by repeated convolution (exact integers)."""
    c = [1]
    for a, n in groups:
        for _ in range(n):
            out = c + [0] * a
            for i, x in enumerate(c):
                out[i + a] += x
            c = out
    return c


def exact_tail(cs, w: F, M: int) -> F:
    return sum((F(c) * w**m for m, c in enumerate(cs) if m >= M), F(0))


def C(groups, z):
    v = mpmath.mpf(1)
    for a, n in groups:
        v *= (1 + z**a) ** n
    return v


def integrand(groups, R, r, M, theta):
    """``f(theta)`` of (a)."""
    z = mpmath.expj(theta)
    return C(groups, R * z) * (r * z) ** (-M) / (1 - 1 / (r * z))


def G(groups, R, theta):
    out = mpmath.mpf(0)
    for a, n in groups:
        x = mp(R) ** a
        out += n * 4 * x / (1 + x) ** 2 * mpmath.sin(a * theta / 2) ** 2
    return out


def outside_bound(groups, R, theta):
    """(b)'s bound on ``|C(R e^(i theta))|``."""
    return C(groups, mp(R)) * mpmath.exp(-G(groups, R, theta) / 2)


def sin_ratio():
    """(c)'s constant."""
    return mpmath.mpf(23) / 24


def rule_bound(groups, R, r, M, d, N):
    """(d)'s bound on ``|T_N - U|``."""
    R, r, d = mp(R), mp(r), mpmath.mpf(d)
    md = max(C(groups, R * mpmath.exp(-d)) * mpmath.exp(M * d), C(groups, R * mpmath.exp(d)) * mpmath.exp(-M * d))
    md = md * r ** (-M) / (1 - mpmath.exp(d) / r)
    return 2 * md / (mpmath.exp(d * N) - 1)


def _instance(rng):
    groups = [(rng.randint(1, 5), rng.randint(1, 12)) for _ in range(rng.randint(2, 4))]
    cs = coefficients(groups)
    A = len(cs) - 1
    w = F(rng.randint(5, 30), 10)
    R = w * F(rng.randint(11, 40), 10)
    M = rng.randint(1, A)
    return groups, cs, A, w, R, M


@statement("Lemma 12", "Lattice tails as contour integrals: sum_{m >= M} c_m w^m = (1/2pi) int f on |z| = R > w; "
           "|C(R e^(i theta))| <= C(R) exp(-G/2); sin x >= (23/24) x on [0, 1/2]; the trapezoidal rule's error "
           "2 M_d / (e^(dN) - 1) with M_d from C(R e^(-+d)) by convexity; the points beyond theta_0 bounded by "
           "exp(-G/2)")
def lemma(p: Proof) -> None:
    rng = p.rng
    na = nb = nd = ne = 0
    with mpmath.workdps(DPS):
        # (c): sin x / x decreases on (0, pi), so x = 1/2 is the worst point; a grid besides
        for i in range(1, 51):
            x = mpmath.mpf(i) / 100
            if not p.require(mpmath.sin(x) >= sin_ratio() * x, "sin x >= (23/24) x on [0, 1/2]",
                             lambda: f"x = {x}: sin x / x = {mpmath.sin(x) / x}"):
                return
        p.instances("sin x >= (23/24) x at x = k/100, k = 1..50", 50)
        for trial in range(10 if p.full else 5):
            groups, cs, A, w, R, M = _instance(rng)
            r = R / w
            exact = exact_tail(cs, w, M)
            ex = mpmath.mpf(exact.numerator) / exact.denominator
            scale = C(groups, mp(R)) * mp(r) ** (-M)  # the integrand's size
            # (a): the rule with enough points is the integral to within (d)'s bound (below 10^-DPS)
            N = max(4 * A + 8, int(DPS * mpmath.log(10) / (mpmath.log(mp(r)) * 9 / 10)) + 1)
            TN = mpmath.re(mpmath.fsum(integrand(groups, mp(R), mp(r), M, 2 * mpmath.pi * k / N) for k in range(N))) / N
            tol = rule_bound(groups, R, r, M, mpmath.log(mp(r)) * 9 / 10, N) + mpmath.mpf(10) ** (-DPS + 15) * scale
            if not p.require(abs(TN - ex) <= tol, "(a) the tail as a contour integral",
                             lambda: f"groups {groups}, w {w}, R {R}, M {M}: integral {TN}, tail {ex}"):
                return
            na += 1
            for _ in range(6):
                th = mpmath.mpf(rng.random()) * mpmath.pi
                lhs = abs(C(groups, mp(R) * mpmath.expj(th)))
                if not p.require(lhs <= outside_bound(groups, R, th) * (1 + mpmath.mpf(10) ** (-DPS + 10)),
                                 "(b) |C(R e^(i theta))| <= C(R) exp(-G/2)",
                                 lambda: f"groups {groups}, R {R}, theta {th}: {lhs} > {outside_bound(groups, R, th)}"):
                    return
                nb += 1
            lnr = mpmath.log(mp(r))
            for N in sorted({max(2, A // 3), max(3, A // 2), A, A + 3}):
                vals = [integrand(groups, mp(R), mp(r), M, 2 * mpmath.pi * k / N) for k in range(N)]
                TN = mpmath.re(mpmath.fsum(vals)) / N
                for frac in (F(1, 4), F(1, 2), F(9, 10)):
                    d = lnr * mpmath.mpf(frac.numerator) / frac.denominator
                    b = rule_bound(groups, R, r, M, d, N)
                    if not p.require(abs(TN - ex) <= b * (1 + mpmath.mpf(10) ** -20) + mpmath.mpf(10) ** (-DPS + 15) * scale,
                                     "(d) the trapezoidal rule's error bound",
                                     lambda: f"groups {groups}, w {w}, R {R}, M {M}, N {N}, d {d}: "
                                             f"|T_N - U| = {abs(TN - ex)} > {b}"):
                        return
                    nd += 1
                # (e): the points with |theta_k| <= theta0 only
                th0 = mpmath.pi * mpmath.mpf(rng.randint(1, 9)) / 10
                kept = [v for k, v in enumerate(vals) if min(k, N - k) * 2 * mpmath.pi / N <= th0]
                left = [2 * mpmath.pi * k / N for k in range(N) if min(k, N - k) * 2 * mpmath.pi / N > th0]
                part = mpmath.re(mpmath.fsum(kept)) / N
                gmin = min((G(groups, R, t) for t in left), default=mpmath.inf)
                out = scale * mpmath.exp(-gmin / 2) / (1 - 1 / mp(r)) if left else 0
                b = rule_bound(groups, R, r, M, lnr / 2, N) + out
                if not p.require(abs(part - ex) <= b * (1 + mpmath.mpf(10) ** -20) + mpmath.mpf(10) ** (-DPS + 15) * scale,
                                 "(e) the kept points' error bound",
                                 lambda: f"groups {groups}, R {R}, M {M}, N {N}, theta0 {th0}: {abs(part - ex)} > {b}"):
                    return
                ne += 1
    p.instances("(a) tails of random small compositions against the contour integral (the rule within 10^-60)",
                na, "random")
    p.instances("(b) |C(R e^(i theta))| <= C(R) exp(-G/2) at random angles", nb, "random")
    p.instances("(d) trapezoidal rule on the circle within 2 M_d / (e^(dN) - 1), N from A/3, d in (0, ln r)", nd,
                "random")
    p.instances("(e) the points within theta_0 within (d)'s bound plus the outside bound", ne, "random")
