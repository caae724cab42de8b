"""Vadhan-Wang Lemma 2 (it suffices to consider ordered compositions of null-query extensions).

Printed: ConComp(M_0..M_{k-1}) is (eps, delta)-DP if the ordered concurrent composition of the
null-query extensions, ConComp_order(M^0_1, ..., M^0_k) [sic: M^0_0..M^0_{k-1} in the proof], is.

Checked: (a) the statement on random small mechanisms: the least delta of ConComp (every
interleaving adversary) at each e^eps is at most that of ConComp_order of the null-query extensions
(every adversary of the round-robin composition, which may send null queries); they are in fact
equal on every instance (recorded); (b) the proof's construction (step): A' from A and Post.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

from .._framework import Proof, statement
from . import _compose as C
from . import _interactive as I


@statement(
    "Lemma 2",
    "ConComp(M_0..M_{k-1}) is an (eps, delta)-DP interactive mechanism if the ordered concurrent composition of the "
    "null-query extensions, ConComp_order(M^0_1..M^0_k), is (eps, delta)-DP.",
)
def lemma(p: Proof) -> None:
    n = eq = 0
    for _ in range(8 if p.full else 4):
        k = p.rng.choice([2, 2, 3])
        mechs = [I.random_mech(p.rng, *s) for s in ([(2, 2, 2), (1, 2, 2), (1, 2, 2)][:k] if k == 3 else
                                                     [(2, 2, 2), (p.rng.randint(1, 2), 2, 2)])]
        for w in (F(1), F(3, 2), F(3)):
            for a, b in (((0,) * k, (1,) * k), ((1,) * k, (0,) * k)):
                free = I.cc_hockey(mechs, a, b, w)
                ordered = I.ordered_null_hockey(mechs, a, b, w)
                n += 1
                eq += free == ordered
                if not p.require(free <= ordered, "delta of ConComp <= delta of ConComp_order(M^0_i)",
                                 f"{mechs} e^eps={w}: {free} > {ordered}"):
                    return
    p.instances("least delta of ConComp (free interleaving) <= that of the round-robin composition of null-query "
                "extensions, every adversary of each, both directions (k = 2, 3)", n)
    p.note(f"Equal in {eq} of {n} instances. Typo (harmless): the statement writes M^0_1..M^0_k for M^0_0..M^0_{{k-1}}.")


@statement(
    "Lemma 2 (proof: View<A, M(x)> = Post(View<A', M'(x)>) for the adversary A')",
    "A' sends, before A's query q_i = (q*_i, t) following a query to M_s, the null query 0 to M^0_{(s+1) mod k}, ..., "
    "M^0_{(t-1) mod k} in order, then 1q*_i to M^0_t; then M(x, q; r) = M'(x, q'; r) and View<A, M(x)> = "
    "Post(View<A', M'(x)>), Post removing the answers to the null queries.",
)
def construction(p: Proof) -> None:
    n = 0
    for _ in range(6 if p.full else 3):
        k = p.rng.choice([2, 3])
        mechs = [I.random_mech(p.rng, p.rng.randint(1, 2), 2, 2, exact_den=True, den=2) for _ in range(k)]
        fns = [I.coin_fn(m) for m in mechs]
        strfns = [lambda x, qs, r, f=f: f(x, tuple(int(q) for q in qs), r) for f in fns]
        M = C.concomp(fns)
        Mp = C.ordered([C.null_ext(f) for f in strfns])
        plan = C.lemma2_plan(k)
        spaces = [I.coin_space(m) for m in mechs]
        total = sum(m.rounds for m in mechs)
        for _ in range(3):
            adv = I.random_cc_adversary(p.rng, mechs)
            x = tuple(p.rng.randint(0, 1) for _ in range(k))
            for r in itertools.product(*spaces):
                # A with ConComp (Definition 6)
                msgs, answers = (), ()
                for _ in range(total):
                    j, q = adv(answers)
                    msgs += ((q, j),)
                    answers += (M(x, msgs, r),)
                # A' with ConComp_order of the null-query extensions, then Post
                msgs2, view2, real_answers, s = (), [], (), k - 1
                for _ in range(total):
                    j, q = adv(real_answers)
                    for msg, is_null in plan(s, (str(q), j)):
                        msgs2 += (msg,)
                        view2.append((M_p := Mp(x, msgs2, r), is_null))
                    real_answers += (M_p,)
                    s = j
                post = tuple(a for a, is_null in view2 if not is_null)
                n += 1
                if not p.require(post == answers, "Post(View<A', M'(x; r)>) = View<A, M(x; r)>",
                                 f"{mechs} x={x} r={r}: {post} vs {answers}"):
                    return
    p.instances("for every coin tuple r, random deterministic A (k = 2, 3): A' (steps 1-4 of the proof) against "
                "ConComp_order of the null-query extensions, with Post dropping the null queries' answers, reproduces "
                "A's view with ConComp exactly", n, "exhaustive")
    p.note("For the first query the proof's s (target of the previous query) is undefined; s = k - 1 is used (nulls "
           "to M_0..M_{t-1}). Post 'removes all repeated answers due to the null queries': it must drop the answers to "
           "the null queries (known to A'), not every answer equal to its predecessor (a real answer may repeat).")
