"""Vadhan-Zhang Lemma 5.5 (the optimal adversary's first query) and its proof.

Printed: the optimal adversary B^OPT for x, x' chooses its first query q_1 to maximise
D_alpha((A_1, View(B^OPT_{q1,A1} <-> M_{q1,A1}(x))) || (A'_1, View(B^OPT_{q1,A'1} <-> M_{q1,A'1}(x')))), where
B^OPT_{q1,a1} is any optimal adversary against M_{q1,a1}.

Checked exactly on random adversary-first finite mechanisms (alpha in {2, 3, 3/2}): the value of (22) for each
first query (sum_a A(a)^alpha A'(a)^(1-alpha) OPT(M_{q,a})) does not depend on which optimal continuations are
used; the maximum over first queries equals the maximum over all deterministic adversaries; and every optimal
adversary's first query attains it.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import crosschecked
from .._framework import Proof, statement
from . import _games as G
from . import _rdp as Rd
from . import _renyi as R


def trees(p: Proof):
    return [G.rand_tree(p.rng, p.rng.randint(1, 2), nq=p.rng.randint(2, 3), zeros=p.rng.random() < 0.3)
            for _ in range(10 if p.full else 4)]


def q_values(tree, a):
    """(22)'s quantity for each first query, with optimal continuations (value computed by brute force)."""
    return [Rd.first_query_value(child, a, lambda sub: Rd.opt_value(sub, a)) for _, child in tree[1]]


@statement(
    "Lemma 5.5",
    "The optimal adversary chooses q_1 to maximise D_alpha((A_1, View(B^OPT_{q1,A1} <-> M_{q1,A1}(x))) || (A'_1, "
    "View(B^OPT_{q1,A'1} <-> M_{q1,A'1}(x')))), B^OPT_{q1,a1} any optimal adversary against M_{q1,a1}.",
    library=("exactdp.renyi.renyi_interactive",),
)
def lemma(p: Proof) -> None:
    from exactdp.renyi import renyi_interactive

    from ._library import renyi_agree, to_lib

    n = n_lib = 0
    for tree in trees(p):
        for a in (2, 3, F(3, 2)):
            vals = q_values(tree, a)
            best = Rd.smax(vals)
            opt, total = Rd.optimal_strategies(tree, a)
            n += 1
            # the library's dynamic programme picks the first query by (22) with optimal continuations
            n_lib += renyi_agree(p, p.library("exactdp renyi_interactive", renyi_interactive, to_lib(tree), a), best, a,
                                 "exactdp renyi_interactive (max over q_1 of (22))", f"tree={tree} alpha={a}")
            if not p.require(R.cmp(best, total) == 0, "max over q_1 of (22) = max over all adversaries",
                             f"tree={tree} alpha={a}"):
                return
            for s in opt:
                n += 1
                if not p.require(R.cmp(vals[s[0]], best) == 0, "every optimal adversary's q_1 maximises (22)",
                                 f"tree={tree} alpha={a} strategy={s}"):
                    return
            for qi, (_, child) in enumerate(tree[1]):           # any optimal continuations give the same value
                conts = []
                for (_, p0, p1, g) in child[1]:
                    og, _ = Rd.optimal_strategies(g, a)
                    conts.append(og)
                for pick in range(3):
                    combo = tuple(c[(pick * 7 + i) % len(c)] for i, c in enumerate(conts))
                    n += 1
                    if not p.require(R.cmp(Rd.s_view(G.view_pairs(tree, (qi, combo)), a), vals[qi]) == 0,
                                     "(22) with any optimal continuations", f"tree={tree} alpha={a} q={qi}"):
                        return
    p.instances("random adversary-first mechanisms (1-2 rounds, 2-3 queries), alpha in {2, 3, 3/2}", n, "exhaustive")
    crosschecked(p, "exactdp renyi_interactive (its dynamic programme) of the same mechanisms equals the maximum over "
                 "first queries of (22)", n_lib)
