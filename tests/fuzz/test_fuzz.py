"""The fuzzer in a bounded form (issue 17): a few hundred seeded command lines and API
calls, each in a worker process capped at 2.5 GiB and 60 s; every one must end in an
answer, a one-line refusal (exit 2) or a one-line undecided (exit 3), never a traceback or a
foreign exception. ``make fuzz`` runs the full form (10,000 cases) and writes docs/fuzz.md.
"""

from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fuzz  # noqa: E402

CASES = int(os.environ.get("EXACTDP_FUZZ_CASES", "200"))


@pytest.mark.slow
def test_fuzzed_inputs_end_in_an_answer_or_one_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # nothing may be written into the working directory
    rep = fuzz.run(CASES, seed=20261123, workers=2, seconds=60, memory_gib=2.5)
    fails = "\n".join(f"{f['case']}: {f['why']}" for f in rep["failures"])
    assert not rep["failures"], f"{len(rep['failures'])} of {CASES} cases broke the contract:\n{fails}"
    assert rep["refused"] > CASES // 4  # the generator does produce bad input
    assert list(tmp_path.iterdir()) == []


def test_the_generator_is_seeded_and_varied():
    import random

    a = [fuzz.command(random.Random(5)) for _ in range(3)]
    b = [fuzz.command(random.Random(5)) for _ in range(3)]
    assert a == b
    cmds = {tuple(fuzz.command(random.Random(i)))[:1] for i in range(300)}
    assert {("delta",), ("epsilon",), ("certify",), ("approx",), ("reduce",), ("proofs",)} <= cmds


def test_the_checker_catches_a_traceback(monkeypatch):
    import exactdp.cli as cli

    def boom(argv=None):
        raise ZeroDivisionError("x")

    monkeypatch.setattr(cli, "main", boom)
    res = fuzz._run_cli(["delta"], 5)
    assert not res["ok"] and "ZeroDivisionError" in res["why"]
