"""Vadhan-Zhang Definition 1.4 ((eps, delta)-DP interactive mechanisms).

The displayed inequality was lost in the text conversion (the line after "we have" is empty); it is
transcribed from the surrounding text ("the views of an adversary ... satisfying the same
(eps, delta)-closeness notion as in non-interactive differential privacy"):

    Pr[View(B <-> M(x)) in S] <= e^eps Pr[View(B <-> M(x')) in S] + delta

for every pair of neighbouring datasets, every adversary B and every set S of views.

Checked on random finite interactive mechanisms (game trees, both orders of the pair): the literal
definition over every deterministic adversary, a sample of randomized ones (coins in the view) and
every set S of views holds iff f_{eps,delta} <= the mechanism's privacy profile (the sup over
adversaries of T(View(x), View(x')), Lemma 2.4), at and just below the threshold delta.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import FAILED, crosschecked
from .._framework import Proof, statement
from . import _games as G
from . import _tradeoff as T


def literal(tree, w, d, rng, randomized=2) -> bool:
    views = [G.view_pairs(tree, s) for s in G.strategies(tree)]
    for _ in range(randomized):  # randomized adversaries: coins R uniform on k values, view (R, View(B_R))
        k = rng.randint(2, 3)
        picks = [rng.randrange(len(views)) for _ in range(k)]
        views.append([(a / k, b / k) for i in picks for a, b in views[i]])
    # every set S of views: literally over all subsets when there are at most 6 views, else through the
    # maximising set {P > w Q} (their equality is checked exhaustively in Definition 1.1)
    hs = [T.hockey_brute if len(v) <= 6 else T.hockey for v in views]
    return all(h(v, w) <= d and h(T.swap(v), w) <= d for h, v in zip(hs, views))


@statement(
    "Definition 1.4",
    "M is an (eps, delta)-DP interactive mechanism if for all neighbouring x, x', every adversary B and every set S of "
    "views, Pr[View(B <-> M(x)) in S] <= e^eps Pr[View(B <-> M(x')) in S] + delta [display lost in conversion].",
    library=("exactdp.interactive.delta_of", "exactdp.interactive.privacy_loss"),
)
def definition(p: Proof) -> None:
    from exactdp.interactive import delta_of, privacy_loss

    from .._crosscheck import exp_exact
    from ._library import to_lib
    from .theorem_1_5 import _least_w

    n = n_lib = 0
    for _ in range(7 if p.full else 4):
        tree = G.rand_tree(p.rng, p.rng.randint(1, 2), first=p.rng.choice("QA"))
        f = G.tight_rec(tree)
        lm = p.library("exactdp InteractiveMechanism", to_lib, tree)
        for w in (F(1), F(2), F(9, 2)):
            d = T.delta_for(f, w)
            if lm is not FAILED:
                inst = f"tree={tree} w={w}"
                n_lib += p.agree(p.library("exactdp delta_of", delta_of, lm, exp_eps=w), d,
                                 "exactdp delta_of (the least delta)", inst)
                if d < 1:
                    n_lib += p.agree(exp_exact(p.library("exactdp privacy_loss", privacy_loss, lm, d)), _least_w(f, d),
                                     "exactdp privacy_loss (e^eps at that delta)", f"{inst} delta={d}")
            for dd in sorted({d, F(0), d - d / 100, (1 + d) / 2}):
                if dd < 0:
                    continue
                n += 1
                lit = literal(tree, w, dd, p.rng)
                if not p.require(lit == T.le(T.feps(w, dd), f), "literal interactive (eps, delta)-DP <=> f_{eps,delta} "
                                 "<= sup_B T(View)", f"tree={tree} w={w} delta={dd}"):
                    return
    p.instances("random interactive mechanisms (1-2 rounds, query-first and answer-first), every deterministic and "
                "sampled randomized adversaries, every set of views: the transcribed inequality holds iff "
                "f_{eps,delta} <= the privacy profile", n, "exhaustive")
    crosschecked(p, "exactdp delta_of(M, e^eps) on the same mechanisms equals the least delta of the definition "
                 "(the threshold above), and privacy_loss(M, delta) gives the least e^eps at that delta (from the "
                 "independent privacy profile)", n_lib)
    p.note("The display of Definition 1.4 is missing from the text (conversion damage); the transcription above is the "
           "one the surrounding text and Definition 1.1 give.")
