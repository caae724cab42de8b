"""``exactdp proofs`` as a long job (issue 26): a line per entry as it is settled
(``--progress``), one statement run alone (``--id``), and a resumable run (``--state``): a
second run reads every settled entry back and runs none."""

from __future__ import annotations

import json

import pytest
from _cli import run

import exactdp_proofs._framework as fw

ARGS = ["proofs", "--paper", "murtagh_vadhan", "--id", "Lemma 5.1", "--json"]


def test_progress_and_resume(tmp_path, monkeypatch, capsys):
    state = tmp_path / "state.jsonl"
    rc, out, err = run(ARGS + ["--state", state, "--progress"], capsys)
    assert rc == 0, err
    first = json.loads(out)["results"]
    assert [c["id"] for c in first] == ["Lemma 5.1"]
    assert err.startswith("[1/1] murtagh_vadhan Lemma 5.1: checked") and err.count("\n") == 1

    def boom(*a, **k):
        raise AssertionError("a settled entry was run again")

    monkeypatch.setattr(fw, "run_entry", boom)
    rc, out, err = run(ARGS + ["--state", state, "--progress"], capsys)
    assert rc == 0 and json.loads(out)["results"] == first
    assert "(from --state)" in err


def test_a_state_file_of_another_run_is_refused(tmp_path, capsys):
    state = tmp_path / "state.jsonl"
    assert run(ARGS + ["--state", state], capsys)[0] == 0
    rc, out, err = run(ARGS + ["--state", state, "--full"], capsys)
    assert rc == 2 and err.startswith("exactdp: error: --state") and out == ""


@pytest.mark.parametrize("bad", ["", "{TMP}"])
def test_a_bad_state_path_is_refused_before_any_check(tmp_path, monkeypatch, capsys, bad):
    monkeypatch.setattr(fw, "run_entry", lambda *a, **k: pytest.fail("ran"))
    rc, out, err = run(ARGS + ["--state", bad.replace("{TMP}", str(tmp_path))], capsys)
    assert rc == 2 and "--state" in err
