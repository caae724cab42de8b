"""The one OptComp inverse: the least ``t = e^eps_g`` with ``S(t) <= tau Z`` (Murtagh-Vadhan Theorem 1.5).

Used by every engine (:func:`~exactdp.engines.optcomp`), by the privacy profile,
by Theorem 1.7 and by the lattice sandwich (:mod:`exactdp.approx`).

Two phases. First an approximate bracketing search on ``ln S(e^L)`` in floating
point (Illinois regula falsi). Then Newton's method from the left on the
convex, piecewise-linear ``S``: from the left every Newton iterate stays
``<= t*`` and each step passes at least one breakpoint, so in exact arithmetic
it lands *exactly* on ``t*`` after finitely many steps. In ball arithmetic the
answer is certified separately: ``S(t_lo) > tau Z`` and ``S(t_hi) <= tau Z`` are
checked rigorously at two rational points around the estimate.

A *problem* is anything with ``struct`` (an S(t) kernel), ``Z(field)``,
``ln_W`` and ``log_Z`` (floats), ``W_groups()`` (``W = prod w_i`` as
``(w, count)`` pairs) and ``all_exact()`` (every value rational): a :class:`~exactdp.engines.base.Prepared` composition,
or Theorem 1.7's rounded lattice.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import NamedTuple, Optional, Sequence

import mpmath

from .._backend import arb, workprec
from ..errors import PrecisionError
from ..numbers import Enclosure, ExpNum, RatExp, arb_bounds, digits_to_bits
from .base import Target
from .fields import ArbField, ExactField, Field, MpfField
from .structure import Structure

__all__ = ["Inverse", "invert_exact", "invert_float", "invert_certified", "eps_at_W", "mpf_to_fraction"]


class Inverse(NamedTuple):
    """An OptComp value: ``value`` encloses eps_g; ``exp_exact`` is ``e^eps_g`` when rational;
    ``prec`` the working precision used (None when exact); ``exact_answer`` whether the
    value is exact in the engine's sense (t* rational, or eps_g itself rational)."""

    value: Enclosure
    exp_exact: Optional[Fraction]
    prec: Optional[int]
    exact_answer: bool


def mpf_to_fraction(x) -> Fraction:
    """An mpmath ``mpf`` as the exact binary rational it is. Guarantee: exact. Raises: nothing."""
    m, e = x.man_exp
    m, e = int(m), int(e)
    return Fraction(m * (1 << e)) if e >= 0 else Fraction(m, 1 << -e)


# --------------------------------------------------------------------------
# the float search and Newton's method


def phase1(struct: Structure, log_target: float, lnW: float) -> tuple[float, float]:
    """Approximate bracket ``[a, b]`` of ``L* = ln t*`` (float; no guarantee)."""
    a, b = 0.0, max(lnW, 0.0)
    ga = struct.approx_log_S(a) - log_target
    if not (ga > 0):
        return 0.0, 0.0
    gb = float("-inf")
    for _ in range(200):
        if b - a <= 1e-13 * max(1.0, abs(b)):
            break
        if math.isfinite(gb) and math.isfinite(ga) and ga != gb:
            m = b - gb * (b - a) / (gb - ga)
            if not (a < m < b) or (b - a) > 0.5 * max(1.0, abs(b)):
                m = 0.5 * (a + b)
        else:
            m = 0.5 * (a + b)
        gm = struct.approx_log_S(m) - log_target
        if gm > 0:
            a, ga = m, gm
            gb = gb * 0.5 if math.isfinite(gb) else gb  # Illinois
        else:
            b, gb = m, gm
            ga = ga * 0.5
    return a, b


def exp_fraction(L: float, bits: int = 80) -> Fraction:
    """A rational approximation of ``e^L`` (>= 1). Guarantee: approximate."""
    with workprec(bits):
        m = arb(L).exp().mid()
    lo, _ = arb_bounds(m)
    return max(lo, Fraction(1))


def _mid_fraction(x) -> Fraction:
    if isinstance(x, arb):
        lo, _ = arb_bounds(x.mid())
        return lo
    return mpf_to_fraction(x)


def newton_left(struct: Structure, f: Field, t0: Fraction, target, *, exact: bool, max_iter: int, bits: int = 0) -> Fraction:
    """Newton's method from the left on the convex piecewise-linear S; the last iterate.

    In the exact field it is ``t*``. Raises: PrecisionError when it does not terminate.
    """
    t = t0
    for _ in range(max_iter):
        tn = RatExp.from_exp(t)
        S, sig = struct.evaluate(f, tn)
        diff = S - target
        if exact:
            if diff <= 0:
                return t
            t = t + f.to_fraction(diff / sig)  # type: ignore[attr-defined]
            continue
        if not (diff > 0):
            return t
        step = diff / sig
        stepf = _mid_fraction(step)
        if stepf <= 0:
            return t
        t = t + stepf
        if stepf <= t / Fraction(2) ** max(bits - 8, 8):
            return t
    raise PrecisionError(f"Newton iteration did not terminate in {max_iter} steps")


def left_start(a: float, check) -> Fraction:
    """A rational ``t_left >= 1`` with ``check(t_left)`` (i.e. ``S(t_left) > target``), just below ``e^a``."""
    back = 1e-10
    while True:
        L = a - back * max(1.0, abs(a))
        if L <= 0:
            return Fraction(1)
        t = exp_fraction(L)
        if check(t):
            return t
        back *= 1000


# --------------------------------------------------------------------------
# eps_g = sum eps_i (tau = 0)


def eps_at_W(W_groups: Sequence[tuple[ExpNum, int]], digits: int) -> Inverse:
    """``tau = 0``: ``t* = W`` and ``eps_g = sum eps_i`` (exact when every eps_i is rational).

    Guarantee: exact when ``exact_answer``, else an enclosure to ``digits``.
    """
    Wq: Optional[Fraction] = Fraction(1)
    eps: Optional[Fraction] = Fraction(0)
    for w, n in W_groups:
        e = w.exact()
        Wq = Wq * e**n if (Wq is not None and e is not None) else None
        le = w.log_exact() if w.log_exact() is not None else (Fraction(0) if w.is_one() else None)
        eps = eps + n * le if (eps is not None and le is not None) else None
    if eps is not None:
        return Inverse(Enclosure.point(eps), Wq, None, True)

    def prod(p: int) -> arb:
        v = arb(1)
        for w, n in W_groups:
            v = v * w.arb(p) ** n
        return v

    enc = Enclosure.log_of(prod, digits).clamp(lo=Fraction(0))
    return Inverse(enc, Wq, None, False)


# --------------------------------------------------------------------------
# the three arithmetics


def invert_exact(prob, target: Target, digits: int) -> Inverse:
    """Exact rational arithmetic: ``t*`` exactly (the problem's values and tau rational)."""
    struct = prob.struct
    f = ExactField()
    tq = target.exact()
    assert tq is not None
    goal = f.rational(tq) * prob.Z(f)
    S1, _ = struct.evaluate(f, RatExp.from_exp(Fraction(1)))
    if S1 <= goal:
        return Inverse(Enclosure.point(0), Fraction(1), None, True)
    a, _ = phase1(struct, target.log_float() + prob.log_Z, prob.ln_W)

    def check(t: Fraction) -> bool:
        S, _ = struct.evaluate(f, RatExp.from_exp(t))
        return S > goal

    t0 = left_start(a, check)
    t_star = newton_left(struct, f, t0, goal, exact=True, max_iter=100000)
    enc = Enclosure.log_of_rational(t_star, digits).clamp(lo=Fraction(0))
    return Inverse(enc, t_star, None, True)


def invert_float(prob, target: Target, bits: int) -> Inverse:
    """mpmath at ``bits``: approximate, no error bound."""
    struct = prob.struct
    f = MpfField(bits)
    with mpmath.workprec(bits):
        goal = f.rational(target.exact()) * prob.Z(f)  # type: ignore[arg-type]
        S1, _ = struct.evaluate(f, RatExp.from_exp(Fraction(1)))
        if S1 <= goal:
            return Inverse(Enclosure.point(0), None, bits, False)
        a, _ = phase1(struct, target.log_float() + prob.log_Z, prob.ln_W)

        def check(t: Fraction) -> bool:
            S, _ = struct.evaluate(f, RatExp.from_exp(t))
            return S > goal

        t0 = left_start(a, check)
        t = newton_left(struct, f, t0, goal, exact=False, max_iter=500, bits=bits)
        v = max(mpf_to_fraction(mpmath.log(mpmath.mpf(t.numerator) / t.denominator)), Fraction(0))
    return Inverse(Enclosure.point(v), None, bits, False)


def invert_certified(prob, target: Target, digits: int, prec: Optional[int]) -> Inverse:
    """Arb balls at rising precision; the answer is certified at two rational points.

    Raises:
        PrecisionError: no certificate by ``MAXPREC`` bits (or at the fixed ``prec``).
    """
    from ..numbers import MAXPREC

    struct = prob.struct
    bits = digits_to_bits(digits) - 4
    cur = prec if prec is not None else max(64, bits + 32)
    a, _ = phase1(struct, target.log_float() + prob.log_Z, prob.ln_W)
    t_hat: Optional[Fraction] = None
    tq = target.exact()
    if tq is not None and prob.all_exact():
        # S(1) = tau Z can hold exactly (then eps_g = 0): decide it in exact arithmetic,
        # where balls could only straddle the tie forever.
        fx = ExactField()
        S1x, _ = struct.evaluate(fx, RatExp.from_exp(Fraction(1)))
        if S1x <= fx.rational(tq) * prob.Z(fx):
            return Inverse(Enclosure.point(0), Fraction(1), None, True)
    while True:
        with workprec(cur):
            f = ArbField(cur)
            goal = target.arb(cur) * prob.Z(f)
            S1, _ = struct.evaluate(f, RatExp.from_exp(Fraction(1)))
            if S1 <= goal:
                return Inverse(Enclosure.point(0), Fraction(1), cur, True)
            if S1 > goal:
                if t_hat is None:

                    def check(t: Fraction) -> bool:
                        S, _ = struct.evaluate(f, RatExp.from_exp(t))
                        return bool(S > goal)

                    t0 = left_start(a, check)
                else:
                    t0 = t_hat
                t_hat = newton_left(struct, f, t0, goal, exact=False, max_iter=500, bits=cur)
                # certify: S(t_lo) > goal >= S(t_hi)
                L = (math.log(float(t_hat)) if t_hat < 1e300
                     else float(t_hat.numerator.bit_length() - t_hat.denominator.bit_length()) * math.log(2))
                rel = Fraction(1, 2 ** (bits + 6)) * Fraction(max(L, 2.0**-60))
                t_lo = max(Fraction(1), t_hat * (1 - rel))
                t_hi = t_hat * (1 + rel)
                s_lo, _ = struct.evaluate(f, RatExp.from_exp(t_lo))
                s_hi, _ = struct.evaluate(f, RatExp.from_exp(t_hi))
                ok_lo = t_lo == 1 or bool(s_lo > goal)
                ok_hi = bool(s_hi <= goal)
                if ok_lo and ok_hi:
                    lo = Enclosure.log_of_rational(t_lo, digits + 2).lower
                    hi = Enclosure.log_of_rational(t_hi, digits + 2).upper
                    return Inverse(Enclosure(max(lo, Fraction(0)), hi), None, cur, False)
                if prec is not None:
                    raise PrecisionError(f"could not certify OptComp at the fixed precision {cur} bits")
        if cur >= MAXPREC:
            raise PrecisionError(f"no convergence to {digits} digits (maxprec={MAXPREC} bits)")
        cur = min(2 * cur, MAXPREC)

