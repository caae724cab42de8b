"""The runner of exactdp's long jobs (corpus builds, batch runs, audits, the Vadhan-Wang
Section 6 experiment).

One design for every job:

* A job is a list of independent, deterministic tasks, each named by a key.
* Finished tasks go to a *state file* of JSON lines: a header line (what job this
  is), then one record per finished task, each written with one ``os.write`` of a
  whole line on an ``O_APPEND`` descriptor followed by ``fsync``. A run that is
  killed loses at most the line being written; on resume a torn last line is cut
  off and every task whose record is present is skipped, so no finished result is
  lost or duplicated.
* The final output is written atomically (a temporary file in the same folder,
  ``fsync``, ``os.replace``) in task order, so it does not depend on the order in
  which tasks finished, on resumption, or on the scheduler. A symbolic link is
  followed (its target is written, the link stays a link); anything that is not a
  regular file (a folder, a device such as ``/dev/full``, a FIFO) is refused.
* Every output path (and a state file, and a Dask address) is checked before any
  work: :func:`output_file`, :func:`output_dir`, :func:`check_scheduler`.
* Progress goes to stderr (a bar with the rate and the time left: tqdm's when tqdm is installed).
* Tasks run serially, or on Dask (``dask.distributed``): an existing scheduler's
  address, or a local cluster of N worker processes. The client writes each
  result as it arrives; a killed worker's tasks are rescheduled by Dask on the
  others (up to Dask's ``allowed-failures``), and a task lost even so is simply
  not in the state file: the next run computes it.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
import tempfile
import time
from typing import Callable, Iterable, Optional, Sequence

from .errors import InvalidArgument
from .numbers import parse_int

__all__ = ["read_state", "Appender", "Progress", "dask_client", "run_tasks", "write_atomic", "MAX_WORKERS",
           "output_file", "output_dir", "read_input", "check_scheduler"]

#: Most worker processes of a local Dask cluster.
MAX_WORKERS = 64

#: Fewest tasks for which ``workers`` starts a local Dask cluster; below it the tasks run
#: serially (with a line on stderr saying so). Starting the cluster costs seconds (measured:
#: 8 batch queries, 2.2 s serial against 7.2 s on 2 workers; the fuzz saw 3.8 s against
#: 23.4 s), which a few tasks never win back. The results are the same either way.
DASK_MIN_TASKS = 32

#: A Dask scheduler's address: ``[scheme://]host:port`` (``inproc://...`` as Dask writes it).
_ADDRESS = re.compile(r"^(?:(?:tcp|tls|ucx|ws|wss)://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):([0-9]{1,5})$|^inproc://\S+$")


def _why(e: OSError) -> str:
    return e.strerror or type(e).__name__


def output_file(path: object, what: str = "--out") -> str:
    """The file to write for the output path ``path``, checked before any work: a non-empty
    path whose folder exists and is writable, naming a regular file or nothing yet. A symbolic
    link is followed: the returned path is its target's (so the link is kept and the target
    written), a dangling link's target included.

    Guarantee: exact (the file system as it is now). Raises:
        InvalidArgument: naming ``what``, for an empty path, a folder, a device, a FIFO or any
            other file that is not regular, a missing or unwritable folder, a link loop.
    """
    if not isinstance(path, (str, os.PathLike)) or not os.fspath(path):
        raise InvalidArgument(what, "a file path (not empty)", repr(path) if isinstance(path, str) else path)
    p = os.fspath(path)
    if isinstance(p, bytes) or "\x00" in p:
        raise InvalidArgument(what, "a file path (text, no NUL character)", repr(p))
    real = os.path.realpath(p)
    try:
        st = os.stat(real)
    except FileNotFoundError:
        st = None
    except OSError as e:  # a link loop, a component that is not a folder, a name too long
        raise InvalidArgument(what, "a path to a regular file", f"{p} ({_why(e)})") from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        kind = "a folder" if stat.S_ISDIR(st.st_mode) else "a device or other special file"
        raise InvalidArgument(what, "a regular file or a new file's path, never replaced when it is a folder or a "
                              "device", f"{p} is {kind}")
    folder = os.path.dirname(real)
    if not os.path.isdir(folder):
        raise InvalidArgument(what, "a file in an existing folder", p)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise InvalidArgument(what, "a file in a writable folder", p)
    return real


def output_dir(path: object, what: str = "--out") -> str:
    """The folder to write into for ``path``, checked before any work: an existing, writable
    folder, or a new one whose parent exists (created by the caller when it writes).

    Guarantee: exact (the file system as it is now). Raises:
        InvalidArgument: naming ``what``, for an empty path, an existing file that is not a
            folder, a missing or unwritable parent.
    """
    if not isinstance(path, (str, os.PathLike)) or not os.fspath(path):
        raise InvalidArgument(what, "a folder path (not empty)", repr(path) if isinstance(path, str) else path)
    p = os.fspath(path)
    if isinstance(p, bytes) or "\x00" in p:
        raise InvalidArgument(what, "a folder path (text, no NUL character)", repr(p))
    real = os.path.realpath(p)
    if os.path.lexists(real) and not os.path.isdir(real):
        raise InvalidArgument(what, "a folder (existing or new), not a file", p)
    probe = real if os.path.isdir(real) else os.path.dirname(real)
    if not os.path.isdir(probe):
        raise InvalidArgument(what, "a folder whose parent exists", p)
    if not os.access(probe, os.W_OK | os.X_OK):
        raise InvalidArgument(what, "a writable folder", p)
    return real


def read_input(path: object, what: str = "--in") -> bytes:
    """The bytes of the input file ``path``: a regular file that can be read to its end.

    Guarantee: exact. Raises:
        InvalidArgument: naming ``what``, for a missing file, a folder or device, or a read
            error (``/proc/self/mem``, a permission, an I/O error).
    """
    if not isinstance(path, (str, os.PathLike)) or not os.fspath(path) or "\x00" in str(os.fspath(path)):
        raise InvalidArgument(what, "an existing file", repr(path))
    p = os.fspath(path)
    if not os.path.isfile(p):
        raise InvalidArgument(what, "an existing regular file", p)
    try:
        with open(p, "rb") as f:
            return f.read()
    except OSError as e:
        raise InvalidArgument(what, "a readable file", f"{p} ({_why(e)})") from None


def check_scheduler(address: object, what: str = "--scheduler") -> str:
    """``address`` checked as a Dask scheduler's address, ``[tcp|tls|ucx|ws|wss://]host:port``
    (port 1..65535) or ``inproc://...``, before anything connects to it.

    Guarantee: exact (the form of the text; whether a scheduler answers there is known only
    on connecting). Raises: InvalidArgument naming ``what``.
    """
    expected = "the address of a Dask scheduler, [tcp://]host:port (e.g. tcp://127.0.0.1:8786)"
    if not isinstance(address, str) or not address.isascii():
        raise InvalidArgument(what, expected, address)
    m = _ADDRESS.match(address.strip())
    if m is None or (m.group(2) is not None and not 1 <= int(m.group(2)) <= 65535):
        raise InvalidArgument(what, expected, address)
    return address.strip()


def read_state(path: str, header: dict, *, what: str = "--state", key: str = "key") -> dict[str, dict]:
    """Finished records of a state file (``str(record[key])`` -> record), after checking its header line.

    A torn last line (a run killed in mid-write) is cut off the file. A missing or
    empty file has no records.

    Guarantee: exact (the records as written).

    Raises:
        InvalidArgument: the header is not ``header`` (a state file of another job), or a
            complete line is not a JSON record with a ``key`` field.
    """
    done: dict[str, dict] = {}
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return done
    with open(path, "rb") as f:
        data = f.read()
    good = data.rfind(b"\n") + 1
    if good < len(data):
        with open(path, "r+b") as f:
            f.truncate(good)
            f.flush()
            os.fsync(f.fileno())
    lines = data[:good].decode("utf-8", "replace").splitlines()
    try:
        head = json.loads(lines[0]) if lines else None
    except ValueError:
        head = None
    if head != header:
        shown = lines[0][:200] if lines else "an empty first line"
        raise InvalidArgument(what, f"a state file of this job ({json.dumps(header, sort_keys=True)[:200]})", shown)
    for i, line in enumerate(lines[1:], 2):
        try:
            rec = json.loads(line)
            done[str(rec[key])] = rec
        except (ValueError, KeyError, TypeError):
            raise InvalidArgument(what, "JSON lines written by this job", f"line {i}: {line[:80]}") from None
    return done


class Appender:
    """Append-only JSON lines: one ``os.write`` of a whole line on an O_APPEND descriptor, then fsync.

    Guarantee: a record is on disk when :meth:`write` returns. Raises: OSError from the file system.
    """

    def __init__(self, path: Optional[str], header: dict):
        self.fd: Optional[int] = None
        if path is None:
            return
        new = not os.path.exists(path) or os.path.getsize(path) == 0
        self.fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        if new:
            self.write(header)

    def write(self, rec: dict) -> None:
        if self.fd is not None:
            os.write(self.fd, (json.dumps(rec, sort_keys=True) + "\n").encode())
            os.fsync(self.fd)

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


class Progress:
    """A progress bar on stderr: done/total, rate, time left. tqdm's bar when tqdm is installed
    (the bar users know; ``pip install tqdm``), else a plain one. Guarantee: none (display only)."""

    def __init__(self, total: int, done: int, enabled: bool, what: str = "tasks"):
        self.total, self.done, self.enabled, self.what = total, done, enabled, what
        self.start, self.new = time.monotonic(), 0
        self._last = 0.0
        self._tqdm = None
        if enabled:
            try:
                from tqdm import tqdm
            except ImportError:
                self._draw()
            else:
                self._tqdm = tqdm(total=total, initial=done, unit=" " + what.split()[-1], file=sys.stderr,
                                  dynamic_ncols=True, leave=True)

    def _draw(self) -> None:
        el = time.monotonic() - self.start
        rate = self.new / el if el > 0 else 0.0
        eta = f"{(self.total - self.done) / rate:.0f} s" if rate else "?"
        w = 30
        fill = w * self.done // max(self.total, 1)
        sys.stderr.write(f"\r[{'#' * fill}{'.' * (w - fill)}] {self.done}/{self.total} {self.what}, "
                         f"{rate:.1f}/s, ETA {eta} ")
        sys.stderr.flush()

    def step(self) -> None:
        self.done += 1
        self.new += 1
        if self._tqdm is not None:
            self._tqdm.update(1)
            return
        now = time.monotonic()
        if self.enabled and (now - self._last > 0.1 or self.done == self.total):
            self._last = now
            self._draw()

    def close(self) -> None:
        if self._tqdm is not None:
            self._tqdm.close()
        elif self.enabled:
            sys.stderr.write("\n")
            sys.stderr.flush()


def dask_client(scheduler: Optional[str] = None, workers: Optional[int] = None):
    """``(client, cluster)``: a client of the scheduler at ``scheduler``, or of a new local
    cluster of ``workers`` processes (``cluster`` is None for an existing scheduler).

    Guarantee: none (a connection). Raises:
        InvalidArgument: both or neither given, a bad count, dask[distributed] missing, or
            no scheduler reachable at the address.
    """
    if (scheduler is None) == (workers is None):
        raise InvalidArgument("--scheduler / --workers", "given, exactly one of the two", None)
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise InvalidArgument("--scheduler" if scheduler else "--workers",
                              "usable with dask[distributed] installed (pip install 'exactdp[dask]')",
                              scheduler or workers) from None
    if workers is not None:
        n = parse_int(workers, "--workers", lo=1, hi=MAX_WORKERS)
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None)
        return Client(cluster), cluster
    scheduler = check_scheduler(scheduler)
    _probe(scheduler)
    try:
        return Client(scheduler, timeout=10), None
    except Exception as e:  # also what a server that is not Dask's makes the client raise (a 3 EiB allocation)
        why = _why(e) if isinstance(e, OSError) else type(e).__name__
        raise InvalidArgument("--scheduler", "the address of a running Dask scheduler", f"{scheduler} ({why})") from None


#: Seconds to wait for a TCP connection to a scheduler before refusing its address.
PROBE_SECONDS = 2.0


def _probe(address: str) -> None:
    """Refuse, within :data:`PROBE_SECONDS`, a ``tcp://`` address where nothing accepts a
    connection (Dask's own client waits 10 s before it gives up)."""
    import socket

    m = _ADDRESS.match(address)
    if m is None or m.group(1) is None or not (address.startswith("tcp://") or "://" not in address):
        return  # tls, ucx, ws, inproc: left to Dask
    host = m.group(1).strip("[]")
    try:
        socket.create_connection((host, int(m.group(2))), timeout=PROBE_SECONDS).close()
    except OSError as e:
        raise InvalidArgument("--scheduler", "the address of a running Dask scheduler",
                              f"{address} ({_why(e) if not isinstance(e, TimeoutError) else 'no answer in 2 s'})") from None


def run_tasks(fn: Callable[..., dict], tasks: Sequence[tuple[str, tuple]], *, state: Optional[str] = None,
              header: Optional[dict] = None, scheduler: Optional[str] = None, workers: Optional[int] = None,
              progress: bool = False, what: str = "tasks",
              on_result: Optional[Callable[[dict], None]] = None, key: str = "key") -> dict[str, dict]:
    """Run ``fn(*args)`` for every ``(key, args)`` of ``tasks`` not already in ``state``; return
    every record (key -> record, the state file's and the new ones).

    ``fn`` must be a module-level function (Dask pickles it) returning a JSON-ready dict;
    the runner adds ``"key"``, or, with another ``key`` field, ``fn``'s record carries it
    already (``str(record[key])`` is the task's key: a trial's ``"index"``). ``on_result(record)``
    is called after each new record is on disk. A task lost to killed Dask workers is left out
    (with a line on stderr): a later run with the same state computes it.

    With ``workers`` and fewer than :data:`DASK_MIN_TASKS` tasks to do, the tasks run serially
    (a local cluster would cost more to start than it saves).

    Guarantee: each record is ``fn``'s; the set of records does not depend on resumption
    or on the scheduler (tasks are deterministic).

    Raises:
        InvalidArgument: a state file of another job; Dask options as in :func:`dask_client`.
    """
    header = header or {}
    if scheduler is not None:
        check_scheduler(scheduler)
    if state is not None:
        output_file(state, "--state")
    keys = [k for k, _ in tasks]
    if len(set(keys)) != len(keys):
        raise InvalidArgument("tasks", "distinct keys", f"{len(keys) - len(set(keys))} duplicates")
    done = read_state(state, header, key=key) if state else {}
    results = {k: done[k] for k in keys if k in done}
    todo = [(k, a) for k, a in tasks if k not in results]
    if todo and workers is not None and scheduler is None and len(todo) < DASK_MIN_TASKS:
        parse_int(workers, "--workers", lo=1, hi=MAX_WORKERS)
        if progress:
            sys.stderr.write(f"exactdp: {len(todo)} {what} run serially: a local Dask cluster pays off from "
                             f"{DASK_MIN_TASKS} on (it takes seconds to start)\n")
        workers = None
    # connected before anything is written: a refused address leaves no state file behind
    client = cluster = None
    if todo and (scheduler is not None or workers is not None):
        client, cluster = dask_client(scheduler, workers)
    app = Appender(state, header)
    bar = Progress(len(tasks), len(tasks) - len(todo), progress, what)

    def finish(k: str, rec: dict) -> None:
        if key == "key":
            rec = dict(rec, key=k)
        app.write(rec)
        results[k] = rec
        bar.step()
        if on_result is not None:
            on_result(rec)

    try:
        if todo and client is None:
            for k, a in todo:
                finish(k, fn(*a))
        elif todo:
            try:
                from dask.distributed import as_completed

                futs = {client.submit(fn, *a, key=f"exactdp-{what}-{k}-{os.getpid()}-{time.monotonic_ns()}", pure=False): k
                        for k, a in todo}
                lost = 0
                for fut in as_completed(list(futs)):
                    try:
                        rec = fut.result()
                    except Exception as e:  # a task lost to killed workers: not recorded, recomputed next run
                        if type(e).__name__ != "KilledWorker":
                            raise
                        lost += 1
                        continue
                    finish(futs[fut], rec)
                if lost:
                    sys.stderr.write(f"exactdp: {lost} {what} lost to killed workers; run again to compute them\n")
            finally:
                client.close()  # type: ignore[union-attr]
                if cluster is not None:
                    cluster.close()
    finally:
        bar.close()
        app.close()
    return results


def write_atomic(path: str, lines: Iterable[str], what: str = "--out") -> None:
    """Write ``lines`` (each without its newline) to ``path`` atomically: a temporary file in the
    same folder, fsync, ``os.replace``. A reader sees the old file or the whole new one. A
    symbolic link is followed (its target is replaced, the link kept); an existing target keeps
    its permission bits.

    Guarantee: exact. Raises:
        InvalidArgument: ``path`` is not a regular file or a new file's path in a writable
            folder (:func:`output_file`): a folder or a device is never replaced.
        OSError: from the file system while writing (the temporary file is removed).
    """
    target = output_file(path, what)
    folder = os.path.dirname(target)
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = 0o644
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(target) + ".", suffix=".tmp", dir=folder)
    try:
        os.fchmod(fd, mode)  # mkstemp makes it private; the output is an ordinary file
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            for line in lines:
                f.write(line)
                f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
