"""Vadhan-Wang Definition 7 (ordered concurrent composition).

Printed: M = ConComp_order(M_0..M_{k-1}) has the coins and inputs of ConComp, and
M(x, m_0..m_{i-1}; r): (a) j = i mod k, t = floor(i/k); (b) output M_j(x, m_j, m_{j+k}, ..., m_{j+t k}; r_j).

As printed the index is off by one (a typo): the call M(x, m_0..m_{i-1}; r) has received only
m_0..m_{i-1}, but j = i mod k, t = floor(i/k) make the history end at m_{j+tk} = m_i (for i = 1, k = 2:
the first query is sent to M_1 with history (m_1), not yet sent). Either reading fixes it
(M(x, m_0..m_i; r) with the printed j, t; or j = (i-1) mod k with history m_j, ..., m_{i-1}); both give
the round-robin the proof of Lemma 2 uses (query i goes to M_{i mod k}, counting from 0). Also
"x" for "x_j". Checked: the literal printed indices reference an unreceived message for every
i (k = 2..4, i <= 12); with the repaired index, the ordered composition equals Definition 6's
ConComp when the messages are tagged round-robin (m_s, s mod k), for every coin tuple.
"""

from __future__ import annotations

import itertools

from .._framework import Proof, statement
from . import _compose as C
from . import _interactive as I


@statement(
    "Definition 7",
    "ConComp_order(M_0..M_{k-1}): same coins and inputs as ConComp; M(x, m_0..m_{i-1}; r): j = i mod k, t = floor(i/k), "
    "output M_j(x, m_j, m_{j+k}, ..., m_{j+tk}; r_j).",
)
def definition(p: Proof) -> None:
    n_idx = n = 0
    for k in (2, 3, 4):
        for i in range(1, 13):
            idx = C.printed_ordered_indices(i, k)
            n_idx += 1
            if not p.require(max(idx) == i, "printed history ends at m_i", f"k={k} i={i}: {idx}"):
                return
    for _ in range(6 if p.full else 3):
        k = p.rng.choice([2, 3]) if p.full else 2
        mechs = [I.random_mech(p.rng, 2, 2, 2, exact_den=True, den=p.rng.choice([2, 3]) if p.full else 2) for _ in range(k)]
        fns = [I.coin_fn(m) for m in mechs]
        Mo, Mc = C.ordered(fns), C.concomp(fns)
        spaces = [I.coin_space(m) for m in mechs]
        x = tuple(p.rng.randint(0, 1) for _ in range(k))
        qs = tuple(p.rng.randint(0, 1) for _ in range(2 * k))
        for r in itertools.product(*spaces):
            for i in range(1, 2 * k + 1):
                n += 1
                if not p.require(Mo(x, qs[:i], r) == Mc(x, tuple((qs[s], s % k) for s in range(i)), r),
                                 "ordered composition = ConComp with round-robin tags", f"{mechs} r={r} i={i}"):
                    return
    p.instances("printed indices: the history passed to M_j ends at m_i, one past the messages received (every i <= 12, "
                "k = 2..4): an index typo", n_idx, "exhaustive")
    p.instances("with the index repaired, ConComp_order's answers = ConComp's on round-robin-tagged messages, for every "
                "coin tuple (k = 2, two rounds each; k = 3 with --full)", n, "exhaustive")
    p.note("Typo, not an erratum: the printed j = i mod k, t = floor(i/k) fit M(x, m_0..m_i; r); the intended "
           "round-robin (query s to M_{s mod k}) is unambiguous from Lemma 2's proof. 'x' stands for x_j.")
