"""Independent reference computations for the regions / f-DP / bounds tests.

Nothing here imports exactdp: brute force over product distributions and subsets,
the printed formulas in plain Fractions, and mpmath at high precision.
"""

from __future__ import annotations

from fractions import Fraction as F
from itertools import combinations

import mpmath

from exactdp_proofs._reference import drop_collinear


def rr_atoms(w, d):
    """KOV's (eps, delta) randomized response: atoms (P, Q) on four outputs."""
    return [(d, F(0)), ((1 - d) * w / (1 + w), (1 - d) / (1 + w)), ((1 - d) / (1 + w), (1 - d) * w / (1 + w)), (F(0), d)]


def product_atoms(pairs):
    """Atoms of the product of finite pairs, each a list of (p, q); no merging."""
    atoms = [(F(1), F(1))]
    for pr in pairs:
        atoms = [(a * c, b * e) for a, b in atoms for c, e in pr if a * c or b * e]
    return atoms


def np_curve(atoms):
    """Neyman-Pearson trade-off curve (vertices, simplified) of atoms (p, q): a direct transcription."""
    groups = {}
    for p, q in atoms:
        if p == 0 and q == 0:
            continue
        key = None if p == 0 else q / p
        g = groups.setdefault(key, [F(0), F(0)])
        g[0] += p
        g[1] += q
    keys = ([None] if None in groups else []) + sorted((k for k in groups if k is not None), reverse=True)
    pts = [(F(0), F(1))]
    a, b = F(0), F(1)
    for k in keys:
        a += groups[k][0]
        b -= groups[k][1]
        pts.append((a, b))
    return drop_collinear(pts)


def tradeoff_by_tests(P, Q, alpha):
    """T(P, Q)(alpha) by brute force over deterministic tests (subsets) and their mixtures:
    the least beta over pairs of subsets whose type I errors bracket alpha."""
    n = len(P)
    pts = []
    for r in range(n + 1):
        for S in combinations(range(n), r):
            pts.append((sum(P[i] for i in S), 1 - sum(Q[i] for i in S)))
    best = F(1)
    for a0, b0 in pts:
        if a0 <= alpha:
            best = min(best, b0)
        for a1, b1 in pts:
            if a0 < alpha < a1:
                best = min(best, b0 + (b1 - b0) * (alpha - a0) / (a1 - a0))
    return best


def f_eps_delta(w, d, a):
    """The printed f_{eps,delta}(alpha) = max{0, 1 - delta - w alpha, (1 - delta - alpha)/w}."""
    return max(F(0), 1 - d - w * a, (1 - d - a) / w)


def interp(pts, a):
    """A polyline's value at a (lowest at a vertical segment)."""
    best = None
    for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
        if x0 <= a <= x1:
            v = min(y0, y1) if x1 == x0 else y0 + (y1 - y0) * (a - x0) / (x1 - x0)
            best = v if best is None else min(best, v)
    return best


def kov_region_contains(w, d, x, y):
    """KOV eq. (3): the four inequalities of (eps, delta)-DP's privacy region."""
    return (x + w * y >= 1 - d and w * x + y >= 1 - d and (1 - x) + w * (1 - y) >= 1 - d
            and w * (1 - x) + (1 - y) >= 1 - d)


def delta_homogeneous(w, d, k, t):
    """Composed delta_g of k (ln w, d) mechanisms at e^eps_g = t (KOV's sum, Fractions)."""
    from math import comb

    s = sum(comb(k, m) * max(w ** m - t * w ** (k - m), 0) for m in range(k + 1))
    P = (1 - d) ** k
    return 1 - P + P * s / (1 + w) ** k


def mp(x):
    return mpmath.mpf(x.numerator) / x.denominator if isinstance(x, F) else mpmath.mpf(x)


def gdp_delta_mp(mu, eps):
    return mpmath.ncdf(-eps / mu + mu / 2) - mpmath.exp(eps) * mpmath.ncdf(-eps / mu - mu / 2)


def gaussian_tradeoff_mp(mu, alpha):
    return mpmath.ncdf(-mpmath.sqrt(2) * mpmath.erfinv(2 * alpha - 1) - mu) if 0 < alpha < 1 else (1 - alpha)
