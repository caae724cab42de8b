"""The k-fold composition experiment of Section 3, exactly, with every deterministic adversary.

A *family* is a list of pairs ``(M(D^{i,0}), M(D^{i,1}))`` of output distributions, each
(eps, delta)-DP: what the adversary may pick at a step (a mechanism, a query and a
pair of neighbouring databases; the swapped pair is in the family as well). A
deterministic adversary maps the history of outputs ``(y_1, ..., y_{i-1})`` to the
index of the pair used at step i; :func:`deterministic_adversaries` enumerates all of
them (for small k and families) and :func:`views` returns the exact distributions of
the view ``V^b = (y_1, ..., y_k)`` for b = 0, 1. Randomized adversaries (coins R in the
view) are mixtures: :func:`views_randomized`.

Guarantee: exact (Fractions).
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F
from typing import Dict, Iterator, List, Sequence, Tuple

from . import _common as C

Pair = Tuple[List[F], List[F]]
Adversary = Dict[tuple, int]


def family(rng, w: F, delta: F, extra: int = 2, sizes: Sequence[int] = (2, 3)) -> List[Pair]:
    """The Section 6.1 mechanism, ``extra`` random (ln w, delta)-DP pairs (each also swapped)."""
    fam: List[Pair] = [C.kov(w, delta)]
    for j in range(extra):
        n = sizes[j % len(sizes)]
        p0, p1 = C.shrink_to_dp(C.rand_dist(rng, n), C.rand_dist(rng, n), w, delta)
        fam.append((p0, p1))
        fam.append((p1, p0))
    return fam


def deterministic_adversaries(fam: Sequence[Pair], k: int) -> Iterator[Adversary]:
    """Every deterministic adversary for k steps over ``fam`` (history -> pair index)."""

    def extend(adv: Adversary, frontier: List[tuple], step: int) -> Iterator[Adversary]:
        if step == k:
            yield dict(adv)
            return
        for choice in itertools.product(range(len(fam)), repeat=len(frontier)):
            nxt = dict(adv)
            new_frontier = []
            for h, c in zip(frontier, choice):
                nxt[h] = c
                new_frontier.extend(h + (y,) for y in range(len(fam[c][0])))
            yield from extend(nxt, new_frontier, step + 1)

    yield from extend({}, [()], 0)


def count_deterministic(fam: Sequence[Pair], k: int) -> int:
    return sum(1 for _ in deterministic_adversaries(fam, k))


def random_adversary(rng, fam: Sequence[Pair], k: int) -> Adversary:
    adv: Adversary = {}
    frontier = [()]
    for _ in range(k):
        nxt = []
        for h in frontier:
            c = rng.randrange(len(fam))
            adv[h] = c
            nxt.extend(h + (y,) for y in range(len(fam[c][0])))
        frontier = nxt
    return adv


def views(fam: Sequence[Pair], adv: Adversary, k: int) -> Tuple[Dict[tuple, F], Dict[tuple, F]]:
    """Exact distributions of the view (y_1, ..., y_k) under b = 0 and b = 1."""
    out = []
    for b in (0, 1):
        frontier = [((), F(1))]
        for _ in range(k):
            nxt = []
            for h, pr in frontier:
                dist = fam[adv[h]][b]
                for y, q in enumerate(dist):
                    nxt.append((h + (y,), pr * q))
            frontier = nxt
        out.append({h: pr for h, pr in frontier})
    return out[0], out[1]


def views_randomized(fam: Sequence[Pair], advs: Sequence[Adversary], coins: Sequence[F], k: int):
    """The view (r, y_1..y_k) of the adversary that draws r with probability coins[r] and then plays advs[r]."""
    V0: Dict[tuple, F] = {}
    V1: Dict[tuple, F] = {}
    for r, (adv, c) in enumerate(zip(advs, coins)):
        a, b = views(fam, adv, k)
        for h, pr in a.items():
            V0[(r,) + h] = c * pr
        for h, pr in b.items():
            V1[(r,) + h] = c * pr
    return V0, V1
