"""Renyi-DP of finite interactive mechanisms (Section 5): exact S_alpha values of views, optimal adversaries,
product strategies in the concurrent game. S values are Fractions, :class:`_renyi.Rad` or INF; all
comparisons are exact (:func:`_renyi.cmp`). Guarantee: exact.
"""

from __future__ import annotations

from fractions import Fraction as F

from . import _games as G
from . import _renyi as R

ZERO, ONE = F(0), F(1)


def term(p0, p1, alpha):
    """p0^alpha p1^(1-alpha) (0 if p0 = 0; INF if p1 = 0 < p0)."""
    if p0 == 0:
        return ZERO
    if p1 == 0:
        return R.INF
    return R.S([(p0, p1)], alpha)


def add(a, b):
    if a == R.INF or b == R.INF:
        return R.INF
    if isinstance(a, R.Rad) or isinstance(b, R.Rad):
        n = a.n if isinstance(a, R.Rad) else b.n
        return R._as_rad(a, n) + R._as_rad(b, n)
    return a + b


def smax(vals):
    best = None
    for v in vals:
        if best is None or R.cmp(v, best) > 0:
            best = v
    return best


def s_view(pairs, alpha):
    return R.S(pairs, alpha)


def opt_value(tree, alpha):
    """max over every deterministic adversary of S_alpha(View(x) || View(x'))."""
    return smax(s_view(v, alpha) for v in G.all_views(tree))


def optimal_strategies(tree, alpha):
    best = opt_value(tree, alpha)
    return [s for s in G.strategies(tree) if R.cmp(s_view(G.view_pairs(tree, s), alpha), best) == 0], best


def first_query_value(qnode_child, alpha, sub_opt):
    """(22)'s quantity for a first query whose answer node is ``qnode_child``: sum_a A^alpha A'^(1-alpha) OPT(M_{q,a})."""
    tot = ZERO
    for a, p0, p1, child in qnode_child[1]:
        t = term(p0, p1, alpha)
        if t == ZERO:
            continue
        tot = add(tot, R.mul(t, sub_opt(child)))
    return tot


def product_strategy(nodes, strats, schedule, hist=()):
    """The strategy of concomp(*nodes) that plays strats[j] against mechanism j, querying the mechanism chosen by
    ``schedule(hist, waiting)`` next (hist: the answers so far)."""
    if all(n[0] == "E" for n in nodes):
        return None
    cc = G.concomp(*nodes)
    waiting = [j for j, n in enumerate(nodes) if n[0] == "Q"]
    j = schedule(hist, waiting)
    i_j, sub_j = strats[j]
    q, anode = nodes[j][1][i_j]
    idx = next(k for k, ((jj, qq), _) in enumerate(cc[1]) if jj == j + 1 and qq == q)
    subs = []
    for k, (a, _, _, g) in enumerate(anode[1]):
        nodes2 = nodes[:j] + (g,) + nodes[j + 1:]
        strats2 = strats[:j] + (sub_j[k],) + strats[j + 1:]
        subs.append(product_strategy(nodes2, strats2, schedule, hist + ((j, a),)))
    return (idx, tuple(subs))


SCHEDULES = {
    "sequential": lambda hist, waiting: waiting[0],
    "reverse": lambda hist, waiting: waiting[-1],
    "alternating": lambda hist, waiting: waiting[len(hist) % len(waiting)],
    "adaptive": lambda hist, waiting: waiting[(len(hist) + (1 if hist and hist[-1][1].endswith("1") else 0)) % len(waiting)],
}
