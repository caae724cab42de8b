"""The Vadhan-Wang Section 6 experiment: deterministic trials, resumption from the state file
(including a torn last line), a refused foreign state file, and a Dask LocalCluster run that
gives the same summary as a serial run."""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest

from exactdp import InvalidArgument
from exactdp.experiments.vw_section6 import run_experiment, run_trial
from exactdp.interactive import privacy_loss, random_two_round


def test_trial_is_deterministic_and_consistent():
    a = run_trial(5, 3, F(1, 100), 30)
    assert a == run_trial(5, 3, F(1, 100), 30)
    import random

    params, m = random_two_round(random.Random("5:3"), 30)
    assert a["params"] == [str(p) for p in params]
    assert a["exp_eps"] == str(privacy_loss(m, F(1, 100)).exp_exact)
    assert a["verified_exact"] and a["below_infeasible_exact"]


def test_resume_gives_the_same_summary(tmp_path):
    state = tmp_path / "s.jsonl"
    fresh = run_experiment(6, 2, "1/50", denominator=20)
    run_experiment(3, 2, "1/50", denominator=20, state=str(state))
    lines = state.read_text().splitlines()
    assert len(lines) == 4 and json.loads(lines[0])["experiment"] == "vw-section6"
    with open(state, "a") as f:
        f.write('{"index": 3, "params": ["1/')  # killed mid-write
    resumed = run_experiment(6, 2, "1/50", denominator=20, state=str(state))
    assert resumed == fresh
    assert len(state.read_text().splitlines()) == 7 and state.read_text().endswith("\n")
    with pytest.raises(InvalidArgument, match="--state"):
        run_experiment(6, 3, "1/50", denominator=20, state=str(state))  # another seed


def test_dask_local_cluster_matches_serial():
    pytest.importorskip("dask.distributed")
    serial = run_experiment(4, 9, "1/100", denominator=20)
    assert run_experiment(4, 9, "1/100", denominator=20, scheduler="local:2") == serial
