"""The engine family: one interface, three guarantee tiers (DESIGN.md, "three engines").

Every engine answers the same two questions about a prepared composition:

* ``delta(prep, t_num, digits=, prec=) -> DeltaResult``: the least ``delta_g`` at ``e^eps_g = t``;
* ``epsilon(prep, delta_g, digits=, prec=) -> EpsResult``: OptComp, the least ``eps_g`` at ``delta_g``;

and states its tier in ``guarantee``:

=========== ============== ===========================================================
engine      guarantee      numbers
=========== ============== ===========================================================
exact       exact          gmpy2 rationals; refuses irrational ``e^eps`` (NotExact)
certified   enclosure      Arb balls at rising precision, accurate to ``digits`` (relative)
float       approximate    Arb balls, undecided signs guessed by midpoints; about ``digits``
=========== ============== ===========================================================

``delta_g(t) = (1 - P) + P S(t) / Z`` (Murtagh-Vadhan Theorem 1.5 in exp-space); the
inverse is :mod:`.inverse`. Other accountants (the lattice sandwich, Theorem 1.7,
peers under audit) answer the same questions in their own modules.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Optional

from .._backend import workprec
from ..errors import CostTooHigh, NotExact, PrecisionError
from ..numbers import (
    MAXPREC,
    Enclosure,
    ExpNum,
    arb_bounds,
    arb_of_fraction,
    digits_to_bits,
    log_sign_of_product,
    refine,
)
from .base import Prepared
from .costs import EVALS_DELTA, EVALS_OPTCOMP, MAX_SUM_EPS, Estimate, check_estimate, current_limits
from .fields import ArbField, ExactField, FloatField
from .inverse import BallP, Inverse, Target, check_round, eps_at_W, invert_certified, invert_exact, invert_float
from .results import DeltaResult, EpsResult

__all__ = ["Engine", "ExactEngine", "CertifiedEngine", "FloatEngine", "ENGINE_TIERS"]


class Engine:
    """The interface every engine answers (see the module docstring)."""

    name = "abstract"
    guarantee = "none"

    def delta(self, prep: Prepared, t_num: ExpNum, *, digits: int, prec: Optional[int] = None) -> DeltaResult:
        raise NotImplementedError

    def estimate(self, prep: Prepared, digits: int, prec: Optional[int], evals: int) -> Estimate:
        """Estimated time and peak memory of answering with ``evals`` evaluations of S.
        Guarantee: approximate (upper estimate). Raises: nothing."""
        kind = "exact" if self.name == "exact" else "arb"
        b, e = prep.struct.estimate(kind, prec if prec is not None else digits_to_bits(digits) + 32)
        return b.then(e, evals)

    def check_cost(self, prep: Prepared, digits: int, prec: Optional[int], evals: int) -> None:
        """Refuse before any work when :meth:`estimate` exceeds the limits in force.

        Raises:
            CostTooHigh: with the estimate and the faster option.
        """
        est = self.estimate(prep, digits, prec, evals)
        if self.name == "exact":
            alt = "engine='certified' (Arb balls at the precision the digits need)"
        elif digits > 100:
            alt = "fewer digits, or the approximation (exactdp approx)"
        else:
            alt = "the approximation of Theorem 1.7 (exactdp approx) or the lattice sandwich"
        check_estimate(est, "engine" if self.name == "exact" else "mechanisms",
                       f"the {self.name} engine on these {prep.k} mechanisms (method {prep.method}, "
                       f"{evals} evaluations of S)", alt)

    def epsilon(self, prep: Prepared, dg: Fraction, *, digits: int, prec: Optional[int] = None) -> EpsResult:
        """OptComp at ``delta_g``; the common cases (infinite, ``eps_g = sum eps_i``) are decided
        exactly here, the rest by the engine's inverse."""
        P = prep.P
        below = Target(P, dg).sign() < 0 if isinstance(P, BallP) else dg < 1 - P
        if below:
            return EpsResult(value=Enclosure.infinity(), exp_exact=None, engine=self.name, method=prep.method,
                             guarantee=self.guarantee, prec=None, k=prep.k)
        self.check_cost(prep, digits, prec, EVALS_OPTCOMP)
        target = Target(P, dg)
        if target.exact() == 0:
            inv = eps_at_W(prep.W_groups(), digits)
            g = "exact" if inv.exact_answer else self.guarantee
            return EpsResult(value=inv.value, exp_exact=inv.exp_exact, engine=self.name, method=prep.method, guarantee=g,
                             prec=None, k=prep.k)
        if prep.ln_W > MAX_SUM_EPS and prep.struct.method in HUGE_T_METHODS:
            _check_huge_answer(prep, target)
        elif prep.ln_W > MAX_SUM_EPS:
            raise CostTooHigh(
                "eps", f"sum of eps_i = {prep.ln_W:.3g} is refused for OptComp (limit {MAX_SUM_EPS:.0e}): the search runs "
                       f"over t = e^eps_g, a rational of up to {prep.ln_W / math.log(2):.3g} bits; such mechanisms are not "
                       "private at any useful level (delta_g at a given eps_g is still computed by composed_delta)",
                estimate=prep.ln_W, limit=MAX_SUM_EPS, alternative="composed_delta (delta_g at a given eps_g)")
        return self._eps_result(prep, self._invert(prep, target, digits=digits, prec=prec))

    def _invert(self, prep: Prepared, target: Target, *, digits: int, prec: Optional[int]) -> Inverse:
        raise NotImplementedError

    def _eps_result(self, prep: Prepared, inv: Inverse) -> EpsResult:
        g = "exact" if inv.exact_answer else self.guarantee
        return EpsResult(value=inv.value, exp_exact=inv.exp_exact, engine=self.name, method=prep.method, guarantee=g,
                         prec=inv.prec, k=prep.k)


#: Kernels whose evaluation at ``t = e^eps_g`` costs the same however many bits ``t`` has
#: (their terms are balls; ``t`` enters as one ball): OptComp is limited for them only by the
#: size of the answer's ``t`` itself, not by ``sum eps_i``.
HUGE_T_METHODS = ("homogeneous", "windowed", "windowed-groups", "mitm")
#: The Newton iterate and the certificate's ends are rationals ``t`` of about
#: ``eps_g / ln 2`` bits: measured (2 shared cores), 10^9 mechanisms of eps = 1 at delta_g
#: 1e-5 (eps_g = 4.6e8, t of 6.7e8 bits) take 7 s and 480 MB, 10^8 (4.6e7) 0.7 s.
HUGE_T_SECONDS_PER_BIT = 1.2e-8
HUGE_T_BYTES_PER_BIT = 0.75


def _huge_t_estimate(eps_g: float) -> Estimate:
    bits = eps_g / math.log(2)
    return Estimate(0.05 + HUGE_T_SECONDS_PER_BIT * bits, HUGE_T_BYTES_PER_BIT * bits)


def _check_huge_answer(prep: Prepared, target: Target) -> None:
    """Refuse OptComp, before any work, when the answer's ``t = e^eps_g`` (located by the
    float search) would cost more than the limits in force: the iterate is a rational of
    about ``eps_g / ln 2`` bits (a huge eps_g is represented exactly; only its size refuses).

    Raises:
        CostTooHigh: with the located eps_g, the estimate and the alternative.
    """
    from .inverse import locate

    L = prep.ln_W  # eps_g <= sum eps_i: an upper bound, used when it fits or the search fails
    est = _huge_t_estimate(L)
    sec, mem = current_limits()
    if not (est.seconds <= sec and est.bytes <= mem):
        found = locate(prep.struct, target.log_float() + prep.log_Z, prep.ln_W)
        if math.isfinite(found) and 0 < found <= L:
            L = found
    bits = L / math.log(2)
    check_estimate(_huge_t_estimate(L), "eps", f"OptComp of these {prep.k} mechanisms, about eps_g = {L:.3g} "
                   f"(t = e^eps_g a rational of about {bits:.3g} bits)", "composed_delta (delta_g at a given eps_g)")


def _check_exact_P(prep) -> None:
    """Raise the refusal of an exact ``P`` too large (kept by :class:`Prepared` when it took
    ``P`` as balls); other problems (the approximation's lattices) carry an exact ``P``.

    Raises:
        CostTooHigh: the exact product's estimate, as ``Composition.delta_product`` raised it.
    """
    refusal = getattr(prep, "P_refusal", None)
    if refusal is not None:
        raise refusal


class ExactEngine(Engine):
    """Exact rational arithmetic (gmpy2 ``mpq``). Guarantee: exact."""

    name = "exact"
    guarantee = "exact"

    def delta(self, prep: Prepared, t_num: ExpNum, *, digits: int, prec: Optional[int] = None) -> DeltaResult:
        prep.check_exact()
        _check_exact_P(prep)
        if t_num.exact() is None:
            raise NotExact("eps_g / exp_eps_g", "exactly representable for the exact engine: e^eps_g must be rational",
                           repr(t_num), hint="give exp_eps_g as a rational, or use engine='certified'")
        if log_sign_of_product([(t_num, 1)] + [(w, -n) for w, n in prep.W_groups()]) >= 0:  # type: ignore[operator]
            # t >= W: S(t) = 0, delta_g = 1 - P (no kernel work; e^eps_g may be huge)
            return DeltaResult(value=Enclosure.point(1 - prep.P), engine="exact", method=prep.method, guarantee="exact",
                               prec=None, k=prep.k)
        self.check_cost(prep, digits, prec, 1)
        f = ExactField()
        S, _ = prep.struct.evaluate(f, t_num, f.embed(t_num))
        d = f.rational(1 - prep.P) + f.rational(prep.P) * (S / prep.Z(f))
        return DeltaResult(value=Enclosure.point(f.to_fraction(d)), engine="exact", method=prep.method, guarantee="exact",
                           prec=None, k=prep.k)

    def epsilon(self, prep: Prepared, dg: Fraction, *, digits: int, prec: Optional[int] = None) -> EpsResult:
        prep.check_exact()  # refuses irrational e^eps with NotExact, before any work
        _check_exact_P(prep)
        return super().epsilon(prep, dg, digits=digits, prec=prec)

    def _invert(self, prep: Prepared, target: Target, *, digits: int, prec: Optional[int]) -> Inverse:
        return invert_exact(prep, target, digits)


def _delta_balls(prep: Prepared, t_num: ExpNum, digits: int, prec: Optional[int], field_cls) -> tuple[Enclosure, int, bool]:
    """``delta_g(t) = (1 - P) + P S(t) / Z`` in balls at rising precision, to ``digits``
    significant digits *relative to delta_g* however small it is.

    Returns ``(enclosure, precision, exact)``. ``S(t) = 0`` exactly iff ``t >= W`` (every
    term is then <= 0, and for ``t < W`` the full set's ``W - t`` is > 0): decided first,
    exactly, so delta_g = 1 - P comes back exact, and a positive delta_g is never
    reported with a lower end of 0. The precision then grows with the cancellation
    ``S = (positive part) - t sigma`` shows: each step raises it by the bits the last
    enclosure missed. Only when ``t`` is a Computable exactly at ``W`` (undecidable)
    does an absolute width ``10^-(2 digits)`` end the refinement.
    """
    P = prep.P
    s = log_sign_of_product([(t_num, 1)] + [(w, -n) for w, n in prep.W_groups()])
    if isinstance(P, BallP):
        if s is not None and s >= 0:
            # delta_g = 1 - P, known as balls only: to the digits asked
            return _one_minus_P(P, digits)
        if s is None:
            raise PrecisionError("e^eps_g is a Computable and prod(1 - delta_i) is known as balls only: give eps_g "
                                 "as a rational, or deltas with smaller denominators")
    elif s is not None and s >= 0:
        return Enclosure.point(1 - P), 0, True
    if hasattr(prep, "comp"):
        ENGINE_TIERS["certified"].check_cost(prep, digits, prec, EVALS_DELTA)
    start = prec if prec is not None else max(64, digits_to_bits(digits) + 28)
    # the step hook: the bits the last enclosure missed (its relative width against the digits
    # asked) and a margin, or double when it said nothing
    spent = 0.0
    gap: Optional[float] = None

    def step(cur: int) -> Optional[tuple[Enclosure, int, bool]]:
        nonlocal spent, gap
        if cur > start:
            spent = check_round(prep.struct, cur, spent)  # the raised precision, estimated before it runs
        gap = None
        with workprec(cur):
            f = field_cls(cur)
            S, _ = prep.struct.evaluate(f, t_num)
            if isinstance(P, BallP):
                floor_b, P_b = P.one_minus(cur), P.arb(cur)
                floor = arb_bounds(floor_b)[0]  # a lower bound of 1 - P
            else:
                floor = 1 - P
                floor_b, P_b = arb_of_fraction(floor), arb_of_fraction(P)
            d = floor_b + P_b * (S / prep.Z(f))
            if d.is_finite() and d.rad() < 1:  # delta_g is in [0, 1]: a wider ball says nothing
                lo, hi = arb_bounds(d)
                lo, hi = max(lo, floor), min(hi, Fraction(1))
                enc = Enclosure(lo, hi) if lo <= hi else Enclosure.point(floor)
                at_floor = s is None and lo == floor and hi - lo <= Fraction(1, 10 ** (2 * digits))
                # S(t) > 0 is known (t < W): a value at the floor only means too few bits
                # (a guessed sign in the float field can even drop the only positive term)
                seen_floor = s is not None and hi <= floor
                if prec is not None or (enc.accurate(digits) and not seen_floor) or at_floor:
                    return enc, cur, False
                if lo > 0:
                    # relative width to gain, in bits (2^-digits_bits of the value)
                    gap = math.log2(float(max((hi - lo) / lo, Fraction(1, 2**1000)))) + digits_to_bits(digits) + 1
            elif prec is not None:
                raise PrecisionError(f"enclosure not finite at prec={cur} bits")
        return None

    def grow(cur: int) -> int:
        return cur + max(int(gap) + 16, 32) if gap is not None else 2 * cur

    return refine(step, start=start, grow=grow, maxprec=MAXPREC, what=f"delta_g to {digits} digits")


def _one_minus_P(P: BallP, digits: int) -> tuple[Enclosure, int, bool]:
    """``(1 - P to digits significant digits, the precision, False)`` (the result of
    :func:`_delta_balls` where ``delta_g = 1 - P``). Guarantee: enclosure. Raises:
    PrecisionError (not accurate by ``MAXPREC`` bits; ``1 - P > 0`` has no such case short of
    underflow)."""

    def step(prec: int) -> Optional[tuple[Enclosure, int, bool]]:
        with workprec(prec):
            v = P.one_minus(prec)
            if not v.is_finite():
                return None
            enc = Enclosure.from_arb(v)
        return (enc, prec, False) if enc.accurate(digits) else None

    return refine(step, digits=digits, what=f"1 - prod(1 - delta_i) to {digits} digits")


class CertifiedEngine(Engine):
    """Arb ball arithmetic at rising precision. Guarantee: enclosure."""

    name = "certified"
    guarantee = "enclosure"

    def delta(self, prep: Prepared, t_num: ExpNum, *, digits: int, prec: Optional[int] = None) -> DeltaResult:
        enc, cur, exact = _delta_balls(prep, t_num, digits, prec, ArbField)
        g = "exact" if enc.exact is not None else "enclosure"
        return DeltaResult(value=enc, engine="certified", method=prep.method, guarantee=g, prec=None if exact else cur,
                           k=prep.k)

    def _invert(self, prep: Prepared, target: Target, *, digits: int, prec: Optional[int]) -> Inverse:
        return invert_certified(prep, target, digits, prec)


class FloatEngine(Engine):
    """Arb balls whose undecided signs are guessed by midpoints; the value is the midpoint.

    Guarantee: approximate, with relative error about ``10^-digits`` (the ball around the
    guessed terms shows the accuracy reached; the precision rises until it is met).
    """

    name = "float"
    guarantee = "approximate"

    def delta(self, prep: Prepared, t_num: ExpNum, *, digits: int, prec: Optional[int] = None) -> DeltaResult:
        enc, cur, exact = _delta_balls(prep, t_num, digits, prec, FloatField)
        v = enc.exact if enc.exact is not None else (enc.lower + enc.upper) / 2
        return DeltaResult(value=Enclosure.point(v), engine="float", method=prep.method, guarantee="approximate",
                           prec=None if exact else cur, k=prep.k)

    def _invert(self, prep: Prepared, target: Target, *, digits: int, prec: Optional[int]) -> Inverse:
        return invert_float(prep, target, digits, prec)

    def _eps_result(self, prep: Prepared, inv: Inverse) -> EpsResult:
        return EpsResult(value=inv.value, exp_exact=None, engine=self.name, method=prep.method, guarantee="approximate",
                         prec=inv.prec, k=prep.k)


#: The engines by name (``"auto"`` is resolved by :func:`~exactdp.engines.api.resolve_engine`).
ENGINE_TIERS = {"exact": ExactEngine(), "certified": CertifiedEngine(), "float": FloatEngine()}
