"""A seeded fuzzer of the command line and the Python API (issue 17).

The contract under test: for every input, the command exits 0 (answer), 1 (certify
--exit-code / a failing proof or as-printed step), 2 (bad input or a refused cost: exactly
one stderr line starting ``exactdp: error:``) or 3 (``exactdp: undecided:``), never with a
traceback, within ``--seconds`` per case and under the memory cap; every API call either
returns a result whose ``repr`` works or raises an :class:`exactdp.ExactDPError`, never
another exception.

Cases run in worker processes (``--workers``), each with an address-space cap
(``--memory-gib`` beyond what the worker held when it started, default 2.5: the refusal
threshold is 2 GiB) and a per-case alarm; a worker
killed by the cap or a case past its time is a failure, reported with its command line.
The workers' time limit for refusals (``EXACTDP_MAX_SECONDS``) is a third of the alarm, so
a case fails also when a request was accepted whose cost estimate was more than about 3x
too low (with the default limit of 180 s an alarm of 60 s would test nothing there).

Usage::

    python tests/fuzz/fuzz.py --cases 10000 --seed 1 [--workers 2] [--report docs/fuzz.md]

``make fuzz`` runs the full form; ``tests/fuzz/test_fuzz.py`` runs a bounded form in CI. Run as a
script it fuzzes the ``exactdp`` that Python imports (the script's folder, not the current one,
is on the path): from a checkout other than the installed one, set ``PYTHONPATH`` to it.
The report lists the cases that finished past the workers' refusal limit (``slow``).

Issue 26 added what the first fuzzer missed: output paths that are symbolic links (kept as
links, their target written), FIFOs standing in for devices, folders, empty paths and missing
folders (refused before any work and left as they were); stdout on a full disk; malformed Dask
addresses; JSON nested 100,000 deep; non-ASCII digits in every numeric option. Each such case
runs in a fresh folder (``{TMP}`` in its command line) holding those files, checked afterwards.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import multiprocessing as mp
import os
import random
import resource
import shutil
import signal
import stat
import sys
import tempfile
import time
from collections import Counter

# --------------------------------------------------------------------------
# the generator


GOOD_EPS = ["0.1", "0.25", "1", "1/3", "0.05", "2", "0"]
GOOD_EXP = ["11/10", "2", "3/2", "1", "5/4"]
GOOD_DELTA = ["0", "1e-6", "1/100", "0.001"]
GOOD_DG = ["1e-6", "1/100", "0.5", "0", "1e-3"]
BAD_NUMS = ["abc", "", " ", "nan", "NaN", "inf", "-inf", "-1", "-0.5", "1/0", "0/0", "1_000", "0x10", "1e", "e5", "--",
            "٣", "１", "1..2", "1/2/3", "1e999999999", "-1e-400", "1e308", "1e-400", "1e309", "9" * 1200, "1/" + "7" * 1100,
            "1e-5000", "10" * 40, "1.5", "2", "0.999999999999", "+3", " 0.1", "0.1 ", "1,", ",1", "1,,2",
            "٣/٤", "1e٣", "0.٥", "²", "1\u00a0000"]
HUGE_K = ["1000000000000", "10000001", "99999999999999999999999", "0", "-3", "1.5", "x", "٣", "200001", "130000", "１０"]
#: Output paths, resolved in the case's fresh folder ({TMP}): see _fixtures.
OUT_PATHS = ["{TMP}/new.out", "{TMP}/file.out", "{TMP}/link.out", "{TMP}/dangling.out", "{TMP}/fifo", "{TMP}/dir",
             "{TMP}/nodir/x.out", "", "{TMP}", "{TMP}/linkfifo", "{TMP}/loop"]
#: Dask scheduler addresses, none of which names a running scheduler (nothing connects).
BAD_SCHEDULERS = ["nonsense", "tcp://host:99999", "host:", "١:8786", "tcp://:8786", "", "a b:1", "tcp://x:0"]


def _num(r: random.Random, good: list) -> str:
    x = r.random()
    if x < 0.55:
        return r.choice(good)
    if x < 0.9:
        return r.choice(BAD_NUMS)
    if r.random() < 0.5:
        return str(10 ** r.randint(1, 400))
    return f"{r.random():.12f}e{r.randint(-330, 330)}"


def _list(r: random.Random, good: list) -> str:
    n = r.choice([1, 1, 2, 3, 5, 12, 47])
    return ",".join(_num(r, good) if r.random() < 0.3 else r.choice(good) for _ in range(n))


def _mechs(r: random.Random) -> list[str]:
    out = ["--eps", _list(r, GOOD_EPS)] if r.random() < 0.6 else ["--exp-eps", _list(r, GOOD_EXP)]
    if r.random() < 0.4:
        out += ["--delta", _list(r, GOOD_DELTA) if r.random() < 0.8 else _num(r, GOOD_DELTA)]
    if r.random() < 0.5:
        out += ["-k", r.choice(["1", "2", "10", "100", "1000"]) if r.random() < 0.7 else r.choice(HUGE_K)]
    return out


def _opts(r: random.Random, engine: bool = True) -> list[str]:
    out = []
    if engine and r.random() < 0.3:
        out += ["--engine", r.choice(["auto", "exact", "certified", "float", "bogus"])]
    if engine and r.random() < 0.3:
        out += ["--method", r.choice(["auto", "homogeneous", "windowed", "lattice", "lattice-balls", "windowed-groups", "grouped", "mitm", "brute", "x"])]
    if r.random() < 0.2:
        out += ["--digits", r.choice(["1", "5", "30", "100", "4301", "10000", "10001", "0", "-1", "x", "٣", "３0"])]
    if engine and r.random() < 0.05:
        out += ["--scheduler", r.choice(BAD_SCHEDULERS)]
    if r.random() < 0.1:
        out += ["--json"]
    return out


def command(r: random.Random) -> list[str]:
    """One random command line (a list of arguments after ``exactdp``)."""
    c = r.random()
    if c < 0.25:
        argv = ["delta", *_mechs(r)]
        argv += (["--eps-g", _num(r, GOOD_EPS)] if r.random() < 0.7 else ["--exp-eps-g", _num(r, GOOD_EXP)])
        argv += _opts(r)
        if r.random() < 0.1:
            argv += ["--prec", r.choice(["8", "64", "7", "131072", "131073", "x"])]
    elif c < 0.5:
        argv = ["epsilon", *_mechs(r), "--delta-g", _num(r, GOOD_DG), *_opts(r)]
    elif c < 0.65:
        argv = ["certify", *_mechs(r)]
        argv += (["--claim-eps", _num(r, ["1", "5", "0.5", "0"])] if r.random() < 0.8 else ["--claim-exp-eps", _num(r, GOOD_EXP)])
        argv += ["--claim-delta", _num(r, GOOD_DG)]
        if r.random() < 0.2:
            argv += ["--max-digits", r.choice(["15", "60", "0", "x"])]
    elif c < 0.8:
        argv = ["approx", *_mechs(r), "--delta-g", _num(r, GOOD_DG)]
        argv += (["--eta", _num(r, ["0.1", "0.01", "1", "0.5"])] if r.random() < 0.7 else
                 ["--exp-base", _num(r, ["2", "3/2", "11/10", "1.0000001", "1e999"])])
        if r.random() < 0.2:
            argv += ["--width", _num(r, ["1e-3", "0.1"])]
    elif c < 0.9:
        zs = ",".join(r.choice(["1", "2", "3", "5", "6", "10", "0", "-1", "x", "9" * 50, "١", "٢", "1_0"])
                      for _ in range(r.choice([1, 2, 3, 4, 6])))
        argv = ["reduce", "--int-partition", zs]
        if r.random() < 0.3:
            argv += ["--c", _num(r, ["2", "3/2", "1.5", "7"])]
        if r.random() < 0.2:
            argv += ["--brute-force-limit", r.choice(["1", "5", "22", "23", "1024", "0"])]
        if r.random() < 0.2:
            argv += ["--as-printed", r.choice(["4.9", "4.10", "4.11", "all", "5.0", ""])]
    elif c < 0.92:
        argv = ["proofs", "--id", r.choice(["Lemma 5.1", "Definition 2.1", "nosuch", "Lemma 5.3 (proof"])]
        if r.random() < 0.3:
            argv += ["--report", r.choice(["-", "/nonexistent/x.md"] + OUT_PATHS)]
        if r.random() < 0.2:
            argv += ["--paper", r.choice(["murtagh_vadhan", "bogus"])]
    elif c < 0.95:
        argv = _job(r)
    else:
        argv = r.choice([[], ["--bogus"], ["delta"], ["nosuch"], ["--version"], ["delta", "--eps"], ["epsilon", "--delta-g", "0.1"],
                         ["certify", "--eps", "1", "--eps", "2"], ["approx", "--eps", "0.1", "--delta-g"]])
    # a few argument-level corruptions
    if r.random() < 0.05 and argv:
        i = r.randrange(len(argv))
        argv[i] = argv[i] + r.choice(["\x00", "é", "\n", "'", '"'])
    return argv


def _job(r: random.Random) -> list[str]:
    """A long job's command line (batch, corpus, audit, experiment, plot) with its files in {TMP}."""
    c = r.random()
    if c < 0.35:
        argv = ["batch", "--in", r.choice(["{TMP}/q.jsonl", "{TMP}/deep.jsonl", "{TMP}/missing", "{TMP}/dir", "{TMP}/fifo",
                                            "/proc/self/mem", ""]), "--out", r.choice(OUT_PATHS)]
    elif c < 0.55:
        argv = ["corpus", "build", "--grid", r.choice(["{TMP}/q.jsonl", "{TMP}/deep.jsonl", "{TMP}/missing"]),
                "--out", r.choice(["{TMP}/corpus", "{TMP}/file.out", "{TMP}/nodir/c", "", "{TMP}/fifo", "{TMP}/link.out"])]
    elif c < 0.65:
        argv = ["corpus", "verify", "--sample", "1"]
    elif c < 0.75:
        argv = ["experiment", "vw-section6", "--trials", r.choice(["1", "٣"]), "--state", r.choice(OUT_PATHS)]
    elif c < 0.85:
        argv = ["audit", "--peer", "exactdp-float", "--quick", r.choice(["--out", "--markdown"]),
                r.choice([p for p in OUT_PATHS if p not in ("{TMP}/new.out", "{TMP}/file.out", "{TMP}/link.out",
                                                             "{TMP}/dangling.out")])]
    else:
        argv = ["plot", r.choice(["region", "tradeoff"]), "--exp-eps", "2", "-o",
                r.choice(["{TMP}/fifo.png", "{TMP}/dir.png", "{TMP}/nodir/x.png", "", "{TMP}/x.txt"])]
        if r.random() < 0.5:
            argv += ["--gaussian", r.choice(["-1", "x", "٣"])]
    if r.random() < 0.3 and argv[0] in ("batch", "corpus"):
        argv += ["--scheduler", r.choice(BAD_SCHEDULERS)]
    return argv


QUERY = '{"id": 1, "mechanisms": {"exp_eps": ["2"], "k": 2}, "exp_eps_g": "2"}\n'


def _fixtures(folder: str) -> None:
    """The files a job's case meets in its fresh folder: a regular file, a link to it, a
    dangling link, a FIFO (a special file, as /dev/full is: never replaced), a link to the
    FIFO, a link loop, a folder (also named dir.png and fifo.png), queries and deep JSON."""
    j = os.path.join
    with open(j(folder, "file.out"), "w") as fh:
        fh.write("old\n")
    with open(j(folder, "q.jsonl"), "w") as fh:
        fh.write(QUERY)
    with open(j(folder, "deep.jsonl"), "w") as fh:
        fh.write('{"a":' * 100_000 + "\n")
    os.symlink("file.out", j(folder, "link.out"))
    os.symlink("new-target.out", j(folder, "dangling.out"))
    os.mkfifo(j(folder, "fifo"))
    os.mkfifo(j(folder, "fifo.png"))
    os.symlink("fifo", j(folder, "linkfifo"))
    os.symlink("loop", j(folder, "loop"))
    os.mkdir(j(folder, "dir"))
    os.mkdir(j(folder, "dir.png"))


def _clobbered(folder: str) -> str:
    """What a case replaced that must stay as it was ('' when nothing)."""
    j = os.path.join
    bad = []
    for name in ("link.out", "dangling.out", "linkfifo", "loop"):
        if not os.path.islink(j(folder, name)):
            bad.append(f"{name} is no longer a link")
    for name in ("fifo", "fifo.png"):
        if not stat.S_ISFIFO(os.lstat(j(folder, name)).st_mode):
            bad.append(f"{name} is no longer a FIFO")
    for name in ("dir", "dir.png"):
        if not os.path.isdir(j(folder, name)) or os.path.islink(j(folder, name)):
            bad.append(f"{name} is no longer a folder")
    return "; ".join(bad)


class _FullDisk(io.StringIO):
    """A stdout on a full disk: every write fails as ``> /dev/full`` does."""

    def write(self, s):  # type: ignore[override]
        raise OSError(28, "No space left on device")


def _r(v) -> str:
    """A short repr that never fails (a 5000-digit int has no str)."""
    if isinstance(v, int) and not isinstance(v, bool) and v.bit_length() > 200:
        return f"<int of {v.bit_length()} bits>"
    try:
        return repr(v)[:40]
    except Exception:
        return f"<{type(v).__name__}>"


def api_call(r: random.Random):
    """One random Python API call, as (description, thunk)."""
    import fractions

    import numpy as np

    import exactdp as X

    vals = [0.1, "0.1", 1, fractions.Fraction(1, 3), np.float64(0.2), np.int64(2), np.array(0.3), np.array([0.1, 0.2]),
            b"0.1", None, float("nan"), float("inf"), -1, 10**400, -(10**5000), "1e308", 1e308, [], {}, {"a": 1}, object(),
            "abc", True, [0.1, "x"], (0.1, 0.2), "١"]
    kinds = r.random()
    v = r.choice(vals)
    w = r.choice(vals)
    if kinds < 0.2:
        return f"Mechanism(eps={_r(v)}, delta={_r(w)})", lambda: X.Mechanism(eps=v, delta=w)
    if kinds < 0.35:
        k = r.choice([1, 2, 3, np.int64(3), 0, -1, 1.5, "2", 10**8, True])
        return f"mechanisms(eps={_r(v)}, delta={_r(w)}, k={_r(k)})", lambda: X.mechanisms(eps=v, delta=w, k=k)
    ms = X.mechanisms(eps=r.choice(["0.1", ["0.1", "0.2"]]), k=r.choice([1, 3]))
    if kinds < 0.5:
        return f"composed_delta(ms, eps_g={_r(v)})", lambda: X.composed_delta(ms, eps_g=v, digits=10)
    if kinds < 0.6:
        return f"composed_delta(ms, exp_eps_g={_r(v)})", lambda: X.composed_delta(ms, exp_eps_g=v, digits=10)
    if kinds < 0.75:
        return f"optcomp(ms, {_r(v)})", lambda: X.optcomp(ms, v, digits=10)
    if kinds < 0.8:
        return f"optcomp(ms, 1e-6, digits={_r(v)})", lambda: X.optcomp(ms, "1e-6", digits=v)
    if kinds < 0.85:
        return f"certify(ms, {_r(v)}, {_r(w)})", lambda: X.certify(ms, v, w)
    if kinds < 0.9:
        return f"RatExp(q={_r(v)})", lambda: X.RatExp(q=v)
    if kinds < 0.95:
        return f"Root({_r(v)}, {_r(w)})", lambda: X.Root(v, w)
    return f"PrivacyProfile(ms).tradeoff({_r(v)})", lambda: X.PrivacyProfile(ms).tradeoff(v)


# --------------------------------------------------------------------------
# running one case in a worker


class _Timeout(BaseException):
    pass


def _alarm(signum, frame):  # pragma: no cover - only on a timeout
    raise _Timeout()


def _run_cli(argv: list[str], seconds: int, full_disk: bool = False) -> dict:
    if any("{TMP}" in a for a in argv):
        folder = tempfile.mkdtemp(prefix="exactdp-fuzz-case-")
        try:
            _fixtures(folder)
            res = _run_cli([a.replace("{TMP}", folder) for a in argv], seconds, full_disk)
            hurt = _clobbered(folder)
            if hurt and res.get("ok"):
                res.update(ok=False, why=f"clobbered: {hurt}")
            return res
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    from exactdp.cli import main

    out, err = (_FullDisk() if full_disk else io.StringIO()), io.StringIO()
    t0 = time.perf_counter()
    signal.alarm(seconds)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                rc = main(argv)
            except SystemExit as e:
                rc = e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
    except _Timeout:
        return {"ok": False, "why": f"no answer or refusal within {seconds} s"}
    except MemoryError:
        signal.alarm(0)
        return {"ok": False, "why": "MemoryError (no refusal before the memory cap)"}
    except BaseException as e:  # a traceback the user would see
        signal.alarm(0)
        return {"ok": False, "why": f"{type(e).__name__}: {str(e)[:200]}"}
    finally:
        signal.alarm(0)
    dt = time.perf_counter() - t0
    e = err.getvalue()
    res = {"rc": rc, "seconds": round(dt, 3)}
    if rc in (0, 1):
        res["ok"] = "Traceback" not in e
        res["why"] = "" if res["ok"] else "traceback on stderr"
    elif rc in (2, 3):
        lines = e.splitlines()
        prefix = "exactdp: error:" if rc == 2 else "exactdp: undecided:"
        one = len(lines) == 1 and lines[0].startswith(prefix) and "Traceback" not in e
        short = len(e) <= 600
        res["ok"] = one and short and out.getvalue() == ""
        res["why"] = "" if res["ok"] else f"stderr {e[:300]!r} / stdout {out.getvalue()[:100]!r}"
        res["refused"] = rc == 2
    else:
        res["ok"] = False
        res["why"] = f"exit status {rc}"
    return res


def _run_api(r_seed: int, seconds: int) -> tuple[str, dict]:
    from exactdp import ExactDPError

    r = random.Random(r_seed)
    desc, thunk = api_call(r)
    signal.alarm(seconds)
    try:
        v = thunk()
        repr(v)
        return desc, {"ok": True, "why": "", "rc": 0}
    except ExactDPError:
        return desc, {"ok": True, "why": "", "rc": 2, "refused": True}
    except _Timeout:
        return desc, {"ok": False, "why": f"no answer or refusal within {seconds} s"}
    except BaseException as e:
        return desc, {"ok": False, "why": f"{type(e).__name__}: {str(e)[:200]}"}
    finally:
        signal.alarm(0)


def _case_text(kind: str, seed: int, argv) -> str:
    if kind == "cli":
        return "exactdp " + " ".join(a if len(a) < 60 else a[:30] + "..." for a in argv)
    return api_call(random.Random(seed))[0]  # the description only: nothing runs


def _worker(args: tuple) -> dict:
    kind, seed, argv, seconds = args[:4]
    marks = args[5] if len(args) > 5 else None
    if marks:  # what this process runs now: a process that dies (a C library's abort) is reported with it
        with open(os.path.join(marks, f"{os.getpid()}.case"), "w") as fh:
            json.dump({"index": args[4], "case": _case_text(kind, seed, argv), "kind": kind}, fh)
    if kind == "cli":
        res = _run_cli(argv, seconds, full_disk=seed == 1)
        res["case"] = "exactdp " + " ".join(a if len(a) < 60 else a[:30] + "..." for a in argv)
    else:
        desc, res = _run_api(seed, seconds)
        res["case"] = desc
    res["kind"] = kind
    if len(args) > 4:
        res["index"] = args[4]
    if marks:
        with contextlib.suppress(OSError):
            os.remove(os.path.join(marks, f"{os.getpid()}.case"))
    return res


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    return True


def _vm_size() -> int:
    """The process's address space in bytes (0 where /proc is unavailable)."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _init_worker(memory_gib: float, limit_seconds: float) -> None:
    os.environ["EXACTDP_MAX_SECONDS"] = repr(limit_seconds)
    # beyond what the worker holds at its start: a worker forked from a large process (the
    # test session, after 2000 tests) inherits its address space, and a cap counted from 0
    # left too little room: FLINT aborted a case that peaks at 322 MB (VmPeak) on its own
    cap = _vm_size() + int(memory_gib * 2**30)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    signal.signal(signal.SIGALRM, _alarm)


def run(cases: int, seed: int, *, workers: int = 2, seconds: int = 60, memory_gib: float = 2.5, api_share: float = 0.2) -> dict:
    """Run ``cases`` seeded cases; return the counts and the failures (see the module docstring)."""
    r = random.Random(seed)
    jobs = []
    for i in range(cases):
        if r.random() < api_share:
            jobs.append(("api", r.randrange(2**62), None, seconds))
        else:  # seed 1: stdout on a full disk (one case in 50)
            jobs.append(("cli", 1 if r.random() < 0.02 else 0, command(r), seconds))
    t0 = time.perf_counter()
    ctx = mp.get_context("fork")
    results = []
    marks = tempfile.mkdtemp(prefix="exactdp-fuzz-")
    tasks = [job + (i, marks) for i, job in enumerate(jobs)]
    # maxtasksperchild: a worker that grew (a large exact computation) is replaced. A worker
    # that dies (a C library aborting, e.g. GMP out of memory under the cap) loses its task:
    # its mark file names the case, and the run goes on without waiting for it.
    with ctx.Pool(workers, initializer=_init_worker, initargs=(memory_gib, seconds / 3), maxtasksperchild=50) as pool:
        it = pool.imap_unordered(_worker, tasks, chunksize=1)
        done = 0
        while done < len(tasks):
            try:
                results.append(it.next(timeout=5))
                done += 1
                continue
            except mp.TimeoutError:
                pass
            except StopIteration:
                break
            for name in os.listdir(marks):
                pid = int(name.split(".")[0])
                if not _alive(pid):
                    with open(os.path.join(marks, name)) as fh:
                        mark = json.load(fh)
                    os.remove(os.path.join(marks, name))
                    results.append({"ok": False, "why": "the worker process died (a C library's abort: no "
                                    "exception, no refusal)", "case": mark["case"], "kind": mark["kind"],
                                    "index": mark["index"]})
                    done += 1
    with contextlib.suppress(OSError):
        shutil.rmtree(marks)
    results.sort(key=lambda x: x.get("index", 0))
    elapsed = time.perf_counter() - t0
    fails = [x for x in results if not x["ok"]]
    return {
        "cases": cases,
        "seed": seed,
        "seconds": round(elapsed, 1),
        "by_kind": dict(Counter(x["kind"] for x in results)),
        "exit_status": dict(sorted(Counter(str(x.get("rc", "killed")) for x in results).items())),
        "refused": sum(1 for x in results if x.get("refused")),
        "slowest": max((x.get("seconds", 0) for x in results), default=0),
        # accepted or refused past the workers' limit for refusals: an estimate to look at
        "slow": sorted(([x["seconds"], x["case"]] for x in results if x["ok"] and x.get("seconds", 0) > seconds / 3),
                       reverse=True),
        "failures": fails,
    }


def _markdown(rep: dict, memory_gib: float, seconds: int) -> str:
    lines = [
        "# Fuzzing the command line and the API",
        "",
        "Generated by `make fuzz` (`tests/fuzz/fuzz.py`); CI runs a bounded form "
        "(`tests/fuzz/test_fuzz.py`). Each case ran in a worker process capped at "
        f"{memory_gib} GiB of address space (beyond its size at start) and {seconds} s, with the time limit for refusals "
        f"(`EXACTDP_MAX_SECONDS`) at {seconds / 3:g} s, so an estimate more than about 3x too low fails.",
        "",
        f"* cases: {rep['cases']} (seed {rep['seed']}): {rep['by_kind'].get('cli', 0)} command lines, "
        f"{rep['by_kind'].get('api', 0)} API calls; wall time {rep['seconds']} s",
        f"* exit status counts: {rep['exit_status']} (API: 0 = a result, 2 = an ExactDPError)",
        f"* refused with one line (bad input or cost): {rep['refused']}",
        f"* slowest case: {rep['slowest']} s",
        f"* cases past the time limit for refusals ({seconds / 3:g} s) that still finished: {len(rep.get('slow', []))}",
        f"* failures (traceback, foreign exception, timeout, memory): **{len(rep['failures'])}**",
    ]
    for f in rep["failures"][:50]:
        lines.append(f"  * `{f['case']}`: {f['why']}")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seconds", type=int, default=60)
    ap.add_argument("--memory-gib", type=float, default=2.5)
    ap.add_argument("--report", default=None, help="write a markdown summary here")
    a = ap.parse_args(argv)
    rep = run(a.cases, a.seed, workers=a.workers, seconds=a.seconds, memory_gib=a.memory_gib)
    print(json.dumps({k: v for k, v in rep.items() if k not in ("failures", "slow")}))
    for sec, case in rep["slow"]:
        print(f"SLOW {sec} s {case}")
    for f in rep["failures"]:
        print(f"FAIL {f['case']}: {f['why']}")
    if a.report:
        # a "## History" section written by hand below the generated report is kept
        history = ""
        if os.path.exists(a.report):
            old = open(a.report).read()
            if "\n## History" in old:
                history = "\n" + old[old.index("\n## History"):].strip() + "\n"
        with open(a.report, "w") as fh:
            fh.write(_markdown(rep, a.memory_gib, a.seconds).rstrip() + "\n" + history)
    return 1 if rep["failures"] else 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    sys.exit(main())
