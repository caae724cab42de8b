"""The engine family: one interface, three guarantee tiers (DESIGN.md, "three engines").

Every engine answers the same two questions about a prepared composition:

* ``delta(prep, t_num, digits=, prec=) -> DeltaResult``: the least ``delta_g`` at ``e^eps_g = t``;
* ``epsilon(prep, delta_g, digits=, prec=) -> EpsResult``: OptComp, the least ``eps_g`` at ``delta_g``;

and states its tier in ``guarantee``:

=========== ============== ===========================================================
engine      guarantee      numbers
=========== ============== ===========================================================
exact       exact          gmpy2 rationals; refuses irrational ``e^eps`` (NotExact)
certified   enclosure      Arb balls at rising precision, accurate to ``digits``
float       approximate    mpmath at a fixed precision, no error bound
=========== ============== ===========================================================

``delta_g(t) = (1 - P) + P S(t) / Z`` (Murtagh-Vadhan Theorem 1.5 in exp-space); the
inverse is :mod:`.inverse`. Other accountants (the lattice sandwich, Theorem 1.7,
peers under audit) answer the same questions in their own modules.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Optional

import mpmath

from .._backend import arb, fmpq, workprec
from ..errors import CostTooHigh, NotExact, PrecisionError
from ..numbers import MAXPREC, Enclosure, ExpNum, arb_bounds, digits_to_bits
from .base import Prepared, Target
from .costs import MAX_SUM_EPS
from .fields import ArbField, ExactField, MpfField
from .inverse import Inverse, eps_at_W, invert_certified, invert_exact, invert_float, mpf_to_fraction
from .results import DeltaResult, EpsResult

__all__ = ["Engine", "ExactEngine", "CertifiedEngine", "FloatEngine", "ENGINE_TIERS"]


class Engine:
    """The interface every engine answers (see the module docstring)."""

    name = "abstract"
    guarantee = "none"

    def delta(self, prep: Prepared, t_num: ExpNum, *, digits: int, prec: Optional[int] = None) -> DeltaResult:
        raise NotImplementedError

    def epsilon(self, prep: Prepared, dg: Fraction, *, digits: int, prec: Optional[int] = None) -> EpsResult:
        """OptComp at ``delta_g``; the common cases (infinite, ``eps_g = sum eps_i``) are decided
        exactly here, the rest by the engine's inverse."""
        P = prep.P
        if dg < 1 - P:
            return EpsResult(Enclosure.infinity(), None, self.name, prep.method, self.guarantee, None, prep.k)
        target = Target(P, dg)
        if target.exact() == 0:
            inv = eps_at_W(prep.W_groups(), digits)
            g = "exact" if inv.exact_answer else self.guarantee
            return EpsResult(inv.value, inv.exp_exact, self.name, prep.method, g, None, prep.k)
        if prep.ln_W > MAX_SUM_EPS:
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
        return EpsResult(inv.value, inv.exp_exact, self.name, prep.method, g, inv.prec, prep.k)


class ExactEngine(Engine):
    """Exact rational arithmetic (gmpy2 ``mpq``). Guarantee: exact."""

    name = "exact"
    guarantee = "exact"

    def delta(self, prep: Prepared, t_num: ExpNum, *, digits: int, prec: Optional[int] = None) -> DeltaResult:
        prep.check_exact()
        if t_num.exact() is None:
            raise NotExact("eps_g / exp_eps_g", "exactly representable for the exact engine: e^eps_g must be rational",
                           repr(t_num), hint="give exp_eps_g as a rational, or use engine='certified'")
        f = ExactField()
        S, _ = prep.struct.evaluate(f, t_num, f.embed(t_num))
        d = f.rational(1 - prep.P) + f.rational(prep.P) * (S / prep.Z(f))
        return DeltaResult(Enclosure.point(f.to_fraction(d)), "exact", prep.method, "exact", None, prep.k)

    def epsilon(self, prep: Prepared, dg: Fraction, *, digits: int, prec: Optional[int] = None) -> EpsResult:
        prep.check_exact()  # refuses irrational e^eps with NotExact, before any work
        return super().epsilon(prep, dg, digits=digits, prec=prec)

    def _invert(self, prep: Prepared, target: Target, *, digits: int, prec: Optional[int]) -> Inverse:
        return invert_exact(prep, target, digits)


class CertifiedEngine(Engine):
    """Arb ball arithmetic at rising precision. Guarantee: enclosure."""

    name = "certified"
    guarantee = "enclosure"

    def delta(self, prep: Prepared, t_num: ExpNum, *, digits: int, prec: Optional[int] = None) -> DeltaResult:
        P = prep.P
        lo_clamp = 1 - P
        cur = prec if prec is not None else max(64, digits_to_bits(digits) + 28)
        while True:
            with workprec(cur):
                f = ArbField(cur)
                S, _ = prep.struct.evaluate(f, t_num)
                d = arb(fmpq(lo_clamp.numerator, lo_clamp.denominator)) + arb(fmpq(P.numerator, P.denominator)) * (S / prep.Z(f))
                if d.is_finite():
                    lo, hi = arb_bounds(d)
                    lo = max(lo, lo_clamp)
                    hi = min(hi, Fraction(1))
                    # Absolute stop: delta_g at its least possible value 1 - P cannot be
                    # told from a tiny positive one when t is a Computable at a breakpoint.
                    at_floor = lo == lo_clamp and hi - lo <= Fraction(1, 10 ** (2 * digits))
                    enc = Enclosure(lo, hi)
                    if prec is not None or enc.accurate(digits) or at_floor:
                        g = "exact" if enc.exact is not None else "enclosure"
                        return DeltaResult(enc, "certified", prep.method, g, cur, prep.k)
                elif prec is not None:
                    raise PrecisionError(f"enclosure not finite at prec={cur} bits")
            if cur >= MAXPREC:
                raise PrecisionError(f"no convergence to {digits} digits (maxprec={MAXPREC} bits)")
            cur = min(2 * cur, MAXPREC)

    def _invert(self, prep: Prepared, target: Target, *, digits: int, prec: Optional[int]) -> Inverse:
        return invert_certified(prep, target, digits, prec)


class FloatEngine(Engine):
    """mpmath ``mpf`` at a fixed precision. Guarantee: approximate (no error bound)."""

    name = "float"
    guarantee = "approximate"

    def delta(self, prep: Prepared, t_num: ExpNum, *, digits: int, prec: Optional[int] = None) -> DeltaResult:
        P = prep.P
        bits = prec if prec is not None else digits_to_bits(digits) + 4
        for _ in range(4):
            f = MpfField(bits)
            with mpmath.workprec(bits):
                S, sig = prep.struct.evaluate(f, t_num)
                # (1 - P) exact + P S / Z: no cancellation when S / Z is tiny
                d = f.rational(1 - P) + f.rational(P) * (S / prep.Z(f))
                v = mpf_to_fraction(d)
                # S = (positive part) - t * sig: bits lost to that cancellation
                sub = f.embed(t_num) * sig
                lost = int(mpmath.log(sub / S, 2)) + 1 if (S > 0 and sub > S) else 0
            if prec is not None or lost <= 4:
                break
            bits += lost + 8
        return DeltaResult(Enclosure.point(v), "float", prep.method, "approximate", bits, prep.k)

    def _invert(self, prep: Prepared, target: Target, *, digits: int, prec: Optional[int]) -> Inverse:
        return invert_float(prep, target, prec if prec is not None else digits_to_bits(digits) + 4)

    def _eps_result(self, prep: Prepared, inv: Inverse) -> EpsResult:
        return EpsResult(inv.value, None, self.name, prep.method, "approximate", inv.prec, prep.k)


#: The engines by name (``"auto"`` is resolved by :func:`~exactdp.engines.api.resolve_engine`).
ENGINE_TIERS = {"exact": ExactEngine(), "certified": CertifiedEngine(), "float": FloatEngine()}
