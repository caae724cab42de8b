"""Vadhan-Zhang Definition 1.2 (interactive protocols) and the game-tree model used by every
interactive check of this paper.

Printed: an interactive protocol (A, B) is a pair of functions on tuples of strings; A with input
x_A and B with input x_B: choose coins r_A, r_B uniformly; for i = 0, 1, ...: if i is even
m_i = A(x_A, m_1, m_3, ..., m_{i-1}; r_A), if odd m_i = B(x_B, m_0, m_2, ..., m_{i-1}; r_B); stop at
halt.

Checked: random coin-based mechanisms A (tables of messages indexed by dataset, coins and the
messages received) run literally against every deterministic adversary B; the distribution of the
transcript equals the one computed by the game tree of conditional answer laws (``_games``), on
both datasets. This is what licenses modelling a stateful mechanism by its conditional answer laws.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _games as G

HALT = "halt"


def rand_protocol(rng, rounds, ncoins, alph=("0", "1")):
    """A as a table: (x, coin, messages received from B) -> message; A speaks at even i, halts after
    ``rounds`` of its own messages (finite communication)."""
    table = {}

    def fill(recv):
        for x in (0, 1):
            for r in range(ncoins):
                table[(x, r, recv)] = rng.choice(alph) if len(recv) < rounds else HALT
        if len(recv) < rounds:
            for m in alph:
                fill(recv + (m,))

    fill(())
    return table


def run_literal(table, ncoins, x, B):
    """Definition 1.2 literally: enumerate the uniform coins r_A; B is deterministic (a function of
    the messages it received). Returns transcript -> probability."""
    out = {}
    for r in range(ncoins):
        msgs = []
        i = 0
        while True:
            if i % 2 == 0:
                m = table[(x, r, tuple(msgs[1::2]))]
            else:
                m = B(tuple(msgs[0::2]))
            if m == HALT:
                break
            msgs.append(m)
            i += 1
        t = tuple(msgs)
        out[t] = out.get(t, F(0)) + F(1, ncoins)
    return out


def to_tree(table, ncoins, rounds, alph=("0", "1")):
    """The game tree of conditional laws of A's next message given the history (A speaks first)."""
    def coins_consistent(x, hist):
        ok = []
        for r in range(ncoins):
            good = True
            for k in range(0, len(hist), 2):
                if table[(x, r, tuple(hist[1:k:2]))] != hist[k]:
                    good = False
                    break
            if good:
                ok.append(r)
        return ok

    def a_node(hist):
        if len(hist[1::2]) >= rounds:  # A's table halts once it has read `rounds` messages
            return G.E
        nxt = {}
        for x in (0, 1):
            rs = coins_consistent(x, hist)
            cnt = {}
            for r in rs:
                m = table[(x, r, tuple(hist[1::2]))]
                cnt[m] = cnt.get(m, 0) + 1
            nxt[x] = {m: F(c, len(rs)) for m, c in cnt.items()} if rs else {m: F(1, len(alph)) for m in alph}
        children = []
        for m in alph:
            children.append((m, nxt[0].get(m, F(0)), nxt[1].get(m, F(0)), q_node(hist + (m,))))
        return ("A", tuple(children))

    def q_node(hist):  # B always replies; A reads the reply and may halt
        return ("Q", tuple((m, a_node(hist + (m,))) for m in alph))

    return a_node(())


def adversary_from(strat, tree):
    """The deterministic adversary B (messages received -> message) of a strategy tree."""
    def B(received):
        node, s = tree, strat
        for k, m in enumerate(received):
            idx = next(i for i, ch in enumerate(node[1]) if ch[0] == m)
            node, s = node[1][idx][3], s[idx]
            if k < len(received) - 1:
                i, sub = s
                node, s = node[1][i][1], sub
        i, _ = s
        return node[1][i][0]
    return B


@statement(
    "Definition 1.2",
    "An interactive protocol (A, B): coins r_A, r_B uniform; m_i = A(x_A, m_1, m_3, ..., m_{i-1}; r_A) for even i, "
    "m_i = B(x_B, m_0, m_2, ..., m_{i-1}; r_B) for odd i, until a message is halt.",
)
def definition(p: Proof) -> None:
    n = 0
    for _ in range(10 if p.full else 5):
        rounds = p.rng.randint(1, 2)
        ncoins = p.rng.randint(1, 4)
        table = rand_protocol(p.rng, rounds, ncoins)
        tree = to_tree(table, ncoins, rounds)
        for strat in G.strategies(tree):
            B = adversary_from(strat, tree)
            lit0 = run_literal(table, ncoins, 0, B)
            lit1 = run_literal(table, ncoins, 1, B)
            direct = G.view(tree, strat)
            n += 1
            ok = all(direct.get(t, (0, 0)) == (lit0.get(t, 0), lit1.get(t, 0)) for t in set(direct) | set(lit0) | set(lit1))
            if not p.require(ok, "literal protocol transcript law = game-tree view",
                             f"rounds={rounds} coins={ncoins} strategy={strat}"):
                return
    p.instances("coin-based mechanisms (1-2 own messages, 1-4 uniform coins) run literally against every deterministic "
                "adversary: transcript laws on x and x' equal those of the tree of conditional answer laws", n, "exhaustive")
