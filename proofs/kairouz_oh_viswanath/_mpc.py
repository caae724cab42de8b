"""Section 5's multi-party setting, exactly: k parties with bits x_i, protocols that broadcast
a transcript, the randomized response (24), optimal decision rules and their accuracy.

A protocol is given by its transcript distributions ``trans[x][tau]`` for every
x in {0,1}^k. :func:`interactive` builds one round by round: in round r the speaker
``speakers[r]`` broadcasts a message drawn from ``kernel(r, history, own bit)``, so
P(tau | x) = prod_r kernel(r, tau_<r, x_{speaker_r})(tau_r). Party i's privacy
(Section 5.1): for every x_{-i}, the pair (P(. | x_i = 0, x_{-i}), P(. | x_i = 1, x_{-i}))
is (eps_i, delta_i)-DP (Definition 1.1, both orders, all sets of transcripts).

Guarantee: exact (Fractions).
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from . import _common as C

Trans = Dict[tuple, Dict[tuple, F]]


def inputs(k: int) -> List[tuple]:
    return list(itertools.product((0, 1), repeat=k))


def interactive(k: int, speakers: Sequence[int], sizes: Sequence[int], kernel: Callable) -> Trans:
    """Transcript distributions of the protocol (messages of round r in range(sizes[r]))."""
    out: Trans = {}
    for x in inputs(k):
        P: Dict[tuple, F] = {}
        for tau in itertools.product(*[range(m) for m in sizes]):
            pr = F(1)
            for r, s in enumerate(speakers):
                pr *= kernel(r, tau[:r], x[s])[tau[r]]
                if pr == 0:
                    break
            P[tau] = pr
        out[x] = P
    return out


def random_kernel(rng, sizes: Sequence[int], full_support: bool = False) -> Callable:
    memo = {}

    def kernel(r, hist, bit):
        key = (r, hist, bit)
        if key not in memo:
            memo[key] = C.rand_dist(rng, sizes[r], zeros=not full_support)
        return memo[key]

    return kernel


def party_pairs(trans: Trans, i: int) -> List[Tuple[List[F], List[F]]]:
    """For every x_{-i}: (P(. | x_i = 0, x_{-i}), P(. | x_i = 1, x_{-i})) over the sorted transcripts."""
    k = len(next(iter(trans)))
    taus = sorted(next(iter(trans.values())))
    out = []
    for rest in itertools.product((0, 1), repeat=k - 1):
        x0 = rest[:i] + (0,) + rest[i:]
        x1 = rest[:i] + (1,) + rest[i:]
        out.append(([trans[x0][t] for t in taus], [trans[x1][t] for t in taus]))
    return out


def least_delta(trans: Trans, i: int, w: F) -> F:
    return max(C.least_delta(a, b, w) for a, b in party_pairs(trans, i))


def is_private(trans: Trans, i: int, w: F, delta: F) -> bool:
    """Party i's (ln w, delta) privacy: literally over every set of transcripts, every x_{-i}, both orders,
    when there are at most 4 transcripts; by the equivalent hockey-stick form (checked in the Definition 1.1
    entry) beyond."""
    pairs = party_pairs(trans, i)
    if len(pairs[0][0]) <= 4:
        return all(C.dp_all_sets(a, b, w, delta) for a, b in pairs)
    return all(C.least_delta(a, b, w) <= delta for a, b in pairs)


def rr_trans(ws: Sequence[F], ds: Sequence[F]) -> Trans:
    """The non-interactive randomized response (24): party i broadcasts its bit through the
    (eps_i, delta_i) mechanism on {0,1,2,3} (x_i as the hypothesis)."""
    k = len(ws)
    mech = [C.kov(w, d) for w, d in zip(ws, ds)]
    out: Trans = {}
    for x in inputs(k):
        P = {}
        for y in itertools.product(range(4), repeat=k):
            P[y] = C.prod(mech[i][x[i]][y[i]] for i in range(k))
        out[x] = P
    return out


def best_accuracy(trans: Trans, gain: Callable[[tuple, int], F], actions: int, knows: Optional[int] = None,
                  worst: bool = False) -> F:
    """Optimal average accuracy (1/2^k) sum_x E[gain(x, decision)] over decision rules of (tau, x_knows)
    (of tau alone when knows is None): per (tau, x_knows) an action of largest posterior gain.
    With ``worst``: min_x E[gain(x, decision)] of that rule when ties are split uniformly (an achievable
    worst-case accuracy, so a lower bound of the best worst case)."""
    xs = list(trans)
    taus = sorted(next(iter(trans.values())))
    total = F(0)
    per_x = {x: F(0) for x in xs}
    for t in taus:
        for b in ((0, 1) if knows is not None else (None,)):
            group = [x for x in xs if knows is None or x[knows] == b]
            vals = [sum((trans[x][t] * gain(x, a) for x in group), F(0)) for a in range(actions)]
            best_v = max(vals)
            ties = [a for a in range(actions) if vals[a] == best_v]
            total += best_v
            for x in group:
                per_x[x] += trans[x][t] * sum((gain(x, a) for a in ties), F(0)) / len(ties)
    return min(per_x.values()) if worst else total / len(xs)


def simulator_lp(trans: Trans, ws: Sequence[F], ds: Sequence[F]) -> Optional[Dict[tuple, Dict[tuple, F]]]:
    """A stochastic T(tau | y) with P(tau | x) = sum_y T(tau | y) prod_i RR_i(y_i | x_i) (exact LP), or None."""
    rr = rr_trans(ws, ds)
    ys = sorted(next(iter(rr.values())))
    taus = sorted(next(iter(trans.values())))
    nT = len(taus)
    nv = len(ys) * nT
    A, b = [], []
    for x in trans:
        for ti, t in enumerate(taus):
            row = [F(0)] * nv
            for yi, y in enumerate(ys):
                row[yi * nT + ti] = rr[x][y]
            A.append(row)
            b.append(trans[x][t])
    for yi in range(len(ys)):
        row = [F(0)] * nv
        for ti in range(nT):
            row[yi * nT + ti] = F(1)
        A.append(row)
        b.append(F(1))
    sol = C.lp_feasible(A, b, nv)
    if sol is None:
        return None
    return {y: {t: sol[yi * nT + ti] for ti, t in enumerate(taus)} for yi, y in enumerate(ys)}


def simulates(T: Dict[tuple, Dict[tuple, F]], trans: Trans, ws, ds) -> bool:
    """T is stochastic and reproduces every P(tau | x) exactly from the randomized responses."""
    rr = rr_trans(ws, ds)
    if any(v < 0 for row in T.values() for v in row.values()) or any(sum(row.values()) != 1 for row in T.values()):
        return False
    for x in trans:
        for t, pr in trans[x].items():
            if sum((rr[x][y] * T[y][t] for y in T), F(0)) != pr:
                return False
    return True


def correlated_reveal(w: F, delta: F) -> Trans:
    """The counterexample protocol for k = 2: party 1 runs the (ln w, delta) randomized response (24) on x_1
    (outputs 0..3, 0 and 3 reveal x_1); party 2 then broadcasts x_2 itself (messages 2 + x_2) when party 1's
    output was revealing, and binary randomized response (ln w) of x_2 (messages 0, 1) otherwise."""
    p1 = C.kov(w, delta)
    rr = C.binary_rr(w)

    def kernel(r, hist, bit):
        if r == 0:
            return p1[bit]
        if hist[0] in (0, 3):
            return [F(0), F(0), F(1 - bit), F(bit)]
        return [rr[bit][0], rr[bit][1], F(0), F(0)]

    return interactive(2, (0, 1), (4, 4), kernel)
