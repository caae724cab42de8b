"""Cost limits and estimates of the exact kernels, in one place.

Every refusal of an exact computation (:class:`~exactdp.errors.CostTooHigh`) is
decided here or from these constants, before any work, with the estimate, the
limit and the faster option as fields. The estimates were measured on the
project's 2-core machine (``benchmarks/``); see ``docs/engines.md``.

**Time and memory.** Each kernel has an estimate of the time and the peak memory
(bytes above the interpreter's own) of building it and of one evaluation of
``S(t)`` in a given arithmetic (:class:`Estimate`); the engines refuse a request
whose estimate exceeds the limits: :data:`DEFAULT_MAX_SECONDS` (a few minutes) and
:data:`DEFAULT_MAX_BYTES` (2 GiB). The estimates are upper estimates: a test runs
several sizes of each kernel in a child process and checks that the estimate bounds
the measured peak memory (``tests/engines/test_costs.py``).

**The knob.** The limits are lifted (or lowered) explicitly, for a block of code with
:func:`cost_limits`, or for a process with the environment variables
``EXACTDP_MAX_SECONDS`` and ``EXACTDP_MAX_MEMORY`` (bytes; suffixes ``K``, ``M``,
``G`` allowed)::

    with cost_limits(seconds=3600, memory="8G"):
        composed_delta(...)
"""

from __future__ import annotations

import math
import os
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Iterator, Optional, Sequence, Union

from ..errors import CostTooHigh, InvalidArgument

if TYPE_CHECKING:
    from ..numbers import ExpNum

__all__ = [
    "MAX_BRUTE_K",
    "MAX_MITM_K",
    "MAX_LATTICE_A",
    "MAX_AUTO_COST",
    "MAX_LATTICE_BITS",
    "MAX_SUM_EPS",
    "MAX_DEGREE",
    "MAX_POLY_BITS",
    "MAX_PROOF_SECONDS",
    "MAX_EXPONENT",
    "MAX_PER_MECHANISM",
    "check_per_mechanism",
    "DEFAULT_MAX_SECONDS",
    "DEFAULT_MAX_BYTES",
    "Estimate",
    "cost_limits",
    "magnitude_bits",
    "current_limits",
    "check_estimate",
    "lattice_build",
    "lattice_eval",
    "grouped_cost",
    "mitm_cost",
    "mitm_vec_cost",
    "mitm_vec_limbs",
    "windowed_cost",
    "balllattice_cost",
    "elem_bytes",
    "EVALS_DELTA",
    "EVALS_OPTCOMP",
    "lattice_bits",
    "lattice_refusal",
    "poly_cost",
    "check_poly_cost",
    "fmt",
    "fmt_bytes",
]

#: Explicit requests above these sizes are refused (CostTooHigh) with the estimate.
MAX_BRUTE_K = 26
MAX_MITM_K = 50
MAX_LATTICE_A = 20_000_000
#: auto never picks a method whose estimated cost per evaluation exceeds this.
MAX_AUTO_COST = 2**31
#: The exact count polynomial's coefficients (A + 1 integers of up to about k bits
#: each: binomials for the homogeneous case) are refused beyond this many bits (2 GiB).
MAX_LATTICE_BITS = 2**34
#: OptComp refuses sum(eps_i) above this (its search is over t = e^eps_g as a rational).
MAX_SUM_EPS = 100_000

#: Theorem 1.7 and the sandwich: largest lattice degree A = sum a_i accepted.
MAX_DEGREE = 20_000_000
#: Largest ``k * A`` accepted for the approximation's count polynomial ``prod (1 + z^{a_i})``:
#: A + 1 coefficients of up to k bits each, and the product tree holds several such
#: polynomials. Measured (benchmarks/bench_approx.py, 2 cores): k = 1000,
#: A = 977,594 took 6.3 s and 1.0 GB; k = 1000, A ~ 10^7 about 90 s and 10 GB.
MAX_POLY_BITS = 2_000_000_000
POLY_BYTES_PER_BIT = 1.0  # measured: ~1 byte of peak memory per coefficient bit (k * A)
POLY_SECONDS_PER_BIT = 7e-9  # measured: 6.3 s / (1000 * 977,594)
#: The proof's form of Theorem 1.7 (Lemma 5.2 tables inside a binary search) is refused
#: when its estimated time exceeds this many seconds; the fast form gives the same eps*.
MAX_PROOF_SECONDS = 600.0
PROOF_SECONDS_PER_CELL = 5e-8  # measured: 14.6 min / 1.72e10 cells at k = 1000 (bench_approx)
#: Largest single lattice exponent a_i considered (beyond it the exact floor decision
#: itself would explode: it compares u^{a_i} with w_i).
MAX_EXPONENT = 2**62
#: Largest number of mechanisms for which anything is built one entry per mechanism (an
#: order, a Lemma 5.1 table row, a list of lattice exponents). A composition itself is
#: kept as counts (``exactdp.events.MAX_MECHANISMS`` is far larger): only algorithms that
#: are inherently per mechanism are refused above this, before anything is built.
#: Measured: a list of 10^7 small ints is 80 MB and 0.3 s to build.
MAX_PER_MECHANISM = 10_000_000

# --------------------------------------------------------------------------
# limits and the knob

#: Requests estimated to take longer than this (seconds) are refused unless lifted.
DEFAULT_MAX_SECONDS = 180.0
#: Requests estimated to need more peak memory than this (bytes) are refused unless lifted.
DEFAULT_MAX_BYTES = float(2 * 2**30)

#: Evaluations of S(t) budgeted for one delta_g (precision steps) and one OptComp
#: (locate, Newton, certificate, precision steps): measured 1-2 and 2-13 (tests/engines/test_edges.py).
EVALS_DELTA = 3
EVALS_OPTCOMP = 16


def _parse_bytes(text: Union[str, float, int], name: str) -> float:
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        v = float(text)
    else:
        s = str(text).strip().upper().rstrip("B").rstrip("I")
        mult = {"K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}.get(s[-1:], 1)
        try:
            v = float(s[:-1] if mult != 1 else s) * mult
        except ValueError:
            raise InvalidArgument(name, "a number of bytes (suffixes K, M, G allowed)", text) from None
    if not (v > 0) or math.isnan(v):
        raise InvalidArgument(name, "a positive number of bytes", text)
    return v


def _parse_seconds(text: Union[str, float, int], name: str) -> float:
    try:
        v = float(text)
    except (TypeError, ValueError):
        raise InvalidArgument(name, "a positive number of seconds", text) from None
    if not (v > 0) or math.isnan(v):
        raise InvalidArgument(name, "a positive number of seconds", text)
    return v


_LIMITS: dict = {}


def current_limits() -> tuple[float, float]:
    """``(seconds, bytes)``: the limits in force (see the module docstring).

    Guarantee: exact. Raises: InvalidArgument for a malformed environment variable.
    """
    sec = _LIMITS.get("seconds")
    mem = _LIMITS.get("bytes")
    if sec is None:
        env = os.environ.get("EXACTDP_MAX_SECONDS")
        sec = _parse_seconds(env, "EXACTDP_MAX_SECONDS") if env else DEFAULT_MAX_SECONDS
    if mem is None:
        env = os.environ.get("EXACTDP_MAX_MEMORY")
        mem = _parse_bytes(env, "EXACTDP_MAX_MEMORY") if env else DEFAULT_MAX_BYTES
    return sec, mem


@contextmanager
def cost_limits(*, seconds: Union[float, str, None] = None, memory: Union[float, str, None] = None) -> Iterator[None]:
    """Run a block with other cost limits (``math.inf`` lifts one entirely).

    Guarantee: exact (restores the previous limits on exit). Raises: InvalidArgument
    for a limit that is not a positive number.

    Examples:
        >>> with cost_limits(seconds=3600, memory="8G"):
        ...     current_limits()
        (3600.0, 8589934592.0)
    """
    old = dict(_LIMITS)
    if seconds is not None:
        _LIMITS["seconds"] = _parse_seconds(seconds, "seconds")
    if memory is not None:
        _LIMITS["bytes"] = _parse_bytes(memory, "memory")
    try:
        yield
    finally:
        _LIMITS.clear()
        _LIMITS.update(old)


#: What the peak resident memory of a kernel's build or evaluation can exceed its live data by
#: (allocator arenas, temporaries): the same exact homogeneous OptComp (k = 6000) peaked at
#: 9.5 MB in one fresh process and 13.2 MB in another.
ALLOC_SLACK = 4.0 * 2**20


@dataclass(frozen=True)
class Estimate:
    """Estimated ``seconds`` and peak ``bytes`` of a computation (upper estimates).

    Guarantee: approximate (measured rates; see the module docstring). Raises: nothing.
    """

    seconds: float
    bytes: float

    def then(self, other: "Estimate", times: float = 1.0) -> "Estimate":
        """This, then ``times`` runs of ``other`` (times add; peaks take the larger, plus
        what this one keeps alive)."""
        return Estimate(self.seconds + times * other.seconds, self.bytes + other.bytes)

    def as_dict(self) -> dict:
        return {"seconds": self.seconds, "bytes": self.bytes}

    def text(self) -> str:
        return f"about {fmt(self.seconds)} s and {fmt_bytes(self.bytes)}"


def check_estimate(est: Estimate, parameter: str, what: str, alternative: Optional[str]) -> None:
    """Refuse ``est`` beyond the limits in force (:func:`current_limits`).

    Guarantee: exact decision on the estimate.

    Raises:
        CostTooHigh: with ``estimate = {"seconds", "bytes"}``, the limits and ``alternative``.
    """
    sec, mem = current_limits()
    if est.seconds <= sec and est.bytes <= mem:
        return
    over = []
    if est.bytes > mem:
        over.append(f"memory limit {fmt_bytes(mem)}")
    if est.seconds > sec:
        over.append(f"time limit {fmt(sec)} s")
    alt = (f"; {alternative}" if alternative.startswith("use ") else f"; use {alternative}") if alternative else ""
    raise CostTooHigh(
        parameter,
        f"{what} is estimated at {est.text()}, over the {' and the '.join(over)}{alt} "
        "(or lift the limits: exactdp.engines.costs.cost_limits, EXACTDP_MAX_SECONDS / EXACTDP_MAX_MEMORY)",
        estimate=est.as_dict(), limit={"seconds": sec, "bytes": mem}, alternative=alternative,
    )


# --------------------------------------------------------------------------
# the kernels' estimates (rates measured on 2 shared cores; docs/engines.md, benchmarks)


def magnitude_bits(groups: Sequence[tuple["ExpNum", int]]) -> int:
    """Bits that balls need beyond the requested precision for values of this size: about
    ``log2 sum n_j |eps_j|`` (``e^(1e317)`` at ``p`` bits of relative accuracy needs its
    exponent to ``p + 1053`` bits; the engines' precision rises that far). Guarantee:
    approximate (an estimate for the cost models). Raises: nothing."""
    best = 0.0
    for v, n in groups:
        m = v.fmag()
        if math.isfinite(m):
            b = math.log2(m) if m > 0 else -math.inf
        else:  # beyond the float range: from the exact exponent's size
            r = getattr(v, "r", None)
            b = float(r.numerator.bit_length() - r.denominator.bit_length()) if isinstance(r, Fraction) and r else 1024.0
        best = max(best, b + math.log2(max(n, 1)) + math.log2(max(len(groups), 1)))
    return max(0, math.ceil(best))


def elem_bytes(kind: str, prec: int, bits: float = 64.0, mag: int = 0) -> float:
    """Bytes of one field element: an Arb ball at ``prec`` bits, or an exact rational of
    about ``bits`` bits in numerator and denominator together (``kind="exact"``).
    ``mag``: :func:`magnitude_bits` of the values; beyond 60 bits a ball's two exponents are
    big integers of about that size (measured: 1e6 grouped classes of ``e^(5.5e316)``, 2.78 GB)."""
    if kind == "exact":
        return 120.0 + bits / 8
    return 96.0 + 8 * math.ceil(prec / 64) + (2 * (48 + mag / 8) if mag > 60 else 0.0)


def homogeneous_bits(k: int) -> float:
    """``sum_m log2 C(k, m)``: the bits of the binomial row (about ``0.72 k^2``)."""
    if k <= 1:
        return 1.0
    lg = math.lgamma
    step = max(1, k // 2000)
    tot = 0.0
    for m in range(0, k + 1, step):
        tot += (lg(k + 1) - lg(m + 1) - lg(k - m + 1)) / math.log(2) * min(step, k + 1 - m)
    return tot + 64.0 * (k + 1)


def lattice_build(groups_a: Sequence[tuple[int, int]]) -> Estimate:
    """Building ``prod (1 + z^a)^n`` over ``(a, n)`` with FLINT.

    One group (the homogeneous row and its spread-out copies): the binomial row,
    ``sum log2 C(n, m)`` bits, measured 4e-10 to 1.6e-9 s per bit (k = 6e4 to 1.3e5, on
    a loaded machine) and one copy of memory (k = 1.3e5: 1.5 GB).
    Several groups: a product tree whose multiplications pack ``A + 1`` coefficients
    of up to ``k'`` bits (``k'`` mechanisms with ``a > 0``); measured peaks: 4-5.5 bytes
    per 8 packed bits ``(A + 1)(k' + 64)`` for k' = 50..200 (ten eps on a 1e-5 lattice,
    A up to 2e6), 7.9-8.1 for k' = 1000..3000 (A up to 1.6e5); time
    ``4.4e-9 (A + 1)^1.15 (k' + 64)`` s fits every run within a factor 2.5 (above it).
    """
    gs = [(int(a), int(n)) for a, n in groups_a]
    A = sum(a * n for a, n in gs)
    kp = sum(n for a, n in gs if a > 0)
    nz = [(a, n) for a, n in gs if a > 0]
    # n0 mechanisms with a = 0 multiply every coefficient by 2^n0: n0 more bits each (eps = 0
    # x 10^9 is the integer 2^(10^9); measured peak 1.0 GB at n0 = 10^9, about 8 bytes per bit)
    n0 = sum(n for a, n in gs if a == 0)
    zbits = float(n0) * (A + 1)
    if len(nz) <= 1:
        n = nz[0][1] if nz else 0
        bits = homogeneous_bits(n) + 64.0 * (A + 1)
        return Estimate(8e-10 * (bits + zbits) + 1e-7 * (A + 1), 1.25 * bits / 8 + zbits + 16.0 * (A + 1) + ALLOC_SLACK)
    bits = float(A + 1) * (kp + 64)
    return Estimate(4.4e-9 * float(A + 1) ** 1.15 * (kp + 64) + 8e-10 * zbits, 9.0 * bits / 8 + zbits + ALLOC_SLACK)


def lattice_eval(A: int, kp: int, kind: str, prec: int, ubits: float = 0.0, coeff_bits: Optional[float] = None) -> Estimate:
    """One evaluation of the lattice kernel (two polynomial evaluations).

    Arb: the polynomial converted to balls (kept at two precisions) and a shifted
    copy, ``3 (A + 1)`` balls; measured 0.1-0.35 us per coefficient and evaluation (64-400
    bits), 0.1-0.3 us per coefficient for a conversion; the estimate, 1 us at 512 bits,
    also covers the locate phase of OptComp (up to about 20 evaluations at 64 bits).
    Exact: a copy of half the coefficients and rationals of ``A ubits`` bits; Horner
    on them, measured ``1.2e-10 A^2 ubits`` s (k = 3e4 homogeneous: 0.8 s).
    """
    n = float(A + 1)
    if kind == "exact":
        cb = coeff_bits if coeff_bits is not None else n * (kp + 64)
        num = n * max(ubits, 1.0)
        return Estimate(1.2e-10 * n * n * max(ubits, 1.0) + 1e-6 * n, 1.2 * cb / 8 + 4 * num / 8 + ALLOC_SLACK)
    return Estimate(1e-6 * n * (1 + prec / 512), 3 * n * elem_bytes("arb", prec) + ALLOC_SLACK)


def grouped_cost(groups: Sequence[tuple[float, int]], kind: str, prec: int, mag: int = 0) -> tuple[Estimate, Estimate]:
    """``(build, one evaluation)`` of the grouped kernel over ``prod (n_j + 1)`` classes.

    ``groups``: ``(bits of one value, count)``. Each class keeps a count, ``W_S``,
    ``W_notS`` and its exponent vector (two lists alive while building), plus float
    arrays for the search; measured 420-600 bytes per class, 10 us (Arb) and 15 us
    (exact, 400-bit rationals) per class and evaluation, more with counts of ``cbits``
    bits (one group of 1e5: 15 s for delta_g).
    """
    g = len(groups)
    C = 1.0
    wbits = 0.0
    cbits = 0.0
    for b, n in groups:
        C *= n + 1
        wbits += b * n
        cbits += 0.73 * n  # mean of log2 C(n, m) over m
    eb = elem_bytes(kind, prec, wbits, mag)
    per = 2 * (200 + 2 * eb + 16 * g + cbits / 8) + 8 * (g + 4)
    build = Estimate(C * (2e-6 * max(g, 1) + 1e-6 + 1e-9 * cbits), C * per + ALLOC_SLACK)
    ev = Estimate(C * (3e-6 + (1e-8 * wbits if kind == "exact" else 2e-9 * prec) + 5e-10 * cbits), ALLOC_SLACK)
    return build, ev


def mitm_cost(NL: float, NR: float, g: int, kind: str, prec: int, wbits: float = 64.0,
              cbits: float = 0.0, mag: int = 0, *, vector: bool = False, workers: int = 1) -> tuple[Estimate, Estimate]:
    """``(build, one evaluation)`` of meet in the middle with ``NL``, ``NR`` classes per half.

    Per class: exponent vectors and keys (numpy), its values ``W_X``, ``W_notX`` while
    built and after merging, suffix sums; measured about 750 bytes per class at 136
    bits and 3 us per left class and evaluation. ``cbits``: bits of a class's count (the
    binomials ``C(n_j, m_j)`` of one half: about ``0.73 sum n_j``), ``wbits`` of an exact value.

    ``vector``: the vector form (:class:`~exactdp.engines.mitm.VecState`, balls only) with
    ``L`` 16-bit limbs for ``prec``; ``workers`` Dask workers share the evaluations (each
    builds the whole form: the build's time and memory are per process).
    """
    if vector and kind != "exact":
        return mitm_vec_cost(NL, NR, g, prec, workers)
    N = NL + NR
    eb = elem_bytes(kind, prec, wbits, mag)
    per = 300 + 6 * eb + 24 * max(g, 1) + 3 * cbits / 8
    build = Estimate(N * (4e-6 + 1e-6 * g + 1e-9 * cbits), N * per + ALLOC_SLACK)
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
    :data:`~exactdp.engines.mitm.VEC_CHUNK`. Measured (``benchmarks/bench_mitm.py``, 2 shared
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


#: Measured rates of the vector form, times about 1.5 (seconds per class, and per class and limb squared).
MITM_VEC_BUILD_S = 1.5e-7
MITM_VEC_BUILD_S_L2 = 3e-9
MITM_VEC_EVAL_S = 6e-8
MITM_VEC_EVAL_S_L2 = 1.6e-9


def windowed_cost(k: int, lw: float, prec: int) -> tuple[Estimate, Estimate]:
    """``(build, one evaluation)`` of the windowed homogeneous kernel (:mod:`.windowed`).

    Build: the float table of pieces for the search, ``52 sd`` entries (``sd = sqrt(k p (1-p))``)
    of about 64 bytes, 1e-7 s each. An evaluation sums two binomial-tail windows of at most
    :func:`~exactdp.engines.windowed.window_terms` terms each (``~ sqrt(k)``), measured
    1.7 us per term at 160 bits (four Arb operations from Python), plus float arrays of
    about 64 bytes per term for choosing the window. Evaluations on one piece of S reuse
    the cached sums, so OptComp's 16 budgeted evaluations compute 3 to 6 windows: with
    1e-6 s per term the estimate stays above the measured time (k = 10^9, eps = 0.01:
    estimated 8.4 s, measured 0.7 to 2.6 s; peak 55 MB, estimated 83 MB).
    """
    from .windowed import _law, window_terms

    n = window_terms(k, lw, prec)
    tab = min(float(k + 1), 52.0 * _law(k, lw)[1] + 16)
    build = Estimate(1e-4 + 1e-7 * tab, 64.0 * tab + ALLOC_SLACK)
    return build, Estimate(2 * n * 1e-6 * (1 + prec / 1024) + 2e-3, 64.0 * 4 * n + ALLOC_SLACK)


def windowed_groups_cost(groups_l: Sequence[tuple[float, int]], prec: int) -> tuple[Estimate, Estimate]:
    """``(build, one evaluation)`` of the windowed grouped kernel (:mod:`.multiwindow`).

    ``groups_l``: ``(ln w, n)`` per group; :func:`~exactdp.engines.multiwindow.window_plan` gives
    the number of configurations of the other groups (``box``), the last window's length and
    all windows' terms. A build (per tilt and precision; an OptComp makes two or three)
    computes every window's binomial terms and the configurations' products, sorted by loss,
    with their prefix sums; an evaluation takes ``min(box, last window)`` steps. Measured at
    144 bits (2 shared cores): builds of 2.3-4.5 us per term or configuration (2 x 10^8
    mechanisms: 1.2 s; three groups of 1000: 1.3 s for 2.9e5 configurations), evaluations of
    1.2-2.1 us per step, peaks of 280-440 bytes per term or configuration under tracemalloc
    (143 MB and 128 MB; the resident peak of the second, with the configurations' list and
    its sorted copies alive together, 179 MB: 610 bytes per configuration). Estimated: 6 us
    per build item, 3 us per step, 700 bytes per configuration and 450 per window term,
    times ``1 + prec/512``.
    """
    from .multiwindow import window_plan

    box, inner, wins = window_plan(groups_l, prec)
    f = 1 + prec / 512
    build = Estimate(3 * f * 6e-6 * (box + wins) + 1e-3, f * (700.0 * box + 450.0 * wins) + ALLOC_SLACK)
    return build, Estimate(f * 3e-6 * min(box, inner) + 1e-3, ALLOC_SLACK)


def balllattice_cost(groups_a: Sequence[tuple[int, int]], lu: float, prec: int) -> tuple[Estimate, Estimate]:
    """``(build, one evaluation)`` of the certified ball-lattice kernel (:mod:`.balllattice`).

    ``groups_a``: ``(a, n)`` with ``a > 0``; ``lu = ln u``. A build is the product tree of
    the windowed factors in fixed point (``fmpz_poly`` with ``P`` fractional bits,
    ``P = wp + 48 + guard``, ``wp`` the precision rounded up to a multiple of 16, windows to
    ``2^-(wp + 48)``); :func:`~exactdp.engines.balllattice.tree_plan` simulates its
    lengths (``tot``, the sum of the products' lengths, and ``big``, the longest, each in
    units of its stride). A product of coefficients of ``P`` bits has ``2 P + 17`` bits a
    coefficient. Measured (2 shared cores, one build each, python-flint 0.9, FLINT
    multiplying through GMP):

    ======================================= ==== ======= ======= ====== =======
    composition                             P    tot     big     time   peak
    ======================================= ==== ======= ======= ====== =======
    eps 0.01/0.02/0.03, 10^4 each           199  1.5e4   9.3e3   0.06 s 10 MB
    eps 0.01/0.02/0.03, 10^5 each           200  4.6e4   2.9e4   0.18 s 20 MB
    eps 0.01/0.02/0.03, 10^5 each           329  5.9e4   3.7e4   0.31 s 32 MB
    eps 0.01/0.02/0.03, 10^5 each           457  6.9e4   4.4e4   0.49 s 50 MB
    eps 0.01/0.02/0.03, 10^6 each           218  1.5e5   9.6e4   0.69 s 56 MB
    eps 0.01..0.10, 10^4 each               219  1.7e5   5.0e4   0.45 s 33 MB
    10^3 eps in {1..100}/1000               222  2.2e5   4.8e4   0.45 s 31 MB
    10^4 eps in {1..100}/1000               208  1.3e6   1.4e5   2.57 s 80 MB
    10^4 eps in {1..100}/1000               224  1.3e6   1.5e5   2.83 s 85 MB
    10^4 eps in {1..100}/1000               336  1.5e6   1.8e5   4.91 s 162 MB
    10^4 eps in {1..1000}/10^4              230  2.4e7   1.5e6   39 s   1.03 GB
    ======================================= ==== ======= ======= ====== =======

    i.e. ``3.9-4.6e-9 tot (2 P + 17)`` s for the products (up to ``5e-9`` when the other
    jobs load both cores), about ``7e-6`` s a window term (the three groups: their leaves
    are long), and ``10-12 big (2 P + 17) / 8`` bytes (22 for the smallest, where fixed
    costs dominate); the estimate takes ``6e-9``, ``1e-5`` and ``16`` (the last case: 65 s
    and 1.6 GiB). A build serves every threshold within a
    few standard deviations of its tilt and every lower precision: a delta_g builds once
    (twice when the precision steps up), an OptComp once to three times (Newton and the
    certificate share one; a far threshold is a second tilt), so one evaluation is
    charged an eighth of a build (OptComp's 16: three builds).
    """
    from .balllattice import MARGIN_BITS, _prec_step, _reach, _scale, _sig, tree_plan

    if not groups_a:
        return Estimate(1e-3, ALLOC_SLACK), Estimate(1e-4, ALLOC_SLACK)
    if max(a for a, _ in groups_a) > 2**40:  # a factor spread by z^a alone would hold > 2^40 coefficients
        return Estimate(math.inf, math.inf), Estimate(math.inf, math.inf)
    wbits = _prec_step(prec) + MARGIN_BITS
    tot, big, final = tree_plan(groups_a, lu, wbits)
    P = _scale(len(groups_a), big, wbits)
    bits = 2 * P + 17
    R = _reach(wbits)
    terms = sum(min(n + 1, 2 * (R * max(math.sqrt(n * _sig(a * lu) * (1 - _sig(a * lu))), 1.0) + 16))
                for a, n in groups_a)
    keep = 6 * final * (P / 8 + 48)  # the polynomials kept for later evaluations
    build = Estimate(0.02 + 6e-9 * tot * bits + 1e-5 * terms, 16.0 * big * bits / 8 + keep + ALLOC_SLACK)
    return build, Estimate(build.seconds / 8 + 1e-7 * final, build.bytes)


def fmt(n: float) -> str:
    """A cost in three significant digits. Guarantee: approximate. Raises: nothing."""
    return f"{n:.3g}"


def fmt_bytes(n: float) -> str:
    """Bytes as ``"3.1 GiB"`` / ``"120 MiB"``. Guarantee: approximate. Raises: nothing."""
    if n >= 2**30:
        return f"{n / 2**30:.3g} GiB"
    if n >= 2**20:
        return f"{n / 2**20:.3g} MiB"
    return f"{n / 2**10:.3g} KiB"


def lattice_bits(A: int, nonzero: int) -> float:
    """Estimated size in bits of the coefficients of ``prod (1 + z^{a_i})``: at most
    ``A + 1`` coefficients, each at most ``2^nonzero`` (``nonzero`` = number of ``a_i > 0``).
    Guarantee: approximate (an upper estimate). Raises: nothing."""
    return float(A + 1) * max(1, nonzero)


def lattice_refusal(A: int, nonzero: int) -> Optional[str]:
    """Why the exact count polynomial is refused (its size), or None when it fits.
    Guarantee: exact decision on the estimate. Raises: nothing."""
    bits = lattice_bits(A, nonzero)
    if bits <= MAX_LATTICE_BITS:
        return None
    return (f"the exact count polynomial would hold {A + 1} coefficients of up to {nonzero} bits "
            f"(about {fmt(bits / 8 / 2 ** 30)} GiB; limit {MAX_LATTICE_BITS // 8 // 2 ** 30} GiB)")


def poly_cost(k: int, A: int) -> tuple[float, float]:
    """Estimated (bytes, seconds) of the approximation's count polynomial of degree A over k
    mechanisms. Guarantee: approximate (measured rates). Raises: nothing."""
    bits = float(k) * float(A)
    return bits * POLY_BYTES_PER_BIT, bits * POLY_SECONDS_PER_BIT


def check_per_mechanism(k: int, parameter: str, what: str, alternative: str,
                        limit: Optional[int] = None) -> None:
    """Refuse, before anything is built, an algorithm that needs one entry per mechanism
    for more than ``limit`` (default :data:`MAX_PER_MECHANISM`) mechanisms.

    Guarantee: exact decision (``k`` against the limit).

    Raises:
        CostTooHigh: ``k > limit``, naming ``what``, the limit and ``alternative``.

    Examples:
        >>> check_per_mechanism(10**9, "mechanisms", "the Lemma 5.1 table", "form='fast'")
        Traceback (most recent call last):
        ...
        exactdp.errors.CostTooHigh: mechanisms: the Lemma 5.1 table needs one entry per mechanism: 1e+09 mechanisms is refused (limit 1e+07); form='fast'
    """
    lim = MAX_PER_MECHANISM if limit is None else limit
    if k > lim:
        raise CostTooHigh(parameter, f"{what} needs one entry per mechanism: {k:.3g} mechanisms is refused "
                          f"(limit {lim:.3g}); {alternative}",
                          estimate={"mechanisms": k}, limit={"mechanisms": lim}, alternative=alternative)


def check_poly_cost(k: int, A: float, parameter: str, hint: str = "use a larger eta (a coarser lattice)") -> None:
    """Refuse a count polynomial over the degree or size limits, with the estimate.

    Guarantee: exact decision on the estimate.

    Raises:
        CostTooHigh: ``A > MAX_DEGREE`` or ``k * A > MAX_POLY_BITS``.
    """
    mem, sec = poly_cost(k, int(A)) if math.isfinite(A) else (math.inf, math.inf)
    if not (A <= MAX_DEGREE and k * A <= MAX_POLY_BITS):  # also refuses A = inf or nan
        raise CostTooHigh(
            parameter,
            f"the lattice count polynomial would have degree A = sum a_i = {A:.3g} with coefficients of up to k = {k} bits "
            f"(limits: A <= {MAX_DEGREE:.3g}, k*A <= {MAX_POLY_BITS:.3g}); estimated {mem / 1e9:.3g} GB and {sec:.3g} s; {hint}",
            estimate={"bytes": mem, "seconds": sec, "degree": A}, limit={"degree": MAX_DEGREE, "k*A": MAX_POLY_BITS},
            alternative=hint,
        )
