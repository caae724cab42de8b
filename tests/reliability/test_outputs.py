"""Nothing clobbered, nothing lost, every refusal before the work (issue 26).

* An output path that is a symbolic link has its target written and stays a link; a path
  that is not a regular file (a folder, a FIFO standing in for a device such as
  ``/dev/full``) is refused and left as it was.
* Every output path, state file and Dask address is checked before any work: the function
  that does the work is replaced by one that fails the test if it is ever called.
* The tracebacks of the fuzz: ``--scheduler nonsense``, 100,000 nested JSON brackets,
  ``--in /proc/self/mem``, stdout on a full disk (``> /dev/full``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from _cli import refused, run

from exactdp.errors import InvalidArgument
from exactdp.jobs import output_dir, output_file, write_atomic

QUERY = '{"id": 1, "mechanisms": {"exp_eps": ["2"], "k": 2}, "exp_eps_g": "2"}\n'


@pytest.fixture
def no_work(monkeypatch):
    """Replace the functions that do a long job's work by ones that fail when called."""

    def boom(*a, **k):
        raise AssertionError("work started before the output path was checked")

    import exactdp.batch.run
    import exactdp.corpus.build

    monkeypatch.setattr(exactdp.batch.run, "_answer_task", boom)
    monkeypatch.setattr(exactdp.corpus.build, "compute_vector", boom)
    monkeypatch.setattr(exactdp.corpus.build, "_check_task", boom)
    import exactdp_proofs._framework as fw

    monkeypatch.setattr(fw, "run_entry", boom)


# --------------------------------------------------------------------------
# the atomic write


def test_a_symlink_is_followed_and_kept(tmp_path, capsys):
    (tmp_path / "q.jsonl").write_text(QUERY)
    target = tmp_path / "target.txt"
    target.write_text("old\n")
    link = tmp_path / "link.jsonl"
    link.symlink_to("target.txt")
    rc, out, err = run(["batch", "--in", tmp_path / "q.jsonl", "--out", link], capsys)
    assert rc == 0, err
    assert link.is_symlink() and os.readlink(link) == "target.txt"
    rec = json.loads(target.read_text())
    # two mechanisms with e^eps = 2 at e^eps_g = 2: P(loss = 2 eps) (1 - 2 / 4) = 4/9 * 1/2
    assert rec["result"]["delta_g"]["exact"] == "2/9"


def test_a_dangling_symlink_writes_its_target(tmp_path):
    link = tmp_path / "link.txt"
    link.symlink_to("new.txt")
    write_atomic(str(link), ["a", "b"])
    assert link.is_symlink() and (tmp_path / "new.txt").read_text() == "a\nb\n"


def test_the_mode_of_an_existing_target_is_kept(tmp_path):
    f = tmp_path / "out.txt"
    f.write_text("x\n")
    f.chmod(0o600)
    write_atomic(str(f), ["y"])
    assert f.read_text() == "y\n" and (f.stat().st_mode & 0o777) == 0o600


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_what_is_not_a_regular_file_is_never_replaced(tmp_path, kind):
    p = tmp_path / "special"
    if kind == "fifo":
        os.mkfifo(p)  # a special file, as /dev/full is (which the old helper replaced when run as root)
    else:
        p.mkdir()
    with pytest.raises(InvalidArgument, match="never replaced"):
        write_atomic(str(p), ["x"])
    assert (p.is_fifo() if kind == "fifo" else p.is_dir())
    assert sorted(os.listdir(tmp_path)) == ["special"]  # no temporary file left


def test_a_link_to_a_special_file_is_refused(tmp_path):
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "link").symlink_to("fifo")
    with pytest.raises(InvalidArgument):
        write_atomic(str(tmp_path / "link"), ["x"])
    assert (tmp_path / "fifo").is_fifo() and (tmp_path / "link").is_symlink()


def test_output_paths_checked(tmp_path):
    with pytest.raises(InvalidArgument, match="not empty"):
        output_file("")
    with pytest.raises(InvalidArgument, match="existing folder"):
        output_file(str(tmp_path / "nodir" / "x"))
    (tmp_path / "loop").symlink_to("loop")
    with pytest.raises(InvalidArgument):
        output_file(str(tmp_path / "loop"))
    (tmp_path / "afile").write_text("")
    with pytest.raises(InvalidArgument, match="not a file"):
        output_dir(str(tmp_path / "afile"))
    with pytest.raises(InvalidArgument, match="parent"):
        output_dir(str(tmp_path / "a" / "b"))
    assert output_dir(str(tmp_path / "new")) == str(tmp_path / "new")


# --------------------------------------------------------------------------
# every output path before any work


@pytest.mark.parametrize("out", ["nodir/x.jsonl", ".", "", "fifo"])
def test_batch_out_refused_before_any_query(tmp_path, monkeypatch, capsys, no_work, out):
    monkeypatch.chdir(tmp_path)
    os.mkfifo("fifo")
    Path("q.jsonl").write_text(QUERY)
    refused(*run(["batch", "--in", "q.jsonl", "--out", out], capsys), "--out")
    assert sorted(os.listdir(".")) == ["fifo", "q.jsonl"]


def test_corpus_out_a_file_refused_before_any_vector(tmp_path, capsys, no_work):
    (tmp_path / "afile").write_text("keep\n")
    refused(*run(["corpus", "build", "--out", tmp_path / "afile"], capsys), "--out")
    assert (tmp_path / "afile").read_text() == "keep\n"


def test_proofs_report_refused_before_any_check(tmp_path, capsys, no_work):
    refused(*run(["proofs", "--id", "Lemma 5.3", "--report", "/"], capsys), "--report")
    os.mkfifo(tmp_path / "fifo")
    refused(*run(["proofs", "--id", "Lemma 5.3", "--report", tmp_path / "fifo"], capsys), "--report")
    assert (tmp_path / "fifo").is_fifo()


def test_proofs_id_matching_nothing_refused_before_any_check(capsys, no_work):
    refused(*run(["proofs", "--id", "zzz-none"], capsys), "--id", "zzz-none")


def test_experiment_empty_state_refused(capsys):
    refused(*run(["experiment", "vw-section6", "--trials", "1", "--state", ""], capsys), "--state")


def test_audit_outputs_refused_before_any_peer_runs(tmp_path, capsys):
    refused(*run(["audit", "--peer", "exactdp-float", "--quick", "--out", tmp_path / "no" / "x.jsonl"], capsys), "--out")
    refused(*run(["audit", "--peer", "exactdp-float", "--quick", "--markdown", tmp_path], capsys), "--markdown")


def test_plot_output_a_fifo_refused(tmp_path, capsys):
    os.mkfifo(tmp_path / "f.png")
    refused(*run(["plot", "region", "--eps", "1", "-o", tmp_path / "f.png"], capsys), "-o")
    assert (tmp_path / "f.png").is_fifo()


# --------------------------------------------------------------------------
# the tracebacks of the fuzz


@pytest.mark.parametrize("argv", [
    ["batch", "--in", "q.jsonl", "--out", "a.jsonl"],
    ["experiment", "vw-section6", "--trials", "1"],
    ["corpus", "verify"],
    ["corpus", "build", "--out", "c"],
    ["delta", "--eps", "0.1", "--eps-g", "1"],
    ["epsilon", "--eps", "0.1", "--delta-g", "1e-6"],
])
@pytest.mark.parametrize("address", ["nonsense", "tcp://host:99999", "host:", "١:8786"])
def test_a_malformed_scheduler_address_is_one_line(tmp_path, monkeypatch, capsys, no_work, argv, address):
    monkeypatch.chdir(tmp_path)
    Path("q.jsonl").write_text(QUERY)
    refused(*run(argv + ["--scheduler", address], capsys), "--scheduler")
    assert sorted(os.listdir(".")) == ["q.jsonl"]


def test_check_scheduler_accepts_dask_addresses():
    from exactdp.jobs import check_scheduler

    for a in ["tcp://127.0.0.1:8786", "127.0.0.1:8786", "tls://sched.example.org:8786", "[::1]:8786", "inproc://10.0.0.1/9/1"]:
        assert check_scheduler(a) == a


def test_deep_json_is_one_line(tmp_path, capsys):
    deep = '{"a":' * 100_000 + "\n"
    (tmp_path / "deep.jsonl").write_text(deep)
    refused(*run(["corpus", "build", "--grid", tmp_path / "deep.jsonl", "--out", tmp_path / "c"], capsys),
            "--grid line 1", "nested")
    from exactdp.batch import parse_query
    from exactdp.events import Composition

    with pytest.raises(InvalidArgument, match="nested"):
        Composition.loads(deep)
    with pytest.raises(InvalidArgument, match="nested"):
        parse_query("[" * 500 + "]" * 500)
    # a batch line nested too deep is an error record; the run goes on
    (tmp_path / "q.jsonl").write_text(deep + QUERY)
    rc, out, err = run(["batch", "--in", tmp_path / "q.jsonl", "--out", tmp_path / "a.jsonl", "--json"], capsys)
    assert rc == 0 and json.loads(out) == {"lines": 2, "answered": 1, "errors": 1}


@pytest.mark.skipif(not os.path.exists("/proc/self/mem"), reason="Linux /proc")
def test_an_unreadable_input_is_one_line(tmp_path, capsys):
    refused(*run(["batch", "--in", "/proc/self/mem", "--out", tmp_path / "a.jsonl"], capsys), "--in")
    refused(*run(["corpus", "build", "--grid", "/proc/self/mem", "--out", tmp_path / "c"], capsys), "--grid")
    assert os.listdir(tmp_path) == []


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("argv", [
    ["delta", "--eps", "0.1", "-k", "10", "--eps-g", "0.5"],
    ["delta", "--eps", "0.1", "-k", "10", "--eps-g", "0.5", "--json"],
    ["reduce", "--int-partition", "1,2,3"],
])
def test_stdout_on_a_full_disk_is_one_line(argv):
    with open("/dev/full", "w") as full:
        p = subprocess.run([sys.executable, "-m", "exactdp", *argv], stdout=full, stderr=subprocess.PIPE, text=True,
                           timeout=120)
    assert p.returncode == 2, p.stderr
    assert p.stderr.count("\n") == 1 and p.stderr.startswith("exactdp: error: cannot write"), p.stderr
    assert "No space left" in p.stderr


def _garbage_server():
    """A TCP server that is not Dask's: it answers every connection with 8 bytes of 0xff."""
    import socket
    import threading

    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(4)

    def serve():
        while True:
            try:
                c, _ = srv.accept()
            except OSError:
                return
            c.sendall(b"\xff" * 64)
            c.close()

    threading.Thread(target=serve, daemon=True).start()
    return srv


def test_a_server_that_is_not_dask_is_one_line_and_nothing_written(tmp_path, capsys):
    import time

    srv = _garbage_server()
    try:
        (tmp_path / "q.jsonl").write_text(QUERY)
        t0 = time.monotonic()
        refused(*run(["batch", "--in", tmp_path / "q.jsonl", "--out", tmp_path / "a.jsonl",
                      "--scheduler", f"tcp://127.0.0.1:{srv.getsockname()[1]}"], capsys), "--scheduler")
        assert time.monotonic() - t0 < 15
        assert sorted(os.listdir(tmp_path)) == ["q.jsonl"]  # no partial file left behind
    finally:
        srv.close()


def test_nothing_listening_is_refused_within_seconds(tmp_path, capsys):
    import socket
    import time

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # a free port: connection refused
    (tmp_path / "q.jsonl").write_text(QUERY)
    t0 = time.monotonic()
    refused(*run(["batch", "--in", tmp_path / "q.jsonl", "--out", tmp_path / "a.jsonl",
                  "--scheduler", f"127.0.0.1:{port}"], capsys), "--scheduler", "running")
    assert time.monotonic() - t0 < 2 + 1
    assert sorted(os.listdir(tmp_path)) == ["q.jsonl"]
