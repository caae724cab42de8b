"""Vadhan-Zhang Lemma 2.5 (deterministic adversaries suffice).

Printed: an interactive M is d-D DP iff for all neighbouring x, x' and every deterministic adversary B,
D(View(B, M(x)), View(B, M(x'))) <= d.

Checked exactly on random finite interactive mechanisms, for D = T (f-DP), D_inf and D_2: randomized
adversaries (coins R uniform on 2-4 values, a deterministic B_r for each, view (R, View(B_R))) are never
worse than the sup over deterministic ones: T(View) >= the envelope of the deterministic T's; the
largest likelihood ratio and S_2 are at most their deterministic maxima.
"""

from __future__ import annotations

from .._crosscheck import crosschecked
from .._framework import Proof, statement
from . import _divergences as Dv
from . import _games as G
from . import _renyi as R
from . import _tradeoff as T


@statement(
    "Lemma 2.5",
    "M is d-D DP iff for all neighbouring x, x' and every deterministic adversary B, "
    "D(View(B, M(x)), View(B, M(x'))) <= d.",
    library=("exactdp.interactive.adversaries", "exactdp.interactive.count_adversaries",
             "exactdp.interactive.mechanism_tradeoff"),
)
def lemma(p: Proof) -> None:
    from ._library import library_profile, library_views, to_lib

    n = n_lib = 0
    for _ in range(16 if p.full else 6):
        tree = G.rand_tree(p.rng, p.rng.randint(1, 2), first=p.rng.choice("QA"))
        lm = p.library("exactdp InteractiveMechanism", to_lib, tree)
        n_lib += library_views(p, lm, tree, "one mechanism", str(tree))
        n_lib += library_profile(p, lm, G.tight_brute(tree), "sup over deterministic adversaries", str(tree),
                                 ("enumerate",))
        views = [G.view_pairs(tree, s) for s in G.strategies(tree)]
        sup = G.tight_rec(tree)
        wmax = max(max(Dv.max_ratio(v), Dv.max_ratio(T.swap(v))) for v in views)
        smax = max((R.S(v, 2) for v in views), key=lambda s: (s == R.INF, s if s != R.INF else 0))
        for _ in range(6):
            k = p.rng.randint(2, 4)
            picks = [p.rng.randrange(len(views)) for _ in range(k)]
            rv = [(a / k, b / k) for i in picks for a, b in views[i]]      # outcomes (r, transcript)
            n += 1
            ok = (T.le(sup, T.tradeoff(rv)) and max(Dv.max_ratio(rv), Dv.max_ratio(T.swap(rv))) <= wmax
                  and R.cmp(R.S(rv, 2), smax) <= 0)
            if not p.require(ok, "a randomized adversary does no better than the deterministic ones",
                             f"tree={tree} picks={picks}"):
                return
    p.instances("random interactive mechanisms, randomized adversaries mixing 2-4 deterministic ones (coins in the "
                "view): T >= sup over deterministic B, D_inf and D_2 <= their deterministic maxima", n, "exhaustive")
    crosschecked(p, "on the same mechanisms: exactdp adversaries and count_adversaries give the independent "
                 "deterministic strategies (their number and the set of distinct view laws), and mechanism_tradeoff "
                 "(enumerate) the sup over them of T(View(x), View(x'))", n_lib)
