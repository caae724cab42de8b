"""Vadhan-Zhang Definition 1.3 (the view of a party).

Printed: A's view of (A(x_A; r_A), B(x_B; r_B)) is (r_A, x_A, m_1, m_3, ...), everything A receives
plus its input and coins; B's view is defined symmetrically.

Checked, on the literal protocols of Definition 1.2 with a randomized adversary B (coins r_B,
a table of messages): (i) the view (r_B, x_B, m_0, m_2, ...) determines the whole transcript
(B's own messages are functions of it), exhaustively over all coins; (ii) the view law of the
randomized B equals the law of (R, View(B_R)), B_R the deterministic adversary with coins fixed
(the identity used in Lemma 2.5's proof).
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _games as G
from .definition_1_2 import HALT, adversary_from, rand_protocol, run_literal, to_tree


def run_with_coins(table, ncoins, x, Bs):
    """Literal run of A against the randomized adversary with coin r_B choosing Bs[r_B]: the law of
    B's view (r_B, m_0, m_2, ...) and of the full transcript, jointly."""
    out = {}
    for rb, B in enumerate(Bs):
        for r in range(ncoins):
            msgs, i = [], 0
            while True:
                m = table[(x, r, tuple(msgs[1::2]))] if i % 2 == 0 else B(tuple(msgs[0::2]))
                if m == HALT:
                    break
                msgs.append(m)
                i += 1
            key = ((rb, tuple(msgs[0::2])), tuple(msgs))
            out[key] = out.get(key, F(0)) + F(1, ncoins * len(Bs))
    return out


@statement(
    "Definition 1.3",
    "A's view of the protocol is (r_A, x_A, m_1, m_3, ...): all messages A receives, with its input and coins "
    "(B's view symmetrically).",
)
def definition(p: Proof) -> None:
    n = 0
    for _ in range(10 if p.full else 4):
        rounds = p.rng.randint(1, 2)
        ncoins = p.rng.randint(1, 3)
        table = rand_protocol(p.rng, rounds, ncoins)
        tree = to_tree(table, ncoins, rounds)
        strats = list(G.strategies(tree))
        for _ in range(6):
            chosen = [p.rng.choice(strats) for _ in range(p.rng.randint(1, 3))]
            Bs = [adversary_from(s, tree) for s in chosen]
            for x in (0, 1):
                joint = run_with_coins(table, ncoins, x, Bs)
                by_view = {}
                for (v, t), pr in joint.items():
                    by_view.setdefault(v, set()).add(t)
                n += 1
                if not p.require(all(len(ts) == 1 for ts in by_view.values()),
                                 "the view determines the transcript", f"x={x} adversary coins={len(Bs)}"):
                    return
                views = {}
                for (v, _), pr in joint.items():
                    views[v] = views.get(v, F(0)) + pr
                mix = {}
                for rb, B in enumerate(Bs):
                    for t, pr in run_literal(table, ncoins, x, B).items():
                        key = (rb, t[0::2])
                        mix[key] = mix.get(key, F(0)) + pr / len(Bs)
                n += 1
                if not p.require(views == mix, "View(B) = (R, View(B_R))", f"x={x} adversary coins={len(Bs)}"):
                    return
    p.instances("literal protocols against randomized adversaries (1-3 coin values): the view (r_B, received messages) "
                "determines the transcript, and its law is that of (R, View(B_R))", n, "exhaustive")
