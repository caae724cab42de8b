"""Vadhan-Zhang Definition 5.1 (optimal alpha-RDP adversary).

Printed: B^OPT is optimal for M and x, x' if D_alpha(View(B^OPT <-> M(x)) || View(B^OPT <-> M(x'))) >=
D_alpha(View(B <-> M(x)) || View(B <-> M(x'))) for all adversaries B.

Checked exactly on random finite mechanisms: an optimal adversary exists and can be taken deterministic --
the maximum over the (finitely many) deterministic adversaries is not exceeded by randomized ones
(coins R in the view: S_alpha of (R, View(B_R)) is the average of the S_alpha(View(B_r))), alpha in
{2, 3, 3/2}.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import crosschecked
from .._framework import Proof, statement
from . import _games as G
from . import _rdp as Rd
from . import _renyi as R


@statement(
    "Definition 5.1",
    "B^OPT is an optimal alpha-RDP adversary for M and x, x' if D_alpha(View(B^OPT <-> M(x)) || View(B^OPT <-> M(x'))) >= "
    "D_alpha(View(B <-> M(x)) || View(B <-> M(x'))) for all adversaries B.",
    library=("exactdp.renyi.renyi_interactive",),
)
def definition(p: Proof) -> None:
    from exactdp.renyi import renyi_interactive

    from ._library import renyi_agree, to_lib

    n = n_lib = 0
    for _ in range(10 if p.full else 4):
        tree = G.rand_tree(p.rng, p.rng.randint(1, 2), zeros=False)
        views = [list(v) for v in G.all_views(tree)]
        for a in (2, 3, F(3, 2)):
            best = Rd.opt_value(tree, a)
            for method in ("dp", "enumerate"):
                n_lib += renyi_agree(p, p.library(f"exactdp renyi_interactive ({method})", renyi_interactive,
                                                  to_lib(tree), a, method=method), best, a,
                                     f"exactdp renyi_interactive ({method})", f"tree={tree} alpha={a}")
            for _ in range(5):
                k = p.rng.randint(2, 4)
                picks = [p.rng.randrange(len(views)) for _ in range(k)]
                rv = [(x / k, y / k) for i in picks for x, y in views[i]]
                n += 1
                if not p.require(R.cmp(Rd.s_view(rv, a), best) <= 0, "randomized adversaries do not beat the best "
                                 "deterministic one", f"tree={tree} alpha={a} picks={picks}"):
                    return
    p.instances("random mechanisms, randomized adversaries mixing 2-4 deterministic ones, alpha in {2, 3, 3/2}", n)
    crosschecked(p, "exactdp renyi_interactive (dynamic programme and enumeration) of the same mechanisms: the optimal "
                 "adversary's D_alpha equals the independent maximum over deterministic adversaries (exact S_alpha, or "
                 "meeting enclosures for alpha = 3/2)", n_lib)
