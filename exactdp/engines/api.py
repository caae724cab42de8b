"""The public engine functions: :func:`composed_delta` and :func:`optcomp` (Murtagh-Vadhan Theorem 1.5).

Both validate their arguments (one error family, the parameter named), prepare the
composition once (:class:`~exactdp.engines.base.Prepared`) and ask an engine of the
family (:mod:`.family`); ``engine="auto"`` is exact when every ``e^eps`` involved
is rational, else certified. To ask many questions of one composition without
preparing it again, use :class:`exactdp.PrivacyProfile`.
"""

from __future__ import annotations

from typing import Iterable, Optional

from ..errors import CostTooHigh, InvalidArgument
from ..events import Mechanism, as_composition
from ..links import implements
from ..numbers import MAXPREC, ExpNum, RatExp, digits_to_bits, parse_choice, parse_delta, parse_eps, parse_exp_eps, parse_int
from .base import Prepared
from .costs import EVALS_OPTCOMP
from .family import ENGINE_TIERS, Engine
from .mitm import distributed
from .results import MAX_DIGITS, DeltaResult, EpsResult, check_digits

__all__ = ["composed_delta", "optcomp", "ENGINES", "resolve_engine", "check_digits", "check_prec", "eps_g_number", "MAX_DIGITS", "check_dask"]

ENGINES = ("auto", "exact", "certified", "float")

def check_prec(prec: object, name: str = "prec") -> Optional[int]:
    """``prec`` (bits) as None or an integer in ``[8, MAXPREC]``. Guarantee: exact. Raises: InvalidArgument."""
    if prec is None:
        return None
    return parse_int(prec, name, lo=8, hi=MAXPREC)


def eps_g_number(eps_g: object, exp_eps_g: object) -> ExpNum:
    """``t = e^eps_g`` from exactly one of ``eps_g`` (rational >= 0) and ``exp_eps_g``
    (rational >= 1, or an ExpNum). Guarantee: exact. Raises: InvalidArgument."""
    if (eps_g is None) == (exp_eps_g is None):
        raise InvalidArgument("eps_g / exp_eps_g", "given, exactly one of the two", None)
    if eps_g is not None:
        return RatExp.from_eps(parse_eps(eps_g, "eps_g"))
    if isinstance(exp_eps_g, ExpNum):
        if exp_eps_g.flog() < -1e-12:
            raise InvalidArgument("exp_eps_g", "a real number >= 1", exp_eps_g)
        return exp_eps_g
    return RatExp.from_exp(parse_exp_eps(exp_eps_g, "exp_eps_g"))


def _estimate_prec(digits: int, prec: Optional[int]) -> int:
    """The balls' precision at which a request's kernel is estimated before it is built: the fixed
    ``prec``, else what the digits start at (the engines' own estimate); 128 at least (the
    precision the kernels' rates are quoted at). A request at 558 bits (the #P chain's oracle)
    was estimated at 128 bits, built (most of its time), and refused only then."""
    return max(128, prec if prec is not None else digits_to_bits(digits) + 32)


def check_dask(scheduler: object, workers: object) -> tuple[Optional[str], Optional[int]]:
    """``(scheduler, workers)`` validated: at most one given; ``workers`` an integer in
    ``[1, MAX_WORKERS]``. Guarantee: exact. Raises: InvalidArgument."""
    from ..jobs import MAX_WORKERS

    if scheduler is not None and workers is not None:
        raise InvalidArgument("scheduler / workers", "at most one of the two", f"{scheduler!r} and {workers!r}")
    if scheduler is not None:
        from ..jobs import check_scheduler

        scheduler = check_scheduler(scheduler, "scheduler")  # its form, before any work (also when unused)
    w = parse_int(workers, "workers", lo=1, hi=MAX_WORKERS) if workers is not None else None
    return scheduler, w


def resolve_engine(engine: str, prep: Prepared, t_num: Optional[ExpNum] = None, *, evals: Optional[int] = None,
                   digits: int = 30) -> Engine:
    """The engine named ``engine``; ``"auto"``: exact when every ``e^eps_i`` (and ``t``, when
    given) is rational and (given ``evals``, the evaluations of S the question needs) the
    exact engine's cost estimate is within the limits; else certified.
    Guarantee: exact. Raises: InvalidArgument."""
    parse_choice(engine, "engine", ENGINES)
    if engine == "auto":
        exact = prep.all_exact() and (t_num is None or t_num.exact() is not None) and getattr(prep, "P_refusal", None) is None
        engine = "exact" if exact else "certified"
        if exact and evals is not None:
            # exact rationals can outgrow balls by far (k = 10^5 rational e^eps): when the
            # exact engine's estimate is over the limits, auto answers with certified balls
            try:
                ENGINE_TIERS["exact"].check_cost(prep, digits, None, evals)
            except CostTooHigh:
                engine = "certified"
    return ENGINE_TIERS[engine]


@implements("Murtagh-Vadhan Theorem 1.5", "Murtagh-Vadhan Theorem 3.4")
def composed_delta(
    mechanisms: Iterable[Mechanism],
    eps_g: object = None,
    *,
    exp_eps_g: object = None,
    engine: str = "auto",
    method: str = "auto",
    digits: int = 30,
    prec: Optional[int] = None,
    scheduler: Optional[str] = None,
    workers: Optional[int] = None,
) -> DeltaResult:
    """The least ``delta_g`` such that the composition is ``(eps_g, delta_g)``-DP.

    Murtagh-Vadhan Theorem 1.5 read as a function of ``eps_g`` (the dual of
    OptComp); the same value holds under k-fold adaptive composition (their
    Theorem 3.4).

    Guarantee: ``engine="exact"``: exact (``result.exact`` is a Fraction).
    ``"certified"``: enclosure ``lower <= delta_g <= upper`` of relative width
    at most ``10^-digits`` (or, with ``prec`` given, whatever width that fixed
    precision yields; and when ``delta_g`` is undecidably at its least value
    ``1 - prod(1 - delta_i)``, e.g. a Computable ``e^eps_g`` exactly at a
    breakpoint, an enclosure ``[1 - P, 1 - P + 10^-(2 digits)]``). ``"float"``: approximate, no error bound. ``"auto"``:
    exact when every ``e^eps_i`` and ``e^eps_g`` is rational, else certified.

    Parameters:
        mechanisms: non-empty iterable of :class:`~exactdp.Mechanism`.
        eps_g: the global eps (rational >= 0), or
        exp_eps_g: ``e^{eps_g}`` (rational >= 1, or an ExpNum).
        engine: ``auto | exact | certified | float``.
        method: ``auto | homogeneous | windowed | lattice | lattice-balls | lattice-contour | windowed-groups |
            grouped | mitm | brute`` (``docs/engines.md``).
        digits: significant digits for certified / float results.
        prec: fixed working precision in bits (certified: one evaluation, no
            escalation; float: mpmath precision).
        scheduler: split the meet-in-the-middle kernel's work (its vector form) over the Dask
            scheduler at this address (``pip install 'exactdp[dask]'``); the result is identical
            to the serial one. Other kernels ignore it. At most one of ``scheduler`` and ``workers``.
        workers: the same over a local cluster of this many worker processes.

    Raises:
        InvalidArgument: bad parameters (named, with the valid range).
        NotExact: ``engine="exact"`` with an irrational ``e^eps``.
        CostTooHigh: the method's cost would explode.
        PrecisionError: the certified engine could not reach ``digits`` by
            ``MAXPREC`` bits.

    Examples:
        >>> from exactdp import Mechanism, composed_delta
        >>> r = composed_delta([Mechanism(exp_eps=2)] * 2, exp_eps_g=2)
        >>> r.exact   # exact: (4 - 2*1)/(1+2)^2
        Fraction(2, 9)
        >>> r = composed_delta([Mechanism(eps="0.1")] * 2, eps_g=0)
        >>> import math   # (e^0.2 - 1)/(1 + e^0.1)^2 = tanh(0.05)
        >>> r.engine, abs(float(r.lower) - math.tanh(0.05)) < 1e-15
        ('certified', True)
    """
    parse_choice(engine, "engine", ENGINES)
    digits = check_digits(digits)
    prec = check_prec(prec)
    t_num = eps_g_number(eps_g, exp_eps_g)
    scheduler, workers = check_dask(scheduler, workers)
    prep = Prepared(as_composition(mechanisms), method, exact_first=engine in ("auto", "exact"),
                    p_balls=True, prec=_estimate_prec(digits, prec))
    eng = resolve_engine(engine, prep, t_num, evals=1, digits=digits)
    with distributed(prep.struct, scheduler, workers):
        return eng.delta(prep, t_num, digits=digits, prec=prec)


@implements("Murtagh-Vadhan Theorem 1.5", "Murtagh-Vadhan Theorem 3.4", "Kairouz-Oh-Viswanath Theorem 3.3")
def optcomp(
    mechanisms: Iterable[Mechanism],
    delta_g: object,
    *,
    engine: str = "auto",
    method: str = "auto",
    digits: int = 30,
    prec: Optional[int] = None,
    scheduler: Optional[str] = None,
    workers: Optional[int] = None,
) -> EpsResult:
    """OptComp: the least ``eps_g >= 0`` such that the composition is ``(eps_g, delta_g)``-DP.

    Murtagh-Vadhan Theorem 1.5 (Kairouz-Oh-Viswanath for equal mechanisms);
    the same value holds under adaptive composition (their Theorem 3.4).

    Guarantee: ``engine="exact"``: exact; ``t* = e^{eps_g}`` is the rational
    ``result.exp_exact`` and ``[lower, upper]`` encloses ``ln t*`` to ``digits``.
    ``"certified"``: enclosure ``lower <= eps_g <= upper`` of relative width about
    ``10^-digits``. ``"float"``: approximate. ``"auto"``: exact when every
    ``e^eps_i`` is rational, else certified. ``result.infinite`` is True (and the
    bounds are ``inf``) when ``delta_g < 1 - prod(1 - delta_i)``.

    ``scheduler`` / ``workers``: as for :func:`composed_delta` (Dask, meet in the middle only).

    Raises:
        InvalidArgument: bad parameters (named, with the valid range).
        NotExact: ``engine="exact"`` with an irrational ``e^eps``.
        CostTooHigh: the method's cost would explode, or ``sum eps_i > MAX_SUM_EPS``.
        PrecisionError: no rigorous answer within ``MAXPREC`` bits.

    Examples:
        >>> from exactdp import Mechanism, optcomp
        >>> r = optcomp([Mechanism(exp_eps=2)] * 2, delta_g="2/9")
        >>> r.exp_exact   # exact: e^{eps_g} = 2
        Fraction(2, 1)
        >>> optcomp([Mechanism(eps=1, delta="0.1")], delta_g="0.05").infinite
        True
    """
    parse_choice(engine, "engine", ENGINES)
    digits = check_digits(digits)
    prec = check_prec(prec)
    dg = parse_delta(delta_g, "delta_g")
    scheduler, workers = check_dask(scheduler, workers)
    prep = Prepared(as_composition(mechanisms), method, exact_first=engine in ("auto", "exact"),
                    p_balls=True, prec=_estimate_prec(digits, prec))
    eng = resolve_engine(engine, prep, evals=EVALS_OPTCOMP, digits=digits)
    with distributed(prep.struct, scheduler, workers):
        return eng.epsilon(prep, dg, digits=digits, prec=prec)
