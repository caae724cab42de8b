"""Exact trade-off functions of finite distributions (Vadhan-Zhang Definition 1.6, Proposition 1.7).

A pair of finite distributions is a list of ``(p, q)`` masses, ``p`` under the null
hypothesis (dataset x) and ``q`` under the alternative (dataset x'); the type I error of a
rejection rule phi is ``sum p phi``, its type II error ``1 - sum q phi`` (Definition 1.6).

A piecewise-linear trade-off function is a tuple of breakpoints ``((0, f(0)), ..., (1, 0))``
with strictly increasing abscissae (Fractions); :func:`value` interpolates.

Two independent computations of ``T(P, Q)``:

* :func:`tradeoff` -- Neyman-Pearson: reject outcomes in decreasing order of ``q/p``;
* :func:`tradeoff_brute` -- every deterministic test (all subsets S), then randomisation:
  the lower convex hull of the points ``(P(S), 1 - Q(S))``.

Guarantee: exact (Fractions) throughout.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F
from typing import Iterable, List, Sequence, Tuple

Pairs = List[Tuple[F, F]]
TF = Tuple[Tuple[F, F], ...]

ZERO, ONE = F(0), F(1)
#: T(P, P): identical distributions, f(alpha) = 1 - alpha.
IDENTITY: TF = ((ZERO, ONE), (ONE, ZERO))
#: T(P, Q) for disjoint supports: f = 0.
PERFECT: TF = ((ZERO, ZERO), (ONE, ZERO))


def _cross(o, a, b) -> F:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def lower_hull(points: Iterable[Tuple[F, F]]) -> TF:
    """Lower convex hull (monotone chain) of points, from the least to the largest abscissa."""
    best = {}
    for x, y in points:
        x, y = F(x), F(y)
        if x not in best or y < best[x]:
            best[x] = y
    pts = sorted(best.items())
    out: list = []
    for pt in pts:
        while len(out) >= 2 and _cross(out[-2], out[-1], pt) <= 0:
            out.pop()
        out.append(pt)
    return tuple(out)


def normalize(pts: Sequence[Tuple[F, F]]) -> TF:
    """Drop repeated abscissae (keep the least value) and collinear interior points."""
    out: list = []
    for x, y in pts:
        x, y = F(x), F(y)
        if out and out[-1][0] == x:
            if y < out[-1][1]:
                out[-1] = (x, y)
            continue
        out.append((x, y))
    res: list = []
    for pt in out:
        while len(res) >= 2 and _cross(res[-2], res[-1], pt) == 0:
            res.pop()
        res.append(pt)
    return tuple(res)


def tradeoff(pairs: Iterable[Tuple[F, F]]) -> TF:
    """``T(P, Q)`` by Neyman-Pearson (outcomes rejected in decreasing likelihood ratio q/p)."""
    pairs = [(F(p), F(q)) for p, q in pairs]
    q_free = sum((q for p, q in pairs if p == 0), ZERO)
    rest = sorted(((p, q) for p, q in pairs if p > 0), key=lambda t: t[1] / t[0], reverse=True)
    a, b = ZERO, ONE - q_free
    pts = [(a, b)]
    for p, q in rest:
        a += p
        b -= q
        pts.append((a, b))
    return normalize(pts)


def tradeoff_brute(pairs: Sequence[Tuple[F, F]]) -> TF:
    """``T(P, Q)`` as Definition 1.6 reads: every deterministic test S (rejection set), then
    randomised tests (convex combinations): the lower convex hull of ``(P(S), 1 - Q(S))``."""
    pts = []
    n = len(pairs)
    for mask in range(1 << n):
        a = sum((pairs[i][0] for i in range(n) if mask >> i & 1), ZERO)
        b = ONE - sum((pairs[i][1] for i in range(n) if mask >> i & 1), ZERO)
        pts.append((a, b))
    h = lower_hull(pts)
    # inf over tests with alpha_phi <= alpha: the running minimum (the hull is already non-increasing)
    return normalize(h)


def value(f: TF, a) -> F:
    """``f(a)`` by linear interpolation between breakpoints, ``a`` in [0, 1]."""
    a = F(a)
    if a < 0 or a > 1:
        raise ValueError(f"alpha = {a} outside [0, 1]")
    lo, hi = 0, len(f) - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if f[mid][0] <= a:
            lo = mid
        else:
            hi = mid
    (x0, y0), (x1, y1) = f[lo], f[hi]
    if a == x0:
        return y0
    if a == x1:
        return y1
    return y0 + (y1 - y0) * (a - x0) / (x1 - x0)


def abscissae(*fs: TF) -> List[F]:
    return sorted({x for f in fs for x, _ in f})


def le(f: TF, g: TF) -> bool:
    """``f(a) <= g(a)`` for every a in [0, 1] (exact: both are linear between the union of breakpoints)."""
    return all(value(f, a) <= value(g, a) for a in abscissae(f, g))


def equal(f: TF, g: TF) -> bool:
    return all(value(f, a) == value(g, a) for a in abscissae(f, g))


def first_violation(f: TF, g: TF):
    """An abscissa where f(a) > g(a), or None."""
    for a in abscissae(f, g):
        if value(f, a) > value(g, a):
            return a
    return None


def is_tradeoff(f: TF) -> Tuple[bool, str]:
    """Proposition 1.7's conditions on a piecewise-linear f: defined on [0, 1] with values in [0, 1],
    convex, non-increasing, f(x) <= 1 - x (continuity holds by construction of an interpolant)."""
    if f[0][0] != 0 or f[-1][0] != 1:
        return False, "domain is not [0, 1]"
    if any(not (0 <= y <= 1) for _, y in f):
        return False, "value outside [0, 1]"
    slopes = [(f[i + 1][1] - f[i][1]) / (f[i + 1][0] - f[i][0]) for i in range(len(f) - 1)]
    if any(s > 0 for s in slopes):
        return False, "increasing somewhere"
    if any(slopes[i] > slopes[i + 1] for i in range(len(slopes) - 1)):
        return False, "not convex"
    if any(y > 1 - x for x, y in f):
        return False, "f(x) > 1 - x"
    return True, ""


def envelope(fs: Iterable[TF]) -> TF:
    """The least upper bound of finitely many trade-off functions in Vadhan-Zhang's poset
    (f <= g iff f(a) >= g(a)): the greatest convex minorant of min_f f, i.e. the lower convex
    hull of all their breakpoints."""
    return normalize(lower_hull(pt for f in fs for pt in f))


def canonical(f: TF) -> Pairs:
    """A pair (P, P') with T(P, P') = f (one outcome per linear piece, plus the free-rejection and
    free-acceptance outcomes); the realisation behind Proposition 1.7's "if" direction."""
    out = []
    if f[0][1] < 1:
        out.append((ZERO, ONE - f[0][1]))
    for (x0, y0), (x1, y1) in zip(f, f[1:]):
        out.append((x1 - x0, y0 - y1))
    return [(p, q) for p, q in out if p or q]


def feps_value(w, d, a) -> F:
    """``f_{eps,delta}(alpha) = max{0, 1 - delta - e^eps alpha, e^-eps (1 - delta - alpha)}`` as printed (w = e^eps)."""
    w, d, a = F(w), F(d), F(a)
    return max(ZERO, 1 - d - w * a, (1 - d - a) / w)


def feps(w, d) -> TF:
    """Breakpoints of f_{eps,delta} (w = e^eps >= 1, 0 <= delta <= 1)."""
    w, d = F(w), F(d)
    c = (1 - d) / (1 + w)
    return normalize([(ZERO, 1 - d), (c, c), (1 - d, ZERO), (ONE, ZERO)])


def rr_pair(w, d=0) -> Pairs:
    """(eps, delta)-randomized response (Kairouz-Oh-Viswanath): T(RR(0), RR(1)) = f_{eps,delta}."""
    w, d = F(w), F(d)
    a = 1 - d
    return [(d, ZERO), (a * w / (1 + w), a / (1 + w)), (a / (1 + w), a * w / (1 + w)), (ZERO, d)]


def product_pairs(*pps: Sequence[Tuple[F, F]]) -> Pairs:
    """The pair of product distributions (independent coordinates)."""
    out = [(ONE, ONE)]
    for pp in pps:
        out = [(p * p2, q * q2) for p, q in out for p2, q2 in pp]
    return out


def tensor(*fs: TF) -> TF:
    """f_1 (x) ... (x) f_k = T(P_1 x ... x P_k, Q_1 x ... x Q_k) for T(P_i, Q_i) = f_i."""
    return tradeoff(product_pairs(*[canonical(f) for f in fs]))


def delta_for(f: TF, w) -> F:
    """The least delta with f >= f_{eps,delta} (w = e^eps): max over breakpoints of both sides."""
    w = F(w)
    d = ZERO
    for a, b in f:
        d = max(d, 1 - b - w * a, 1 - a - w * b)
    return d


def hockey(pairs: Sequence[Tuple[F, F]], w) -> F:
    """``max_S P(S) - w Q(S) = sum (p - w q)^+`` (one order only)."""
    w = F(w)
    return sum((p - w * q for p, q in pairs if p > w * q), ZERO)


def hockey_brute(pairs: Sequence[Tuple[F, F]], w) -> F:
    """``max over all S of P(S) - w Q(S)``, literally over all subsets."""
    w = F(w)
    n = len(pairs)
    best = ZERO
    for mask in range(1 << n):
        s = sum((pairs[i][0] - w * pairs[i][1] for i in range(n) if mask >> i & 1), ZERO)
        best = max(best, s)
    return best


def swap(pairs):
    return [(q, p) for p, q in pairs]


# --------------------------------------------------------------------------
# Claim 3.4: the chain rule


def chain_rule(items: Sequence[Tuple[F, F, TF]]) -> TF:
    """Equation (9): ``inf { E_{x~X'} f_x(a_x) : E_{x~X} a_x <= alpha }`` over
    x in supp(X) and supp(X'), for items ``(X(x), X'(x), f_x)``. Computed by merging the
    linear pieces of the scaled f_x in order of slope (a fractional knapsack)."""
    inter = [(F(p), F(q), f) for p, q, f in items if p > 0 and q > 0]
    start = sum((q * f[0][1] for p, q, f in inter), ZERO)
    segs = []
    for p, q, f in inter:
        for (x0, y0), (x1, y1) in zip(f, f[1:]):
            du, dc = p * (x1 - x0), q * (y1 - y0)
            segs.append((dc / du, du, dc))
    segs.sort(key=lambda s: s[0])
    a, b = ZERO, start
    pts = [(a, b)]
    for _, du, dc in segs:
        a += du
        b += dc
        pts.append((a, b))
    if a < 1:
        pts.append((ONE, b))
    return normalize(pts)


def chain_rule_at(items: Sequence[Tuple[F, F, TF]], alpha) -> F:
    """Equation (9) at one alpha by brute force: an optimum of this separable convex piecewise-linear
    programme has every a_x at a breakpoint of f_x except at most one, which the budget fixes."""
    alpha = F(alpha)
    inter = [(F(p), F(q), f) for p, q, f in items if p > 0 and q > 0]
    best = None
    n = len(inter)
    grids = [[x for x, _ in f] for _, _, f in inter]
    for star in range(-1, n):
        others = [i for i in range(n) if i != star]
        for choice in itertools.product(*[grids[i] for i in others]):
            used = sum((inter[i][0] * c for i, c in zip(others, choice)), ZERO)
            cost = sum((inter[i][1] * value(inter[i][2], c) for i, c in zip(others, choice)), ZERO)
            if star == -1:
                if used <= alpha:
                    best = cost if best is None else min(best, cost)
                continue
            p, q, f = inter[star]
            a = (alpha - used) / p
            if a < 0:
                continue
            a = min(a, ONE)
            c = cost + q * value(f, a)
            best = c if best is None else min(best, c)
    return best if best is not None else ZERO


# --------------------------------------------------------------------------
# instances


def rand_dist(rng, n: int, den: int = 9, zeros: bool = True) -> List[F]:
    while True:
        ws = [rng.randint(0 if zeros else 1, den) for _ in range(n)]
        if sum(ws):
            s = sum(ws)
            return [F(w, s) for w in ws]


def rand_pairs(rng, n: int, den: int = 9, zeros: bool = True) -> Pairs:
    P = rand_dist(rng, n, den, zeros)
    Q = rand_dist(rng, n, den, zeros)
    return list(zip(P, Q))


def rand_tf(rng, n: int = 4, den: int = 9) -> TF:
    """A random piecewise-linear trade-off function (that of a random pair on n outcomes)."""
    return tradeoff(rand_pairs(rng, n, den))


def rand_kernel(rng, n: int, m: int, den: int = 6) -> List[List[F]]:
    return [rand_dist(rng, m, den) for _ in range(n)]


def push(pairs: Sequence[Tuple[F, F]], K) -> Pairs:
    """Post-process a pair by a Markov kernel K (rows: outcomes of the pair)."""
    m = len(K[0])
    return [(sum((pairs[i][0] * K[i][j] for i in range(len(pairs))), ZERO),
             sum((pairs[i][1] * K[i][j] for i in range(len(pairs))), ZERO)) for j in range(m)]


def fmt_tf(f: TF) -> str:
    return "[" + ", ".join(f"({x}, {y})" for x, y in f) + "]"


def fmt_pairs(pp) -> str:
    return "P=(" + ", ".join(str(p) for p, _ in pp) + ") Q=(" + ", ".join(str(q) for _, q in pp) + ")"
