"""Exact rational transcriptions for the accounting lemmas: finite pairs, loss laws and the
discretisations of Lemmas 7-9.

Guarantee: exact. Every mass is a ``Fraction``; a loss is represented by its exponential
``e^L`` (a positive ``Fraction``; ``None`` for L = +inf), so that with a rational ``alpha =
e^eps`` and a lattice step h with ``r = e^h`` rational every comparison and every
hockey-stick value is exact.

* A *pair* is a list of atoms ``(p, q)``: the masses of one outcome under P and under Q.
* A *loss law* is ``(atoms, m_inf)``: ``atoms`` maps ``e^L`` to its P-mass, ``m_inf`` is
  P(L = +inf). Atoms with p = 0 (L = -inf) carry no P-mass and are left out.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction as F
from typing import Dict, List, Optional, Sequence, Tuple

Pair = List[Tuple[F, F]]
Law = Tuple[Dict[F, F], F]

#: alpha = e^eps on which the curves are compared (eps < 0 included: dominance is for every eps).
ALPHAS = [F(1, 4), F(1, 2), F(4, 5), F(1), F(11, 10), F(5, 4), F(3, 2), F(2), F(3), F(5), F(10), F(40)]


# --------------------------------------------------------------------------
# pairs


def hs(pair: Pair, alpha: F) -> F:
    """H_alpha(P||Q) = sum over outcomes of (p - alpha q)_+ (the optimal S is {p > alpha q})."""
    return sum((p - alpha * q for p, q in pair if p > alpha * q), F(0))


def hs_sup(pair: Pair, alpha: F) -> F:
    """sup_S P(S) - alpha Q(S) by brute force over every set S of outcomes (the definition)."""
    d = [p - alpha * q for p, q in pair]
    v = [F(0)] * (1 << len(d))
    for mask in range(1, 1 << len(d)):  # v[S] = v[S minus its lowest element] + d[lowest]
        low = (mask & -mask).bit_length() - 1
        v[mask] = v[mask & (mask - 1)] + d[low]
    return max(v)


def product(a: Pair, b: Pair) -> Pair:
    """The product pair (P1 x P2, Q1 x Q2), outcomes merged by likelihood ratio (a
    sufficient statistic: merging outcomes of equal ratio leaves every H_alpha unchanged)."""
    return merge([(pa * pb, qa * qb) for pa, qa in a for pb, qb in b])


def power(a: Pair, k: int) -> Pair:
    out: Pair = [(F(1), F(1))]
    for _ in range(k):
        out = product(out, a)
    return out


def merge(pair: Pair) -> Pair:
    """Outcomes of equal likelihood ratio p/q merged (p = 0 and q = 0 outcomes kept apart)."""
    acc: Dict[object, List[F]] = {}
    for p, q in pair:
        if p == 0 and q == 0:
            continue
        key = "inf" if q == 0 else p / q
        s = acc.setdefault(key, [F(0), F(0)])
        s[0] += p
        s[1] += q
    return [(p, q) for p, q in acc.values()]


def random_pair(rng, n: int, *, inf: bool = True, zero: bool = True, den: int = 12) -> Pair:
    """A random pair on n outcomes with rational masses; optionally one outcome with q = 0
    (loss +inf) and one with p = 0 (loss -inf)."""
    ps = [rng.randint(1, den) for _ in range(n)]
    qs = [rng.randint(1, den) for _ in range(n)]
    if inf and n >= 3:
        qs[0] = 0
    if zero and n >= 4:
        ps[1] = 0
    sp, sq = sum(ps), sum(qs)
    return [(F(p, sp), F(q, sq)) for p, q in zip(ps, qs)]


# --------------------------------------------------------------------------
# loss laws


def loss_law(pair: Pair) -> Law:
    """The law of L = ln(p/q) under P, as ``({e^L: mass}, P(L = +inf))``."""
    atoms: Dict[F, F] = {}
    m_inf = F(0)
    for p, q in pair:
        if p == 0:
            continue
        if q == 0:
            m_inf += p
        else:
            atoms[p / q] = atoms.get(p / q, F(0)) + p
    return atoms, m_inf


def delta_formula(law: Law, alpha: F) -> F:
    """Lemma 1's right side: P(L = +inf) + E_P[(1 - e^{eps - L})_+ ; L < inf], alpha = e^eps."""
    atoms, m_inf = law
    return m_inf + sum((m * (1 - alpha / e) for e, m in atoms.items() if e > alpha), F(0))


def law_total(law: Law) -> F:
    return sum(law[0].values(), F(0)) + law[1]


def convolve(a: Law, b: Law) -> Law:
    """The law of L_A + L_B for independent L_A, L_B (masses multiply; +inf absorbs)."""
    atoms: Dict[F, F] = {}
    for ea, ma in a[0].items():
        for eb, mb in b[0].items():
            atoms[ea * eb] = atoms.get(ea * eb, F(0)) + ma * mb
    fa = sum(a[0].values(), F(0))
    fb = sum(b[0].values(), F(0))
    m_inf = a[1] * (fb + b[1]) + fa * b[1]
    return atoms, m_inf


def law_power(a: Law, k: int) -> Law:
    out: Law = ({F(1): F(1)}, F(0))
    for _ in range(k):
        out = convolve(out, a)
    return out


# --------------------------------------------------------------------------
# lattice with r = e^h rational


def floor_log(x: F, r: F) -> int:
    """The largest integer i with r^i <= x (exact; r > 1, x > 0)."""
    i = math.floor(math.log(x) / math.log(r))
    while r ** i > x:
        i -= 1
    while r ** (i + 1) <= x:
        i += 1
    return i


def ceil_log(x: F, r: F) -> int:
    """The smallest integer i with r^i >= x (exact)."""
    i = floor_log(x, r)
    return i if r ** i == x else i + 1


def random_breaks(rng, pair: Pair, r: F, coarse: bool) -> List[int]:
    """Lattice indices a_0 < a_1 < ... covering every finite loss of ``pair``: unit bins, or
    (coarse) random widths 1..3."""
    idx = [floor_log(p / q, r) for p, q in pair if p > 0 and q > 0]
    lo, hi = min(idx) - rng.randint(0, 1), max(idx) + 1 + rng.randint(0, 1)
    out = [lo]
    while out[-1] < hi:
        out.append(out[-1] + (rng.randint(1, 3) if coarse else 1))
    return out


def bins_of(pair: Pair, r: F, breaks: Sequence[int]) -> List[Tuple[int, int, F, F]]:
    """(a, b, P(B), Q(B)) for each bin B = {r^a <= p/q < r^b} of consecutive breaks."""
    out = []
    for a, b in zip(breaks, breaks[1:]):
        P = Q = F(0)
        for p, q in pair:
            if p > 0 and q > 0 and r ** a <= p / q < r ** b:
                P += p
                Q += q
        out.append((a, b, P, Q))
    return out


def _specials(pair: Pair) -> Pair:
    """The outcomes with infinite loss: (p, 0) and (0, q)."""
    inf = sum((p for p, q in pair if q == 0), F(0))
    neg = sum((q for p, q in pair if p == 0), F(0))
    return [x for x in ((inf, F(0)), (F(0), neg)) if x != (0, 0)]


def connect_dots(pair: Pair, r: F, breaks: Sequence[int]) -> Pair:
    """Lemma 7's split: each bin's (P(B), Q(B)) to its endpoints r^a, r^b:
    p_hi = (P(B) - r^a Q(B)) / (1 - r^(a-b)), p_lo = P(B) - p_hi, q = p e^{-l}."""
    out: Pair = []
    for a, b, P, Q in bins_of(pair, r, breaks):
        if P == 0 and Q == 0:
            continue
        p_hi = (P - r ** a * Q) / (1 - r ** (a - b))
        p_lo = P - p_hi
        out += [(p_hi, p_hi / r ** b), (p_lo, p_lo / r ** a)]
    return out + _specials(pair)


def bin_masses(pair: Pair, ratio_breaks: Sequence[F]) -> Pair:
    """Lemma 8's pair of bin masses for the partition of the finite losses at the ratios
    ``ratio_breaks`` (bins (-inf, b_0), [b_0, b_1), ..., [b_last, inf)), plus the infinite ones."""
    edges = [F(0)] + list(ratio_breaks) + [None]
    out: Pair = []
    for lo, hi in zip(edges, edges[1:]):
        P = Q = F(0)
        for p, q in pair:
            if p > 0 and q > 0 and p / q >= lo and (hi is None or p / q < hi):
                P += p
                Q += q
        if P or Q:
            out.append((P, Q))
    return out + _specials(pair)


def lattice_lower(steps: Sequence[List[Tuple[F, Optional[int], int]]], r: F, alpha: F) -> F:
    """Lemma 8's lower formula: sum over one atom per step of prod p (1 - alpha r^(sum t - sum i))_+,
    each step given as atoms (p, i, t): lattice loss l = i h (i = None for +inf), tau = t h."""
    total = F(0)
    for combo in itertools.product(*steps):
        m = F(1)
        inf = False
        s = 0
        for p, i, t in combo:
            m *= p
            if i is None:
                inf = True
            else:
                s += t - i
        if inf:
            total += m
        else:
            v = 1 - alpha * r ** s
            if v > 0:
                total += m * v
    return total


# --------------------------------------------------------------------------
# Lemma 9's modifications of a loss law


def cut_high(law: Law, c: F, upper: bool) -> Law:
    """Losses above the cut ln c: to +inf (upper) or dropped, with the +inf mass (lower)."""
    atoms, m_inf = law
    keep = {e: m for e, m in atoms.items() if e <= c}
    above = sum((m for e, m in atoms.items() if e > c), F(0))
    return (keep, m_inf + above) if upper else (keep, F(0))


def cut_low(law: Law, c: F, upper: bool) -> Law:
    """Losses below the cut ln c: moved up to the cut (upper) or dropped (lower)."""
    atoms, m_inf = law
    keep = {e: m for e, m in atoms.items() if e >= c}
    if upper:
        below = sum((m for e, m in atoms.items() if e < c), F(0))
        if below:
            keep[c] = keep.get(c, F(0)) + below
    return keep, m_inf


def round_masses(law: Law, bits: int, upper: bool) -> Law:
    """Every mass (and the +inf mass) rounded up (upper) or down (lower) to the grid 2^-bits."""
    s = 1 << bits

    def rnd(m: F) -> F:
        n = -((-m.numerator * s) // m.denominator) if upper else (m.numerator * s) // m.denominator
        return F(n, s)

    atoms, m_inf = law
    return {e: rnd(m) for e, m in atoms.items()}, rnd(m_inf)


def m_inf_bound(a: Law, b: Law) -> F:
    """Lemma 9's union bound for the +inf mass of a composition."""
    return a[1] + b[1]


def fmt_pair(pair: Pair) -> str:
    return "[" + ", ".join(f"({p}, {q})" for p, q in pair) + "]"
