"""Vadhan-Zhang Theorem 1.2 (Vadhan-Wang: an interactive (eps, 0)-DP mechanism is an interactive
post-processing of randomized response).

Printed: for every interactive (eps, 0)-DP M and neighbouring x, x' there is an interactive
post-processing P with View(B <-> M(x)) = View(B <-> P(RR_eps(0))) and
View(B <-> M(x')) = View(B <-> P(RR_eps(1))) for every adversary B.

Checked on random finite interactive (eps, 0)-DP mechanisms (query-first and answer-first, e^eps the
mechanism's tight value, and a looser one): P is built by Theorem 4.1's construction for
f = f_{eps,0} followed by a Blackwell post-processing of RR_eps found by the exact LP (verified
exactly); the two view laws then equal M's for every deterministic adversary (randomized adversaries
are mixtures of these, Lemma 2.5).
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import FAILED, crosschecked
from .._framework import Proof, statement
from . import _concurrent as C
from . import _games as G
from . import _lp
from . import _tradeoff as T


def rr_views_equal(tree, w, p: Proof) -> int:
    """Build P for f_{eps,0}, precompose the kernel RR_eps -> (Y, Y'), compare views; returns #adversaries."""
    pairs, sim = G.build(tree, T.feps(w, 0))
    rr = [(w / (1 + w), 1 / (1 + w)), (1 / (1 + w), w / (1 + w))]   # RR_eps(0), RR_eps(1) on outputs {0, 1}
    K = _lp.blackwell_kernel(rr, pairs)
    if K is None:
        p.refute("a post-processing of RR_eps exists", f"no kernel RR_eps -> (Y, Y'), tree={tree}, w={w}")
        return 0
    n = 0
    for s in G.strategies(tree):
        direct = G.view(tree, s)
        sim_law = {}
        for b in range(2):
            for k, kb in enumerate(K[b]):
                if kb:
                    for t, v in G.sim_view(tree, sim, k, s).items():
                        acc = sim_law.setdefault(t, [F(0), F(0)])
                        acc[0] += rr[b][0] * kb * v
                        acc[1] += rr[b][1] * kb * v
        n += 1
        if not p.require(G.same_view(direct, {t: tuple(v) for t, v in sim_law.items()}),
                         "View(B <-> P(RR_eps(b))) = View(B <-> M(x_b))", f"tree={tree} w={w} strategy={s}"):
            return n
    return n


@statement(
    "Theorem 1.2",
    "For every interactive (eps, 0)-DP M and neighbouring x, x' there is an interactive post-processing P with "
    "View(B <-> M(x)) = View(B <-> P(RR_eps(0))) and View(B <-> M(x')) = View(B <-> P(RR_eps(1))) for every B.",
    library=("exactdp.interactive.rr_simulator", "exactdp.interactive.verify_simulation"),
)
def theorem(p: Proof) -> None:
    from exactdp.interactive import rr_simulator, verify_simulation

    from ._library import simulates, to_lib

    n = n_lib = 0
    for i in range(8 if p.full else 3):
        tree = G.rand_dp_tree(p.rng, p.rng.randint(1, 2), p.rng.choice([F(2), F(4)]))
        if i % 2:
            a = T.rand_dist(p.rng, 2, 6, False)
            b = [a[1], a[0]]
            tree = ("A", (("a0", a[0], b[0], tree), ("a1", a[1], b[1], tree)))
        w = C.pure_w(G.tight_rec(tree))
        lm = p.library("exactdp InteractiveMechanism", to_lib, tree)
        for ww in (w, 2 * w):
            n += rr_views_equal(tree, ww, p)
            T_lib = FAILED if lm is FAILED else p.library("exactdp rr_simulator", rr_simulator, lm, ww)
            if T_lib is not FAILED:
                inst = f"tree={tree} w={ww}"
                n_lib += p.agree(simulates(T_lib, tree, ww, 0), True,
                                 "exactdp rr_simulator (its P: the independent views)", inst)
                for w3 in (ww, ww * F(3, 2)):
                    n_lib += p.agree(p.library("exactdp verify_simulation", verify_simulation, lm, T_lib, w3),
                                     simulates(T_lib, tree, w3, 0), "exactdp verify_simulation (against the "
                                     "independent views)", f"{inst} at w={w3}")
            if p.counterexamples:
                return
    p.instances("random interactive (eps, 0)-DP mechanisms (1-2 rounds, query-first and answer-first; e^eps tight and "
                "doubled), every deterministic adversary: P(RR_eps(0)), P(RR_eps(1)) reproduce M(x), M(x')", n,
                "exhaustive")
    crosschecked(p, "exactdp rr_simulator(M, e^eps) on the same mechanisms: its P post-processing RR_eps gives every "
                 "deterministic adversary's view of M(x) and M(x') (the independent views); verify_simulation agrees "
                 "with the independent judgement at e^eps and at 3/2 e^eps", n_lib)
