"""The randomized-response simulator (Vadhan-Wang Theorem 5.2; Vadhan-Zhang Theorem 1.5) and
Blackwell kernels (Vadhan-Zhang Theorem 3.2).

Checked twice: ``verify_simulation`` compares every history, and (every_adversary) the view
distributions of each deterministic adversary; a wrong T (the construction at a smaller eps,
a perturbed probability) must fail. The LP's answer is checked exactly; below the tight eps an
exact Farkas certificate is checked by recomputing ``y^T A`` and ``y^T b`` here.
"""

from __future__ import annotations

import random
from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactdp import InvalidArgument
from exactdp.interactive import (
    Branch,
    InteractiveMechanism,
    Node,
    blackwell_kernel,
    find_simulator,
    privacy_loss,
    random_two_round,
    randomized_response,
    rr_simulator,
    tradeoff_of,
    two_round_bits,
    verify_simulation,
)
from exactdp.interactive.lp import check_farkas, exact_feasibility

params10 = st.lists(st.integers(1, 9).map(lambda n: F(n, 10)), min_size=10, max_size=10)


@given(params10)
def test_pure_simulator_verified_for_every_adversary(params):
    m = two_round_bits(params)
    t = privacy_loss(m).exp_exact
    T = rr_simulator(m)
    assert verify_simulation(m, T, t, every_adversary=True)
    # at a larger eps the construction still works; a smaller one is refused
    assert verify_simulation(m, rr_simulator(m, t + 1), t + 1, every_adversary=True)
    if t > 1:
        with pytest.raises(InvalidArgument):
            rr_simulator(m, 1 + (t - 1) / 2)


def test_simulator_by_hand_for_randomized_response():
    # RR_3 simulates itself: T_0 = (3 M_0 - M_1)/2 = (9/4 - 1/4)/2 = 1 on answer 0: the identity
    T = rr_simulator(randomized_response(3))
    assert [[str(p) for p in b.probs] for _, b in T.root.answers("*")] == [["1", "0"], ["0", "1"]]
    # and RR_3 is simulated from RR_5 by flipping: T_0(0) = (5 * 3/4 - 1/4)/4 = 7/8
    T5 = rr_simulator(randomized_response(3), 5)
    assert [str(p) for p in T5.root.answers("*")[0][1].probs] == ["7/8", "1/8"]


def test_simulator_at_eps_zero_degenerate_case():
    # M(x) = M(x'): Vadhan-Wang's formula divides by e^eps - 1 = 0; T_0 = T_1 = M
    m = two_round_bits([F(1, 3), F(1, 2), F(1, 5), F(2, 7), F(3, 4)] * 2)
    assert privacy_loss(m).exp_exact == 1
    T = rr_simulator(m)
    assert verify_simulation(m, T, 1, every_adversary=True)


def test_a_wrong_simulator_fails():
    m = two_round_bits([F(1, 2), F(1, 3), F(1, 2), F(1, 2), F(1, 2)] + [F(1, 2)] * 5)
    T = rr_simulator(m)
    d = T.to_json()
    first = d["root"]["*"]["0"]["next"]["0"]
    first["0"]["p"][0], first["1"]["p"][0] = first["1"]["p"][0], first["0"]["p"][0]
    bad = InteractiveMechanism.from_json(d)
    if bad.dumps() != T.dumps():
        assert not verify_simulation(m, bad, privacy_loss(m).exp_exact)
    with pytest.raises(InvalidArgument):
        verify_simulation(m, randomized_response(2), 2)  # wrong shape


def test_lp_simulator_and_infeasibility_below_tight():
    rng = random.Random(21)
    for _ in range(15):
        _, m = random_two_round(rng, 20)
        for d in (F(1, 100), F(1, 10)):
            t = privacy_loss(m, d).exp_exact
            r = find_simulator(m, t, d)
            assert r.status == "verified" and verify_simulation(m, r.T, t, d, every_adversary=True)
            if t > 1:
                r2 = find_simulator(m, 1 + (t - 1) * (1 - F(1, 10**6)), d)
                assert r2.status == "infeasible" and r2.lp.farkas is not None


def test_exact_lp_layer():
    A = [{0: F(1), 1: F(1)}, {0: F(1), 1: F(-1)}]
    out = exact_feasibility(A, [F(1), F(3)], 2)
    y = out.farkas
    assert out.status == "infeasible"
    # y^T A and y^T b by hand
    col = [y[0] + y[1], y[0] - y[1]]
    yb = y[0] + 3 * y[1]
    assert (min(col) >= 0 and yb < 0) or (max(col) <= 0 and yb > 0)
    assert check_farkas(A, [F(1), F(3)], y, 2) and not check_farkas(A, [F(1), F(3)], [F(0), F(0)], 2)


def test_blackwell_agrees_with_tradeoff_dominance():
    rng = random.Random(31)
    seen = set()
    for _ in range(40):
        def dist(n):
            v = [F(rng.randint(0, 4)) for _ in range(n)]
            if sum(v) == 0:
                v[0] = F(1)
            return [x / sum(v) for x in v]
        P, Q, P2, Q2 = dist(3), dist(3), dist(2), dist(2)
        r = blackwell_kernel(P, Q, P2, Q2)
        dominated = tradeoff_of(P2, Q2).dominates(tradeoff_of(P, Q))
        assert r.dominated == dominated
        assert r.status == ("verified" if dominated else "infeasible")
        if r.kernel is not None:
            for src, dst in ((P, P2), (Q, Q2)):
                assert [sum(src[x] * r.kernel[x][y] for x in range(3)) for y in range(2)] == dst
        seen.add(r.status)
    assert seen == {"verified", "infeasible"}


def test_node_api():
    n = Node({"*": {"a": Branch(["1/2", "1/3"]), "b": Branch(["1/2", "2/3"])}})
    m = InteractiveMechanism(n)
    assert privacy_loss(m).exp_exact == F(3, 2)
