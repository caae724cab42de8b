"""Kairouz-Oh-Viswanath Equation (5): the guarantee of Theorem 3.3.

Printed (display lost; transcribed from ../shared/papers/README.md and the sentence
around it): under k-fold adaptive composition the class of (eps,delta)-DP mechanisms
satisfies ((k-2i) eps, 1 - (1-delta)^k (1 - delta_i))-DP, for every i in {0..floor(k/2)}.

Checked by Definition 1.1 directly (the hockey-stick in both directions, not through
regions as in the Theorem 3.3 entry): every deterministic adversary, k = 2, and sampled
ones, k = 3; each bound is attained (with equality) by the k-fold Section 6.1
mechanism, k <= 6.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _adaptive as AD
from . import _common as C


@statement(
    "Equation (5)",
    "k-fold adaptive composition of (eps,delta)-DP mechanisms is ((k-2i)eps, 1-(1-delta)^k(1-delta_i))-DP for each "
    "i in {0..floor(k/2)} (display lost; transcribed).",
)
def equation(p: Proof) -> None:
    n = n_tight = 0
    for w, d in [(F(2), F(1, 10)), (F(5, 2), F(0))] + ([(F(4, 3), F(1, 3))] if p.full else []):
        fam = AD.family(p.rng, w, d, extra=2 if p.full else 1, sizes=(3, 2))
        for k, advs in ((2, AD.deterministic_adversaries(fam, 2)),
                        (3, (AD.random_adversary(p.rng, fam, 3) for _ in range(30 if p.full else 6)))):
            pairs = C.theorem33_pairs(k, w, d)
            for adv in advs:
                V0, V1 = AD.views(fam, adv, k)
                for t, dl in pairs:
                    h = max(C.hockey(V0, V1, t), C.hockey(V1, V0, t))
                    n += 1
                    if not p.require(h <= dl, "view is ((k-2i)eps, delta'_i)-DP",
                                     f"k={k} e^eps={w} delta={d} adversary={adv}: e^eps'={t}, {h} > {dl}"):
                        return
    for k in range(1, 7 if p.full else 5):
        for w in (F(5, 4), F(2), F(3)):
            for d in (F(0), F(1, 10)):
                V0, V1 = C.product([C.kov(w, d)] * k)
                for t, dl in C.theorem33_pairs(k, w, d):
                    n_tight += 1
                    if not p.require(C.hockey(V0, V1, t) == dl, "attained by the k-fold Section 6.1 mechanism",
                                     f"k={k} e^eps={w} delta={d} e^eps'={t}"):
                        return
    p.instances("every deterministic adversary (k = 2) and sampled ones (k = 3): hockey-stick of the view in both "
                "directions <= 1-(1-delta)^k(1-delta_i) at e^{(k-2i)eps}, every i", n, "exhaustive")
    p.instances("equality for the k-fold Section 6.1 mechanism (k <= 4, --full 6)", n_tight, "exact")
