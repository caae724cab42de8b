"""The certified sandwich: rigorous bounds on OptComp and on delta_g from two lattices.

OptComp and ``delta_g`` are increasing in every eps_i (a mechanism with smaller
eps is a post-processing of one with larger eps), so rounding each eps_i down
and up to a lattice gives rigorous lower and upper bounds, refined (the lattice
halved) until a requested width. With ``base="exp"`` the lattice is ``u = 1 + 1/N``
in exp-space and every computation is exact rational arithmetic.

References: Murtagh-Vadhan Theorem 1.7 and Lemma 5.3 (the gap); DESIGN.md, lattice path.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Optional

from ..engines.api import check_digits
from ..engines.costs import (
    EVALS_DELTA,
    EVALS_OPTCOMP,
    MAX_POLY_BITS,
    Estimate,
    current_limits,
    poly_cost,
)
from ..engines.family import ENGINE_TIERS
from ..engines.inverse import Target
from ..engines.lattice import lattice_build, lattice_eval
from ..engines.results import EnclosedResult
from ..errors import CostTooHigh, InvalidArgument
from ..events import Composition, as_composition
from ..numbers import (
    Enclosure,
    ExpNum,
    RatExp,
    fraction_str,
    parse_choice,
    parse_delta,
    parse_eps,
    parse_exp_eps,
    parse_int,
    parse_positive,
)
from ..numbers.enclosure import End
from .lattice import LatticeProblem, exponent, optcomp_lattice

__all__ = ["Bounds", "optcomp_bounds", "delta_bounds"]


@dataclass(frozen=True, kw_only=True, repr=False)
class Bounds(EnclosedResult):
    """Rigorous bounds ``lower <= value <= upper`` from the lattice sandwich.

    Guarantee: lower bound / upper bound (rigorous); ``width_reached`` says
    whether the requested width was met. Raises: nothing (a frozen record).
    """

    value: Enclosure
    base: str
    eps0: Optional[Fraction]
    exp_base: Optional[Fraction]
    degree: int
    levels: int
    width_reached: bool
    exact_lower: Optional[Fraction] = None
    exact_upper: Optional[Fraction] = None

    def to_dict(self, digits: int = 30) -> dict:
        """JSON-serialisable bounds (rounded outward). Guarantee: lower / upper bound. Raises: nothing."""
        return {
            **self.value.to_dict(digits, exact_key=False),
            "infinite": self.infinite,
            "base": self.base,
            "eps0": fraction_str(self.eps0) if self.eps0 is not None else None,
            "exp_base": fraction_str(self.exp_base) if self.exp_base is not None else None,
            "lattice_degree": self.degree,
            "levels": self.levels,
            "width_reached": self.width_reached,
        }


def _start_lattice(ms: Composition, base: str, width: Fraction):
    """First lattice of the sandwich: about 4 lattice points per mechanism... a
    dyadic eps0 (base "eps") or N = 2^n (base "exp") with degree >= 4k."""
    k = ms.k
    total = math.fsum(n * max(m.w.flog(), 0.0) for m, n in ms.groups())
    if total <= 0:
        total = 1.0
    step = total / (4 * k)
    n = max(0, int(math.ceil(-math.log2(step)))) if step < 1 else 0
    return n


def _lattice_at(ms, base: str, n: int):
    if base == "eps":
        e0 = Fraction(1, 2**n)
        return RatExp.from_eps(e0), e0, None
    N = 2**n
    ub = Fraction(N + 1, N)
    return RatExp.from_exp(ub), None, ub


def _sandwich_levels(ms, base: str, wd: Fraction, max_degree: int):
    """The sandwich's ever finer lattices: yields ``(u, e0, ub, a_lo, a_hi)`` (the eps_i
    rounded down and up to the lattice of base u) until one would exceed the limits.

    Raises:
        CostTooHigh: already the first lattice is too big.
    """
    n = _start_lattice(ms, base, wd)
    levels = 0
    spent = 0.0  # estimated seconds of the levels run so far
    while True:
        u, e0, ub = _lattice_at(ms, base, n)
        if _sandwich_level_too_big(ms, u, max_degree, levels):
            return
        lo_of = {m.w: exponent(m.w, u, "down") for m, _ in ms.groups()}
        hi_of = {m.w: exponent(m.w, u, "up") for m, _ in ms.groups()}
        # the rounded exponents as sorted (a_i, count) pairs, never one per mechanism
        a_lo, a_hi = _exponent_groups(ms, lo_of), _exponent_groups(ms, hi_of)
        deg = sum(a * n for a, n in a_hi)
        if deg > max_degree:
            if levels == 0:
                raise CostTooHigh("width", f"the first lattice already has degree {deg} > max_degree={max_degree}",
                                  estimate=deg, limit=max_degree, alternative="a larger max_degree")
            return
        # each level builds two count polynomials; refinement stops (best bounds so far,
        # width_reached False) before the levels together would pass the limits in force
        est = _level_estimate(ms, lo_of, hi_of)
        sec_lim, mem_lim = current_limits()
        if levels and (spent + est.seconds > sec_lim or est.bytes > mem_lim):
            return
        spent += est.seconds
        levels += 1
        yield u, e0, ub, a_lo, a_hi
        n += 1


def _exponent_groups(ms, of: dict) -> list[tuple[int, int]]:
    """The lattice exponents ``of[w_i]`` of the composition as sorted pairs ``(a, count)``."""
    c: dict = {}
    for m, n in ms.groups():
        c[of[m.w]] = c.get(of[m.w], 0) + n
    return sorted(c.items())


def _degree(groups: list[tuple[int, int]]) -> int:
    return sum(a * n for a, n in groups)


def _level_estimate(ms, lo_of: dict, hi_of: dict) -> Estimate:
    """Estimated time (both polynomials) and peak memory (the larger) of one sandwich level."""
    out = []
    for of in (lo_of, hi_of):
        g = _exponent_groups(ms, of)
        A = sum(a * n for a, n in g)
        kp = sum(n for a, n in g if a > 0)
        out.append(lattice_build(g).then(lattice_eval(A, kp, "arb", 128), EVALS_OPTCOMP))
    return Estimate(out[0].seconds + out[1].seconds, max(out[0].bytes, out[1].bytes))


def _sandwich_level_too_big(ms, u, max_degree: int, levels: int) -> bool:
    """True when the next sandwich lattice would exceed the limits (refinement stops there).

    Raises:
        CostTooHigh: already the first lattice is too big (``levels == 0``).
    """
    lu = u.flog()
    A_est = math.fsum(n * max(m.w.flog(), 0.0) for m, n in ms.groups()) / lu if lu > 0 else math.inf
    if A_est <= 2 * max_degree + ms.k and ms.k * A_est <= MAX_POLY_BITS:
        return False
    if levels == 0:
        if math.isfinite(A_est):
            mem, sec = poly_cost(ms.k, int(A_est))
            size = f"degree about {A_est:.3g}"
            cost = f"; estimated {mem / 1e9:.3g} GB, {sec:.3g} s"
        else:  # sum of eps beyond the float range (eps = 1e309): no count of it fits a float
            mem = sec = math.inf
            size, cost = "a degree beyond 1e308 (the sum of eps_i is beyond the float range)", ""
        raise CostTooHigh(
            "width",
            f"the first lattice already has {size} (max_degree={max_degree}, k*A limit "
            f"{MAX_POLY_BITS:.3g}{cost})",
            estimate={"degree": A_est, "bytes": mem, "seconds": sec}, limit={"degree": max_degree, "k*A": MAX_POLY_BITS},
            alternative="a wider width",
        )
    return True


def optcomp_bounds(
    mechanisms,
    delta_g: object,
    *,
    width: object = "1e-6",
    base: str = "eps",
    max_degree: int = 4_000_000,
    digits: int = 20,
) -> Bounds:
    """Rigorous bounds on OptComp by rounding every eps_i down and up to a lattice.

    OptComp is increasing in every eps_i (a mechanism with smaller eps is a
    post-processing of one with larger eps), so with ``a_i = floor`` and
    ``ceil`` of ``ln w_i / ln u``::

        OptComp(u^{a_floor}) <= OptComp(w) <= OptComp(u^{a_ceil})

    and both ends are lattice problems, solved exactly by the fast form. The
    lattice is refined (eps0 halved, or N doubled) until ``upper - lower <=
    width``. ``base="eps"``: ``u = e^{eps0}``, ``eps0 = 2^-n`` (Arb enclosures);
    ``base="exp"``: ``u = 1 + 1/N``, ``N = 2^n``, every computation in exact
    rationals (``exact_lower`` / ``exact_upper`` hold ``e^{bound}``).

    Guarantee: ``lower <= OptComp(delta_g) <= upper`` (rigorous). If the width
    is not reached by ``max_degree``, the best bounds are returned with
    ``width_reached = False``.

    Raises:
        InvalidArgument: bad mechanisms, delta_g, width <= 0, unknown base.
        PrecisionError: no rigorous answer by ``MAXPREC`` bits.

    Examples:
        >>> from exactdp import mechanisms
        >>> b = optcomp_bounds(mechanisms(exp_eps=["11/10", "6/5", "13/10"]), "1/100", width="1e-3", base="exp")
        >>> b.upper - b.lower <= Fraction(1, 1000), b.width_reached
        (True, True)

    References:
        Murtagh-Vadhan Theorem 1.7 and Lemma 5.3 (the gap); DESIGN.md, lattice path.
    """
    ms = as_composition(mechanisms)
    dg = parse_delta(delta_g, "delta_g")
    digits = check_digits(digits)
    wd = parse_positive(width, "width")
    base = parse_choice(base, "base", ("eps", "exp"))
    max_degree = parse_int(max_degree, "max_degree", lo=1)
    tau = Target(ms.delta_product, dg)
    if tau.sign() < 0:
        return Bounds(value=Enclosure.infinity(), base=base, eps0=None, exp_base=None, degree=0, levels=0, width_reached=True)
    lo_best: End = Fraction(0)
    hi_best: End = math.inf
    ex_lo = ex_hi = None
    levels = 0
    last = (None, None, 0)
    for u, e0, ub, a_lo, a_hi in _sandwich_levels(ms, base, wd, max_degree):
        try:
            r_lo = optcomp_lattice(LatticeProblem(u, groups=a_lo, parameter="width"), tau, digits)
            r_hi = r_lo if a_hi == a_lo else optcomp_lattice(LatticeProblem(u, groups=a_hi, parameter="width"), tau, digits)
        except CostTooHigh:
            if not levels:
                raise
            break  # a finer level over the limits: the best bounds so far
        levels += 1
        if levels == 1 or r_lo.value.lower > lo_best:  # type: ignore[operator]
            lo_best, ex_lo = r_lo.value.lower, r_lo.exp_exact
        if levels == 1 or r_hi.value.upper < hi_best:  # type: ignore[operator]
            hi_best, ex_hi = r_hi.value.upper, r_hi.exp_exact
        last = (e0, ub, _degree(a_hi))
        if hi_best - lo_best <= wd:  # type: ignore[operator]
            return Bounds(value=Enclosure(lo_best, hi_best), base=base, eps0=e0, exp_base=ub, degree=_degree(a_hi), levels=levels, width_reached=True, exact_lower=ex_lo, exact_upper=ex_hi)
    return Bounds(value=Enclosure(lo_best, hi_best), base=base, eps0=last[0], exp_base=last[1], degree=last[2], levels=levels, width_reached=False, exact_lower=ex_lo, exact_upper=ex_hi)


def _delta_lattice(lat: LatticeProblem, t_num: ExpNum, digits: int) -> Enclosure:
    """Enclosure of delta_g at ``t = e^{eps_g}`` for ``w_i' = u^{a_i}`` (Theorem 1.5, by the engines)."""
    engine = lat.engine_kind(lat.uq is not None and t_num.exact() is not None, digits, EVALS_DELTA)
    return ENGINE_TIERS[engine].delta(lat, t_num, digits=digits).value


def delta_bounds(
    mechanisms,
    eps_g: object = None,
    *,
    exp_eps_g: object = None,
    width: object = "1e-9",
    base: str = "eps",
    max_degree: int = 4_000_000,
    digits: int = 20,
    stop=None,
) -> Bounds:
    """Rigorous bounds on ``delta_g(eps_g)`` by the lattice sandwich.

    ``delta_g`` at a fixed eps_g is increasing in every eps_i, so the rounded
    down and rounded up lattices bracket it (see :func:`optcomp_bounds`). The
    lattice is refined until ``upper - lower <= width`` (absolute), or until
    ``stop(lower, upper)`` returns True (used by :func:`exactdp.certify.certify`
    to stop as soon as a claim is decided).

    Guarantee: ``lower <= delta_g <= upper`` (rigorous); ``width_reached`` is
    False when ``max_degree`` ended the refinement first.

    Raises:
        InvalidArgument: bad mechanisms, eps_g, width, base.
        PrecisionError: no rigorous answer by ``MAXPREC`` bits.

    Examples:
        >>> from exactdp import mechanisms
        >>> b = delta_bounds(mechanisms(exp_eps=["11/10", "6/5"]), exp_eps_g="11/10", width="1e-4", base="exp")
        >>> b.lower <= Fraction(1, 21) <= b.upper   # exact: (6/5 * 11/10 - 11/10) / ((1 + 11/10)(1 + 6/5))
        True

    References:
        Murtagh-Vadhan Theorem 1.5 (delta_g as a function of eps_g), Theorem 1.7.
    """
    ms = as_composition(mechanisms)
    digits = check_digits(digits)
    if (eps_g is None) == (exp_eps_g is None):
        raise InvalidArgument("eps_g / exp_eps_g", "given, exactly one of the two", None)
    if eps_g is not None:
        t_num: ExpNum = RatExp.from_eps(parse_eps(eps_g, "eps_g"))
    else:
        t_num = RatExp.from_exp(parse_exp_eps(exp_eps_g, "exp_eps_g"))
    wd = parse_positive(width, "width")
    base = parse_choice(base, "base", ("eps", "exp"))
    P = ms.delta_product
    lo_best, hi_best = Fraction(0), Fraction(1)
    levels = 0
    last = (None, None, 0)
    for u, e0, ub, a_lo, a_hi in _sandwich_levels(ms, base, wd, max_degree):
        try:
            lo = _delta_lattice(LatticeProblem(u, groups=a_lo, P=P, parameter="width"), t_num, digits).lower
            hi = _delta_lattice(LatticeProblem(u, groups=a_hi, P=P, parameter="width"), t_num, digits).upper
        except CostTooHigh:
            if not levels:
                raise
            break  # a finer level over the limits: the best bounds so far
        levels += 1
        lo_best, hi_best = max(lo_best, lo), min(hi_best, hi)
        last = (e0, ub, _degree(a_hi))
        if hi_best - lo_best <= wd or (stop is not None and stop(lo_best, hi_best)):
            return Bounds(value=Enclosure(lo_best, hi_best), base=base, eps0=e0, exp_base=ub, degree=_degree(a_hi), levels=levels, width_reached=hi_best - lo_best <= wd)
    return Bounds(value=Enclosure(lo_best, hi_best), base=base, eps0=last[0], exp_base=last[1], degree=last[2], levels=levels, width_reached=False)

