"""Vadhan-Zhang Definition 1.5 (concurrent composition ConComp(M_1, ..., M_k)).

Printed: coins r = (r_1, ..., r_k); inputs x = (x_1, ..., x_k); on messages m_0..m_{i-1}: parse m_{i-1}
as (j, q) (else halt), extract the queries m^j_0..m^j_{t-1} sent to M_j, output M_j(x_j, m^j; r_j).

Checked: coin-based mechanisms M_j (tables (dataset, coin, queries so far) -> answer) composed
literally as printed, against every deterministic adversary of the concurrent game; the transcript
laws on x and x' equal those of ``_games.concomp`` (the product game of the conditional-law trees)
used by the checks of Theorems 1.1-1.4, 4.2 and Section 5.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

from .._crosscheck import crosschecked
from .._framework import Proof, statement
from . import _games as G

ALPH = ("0", "1")


def rand_mech(rng, rounds, ncoins):
    table = {}

    def fill(qs):
        if len(qs) == rounds:
            return
        for q in ALPH:
            for z in (0, 1):
                for r in range(ncoins):
                    table[(z, r, qs + (q,))] = rng.choice(ALPH)
            fill(qs + (q,))

    fill(())
    return table


def mech_tree(table, ncoins, rounds):
    """The conditional-law tree of a coin-based mechanism that answers queries."""
    def consistent(z, qs, ans):
        return [r for r in range(ncoins) if all(table[(z, r, qs[:k + 1])] == ans[k] for k in range(len(ans)))]

    def q_node(qs, ans):
        if len(qs) == rounds:
            return G.E
        children = []
        for q in ALPH:
            laws = []
            for z in (0, 1):
                rs = consistent(z, qs, ans)
                laws.append({a: F(sum(1 for r in rs if table[(z, r, qs + (q,))] == a), len(rs)) if rs else F(1, 2)
                             for a in ALPH})
            children.append((q, ("A", tuple((a, laws[0][a], laws[1][a], q_node(qs + (q,), ans + (a,))) for a in ALPH))))
        return ("Q", tuple(children))

    return q_node((), ())


def run_literal(tables, ncoins, z, tree, strat):
    """Definition 1.5 literally against the deterministic adversary ``strat`` (a strategy of ``tree``)."""
    out = {}
    for coins in itertools.product(*[range(c) for c in ncoins]):
        pr = F(1)
        for c in ncoins:
            pr /= c
        node, s, msgs = tree, strat, []
        hist = {j: () for j in range(len(tables))}
        while node[0] != "E":
            i, sub = s
            (j, q), anode = node[1][i]
            msgs.append((j, q))
            hist[j - 1] = hist[j - 1] + (q,)                       # (b) the queries sent to M_j so far
            a = tables[j - 1][(z, coins[j - 1], hist[j - 1])]      # (c) M_j(x_j, m^j_0..m^j_{t-1}; r_j)
            idx = next(k for k, ch in enumerate(anode[1]) if ch[0] == (j, a))
            msgs.append((j, a))
            node, s = anode[1][idx][3], sub[idx]
        t = tuple(msgs)
        out[t] = out.get(t, F(0)) + pr
    return out


@statement(
    "Definition 1.5",
    "ConComp(M_1..M_k): coins r = (r_1..r_k), inputs x = (x_1..x_k); parse m_{i-1} as (j, q), extract the queries "
    "to M_j, output M_j(x_j, m^j_0, ..., m^j_{t-1}; r_j).",
    library=("exactdp.interactive.concurrent", "exactdp.interactive.adversaries",
             "exactdp.interactive.count_adversaries"),
)
def definition(p: Proof) -> None:
    from exactdp.interactive import concurrent

    from ._library import library_views, to_lib

    n = n_lib = 0
    for _ in range(6 if p.full else 3):
        k = 2
        rounds = [p.rng.randint(1, 2), 1]
        ncoins = [p.rng.randint(1, 3) for _ in range(k)]
        tables = [rand_mech(p.rng, rounds[j], ncoins[j]) for j in range(k)]
        trees = [mech_tree(tables[j], ncoins[j], rounds[j]) for j in range(k)]
        cc = G.concomp(*trees)
        lm = p.library("exactdp concurrent", lambda: concurrent(*[to_lib(t) for t in trees]))
        n_lib += library_views(p, lm, cc, "ConComp", f"rounds={rounds} coins={ncoins} trees={trees}")
        for strat in G.strategies(cc):
            direct = G.view(cc, strat)
            lit = [run_literal(tables, ncoins, z, cc, strat) for z in (0, 1)]
            n += 1
            ok = all(direct.get(t, (0, 0)) == (lit[0].get(t, 0), lit[1].get(t, 0))
                     for t in set(direct) | set(lit[0]) | set(lit[1]))
            if not p.require(ok, "literal ConComp transcript law = concurrent game tree",
                             f"rounds={rounds} coins={ncoins} strategy={strat}"):
                return
    p.instances("two coin-based mechanisms (1-2 and 1 rounds, 1-3 coins), every deterministic concurrent adversary "
                "(every interleaving and query): literal ConComp = product game tree, on x and x'", n, "exhaustive")
    crosschecked(p, "exactdp concurrent(M_1, M_2) of the same two mechanisms: its deterministic adversaries "
                 "(count_adversaries, adversaries) have the independent ConComp's number of strategies and set of "
                 "distinct view laws", n_lib)
