"""The k-fold adaptive composition game of Section 2 (Definition 2.3), exactly.

An adversary is described by its coin distribution and, for every round i and
history (r, y_1, ..., y_{i-1}), the pair of output distributions
``(M_i(D_{i,0}), M_i(D_{i,1}))`` of the mechanism and databases it picks there.
:func:`random_adversary` draws such choices (memoised per history) that are
(eps_i, delta_i)-DP; :func:`views` returns the exact view distributions V^0, V^1
over (r, y_1, ..., y_k). Guarantee: exact (Fractions).
"""

from __future__ import annotations

from fractions import Fraction as F
from typing import Callable, Dict, List, Sequence, Tuple

from . import _common as C

Pair = Tuple[List[F], List[F]]


def shrink_to_dp(p0: Sequence[F], p1: Sequence[F], w: F, delta: F) -> Pair:
    """Move p0, p1 toward their midpoint (by factors 1, 1/2, 1/4, ..., then 0) until the pair is (ln w, delta)-DP."""
    s = F(1)
    for _ in range(40):
        m = [(a + b) / 2 for a, b in zip(p0, p1)]
        q0 = [mi + s * (a - mi) for mi, a in zip(m, p0)]
        q1 = [mi + s * (b - mi) for mi, b in zip(m, p1)]
        if C.hs_pair(q0, q1, w) <= delta and C.hs_pair(q1, q0, w) <= delta:
            return q0, q1
        s /= 2
    m = [(a + b) / 2 for a, b in zip(p0, p1)]  # s = 0: identical outputs are (eps, 0)-DP for every eps
    return list(m), list(m)


class Adversary:
    """coins: list of (probability, r); choose(i, r, ys) -> (p0, p1) on range(m_i)."""

    def __init__(self, coins: List[Tuple[F, int]], choose: Callable[[int, int, tuple], Pair]):
        self.coins = coins
        self.choose = choose


def random_adversary(rng, ws: Sequence[F], ds: Sequence[F], m: int = 3, ncoins: int = 2, adaptive: bool = True) -> Adversary:
    memo: Dict[tuple, Pair] = {}
    cw = [rng.randint(1, 3) for _ in range(ncoins)]
    coins = [(F(c, sum(cw)), r) for r, c in enumerate(cw)]

    def choose(i: int, r: int, ys: tuple) -> Pair:
        key = (i, r, ys) if adaptive else (i,)
        if key not in memo:
            p0, p1 = C.rand_dist(rng, m), C.rand_dist(rng, m)
            memo[key] = shrink_to_dp(p0, p1, ws[i], ds[i])
        return memo[key]

    return Adversary(coins, choose)


def views(adv: Adversary, k: int) -> Tuple[Dict[tuple, F], Dict[tuple, F]]:
    """Exact distributions of the adversary's view (r, y_1, ..., y_k) in games b = 0 and b = 1."""
    out = []
    for b in (0, 1):
        V: Dict[tuple, F] = {}
        frontier = [((r,), pr) for pr, r in adv.coins]
        for i in range(k):
            nxt = []
            for h, pr in frontier:
                pair = adv.choose(i, h[0], h[1:])
                for y, q in enumerate(pair[b]):
                    if q:
                        nxt.append((h + (y,), pr * q))
            frontier = nxt
        for h, pr in frontier:
            V[h] = V.get(h, F(0)) + pr
        out.append(V)
    return out[0], out[1]
