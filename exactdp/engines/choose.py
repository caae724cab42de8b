"""Choosing the S(t) kernel: the explicit method if it applies and fits, else the cheapest.

Works on *groups* ``(w, n)`` (a distinct ``e^eps`` and how many mechanisms have
it), so a composition of ``k`` equal mechanisms is one group, never a list of
``k`` values. Every kernel is a plug-in of :mod:`.registry` that says whether it
applies, estimates its own time and memory and builds itself (:mod:`.kernel`); every
refusal is decided before any work, from the limits in :mod:`.costs`, with the
estimate and the faster option.
"""

from __future__ import annotations

from typing import Optional, Sequence, Union

from ..errors import InvalidArgument
from ..numbers import ExpNum
from .costs import EVALS_DELTA, Estimate, check_estimate, current_limits, no_kernel_fits
from .detect import Groups, detect_lattice, detect_lattice_groups, groups_of
from .kernel import Kernel, Request
from .registry import KERNELS, METHODS
from .structure import Structure

__all__ = ["METHODS", "choose_structure", "detect_lattice", "detect_lattice_groups", "groups_of", "estimate_method",
           "auto_kernel"]

#: Evaluations by which ``auto`` ranks the kernels: the build is paid once, a delta_g evaluates
#: once or twice, an OptComp several times.
RANK_EVALS = 4
#: Estimates within this many seconds of the fastest are a tie: below it the estimates do not
#: tell the kernels apart (every kernel answers a small composition in 1-2 ms,
#: ``benchmarks/bench_auto.py``), and the float search's evaluations (an estimate of an OptComp's
#: extra cost only) do not decide; the build and :data:`RANK_EVALS` evaluations do.
RANK_TIE_SECONDS = 5e-3


def estimate_method(method: str, groups: Groups, lat=None, *, kind: str = "arb", prec: int = 128):
    """``(build, one evaluation)`` :class:`~exactdp.engines.costs.Estimate` of a kernel before it
    is built, or None when the method does not apply (``lat``: the groups' lattice, or None for
    none). Guarantee: approximate (upper estimates). Raises: KeyError for an unknown method."""
    req = Request(groups)
    req.set_lattice(lat)
    kern = KERNELS[method]
    if kern.applies(req) is not None:
        return None
    return kern.estimate(req, kind, prec)


def _fits(est: Estimate, limits: tuple[float, float]) -> bool:
    return est.seconds <= limits[0] and est.bytes <= limits[1]


def auto_kernel(req: Request, *, exact_first: bool = True, prec: int = 128) -> Kernel:
    """The kernel ``auto`` takes for ``req``: the fastest estimate within the limits (build, then
    :data:`RANK_EVALS` evaluations, plus the float search's evaluations for a kernel without a
    float model; within :data:`RANK_TIE_SECONDS` of it, the fastest without them), in the arithmetic
    auto will use: exact rationals when every value is rational and some kernel fits so, else
    balls (the engines fall back the same way). ``exact_first=False`` (an engine that computes
    in balls, certified or float, was asked for): balls only. ``prec``: the balls' precision
    the request will run at (estimated there, before anything is built).

    Guarantee: exact (a decision on the estimates). Raises: CostTooHigh when no kernel fits.
    """
    limits = current_limits()
    offered = [kern for kern in KERNELS.values() if kern.offered(req)]
    seen: list[tuple[str, Estimate]] = []
    for kind in (("exact", "arb") if exact_first and req.all_rational() else ("arb",)):
        cands: list[tuple[float, float, Kernel]] = []
        for kern in offered:
            if kind == "exact" and not kern.exact:
                continue  # exact answers use exact integers (the homogeneous and lattice kernels)
            b, e = kern.estimate(req, kind, prec)
            tot = b.then(e, EVALS_DELTA)
            seen.append((kern.name, tot))
            if _fits(tot, limits):
                # an OptComp's float search costs the kernels without a float model evaluations in balls
                evals = RANK_EVALS + (kern.locate_evals if kind == "arb" else 0)
                cands.append((b.then(e, evals).seconds, b.then(e, RANK_EVALS).seconds, kern))
        if cands:
            best = min(c[0] for c in cands)
            return min((c for c in cands if c[0] <= best + RANK_TIE_SECONDS), key=lambda c: c[1])[2]
    sec_lim, mem_lim = limits
    best = min(seen, key=lambda c: max(c[1].seconds / sec_lim, c[1].bytes / mem_lim)) if seen else None
    raise no_kernel_fits(req.k, best, sec_lim, mem_lim)


def choose_structure(ws: Union[Sequence[ExpNum], None] = None, method: str = "auto", *,
                     groups: Optional[Groups] = None, exact_first: bool = True, prec: int = 128) -> Structure:
    """Build the S(t) kernel (``ws``: every ``e^eps_i``, or ``groups``: distinct values with
    counts, for compositions too large to list) with ``method``, or the cheapest
    applicable one for ``"auto"`` (ranked in exact rationals first when every value is rational
    and ``exact_first``, else in balls: :func:`auto_kernel`).

    Every kernel's time and memory are estimated before it is built
    (:meth:`~exactdp.engines.kernel.Kernel.estimate`): an explicit ``method`` over the limits
    is refused, and ``auto`` takes the fastest estimate among the kernels within them.

    Guarantee: exact (the kernel's coefficients are exact integers or exp-space
    numbers; ``auto`` picks by the estimates and records the choice in ``.method``).

    Raises:
        InvalidArgument: an unknown method, or one that does not apply (e.g.
            ``homogeneous`` for unequal eps, ``lattice`` for incommensurable eps).
        CostTooHigh: the request would take too long or too much memory, with the
            estimate (seconds, bytes) and the faster option to use.
    """
    if method not in METHODS:
        raise InvalidArgument("method", "one of " + ", ".join(METHODS), method)
    req = Request(groups_of(ws or []) if groups is None else groups)
    if method == "auto":
        return auto_kernel(req, exact_first=exact_first, prec=prec).build(req)
    kern = KERNELS[method]
    reason = kern.applies(req)
    if reason is not None:
        raise InvalidArgument("method", reason.allowed, reason.found)
    kern.check_size(req)
    b, e = kern.estimate(req, "arb", prec)
    check_estimate(b.then(e, EVALS_DELTA), "method", kern.describe(req), kern.alternative)
    return kern.build(req)
