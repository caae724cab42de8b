"""Interactive mechanisms as exact game trees: JSON, adversaries, trade-off functions, PrivLoss.

Every value is computed twice: the dynamic programme against enumeration of every deterministic
adversary; PrivLoss against a brute force over every event of every adversary's views (written
here); the chain rule (Vadhan-Zhang Claim 3.4) against Neyman-Pearson on the joint distribution;
the trade-off of a product against ``PrivacyProfile.tradeoff_curve`` (the profile layer);
randomized response against its closed form.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction as F
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactdp import InvalidArgument, PrivacyProfile, mechanisms
from exactdp.errors import CostTooHigh
from exactdp.fdp import TradeOff, f_eps_delta
from exactdp.interactive import (
    InteractiveMechanism,
    adversaries,
    chain_rule,
    count_adversaries,
    delta_of,
    mechanism_tradeoff,
    noninteractive,
    privacy_loss,
    random_two_round,
    randomized_response,
    sup,
    tensor,
    tradeoff_of,
    two_round_bits,
)

probs = st.integers(1, 9).map(lambda n: F(n, 10))
params10 = st.lists(probs, min_size=10, max_size=10)


def brute_least_t(P, Q, delta):
    """least t >= 1 with P(S) <= t Q(S) + delta and Q(S) <= t P(S) + delta for EVERY event S (2^n events)."""
    n = len(P)
    t = F(1)
    for mask in range(1, 2 ** n):
        ps = sum(P[i] for i in range(n) if mask >> i & 1)
        qs = sum(Q[i] for i in range(n) if mask >> i & 1)
        for a, b in ((ps, qs), (qs, ps)):
            if a - delta > 0:
                if b == 0:
                    return None
                t = max(t, (a - delta) / b)
    return t


def views_by_hand(params, choice):
    """The 4 view probabilities of two_round_bits(params) under x and x' for the adversary that asks
    q1 = choice[a0] after a0 (written from the paper's Figure 1, independently of the tree code)."""
    p0, p00, p01, p10, p11, r0, r00, r01, r10, r11 = params
    c = {(0, 0): (p00, r00), (0, 1): (p01, r01), (1, 0): (p10, r10), (1, 1): (p11, r11)}
    P, Q = [], []
    for a0 in (0, 1):
        pa, qa = (p0, r0) if a0 == 0 else (1 - p0, 1 - r0)
        cp, cq = c[(a0, choice[a0])]
        P += [pa * cp, pa * (1 - cp)]
        Q += [qa * cq, qa * (1 - cq)]
    return P, Q


# -- the tree and its JSON form ---------------------------------------------------

def test_json_round_trip_and_readable_form():
    m = two_round_bits([F(1, 2), F(1, 3), F(1, 4), F(1, 5), F(1, 6), F(2, 3), F(3, 4), F(4, 5), F(5, 6), F(6, 7)])
    d = m.to_json()
    assert d["root"]["*"]["0"]["p"] == ["1/2", "2/3"]
    assert d["root"]["*"]["1"]["next"]["1"]["0"]["p"] == ["1/6", "6/7"]
    m2 = InteractiveMechanism.loads(json.dumps(d))
    assert m2.dumps() == m.dumps()
    assert privacy_loss(m2, F(1, 10)).exp_exact == privacy_loss(m, F(1, 10)).exp_exact


@pytest.mark.parametrize("text, where", [
    ("{", "mechanism"),
    ('{"exactdp_interactive": 2, "root": {}}', "exactdp_interactive"),
    ('{"exactdp_interactive": 1, "root": {"*": {"0": {"p": ["1/2", "1/2"]}}}}', "root['*']"),  # sums to 1/2
    ('{"exactdp_interactive": 1, "root": {"*": {"0": {"p": ["3/2", "1"]}, "1": {"p": ["-1/2", "0"]}}}}', "root['*']['0'].p[0]"),
    ('{"exactdp_interactive": 1, "root": {"*": {"0": {"p": ["nan", "1"]}}}}', "root['*']['0'].p[0]"),
    ('{"exactdp_interactive": 1, "root": {"*": {"0": {"p": ["1"]}}}}', "root['*']['0'].p"),
    ('{"exactdp_interactive": 1, "root": {"*": {"0": {"p": [true, "1"]}}}}', "root['*']['0'].p[0]"),
    ('{"exactdp_interactive": 1, "root": {"*": {}}}', "root['*']"),
    ('{"exactdp_interactive": 1, "root": []}', "root"),
    ('{"exactdp_interactive": 1, "root": {"*": {"0": {"p": ["1", "1"], "extra": 1}}}}', "root['*']['0']"),
])
def test_bad_json_names_the_place(text, where):
    with pytest.raises(InvalidArgument) as e:
        InteractiveMechanism.loads(text)
    assert e.value.parameter == where, str(e.value)


def test_too_deep_and_too_large_are_refused():
    node: dict = {}
    for _ in range(300):
        node = {"*": {"0": {"p": ["1", "1"], "next": node}}} if node else {"*": {"0": {"p": ["1", "1"]}}}
    with pytest.raises(InvalidArgument, match="rounds"):
        InteractiveMechanism.from_json({"exactdp_interactive": 1, "root": node})
    with pytest.raises(InvalidArgument):
        noninteractive(["1/2", "1/2"], ["1/3"])
    with pytest.raises(InvalidArgument):
        two_round_bits(["1/2"] * 9)


def test_adversary_count_against_enumeration_and_formula():
    m = two_round_bits([F(1, 2)] * 10)
    assert count_adversaries(m) == len(list(adversaries(m))) == 4
    from exactdp.interactive import concurrent
    cc = concurrent(randomized_response(2), randomized_response(3), randomized_response(5))
    # three one-round mechanisms in any of 3! orders: 6 adversaries... times the choices after each answer:
    # order fixed by the first pick (3), then after each of 2 answers the next pick (2 each, squared), then forced
    assert count_adversaries(cc) == 3 * 2 ** 2 * 1 == len(list(adversaries(cc)))
    with pytest.raises(CostTooHigh) as e:
        list(adversaries(cc, limit=5))
    assert e.value.estimate == 12


# -- trade-off functions ------------------------------------------------------------

def test_tradeoff_of_randomized_response_is_f_eps_delta():
    for t, d in [(F(3), F(0)), (F(2), F(1, 10)), (F(1), F(1, 5)), (F(7, 2), F(1, 100))]:
        rr = randomized_response(t, d)
        P, Q = [[b.probs[i] for _, b in rr.root.answers("*")] for i in (0, 1)]
        assert tradeoff_of(P, Q) == f_eps_delta(exp_eps=t, delta=d)


@given(st.lists(st.integers(0, 6), min_size=2, max_size=6), st.lists(st.integers(0, 6), min_size=2, max_size=6))
def test_tradeoff_pointwise_against_brute_force_tests(a, b):
    n = min(len(a), len(b))
    a, b = a[:n], b[:n]
    if sum(a) == 0 or sum(b) == 0:
        return
    P = [F(x, sum(a)) for x in a]
    Q = [F(x, sum(b)) for x in b]
    f = tradeoff_of(P, Q)
    assert tradeoff_of(Q, P) == f.inverse()
    # f(alpha) = min beta over randomised tests; the deterministic tests (subsets) give points on or above f,
    # and every vertex of f is a deterministic test
    pts = set()
    for mask in range(2 ** n):
        al = sum(P[i] for i in range(n) if mask >> i & 1)
        be = 1 - sum(Q[i] for i in range(n) if mask >> i & 1)
        assert be >= f(al).exact
        pts.add((al, be))
    assert all(v in pts for v in f.exact_vertices())


def test_chain_rule_against_joint_neyman_pearson():
    rng = random.Random(4)
    for _ in range(200):
        k, m = rng.randint(1, 3), rng.randint(1, 3)
        X = [F(rng.randint(0, 4)) for _ in range(k)]
        Xp = [F(rng.randint(0, 4)) for _ in range(k)]
        if sum(X) == 0 or sum(Xp) == 0:
            continue
        X = [x / sum(X) for x in X]
        Xp = [x / sum(Xp) for x in Xp]
        conds = []
        for _ in range(k):
            y = [F(rng.randint(0, 4)) for _ in range(m)]
            yp = [F(rng.randint(0, 4)) for _ in range(m)]
            y = [F(1)] + [F(0)] * (m - 1) if sum(y) == 0 else [v / sum(y) for v in y]
            yp = [F(1)] + [F(0)] * (m - 1) if sum(yp) == 0 else [v / sum(yp) for v in yp]
            conds.append((y, yp))
        joint_P = [X[i] * conds[i][0][j] for i in range(k) for j in range(m)]
        joint_Q = [Xp[i] * conds[i][1][j] for i in range(k) for j in range(m)]
        fs = [tradeoff_of(*c) for c in conds]
        assert chain_rule(X, Xp, fs) == tradeoff_of(joint_P, joint_Q)


def test_tensor_against_the_profile_layer():
    # the non-interactive optimum of RR compositions: PrivacyProfile.tradeoff_curve (Murtagh-Vadhan)
    for ws in ([2, 2], [2, 3], [F(3, 2), 2, 5], [3, 3, 3, 3]):
        curve = PrivacyProfile(mechanisms(exp_eps=ws)).tradeoff_curve()
        pts = [(a.exact, b.exact) for a, b in curve]
        if len(pts) > 1 and pts[0][0] == pts[1][0]:
            pts = pts[1:]
        assert tensor(*(f_eps_delta(exp_eps=w) for w in ws)) == TradeOff(pts)


def test_sup_is_the_convex_hull_of_the_minimum():
    f, g = f_eps_delta(exp_eps=3), f_eps_delta(exp_eps=F(3, 2), delta=F(1, 10))
    h = sup([f, g])
    for i in range(101):
        a = F(i, 100)
        assert h(a).exact <= min(f(a).exact, g(a).exact)
    assert h.dominates(TradeOff.identity()) is False and TradeOff.identity().dominates(h)
    # vertices of the hull lie on the minimum (TradeOff starts at (0, 1): the top of the vertical segment at 0)
    assert all(min(f(a).exact, g(a).exact) == b or (a, b) == (0, 1) for a, b in h.exact_vertices())


# -- PrivLoss, delta, the mechanism's trade-off function: dp == enumerate == by hand --------

@given(params10, st.sampled_from([F(0), F(1, 50), F(1, 10), F(1, 3)]))
def test_privloss_dp_enumerate_and_brute_force_agree(params, delta):
    m = two_round_bits(params)
    a = privacy_loss(m, delta)
    b = privacy_loss(m, delta, method="enumerate")
    by_hand = F(1)
    for choice in product((0, 1), repeat=2):
        t = brute_least_t(*views_by_hand(params, choice), delta)
        by_hand = None if t is None or by_hand is None else max(by_hand, t)
    assert a.exp_exact == b.exp_exact == by_hand
    assert mechanism_tradeoff(m) == mechanism_tradeoff(m, method="enumerate")
    if by_hand is not None:
        assert delta_of(m, exp_eps=by_hand) <= delta
        if by_hand > 1:
            assert delta_of(m, exp_eps=by_hand * F(999, 1000) if by_hand * F(999, 1000) >= 1 else 1) > delta


def test_privloss_of_randomized_response_closed_form():
    for t, d in [(F(3), F(0)), (F(2), F(1, 10)), (F(7, 2), F(1, 100))]:
        r = privacy_loss(randomized_response(t, d), d)
        assert r.exp_exact == t and r.value.contains(0) == (t == 1)
    # RR_(e^eps, delta) at a smaller delta: the Iam0 answer (delta under x, 0 under x') is never covered
    assert privacy_loss(randomized_response(2, F(1, 10)), F(1, 20)).infinite
    # a larger delta lowers eps: least t with (1 - d) (t0 - t) / (1 + t0) <= d' - d, i.e. t = 3 - 4 (1/5 - 1/10) / (9/10)
    assert privacy_loss(randomized_response(3, F(1, 10)), F(1, 5)).exp_exact == 3 - F(4, 9)


def test_bad_arguments():
    m = randomized_response(2)
    for bad in (-1, 1, "x", float("nan")):
        with pytest.raises(InvalidArgument):
            privacy_loss(m, bad)
    with pytest.raises(InvalidArgument):
        privacy_loss(m, 0, method="magic")
    with pytest.raises(InvalidArgument):
        delta_of(m, exp_eps="1/2")


def test_random_mechanisms_are_reproducible():
    a = random_two_round(random.Random("1:0"), 100)
    b = random_two_round(random.Random("1:0"), 100)
    assert a[0] == b[0] and a[1].dumps() == b[1].dumps()


def test_one_tradeoff_implementation():
    """exactdp.interactive's trade-off functions are exactdp.fdp's (no second implementation)."""
    import exactdp.fdp as fdp
    import exactdp.interactive as inter
    from exactdp.regions import dp_region

    assert (inter.TradeOff, inter.tradeoff_of, inter.chain_rule, inter.tensor, inter.sup) == (
        fdp.TradeOff, fdp.tradeoff_of, fdp.chain_rule, fdp.tensor, fdp.tradeoff_sup)
    # the positional meaning of f_eps_delta differed (e^eps there, eps here): one definition, in exactdp.fdp
    assert not hasattr(inter, "f_eps_delta")
    f = mechanism_tradeoff(randomized_response(3, "1/10"))
    assert isinstance(f, TradeOff) and f == f_eps_delta(exp_eps=3, delta="1/10")
    R = dp_region(exp_eps=3, delta="1/10")
    assert R.tradeoff == f and R != f and f != R    # a region never equals its trade-off function
