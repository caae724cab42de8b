"""Kairouz-Oh-Viswanath Definition 1.1 ((eps, delta)-differential privacy).

Printed (heading and display (1) lost in our copy; the sentence survives: "A randomized
mechanism M over a set of databases is (eps,delta)-differentially private if for all
pairs of neighboring databases D and D', and for all sets S in the output space of the
mechanism X," followed by the lost display), transcribed as the standard
P(M(D) in S) <= e^eps P(M(D') in S) + delta, the neighbouring relation being symmetric.

Checked: on finite output spaces the "for all S" condition over every one of the 2^n
sets (both orders of the pair) is equivalent to the hockey-stick form
max(sum_x [P0(x) - e^eps P1(x)]^+, sum_x [P1(x) - e^eps P0(x)]^+) <= delta; the
mechanism of Section 6.1 is (eps, delta)-DP and for no smaller delta.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _common as C


@statement(
    "Definition 1.1",
    "M is (eps,delta)-DP if for all neighbouring D, D' and all S: P(M(D) in S) <= e^eps P(M(D') in S) + delta "
    "(display (1) lost in conversion; transcribed).",
)
def definition(p: Proof) -> None:
    n = 0
    for _ in range(300 if p.full else 100):
        m = p.rng.randint(1, 5)
        p0, p1 = C.rand_dist(p.rng, m), C.rand_dist(p.rng, m)
        w = C.rand_w(p.rng)
        d0 = C.least_delta(p0, p1, w)
        for d in sorted({F(0), d0, d0 / 2, (1 + d0) / 2, F(1, 10)}):
            if not 0 <= d <= 1:
                continue
            a = C.dp_all_sets(p0, p1, w, d)
            n += 1
            if not p.require(a == (d0 <= d), "for-all-S definition <=> two-sided hockey-stick <= delta",
                             f"p0={p0} p1={p1} e^eps={w} delta={d}: all sets {a}, hockey-stick {d0}"):
                return
    p.instances("P(M(D) in S) <= e^eps P(M(D') in S) + delta for all 2^n sets S, both orders  <=>  "
                "max_S-form (hockey-stick) <= delta (n <= 5 outputs; delta at, below and above the threshold)", n,
                "exhaustive")
    n2 = 0
    for w in C.W_CHOICES:
        for d in (F(0), F(1, 100), F(1, 3), F(1)):
            p0, p1 = C.kov(w, d)
            ok = C.dp_all_sets(p0, p1, w, d) and (d == 0 or not C.dp_all_sets(p0, p1, w, d - F(1, 1000) * d))
            n2 += 1
            if not p.require(ok, "Section 6.1 mechanism is (eps,delta)-DP and not for a smaller delta",
                             f"e^eps={w} delta={d}"):
                return
    p.instances("the mechanism of Section 6.1 is (eps, delta)-DP exactly at delta (all 16 sets)", n2, "exhaustive")
    p.note("Heading 'Definition 1.1' and display (1) were lost in conversion; the number is that of the arXiv "
           "version's first page. Neighbouring pairs are unordered, so the definition constrains both orders.")
