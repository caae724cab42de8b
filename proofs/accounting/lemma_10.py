"""Accounting Lemma 10: under add_remove the composed delta(eps) is the maximum of the two
directions' composed curves (each direction composed on its own), and eps(delta) the
maximum of the two directions' eps(delta).

Checks (exact, Fractions, exhaustive): heterogeneous compositions of k = 2, 3 Poisson-subsampled
mechanisms (Lemma 5's setting: sum of the records' values + a seeded random asymmetric noise
per step, rates q_t per step) on every dataset of a 3-record universe and every neighbour
under add_remove: the sup over neighbours of H_alpha of the composed outputs equals the
maximum of H_alpha of the product of the steps' remove pairs and of the product of their add
pairs (Lemma 5), on the alpha grid; each curve is non-increasing in alpha; on a fine grid of
alpha, the least alpha at which the add_remove curve is <= delta is the larger of the two
directions' least alphas, for several delta.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

from .._framework import Proof, statement
from . import _discrete as D
from . import lemma_5 as L5


def composed_delta(rem_pairs, add_pairs, alpha):
    """Lemma 10's add_remove curve (the transcription checked): the max of the two directions, each composed."""
    return max(D.hs(product_all(rem_pairs), alpha), D.hs(product_all(add_pairs), alpha))


def product_all(pairs):
    out = [(F(1), F(1))]
    for pr in pairs:
        out = D.product(out, pr)
    return out


def composed_law(step_laws):
    """The law of the k steps' outputs on one dataset: {tuple of outputs: product of masses}."""
    out = {(): F(1)}
    for law in step_laws:
        out = {o + (x,): m * w for o, m in out.items() for x, w in law.items()}
    return out


def _steps(rng, k):
    out = []
    for _ in range(k):
        N = {i: F(rng.randint(1, 9)) for i in range(rng.randint(2, 3))}
        tot = sum(N.values())
        out.append(({o: m / tot for o, m in N.items()}, [F(1, 5), F(1, 2), F(1)][rng.randint(0, 2)]))
    return out


@statement("Lemma 10", "Under add_remove, the composed delta(eps) = max of the remove direction's and the add "
           "direction's composed delta (each composed on its own); eps(delta) = max of the two eps(delta)")
def lemma(p: Proof) -> None:
    rng = p.rng
    universe = [1, 0, 1]
    n = ne = 0
    fine = sorted({F(i, 8) for i in range(2, 81)})
    for trial in range(4 if p.full else 2):
        for k in (2, 3):
            steps = _steps(rng, k)
            rem = [L5.as_pair(*L5.remove_pair(L5.shift(N, 1), N, q)) for N, q in steps]
            add = [L5.as_pair(*L5.add_pair(L5.shift(N, 1), N, q)) for N, q in steps]
            laws = {}
            for r in range(len(universe) + 1):
                for Dset in itertools.combinations(range(len(universe)), r):
                    laws[Dset] = composed_law([L5.subsampled([universe[i] for i in Dset], N, q) for N, q in steps])
            configs = []
            for Dset in laws:
                for x in range(len(universe)):
                    other = tuple(sorted(set(Dset) ^ {x}))  # remove x if present, else add it
                    A, B = laws[Dset], laws[other]
                    configs.append([(A.get(o, F(0)), B.get(o, F(0))) for o in set(A) | set(B)])
            curves = {}
            for al in D.ALPHAS:
                sup = max(D.hs(c, al) for c in configs)
                claim = composed_delta(rem, add, al)
                if not p.require(sup == claim, "sup over add_remove neighbours = max of the two composed directions",
                                 lambda: f"steps {steps}, alpha {al}: sup {sup} vs {claim}"):
                    return
                n += 1
            for al in fine:
                curves[al] = (D.hs(product_all(rem), al), D.hs(product_all(add), al))
            vals = [curves[a] for a in fine]
            if not p.require(all(x[0] >= y[0] and x[1] >= y[1] for x, y in zip(vals, vals[1:])),
                             "each direction's curve is non-increasing in alpha", f"steps {steps}"):
                return
            for d0 in (F(1, 100), F(1, 10), F(1, 3)):
                def least(f):
                    return next((a for a in fine if f(curves[a]) <= d0), None)
                both = least(lambda c: max(c))
                r_, a_ = least(lambda c: c[0]), least(lambda c: c[1])
                want = None if r_ is None or a_ is None else max(r_, a_)
                if not p.require(both == want, "eps(delta) = max of the two directions' eps(delta)",
                                 lambda: f"steps {steps}, delta {d0}: {both} vs {r_}, {a_}"):
                    return
                ne += 1
    p.instances("heterogeneous compositions (k = 2, 3) of subsampled mechanisms, every add_remove neighbour of a "
                "3-record universe, 12 alphas: sup = max of the two composed directions", n, "exhaustive")
    p.instances("on a grid of alpha (1/4..10 by 1/8): least alpha with delta <= delta_0 is the max of the two directions'",
                ne, "exhaustive")

