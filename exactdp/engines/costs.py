"""Cost limits, the :class:`Estimate` type and the refusal texts of the exact kernels.

Every refusal of an exact computation (:class:`~exactdp.errors.CostTooHigh`) is
decided from these limits, before any work, with the estimate, the limit and the
faster option as fields. Each kernel's own estimate (its measured rates) lives in
the kernel's module (:meth:`~exactdp.engines.kernel.Kernel.estimate`); this module
imports no kernel. The rates were measured on the project's 2-core machine
(``benchmarks/``); see ``docs/engines.md``.

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
    "MAX_LATTICE_A",
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
    "elem_bytes",
    "EVALS_DELTA",
    "EVALS_OPTCOMP",
    "poly_cost",
    "check_poly_cost",
    "fmt",
    "fmt_bytes",
    "ALLOC_SLACK",
    "value_bits",
    "count_text",
    "no_kernel_fits",
]

#: Explicit requests above these sizes are refused (CostTooHigh) with the estimate.
MAX_BRUTE_K = 26
MAX_LATTICE_A = 20_000_000
#: OptComp refuses sum(eps_i) above this for the kernels whose evaluation grows with the
#: size of t = e^eps_g (the lattice kernels, grouped, brute); the others are limited by the
#: size of the answer only (``engines.family.HUGE_T_METHODS``).
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
# the units the kernels' estimates share (each kernel's own rates are in its module)


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




def value_bits(v: "ExpNum") -> float:
    """Bits of an exact value (numerator and denominator), 64 for an irrational one.
    Guarantee: approximate (a size for the cost models). Raises: nothing."""
    q = v.exact()
    return float(q.numerator.bit_length() + q.denominator.bit_length()) if q is not None else 64.0


def count_text(n: int) -> str:
    """An integer for a refusal: whole up to 15 digits, else ``about 10^d`` (eps = 1e309 makes
    degrees of 300 digits, and a float of them overflows). Guarantee: exact. Raises: nothing."""
    if abs(n) < 10**15:
        return str(n)
    if n.bit_length() < 14000:  # str() of an int stops at 4300 digits
        return f"about 10^{len(str(abs(n))) - 1}"
    return f"about 2^{n.bit_length() - 1}"


def no_kernel_fits(k: int, best: Optional[tuple[str, Estimate]], sec_lim: float, mem_lim: float) -> CostTooHigh:
    """The refusal of ``auto`` when no kernel's estimate is within the limits (``best``: the
    cheapest kernel and its estimate). Guarantee: exact. Raises: nothing (returns the error)."""
    alt = ("give rational eps on a coarser lattice, use fewer mechanisms, or the approximation of Theorem 1.7 "
           "(exactdp approx) or the lattice sandwich (exactdp.approx.optcomp_bounds)")
    what = (f"exact optimal composition of these {k} mechanisms (#P-hard in general, Murtagh-Vadhan Thm 1.6); "
            f"the cheapest kernel ({best[0]}) is estimated at {best[1].text()}" if best else
            f"no kernel fits for these {k} mechanisms")
    return CostTooHigh(
        "mechanisms",
        f"{what}, over the limits ({fmt(sec_lim)} s, {fmt_bytes(mem_lim)}); {alt} (or lift the limits: "
        "exactdp.engines.costs.cost_limits, EXACTDP_MAX_SECONDS / EXACTDP_MAX_MEMORY)",
        estimate=best[1].as_dict() if best else None, limit={"seconds": sec_lim, "bytes": mem_lim}, alternative=alt,
    )


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
