"""Vadhan-Wang Definition 2 (interactive protocols).

Printed: (A, B) is a pair of functions; with inputs x_A, x_B: choose uniform coins r_A, r_B
(binary strings); for i = 0, 1, ...: m_i = A(x_A, m_1, m_3, ..., m_{i-1}; r_A) if i is even,
m_i = B(x_B, m_0, m_2, ..., m_{i-1}; r_B) if i is odd; if m_{i-1} = halt, exit the loop.

Checked: the loop run literally (``_protocol.run``) with binary coins, for random finite
mechanisms B (probabilities multiples of 1/4: 2 coin bits per round) and random randomized
adversaries A (1-2 coin bits), enumerating every coin string: the distribution of the
transcript equals Pr[r_A] * prod_t Pr[B answers a_t | its history], the product of conditionals
through which every other check in this package describes a mechanism. So those checks speak of
the protocols of Definition 2.

As printed, the halt test comes after m_i is computed, so one message more follows a halt (B's
reply to halt; ours is a constant 'bottom'): harmless.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _interactive as I
from . import _protocol as PR


def formula(m: I.Mech, A, nA: int, x) -> dict:
    """Pr[transcript] = Pr[r_A] prod_t cond[x][history](a_t), enumerating r_A and the answers."""
    import itertools

    out = {}
    for rA in itertools.product((0, 1), repeat=nA):
        def go(h, msgs, p):
            if not p:
                return
            q = A(None, tuple(msgs[1::2]), rA)
            if q == PR.HALT:
                t = tuple(msgs) + (PR.HALT, PR.BOTTOM)
                out[t] = out.get(t, F(0)) + p
                return
            for a, pa in m.cond[x][h + (q,)].items():
                go(h + (q, a), msgs + [q, a], p * pa)

        go((), [], F(1, 2 ** nA))
    return out


@statement(
    "Definition 2",
    "An interactive protocol (A, B) is a pair of functions; with uniform coins r_A, r_B: m_i = A(x_A, m_1, m_3, ..., "
    "m_{i-1}; r_A) for even i, m_i = B(x_B, m_0, m_2, ..., m_{i-1}; r_B) for odd i; exit when m_{i-1} = halt.",
)
def definition(p: Proof) -> None:
    n = 0
    for _ in range(12 if p.full else 5):
        m = I.random_mech(p.rng, p.rng.randint(1, 2), p.rng.randint(1, 2), 2, exact_den=True, den=4)
        B, nB = PR.mech_party(m)
        nA = p.rng.randint(1, 2)
        A = PR.random_adversary_party(p.rng, m, nA)
        for x in (0, 1):
            trans, _ = PR.transcripts(A, nA, B, nB, x)
            want = {t: v for t, v in formula(m, A, nA, x).items() if v}
            n += 1
            if not p.require(trans == want, "transcript distribution of the literal loop = product of conditionals",
                             f"{m} x={x}"):
                return
    p.instances("Definition 2's loop run literally over every binary coin string (random mechanisms with dyadic "
                "probabilities, randomized adversaries): transcript distribution = product of the mechanism's "
                "conditionals", n, "exhaustive")
    p.note("As printed, 'if m_{i-1} = halt' is tested after m_i is computed: one reply follows a halt (harmless).")
