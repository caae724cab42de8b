"""The trade-off curve's class order made fast (issue 26: ``region --eps 0.25,0,0.1,1/3,1/3
-k 50`` was killed at 120 s; 262,701 privacy-loss classes sorted by exact comparisons).

The order and the ties of ``_order_classes`` are checked against the exact sort it replaces
(``sorted`` with ``_cmp_ratio``), on compositions of every kind: eps (ties by the hundred),
rational e^eps, both mixed, with deltas; and the curve of a small composition against the
Kairouz-Oh-Viswanath vertices written out here.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cmp_to_key
from math import comb

import pytest

from exactdp import PrivacyProfile, mechanisms
from exactdp.engines.base import Prepared
from exactdp.engines.fields import ArbField, ExactField
from exactdp.events import Composition
from exactdp.profile import _cmp_ratio, _order_classes


def _reference(factors):
    order = sorted(range(len(factors)), key=cmp_to_key(lambda i, j: _cmp_ratio(factors[i], factors[j])))
    tied = [False] + [_cmp_ratio(factors[a], factors[b]) == 0 for a, b in zip(order, order[1:])]
    return order, tied


COMPS = [
    mechanisms(eps=["0.25", "0", "0.1", "1/3", "1/3"], k=4),
    mechanisms(eps=["0.5", "0.25"], delta=["0.01", "0"], k=6),
    mechanisms(exp_eps=["2", "4", "3/2"], k=5),
    Composition.of([mechanisms(eps=["0.1"], k=5), mechanisms(exp_eps=["11/10", "2"], delta="1/100", k=3)]),
    mechanisms(eps=["1"], k=40),
]


@pytest.mark.parametrize("comp", COMPS, ids=range(len(COMPS)))
def test_order_and_ties_equal_the_exact_sort(comp):
    prep = Prepared(comp, "auto")
    field = ExactField() if prep.all_exact() else ArbField(128)
    factors = [c[3] for c in prep.struct.loss_classes(field)]
    assert _order_classes(factors) == _reference(factors)


def test_curve_of_k_copies_is_kov():
    # k copies of randomized response with e^eps = 2: with i ones among k bits, P = C(k, i)
    # 2^(k-i) / 3^k and Q = C(k, i) 2^i / 3^k; rejecting in decreasing Q / P = 2^(2i - k)
    # (i = k first) moves alpha by P and beta by -Q
    k = 6
    f = PrivacyProfile(mechanisms(exp_eps="2", k=k)).tradeoff_curve()
    pts = [(Fraction(0), Fraction(1))]
    a, b = Fraction(0), Fraction(1)
    for i in range(k, -1, -1):
        a += Fraction(comb(k, i) * 2 ** (k - i), 3**k)
        b -= Fraction(comb(k, i) * 2**i, 3**k)
        pts.append((a, b))
    assert [(x.exact, y.exact) for x, y in f] == pts
