"""Finite interactive mechanisms as game trees, every deterministic adversary, concurrent composition,
and the simulation of Theorem 4.1 (an interactive post-processing of a non-interactive pair).

A mechanism run on the two neighbouring datasets x (index 0) and x' (index 1) is a tree:

* ``("E",)`` -- halt;
* ``("Q", ((q, child), ...))`` -- the adversary sends a query q;
* ``("A", ((a, p0, p1, child), ...))`` -- the mechanism answers a, with probability p0 on x and p1
  on x' (conditional on the history).

Conditional answer laws given the history are what an adversary can observe of a stateful
mechanism with finite communication (Definition 1.2; ``definition_1_2`` checks this against the
literal coin-based protocol). A deterministic adversary is a strategy tree: at a Q node one
query and a strategy for its subtree, at an A node a strategy for each answer. The adversary's
view is the transcript of messages.

Guarantee: exact (Fractions).
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F
from functools import lru_cache
from typing import Dict, Tuple

from . import _lp
from . import _tradeoff as T

ZERO, ONE = F(0), F(1)
E = ("E",)


# --------------------------------------------------------------------------
# strategies and views


@lru_cache(maxsize=None)
def strategies(node) -> tuple:
    """Every deterministic adversary strategy against ``node`` (one per distinct behaviour)."""
    kind = node[0]
    if kind == "E":
        return (None,)
    if kind == "Q":
        return tuple((i, s) for i, (_, child) in enumerate(node[1]) for s in strategies(child))
    return tuple(itertools.product(*[strategies(ch[3]) for ch in node[1]]))


@lru_cache(maxsize=None)
def count_strategies(node) -> int:
    kind = node[0]
    if kind == "E":
        return 1
    if kind == "Q":
        return sum(count_strategies(child) for _, child in node[1])
    out = 1
    for ch in node[1]:
        out *= count_strategies(ch[3])
    return out


def view(node, strat) -> Dict[tuple, Tuple[F, F]]:
    """The adversary's view: transcript -> (probability on x, probability on x')."""
    kind = node[0]
    if kind == "E":
        return {(): (ONE, ONE)}
    if kind == "Q":
        i, sub = strat
        q, child = node[1][i]
        return {(q,) + t: v for t, v in view(child, sub).items()}
    out = {}
    for (a, p0, p1, child), sub in zip(node[1], strat):
        if p0 == 0 and p1 == 0:
            continue
        for t, (v0, v1) in view(child, sub).items():
            out[(a,) + t] = (p0 * v0, p1 * v1)
    return out


def view_pairs(node, strat):
    return list(view(node, strat).values())


def tight_brute(node) -> T.TF:
    """The mechanism's privacy profile: sup over every deterministic adversary (Lemma 2.5) of
    T(View(x), View(x')), the sup taken in the poset (F, <=) (Lemma 2.4: the lower convex envelope)."""
    return T.envelope(T.tradeoff(view_pairs(node, s)) for s in strategies(node))


@lru_cache(maxsize=None)
def tight_rec(node) -> T.TF:
    """The same by the recursion of Theorem 4.1's proof: a sup over the first query (Case 1), the
    chain rule over the first answer (Case 2, Equations (18)-(20))."""
    kind = node[0]
    if kind == "E":
        return T.IDENTITY
    if kind == "Q":
        return T.envelope(tight_rec(child) for _, child in node[1])
    return T.chain_rule([(p0, p1, tight_rec(child)) for _, p0, p1, child in node[1]])


# --------------------------------------------------------------------------
# instances


def rand_tree(rng, rounds: int, nq: int = 2, na: int = 2, den: int = 6, zeros: bool = True, first: str = "Q"):
    """A random mechanism: ``rounds`` query/answer rounds (adversary first), or answer-first."""
    def answers(r):
        p0 = T.rand_dist(rng, na, den, zeros)
        p1 = T.rand_dist(rng, na, den, zeros)
        return ("A", tuple((f"a{j}", p0[j], p1[j], queries(r - 1)) for j in range(na)))

    def queries(r):
        if r == 0:
            return E
        return ("Q", tuple((f"q{i}", answers(r)) for i in range(nq)))

    if first == "Q":
        return queries(rounds)
    p0 = T.rand_dist(rng, na, den, zeros)
    p1 = T.rand_dist(rng, na, den, zeros)
    return ("A", tuple((f"a{j}", p0[j], p1[j], queries(rounds)) for j in range(na)))


def rand_dp_tree(rng, rounds: int, w: F, nq: int = 2, na: int = 2):
    """A random mechanism whose every answer law is within ratio w on x vs x' (so (ln w, 0)-DP)."""
    def answers(r):
        while True:
            p0 = T.rand_dist(rng, na, 6, False)
            p1 = T.rand_dist(rng, na, 6, False)
            if all(a <= w * b and b <= w * a for a, b in zip(p0, p1)):
                break
        return ("A", tuple((f"a{j}", p0[j], p1[j], queries(r - 1)) for j in range(na)))

    def queries(r):
        if r == 0:
            return E
        return ("Q", tuple((f"q{i}", answers(r)) for i in range(nq)))

    return queries(rounds)


def noninteractive(pairs, label="out"):
    """A non-interactive mechanism as a one-query tree."""
    return ("Q", ((label, ("A", tuple((f"o{j}", p, q, E) for j, (p, q) in enumerate(pairs)))),))


# --------------------------------------------------------------------------
# concurrent composition (Definition 1.5)


@lru_cache(maxsize=None)
def concomp(*nodes):
    """ConComp of adversary-first mechanisms: the adversary sends (j, q) to any mechanism j that is
    waiting for a query; mechanism j answers from its own history only."""
    if all(n[0] == "E" for n in nodes):
        return E
    choices = []
    for j, n in enumerate(nodes):
        if n[0] != "Q":
            continue
        for q, child in n[1]:
            ans = []
            for a, p0, p1, g in child[1]:
                nxt = nodes[:j] + (g,) + nodes[j + 1:]
                ans.append(((j + 1, a), p0, p1, concomp(*nxt)))
            choices.append(((j + 1, q), ("A", tuple(ans))))
    return ("Q", tuple(choices))


# --------------------------------------------------------------------------
# Theorem 4.1's construction: (Y, Y', P) with P(Y) = M(x), P(Y') = M(x') for every adversary


def build(node, d: T.TF, kernel=None):
    """See :func:`_build` (cached when the default exact-LP kernel is used)."""
    if kernel is None:
        return _build_cached(node, d)
    return _build(node, d, kernel)


@lru_cache(maxsize=2048)
def _build_cached(node, d):
    return _build(node, d, None)


def _build(node, d: T.TF, kernel=None):
    """Theorem 4.1's induction for D = f-DP: returns (pairs, sim), ``pairs`` the non-interactive
    pair (Y, Y') (one (p, q) per outcome; outcomes are indices) and ``sim`` the post-processing P.

    Case 1 (a query first): every M_q is d-DP; by induction (Y_q, Y'_q, P_q); couple all of them
    through the canonical pair of d (Lemma 3.1: Blackwell kernels from (P, P') with T(P, P') = d);
    P(y, q, ...) = P_q(Q_q(y), ...).
    Case 2 (an answer first): Y = (A_1, Y_{A_1}) with Y_a built for d_a = the sub-mechanism's sup;
    P((a, y), ...) = (a, P_a(y, ...)).
    ``kernel(src, dst)`` finds the Blackwell kernels (default: the exact LP, verified exactly).
    """
    rec = (lambda n, dd: build(n, dd, kernel))
    kernel = kernel or _lp.blackwell_kernel
    kind = node[0]
    if kind == "E":
        return [(ONE, ONE)], ("E",)
    if kind == "A":
        pairs, labels, subs = [], [], {}
        for a, p0, p1, child in node[1]:
            pa, sa = rec(child, tight_rec(child))
            subs[a] = sa
            for k, (u, v) in enumerate(pa):
                if p0 * u or p1 * v:
                    pairs.append((p0 * u, p1 * v))
                    labels.append((a, k))
        return pairs, ("A", subs, labels)
    src = T.canonical(d)
    subs = {}
    for q, child in node[1]:
        pq, sq = rec(child, d)
        K = kernel(src, pq)
        if K is None:
            raise ValueError(f"no Blackwell kernel from d to the pair of query {q}")
        subs[q] = (K, sq)
    return src, ("Q", subs)


def sim_view(node, sim, k: int, strat) -> Dict[tuple, F]:
    """The adversary's view of P(y) for the outcome y of index k: transcript -> probability."""
    kind = node[0]
    if kind == "E":
        return {(): ONE}
    if kind == "Q":
        i, sub = strat
        q, child = node[1][i]
        K, sq = sim[1][q]
        out: Dict[tuple, F] = {}
        for j, w in enumerate(K[k]):
            if w:
                for t, v in sim_view(child, sq, j, sub).items():
                    out[(q,) + t] = out.get((q,) + t, ZERO) + w * v
        return out
    a, ci = sim[2][k]
    idx = next(i for i, ch in enumerate(node[1]) if ch[0] == a)
    return {(a,) + t: v for t, v in sim_view(node[1][idx][3], sim[1][a], ci, strat[idx]).items()}


def simulated_view(node, pairs, sim, strat) -> Dict[tuple, Tuple[F, F]]:
    """View of the adversary against P(Y) and P(Y'): transcript -> (prob, prob)."""
    out: Dict[tuple, list] = {}
    for k, (u, v) in enumerate(pairs):
        if not (u or v):
            continue
        for t, w in sim_view(node, sim, k, strat).items():
            acc = out.setdefault(t, [ZERO, ZERO])
            acc[0] += u * w
            acc[1] += v * w
    return {t: (a, b) for t, (a, b) in out.items() if a or b}


def same_view(direct: Dict[tuple, Tuple[F, F]], simulated: Dict[tuple, Tuple[F, F]]) -> bool:
    keys = set(direct) | set(simulated)
    return all(direct.get(t, (ZERO, ZERO)) == simulated.get(t, (ZERO, ZERO)) for t in keys)


@lru_cache(maxsize=4096)
def all_views(node) -> tuple:
    """The view pairs (tuples of (p, q)) of every deterministic strategy, in the order of
    :func:`strategies` (built bottom-up, sharing subtrees)."""
    kind = node[0]
    if kind == "E":
        return (((ONE, ONE),),)
    if kind == "Q":
        return tuple(v for _, child in node[1] for v in all_views(child))
    parts = []
    for a, p0, p1, child in node[1]:
        if p0 == 0 and p1 == 0:
            parts.append(((),))
        else:
            parts.append(tuple(tuple((p0 * u, p1 * v) for u, v in vw) for vw in all_views(child)))
    return tuple(tuple(x for part in combo for x in part) for combo in itertools.product(*parts))
