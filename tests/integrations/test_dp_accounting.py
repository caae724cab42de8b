"""exactdp.integrations.dp_accounting against the real dp_accounting package.

* Round trips over random event trees (Hypothesis): dp_accounting -> exactdp -> dp_accounting
  keeps every leaf and its total count, every float bit for bit, and reaches its normal form in
  one pass; exactdp -> dp_accounting -> exactdp is the identity on trees of floats.
* Every event dp_accounting has and exactdp does not is refused by name, in one line.
* The accountant's answers against independent values written from the mathematics
  (``tests/accounting/dp_reference.py``: mu-GDP in closed form, the subsampled Gaussian's
  one-step hockey stick in closed form, Laplace's and randomized response's closed forms);
  dp_accounting's own accountants are never an expected value.
"""

from __future__ import annotations

import math
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

dpa = pytest.importorskip("dp_accounting", reason="dp_accounting is not installed: pip install 'exactdp[dp-accounting]' "
                          "(the test extra installs it)")
from dp_accounting import dp_event as E  # noqa: E402

from exactdp import Gaussian, Laplace, Mechanism, PoissonSampled, RandomizedResponse  # noqa: E402
from exactdp.errors import InvalidArgument, NotExact  # noqa: E402
from exactdp.integrations.dp_accounting import ExactPrivacyAccountant, from_dp_event, to_dp_event  # noqa: E402
from exactdp.noise_events import MAX_COUNT, Composed  # noqa: E402

sys.path.insert(0, str(Path(__file__).parents[1] / "accounting"))
import dp_reference as R  # noqa: E402

NOOP = Mechanism(eps=0, delta=0)
REL = dpa.NeighboringRelation

# -- strategies ---------------------------------------------------------------------------------

noise = st.floats(min_value=1e-3, max_value=1e3, allow_nan=False, allow_infinity=False)
unit_open = st.floats(min_value=0, max_value=1, exclude_min=True)


def _dp_leaves():
    base = st.one_of(
        st.builds(E.GaussianDpEvent, noise),
        st.builds(E.LaplaceDpEvent, noise),
        st.builds(E.RandomizedResponseDpEvent, unit_open, st.integers(1, 6)),
        st.just(E.NoOpDpEvent()),
    )
    sampled = st.builds(E.PoissonSampledDpEvent, st.floats(min_value=0, max_value=1), base)
    return st.one_of(base, sampled)


dp_trees = st.recursive(
    _dp_leaves(),
    lambda kids: st.one_of(
        st.builds(E.SelfComposedDpEvent, kids, st.integers(0, 1000)),
        st.builds(E.ComposedDpEvent, st.lists(kids, max_size=4)),
    ),
    max_leaves=12,
)


def _x_leaves():
    base = st.one_of(
        st.builds(Gaussian, noise),
        st.builds(Laplace, noise),
        st.builds(RandomizedResponse, unit_open, st.integers(2, 6)),
        st.just(NOOP),
    )
    sampled = st.builds(PoissonSampled, base, unit_open)
    return st.one_of(base, sampled)


def _composed(parts):
    try:
        return Composed(parts)
    except InvalidArgument:  # beyond MAX_COUNT steps in all
        return None


x_trees = st.recursive(
    _x_leaves(),
    lambda kids: st.builds(_composed, st.lists(st.tuples(kids, st.integers(1, 1000)), min_size=1, max_size=4))
    .filter(lambda c: c is not None),
    max_leaves=12,
)


# -- an independent reading of a dp_accounting tree: its leaves with total counts ----------------

def _is_dp_noop(e) -> bool:
    if isinstance(e, E.NoOpDpEvent):
        return True
    if isinstance(e, E.RandomizedResponseDpEvent):
        return e.num_buckets == 1
    if isinstance(e, E.PoissonSampledDpEvent):
        return e.sampling_probability == 0 or _is_dp_noop(e.event)
    return False


def dp_leaf_counts(e, mult: int = 1, out=None) -> Counter:
    """{leaf DpEvent: total count}, no-ops left out, from the tree as dp_accounting defines it."""
    out = Counter() if out is None else out
    if isinstance(e, E.SelfComposedDpEvent):
        dp_leaf_counts(e.event, mult * e.count, out)
    elif isinstance(e, E.ComposedDpEvent):
        for c in e.events:
            dp_leaf_counts(c, mult, out)
    elif mult and not _is_dp_noop(e):
        out[e] += mult
    return out


def _total(e, mult: int = 1) -> int:
    """Steps of the tree, no-ops included (what exactdp's count limit applies to)."""
    if isinstance(e, E.SelfComposedDpEvent):
        return _total(e.event, mult * e.count)
    if isinstance(e, E.ComposedDpEvent):
        return sum(_total(c, mult) for c in e.events)
    return mult


def _x_leaf_counts(x) -> Counter:
    leaves = x.leaves() if isinstance(x, Composed) else [(x, 1)]
    out: Counter = Counter()
    for leaf, n in leaves:
        if leaf != NOOP and not (isinstance(leaf, PoissonSampled) and leaf.event == NOOP):
            out[leaf] += n
    return out


# -- round trips --------------------------------------------------------------------------------

@given(dp_trees)
def test_dp_to_exactdp_keeps_every_leaf_count_and_float(tree):
    assume(_total(tree) <= MAX_COUNT)  # beyond it exactdp refuses the tree (tested below)
    x = from_dp_event(tree)
    back = to_dp_event(x)
    # the same leaves with the same total counts, the floats bit for bit (attrs compares fields with ==)
    assert dp_leaf_counts(back) == dp_leaf_counts(tree)
    # a float became the Fraction it is, exactly
    assert {to_dp_event(leaf): n for leaf, n in _x_leaf_counts(x).items()} == dict(dp_leaf_counts(tree))
    # one pass reaches the normal form
    assert from_dp_event(back) == x
    assert to_dp_event(from_dp_event(back)) == back


@given(x_trees)
def test_exactdp_to_dp_and_back_is_the_identity(x):
    assert from_dp_event(to_dp_event(x)) == x


@pytest.mark.parametrize("x", [
    Gaussian(0.1), Laplace(1e-300), RandomizedResponse(0.3, 7), PoissonSampled(Gaussian(1.1), 0.01),
    Composed([(Gaussian(2), 3), (Composed([(Laplace(1), 2)]), 1), (Gaussian(2), 1)]),
    Composed([(PoissonSampled(NOOP, 0.5), 4)]),
])
def test_fixed_round_trips(x):
    d = to_dp_event(x)
    assert from_dp_event(d) == x
    assert to_dp_event(from_dp_event(d)) == d


def test_a_float_is_read_exactly_and_written_back_bit_for_bit():
    g = from_dp_event(E.GaussianDpEvent(0.1))
    assert g.sigma == Fraction(0.1) != Fraction(1, 10)
    assert to_dp_event(g).noise_multiplier.hex() == (0.1).hex()


def test_normal_forms_of_dp_trees():
    g = E.GaussianDpEvent(1.5)
    assert to_dp_event(from_dp_event(E.ComposedDpEvent([g, g, E.SelfComposedDpEvent(g, 3)]))) == E.SelfComposedDpEvent(g, 5)
    for noop in (E.NoOpDpEvent(), E.ComposedDpEvent([]), E.SelfComposedDpEvent(g, 0), E.PoissonSampledDpEvent(0.0, g),
                 E.RandomizedResponseDpEvent(0.0, 1)):
        assert from_dp_event(noop) == NOOP
        assert to_dp_event(from_dp_event(noop)) == E.NoOpDpEvent()


def test_sensitivity_goes_across_as_the_ratio():
    assert to_dp_event(Gaussian(3, sensitivity=2)) == E.GaussianDpEvent(1.5)
    assert from_dp_event(to_dp_event(Laplace(3, sensitivity=2))) == Laplace(1.5)


def test_numbers_that_are_not_floats():
    with pytest.raises(NotExact, match="event.sigma"):
        to_dp_event(Gaussian(1, sensitivity=3))
    with pytest.raises(NotExact, match=r"event.parts\[0\].sample_rate"):
        to_dp_event(Composed([(PoissonSampled(Gaussian(1), "1/3"), 5)]))
    # conservative: the nearest float on the pessimistic side
    nm = to_dp_event(Gaussian(1, sensitivity=3), rounding="conservative").noise_multiplier
    assert Fraction(nm) < Fraction(1, 3) < Fraction(math.nextafter(nm, 1))
    q = to_dp_event(PoissonSampled(Gaussian(1), "1/3"), rounding="conservative").sampling_probability
    assert Fraction(math.nextafter(q, 0)) < Fraction(1, 3) < Fraction(q)
    p = to_dp_event(RandomizedResponse("1/3"), rounding="conservative").noise_parameter
    assert Fraction(p) < Fraction(1, 3)
    with pytest.raises(InvalidArgument, match="rounding must be one of exact, conservative"):
        to_dp_event(Gaussian(1), rounding="nearest")


# -- refusals -----------------------------------------------------------------------------------

G = E.GaussianDpEvent(1.0)
UNSUPPORTED = [
    E.NonPrivateDpEvent(),
    E.UnsupportedDpEvent(),
    E.SampledWithReplacementDpEvent(100, 10, G),
    E.SampledWithoutReplacementDpEvent(100, 10, G),
    E.SingleEpochTreeAggregationDpEvent(1.0, 10),
    E.DiscreteLaplaceDpEvent(1.0, 1),
    E.RepeatAndSelectDpEvent(G, 2.0, 1.0),
    E.MixtureOfGaussiansDpEvent(1.0, [0.0, 1.0], [0.5, 0.5]),
    E.ZCDpEvent(0.5),
    E.TruncatedSubsampledGaussianDpEvent(1000, 0.01, 20, 1.0),
]


@pytest.mark.parametrize("ev", UNSUPPORTED, ids=lambda e: type(e).__name__)
def test_events_exactdp_does_not_have_are_refused_by_name(ev):
    name = type(ev).__name__
    with pytest.raises(InvalidArgument) as info:
        from_dp_event(E.ComposedDpEvent([G, E.SelfComposedDpEvent(ev, 3)]))
    msg = str(info.value)
    assert "\n" not in msg
    assert msg.startswith("event.events[1].event must be a dp_accounting event that exactdp has")
    assert f"exactdp has no {name}" in msg
    acc = ExactPrivacyAccountant()
    assert acc.supports(ev) is (name == "NonPrivateDpEvent")   # dp_accounting's rule: non-private is supported (inf)


def test_other_refusals():
    with pytest.raises(InvalidArgument, match=r"event.event must be one Gaussian, Laplace or randomized-response step"):
        from_dp_event(E.PoissonSampledDpEvent(0.5, E.SelfComposedDpEvent(G, 2)))
    with pytest.raises(InvalidArgument, match=r"event.noise_multiplier must be a float > 0.*found 0.0"):
        from_dp_event(E.GaussianDpEvent(0.0))
    with pytest.raises(InvalidArgument, match=r"event.noise_parameter must be > 0"):
        from_dp_event(E.RandomizedResponseDpEvent(0.0, 3))
    with pytest.raises(InvalidArgument, match="event.sampling_probability must be in"):
        from_dp_event(E.PoissonSampledDpEvent(1.5, G))
    with pytest.raises(InvalidArgument, match="event.noise_multiplier must be a float"):
        from_dp_event(E.GaussianDpEvent("0.1"))
    with pytest.raises(InvalidArgument, match=r"count must be a total number of steps in \[1, 1e\+12\]"):
        from_dp_event(E.SelfComposedDpEvent(E.SelfComposedDpEvent(G, 10**6), 10**7))
    with pytest.raises(InvalidArgument, match=r"it has no \(eps, delta\) event"):
        to_dp_event(Composed([(Gaussian(1), 1), (Mechanism(eps=1), 2)]))
    with pytest.raises(InvalidArgument, match="neighboring_relation must be"):
        ExactPrivacyAccountant(REL.REPLACE_SPECIAL)
    acc = ExactPrivacyAccountant()
    with pytest.raises(dpa.UnsupportedEventError, match="exactdp has no ZCDpEvent"):
        acc.compose(E.ZCDpEvent(1.0))
    with pytest.raises(dpa.UnsupportedEventError, match="count must be an integer >= 0"):
        acc.compose(G, -1)
    assert acc.accountant.steps == 0
    # replace-one has a dominating pair for the subsampled Gaussian only
    rep = ExactPrivacyAccountant(REL.REPLACE_ONE)
    assert rep.supports(E.PoissonSampledDpEvent(0.5, G))
    assert not rep.supports(E.PoissonSampledDpEvent(0.5, E.LaplaceDpEvent(1.0)))


def test_without_dp_accounting_the_package_imports_and_says_which_extra():
    code = (
        "import sys; sys.modules['dp_accounting'] = None\n"
        "import exactdp.integrations, exactdp.integrations.dp_accounting as m\n"
        "from exactdp.errors import InvalidArgument\n"
        "for f in (lambda: m.from_dp_event(None), lambda: m.to_dp_event(None), m.ExactPrivacyAccountant):\n"
        "    try:\n"
        "        f()\n"
        "    except InvalidArgument as e:\n"
        "        print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).parents[2]).stdout.splitlines()
    assert out == ["dp_accounting must be installed to use this integration (pip install 'exactdp[dp-accounting]'): "
                   "found not installed"] * 3


# -- the accountant against independent values --------------------------------------------------

def _inside(enc, value) -> bool:
    with R.mp.workdps(50):
        return R.mpf(enc.lower) <= value <= R.mpf(enc.upper)


@R.at50
def test_gaussian_compositions_are_mu_gdp():
    """Composed Gaussians without sampling are mu-GDP with mu^2 = sum count / sigma^2 (add/remove)
    and twice that mu under replace-one (sensitivity 2)."""
    tree = E.ComposedDpEvent([E.SelfComposedDpEvent(E.GaussianDpEvent(2.0), 6), E.GaussianDpEvent(4.0),
                              E.NoOpDpEvent(), E.SelfComposedDpEvent(E.GaussianDpEvent(8.0), 3)])
    mu2 = Fraction(6, 4) + Fraction(1, 16) + Fraction(3, 64)
    for rel, mu in ((REL.ADD_OR_REMOVE_ONE, R.mp.sqrt(R.mpf(mu2))), (REL.REPLACE_ONE, 2 * R.mp.sqrt(R.mpf(mu2)))):
        acc = ExactPrivacyAccountant(rel, digits=3).compose(tree)
        d = acc.delta_enclosure(1.0)
        assert _inside(d, R.gdp_delta(mu, 1))
        assert acc.get_delta(1.0) >= R.gdp_delta(mu, 1)
        if rel == REL.REPLACE_ONE:
            continue  # (the epsilon query once is enough)
        enc, eps = acc.epsilon_enclosure(1e-5), acc.get_epsilon(1e-5)
        # the float returned is a valid epsilon (its delta is at most the target), the lower end is not above the optimum
        assert R.gdp_delta(mu, eps) <= 1e-5 <= R.gdp_delta(mu, enc.lower)
        assert Fraction(eps) >= enc.upper and Fraction(math.nextafter(eps, 0)) < enc.upper


def test_subsampled_gaussian_one_step():
    """One Poisson-subsampled Gaussian step: add/remove is the larger of the two directions'
    hockey sticks, each in closed form."""
    sigma, q = 0.75, 0.25
    acc = ExactPrivacyAccountant().compose(E.PoissonSampledDpEvent(q, E.GaussianDpEvent(sigma)))
    for eps in (0.25, 1.0):
        want = max(R.sub_delta(eps, sigma, q, 1, "remove"), R.sub_delta(eps, sigma, q, 1, "add"))
        assert _inside(acc.delta_enclosure(eps), want)
        assert acc.get_delta(eps) >= want


def test_laplace_and_randomized_response():
    lap = ExactPrivacyAccountant().compose(E.LaplaceDpEvent(0.5))  # E = 1 / b = 2
    assert _inside(lap.delta_enclosure(0.5), R.laplace_delta(0.5, 2))
    # randomized response over k buckets, replace-one: the two inputs' outputs differ on two buckets only
    p, k, eps = 0.5, 4, 0.5
    rr = ExactPrivacyAccountant(REL.REPLACE_ONE).compose(E.RandomizedResponseDpEvent(p, k))
    with R.mp.workdps(50):  # the enclosure is tight (the lattice is aligned to the atoms): 50 digits
        want = max(R.mp.mpf(0), (1 - p + R.mpf(Fraction(p) / k)) - R.mp.e ** eps * R.mpf(Fraction(p) / k))
    assert _inside(rr.delta_enclosure(eps), want)


def test_non_private_and_empty():
    acc = ExactPrivacyAccountant()
    assert (acc.get_epsilon(1e-5), acc.get_delta(1.0)) == (0.0, 0.0)
    acc.compose(E.NoOpDpEvent(), 5)
    assert (acc.get_epsilon(1e-5), acc.get_delta(1.0)) == (0.0, 0.0)
    acc.compose(G, 2).compose(E.NonPrivateDpEvent())
    assert (acc.get_epsilon(1e-5), acc.get_delta(1.0)) == (math.inf, 1.0)
    # dp_accounting's ledger (it leaves the no-ops out)
    assert acc.ledger == E.ComposedDpEvent([E.SelfComposedDpEvent(G, 2), E.NonPrivateDpEvent()])
    assert ExactPrivacyAccountant().compose(E.GaussianDpEvent(0.0)).get_epsilon(0.5) == math.inf


def test_counts_multiply_and_the_accountant_is_a_privacy_accountant():
    acc = ExactPrivacyAccountant(digits=3)
    assert isinstance(acc, dpa.PrivacyAccountant)
    acc.compose(E.SelfComposedDpEvent(E.GaussianDpEvent(4.0), 4), count=4)   # 16 steps: mu = 1
    assert acc.accountant.steps == 16
    assert _inside(acc.delta_enclosure(0.5), R.gdp_delta(1, 0.5))
    with pytest.raises(InvalidArgument, match="digits must be an integer in"):
        ExactPrivacyAccountant(digits=0)
