"""Noise calibration for k queries (Kairouz-Oh-Viswanath Section 4.1, made exact).

Given a total budget ``(eps_g, delta_g)`` and ``k`` queries:

* :func:`largest_eps0` the largest per-query ``eps0`` (with a fixed per-query ``delta0``)
  such that the k-fold composition of ``(eps0, delta0)``-DP mechanisms is
  ``(eps_g, delta_g)``-DP: the exact inverse of OptComp in the per-query parameter,
  not a bound. ``delta_g(eps0) = 1 - P + P S(e^eps_g) / (1 + e^eps0)^k`` (Murtagh-Vadhan
  Theorem 1.5; ``P = (1 - delta0)^k``) increases continuously in ``eps0``, so the answer is
  the root of ``delta_g(eps0) = delta_g``; it is enclosed between two rationals, the lower
  certified feasible and the upper certified infeasible by the certified engine.
* from it, the Laplace scale ``b = Delta / eps0`` (variance ``2 b^2``), the two-sided
  geometric parameter ``alpha = e^(-eps0 / Delta)`` (integer queries), the randomized
  response's probability of a truthful answer ``e^eps0 / (1 + e^eps0)``;
* the least Gaussian ``sigma`` such that ``k`` Gaussian queries of sensitivity ``Delta``
  meet ``(eps_g, delta_g)``: they compose to mu-GDP with ``mu = sqrt(k) Delta / sigma``
  exactly, so ``sigma* = sqrt(k) Delta / mu*`` with ``mu*`` the largest mu whose GDP curve
  meets the budget (:func:`~exactdp.gdp.gdp_mu`, certified).
* beside them, the paper's statements (``paper=True``): Corollary 4.1's per-query
  ``(eps / (2 sqrt(k log(e + eps/delta))), delta/2k)``, Theorem 4.2's Laplace and Theorem
  4.3's Gaussian variance ``8 k Delta^2 log(e + eps/delta) / eps^2``, each with its ratio to
  the exact value and a rigorous verdict on whether it meets the budget.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Optional

from .._backend import arb, workprec
from ..engines import composed_delta
from ..errors import InvalidArgument, PrecisionError
from ..events import Composition, Mechanism
from ..fdp.gaussian import delta_at_most as _decide_le
from ..gdp import gdp_mu
from ..links import implements
from ..numbers import (
    Enclosure,
    RatExp,
    arb_bounds,
    arb_of_fraction,
    parse_delta,
    parse_eps,
    parse_exp_eps,
    parse_int,
    parse_positive,
    refine,
    start_prec,
)

__all__ = ["Calibration", "calibrate", "largest_eps0", "PaperStatement"]

#: Most iterations of the eps0 search (each one OptComp evaluation, certified).
MAX_SEARCH_STEPS = 400




def _t(eps_g: object, exp_eps_g: object) -> RatExp:
    if (eps_g is None) == (exp_eps_g is None):
        raise InvalidArgument("eps_g / exp_eps_g", "given, exactly one of the two", None)
    return RatExp.from_eps(parse_eps(eps_g, "eps_g")) if eps_g is not None else RatExp.from_exp(parse_exp_eps(exp_eps_g, "exp_eps_g"))


def _round(x: Fraction, sig: int) -> Fraction:
    """``x > 0`` rounded to ``sig`` significant binary digits (keeps the search's rationals short)."""
    if x <= 0:
        return Fraction(0)
    e = x.numerator.bit_length() - x.denominator.bit_length()
    sh = sig - e
    if sh >= 0:
        return Fraction(round(x * (1 << sh)), 1 << sh)
    return Fraction(round(x / (1 << -sh)) * (1 << -sh))


def _decide(eps0: Fraction, d0: Fraction, k: int, t: RatExp, dg: Fraction) -> Optional[bool]:
    """Is the k-fold composition of (eps0, d0) (eps_g, dg)-DP? Certified; None when too close to call."""
    comp = Composition([(Mechanism(eps=eps0, delta=d0), k)])
    # not numbers.precision.refine: the digits of a public call rise (each call runs its own
    # refine), and "too close to call" is an answer (None), not a PrecisionError
    for digits in (20, 45, 90):
        r = composed_delta(comp, exp_eps_g=t, digits=digits)
        if r.upper <= dg:
            return True
        if r.lower > dg:
            return False
    return None


@implements("Murtagh-Vadhan Theorem 1.5", "Kairouz-Oh-Viswanath Theorem 3.3")
def largest_eps0(eps_g: object = None, delta_g: object = 0, k: int = 1, *, exp_eps_g: object = None,
                 delta0: object = 0, digits: int = 15) -> Enclosure:
    """The largest ``eps0`` such that ``k`` (eps0, delta0)-DP mechanisms compose to (eps_g, delta_g)-DP.

    Guarantee: enclosure ``[lower, upper]`` of relative width about ``10^-digits`` whose ends are
    each certified: ``lower`` is feasible, ``upper`` is not (so the exact answer lies between and
    ``lower`` is a safe choice). Exact (a point) when ``delta_g = 1 - (1 - delta0)^k`` and eps_g is
    rational: then ``eps0 = eps_g / k``.

    Raises:
        InvalidArgument: bad numbers, or ``delta_g < 1 - (1 - delta0)^k`` (no eps0 >= 0 works).
        PrecisionError: the search did not converge.

    Examples:
        >>> largest_eps0(exp_eps_g=2, delta_g="1/10", k=1).decimal(12)   # e^eps0 = (2 + 1/10)/(1 - 1/10) = 7/3
        ('0.847297860387', '0.847297860388')
        >>> largest_eps0(1, "1e-6", k=10, digits=6).decimal(6)   # just above eps_g / k = 0.1
        ('0.100062', '0.100063')

    References:
        Murtagh-Vadhan Theorem 1.5; Kairouz-Oh-Viswanath Section 4.1 (the question) and Theorem 3.3.
    """
    t = _t(eps_g, exp_eps_g)
    dg = parse_delta(delta_g, "delta_g")
    k = parse_int(k, "k", lo=1)
    d0 = parse_delta(delta0, "delta0")
    P = (1 - d0) ** k
    if dg < 1 - P:
        raise InvalidArgument("delta_g", f"at least 1 - (1 - delta0)^k = {float(1 - P):.6g} (no eps0 >= 0 meets the budget)",
                              delta_g if isinstance(delta_g, str) else str(dg))
    eg = t.log_exact() if t.log_exact() is not None else (Fraction(0) if t.is_one() else None)
    if dg == 1 - P:
        if eg is not None:
            return Enclosure.point(eg / k)
        return Enclosure.log_of_rational(t.q, digits + 2)  # pragma: no cover - scaled below
    # lo: a certified feasible eps0 (eps_g / k is: the composition is then (k eps0, 1 - P)-DP)
    sig = int(digits * 3.33) + 20
    if eg is not None:
        lo = eg / k
    else:
        with workprec(128):
            lo = _round(arb_bounds(t.arb(128).log() / k)[0], sig)
        while lo > 0 and _decide(lo, d0, k, t, dg) is not True:
            lo = _round(lo / 2, sig)
    hi = max(lo * 2, Fraction(1, k))
    while True:
        v = _decide(hi, d0, k, t, dg)
        if v is False:
            break
        if v is True:
            lo = hi
        hi *= 2
        if hi > 10**6:
            raise PrecisionError("largest_eps0: no infeasible eps0 below 1e6")
    tol = Fraction(1, 10**digits)
    side = 0
    f_lo: Optional[float] = None
    f_hi: Optional[float] = None
    for _ in range(MAX_SEARCH_STEPS):
        if hi - lo <= tol * hi:
            return Enclosure(lo, hi)
        # Illinois regula falsi on the float values of delta_g(eps0) - delta_g, bisection as fallback
        if f_lo is not None and f_hi is not None and f_hi > f_lo:
            m = lo + (hi - lo) * Fraction(-f_lo / (f_hi - f_lo))
            if not (lo < m < hi) or (hi - lo) > hi / 4:
                m = (lo + hi) / 2
        else:
            m = (lo + hi) / 2
        m = _round(m, sig)
        if not (lo < m < hi):
            m = (lo + hi) / 2
        comp = Composition([(Mechanism(eps=m, delta=d0), k)])
        r = composed_delta(comp, exp_eps_g=t, digits=20)
        fm = float(r.lower) - float(dg)
        v = True if r.upper <= dg else False if r.lower > dg else _decide(m, d0, k, t, dg)
        if v is True:
            lo, f_lo = m, fm
            if side == 1 and f_hi is not None:
                f_hi /= 2
            side = 1
        elif v is False:
            hi, f_hi = m, fm
            if side == -1 and f_lo is not None:
                f_lo /= 2
            side = -1
        else:
            # m is within ~1e-90 of the root: bracket it by a small relative step each way
            step = m * tol / 8
            a, b = m - step, m + step
            if _decide(a, d0, k, t, dg) is True and _decide(b, d0, k, t, dg) is False:
                return Enclosure(a, b)
            f_lo = f_hi = None
            m2 = (lo + m) / 2
            if _decide(m2, d0, k, t, dg) is True:
                lo = m2
            else:
                hi = m2
    raise PrecisionError(f"largest_eps0: no convergence in {MAX_SEARCH_STEPS} steps")


@dataclass(frozen=True, kw_only=True)
class PaperStatement:
    """One of KOV Section 4.1's recommendations beside the exact value.

    ``value`` encloses the paper's number; ``exact`` the exact counterpart; ``ratio`` is
    ``value / exact`` (enclosure; > 1 means the paper asks for more noise, or for a smaller
    eps0 in Corollary 4.1's inverted ratio); ``meets`` is the certified verdict on whether the
    paper's choice meets the budget (None: undecided); ``in_range`` whether the budget is inside
    the statement's hypotheses.
    """

    statement: str
    quantity: str
    value: Enclosure
    exact: Enclosure
    ratio: Enclosure
    meets: Optional[bool]
    in_range: bool
    note: str = ""

    def to_dict(self, digits: int = 15) -> dict:
        return {"statement": self.statement, "quantity": self.quantity, "value": self.value.to_dict(digits),
                "exact": self.exact.to_dict(digits), "ratio": self.ratio.to_dict(digits), "meets_budget": self.meets,
                "in_stated_range": self.in_range, "note": self.note}


@dataclass(frozen=True, kw_only=True)
class Calibration:
    """The outcome of :func:`calibrate`; every number an :class:`~exactdp.numbers.Enclosure` of the exact value.

    ``eps0`` the largest per-query eps0 (at ``delta0``); ``laplace_scale`` / ``laplace_variance``
    the least Laplace noise; ``geometric_alpha`` the largest two-sided geometric parameter;
    ``rr_keep_probability`` the randomized response's largest truthful-answer probability;
    ``gaussian_mu`` the largest mu, ``gaussian_sigma`` the least Gaussian standard deviation.
    The upper end of every "least" quantity (and the lower end of every "largest") is a safe choice.
    """

    eps_g: str
    delta_g: Fraction
    k: int
    sensitivity: Fraction
    delta0: Fraction
    eps0: Enclosure
    laplace_scale: Enclosure
    laplace_variance: Enclosure
    geometric_alpha: Enclosure
    rr_keep_probability: Enclosure
    gaussian_mu: Enclosure
    gaussian_sigma: Enclosure
    paper: list = field(default_factory=list)

    def __repr__(self) -> str:
        from dataclasses import fields

        from ..numbers.fmt import fields_repr

        return fields_repr(self, [f.name for f in fields(self)])  # huge numbers elided, never a failure

    def to_dict(self, digits: int = 15) -> dict:
        """The ``exactdp calibrate --json`` object. Guarantee: enclosures rounded outward. Raises: nothing."""
        d = {"eps_g": self.eps_g, "delta_g": str(self.delta_g), "k": self.k, "sensitivity": str(self.sensitivity),
             "delta0": str(self.delta0)}
        for name in ("eps0", "laplace_scale", "laplace_variance", "geometric_alpha", "rr_keep_probability",
                     "gaussian_mu", "gaussian_sigma"):
            d[name] = getattr(self, name).to_dict(digits)
        if self.paper:
            d["paper"] = [p.to_dict(digits) for p in self.paper]
        return d


def _enc(fn, digits: int) -> Enclosure:
    """Enclosure of an Arb expression evaluated at rising precision (ends exact)."""
    last = start_prec(digits + 2) << 6  # six doublings; the widest answer there is still an enclosure

    def step(prec: int) -> Optional[Enclosure]:
        with workprec(prec):
            v = fn()
            if not v.is_finite():
                return Enclosure(*arb_bounds(v)) if prec >= last else None
            e = Enclosure(*arb_bounds(v))
            return e if prec >= last or e.accurate(digits + 2) else None

    return refine(step, digits=digits + 2, maxprec=last, what="calibration enclosure")


def _monotone(e: Enclosure, fn, decreasing: bool, digits: int) -> Enclosure:
    """The image of the enclosure ``e`` under a monotone Arb function, outward."""
    a = _enc(lambda: fn(arb_of_fraction(e.lower)), digits)
    b = _enc(lambda: fn(arb_of_fraction(e.upper)), digits)
    return Enclosure(b.lower, a.upper) if decreasing else Enclosure(a.lower, b.upper)


def calibrate(eps_g: object = None, delta_g: object = 0, k: int = 1, *, exp_eps_g: object = None, sensitivity: object = 1,
              delta0: object = 0, digits: int = 15, paper: bool = False) -> Calibration:
    """Per-query noise for ``k`` queries under a total budget (see the module docstring).

    Guarantee: every field an enclosure of the exact value; the per-query eps0 is the exact
    inverse of OptComp (both ends certified), the Gaussian sigma is exact through GDP (both
    ends certified). ``paper=True`` adds KOV Corollary 4.1 and Theorems 4.2-4.3 beside them.

    Raises:
        InvalidArgument: bad numbers, sensitivity <= 0, delta_g below 1 - (1 - delta0)^k.
        PrecisionError: a search did not converge.

    Examples:
        >>> c = calibrate(1, "1e-6", k=10, digits=6)
        >>> c.eps0.decimal(6), c.gaussian_sigma.decimal(6)
        (('0.100062', '0.100063'), ('13.3596', '13.3597'))

    References:
        Kairouz-Oh-Viswanath Section 4.1, Corollary 4.1, Theorems 4.2-4.3; Dong-Roth-Su (JRSS-B 2022), the GDP-to-(eps, delta) corollary.
    """
    t = _t(eps_g, exp_eps_g)
    dg = parse_delta(delta_g, "delta_g")
    k = parse_int(k, "k", lo=1)
    S = parse_positive(sensitivity, "sensitivity")
    d0 = parse_delta(delta0, "delta0")
    eps0 = largest_eps0(exp_eps_g=t.q, delta_g=dg, k=k, delta0=d0, digits=digits) if t.r == 0 else \
        largest_eps0(eps_g=t.r, delta_g=dg, k=k, delta0=d0, digits=digits)
    inf = Enclosure.infinity()
    if eps0.upper == 0:
        lap = var = inf
    elif eps0.lower > 0:
        lap = _monotone(eps0, lambda x: arb_of_fraction(S) / x, True, digits)
        var = Enclosure(2 * lap.lower ** 2, 2 * lap.upper ** 2)  # type: ignore[operator]
    else:
        lap = Enclosure(S / eps0.upper, math.inf)  # type: ignore[operator]
        var = Enclosure(2 * lap.lower ** 2, math.inf)  # type: ignore[operator]
    geo = _monotone(eps0, lambda x: (-x / arb_of_fraction(S)).exp(), True, digits).clamp(Fraction(0), Fraction(1))
    rr = _monotone(eps0, lambda x: x.exp() / (1 + x.exp()), False, digits).clamp(Fraction(1, 2), Fraction(1))
    mu = gdp_mu(exp_eps=t.q, delta=dg, digits=digits) if t.r == 0 else gdp_mu(eps=t.r, delta=dg, digits=digits)
    if mu.upper == 0:
        sigma = inf
    else:
        hi = _enc(lambda: arb(k).sqrt() * arb_of_fraction(S) / arb_of_fraction(mu.lower), digits).upper if mu.lower > 0 else math.inf
        lo = _enc(lambda: arb(k).sqrt() * arb_of_fraction(S) / arb_of_fraction(mu.upper), digits).lower
        sigma = Enclosure(lo, hi)
    eg = str(eps_g) if eps_g is not None else f"log({exp_eps_g})"
    cal = Calibration(eps_g=eg, delta_g=dg, k=k, sensitivity=S, delta0=d0, eps0=eps0, laplace_scale=lap, laplace_variance=var, geometric_alpha=geo, rr_keep_probability=rr, gaussian_mu=mu, gaussian_sigma=sigma)
    if paper:
        object.__setattr__(cal, "paper", _paper(t, dg, k, S, cal, digits))
    return cal


@implements("Kairouz-Oh-Viswanath Corollary 4.1", "Kairouz-Oh-Viswanath Theorem 4.2", "Kairouz-Oh-Viswanath Theorem 4.3")
def _paper(t: RatExp, dg: Fraction, k: int, S: Fraction, cal: Calibration, digits: int) -> list:
    """KOV Section 4.1's statements beside the exact values (see :class:`PaperStatement`)."""
    out: list = []
    if dg == 0:
        return out
    eps_num = (lambda: arb_of_fraction(t.r)) if t.q == 1 else (lambda: arb_of_fraction(t.q).log() + arb_of_fraction(t.r))
    L = lambda: (arb.const_e() + eps_num() / arb_of_fraction(dg)).log()  # noqa: E731

    in41 = (t.q == 1 and 0 < t.r <= Fraction(9, 10)) or (t.q != 1 and t.r == 0 and t.q <= Fraction(24596, 10000))
    e0p = _enc(lambda: eps_num() / (2 * (k * L()).sqrt()), digits)
    # Corollary 4.1: (eps0_p, delta/2k) per query
    d0p = dg / (2 * k)
    ex41 = largest_eps0(exp_eps_g=t.q, delta_g=dg, k=k, delta0=d0p, digits=digits) if t.r == 0 else \
        largest_eps0(eps_g=t.r, delta_g=dg, k=k, delta0=d0p, digits=digits)
    meets41 = _meets_eps0(e0p, d0p, k, t, dg)
    out.append(PaperStatement(statement="Kairouz-Oh-Viswanath Corollary 4.1", quantity="per-query eps0 (with delta0 = delta/2k)", value=e0p, exact=ex41,
                              ratio=_ratio(e0p, ex41), meets=meets41, in_range=in41, note="ratio < 1: the paper's eps0 is smaller than needed"))
    # Theorem 4.2: Laplace with variance 8 k D^2 L / eps^2, i.e. eps0 = eps/(2 sqrt(k L)) per query, delta0 = 0
    vp = _enc(lambda: 8 * k * arb_of_fraction(S) ** 2 * L() / eps_num() ** 2, digits)
    if cal.delta0 == 0:
        vex = cal.laplace_variance
    else:
        e0 = largest_eps0(exp_eps_g=t.q, delta_g=dg, k=k, digits=digits) if t.r == 0 else \
            largest_eps0(eps_g=t.r, delta_g=dg, k=k, digits=digits)
        vex = _monotone(e0, lambda x: 2 * (arb_of_fraction(S) / x) ** 2, True, digits)
    out.append(PaperStatement(statement="Kairouz-Oh-Viswanath Theorem 4.2", quantity="Laplace noise variance", value=vp, exact=vex, ratio=_ratio(vp, vex),
                              meets=_meets_eps0(e0p, Fraction(0), k, t, dg), in_range=in41, note="ratio > 1: the paper adds more noise than needed"))
    # Theorem 4.3: Gaussian with the same variance; mu^2 = k D^2 / variance = eps^2 / (8 L)
    sig2 = Enclosure(cal.gaussian_sigma.lower ** 2, cal.gaussian_sigma.upper ** 2) if not cal.gaussian_sigma.infinite else cal.gaussian_sigma
    mu2 = _enc(lambda: eps_num() ** 2 / (8 * L()), digits)
    m_hi = _decide_le(mu2.upper, t, dg)
    m_lo = _decide_le(mu2.lower, t, dg)
    meets43 = True if m_hi is True else (False if m_lo is False else None)
    out.append(PaperStatement(statement="Kairouz-Oh-Viswanath Theorem 4.3", quantity="Gaussian noise variance", value=vp, exact=sig2, ratio=_ratio(vp, sig2),
                              meets=meets43, in_range=True, note="ratio > 1: more noise than needed; meets_budget false: the statement fails here"))
    # the corrected statement (docs/regions.md): variance max(8 k D^2 L / eps^2, k D^2 / eps), i.e. mu^2 = min(eps^2/(8L), eps)
    vc = _enc(lambda: arb_of_fraction(S) ** 2 * k * (8 * L() / eps_num() ** 2).max(1 / eps_num()), digits)
    mu2c = _enc(lambda: (eps_num() ** 2 / (8 * L())).min(eps_num()), digits)
    c_hi = _decide_le(mu2c.upper, t, dg)
    c_lo = _decide_le(mu2c.lower, t, dg)
    meetsc = True if c_hi is True else (False if c_lo is False else None)
    out.append(PaperStatement(statement="Kairouz-Oh-Viswanath Theorem 4.3 (corrected)", quantity="Gaussian noise variance max(8k D^2 L/eps^2, k D^2/eps)",
                              value=vc, exact=sig2, ratio=_ratio(vc, sig2), meets=meetsc, in_range=True, note="the correction adds k D^2/eps: mu^2 <= eps"))
    return out


def _ratio(a: Enclosure, b: Enclosure) -> Enclosure:
    if b.infinite or b.lower <= 0 or a.infinite:
        return Enclosure.infinity()
    return Enclosure(a.lower / b.upper, a.upper / b.lower)


def _meets_eps0(e0p: Enclosure, d0: Fraction, k: int, t: RatExp, dg: Fraction) -> Optional[bool]:
    """Does the k-fold composition at the paper's (irrational) eps0 meet the budget? Monotone in eps0:
    feasible at a rational above it proves yes, infeasible at one below proves no."""
    if dg < 1 - (1 - d0) ** k:
        return False
    if _decide(e0p.upper, d0, k, t, dg) is True:
        return True
    if _decide(e0p.lower, d0, k, t, dg) is False:
        return False
    return None
