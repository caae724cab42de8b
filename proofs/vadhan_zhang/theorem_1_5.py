"""Vadhan-Zhang Theorem 1.5 (an interactive f-DP mechanism is an interactive post-processing of a
non-interactive f-DP mechanism).

Printed: for every trade-off function f, every interactive f-DP M with finite communication and
neighbouring x, x', there are a non-interactive f-DP N and a randomized interactive post-processing P
with View(B <-> M(x)) = View(B <-> P(N(x))) and View(B <-> M(x')) = View(B <-> P(N(x'))) for every B.

Checked on random and extreme finite interactive mechanisms (1-3 messages, query-first and
answer-first): N = (Y, Y') and P built by Theorem 4.1's construction (Blackwell kernels by the exact
LP, verified exactly); T(Y, Y') >= f, and for every deterministic adversary both view laws equal M's.
f is the mechanism's own privacy profile (the strongest f it satisfies) and, separately, the weaker
f_{eps,delta} it satisfies. Step: in the (eps, delta) case N can be the (eps, delta)-randomized response.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _concurrent as C
from . import _games as G
from . import _lp
from . import _tradeoff as T


def trees(p: Proof):
    out = []
    for i in range(8 if p.full else 4):
        r = p.rng.randint(1, 2)
        out.append(G.rand_tree(p.rng, r, first="QA"[i % 2]))
    out.append(C.skewed_tree(p.rng, 2))
    if p.full:
        out += [G.rand_tree(p.rng, 3, nq=1), G.rand_tree(p.rng, 2, nq=1, na=3, first="A")]
    return out


def check_simulation(p: Proof, tree, f, what) -> int:
    pairs, sim = G.build(tree, f)
    if not p.require(T.le(f, T.tradeoff(pairs)), f"N is f-DP ({what})", f"tree={tree}"):
        return 0
    n = 0
    for s in G.strategies(tree):
        n += 1
        if not p.require(G.same_view(G.view(tree, s), G.simulated_view(tree, pairs, sim, s)),
                         f"View(B <-> P(N(x))) = View(B <-> M(x)) on x and x' ({what})", f"tree={tree} strategy={s}"):
            return n
    return n


@statement(
    "Theorem 1.5",
    "For every trade-off function f, every interactive f-DP mechanism M with finite communication and neighbouring "
    "x, x', there are a non-interactive f-DP N and an interactive post-processing P with View(B <-> M(x)) = "
    "View(B <-> P(N(x))) and View(B <-> M(x')) = View(B <-> P(N(x'))) for every adversary B.",
)
def theorem(p: Proof) -> None:
    n = 0
    for tree in trees(p):
        f = G.tight_rec(tree)
        n += check_simulation(p, tree, f, "f = the privacy profile")
        w = p.rng.choice([F(1), F(3), F(50)])
        n += check_simulation(p, tree, T.feps(w, T.delta_for(f, w)), "f = f_{eps,delta}")
        if p.counterexamples:
            return
    p.instances("random and extreme finite interactive mechanisms (query-first and answer-first, up to 2 rounds), every "
                "deterministic adversary, f = profile and f = f_{eps,delta}: T(N(x), N(x')) >= f and P(N) reproduces M",
                n, "exhaustive")


@statement(
    "Theorem 1.5 (proof: (eps, delta)-RR suffices)",
    "In the case of (eps, delta)-DP one can take N to be the (eps, delta)-randomized response.",
)
def rr_suffices(p: Proof) -> None:
    n = 0
    for j, tree in enumerate(trees(p)):
        f = G.tight_rec(tree)
        for w in ((F(2), F(1000)) if p.full else (F(2) if j % 2 else F(1000),)):
            d = T.delta_for(f, w)
            rr = [pq for pq in T.rr_pair(w, d) if pq[0] or pq[1]]
            pairs, sim = G.build(tree, T.feps(w, d))
            K = _lp.blackwell_kernel(rr, pairs)
            n += 1
            if not p.require(K is not None, "(Y, Y') is a post-processing of (eps, delta)-RR", f"tree={tree} w={w}"):
                return
            if tree[0] == "Q":
                n += 1
                if not p.require(sorted(pairs) == sorted(rr), "for a query-first M the construction's N is RR itself",
                                 f"tree={tree} w={w}: {pairs}"):
                    return
    p.instances("the constructed N for f = f_{eps,delta} is a post-processing of (eps, delta)-RR (Blackwell kernel, exact "
                "LP, verified), and is RR itself (up to relabelling) when the adversary speaks first", n)
