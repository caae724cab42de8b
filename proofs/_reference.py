"""Independent reference implementations, shared by the tests and the proof checks.

Nothing here imports ``exactdp``: every value is computed from first
principles so that the tests (``tests/``) and the proof checks (``proofs/``)
compare the library with an unrelated computation. New shared references
(trade-off curves, Renyi divergences, Gaussian quantities, ...) belong here too.

* :func:`hockey_stick_delta` is Murtagh-Vadhan Theorem 1.5 read literally:
  the composed privacy loss of ``k`` copies of the randomized response of
  Definition 3.1 (Kairouz-Oh-Viswanath's ``\\tilde M_{eps,delta}``), measured by
  the hockey-stick divergence
  ``max_Q P0^k(Q) - t P1^k(Q) = sum_x max(P0^k(x) - t P1^k(x), 0)``,
  summed over every ``x`` in ``{0,1,2,3}^k`` in exact rational arithmetic.
* :func:`kov_delta_g` is Kairouz-Oh-Viswanath Theorem 3.3 (homogeneous case).
* :func:`exp_bracket` encloses ``e^x`` for rational ``x`` by its Taylor series
  with a rigorous tail bound (rationals only).
* :func:`commensurable` decides whether rationals ``w_i >= 1`` are all integer
  powers of one rational base, from prime factorisations.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from math import comb

import mpmath
import sympy

# --------------------------------------------------------------------------
# Murtagh-Vadhan Theorem 1.5 by brute force over {0,1,2,3}^k


def rr_distribution(w, delta):
    """Definition 3.1: output laws of the randomized response on b = 0 and b = 1.

    ``w = e^eps`` (any type supporting field operations: Fraction or mpf).
    Outputs 0..3; b = 0: (delta, (1-delta) w/(1+w), (1-delta)/(1+w), 0),
    b = 1 mirrored.
    """
    a = (1 - delta) * w / (1 + w)
    b = (1 - delta) / (1 + w)
    zero = delta * 0
    return (delta, a, b, zero), (zero, b, a, delta)


def hockey_stick_delta(ws, deltas, t):
    """``sum_x max(P0^k(x) - t P1^k(x), 0)`` over all ``x`` in ``{0,1,2,3}^k``.

    Exact when ``ws``, ``deltas`` and ``t`` are Fractions; with mpmath numbers
    it is the same formula in floating point (an approximation).
    """
    laws = [rr_distribution(w, d) for w, d in zip(ws, deltas)]
    k = len(laws)
    total = t * 0
    for x in product(range(4), repeat=k):
        p0 = 1
        p1 = 1
        for i, xi in enumerate(x):
            p0 = p0 * laws[i][0][xi]
            p1 = p1 * laws[i][1][xi]
        d = p0 - t * p1
        if d > 0:
            total += d
    return total


def hockey_stick_mp(eps_list, deltas, t, prec=300):
    """The same sum for ``w_i = e^{eps_i}`` in mpmath at ``prec`` bits (approximate).

    ``eps_list`` are rationals (Fractions) and ``t`` an mpmath number or a
    callable producing one at the working precision.
    """
    with mpmath.workprec(prec):
        ws = [mpmath.exp(mpmath.mpf(e.numerator) / e.denominator) for e in eps_list]
        ds = [mpmath.mpf(d.numerator) / d.denominator for d in deltas]
        tt = t() if callable(t) else t
        return mpf_to_fraction(mpmath.mpf(hockey_stick_delta(ws, ds, tt)))


def mpf_to_fraction(x) -> Fraction:
    """The exact value of a finite mpmath ``mpf`` as a Fraction."""
    m, e = x.man_exp
    m, e = int(m), int(e)
    return Fraction(m * 2 ** e) if e >= 0 else Fraction(m, 2 ** -e)


# --------------------------------------------------------------------------
# Kairouz-Oh-Viswanath Theorem 3.3


def kov_delta_i(k: int, w: Fraction, i: int) -> Fraction:
    """``delta_i = sum_{l<i} C(k,l) (w^{k-l} - w^{k-2i+l}) / (1+w)^k``.

    For ``w = p/q`` both numerator and denominator are multiplied by ``q^k``
    so that the sum runs over integers (fast for k in the thousands).
    """
    w = Fraction(w)
    p, q = w.numerator, w.denominator
    s = 0
    for l in range(i):
        s += comb(k, l) * (p ** (k - l) * q ** l - p ** (k - 2 * i + l) * q ** (2 * i - l))
    return Fraction(s, (p + q) ** k)


def kov_delta_g(k: int, w: Fraction, delta: Fraction, i: int) -> Fraction:
    """The delta paired with ``eps_g = (k - 2i) eps`` in KOV Theorem 3.3."""
    return 1 - (1 - delta) ** k * (1 - kov_delta_i(k, w, i))


# --------------------------------------------------------------------------
# rigorous rational brackets of e^x


def exp_bracket(x: Fraction, bits: int = 200) -> tuple[Fraction, Fraction]:
    """``lo <= e^x <= hi`` with ``hi - lo <= 2^-bits * e^x`` (x >= 0 rational).

    Taylor partial sum (every term positive, so it is a lower bound) plus the
    tail bound ``term_N * (N+1) / (N+1-x)`` valid once ``N + 1 > x``.
    Negative x: the reciprocals of the bracket of ``-x``.
    """
    x = Fraction(x)
    if x < 0:
        lo, hi = exp_bracket(-x, bits)
        return 1 / hi, 1 / lo
    s = Fraction(0)
    term = Fraction(1)
    n = 0
    eps = Fraction(1, 2 ** bits)
    while True:
        s += term
        n += 1
        term = term * x / n  # x^n / n!
        if n + 1 > 2 * x and term <= eps * s / 2:
            tail = term * (n + 1) / (n + 1 - x)
            return s, s + tail


def exp_outer(lo_exp: Fraction, hi_exp: Fraction, bits: int = 200) -> tuple[Fraction, Fraction]:
    """Rationals ``a <= e^lo_exp`` and ``b >= e^hi_exp`` (a bracket just outside)."""
    return exp_bracket(lo_exp, bits)[0], exp_bracket(hi_exp, bits)[1]


# --------------------------------------------------------------------------
# lattice structure, decided from prime factorisations


def _exponent_vector(q: Fraction) -> dict:
    v = dict(sympy.factorint(q.numerator))
    for p, e in sympy.factorint(q.denominator).items():
        v[p] = v.get(p, 0) - e
    return v


def commensurable(ws) -> bool:
    """True iff every rational ``w_i >= 1`` is an integer power of one rational base.

    ``w = b^a`` for all i iff the exponent vectors of the ``w_i != 1`` are
    pairwise proportional (they are then integer multiples of the primitive
    vector on their common line; all ratios are positive because every
    ``log w_i > 0``).
    """
    vecs = [_exponent_vector(Fraction(w)) for w in ws if w != 1]
    if not vecs:
        return True
    v0 = vecs[0]
    primes = set()
    for v in vecs:
        primes |= set(v)
    ps = sorted(primes)
    for v in vecs[1:]:
        a = [v0.get(p, 0) for p in ps]
        b = [v.get(p, 0) for p in ps]
        for i in range(len(ps)):
            for j in range(i + 1, len(ps)):
                if a[i] * b[j] != a[j] * b[i]:
                    return False
        # proportional vectors could still differ in support (one zero where the other is not)
        for ai, bi in zip(a, b):
            if (ai == 0) != (bi == 0):
                return False
    return True


def breakpoints(ws) -> list[Fraction]:
    """All ``W_S^2 / W >= 1`` (the kinks of S(t)) for rational ``ws``."""
    W = Fraction(1)
    for w in ws:
        W *= w
    out = set()
    for mask in range(1 << len(ws)):
        ws_ = Fraction(1)
        for i, w in enumerate(ws):
            if mask >> i & 1:
                ws_ *= w
        b = ws_ * ws_ / W
        if b >= 1:
            out.add(b)
    return sorted(out)



# --------------------------------------------------------------------------
# Theorem 1.5's closed form over 2^k subsets (a second, cheaper reference)


def subset_formula_delta(ws, deltas, t):
    """``1 - P (1 - S(t)/Z)`` with ``S(t) = sum_S max(W_S - t W_notS, 0)`` over
    all ``2^k`` subsets, ``P = prod (1 - delta_i)``, ``Z = prod (1 + w_i)``.

    This is the statement of Murtagh-Vadhan Theorem 1.5 in exp-space; the test
    suite checks it against :func:`hockey_stick_delta` for k <= 5 and then uses
    it for larger k.
    """
    k = len(ws)
    S = t * 0
    for mask in range(1 << k):
        a = 1
        b = 1
        for i, w in enumerate(ws):
            if mask >> i & 1:
                a = a * w
            else:
                b = b * w
        d = a - t * b
        if d > 0:
            S += d
    P = 1
    Z = 1
    for w, dl in zip(ws, deltas):
        P = P * (1 - dl)
        Z = Z * (1 + w)
    return 1 - P * (1 - S / Z)


# --------------------------------------------------------------------------
# trade-off functions (f-DP) of finite pairs, by the Neyman-Pearson lemma


def product_laws(ws, deltas):
    """The k-fold product of Definition 3.1's randomized responses, as two dicts
    outcome -> probability over ``{0,1,2,3}^k`` (zero-probability outcomes dropped)."""
    laws = [rr_distribution(w, d) for w, d in zip(ws, deltas)]
    P0, P1 = {}, {}
    for x in product(range(4), repeat=len(laws)):
        p0 = p1 = Fraction(1)
        for i, xi in enumerate(x):
            p0 *= laws[i][0][xi]
            p1 *= laws[i][1][xi]
        if p0 or p1:
            P0[x], P1[x] = p0, p1
    return P0, P1


def drop_collinear(pts):
    """``pts`` without repeated points and without points on the segment of their neighbours
    (exact for Fraction coordinates): the vertices of a polyline."""
    out = []
    for p in pts:
        if out and out[-1] == p:
            continue
        if len(out) >= 2:
            (x0, y0), (x1, y1) = out[-2], out[-1]
            if (x1 - x0) * (p[1] - y0) == (p[0] - x0) * (y1 - y0):
                out[-1] = p
                continue
        out.append(p)
    return out


def tradeoff_vertices(P0, P1):
    """Vertices ``(alpha, beta)`` of the trade-off function T(P0, P1) (alpha = P0-mass of the
    rejection region, beta = P1-mass of the acceptance region), from (0, 1) to (1, 0):
    outcomes rejected in decreasing order of P1(x)/P0(x) (Neyman-Pearson), equal ratios
    together, collinear points removed. Exact for Fraction inputs."""
    atoms = {}
    for x in set(P0) | set(P1):
        p0, p1 = P0.get(x, Fraction(0)), P1.get(x, Fraction(0))
        key = (1, Fraction(0)) if p0 == 0 else (0, -Fraction(p1) / p0)  # infinite ratio first
        a = atoms.setdefault(key, [Fraction(0), Fraction(0)])
        a[0] += p0
        a[1] += p1
    pts = [(Fraction(0), Fraction(1))]
    alpha, beta = Fraction(0), Fraction(1)
    for key in sorted(atoms, key=lambda kk: (-kk[0], kk[1])):
        alpha += atoms[key][0]
        beta -= atoms[key][1]
        pts.append((alpha, beta))
    out = drop_collinear(pts)
    if out[-1] != (Fraction(1), Fraction(0)):
        out.append((Fraction(1), Fraction(0)))
    return out
