"""Records by keyword with a checked guarantee tier (issue 22; STYLE.md item 1).

The tier type lives here (``exactdp.numbers.guarantee``); the records are the result types
outside the engines, each a ``dataclass(frozen=True, kw_only=True)``."""

from __future__ import annotations

import dataclasses
import importlib
import json
from fractions import Fraction as F

import pytest

from exactdp.errors import InvalidArgument
from exactdp.numbers import TIERS, Enclosure, Guarantee

RECORDS = [
    ("exactdp.bounds.calibrate", "PaperStatement"), ("exactdp.bounds.calibrate", "Calibration"),
    ("exactdp.bounds.composition", "Bound"), ("exactdp.bounds.composition", "BoundsResult"),
    ("exactdp.certify", "Certificate"), ("exactdp.interactive.simulator", "SimulationResult"),
    ("exactdp.interactive.lp", "LPOutcome"), ("exactdp.interactive.privacy", "PrivLossResult"),
    ("exactdp.interactive.vw", "VWBound"), ("exactdp.interactive.concurrent", "ConcurrentComparison"),
    ("exactdp.interactive.blackwell", "BlackwellResult"), ("exactdp.gdp.filter", "FilterEntry"),
    ("exactdp.regions.theorem33", "Theorem33Check"), ("exactdp.testing.check", "Verdict"),
    ("exactdp.testing.check", "AccountantReport"), ("exactdp.renyi.divergence", "RenyiResult"),
    ("exactdp.reductions.chain", "ChainResult"), ("exactdp.approx.theorem17", "ApproxResult"),
    ("exactdp.approx.sandwich", "Bounds"),
]


def test_the_tiers_and_their_words():
    assert TIERS == ("exact", "enclosure", "upper bound", "lower bound", "approximate")
    assert [Guarantee.EXACT, Guarantee.ENCLOSURE, Guarantee.UPPER, Guarantee.LOWER, Guarantee.APPROXIMATE] == list(TIERS)
    g = Guarantee("upper bound")
    assert g == "upper bound" and isinstance(g, str) and Guarantee(g) is g
    assert (repr(g), str(g), f"{g}", json.dumps(g)) == ("'upper bound'", "upper bound", "upper bound", '"upper bound"')
    for bad in ("certain", "Exact", "", None, 1):
        with pytest.raises(InvalidArgument, match="guarantee must be one of"):
            Guarantee(bad)


@pytest.mark.parametrize("module,name", RECORDS, ids=[n for _, n in RECORDS])
def test_records_are_frozen_and_by_keyword(module, name):
    cls = getattr(importlib.import_module(module), name)
    params = cls.__dataclass_params__
    assert params.frozen, name
    own = [f for f in dataclasses.fields(cls) if f.init]
    assert own and all(f.kw_only for f in own), name


def test_a_record_checks_its_tier_and_keeps_the_sentence_apart():
    from exactdp.bounds.composition import Bound
    from exactdp.renyi.divergence import RenyiResult

    b = Bound(name="basic", statement="Theorem 1.2", value=Enclosure.point(1), guarantee="upper bound", meaning="a sentence")
    assert type(b.guarantee) is Guarantee and b.to_dict()["guarantee"] == "a sentence"
    assert Bound(name="optimal", statement="s", value=Enclosure.point(1), guarantee="exact").to_dict()["guarantee"] == "exact"
    with pytest.raises(InvalidArgument):
        Bound(name="basic", statement="s", value=None, guarantee="upper bound on OptComp")  # a sentence is not a tier
    with pytest.raises(TypeError):
        RenyiResult(Enclosure.point(0), None, F(2), "exact")  # by keyword only
    with pytest.raises(dataclasses.FrozenInstanceError):
        b.name = "other"


def test_theorem17_tier_and_sentence():
    from exactdp import mechanisms
    from exactdp.approx import theorem17

    r = theorem17(mechanisms(eps=["0.1"], k=10), "1e-6", eta="0.1")
    assert r.guarantee == Guarantee.UPPER and r.meaning.startswith("OptComp(delta_g) <= eps_star")
    assert r.to_dict(10)["guarantee"] == r.meaning
