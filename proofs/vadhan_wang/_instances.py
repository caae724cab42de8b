"""Seeded generators of small interactive mechanisms with their exact privacy parameters.

Guarantee: exact (Fractions); every parameter is computed from the mechanism (the least
delta at a rational e^eps over every deterministic adversary, or the least pure e^eps).
"""

from __future__ import annotations

from fractions import Fraction as F
from typing import List, Optional, Tuple

from . import _dp as D
from . import _interactive as I

SHAPES = [(1, 2, 2), (2, 2, 2), (2, 1, 2), (1, 1, 3), (2, 2, 2)]  # (rounds, queries, answers)


def approx_mech(rng, shape=None, w: Optional[F] = None) -> Tuple[I.Mech, F, F]:
    """(M, e^eps, delta) with delta the least delta of M at e^eps (exact, both directions, all adversaries) < 1."""
    while True:
        R, nq, na = shape or rng.choice(SHAPES)
        m = I.random_mech(rng, R, nq, na)
        ww = w if w is not None else rng.choice(D.W_CHOICES)
        d = I.cc_delta([m], ww)
        if d < 1:
            return m, ww, d


def pure_mech(rng, shape=None) -> Tuple[I.Mech, F]:
    """(M, e^eps) with e^eps the least pure-DP parameter of M (full support, so finite)."""
    R, nq, na = shape or rng.choice(SHAPES)
    m = I.random_mech(rng, R, nq, na, zeros=False)
    return m, I.pure_w(m)


def rr_then_public(rng, w: F, nq: int = 2) -> I.Mech:
    """A 2-round mechanism: round 1 answers RR_eps of the input bit, round 2 answers a query with a distribution that
    depends on the query and the first answer but not on the input. It is (eps, 0)-DP and tight in round 1."""
    P0, P1 = D.rr_eps(w)
    cond = {0: {(None,): dict(P0)}, 1: {(None,): dict(P1)}}
    for a0 in (0, 1):
        for q in range(nq):
            d = dict(zip((0, 1), D.rand_dist_seq(rng, 2)))
            cond[0][(None, a0, q)] = d
            cond[1][(None, a0, q)] = dict(d)
    return I.Mech([(None,), tuple(range(nq))], (0, 1), cond, "RRthenPublic")


def shapes_for_k(rng, k: int) -> List[tuple]:
    """Shapes keeping the concurrent DP small: at most one 2-round mechanism when k = 3."""
    if k <= 2:
        return [rng.choice(SHAPES) for _ in range(k)]
    return [rng.choice(SHAPES)] + [rng.choice([(1, 2, 2), (1, 1, 3)]) for _ in range(k - 1)]
