"""Events (issue 8): immutable mechanisms and compositions with counts, a versioned JSON
form that round-trips exactly, and the sequence behaviour the engines rely on.

Expected values are computed independently: by expanding the composition into the
explicit list of mechanisms it stands for, and by building the same composition another way.
"""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactdp import Composition, InvalidArgument, Mechanism, composed_delta, mechanisms
from exactdp.events import JSON_VERSION, as_composition
from exactdp.numbers import RatExp, Root

eps_st = st.fractions(min_value=0, max_value=3, max_denominator=50)
w_st = st.fractions(min_value=1, max_value=5, max_denominator=20)
d_st = st.fractions(min_value=0, max_value=F(1, 2), max_denominator=1000)


@st.composite
def mechanism_st(draw):
    d = draw(d_st)
    kind = draw(st.sampled_from(["eps", "exp_eps", "ratexp", "root"]))
    if kind == "eps":
        return Mechanism(eps=draw(eps_st), delta=d)
    if kind == "exp_eps":
        return Mechanism(exp_eps=draw(w_st), delta=d)
    if kind == "ratexp":
        return Mechanism(w=RatExp(draw(w_st), draw(eps_st)), delta=d)
    return Mechanism(w=Root(draw(w_st), draw(st.integers(1, 5))), delta=d)


@st.composite
def composition_st(draw, depth=2):
    parts = []
    for _ in range(draw(st.integers(1, 4))):
        if depth and draw(st.booleans()):
            parts.append((draw(composition_st(depth=depth - 1)), draw(st.integers(1, 3))))
        else:
            parts.append((draw(mechanism_st()), draw(st.integers(1, 5))))
    return Composition(parts)


def _expand(c):
    """The explicit list of mechanisms, by recursion on the parts (independent of Composition's own iterators)."""
    out = []
    for e, n in c.parts:
        out += (_expand(e) if isinstance(e, Composition) else [e]) * n
    return out


@given(composition_st())
def test_json_round_trips_exactly(c):
    text = c.dumps()
    back = Composition.loads(text)
    assert back == c and back.k == c.k
    assert json.loads(text)["exactdp_event"] == JSON_VERSION
    assert list(back) == _expand(c)


@given(composition_st())
def test_counts_groups_and_sequence_agree_with_the_expansion(c):
    flat = _expand(c)
    assert c.k == len(c) == len(flat)
    assert list(c) == flat and c == tuple(flat) and c == flat
    groups = {}
    for m in flat:
        groups[m] = groups.get(m, 0) + 1
    assert dict(c.groups()) == groups
    P = F(1)
    for m in flat:
        P *= 1 - m.delta
    assert c.delta_product == P
    for i in (0, len(flat) - 1, len(flat) // 2):
        assert c[i] == flat[i] and c[-1 - i] == flat[-1 - i]


def test_k_copies_are_a_count_not_a_list():
    m = Mechanism(eps="0.1", delta="1e-9")
    c = Composition([(m, 10**12)])
    assert c.k == 10**12 and c.groups() == ((m, 10**12),)
    assert c.parts == ((m, 10**12),)
    # nested repeats multiply
    c2 = Composition([(Composition([(m, 3), (Mechanism(exp_eps=2), 1)]), 1000)])
    assert c2.k == 4000 and dict(c2.groups()) == {m: 3000, Mechanism(exp_eps=2): 1000}


def test_mechanisms_builds_a_composition_equal_to_the_old_tuple():
    assert mechanisms(eps="0.1", k=3) == (Mechanism(eps=F(1, 10)),) * 3
    ms = mechanisms(eps=["0.1", "0.2"], delta=["0", "1/100"], k=2)
    assert list(ms) == [Mechanism(eps="0.1"), Mechanism(eps="0.2", delta="1/100")] * 2
    assert (ms + [Mechanism(exp_eps=3)]).k == 5 and ([Mechanism(exp_eps=3)] + ms).k == 5
    assert (ms * 3).k == 12


def test_the_engines_give_the_same_value_for_counts_and_lists():
    m1, m2 = Mechanism(exp_eps="3/2", delta="1/100"), Mechanism(exp_eps=2)
    as_counts = Composition([(m1, 3), (m2, 2)])
    as_list = [m1, m2, m1, m2, m1]
    a = composed_delta(as_counts, exp_eps_g="5/2").exact
    b = composed_delta(as_list, exp_eps_g="5/2").exact
    assert a == b and a is not None


@pytest.mark.parametrize("bad,match", [
    ('{"exactdp_event": 2, "type": "composition", "parts": []}', "version"),
    ('{"type": "composition", "parts": []}', "non-empty"),
    ('{"type": "composition", "parts": [{"count": 0, "event": {"eps": "1"}}]}', "count"),
    ('{"type": "composition", "parts": [{"count": 1, "event": {"eps": "-1"}}]}', "eps"),
    ('{"type": "composition", "parts": [{"count": 1, "event": {"eps": "1", "exp_eps": "2"}}]}', "one of"),
    ('{"type": "composition", "parts": [{"count": 1}]}', "event"),
    ('[1, 2]', "JSON object"),
    ('{"type": "composition", "parts": [', "valid JSON"),
])
def test_malformed_json_is_refused_naming_the_place(bad, match):
    with pytest.raises(InvalidArgument, match=match):
        Composition.loads(bad)


def test_immutable_and_hashable():
    m = Mechanism(eps="0.1")
    c = Composition([(m, 2)])
    with pytest.raises(AttributeError):
        m.delta = 1  # type: ignore[misc]
    with pytest.raises(AttributeError):
        c.k = 3  # type: ignore[misc]
    assert len({c, Composition([(m, 1), (m, 1)])}) == 1  # equal neighbours merge into one count


def test_as_composition_refuses_non_mechanisms():
    for bad in ([], [1, 2], "0.1", b"0.1", 3):
        with pytest.raises(InvalidArgument):
            as_composition(bad)


def test_equality_and_hash_of_huge_nested_repeats_without_walking_runs():
    # 3 values x 1e9 repeats are 3e9 runs: equality and hash decide from k, parts and groups;
    # equal runs still mean equal compositions (checked against the runs on small cases)
    from exactdp.events import Composition

    a = mechanisms(eps=["0.1", "0.2", "0.3"], k=10**9)
    b = mechanisms(eps=["0.1", "0.2", "0.3"], k=10**9)
    assert a == b and hash(a) == hash(b)
    assert a != mechanisms(eps=["0.1", "0.3", "0.2"], k=10**9)
    m1, m2 = Mechanism(eps="0.1"), Mechanism(eps="0.2")
    small = [mechanisms(eps=["0.1", "0.2"], k=2), Composition([(m1, 1), (m2, 1), (m1, 1), (m2, 1)]),
             Composition([(m1, 2), (m2, 2)]), mechanisms(eps=["0.2", "0.1"], k=2)]
    for x in small:
        for y in small:
            same = list(x.runs()) == list(y.runs())
            assert (x == y) == same
            if same:
                assert hash(x) == hash(y)


def test_a_noise_events_composition_of_mechanisms_counts_their_steps():
    """Composed (exactdp.noise_events) takes (eps, delta) mechanisms and Compositions as parts:
    2 mechanisms, then twice a composition of 3 (counted by hand: 2 + 2 * 3)."""
    from exactdp.noise_events import Composed

    c = Composed([(Mechanism(eps=1), 2), (Composition([(Mechanism(eps=1), 3)]), 2)])
    assert c.count == 8
    assert c.leaves() == [(Mechanism(eps=1), 8)]
