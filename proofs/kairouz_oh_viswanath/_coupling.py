"""The converse of Theorem 3.3 (Section 6.2) as an explicit coupling, exactly.

For an adversary over a family of (eps, delta)-DP pairs, each pair m has a
post-processing T_m of the Section 6.1 mechanism (Theorem 2.5; exact LP). The coupled
experiment draws, at step i, X_i ~ P~_b independently of the past and then
Y_i ~ T_{m(history)}(. | X_i). :func:`joint` returns the exact joint law of
(X_1, Y_1, ..., X_k, Y_k) under b = 0 and b = 1.

Guarantee: exact (Fractions).
"""

from __future__ import annotations

from fractions import Fraction as F
from typing import Dict, List

from . import _common as C


def simulators(fam, w: F, delta: F) -> List[List[List[F]]]:
    out = []
    for p0, p1 in fam:
        T = C.garbling(list(C.kov(w, delta)), [p0, p1])
        assert T is not None, "Theorem 2.5 applies to every (eps,delta)-DP pair"
        out.append(T)
    return out


def joint(fam, Ts, adv: Dict[tuple, int], k: int, w: F, delta: F) -> List[Dict[tuple, F]]:
    """[J_0, J_1]: J_b[(x_1, y_1, ..., x_k, y_k)] under hypothesis b."""
    kv = C.kov(w, delta)
    out = []
    for b in (0, 1):
        frontier = [((), F(1))]
        for _ in range(k):
            nxt = []
            for h, pr in frontier:
                ys = h[1::2]
                T = Ts[adv[ys]]
                for x in range(4):
                    px = kv[b][x]
                    if px == 0:
                        continue
                    for y, t in enumerate(T[x]):
                        if t:
                            nxt.append((h + (x, y), pr * px * t))
            frontier = nxt
        out.append(dict(frontier))
    return out


def marginal(J: Dict[tuple, F], keep) -> Dict[tuple, F]:
    out: Dict[tuple, F] = {}
    for h, pr in J.items():
        key = keep(h)
        out[key] = out.get(key, F(0)) + pr
    return out


def conditional(J: Dict[tuple, F], target, given) -> Dict[tuple, Dict[tuple, F]]:
    """P(target | given) as {given value: {target value: prob}} (only where P(given) > 0)."""
    num: Dict[tuple, Dict[tuple, F]] = {}
    for h, pr in J.items():
        g, t = given(h), target(h)
        num.setdefault(g, {})
        num[g][t] = num[g].get(t, F(0)) + pr
    out = {}
    for g, d in num.items():
        s = sum(d.values())
        if s > 0:
            out[g] = {t: v / s for t, v in d.items()}
    return out
