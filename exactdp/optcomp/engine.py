"""Optimal composition (Murtagh-Vadhan Theorem 1.5), both directions.

Public API: :func:`composed_delta` (``delta_g`` at a given ``eps_g``) and
:func:`optcomp` (the least ``eps_g`` at a given ``delta_g``). The exp-space form
of Theorem 1.5 (``docs/engines.md``)::

    delta_g(t) = 1 - P * (1 - S(t) / Z),   P = prod (1 - delta_i),  Z = prod (1 + w_i)

and OptComp(delta_g) = ``max(0, ln t*)`` for the least ``t*`` with
``S(t*) <= tau * Z``, ``tau = 1 - (1 - delta_g) / P``; it is ``+inf`` when
``delta_g < 1 - P`` (``tau < 0``).

Engines: ``exact`` (rational; raises :class:`~exactdp.errors.NotExact` when an
``e^eps`` is irrational), ``certified`` (Arb balls, adaptive precision, an
enclosure), ``float`` (mpmath, approximate) and ``auto`` (exact when possible,
else certified).

The inverse is found in two phases: an approximate bracketing search on
``ln S(e^L)`` in floating point, then Newton's method from the left on the
convex, piecewise-linear ``S``. From the left every Newton iterate stays
``<= t*`` and each step passes at least one breakpoint, so in exact arithmetic
it lands *exactly* on ``t*`` after finitely many steps. In ball arithmetic the
final answer is certified separately: ``S(t_lo) > tau Z`` and ``S(t_hi) <= tau Z``
are checked rigorously at two rational points around the estimate.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field as dc_field
from fractions import Fraction
from typing import Iterable, Optional, Sequence, Union

import mpmath

from .._backend import arb, fmpq, mpq, workprec
from ..errors import CostTooHigh, InvalidArgument, NotExact, PrecisionError
from ..mechanisms import Mechanism, parse_delta, parse_eps, parse_exp_eps, validate_mechanisms
from ..numbers import MAXPREC, ExpNum, RatExp, arb_bounds, fraction_str, fraction_to_decimal
from .fields import ArbField, ExactField, Field, MpfField
from .structures import Structure, choose_structure

__all__ = ["composed_delta", "optcomp", "DeltaResult", "EpsResult", "ENGINES"]

ENGINES = ("auto", "exact", "certified", "float")

_LOG2_10 = math.log2(10)


# --------------------------------------------------------------------------
# results


@dataclass(frozen=True)
class DeltaResult:
    """``delta_g`` of a composition at a given ``eps_g``.

    ``lower <= delta_g <= upper`` always holds for the exact and certified
    engines (``guarantee`` is ``"exact"`` or ``"enclosure"``); for the float
    engine ``lower == upper`` is an approximation (``"approximate"``).
    """

    exact: Optional[Fraction]
    lower: Fraction
    upper: Fraction
    engine: str
    method: str
    guarantee: str
    prec: Optional[int]
    k: int

    def to_dict(self, digits: int = 30) -> dict:
        return {
            "delta_g": {
                "exact": fraction_str(self.exact) if self.exact is not None else None,
                "lower": fraction_to_decimal(self.lower, digits, "down"),
                "upper": fraction_to_decimal(self.upper, digits, "up"),
            },
            "engine": self.engine,
            "method": self.method,
            "guarantee": self.guarantee,
            "precision_bits": self.prec,
            "digits": digits,
            "k": self.k,
        }


@dataclass(frozen=True)
class EpsResult:
    """OptComp: the least ``eps_g`` at a given ``delta_g``.

    ``exp_exact`` is ``t* = e^{eps_g}`` when it is rational (exact engine);
    ``exact`` is ``eps_g`` itself when that is rational (e.g. 0, or the sum of
    the eps_i when ``delta_g = 1 - prod(1 - delta_i)``). ``infinite`` is True when
    no finite eps_g achieves ``delta_g`` (``delta_g < 1 - prod(1 - delta_i)``);
    then ``lower = upper = inf``.
    """

    exact: Optional[Fraction]
    exp_exact: Optional[Fraction]
    lower: Union[Fraction, float]
    upper: Union[Fraction, float]
    infinite: bool
    engine: str
    method: str
    guarantee: str
    prec: Optional[int]
    k: int

    def to_dict(self, digits: int = 30) -> dict:
        if self.infinite:
            eps = {"exact": "inf", "exp_exact": None, "lower": "inf", "upper": "inf"}
        else:
            if self.exp_exact is not None and self.exp_exact == 1:
                ex = "0"
            elif self.exp_exact is not None:
                ex = f"log({fraction_str(self.exp_exact)})"
            elif self.exact is not None:
                ex = fraction_str(self.exact)
            else:
                ex = None
            eps = {
                "exact": ex,
                "exp_exact": fraction_str(self.exp_exact) if self.exp_exact is not None else None,
                "lower": fraction_to_decimal(self.lower, digits, "down"),  # type: ignore[arg-type]
                "upper": fraction_to_decimal(self.upper, digits, "up"),  # type: ignore[arg-type]
            }
        return {
            "eps_g": eps,
            "infinite": self.infinite,
            "engine": self.engine,
            "method": self.method,
            "guarantee": self.guarantee,
            "precision_bits": self.prec,
            "digits": digits,
            "k": self.k,
        }


# --------------------------------------------------------------------------
# helpers


def _check_engine(engine: str) -> None:
    if engine not in ENGINES:
        raise InvalidArgument("engine", "one of " + ", ".join(ENGINES), engine)


def _check_digits(digits: object) -> int:
    if isinstance(digits, bool) or not isinstance(digits, int) or not (1 <= digits <= 10000):
        raise InvalidArgument("digits", "an integer in [1, 10000]", digits)
    return digits


def _check_prec(prec: object) -> Optional[int]:
    if prec is None:
        return None
    if isinstance(prec, bool) or not isinstance(prec, int) or not (8 <= prec <= MAXPREC):
        raise InvalidArgument("prec", f"an integer number of bits in [8, {MAXPREC}]", prec)
    return prec


def _eps_g_num(eps_g: object, exp_eps_g: object) -> ExpNum:
    if (eps_g is None) == (exp_eps_g is None):
        raise InvalidArgument("eps_g / exp_eps_g", "given, exactly one of the two", None)
    if eps_g is not None:
        return RatExp.from_eps(parse_eps(eps_g, "eps_g"))
    if isinstance(exp_eps_g, ExpNum):
        if exp_eps_g.flog() < -1e-12:
            raise InvalidArgument("exp_eps_g", "a real number >= 1", exp_eps_g)
        return exp_eps_g
    return RatExp.from_exp(parse_exp_eps(exp_eps_g, "exp_eps_g"))


def _all_exact(ws: Iterable[ExpNum]) -> bool:
    return all(x.exact() is not None for x in ws)


def _Z(field: Field, ws: Sequence[ExpNum]):
    one = field.rational(Fraction(1))
    z = one
    cache: dict = {}
    for x in ws:
        e = cache.get(x)
        if e is None:
            e = cache[x] = one + field.embed(x)
        z = z * e
    return z


def _P(mechs: Sequence[Mechanism]) -> Fraction:
    p = Fraction(1)
    for m in mechs:
        if m.delta:
            p *= 1 - m.delta
    return p


def _target_bits(digits: int) -> int:
    return int(math.ceil(digits * _LOG2_10)) + 4


def _accurate(lo: Fraction, hi: Fraction, digits: int) -> bool:
    if lo == hi:
        return True
    mag = max(abs(lo), abs(hi))
    return (hi - lo) <= mag * Fraction(1, 10 ** digits) / 2


def _prepare(mechanisms, method: str):
    ms = validate_mechanisms(mechanisms)
    ws = [m.w for m in ms]
    struct = choose_structure(ws, method)
    return ms, ws, struct


# --------------------------------------------------------------------------
# delta_g at eps_g


#: OptComp refuses sum(eps_i) above this (its search is over t = e^eps_g as a rational).
MAX_SUM_EPS = 100_000


def composed_delta(
    mechanisms: Iterable[Mechanism],
    eps_g: object = None,
    *,
    exp_eps_g: object = None,
    engine: str = "auto",
    method: str = "auto",
    digits: int = 30,
    prec: Optional[int] = None,
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
        method: ``auto | homogeneous | lattice | grouped | mitm | brute``.
        digits: significant digits for certified / float results.
        prec: fixed working precision in bits (certified: one evaluation, no
            escalation; float: mpmath precision).

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
    _check_engine(engine)
    digits = _check_digits(digits)
    prec = _check_prec(prec)
    t_num = _eps_g_num(eps_g, exp_eps_g)
    ms, ws, struct = _prepare(mechanisms, method)
    P = _P(ms)
    k = len(ms)
    if engine == "auto":
        engine = "exact" if (_all_exact(ws) and t_num.exact() is not None) else "certified"
    if engine == "exact":
        f = ExactField()
        for x in ws:  # refuses irrational e^eps_i with NotExact naming eps / exp_eps
            f.embed(x)
        if t_num.exact() is None:
            raise NotExact("eps_g / exp_eps_g", "exactly representable for the exact engine: e^eps_g must be rational",
                           repr(t_num), hint="give exp_eps_g as a rational, or use engine='certified'")
        t = f.embed(t_num)
        S, _ = struct.evaluate(f, t_num, t)
        Z = _Z(f, ws)
        d = f.rational(1 - P) + f.rational(P) * (S / Z)
        v = f.to_fraction(d)
        return DeltaResult(v, v, v, "exact", struct.method, "exact", None, k)
    if engine == "float":
        bits = prec if prec is not None else _target_bits(digits) + 8
        for _ in range(4):
            f = MpfField(bits)
            with mpmath.workprec(bits):
                S, sig = struct.evaluate(f, t_num)
                Z = _Z(f, ws)
                # (1 - P) exact + P S / Z: no cancellation when S / Z is tiny
                d = f.rational(1 - P) + f.rational(P) * (S / Z)
                v = _mpf_to_fraction(d)
                # S = (positive part) - t * sig: bits lost to that cancellation
                sub = f.embed(t_num) * sig
                lost = int(mpmath.log(sub / S, 2)) + 1 if (S > 0 and sub > S) else 0
            if prec is not None or lost <= 4:
                break
            bits += lost + 8
        return DeltaResult(None, v, v, "float", struct.method, "approximate", bits, k)
    # certified
    lo_clamp = 1 - P
    cur = prec if prec is not None else max(64, _target_bits(digits) + 32)
    while True:
        with workprec(cur):
            f = ArbField(cur)
            S, _ = struct.evaluate(f, t_num)
            Z = _Z(f, ws)
            d = arb(fmpq(lo_clamp.numerator, lo_clamp.denominator)) + arb(fmpq(P.numerator, P.denominator)) * (S / Z)
            if d.is_finite():
                lo, hi = arb_bounds(d)
                lo = max(lo, lo_clamp)
                hi = min(hi, Fraction(1))
                # Absolute stop: delta_g at its least possible value 1 - P cannot be
                # told from a tiny positive one when t is a Computable at a breakpoint.
                at_floor = lo == lo_clamp and hi - lo <= Fraction(1, 10 ** (2 * digits))
                if prec is not None or _accurate(lo, hi, digits) or at_floor:
                    ex = lo if lo == hi else None
                    return DeltaResult(ex, lo, hi, "certified", struct.method, "exact" if ex is not None else "enclosure", cur, k)
            elif prec is not None:
                raise PrecisionError(f"enclosure not finite at prec={cur} bits")
        if cur >= MAXPREC:
            raise PrecisionError(f"no convergence to {digits} digits (maxprec={MAXPREC} bits)")
        cur = min(2 * cur, MAXPREC)


def _mpf_to_fraction(x) -> Fraction:
    m, e = x.man_exp
    m, e = int(m), int(e)
    return Fraction(m * (1 << e)) if e >= 0 else Fraction(m, 1 << -e)


# --------------------------------------------------------------------------
# OptComp: eps_g at delta_g


def _phase1(struct: Structure, log_target: float, lnW: float) -> tuple[float, float]:
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


def _log_Z_float(ws: Sequence[ExpNum]) -> float:
    tot = 0.0
    for x in ws:
        l = x.flog()
        tot += l + math.log1p(math.exp(-l)) if l > 0 else math.log1p(math.exp(l))
    return tot


def _frac_from_float(x: float) -> Fraction:
    return Fraction(x)


def _exp_fraction(L: float, bits: int = 80) -> Fraction:
    """A rational approximation of ``e^L`` (>= 1)."""
    with workprec(bits):
        m = arb(L).exp().mid()
    lo, _ = arb_bounds(m)
    return max(lo, Fraction(1))


def optcomp(
    mechanisms: Iterable[Mechanism],
    delta_g: object,
    *,
    engine: str = "auto",
    method: str = "auto",
    digits: int = 30,
    prec: Optional[int] = None,
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
    _check_engine(engine)
    digits = _check_digits(digits)
    prec = _check_prec(prec)
    dg = parse_delta(delta_g, "delta_g")
    ms, ws, struct = _prepare(mechanisms, method)
    k = len(ms)
    P = _P(ms)
    if engine == "auto":
        engine = "exact" if _all_exact(ws) else "certified"
    if engine == "exact":
        for x in ws:  # refuses irrational e^eps with NotExact, before any work
            ExactField().embed(x)
    guarantee = {"exact": "exact", "certified": "enclosure", "float": "approximate"}[engine]
    if dg < 1 - P:
        inf = float("inf")
        return EpsResult(None, None, inf, inf, True, engine, struct.method, guarantee, None, k)
    tau = 1 - (1 - dg) / P
    if tau == 0:
        return _eps_at_W(ws, engine, struct.method, guarantee, digits, k)
    lnW = math.fsum(x.flog() for x in ws)
    if lnW > MAX_SUM_EPS:
        raise CostTooHigh(
            "eps", f"sum of eps_i = {lnW:.3g} is refused for OptComp (limit {MAX_SUM_EPS:.0e}): the search runs over "
                   f"t = e^eps_g, a rational of up to {lnW / math.log(2):.3g} bits; such mechanisms are not private at "
                   "any useful level (delta_g at a given eps_g is still computed by composed_delta)")
    log_target = math.log(tau.numerator) - math.log(tau.denominator) + _log_Z_float(ws)
    if engine == "exact":
        return _optcomp_exact(ws, struct, tau, lnW, log_target, digits, k)
    if engine == "float":
        bits = prec if prec is not None else _target_bits(digits) + 8
        return _optcomp_float(ws, struct, tau, lnW, log_target, bits, k)
    return _optcomp_certified(ws, struct, tau, lnW, log_target, digits, prec, k)


def _eps_at_W(ws, engine, method, guarantee, digits, k) -> EpsResult:
    """``tau = 0``: ``t* = W`` and ``eps_g = sum eps_i``."""
    Wq: Optional[Fraction] = Fraction(1)
    for x in ws:
        e = x.exact()
        Wq = Wq * e if (Wq is not None and e is not None) else None
    logs = [x.log_exact() if x.log_exact() is not None else (Fraction(0) if x.is_one() else None) for x in ws]
    eps_exact = sum(logs, Fraction(0)) if all(l is not None for l in logs) else None  # type: ignore[arg-type]
    if eps_exact is not None:
        lo = hi = eps_exact
    else:
        lo, hi = _log_enclosure(lambda p: _prod_arb(ws, p), digits)
        lo = max(lo, Fraction(0))
    return EpsResult(eps_exact, Wq, lo, hi, False, engine, method, "exact" if eps_exact is not None else guarantee, None, k)


def _prod_arb(ws, prec):
    v = arb(1)
    for x in ws:
        v = v * x.arb(prec)
    return v


def _log_enclosure(fn, digits: int) -> tuple[Fraction, Fraction]:
    """Enclosure of ``ln(fn(prec))`` to ``digits`` (relative), adaptive."""
    cur = max(64, _target_bits(digits) + 16)
    while cur <= MAXPREC:
        with workprec(cur):
            v = fn(cur).log()
            if v.is_finite():
                lo, hi = arb_bounds(v)
                if _accurate(lo, hi, digits) or (hi - lo) < Fraction(1, 2 ** (cur // 2)):
                    return lo, hi
        cur *= 2
    raise PrecisionError(f"no convergence (maxprec={MAXPREC} bits)")


def _log_of_fraction(t: Fraction, digits: int) -> tuple[Fraction, Fraction]:
    if t == 1:
        return Fraction(0), Fraction(0)
    return _log_enclosure(lambda p: arb(fmpq(t.numerator, t.denominator)), digits)


def _newton_left(struct: Structure, f: Field, t0: Fraction, target, *, exact: bool, max_iter: int, bits: int = 0):
    """Newton's method from the left on the convex piecewise-linear S.

    Returns the last iterate (a Fraction). In the exact field it is ``t*``.
    """
    t = t0
    for _ in range(max_iter):
        tn = RatExp.from_exp(t)
        S, sig = struct.evaluate(f, tn)
        diff = S - target
        if exact:
            if diff <= 0:
                return t
            t = t + f.to_fraction(diff / sig)
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


def _mid_fraction(x) -> Fraction:
    if isinstance(x, arb):
        lo, hi = arb_bounds(x.mid())
        return lo
    return _mpf_to_fraction(x)


def _left_start(struct: Structure, f: Field, a: float, target, check) -> Fraction:
    """A rational ``t_left >= 1`` with ``S(t_left) > target`` (checked by ``check``)."""
    back = 1e-10
    while True:
        L = a - back * max(1.0, abs(a))
        if L <= 0:
            return Fraction(1)
        t = _exp_fraction(L)
        if check(t):
            return t
        back *= 1000


def _optcomp_exact(ws, struct, tau: Fraction, lnW, log_target, digits, k) -> EpsResult:
    f = ExactField()
    Z = _Z(f, ws)
    target = f.rational(tau) * Z
    S1, _ = struct.evaluate(f, RatExp.from_exp(Fraction(1)))
    if S1 <= target:
        return EpsResult(Fraction(0), Fraction(1), Fraction(0), Fraction(0), False, "exact", struct.method, "exact", None, k)
    a, _ = _phase1(struct, log_target, lnW)

    def check(t: Fraction) -> bool:
        S, _ = struct.evaluate(f, RatExp.from_exp(t))
        return S > target

    t0 = _left_start(struct, f, a, target, check)
    t_star = _newton_left(struct, f, t0, target, exact=True, max_iter=100000)
    lo, hi = _log_of_fraction(t_star, digits)
    ex = Fraction(0) if t_star == 1 else None
    return EpsResult(ex, t_star, max(lo, Fraction(0)), hi, False, "exact", struct.method, "exact", None, k)


def _optcomp_float(ws, struct, tau, lnW, log_target, bits, k) -> EpsResult:
    f = MpfField(bits)
    with mpmath.workprec(bits):
        Z = _Z(f, ws)
        target = f.rational(tau) * Z
        S1, _ = struct.evaluate(f, RatExp.from_exp(Fraction(1)))
        if S1 <= target:
            return EpsResult(None, None, Fraction(0), Fraction(0), False, "float", struct.method, "approximate", bits, k)
        a, _ = _phase1(struct, log_target, lnW)

        def check(t: Fraction) -> bool:
            S, _ = struct.evaluate(f, RatExp.from_exp(t))
            return S > target

        t0 = _left_start(struct, f, a, target, check)
        t = _newton_left(struct, f, t0, target, exact=False, max_iter=500, bits=bits)
        v = _mpf_to_fraction(mpmath.log(mpmath.mpf(t.numerator) / t.denominator))
    return EpsResult(None, None, max(v, Fraction(0)), max(v, Fraction(0)), False, "float", struct.method, "approximate", bits, k)


def _optcomp_certified(ws, struct, tau, lnW, log_target, digits, prec, k) -> EpsResult:
    bits = _target_bits(digits)
    cur = prec if prec is not None else max(64, bits + 32)
    a, _ = _phase1(struct, log_target, lnW)
    t_hat: Optional[Fraction] = None
    if _all_exact(ws):
        # S(1) = tau Z can hold exactly (then eps_g = 0): decide it in exact arithmetic,
        # where balls could only straddle the tie forever.
        fx = ExactField()
        S1x, _ = struct.evaluate(fx, RatExp.from_exp(Fraction(1)))
        if S1x <= fx.rational(tau) * _Z(fx, ws):
            return EpsResult(Fraction(0), Fraction(1), Fraction(0), Fraction(0), False, "certified", struct.method, "exact", None, k)
    while True:
        with workprec(cur):
            f = ArbField(cur)
            Z = _Z(f, ws)
            target = arb(fmpq(tau.numerator, tau.denominator)) * Z
            S1, _ = struct.evaluate(f, RatExp.from_exp(Fraction(1)))
            if S1 <= target:
                return EpsResult(Fraction(0), Fraction(1), Fraction(0), Fraction(0), False, "certified", struct.method, "exact", cur, k)
            if S1 > target:
                if t_hat is None:

                    def check(t: Fraction) -> bool:
                        S, _ = struct.evaluate(f, RatExp.from_exp(t))
                        return bool(S > target)

                    t0 = _left_start(struct, f, a, target, check)
                else:
                    t0 = t_hat
                t_hat = _newton_left(struct, f, t0, target, exact=False, max_iter=500, bits=cur)
                # certify: S(t_lo) > target >= S(t_hi)
                L = math.log(float(t_hat)) if t_hat < 1e300 else float(t_hat.numerator.bit_length() - t_hat.denominator.bit_length()) * math.log(2)
                rel = Fraction(1, 2 ** (bits + 6)) * Fraction(max(L, 2.0 ** -60))
                t_lo = max(Fraction(1), t_hat * (1 - rel))
                t_hi = t_hat * (1 + rel)
                s_lo, _ = struct.evaluate(f, RatExp.from_exp(t_lo))
                s_hi, _ = struct.evaluate(f, RatExp.from_exp(t_hi))
                ok_lo = t_lo == 1 or bool(s_lo > target)
                ok_hi = bool(s_hi <= target)
                if ok_lo and ok_hi:
                    lo, _ = _log_of_fraction(t_lo, digits + 2)
                    _, hi = _log_of_fraction(t_hi, digits + 2)
                    return EpsResult(None, None, max(lo, Fraction(0)), hi, False, "certified", struct.method, "enclosure", cur, k)
                if prec is not None:
                    raise PrecisionError(f"could not certify OptComp at the fixed precision {cur} bits")
        if cur >= MAXPREC:
            raise PrecisionError(f"no convergence to {digits} digits (maxprec={MAXPREC} bits)")
        cur = min(2 * cur, MAXPREC)
