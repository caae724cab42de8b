"""Vadhan-Wang Definition 8 (null-query extension).

Printed: M^0(x, m; r) = M(x, m'; r), where (1 m'_1, ..., 1 m'_k) is the subsequence of the messages m
that begin with bit 1: messages beginning with 0 are null queries, ignored; M(x, lambda; r) = bottom.

Checked literally (``_compose.null_ext``) with coin realisations of random mechanisms, every coin
setting and random message sequences mixing null and real queries: a null query is answered with
the answer to the last real query (bottom before any), so it reveals nothing new; and M^0's privacy
equals M's: as an interactive mechanism allowing R + 1 messages (R + 2 with --full) (null or real), the least delta of
M^0 at each e^eps (every deterministic adversary) equals M's (the step Lemma 2 needs, not stated in
the paper: the ordered composition of the null-query extensions is of (eps_i, delta_i)-DP mechanisms).
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _compose as C
from . import _interactive as I

NULL = "0"


def null_ext_mech(m: I.Mech, L: int) -> I.Mech:
    """M^0 as a finite interactive mechanism with L messages: queries '0' (null) or '1'+q; answers those of M or bottom."""
    queries = [(NULL,) + tuple("1" + str(q) for q in m.queries[0])] * L
    answers = m.answers + (C.BOTTOM,)
    skel = I.Mech(queries, answers, {})
    cond = {}
    for x in m.cond:
        cx = {}
        for r in range(L):
            for h in skel.histories(r):
                real = [(h[s][1:], h[s + 1]) for s in range(0, len(h) - 1, 2) if h[s] != NULL]
                msg = h[-1]
                if any(a == C.BOTTOM for _, a in real):  # impossible history (a real answer is never bottom)
                    cx[h] = {C.BOTTOM: F(1)}
                elif msg == NULL or len(real) >= m.rounds:
                    last = real[-1][1] if real else C.BOTTOM
                    if msg != NULL:
                        last = C.BOTTOM  # a real query beyond M's rounds: M is not defined there; answer bottom
                    cx[h] = {last: F(1)}
                else:
                    mh = tuple(v for q, a in real for v in (int(q), a)) + (int(msg[1:]),)
                    cx[h] = dict(m.cond[x][mh])
        cond[x] = cx
    return I.Mech(queries, answers, cond, "M^0")


@statement(
    "Definition 8",
    "The null-query extension M^0(x, m; r) = M(x, m'; r), where (1m'_1, ..., 1m'_k) is the subsequence of m of the "
    "messages beginning with 1 (messages beginning with 0 are ignored); M(x, lambda; r) = bottom.",
)
def definition(p: Proof) -> None:
    n_lit = n_priv = 0
    for _ in range(6 if p.full else 3):
        m = I.random_mech(p.rng, 2, 2, 2, exact_den=True, den=p.rng.choice([2, 3, 4]))
        f = I.coin_fn(m)
        M0 = C.null_ext(lambda x, qs, r, f=f: f(x, tuple(int(q) for q in qs), r))
        for _ in range(4):
            msgs = []
            while sum(1 for s in msgs if s.startswith("1")) < m.rounds:
                msgs.append(p.rng.choice([NULL, "1" + str(p.rng.randint(0, 1))]))
            for x in (0, 1):
                for r in I.coin_space(m):
                    last = C.BOTTOM
                    for i in range(1, len(msgs) + 1):
                        a = M0(x, tuple(msgs[:i]), r)
                        n_lit += 1
                        if msgs[i - 1] == NULL:
                            if not p.require(a == last, "a null query repeats the last real answer (bottom before any)",
                                             f"{m} msgs={msgs[:i]} r={r}"):
                                return
                        else:
                            real = tuple(int(s[1:]) for s in msgs[:i] if s.startswith("1"))
                            if not p.require(a == f(x, real, r), "a real query is answered as M would", f"{m} r={r}"):
                                return
                            last = a
    for _ in range(4 if p.full else 2):
        m = I.random_mech(p.rng, 2, 2, 2)
        m0 = null_ext_mech(m, m.rounds + (2 if p.full else 1))
        for w in ((F(1), F(3, 2), F(2), F(4)) if p.full else (F(3, 2), F(4))):
            n_priv += 1
            if not p.require(I.cc_delta([m0], w) == I.cc_delta([m], w), "PrivLoss(M^0) = PrivLoss(M)", f"{m} e^eps={w}"):
                return
    p.instances("literal M^0 over every coin setting: null queries repeat the last real answer (or bottom), real ones "
                "are answered as by M", n_lit, "exhaustive")
    p.instances("M^0 with R + 1 messages (R + 2 with --full) has M's least delta at every e^eps tested (every adversary)", n_priv)
