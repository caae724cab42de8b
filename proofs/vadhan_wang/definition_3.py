"""Vadhan-Wang Definition 3 (the view of a party).

Printed: A's view of (A(x_A; r_A), B(x_B; r_B)) is (r_A, x_A, m_1, m_3, ...): the messages A
received, its input and its coins; dropping the coins makes it a random variable.

Checked (literal protocol runs, every binary coin string): the view determines the whole
transcript (A's own messages are recomputed from it), so Pr[View = (r, a_1, a_2, ...)] =
Pr[R = r] Pr[M-vec(x, q_r) = (a_1, a_2, ...)] with q_r the queries A(r) asks on those answers,
the identity Theorem 5.2's proof starts from; and the view with the coins dropped is the
distribution of the answer sequence that the other checks compute for deterministic adversaries
(one coin value at a time).
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _interactive as I
from . import _protocol as PR


@statement(
    "Definition 3",
    "A's view of (A(x_A; r_A), B(x_B; r_B)) is View_A = (r_A, x_A, m_1, m_3, ...): the messages received by A, its "
    "input and its coins; without the coins it is a random variable.",
)
def definition(p: Proof) -> None:
    n = 0
    for _ in range(12 if p.full else 5):
        m = I.random_mech(p.rng, p.rng.randint(1, 2), 2, 2, exact_den=True, den=4)
        B, nB = PR.mech_party(m)
        nA = p.rng.randint(1, 2)
        A = PR.random_adversary_party(p.rng, m, nA)
        for x in (0, 1):
            trans, views = PR.transcripts(A, nA, B, nB, x)
            # the view determines the transcript: recompute A's messages from (r_A, received)
            rebuilt = {}
            for v, pv in views.items():
                rA, received = v[0], v[2:]
                msgs = []
                for i in range(len(received)):
                    msgs += [A(None, tuple(received[:i]), rA), received[i]]
                rebuilt[tuple(msgs)] = rebuilt.get(tuple(msgs), F(0)) + pv
            n += 1
            if not p.require(rebuilt == trans, "the view determines the transcript", f"{m} x={x}"):
                return
            for v, pv in views.items():
                rA, answers = v[0], v[2:-1]  # drop the reply to halt
                adv = {pre: A(None, pre, rA) for pre in _prefixes(answers)}
                h = ()
                for i, a in enumerate(answers):
                    h += (adv[answers[:i]], a)
                want = F(1, 2 ** nA) * m.path(x, h)
                n += 1
                if not p.require(pv == want, "Pr[View = (r, a)] = Pr[R = r] Pr[M-vec(x, q_r) = a]", f"{m} x={x} v={v}"):
                    return
    p.instances("views of literal protocol runs (every coin string): the view determines the transcript, and "
                "Pr[View = (r, a)] = Pr[R=r] Pr[M-vec(x, q_r) = a]", n, "exhaustive")


def _prefixes(seq):
    return [tuple(seq[:i]) for i in range(len(seq) + 1)]
