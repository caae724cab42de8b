"""The cost model of meet in the middle (rates measured on 2 shared cores; ``docs/engines.md``,
``benchmarks/bench_mitm.py``). Guarantee: approximate (upper estimates). Raises: nothing."""

from __future__ import annotations

import math
from typing import Sequence

from ...numbers import ExpNum
from ..costs import ALLOC_SLACK, Estimate, elem_bytes, value_bits
from .halves import half_classes, split_groups
from .vector import vec_default

__all__ = ["mitm_cost", "mitm_vec_cost", "mitm_vec_limbs", "mitm_estimate"]


def mitm_cost(NL: float, NR: float, g: int, kind: str, prec: int, wbits: float = 64.0,
              cbits: float = 0.0, mag: int = 0, *, vector: bool = False, workers: int = 1) -> tuple[Estimate, Estimate]:
    """``(build, one evaluation)`` of meet in the middle with ``NL``, ``NR`` classes per half.

    Per class: exponent vectors and keys (numpy), its values ``W_X``, ``W_notX`` while
    built and after merging, suffix sums; measured about 750 bytes per class at 136
    bits and 3 us per left class and evaluation; building, 15-17 us per class with three
    groups (three groups of 100: 10,302 classes, a delta_g in 165-180 ms on 2 loaded cores;
    ``benchmarks/bench_auto.py``), charged ``8 + 3 g`` us. ``cbits``: bits of a class's count (the
    binomials ``C(n_j, m_j)`` of one half: about ``0.73 sum n_j``), ``wbits`` of an exact value.

    ``vector``: the vector form (:class:`~exactdp.engines.mitm.vector.VecState`, balls only) with
    ``L`` 16-bit limbs for ``prec``; ``workers`` Dask workers share the evaluations (each
    builds the whole form: the build's time and memory are per process).
    """
    if vector and kind != "exact":
        return mitm_vec_cost(NL, NR, g, prec, workers)
    N = NL + NR
    eb = elem_bytes(kind, prec, wbits, mag)
    per = 300 + 6 * eb + 24 * max(g, 1) + 3 * cbits / 8
    build = Estimate(N * (MITM_BUILD_S + MITM_BUILD_S_G * g + 1e-9 * cbits), N * per + ALLOC_SLACK)
    ev = Estimate(NL * (3e-6 + (1e-8 * wbits if kind == "exact" else 2e-9 * prec) + 5e-10 * cbits), ALLOC_SLACK)
    return build, ev


def mitm_vec_limbs(NL: float, NR: float, g: int, prec: int) -> int:
    """The 16-bit limbs of the vector form at ball precision ``prec``: its sums' error,
    ``2^-F E (N_L + N_R)`` (``E = 4 g + 2`` units per value, ``g`` groups in the larger half),
    stays below ``2^-(prec + 16)``. Guarantee: exact. Raises: nothing."""
    E = 4 * max(g, 1) + 2
    if not math.isfinite(NL + NR):  # beyond the float range: the estimate is infinite anyway
        return 1 << 20
    return max(2, math.ceil((prec + 16 + math.log2(E * max(NL + NR, 1))) / 16))


def mitm_vec_cost(NL: float, NR: float, g: int, prec: int, workers: int = 1) -> tuple[Estimate, Estimate]:
    """``(build, one evaluation)`` of the vector form of meet in the middle (see :func:`mitm_cost`).

    Build: per class of a half, one row of L 16-bit limbs times another (a float64 matrix
    product and the carries), its float key, a stable sort, the row written to its sorted
    place. Kept: per left class ``2 L`` bytes of limbs, 8 of key, 4 of class index; per right
    class ``2 (L + 1)`` (its suffix sums), 8 and 4; while a half is built, another 24 bytes per
    class (the unsorted keys, the order and its inverse). One evaluation: per left class two
    searches and two exact limb dot products (``~ L^2`` flops each), in chunks of
    :data:`~exactdp.engines.mitm.limbs.VEC_CHUNK`. Measured (``benchmarks/bench_mitm.py``, 2 shared
    cores, 17-digit eps, L = 13): k = 48 (2^24 classes per half) built in 13-16 s, 3.9 s per
    evaluation, peak 1.40 GB; the rates below are about 1.5 times those. With ``workers``
    Dask workers each builds the whole form (time and memory per process) and evaluates
    ``1 / workers`` of the chunks.
    """
    L = mitm_vec_limbs(NL, NR, g, prec)
    N = NL + NR
    build_s = 0.05 + N * (MITM_VEC_BUILD_S + MITM_VEC_BUILD_S_L2 * L * L)
    keep = NL * (2 * L + 12) + NR * (2 * (L + 1) + 12)
    peak = keep + max(NL, NR) * 24 + ALLOC_SLACK + 32 * 2**20
    ev_s = 0.01 + NL * (MITM_VEC_EVAL_S + MITM_VEC_EVAL_S_L2 * L * L) / max(workers, 1)
    return Estimate(build_s, peak), Estimate(ev_s, ALLOC_SLACK + 64.0 * min(NL, 2**16) * (L + 1))


#: Seconds to build one class of the per-class form, and per group of its half.
MITM_BUILD_S = 8e-6
MITM_BUILD_S_G = 3e-6
#: Measured rates of the vector form, times about 1.5 (seconds per class, and per class and limb squared).
MITM_VEC_BUILD_S = 1.5e-7
MITM_VEC_BUILD_S_L2 = 3e-9
MITM_VEC_EVAL_S = 6e-8
MITM_VEC_EVAL_S_L2 = 1.6e-9



def mitm_estimate(groups: Sequence[tuple[ExpNum, int]], kind: str, prec: int) -> tuple[Estimate, Estimate]:
    """``(build, one evaluation)`` of :class:`~.kernel.MITM` over ``groups`` before it is built
    (:func:`mitm_cost` of its two halves; the vector form where it would be the default)."""
    left, right = split_groups(groups)
    wb = sum(value_bits(v) * n for v, n in groups) / 2
    cb = 0.73 * max(sum(n for _, n in left if n > 1), sum(n for _, n in right if n > 1))
    return mitm_cost(half_classes(left), half_classes(right), max(len(left), len(right)), kind, prec, wb, cb,
                     vector=kind != "exact" and vec_default(groups))
