"""The Dask split of meet in the middle: its vector form's evaluations over workers.

:func:`distributed` attaches a Dask client (:func:`exactdp.jobs.dask_client`) to a
:class:`~.kernel.MITM` for a block; the kernel then hands each evaluation's chunks to
:class:`DaskRunner`, one contiguous run per worker. With a local cluster two workers build
the form's two halves at once and save them to a folder every worker maps read-only
(:meth:`~.vector.VecState.save`); with a remote scheduler each worker builds its own.
Guarantee: the results are identical to the serial ones (exact integer partial sums,
combined in chunk order).
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Iterator, Optional, Sequence

from ..structure import Structure
from .kernel import MITM
from .limbs import one_blas_thread
from .vector import VecHalf, VecSpec, right_half, vec_save_half, vec_state

__all__ = ["distributed", "DaskRunner", "vec_task", "vec_build_half"]


def vec_build_half(spec: VecSpec, side: str, path: str) -> bool:
    """Build one half of the vector form and save it to ``path`` (a Dask task: the two halves
    of a local cluster's shared form are built by two workers at once)."""
    malloc_keeps_memory()
    with one_blas_thread():
        h = VecHalf(spec.left, spec.L) if side == "left" else right_half(spec)
        vec_save_half(h, side, path)
    return True


def vec_task(spec: VecSpec, op: str, chunks: Sequence[tuple[int, int]], args: tuple) -> tuple[int, list]:
    """A batch of chunks on a Dask worker: ``(X0, per-chunk results)``; ``op`` is ``"eval"``
    (args ``lnt, mu, t_num``: :meth:`VecState.eval_chunk`), ``"approx"`` (``lnt, stride``) or
    ``"build"`` (no chunks). The worker keeps its vector form for the next batch."""
    malloc_keeps_memory()
    with one_blas_thread():
        return run_task(spec, op, chunks, args)


_MALLOC_SET = False


def malloc_keeps_memory() -> None:
    """On a Dask worker (glibc): keep freed memory instead of trimming it at 64 KiB (Dask's
    default ``MALLOC_TRIM_THRESHOLD_``), and serve arrays up to 32 MiB from the heap. Each
    chunk's temporaries are a few MiB: returned to the system and faulted in again at every
    chunk, they made an evaluation twice as slow (measured, k = 44: 0.6 s -> 1.3 s)."""
    global _MALLOC_SET
    if _MALLOC_SET:
        return
    _MALLOC_SET = True
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(-1, 1 << 30)  # M_TRIM_THRESHOLD
        libc.mallopt(-3, 1 << 25)  # M_MMAP_THRESHOLD
    except (OSError, AttributeError):  # not glibc: nothing to tune
        pass


def run_task(spec: VecSpec, op: str, chunks: Sequence[tuple[int, int]], args: tuple) -> tuple[int, list]:
    st = vec_state(spec)
    if op == "build":
        return st.X0, []
    if op == "eval":
        return st.X0, [st.eval_chunk(s, e, *args) for s, e in chunks]
    return st.X0, [st.approx_chunk(s, e, *args) for s, e in chunks]


class DaskRunner:
    """Runs a :class:`~.kernel.MITM`'s chunks on a Dask client (see the module docstring).
    ``shared``: a folder the client and a local cluster's workers share, or None."""

    def __init__(self, client, shared: Optional[str]):
        self.client = client
        self.shared = shared

    def workers(self) -> int:
        """The number of workers (the cost model shares an evaluation among them)."""
        return max(1, len(self.client.scheduler_info().get("workers", {})))

    def __call__(self, spec: VecSpec, op: str, args: tuple, chunks: Sequence[tuple[int, int]]) -> tuple[int, list]:
        """``(X0, per-chunk results in chunk order)``: each worker builds the vector form once and
        keeps it; contiguous runs of chunks, one per worker."""
        client = self.client
        if self.shared is not None:
            # a local cluster: this process builds the form once and saves it where the workers
            # map it (shared pages), instead of every worker building its own
            path = os.path.join(self.shared, f"L{spec.L}")
            ws = sorted(client.scheduler_info()["workers"])
            if not os.path.isdir(path):
                os.makedirs(path + ".tmp", exist_ok=True)
                futs = [client.submit(vec_build_half, spec, side, path + ".tmp", workers=[ws[i % len(ws)]],
                                      allow_other_workers=False, pure=False) for i, side in enumerate(("left", "right"))]
                client.gather(futs)
                os.replace(path + ".tmp", path)
            spec = spec._replace(path=path)
        workers = sorted(client.scheduler_info()["workers"])
        n = max(1, min(len(workers), len(chunks)))
        parts = [chunks[len(chunks) * i // n: len(chunks) * (i + 1) // n] for i in range(n)]
        futs = [client.submit(vec_task, spec, op, part, args, workers=[w], allow_other_workers=False, pure=False)
                for part, w in zip(parts, workers)]
        res = client.gather(futs)
        return res[0][0], [r for _, rs in res for r in rs]


@contextmanager
def distributed(struct: Structure, scheduler: Optional[str] = None, workers: Optional[int] = None) -> Iterator[None]:
    """Run the meet-in-the-middle kernel ``struct`` over Dask workers inside the block: the left
    half's chunks are split into one contiguous run per worker. With ``workers`` (a local
    cluster) two workers build the vector form's two halves at once and save them to a
    temporary folder (``/dev/shm`` when it has room) that every worker maps read-only, removed
    at the end; with a ``scheduler`` (machines that may not share a folder) each worker builds
    its own once. Any other kernel, or neither option given,
    runs serially as before.

    Guarantee: the results are identical to the serial ones (exact integer partial sums,
    combined in chunk order). Raises: InvalidArgument as :func:`exactdp.jobs.dask_client`
    (both options given, a bad count, dask[distributed] not installed, no scheduler there).
    """
    if scheduler is None and workers is None:
        yield
        return
    from ...jobs import dask_client

    if scheduler is not None and workers is not None:
        dask_client(scheduler, workers)  # raises: exactly one of the two
    if not (isinstance(struct, MITM) and struct.vector):
        yield
        return
    client, cluster = dask_client(scheduler, workers)
    shared = None
    if cluster is not None:
        import tempfile

        shared = tempfile.mkdtemp(prefix="exactdp-mitm-", dir=_shared_root(struct))
    struct.use_runner(DaskRunner(client, shared))
    try:
        yield
    finally:
        struct.use_runner(None)
        client.close()
        if cluster is not None:
            cluster.close()
        if shared is not None:
            import shutil

            shutil.rmtree(shared, ignore_errors=True)


def _shared_root(struct: "MITM") -> Optional[str]:
    """``/dev/shm`` when it has room for the vector form (memory pages the workers share
    without a disk write), else the default temporary folder."""
    try:
        sv = os.statvfs("/dev/shm")
        b, _ = struct.estimate("arb", 200)
        if sv.f_bavail * sv.f_frsize > 2 * b.bytes:
            return "/dev/shm"
    except (OSError, AttributeError):
        pass
    return None
