"""Long jobs (issue 26): a handful of tasks with ``workers`` runs serially (a local Dask
cluster costs seconds to start: 23.4 s against 3.8 s serial in the fuzz), and says so."""

from __future__ import annotations

import pytest

import exactdp.jobs as jobs


def _square(x: int) -> dict:
    return {"y": x * x}


def test_few_tasks_run_serially_and_say_so(monkeypatch, capsys):
    def no_cluster(*a, **k):
        raise AssertionError("a Dask cluster was started for a handful of tasks")

    monkeypatch.setattr(jobs, "dask_client", no_cluster)
    tasks = [(str(i), (i,)) for i in range(jobs.DASK_MIN_TASKS - 1)]
    res = jobs.run_tasks(_square, tasks, workers=2, progress=True)
    assert [res[str(i)]["y"] for i in range(len(tasks))] == [i * i for i in range(len(tasks))]
    assert "run serially" in capsys.readouterr().err


def test_many_tasks_still_go_to_dask(monkeypatch):
    called = []

    def fake_client(scheduler, workers):
        called.append(workers)
        raise jobs.InvalidArgument("--workers", "a test double", workers)

    monkeypatch.setattr(jobs, "dask_client", fake_client)
    with pytest.raises(jobs.InvalidArgument):
        jobs.run_tasks(_square, [(str(i), (i,)) for i in range(jobs.DASK_MIN_TASKS)], workers=2)
    assert called == [2]


def test_a_bad_worker_count_is_refused_even_when_serial():
    with pytest.raises(jobs.InvalidArgument, match="--workers"):
        jobs.run_tasks(_square, [("0", (0,))], workers=0)


def test_progress_uses_tqdm_when_installed(monkeypatch):
    import sys
    import types

    made = []

    class FakeTqdm:
        def __init__(self, **kw):
            self.kw, self.n, self.closed = kw, kw["initial"], False
            made.append(self)

        def update(self, n):
            self.n += n

        def close(self):
            self.closed = True

    monkeypatch.setitem(sys.modules, "tqdm", types.SimpleNamespace(tqdm=FakeTqdm))
    jobs.run_tasks(_square, [(str(i), (i,)) for i in range(5)], progress=True, what="queries")
    (bar,) = made
    assert bar.kw["total"] == 5 and bar.n == 5 and bar.closed


def test_progress_without_tqdm_draws_its_own_bar(monkeypatch, capsys):
    import sys

    monkeypatch.setitem(sys.modules, "tqdm", None)  # import tqdm raises ImportError
    jobs.run_tasks(_square, [(str(i), (i,)) for i in range(3)], progress=True, what="queries")
    assert "3/3 queries" in capsys.readouterr().err
