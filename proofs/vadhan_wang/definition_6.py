"""Vadhan-Wang Definition 6 (concurrent composition of interactive protocols).

Printed: M = ConComp(M_0..M_{k-1}) has coins r = (r_0..r_{k-1}), inputs x = (x_0..x_{k-1}), and
M(x, m_0..m_{i-1}; r): (a) parse m_{i-1} as (q, j), q a query, j in [k]; halt if it cannot be parsed;
(b) extract the history (m_0^j..m_{t-1}^j) of the queries to M_j; (c) output M_j(x_j, m_0^j..m_{t-1}^j; r_j).

Checked: the composition run literally (``_compose.concomp``) from coin realisations of random
finite mechanisms (k = 2, 3), for random deterministic interleaving adversaries, enumerating every
coin tuple: the distribution of the adversary's transcript (j, q, a)... equals the product of each
mechanism's own conditionals along its own sub-history (the form the backward induction of
``_interactive.cc_hockey`` relies on); mixed inputs (x_j differing across j, as the hybrids of
Theorems 3.1 and 4.1 use) included; an unparseable message gives halt. "j in [k]" with mechanisms
indexed 0..k-1: harmless notation.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

from .._crosscheck import FAILED, crosschecked
from .._framework import Proof, statement
from . import _compose as C
from . import _interactive as I


def literal_view(mechs, world, adv) -> dict:
    """Distribution of the transcript of deterministic adv with Definition 6's M, over every coin tuple."""
    fns = [I.coin_fn(m) for m in mechs]
    M = C.concomp(fns)
    spaces = [I.coin_space(m) for m in mechs]
    total = sum(m.rounds for m in mechs)
    pr = F(1, 1)
    for s in spaces:
        pr /= len(s)
    out: dict = {}
    for r in itertools.product(*spaces):
        msgs, answers, trans = (), (), ()
        for _ in range(total):
            j, q = adv(answers)
            msgs += ((q, j),)
            a = M(tuple(world), msgs, r)
            answers += (a,)
            trans += ((j, q, a),)
        out[trans] = out.get(trans, F(0)) + pr
    return out


@statement(
    "Definition 6",
    "ConComp(M_0..M_{k-1}) with coins (r_0..r_{k-1}) and inputs (x_0..x_{k-1}): on messages m_0..m_{i-1}, parse m_{i-1} "
    "as (q, j) (else halt), extract the queries to M_j, output M_j(x_j, m_0^j..m_{t-1}^j; r_j).",
    library=("exactdp.interactive.concurrent",),
)
def definition(p: Proof) -> None:
    from exactdp.interactive import concurrent, delta_of

    from ._library import to_lib

    n = n_lib = 0
    for _ in range(8 if p.full else 4):
        k = p.rng.choice([2, 2, 3])
        mechs = [I.random_mech(p.rng, p.rng.randint(1, 2) if j == 0 else 1, 2, 2, exact_den=True,
                               den=p.rng.choice([2, 3, 4])) for j in range(k)]
        cc = p.library("exactdp concurrent", lambda: concurrent(*[to_lib(m) for m in mechs]))
        for w in (F(1), F(2)):
            p.agree(FAILED if cc is FAILED else p.library("exactdp delta_of", delta_of, cc, exp_eps=w),
                    I.cc_delta(mechs, w), "exactdp concurrent (delta_of at e^eps)", f"{mechs} e^eps={w}")
            n_lib += 1
        for _ in range(2):
            adv = I.random_cc_adversary(p.rng, mechs)
            world = tuple(p.rng.randint(0, 1) for _ in range(k))
            n += 1
            if not p.require(literal_view(mechs, world, adv) == I.cc_view(mechs, world, adv),
                             "literal ConComp transcript distribution = product of the mechanisms' own conditionals",
                             f"{mechs} inputs={world}"):
                return
    M = C.concomp([I.coin_fn(I.random_mech(p.rng, 1, 2, 2, exact_den=True, den=2))])
    n += 1
    if not p.require(M((0,), ("not a (q, j) pair",), ((0,),)) == C.HALT and M((0,), ((0, 5),), ((0,),)) == C.HALT,
                     "unparseable message -> halt", ""):
        return
    p.instances("Definition 6 run literally over every coin tuple (k = 2, 3, mixed inputs): adversary's transcript "
                "distribution = product form; unparseable -> halt", n, "exhaustive")
    crosschecked(p, "exactdp concurrent(M_0, ..., M_{k-1}) (one game tree) has the least delta of the independent "
                 "backward induction over every interleaving adversary (e^eps in {1, 2})", n_lib)
    p.note("'j in [k]' while the mechanisms are M_0..M_{k-1}: notation, harmless.")
