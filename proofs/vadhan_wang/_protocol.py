"""Definition 2's interactive protocol, run literally with binary coins.

Parties are functions of (input, messages received, coins). :func:`run` is the loop of
Definition 2 as printed (A speaks at even i, B at odd i; after computing m_i the loop exits
if m_{i-1} = halt). :func:`mech_party` turns a finite mechanism whose probabilities are
multiples of 1/2^b into such a function of a binary coin string (b bits per round);
:func:`random_adversary_party` draws a randomized adversary (a strategy per coin value).
:func:`transcripts` enumerates every coin string and returns the exact distribution of the
transcripts (m_0, m_1, ...) and of A's view (r_A, x_A, m_1, m_3, ...) (Definition 3).

Guarantee: exact (Fractions).
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F
from typing import Callable, Dict, Tuple

from . import _interactive as I

HALT = "halt"
BOTTOM = "bottom"


def run(A: Callable, B: Callable, xA, xB, rA: tuple, rB: tuple, limit: int = 64) -> tuple:
    """The loop of Definition 2: returns the messages (m_0, m_1, ...)."""
    m: list = []
    i = 0
    while True:
        if i % 2 == 0:
            mi = A(xA, tuple(m[1:i:2]), rA)  # m_1, m_3, ..., m_{i-1}
        else:
            mi = B(xB, tuple(m[0:i:2]), rB)  # m_0, m_2, ..., m_{i-1}
        m.append(mi)
        if i >= 1 and m[i - 1] == HALT:
            break
        i += 1
        if i > limit:
            raise RuntimeError("protocol did not halt")
    return tuple(m)


def bits_to_ints(bits: tuple, width: int) -> tuple:
    return tuple(int("".join(map(str, bits[s:s + width])) or "0", 2) for s in range(0, len(bits), width))


def mech_party(m: I.Mech) -> Tuple[Callable, int]:
    """(B, number of coin bits): B(x, (m_0, m_2, ...), r_B) answers the last query (bottom after halt)."""
    den = I.coin_den(m)
    width = den.bit_length() - 1
    if 1 << width != den:
        raise ValueError("probabilities must be dyadic")
    f = I.coin_fn(m)

    def B(x, received: tuple, rB: tuple):
        if not received or received[-1] == HALT or len(received) > m.rounds:
            return BOTTOM
        return f(x, received, bits_to_ints(rB, width))

    return B, width * m.rounds


def random_adversary_party(rng, m: I.Mech, nbits: int) -> Callable:
    """A randomized adversary with nbits coin bits: a random query table per coin value; halts after m.rounds answers."""
    table: Dict[tuple, object] = {}
    for r in itertools.product((0, 1), repeat=nbits):
        for t in range(m.rounds):
            for pre in itertools.product(m.answers, repeat=t):
                table[(r, pre)] = rng.choice(m.queries[t])

    def A(x, received: tuple, rA: tuple):
        if len(received) >= m.rounds:
            return HALT
        return table[(rA, received)]

    A.table = table
    return A


def transcripts(A: Callable, nA: int, B: Callable, nB: int, xB) -> Tuple[Dict[tuple, F], Dict[tuple, F]]:
    """Exact distributions of the transcript and of A's view (r_A, x_A, m_1, m_3, ...) over uniform coins."""
    trans: Dict[tuple, F] = {}
    views: Dict[tuple, F] = {}
    pr = F(1, 2 ** (nA + nB))
    for rA in itertools.product((0, 1), repeat=nA):
        for rB in itertools.product((0, 1), repeat=nB):
            t = run(A, B, None, xB, rA, rB)
            trans[t] = trans.get(t, F(0)) + pr
            v = (rA, None) + t[1::2]
            views[v] = views.get(v, F(0)) + pr
    return trans, views
