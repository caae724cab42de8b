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


def test_job_cases_refuse_or_answer_and_clobber_nothing():
    """Issue 26: links, FIFOs (for devices), folders, missing folders, full disks, bad Dask
    addresses and deep JSON, each in a fresh folder checked afterwards; every refusal within 2 s."""
    import random
    import signal

    signal.signal(signal.SIGALRM, fuzz._alarm)
    r = random.Random(20261127)
    fails = []
    for i in range(60):
        argv = fuzz._job(r)
        res = fuzz._run_cli(argv, 60, full_disk=i % 10 == 0)
        if not res["ok"] or (res.get("refused") and res["seconds"] > 2):
            fails.append(f"{argv}: {res['why']} ({res.get('seconds')} s)")
    assert not fails, "\n".join(fails)


def test_the_checker_catches_a_clobbered_link(monkeypatch):
    import exactdp.jobs

    monkeypatch.setattr(exactdp.jobs, "output_file", lambda path, what="--out": path)  # the old helper's behaviour
    res = fuzz._run_cli(["batch", "--in", "{TMP}/q.jsonl", "--out", "{TMP}/link.out"], 60)
    assert not res["ok"] and "link.out is no longer a link" in res["why"]


def test_the_checker_catches_a_traceback_on_a_full_disk(monkeypatch):
    import exactdp.cli as cli

    def prints(argv=None):
        print("an answer")
        return 0

    monkeypatch.setattr(cli, "main", prints)
    res = fuzz._run_cli(["delta"], 5, full_disk=True)
    assert not res["ok"] and "No space left" in res["why"]
