"""Vadhan-Zhang Theorem 5.1 (Lyu: optimal concurrent composition of Renyi DP).

Printed: for all alpha > 1, k, eps_1..eps_k > 0 and interactive (alpha, eps_i)-RDP M_i, ConComp(M_1..M_k) is
(alpha, sum eps_i)-RDP.

Checked exactly on random finite interactive mechanisms (k = 2 and 3), eps_i the tight value
of M_i for the pair (x, x') (the max over deterministic adversaries): every deterministic concurrent
adversary has D_alpha(View(x) || View(x')) <= eps_1 + eps_2, i.e. S_alpha(view) <= S_1 S_2, and the bound is
attained (the proof's equality). Orders alpha in {2, 3, 3/2, 101/100} (also 10, 100, 201/2 with --full):
Fractions for integer orders, exact radical sums with certified signs otherwise. Mechanisms with zero
masses (eps_i = inf) are included.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import FAILED, crosschecked
from .._framework import Proof, statement
from . import _concurrent as C
from . import _games as G
from . import _rdp as Rd
from . import _renyi as R


def orders(p: Proof):
    return [2, 3, F(3, 2), F(101, 100)] + ([10, 100, F(201, 2)] if p.full else [])


def instances(p: Proof):
    out = []
    for r1, r2, nq in [(1, 1, 2), (1, 2, 2), (2, 2, 1)] + ([(2, 1, 2), (3, 1, 1)] if p.full else []):
        out.append(tuple(G.rand_tree(p.rng, r, nq=nq, zeros=False) for r in (r1, r2)))
    out.append(tuple(G.rand_tree(p.rng, 1, nq=2) for _ in range(2)))       # zero masses allowed
    return out


@statement(
    "Theorem 5.1",
    "For all alpha > 1, k, eps_i > 0 and interactive (alpha, eps_i)-RDP M_1..M_k, ConComp(M_1..M_k) is "
    "(alpha, sum_i eps_i)-RDP.",
    library=("exactdp.renyi.renyi_concurrent",),
)
def theorem(p: Proof) -> None:
    from exactdp.renyi import renyi_concurrent

    from ._library import renyi_agree, to_lib

    n = n_lib = 0
    for trees in instances(p):
        cc = G.concomp(*trees)
        vs, nb = C.views(cc)
        for a in (orders(p) if len(vs) <= 64 else [2, 3]):
            bound = R.mul(Rd.opt_value(trees[0], a), Rd.opt_value(trees[1], a))
            vals = [Rd.s_view(v, a) for v in vs]
            n += nb
            if a in (2, 3, F(3, 2)):
                got = p.library("exactdp renyi_concurrent", renyi_concurrent, [to_lib(t) for t in trees], a)
                if got is not FAILED:
                    inst = f"alpha={a} trees={trees}"
                    n_lib += renyi_agree(p, got[0], Rd.smax(vals), a, "exactdp renyi_concurrent (ConComp)", inst)
                    for t, part in zip(trees, got[1]):
                        n_lib += renyi_agree(p, part, Rd.opt_value(t, a), a, "exactdp renyi_concurrent (a component)",
                                             inst)
            if not p.require(all(R.cmp(v, bound) <= 0 for v in vals), "D_alpha(concurrent views) <= eps_1 + eps_2",
                             f"alpha={a} trees={trees}"):
                return
            if not p.require(R.cmp(Rd.smax(vals), bound) == 0, "the bound is attained", f"alpha={a} trees={trees}"):
                return
    m = 0
    for k in ((3, 3, 3) if p.full else (3,)):   # k = 3 (three instances with --full): the same, the bound attained
        trees = tuple(G.rand_tree(p.rng, 1, nq=2, zeros=False) for _ in range(k))
        vs, nb = C.views(G.concomp(*trees))
        for a in (2, F(3, 2)):
            bound = Rd.opt_value(trees[0], a)
            for t in trees[1:]:
                bound = R.mul(bound, Rd.opt_value(t, a))
            vals = [Rd.s_view(v, a) for v in vs]
            m += nb
            if not p.require(all(R.cmp(v, bound) <= 0 for v in vals), f"k = {k}: D_alpha(views) <= sum eps_i",
                             f"alpha={a} trees={trees}"):
                return
            if not p.require(R.cmp(Rd.smax(vals), bound) == 0, f"k = {k}: the bound is attained", f"alpha={a}"):
                return
    p.instances("random finite interactive mechanisms (k = 2), every deterministic concurrent adversary, alpha in "
                f"{orders(p)}: S_alpha(view) <= prod S_i (= D_alpha <= sum eps_i), with equality for the best adversary",
                n, "exhaustive")
    p.instances("k = 3 one-round mechanisms (one, --full three; k = 4 has too many concurrent adversaries), every "
                "concurrent adversary, alpha in {2, 3/2}: the same, "
                "the bound attained", m, "exhaustive")
    crosschecked(p, "exactdp renyi_concurrent on the same mechanisms (alpha in {2, 3, 3/2}): the optimal concurrent "
                 "adversary's D_alpha equals the independent maximum over every concurrent adversary, and each "
                 "component's its own optimum (exact S_alpha, meeting enclosures for 3/2)", n_lib)
