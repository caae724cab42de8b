"""Vadhan-Zhang Definition 2.2 (d-D DP for interactive mechanisms).

Printed: M is d-D DP if D(View(B <-> M(x)), View(B <-> M(x'))) <= d for every adversary B and every
pair of neighbouring datasets.

Checked on random finite interactive mechanisms, for D = T (f-DP) and D = D_inf (pure DP): the
definition over every deterministic adversary and sampled randomized ones (coins in the view) holds
iff d is below the sup of Lemma 2.4 over the adversaries (the lower convex envelope of the views'
trade-off functions, resp. the largest likelihood ratio), for d at the sup, strictly stronger, and
random d.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _concurrent as C
from . import _divergences as Dv
from . import _games as G
from . import _tradeoff as T


def randomized_views(rng, views, count=2):
    out = []
    for _ in range(count):
        k = rng.randint(2, 3)
        picks = [rng.randrange(len(views)) for _ in range(k)]
        out.append([(a / k, b / k) for i in picks for a, b in views[i]])
    return out


@statement(
    "Definition 2.2",
    "An interactive M is d-D DP if D(View(B <-> M(x)), View(B <-> M(x'))) <= d for every adversary B and all "
    "neighbouring x, x'.",
)
def definition(p: Proof) -> None:
    n = 0
    for _ in range(12 if p.full else 6):
        tree = G.rand_tree(p.rng, p.rng.randint(1, 2), first=p.rng.choice("QA"))
        views = [G.view_pairs(tree, s) for s in G.strategies(tree)]
        views += randomized_views(p.rng, views)
        sup = G.tight_rec(tree)
        cands = [sup, T.rand_tf(p.rng, 3), T.feps(F(2), F(1, 10)), T.IDENTITY, T.PERFECT]
        for d in cands:
            n += 1
            lit = all(T.le(d, T.tradeoff(v)) for v in views)   # D(View) <= d in the poset: T(View) >= d pointwise
            if not p.require(lit == T.le(d, sup), "f-DP over all adversaries <=> d <= sup (poset)",
                             f"tree={tree} d={T.fmt_tf(d)}"):
                return
        wmax = C.pure_w(sup)
        for w in ([wmax, wmax * F(99, 100)] if wmax is not None else []) + [F(2), F(10)]:
            n += 1
            lit = all(Dv.max_ratio(v) <= w and Dv.max_ratio(T.swap(v)) <= w for v in views)
            want = wmax is not None and wmax <= w
            if not p.require(lit == want, "pure DP over all adversaries <=> e^eps >= the largest ratio",
                             f"tree={tree} w={w}"):
                return
    p.instances("random interactive mechanisms; D = T with d in {sup, random, f_(ln 2, 1/10), 1 - alpha, 0} and "
                "D = D_inf: the definition over every deterministic and sampled randomized adversary <=> d vs the sup",
                n, "exhaustive")
