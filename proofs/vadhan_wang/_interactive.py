"""Finite interactive mechanisms, adversaries and concurrent composition, exactly.

A finite interactive mechanism (:class:`Mech`) answers ``R`` queries; in round ``r`` it
receives a query from the alphabet ``queries[r]`` and answers from ``answers``, with the
distribution ``cond[x][h]`` given its input ``x`` (one of two adjacent datasets ``x_0``,
``x_1``, indexed 0 and 1; a simulator ``T`` has inputs ``0, 1, 'Iam0', 'Iam1'``) and the
history ``h = (q_0, a_0, ..., q_{r-1}, a_{r-1}, q_r)``. This is the mechanism of
Definition 2 seen through its answer distributions; :func:`coin_fn` realises it, as
Definition 2 asks, as a deterministic function of its input, the messages received and
uniform coins (checked against this form in Definitions 2, 3, 6).

The adversary's view (Definition 3) of a deterministic adversary is its answer sequence
(the queries are functions of it). :func:`cc_hockey` computes
``max over deterministic adversaries A of max over events T of
Pr[View<A, ConComp(M_0(x_0), ...)> in T] - t Pr[View<A, ConComp(M_0(x'_0), ...)> in T]``
for the concurrent composition of Definition 6 (the adversary interleaves its queries
freely): backward induction over the mechanisms' joint state, which is the tuple of their
own histories (the path probabilities are products of each mechanism's own conditionals,
whatever the interleaving). :func:`cc_hockey_enum` does the same by enumerating every
deterministic adversary (tiny instances; the two are compared in Lemma 1's check).

Guarantee: exact (Fractions).
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F
from math import lcm
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from . import _dp as D

Hist = tuple


class Mech:
    """A finite interactive mechanism: ``cond[x][h]`` is a dict answer -> probability."""

    def __init__(self, queries: Sequence[Sequence], answers: Sequence, cond: Dict[object, Dict[Hist, Dict]],
                 name: str = "M"):
        self.queries = [tuple(q) for q in queries]
        self.answers = tuple(answers)
        self.cond = cond
        self.name = name

    @property
    def rounds(self) -> int:
        return len(self.queries)

    @property
    def inputs(self) -> tuple:
        return tuple(self.cond)

    def histories(self, r: int) -> Iterator[Hist]:
        """Every history ``(q_0, a_0, ..., q_r)`` of round r (before the r-th answer)."""
        parts = []
        for s in range(r):
            parts += [self.queries[s], self.answers]
        parts.append(self.queries[r])
        yield from itertools.product(*parts)

    def full_histories(self) -> Iterator[Hist]:
        parts = []
        for s in range(self.rounds):
            parts += [self.queries[s], self.answers]
        yield from itertools.product(*parts)

    def path(self, x, h: Hist) -> F:
        """``Pr[M(x, q) = a]`` for the interleaved history ``h = (q_0, a_0, ..., q_{r-1}, a_{r-1})`` (M-vec); memoised."""
        key = (x, h)
        c = self.__dict__.setdefault("_paths", {})
        if key not in c:
            c[key] = F(1) if not h else self.path(x, h[:-2]) * self.cond[x][h[:-1]].get(h[-1], F(0))
        return c[key]

    def __repr__(self) -> str:  # memoised: the checks format it into every counterexample text they prepare
        if "_repr" not in self.__dict__:
            self._repr = self._text()
        return self._repr

    def _text(self) -> str:
        rows = []
        for x in self.cond:
            for h in sorted(self.cond[x], key=lambda k: (len(k), repr(k))):
                rows.append(f"{x}{list(h)}:" + ",".join(D.frac(self.cond[x][h].get(a, F(0))) for a in self.answers))
        return f"{self.name}(" + "; ".join(rows) + ")"


def random_mech(rng, rounds: int, nq: int, na: int, inputs=(0, 1), zeros: bool = True, den: int = 6,
                exact_den: bool = False, mix: bool = True) -> Mech:
    """A random mechanism; with ``exact_den`` every probability is a multiple of ``1/den`` (for coin realisations).

    With ``mix``, the conditionals of input 1 are sometimes pulled toward those of input 0
    (so that small privacy parameters occur)."""
    queries = [tuple(range(nq)) for _ in range(rounds)]
    answers = tuple(range(na))
    cond: Dict[object, Dict[Hist, Dict]] = {x: {} for x in inputs}
    skeleton = Mech(queries, answers, cond)
    for r in range(rounds):
        for h in skeleton.histories(r):
            base = None
            for x in inputs:
                if exact_den:
                    d = _rand_counts(rng, na, den, zeros)
                else:
                    d = D.rand_dist_seq(rng, na, zeros, den)
                    if mix and base is not None and rng.random() < 0.5:
                        a = F(rng.randint(1, 3), 4)
                        d = [a * u + (1 - a) * v for u, v in zip(base, d)]
                if base is None:
                    base = d
                cond[x][h] = dict(zip(answers, d))
    return Mech(queries, answers, cond)


def _rand_counts(rng, n: int, den: int, zeros: bool) -> List[F]:
    while True:
        cuts = sorted(rng.randint(0, den) for _ in range(n - 1))
        c = [b - a for a, b in zip([0] + cuts, cuts + [den])]
        if zeros or all(c):
            return [F(v, den) for v in c]


def noninteractive(P: Dict, Q: Dict, name: str = "M") -> Mech:
    """A noninteractive mechanism (one round, one possible query) as an interactive one."""
    answers = tuple(sorted(set(P) | set(Q), key=repr))
    return Mech([(None,)], answers, {0: {(None,): dict(P)}, 1: {(None,): dict(Q)}}, name)


# --------------------------------------------------------------------------
# views of a single mechanism and deterministic adversaries


def single_adversaries(m: Mech) -> Iterator[Dict[tuple, object]]:
    """Every deterministic adversary of one mechanism: a map answer-prefix -> next query."""
    slots = []
    for r in range(m.rounds):
        for pre in itertools.product(m.answers, repeat=r):
            slots.append((pre, m.queries[r]))
    for choice in itertools.product(*[qs for _, qs in slots]):
        yield {pre: q for (pre, _), q in zip(slots, choice)}


def single_view(m: Mech, x, adv: Dict[tuple, object]) -> Dict[tuple, F]:
    """Distribution of the answer sequence (the view) of deterministic ``adv`` with ``m(x)``."""
    out: Dict[tuple, F] = {}

    def go(h: Hist, ans: tuple):
        if len(ans) == m.rounds:
            pr = m.path(x, h)
            if pr:
                out[ans] = out.get(ans, F(0)) + pr
            return
        q = adv[ans]
        for a in m.answers:
            if m.path(x, h + (q, a)):
                go(h + (q, a), ans + (a,))

    go((), ())
    return out


def single_privloss_t(m: Mech, delta: F, x0=0, x1=1) -> Optional[F]:
    """e^{PrivLoss(m, delta)}: the least t >= 1 with m (ln t, delta)-DP against every deterministic adversary
    (None: infinite). Each adversary's own least t is exact; the mechanism's is their maximum."""
    best = F(1)
    for adv in single_adversaries(m):
        t = D.hockey_least_t(single_view(m, x0, adv), single_view(m, x1, adv), delta)
        if t is None:
            return None
        best = max(best, t)
    return best


def pure_w(m: Mech, x0=0, x1=1) -> Optional[F]:
    """Least w with Pr[M(x0,q)=a] <= w Pr[M(x1,q)=a] and back for every query and answer sequence (None: inf)."""
    best = F(1)
    for h in m.full_histories():
        a, b = m.path(x0, h), m.path(x1, h)
        if (a == 0) != (b == 0):
            return None
        if a:
            best = max(best, a / b, b / a)
    return best


# --------------------------------------------------------------------------
# concurrent composition (Definition 6) of finite mechanisms


def cc_hockey(mechs: Sequence[Mech], world0: Sequence, world1: Sequence, t: F) -> F:
    """``max_A max_T Pr[V0 in T] - t Pr[V1 in T]`` over deterministic interleaving adversaries A, where
    ``V_b`` is A's view with ``ConComp(M_0(world_b[0]), ..., M_{k-1}(world_b[k-1]))``. Exact."""
    k = len(mechs)
    memo: Dict[tuple, F] = {}

    def V(hs: tuple, p0: F, p1: F) -> F:
        if hs in memo:
            return memo[hs]
        best = None
        for j in range(k):
            m, h = mechs[j], hs[j]
            r = len(h) // 2
            if r == m.rounds:
                continue
            for q in m.queries[r]:
                c0 = m.cond[world0[j]][h + (q,)]
                c1 = m.cond[world1[j]][h + (q,)]
                s = F(0)
                for a in m.answers:
                    n0, n1 = p0 * c0.get(a, F(0)), p1 * c1.get(a, F(0))
                    if n0 == 0:
                        continue  # this branch contributes max(0 - t n1, 0) = 0 to every leaf below
                    s += V(hs[:j] + (h + (q, a),) + hs[j + 1:], n0, n1)
                if best is None or s > best:
                    best = s
        if best is None:  # every mechanism has answered all its queries: a leaf
            best = max(p0 - t * p1, F(0))
        memo[hs] = best
        return best

    return V(tuple(() for _ in mechs), F(1), F(1))


def cc_delta(mechs: Sequence[Mech], t: F, x0=0, x1=1) -> F:
    """Least delta with ConComp(mechs) (ln t, delta)-DP on the pair (x0, x1), both directions."""
    k = len(mechs)
    return max(cc_hockey(mechs, (x0,) * k, (x1,) * k, t), cc_hockey(mechs, (x1,) * k, (x0,) * k, t))


def cc_adversaries(mechs: Sequence[Mech]) -> Iterator[Callable[[tuple], Tuple[int, object]]]:
    """Every deterministic interleaving adversary: a map from the answers so far to (mechanism j, query).

    Enumerated as decision trees (tiny instances only: the count grows doubly exponentially)."""
    k = len(mechs)

    def trees(counts: tuple) -> Iterator[object]:
        # a tree: None at a leaf, else (j, q, {a: subtree})
        options = [(j, q) for j in range(k) if counts[j] < mechs[j].rounds for q in mechs[j].queries[counts[j]]]
        if not options:
            yield None
            return
        for j, q in options:
            nxt = counts[:j] + (counts[j] + 1,) + counts[j + 1:]
            subs = list(trees(nxt))
            for combo in itertools.product(subs, repeat=len(mechs[j].answers)):
                yield (j, q, dict(zip(mechs[j].answers, combo)))

    for tree in trees(tuple(0 for _ in mechs)):
        yield _tree_fn(tree)


def _tree_fn(tree):
    def adv(answers: tuple):
        node = tree
        for a in answers:
            node = node[2][a]
        return node[0], node[1]

    adv.tree = tree
    return adv


def cc_view(mechs: Sequence[Mech], world: Sequence, adv) -> Dict[tuple, F]:
    """Distribution of the view (sequence of (j, q, a)) of deterministic ``adv`` with the concurrent composition."""
    k = len(mechs)
    total = sum(m.rounds for m in mechs)
    out: Dict[tuple, F] = {}

    def go(hs: tuple, ans: tuple, trans: tuple, p: F):
        if not p:
            return
        if len(ans) == total:
            out[trans] = out.get(trans, F(0)) + p
            return
        j, q = adv(ans)
        h = hs[j]
        for a, pa in mechs[j].cond[world[j]][h + (q,)].items():
            go(hs[:j] + (h + (q, a),) + hs[j + 1:], ans + (a,), trans + ((j, q, a),), p * pa)

    go(tuple(() for _ in range(k)), (), (), F(1))
    return out


def cc_hockey_enum(mechs: Sequence[Mech], world0, world1, t: F) -> Tuple[F, int]:
    """``cc_hockey`` by enumerating every deterministic adversary; returns (value, number of adversaries)."""
    best, n = F(0), 0
    for adv in cc_adversaries(mechs):
        n += 1
        best = max(best, D.hockey(cc_view(mechs, world0, adv), cc_view(mechs, world1, adv), t))
    return best, n


# --------------------------------------------------------------------------
# Definitions 7 and 8: ordered composition of null-query extensions


def ordered_null_hockey(mechs: Sequence[Mech], world0, world1, t: F) -> F:
    """``max_A max_T`` as in :func:`cc_hockey`, for ``ConComp_order(M_0^0, ..., M_{k-1}^0)``: the i-th message
    goes to mechanism i mod k and is a null query (answered by repeating the last answer, or bottom) or a real one."""
    k = len(mechs)
    memo: Dict[tuple, F] = {}

    def V(hs: tuple, pos: int, nulls: int, p0: F, p1: F) -> F:
        key = (hs, pos, nulls)
        if key in memo:
            return memo[key]
        if all(len(h) // 2 == m.rounds for h, m in zip(hs, mechs)):
            val = max(p0 - t * p1, F(0))
        else:
            val = None
            m, h = mechs[pos], hs[pos]
            r = len(h) // 2
            if nulls < k - 1:  # a null query: its answer is a function of the view so far
                val = V(hs, (pos + 1) % k, nulls + 1, p0, p1)
            if r < m.rounds:
                for q in m.queries[r]:
                    c0, c1 = m.cond[world0[pos]][h + (q,)], m.cond[world1[pos]][h + (q,)]
                    s = F(0)
                    for a in m.answers:
                        n0, n1 = p0 * c0.get(a, F(0)), p1 * c1.get(a, F(0))
                        if n0:
                            s += V(hs[:pos] + (h + (q, a),) + hs[pos + 1:], (pos + 1) % k, 0, n0, n1)
                    if val is None or s > val:
                        val = s
            if val is None:
                val = F(0)
        memo[key] = val
        return val

    return V(tuple(() for _ in mechs), 0, 0, F(1), F(1))


# --------------------------------------------------------------------------
# coin realisations (Definition 2: a party is a function of input, messages received, coins)


def coin_den(m: Mech) -> int:
    """Common denominator of every conditional probability of m (coins per round are uniform on range(den))."""
    d = 1
    for x in m.cond:
        for dist in m.cond[x].values():
            for v in dist.values():
                d = lcm(d, F(v).denominator)
    return d


def coin_space(m: Mech) -> List[tuple]:
    d = coin_den(m)
    return list(itertools.product(range(d), repeat=m.rounds))


def coin_fn(m: Mech) -> Callable:
    """``f(x, queries, r)``: the mechanism as a deterministic function of its input, the queries received so far
    (q_0..q_{t-1}) and its coins ``r`` (one uniform integer in range(den) per round); returns the answer a_{t-1}
    (None on an empty or too long query sequence)."""
    d = coin_den(m)

    def f(x, queries: Sequence, r: Sequence[int]):
        if not queries or len(queries) > m.rounds:
            return None
        h: Hist = ()
        a = None
        for s, q in enumerate(queries):
            dist = m.cond[x][h + (q,)]
            acc = 0
            for cand in m.answers:
                acc += int(dist.get(cand, F(0)) * d)
                if r[s] < acc:
                    a = cand
                    break
            h = h + (q, a)
        return a

    return f


def mixed_view(m: Mech, x, advs: Sequence[Dict[tuple, object]], probs: Sequence[F]) -> Dict[tuple, F]:
    """View (r, a_0, ..., a_{R-1}) of the randomized adversary that draws coin r with probability probs[r] and then
    plays the deterministic adversary advs[r] (the coins are part of the view, Definition 3)."""
    out: Dict[tuple, F] = {}
    for r, (adv, pr) in enumerate(zip(advs, probs)):
        for v, pv in single_view(m, x, adv).items():
            out[(r,) + v] = out.get((r,) + v, F(0)) + pr * pv
    return out


def random_single_adversary(rng, m: Mech) -> Dict[tuple, object]:
    return {pre: rng.choice(m.queries[r]) for r in range(m.rounds) for pre in itertools.product(m.answers, repeat=r)}


def nonadaptive_hockey(m: Mech, w: F, x0=0, x1=1) -> F:
    """The largest delta over adversaries that fix their queries in advance (both directions)."""
    best = F(0)
    for qs in itertools.product(*m.queries):
        adv = {pre: qs[len(pre)] for r in range(m.rounds) for pre in itertools.product(m.answers, repeat=r)}
        best = max(best, D.dp_delta(single_view(m, x0, adv), single_view(m, x1, adv), w))
    return best


def dominated(mechs: Sequence[Mech], f: Callable[[F], F], bps) -> Tuple[Optional[F], int]:
    """Check ``cc_delta(mechs, t) <= f(t)`` for every t >= 1, where f is continuous, piecewise linear between the
    breakpoints ``bps`` and constant beyond the largest. cc_delta is convex in t (a maximum of hockey-stick
    functions, each convex), so it suffices to compare at t = 1 and at every breakpoint: a convex function below a
    line at both ends of a segment is below it on the segment, and beyond the largest breakpoint both sides are
    non-increasing with f constant. Returns (first failing t or None, number of points compared)."""
    ts = sorted({F(1)} | {b for b in bps if b >= 1})
    for t in ts:
        if cc_delta(mechs, t) > f(t):
            return t, len(ts)
    return None, len(ts)


def random_cc_adversary(rng, mechs: Sequence[Mech]) -> Callable[[tuple], Tuple[int, object]]:
    """A random deterministic interleaving adversary (its choices drawn lazily, memoised per answer history)."""
    memo: Dict[tuple, Tuple[int, object]] = {}
    k = len(mechs)

    def adv(answers: tuple):
        if answers not in memo:
            # replay to find how many queries each mechanism has had
            counts = [0] * k
            for i in range(len(answers)):
                j, _ = adv(answers[:i])
                counts[j] += 1
            open_ = [j for j in range(k) if counts[j] < mechs[j].rounds]
            j = rng.choice(open_)
            memo[answers] = (j, rng.choice(mechs[j].queries[counts[j]]))
        return memo[answers]

    return adv
