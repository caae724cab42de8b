"""Batch runs: many queries answered in one process (``exactdp batch --in FILE --out FILE``).

Each line of the input is one query (:mod:`exactdp.batch.query`); each line of the
output is its answer, in input order::

    {"line": 1, "id": "q1", "query": "epsilon", "result": {... as exactdp epsilon --json ...}}
    {"line": 2, "error": {"type": "InvalidArgument", "parameter": "delta_g", "message": "..."}}

A bad line gets an error record and the run goes on. Blank lines and lines starting
with ``#`` are skipped (no output line). The run is resumable: answers are appended
to ``OUT.partial`` as they are found (:mod:`exactdp.jobs`), and ``OUT`` is
written atomically, in input order, when every line is answered. Dask: ``scheduler``
or ``workers`` (results identical to a serial run).
"""

from .run import (  # noqa: F401 (the package's public names)
    BATCH_VERSION,
    KINDS,
    MAX_LINES,
    Query,
    answer,
    answer_line,
    error_record,
    parse_query,
    run_batch,
)

__all__ = ["run_batch", "answer_line", "parse_query", "answer", "Query", "KINDS", "error_record", "BATCH_VERSION", "MAX_LINES"]
