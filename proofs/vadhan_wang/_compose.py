"""Literal coin-level transcriptions of Definitions 6, 7 and 8 and of the adversaries built in the
proofs of Lemma 2 and Theorem 3.1.

Mechanisms are functions ``f(x, queries, r)`` (``_interactive.coin_fn``) of their input, the queries
they received and their coins; compositions are functions of the composite input, the messages
and the tuple of coins, exactly as the definitions print them; the checks enumerate every coin
setting.

Guarantee: exact (pointwise, for every coin setting).
"""

from __future__ import annotations

from typing import Callable, List, Sequence

HALT = "halt"
BOTTOM = "bottom"


def concomp(fns: Sequence[Callable]) -> Callable:
    """Definition 6: M(x, m_0..m_{i-1}; r): parse m_{i-1} as (q, j) (else halt); extract the queries to M_j;
    output M_j(x_j, m_0^j..m_{t-1}^j; r_j)."""
    k = len(fns)

    def parse(msg):
        if isinstance(msg, tuple) and len(msg) == 2 and msg[1] in range(k):
            return msg
        return None

    def M(x: tuple, msgs: tuple, r: tuple):
        last = parse(msgs[-1]) if msgs else None
        if last is None:
            return HALT
        q, j = last
        hist = tuple(pm[0] for pm in map(parse, msgs) if pm is not None and pm[1] == j)
        return fns[j](x[j], hist, r[j])

    return M


def ordered(fns: Sequence[Callable]) -> Callable:
    """Definition 7 with its index read consistently: the i-th call M(x, m_0..m_{i-1}; r) answers m_{i-1} with
    M_j(x_j, m_j, m_{j+k}, ..., m_{i-1}; r_j), j = (i-1) mod k."""
    k = len(fns)

    def M(x: tuple, msgs: tuple, r: tuple):
        i = len(msgs)
        j = (i - 1) % k
        return fns[j](x[j], tuple(msgs[j::k]), r[j])

    return M


def printed_ordered_indices(i: int, k: int) -> List[int]:
    """The message indices Definition 7 passes to M_j as printed: j = i mod k, t = floor(i/k): j, j+k, ..., j+t k."""
    j, t = i % k, i // k
    return [j + s * k for s in range(t + 1)]


def null_ext(f: Callable) -> Callable:
    """Definition 8: M^0(x, m; r) = M(x, m'; r), (1 m'_1, ..., 1 m'_k) the messages of m beginning with bit 1;
    M(x, empty; r) = bottom. Messages are strings; a query q is sent as '1' + q, a null query as '0...'."""

    def M0(x, msgs: tuple, r):
        real = tuple(m[1:] for m in msgs if m.startswith("1"))
        if not real:
            return BOTTOM
        a = f(x, real, r)
        return BOTTOM if a is None else a

    return M0


def lemma2_plan(k: int) -> Callable:
    """The adversary A' of Lemma 2's proof, for ConComp_order(M_0^0..M_{k-1}^0): given A's next query
    q_i = (q*_i, t) and the previous target s (k-1 before the first query), send the null query '0' to
    M_{(s+1) mod k}, ..., M_{(t-1) mod k} in order, then '1' q*_i to M_t.

    Returns plan(s, (q*_i, t)) -> the list of (message, is_null) A' sends for A's query."""

    def plan(prev_target: int, q):
        qstar, t = q
        msgs = []
        pos = (prev_target + 1) % k
        while pos != t:
            msgs.append(("0", True))
            pos = (pos + 1) % k
        msgs.append(("1" + qstar, False))
        return msgs

    return plan
