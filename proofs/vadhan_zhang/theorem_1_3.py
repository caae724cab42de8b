"""Vadhan-Zhang Theorem 1.3 (concurrent composition for (eps, delta)-DP interactive mechanisms).

Printed: if the composition of all non-interactive (eps_i, delta_i)-DP mechanisms is (eps, delta)-DP,
then for all interactive (eps_i, delta_i)-DP mechanisms with finite communication the concurrent
composition is (eps, delta)-DP.

Checked on random finite interactive mechanisms (k = 2; also mechanisms with probabilities down to
10^-6 and zero masses): e^eps_i from {1, 2, 1000}, delta_i the least delta making M_i
(eps_i, delta_i)-DP; delta(eps) of the hypothesis is that of f_{eps_1,delta_1} (x) f_{eps_2,delta_2}
(the composition of the two (eps_i, delta_i)-randomized responses, the worst case); every deterministic
concurrent adversary's views satisfy the (eps, delta(eps)) inequality in both orders, for e^eps from
1 to 10^6. Cross-check: exactdp's composed_delta.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import crosschecked
from .._framework import Proof, statement
from . import _concurrent as C
from . import _games as G
from . import _tradeoff as T
from .theorem_1_1 import _lib_delta


@statement(
    "Theorem 1.3",
    "If Comp(M_1..M_k) of non-interactive (eps_i, delta_i)-DP mechanisms is always (eps, delta)-DP, then ConComp(M_1..M_k) "
    "of interactive (eps_i, delta_i)-DP mechanisms with finite communication is (eps, delta)-DP.",
    library=("exactdp.composed_delta", "exactdp.interactive.compare_concurrent",
             "exactdp.interactive.optimal_delta_at_sum"),
)
def theorem(p: Proof) -> None:
    from exactdp import Mechanism
    from exactdp.interactive import optimal_delta_at_sum

    from ._library import library_concurrent

    n = n_lib = n_cd = skipped = 0
    for idx, (r1, r2, nq) in enumerate(C.shapes(p)):
        gen = (lambda r: C.skewed_tree(p.rng, r, nq)) if idx % 2 else (lambda r: G.rand_tree(p.rng, r, nq=nq))
        trees = [gen(r) for r in (r1, r2)]
        fs = [G.tight_rec(t) for t in trees]
        ws = [p.rng.choice([F(1), F(2), F(1000)]) for _ in trees]
        ds = [T.delta_for(f, w) for f, w in zip(fs, ws)]
        if not all(T.le(T.feps(w, d), f) for f, w, d in zip(fs, ws, ds)):
            p.refute("instance set-up", "delta_for is not the least delta")
            return
        comp = T.tensor(*[T.feps(w, d) for w, d in zip(ws, ds)])
        vs, nb = C.views(G.concomp(*trees))
        for wg in sorted({F(1), ws[0], ws[1], ws[0] * ws[1], F(10) ** 6}):
            dg = T.delta_for(comp, wg)
            if any(d >= 1 for d in ds):  # exactdp takes delta_i in [0, 1)
                skipped += 1
            else:
                n_cd += p.agree(p.library("exactdp composed_delta", _lib_delta, ws, ds, wg), dg,
                                "exactdp composed_delta", f"ws={ws} deltas={ds} w_g={wg}")
                n_lib += library_concurrent(p, trees, vs, wg, ds, f"ws={ws} deltas={ds} trees={trees}")
            if wg == ws[0] * ws[1] and all(d < 1 for d in ds):
                n_cd += p.agree(p.library("exactdp optimal_delta_at_sum", optimal_delta_at_sum,
                                          [Mechanism(exp_eps=w, delta=d) for w, d in zip(ws, ds)]), dg,
                                "exactdp optimal_delta_at_sum", f"ws={ws} deltas={ds}")
            worst = max(max(T.hockey(v, wg), T.hockey(T.swap(v), wg)) for v in vs)
            n += nb
            if not p.require(worst <= dg, "every concurrent adversary's views are (eps, delta(eps))-close",
                             f"ws={ws} deltas={ds} w_g={wg}: {worst} > {dg}; trees={trees}"):
                return
    # k = 3: three mechanisms, every concurrent adversary
    m = 0
    for shape in ((1, 1, 1, 2), (2, 1, 1, 1)) + (((1, 1, 2, 1), (1, 1, 1, 2)) if p.full else ()):
        trees = [G.rand_tree(p.rng, r, nq=shape[3]) for r in shape[:3]]
        fs = [G.tight_rec(t) for t in trees]
        ws = [p.rng.choice([F(1), F(2), F(1000)]) for _ in trees]
        ds = [T.delta_for(f, w) for f, w in zip(fs, ws)]
        comp = T.tensor(*[T.feps(w, d) for w, d in zip(ws, ds)])
        vs, nb = C.views(G.concomp(*trees))
        for wg in sorted({F(1), ws[0], ws[0] * ws[1], ws[0] * ws[1] * ws[2], F(10) ** 6}):
            dg = T.delta_for(comp, wg)
            worst = max(max(T.hockey(v, wg), T.hockey(T.swap(v), wg)) for v in vs)
            m += nb
            if not p.require(worst <= dg, "k = 3: every concurrent adversary's views are (eps, delta(eps))-close",
                             f"ws={ws} deltas={ds} w_g={wg}: {worst} > {dg}; trees={trees}"):
                return
    p.instances("k = 3 random interactive mechanisms (shapes 1+1+1 rounds with 2 queries, 2+1+1 rounds with 1; --full two "
                "more), every deterministic concurrent adversary, five e^eps (shapes with 2 rounds and 2 queries are too many adversaries)", m, "exhaustive")
    p.instances("random and extreme (probabilities 10^-3, 10^-6, 0) interactive mechanisms, k = 2, every deterministic "
                "concurrent adversary, e^eps_i in {1, 2, 1000}, e^eps in {1, e^eps_i, e^(eps_1+eps_2), 10^6}", n,
                "exhaustive")
    crosschecked(p, "exactdp composed_delta of the (e^eps_i, delta_i) at each e^eps, and optimal_delta_at_sum at "
                 "e^eps = e^(eps_1+eps_2), equal the tensor's exact delta", n_cd)
    crosschecked(p, "exactdp compare_concurrent on the same mechanisms and delta_i at each e^eps: its concurrent delta "
                 "(best interleaving adversary) equals the independent worst view, its tensor delta the tensor of the "
                 "mechanisms' own trade-off functions", n_lib)
    if skipped:
        p.note(f"{skipped} comparison points with some delta_i = 1 (outside exactdp's delta in [0, 1)) are not "
               "cross-checked.")
