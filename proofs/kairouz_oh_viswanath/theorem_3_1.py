"""Kairouz-Oh-Viswanath Theorem 3.1 (basic composition [DMNS06, DL09]).

Printed: for any eps > 0 and delta in [0,1] ("delta in ," in our copy), the class of
(eps,delta)-DP mechanisms satisfies (k eps, k delta)-DP under k-fold adaptive composition.

Checked exactly: every deterministic adversary (k = 2) over a family of
(eps,delta)-DP pairs, and the worst case of Theorem 3.3 (the k-fold Section 6.1
mechanism, whose hockey-stick at e^{k eps} is 1 - (1-delta)^k), k <= 30. Library
cross-check: exactdp's basic_bound gives eps_g = k eps at delta_g = k delta.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import FAILED, contains_log, crosschecked
from .._framework import Proof, statement
from . import _adaptive as AD
from . import _common as C


@statement(
    "Theorem 3.1",
    "For eps > 0, delta in [0,1], (eps,delta)-DP mechanisms are (k eps, k delta)-DP under k-fold adaptive composition.",
    library=("exactdp.bounds.basic_bound",),
)
def theorem(p: Proof) -> None:
    from exactdp import Mechanism
    from exactdp.bounds import basic_bound

    n = n_lib = 0
    for w, d in [(F(2), F(1, 10)), (F(3, 2), F(1, 3))]:
        fam = AD.family(p.rng, w, d, extra=2 if p.full else 1)
        for adv in AD.deterministic_adversaries(fam, 2):
            V0, V1 = AD.views(fam, adv, 2)
            h = max(C.hockey(V0, V1, w * w), C.hockey(V1, V0, w * w))
            n += 1
            if not p.require(h <= 2 * d, "view is (2 eps, 2 delta)-DP", f"e^eps={w} delta={d} adversary={adv}: {h}"):
                return
    p.instances("k = 2: every deterministic adversary over 3 (--full 5) (eps,delta)-DP pairs", n, "exhaustive")
    m = 0
    for k in range(1, 31 if p.full else 16):
        for d in (F(0), F(1, 1000), F(1, 10), F(1, 2), F(1)):
            for w in (F(5, 4), F(3)):
                h = C.rr_k_hockey(k, w, w ** k)
                worst = 1 - (1 - d) ** k * (1 - h)
                m += 1
                if not p.require(h == 0 and worst <= k * d, "worst case 1-(1-delta)^k <= k delta",
                                 f"k={k} e^eps={w} delta={d}: {worst}"):
                    return
                if k * d < 1 and (p.full or k % 4 == 1):   # the library takes delta_g in [0, 1)
                    inst = f"k={k} e^eps={w} delta={d}"
                    b = p.library("exactdp basic_bound", basic_bound, [Mechanism(exp_eps=w, delta=d)] * k, k * d)
                    if b is not FAILED:
                        n_lib += 1
                        if not b.applies:
                            p.issue(f"exactdp basic_bound does not apply at delta_g = k delta on {inst}: {b.reason}")
                        else:
                            contains_log(p, b.value, w ** k, "exactdp basic_bound", inst)
    p.instances("worst case of Theorem 3.3 at e^{k eps}: 1 - (1-delta)^k <= k delta (Bernoulli), k <= 15", m)
    crosschecked(p, "exactdp basic_bound at delta_g = k delta (< 1) applies and its enclosure contains k eps", n_lib)
    p.note("'delta in ,' is 'delta in [0,1]' with the interval lost in conversion.")
