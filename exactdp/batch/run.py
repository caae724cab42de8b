"""The code of :mod:`exactdp.batch`: running a batch file of queries (the package docstring describes it)."""

from __future__ import annotations

import hashlib
import os
from typing import Callable, Optional

from ..errors import InvalidArgument
from ..jobs import check_scheduler, output_file, read_input, read_state, run_tasks, write_atomic
from .query import KINDS, Query, answer, answer_line, error_record, parse_query

__all__ = ["run_batch", "answer_line", "parse_query", "answer", "Query", "KINDS", "error_record", "BATCH_VERSION",
           "MAX_LINES"]

BATCH_VERSION = 1
#: Most query lines in one input file.
MAX_LINES = 10_000_000


def _answer_task(n: int, text: str) -> dict:
    return {"line": n, **answer_line(text)}


def _read_lines(path: str) -> tuple[list[tuple[int, str]], bytes]:
    """The query lines of ``path`` (numbered from 1) and its bytes."""
    data = read_input(path, "--in")
    out = []
    for n, raw in enumerate(data.split(b"\n"), 1):
        text = raw.decode("utf-8", "replace").strip()
        if not text or text.startswith("#"):
            continue
        out.append((n, text))
        if len(out) > MAX_LINES:
            raise InvalidArgument("--in", f"at most {MAX_LINES} query lines", f"more in {path}")
    return out, data


def run_batch(in_path: str, out_path: str, *, scheduler: Optional[str] = None, workers: Optional[int] = None,
              progress: bool = False, on_result: Optional[Callable[[dict], None]] = None) -> dict:
    """Answer every query line of ``in_path`` into ``out_path`` (see the module docstring); return counts.

    Guarantee: each answer as the library's (exact or enclosure; certify: exact decision);
    the output does not depend on resumption or on the scheduler.

    Parameters:
        in_path: JSON lines, one query each.
        out_path: the answers (written atomically at the end; ``out_path + ".partial"`` holds
            the answers so far and is removed when done).
        scheduler: the address of an existing Dask cluster's scheduler (exclusive with ``workers``).
        workers: run on a local Dask cluster of this many worker processes.
        progress: a progress bar on stderr.

    Raises:
        InvalidArgument: a missing or unreadable input; ``out_path`` equal to ``in_path``, a
            folder, a device or in a missing folder (all checked before any query runs); a
            partial file of another input; Dask options.

    Examples:
        >>> import os, tempfile, json
        >>> d = tempfile.mkdtemp()
        >>> with open(os.path.join(d, "q.jsonl"), "w") as f:
        ...     _ = f.write('{"id": 1, "mechanisms": {"exp_eps": ["2"], "k": 2}, "exp_eps_g": "2"}\\n{"eps_g": "-1"}\\n')
        >>> run_batch(os.path.join(d, "q.jsonl"), os.path.join(d, "a.jsonl"))
        {'lines': 2, 'answered': 1, 'errors': 1}
        >>> [json.loads(l).get("result", {}).get("delta_g", {}).get("exact") for l in open(os.path.join(d, "a.jsonl"))]
        ['2/9', None]
    """
    target = output_file(out_path, "--out")
    output_file(out_path + ".partial", "--out")
    if scheduler is not None:
        check_scheduler(scheduler)
    lines, data = _read_lines(in_path)
    if os.path.exists(target) and os.path.samefile(in_path, target):
        raise InvalidArgument("--out", "a file other than --in", out_path)
    digest = hashlib.sha256(data).hexdigest()
    from .. import __version__

    header = {"exactdp_batch": BATCH_VERSION, "input_sha256": digest, "exactdp_version": __version__}
    partial = out_path + ".partial"
    if os.path.exists(partial):
        read_state(partial, header, what="--out")  # refuse a partial file of another input before any work
    tasks = [(str(n), (n, text)) for n, text in lines]
    recs = run_tasks(_answer_task, tasks, state=partial, header=header, scheduler=scheduler, workers=workers,
                     progress=progress, what="queries", on_result=on_result)
    if any(str(n) not in recs for n, _ in lines):
        missing = sum(1 for n, _ in lines if str(n) not in recs)
        raise InvalidArgument("--out", "a complete run", f"{missing} queries lost to killed workers: run again to resume")
    import json

    ordered = []
    for n, _ in lines:
        r = dict(recs[str(n)])
        r.pop("key", None)
        ordered.append(json.dumps(r, sort_keys=True))
    write_atomic(out_path, ordered)
    os.unlink(partial)
    errors = sum(1 for n, _ in lines if "error" in recs[str(n)])
    return {"lines": len(lines), "answered": len(lines) - errors, "errors": errors}
