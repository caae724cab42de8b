"""Vadhan-Wang Lemma 1 (deterministic adversaries suffice).

Printed: an interactive mechanism M is (eps, delta)-DP iff for every adjacent x, x', every
deterministic adversary A and every T subset Range(View<A, M(.)>), Equation (4) holds.

Checked: (a) on tiny instances, the largest delta over every deterministic adversary enumerated
explicitly (single 1-2 round mechanisms; concurrent compositions of two or three mechanisms with
1 + 1 or 2 + 1 rounds, 640 adversaries; with --full also 1 + 1 + 1 and 2 + 2 with one query) equals the backward-induction value
that all the other checks use; (b) randomized adversaries (a coin r drawn first, part of the
view, then a deterministic strategy per coin; this covers behavioural randomisation too) never
need more delta than the best deterministic one: their delta is the coin-average of the
deterministic ones (Equation (5)'s step) - on single mechanisms and on concurrent compositions.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import FAILED, crosschecked
from .._framework import Proof, statement
from . import _dp as D
from . import _interactive as I


@statement(
    "Lemma 1",
    "An interactive mechanism M is (eps, delta)-DP iff for every adjacent x, x', every deterministic adversary A and "
    "every T subset Range(View<A, M(.)>): Pr[View<A, M(x)> in T] <= e^eps Pr[View<A, M(x')> in T] + delta.",
    library=("exactdp.interactive.adversaries", "exactdp.interactive.count_adversaries", "exactdp.interactive.delta_of"),
)
def lemma(p: Proof) -> None:
    from exactdp.interactive import adversaries, concurrent, count_adversaries, delta_of

    from ._library import to_lib

    n_enum = n_rand = n_lib = 0
    total_adv = 0
    shapes = [[(2, 2, 2)], [(1, 2, 2), (1, 2, 2)], [(2, 2, 2), (1, 2, 2)]]
    if p.full:
        shapes += [[(1, 2, 2), (1, 1, 2), (1, 2, 2)], [(2, 1, 2), (2, 1, 2)], [(1, 2, 2), (2, 2, 2)]]
    for rep in range(2 if p.full else 1):
        for sh in shapes:
            mechs = [I.random_mech(p.rng, *s) for s in sh]
            k = len(mechs)
            ws = (F(1), F(3, 2), F(3))
            best = {(w, d): F(0) for w in ws for d in (0, 1)}
            cnt = 0
            for adv in I.cc_adversaries(mechs):  # every deterministic adversary, one by one
                cnt += 1
                V0, V1 = I.cc_view(mechs, (0,) * k, adv), I.cc_view(mechs, (1,) * k, adv)
                for w in ws:
                    best[(w, 0)] = max(best[(w, 0)], D.hockey(V0, V1, w))
                    best[(w, 1)] = max(best[(w, 1)], D.hockey(V1, V0, w))
            total_adv += cnt
            cc = p.library("exactdp concurrent", lambda: concurrent(*[to_lib(m) for m in mechs]))
            if cc is not FAILED:
                p.agree(p.library("exactdp count_adversaries", count_adversaries, cc), cnt,
                        "exactdp count_adversaries (deterministic interleaving adversaries)", f"{mechs}")
                for w in ws if p.full else ws[1:2]:
                    for method in ("dp", "enumerate") if (p.full or k == 1) else ("dp",):
                        p.agree(p.library(f"exactdp delta_of ({method})", delta_of, cc, exp_eps=w, method=method),
                                max(best[(w, 0)], best[(w, 1)]), f"exactdp delta_of ({method})", f"{mechs} e^eps={w}")
                n_lib += 1
            if k == 1:
                lm = to_lib(mechs[0])
                views = sorted(tuple(x for x in sorted(zip(*a.distributions())) if x != (0, 0)) for a in adversaries(lm))
                want = []
                for adv in I.single_adversaries(mechs[0]):
                    V0, V1 = I.single_view(mechs[0], 0, adv), I.single_view(mechs[0], 1, adv)
                    want.append(tuple(sorted((V0.get(v, F(0)), V1.get(v, F(0))) for v in set(V0) | set(V1))))
                p.agree(views, sorted(want),
                        "exactdp adversaries (view distributions)", f"{mechs[0]}")
            for (w, d), en in best.items():
                a, b = ((0,) * k, (1,) * k) if d == 0 else ((1,) * k, (0,) * k)
                dp = I.cc_hockey(mechs, a, b, w)
                n_enum += 1
                if not p.require(dp == en, "backward induction = max over every deterministic adversary",
                                 f"{mechs} worlds {a}/{b} e^eps={w}: {dp} vs {en}"):
                    return
            # randomized adversaries: mixtures of random deterministic ones, coins in the view
            for _ in range(4):
                advs = [I.random_cc_adversary(p.rng, mechs) for _ in range(3)]
                probs = D.rand_dist_seq(p.rng, 3, zeros=False)
                w = p.rng.choice([F(1), F(3, 2), F(2)])
                V = []
                for b in (0, 1):
                    out = {}
                    for r, (adv, pr) in enumerate(zip(advs, probs)):
                        for v, pv in I.cc_view(mechs, (b,) * k, adv).items():
                            out[(r,) + v] = out.get((r,) + v, F(0)) + pr * pv
                    V.append(out)
                got = D.dp_delta(V[0], V[1], w)
                best = I.cc_delta(mechs, w)
                n_rand += 1
                if not p.require(got <= best, "a randomized adversary needs no more delta than the deterministic ones",
                                 f"{mechs} e^eps={w}: {got} > {best}"):
                    return
    p.instances(f"largest delta over all deterministic adversaries, enumerated one by one ({total_adv} adversaries "
                "in total), = backward induction, both directions", n_enum, "exhaustive")
    p.instances("randomized adversaries (3 coin values, coins in the view) against single and concurrent "
                "mechanisms: delta <= the deterministic maximum", n_rand)
    crosschecked(p, "exactdp on the same mechanisms (game trees, concurrent composition): count_adversaries gives the same "
                 "number of deterministic interleaving adversaries; delta_of (dynamic programme; enumeration for a single "
                 "mechanism, both and every e^eps with --full) the same maximum; for a single mechanism adversaries() "
                 "gives every adversary's pair of view distributions", n_lib)
