"""Concurrent composition and Vadhan-Wang Theorem 4.1 with its best order.

* ConComp's exact delta: dynamic programme == enumeration of every interleaving adversary;
  ``concurrent <= tensor <= optcomp <= VW`` (Vadhan-Zhang Theorems 1.4, 1.3; Vadhan-Wang 4.1);
  optcomp from ``exactdp.composed_delta`` (Murtagh-Vadhan Theorem 1.5).
* The order rule against all k! orders (exact), k <= 7 (k = 7 under @slow, bounded in CI).
* Theorem 1.4's homogeneous form ``(e^{k eps} - 1) / (e^eps - 1) delta`` and its bounds
  ``<= e^{eps_g} sum delta_i <= k e^{eps_g} max delta_i``.
"""

from __future__ import annotations

import os
import random
from fractions import Fraction as F
from itertools import permutations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactdp import InvalidArgument, Mechanism, composed_delta, mechanisms
from exactdp.interactive import (
    compare_concurrent,
    concurrent,
    mechanism_tradeoff,
    optimal_delta_at_sum,
    random_two_round,
    randomized_response,
    tensor,
    vw_best_order,
    vw_bound,
    vw_delta,
)


def vw_by_hand(ws, ds, order):
    total, prefix = F(0), F(1)
    for i in order:
        total += prefix * ds[i]
        prefix *= ws[i]
    return total


def test_concurrent_dp_equals_enumeration_of_interleavings():
    rng = random.Random(11)
    for _ in range(3):
        _, a = random_two_round(rng, 6)
        cc = concurrent(a, randomized_response(F(rng.randint(2, 5)), F(rng.randint(0, 2), 20)))
        assert mechanism_tradeoff(cc) == mechanism_tradeoff(cc, method="enumerate")


def test_concurrent_chain_of_guarantees():
    rng = random.Random(12)
    for i in range(12):
        _, a = random_two_round(rng, 8)
        _, b = random_two_round(rng, 8)
        d = [F(0), F(1, 50), F(1, 10)][i % 3]
        c = compare_concurrent([a, b], [d, d])
        assert c.holds, c.to_dict()
        # VZ Theorem 1.4 as trade-off functions (the concurrent composition may be strictly more private:
        # the components' sup over adversaries is a hull that no single adversary attains at every alpha)
        fcc = c.tradeoff
        ft = tensor(mechanism_tradeoff(a), mechanism_tradeoff(b))
        assert fcc.dominates(ft)
        # the optimal composition of the components' (eps_i, delta_i), recomputed here
        mm = [Mechanism(exp_eps=t, delta=d) for t in c.exp_eps_i]
        assert c.optcomp == composed_delta(mm, exp_eps_g=c.exp_eps_g).exact
        assert c.optcomp == 1 - (1 - d) ** 2  # at eps_g = sum eps_i


def test_concurrent_of_randomized_responses_is_their_composition():
    # ConComp(RR_2, RR_3) at e^eps_g = 2: the Murtagh-Vadhan value (4 - ...)/... from composed_delta
    c = compare_concurrent([randomized_response(2), randomized_response(3)], exp_eps_g=2)
    assert c.concurrent == composed_delta(mechanisms(exp_eps=[2, 3]), exp_eps_g=2).exact == c.tensor == c.optcomp


@given(st.lists(st.tuples(st.integers(2, 12), st.integers(1, 4), st.integers(0, 5)), min_size=1, max_size=6))
def test_best_order_against_all_orders(specs):
    ws = [F(n, d) if F(n, d) >= 1 else F(1) for n, d, _ in specs]
    ds = [F(x, 40) for _, _, x in specs]
    ms = [Mechanism(exp_eps=w, delta=d) for w, d in zip(ws, ds)]
    best = min(vw_by_hand(ws, ds, p) for p in permutations(range(len(ms))))
    order = vw_best_order(ms)
    assert sorted(order) == list(range(len(ms)))
    assert vw_delta(ms, order).exact == best
    assert vw_delta(ms).exact == vw_by_hand(ws, ds, range(len(ms)))


@pytest.mark.slow
def test_best_order_exhaustive_k7():
    """k = 7 (5040 orders each): 20 instances in CI, 300 with EXACTDP_SLOW=full."""
    n = 300 if os.environ.get("EXACTDP_SLOW", "").lower() == "full" else 20
    rng = random.Random(7)
    for _ in range(n):
        ws = [F(rng.randint(2, 9), rng.randint(1, 2)) for _ in range(7)]
        ws = [max(w, F(1)) for w in ws]
        ds = [F(rng.randint(0, 5), 100) for _ in range(7)]
        ms = [Mechanism(exp_eps=w, delta=d) for w, d in zip(ws, ds)]
        best = min(vw_by_hand(ws, ds, p) for p in permutations(range(7)))
        assert vw_delta(ms, vw_best_order(ms)).exact == best


def test_best_order_with_irrational_e_eps():
    rng = random.Random(8)
    for _ in range(30):
        k = rng.randint(2, 5)
        ms = [Mechanism(eps=F(rng.randint(0, 6), 4), delta=F(rng.randint(0, 3), 30)) for _ in range(k)]
        best = vw_delta(ms, vw_best_order(ms), digits=25)
        for p in permutations(range(k)):
            assert best.lower <= vw_delta(ms, p, digits=25).upper
    # ties decided exactly: same key delta/(e^eps - 1) for equal mechanisms, and eps = 0 with delta > 0 first
    ms = [Mechanism(eps="0.5", delta="1/100"), Mechanism(eps=0, delta="1/1000"), Mechanism(eps="0.5", delta="1/100")]
    assert vw_best_order(ms) == [1, 0, 2]


def test_theorem_1_4_homogeneous_form_and_bounds():
    for w, d, k in [(F(2), F(1, 100), 5), (F(3, 2), F(1, 1000), 8)]:
        ms = mechanisms(exp_eps=w, delta=d, k=k)
        v = vw_delta(ms).exact
        assert v == (w ** k - 1) / (w - 1) * d
        assert v <= w ** k * k * d  # e^{eps_g} sum delta_i = k e^{eps_g} max delta_i here
    b = vw_bound(mechanisms(exp_eps=[2, 3, 5], delta=["1/100", "1/10", "1/1000"]))
    assert b.best_order.exact <= b.given_order.exact and b.optimal <= b.best_order.exact
    assert b.best_order.exact <= 30 * (F(1, 100) + F(1, 10) + F(1, 1000))


def test_optimal_at_sum_is_composed_delta():
    for ws, ds in [([2, 3], ["1/100", "1/10"]), ([F(3, 2)] * 4, ["1/50"]), ([5, 1, 2], ["0", "1/7", "1/3"])]:
        ms = mechanisms(exp_eps=ws, delta=ds)
        t = F(1)
        for w in ws:
            t *= F(w)
        assert optimal_delta_at_sum(ms) == composed_delta(ms, exp_eps_g=t).exact


def test_bad_orders_refused():
    ms = mechanisms(exp_eps=[2, 3], delta="1/100")
    for bad in ([0], [0, 0], [0, 2], ["a", 1]):
        with pytest.raises(InvalidArgument):
            vw_delta(ms, bad)
