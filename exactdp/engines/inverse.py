"""The one OptComp inverse: the least ``t = e^eps_g`` with ``S(t) <= tau Z`` (Murtagh-Vadhan Theorem 1.5).

Used by every engine (:func:`~exactdp.engines.optcomp`), by the privacy profile,
by Theorem 1.7 and by the lattice sandwich (:mod:`exactdp.approx`).

Two phases, and a bounded number of kernel evaluations:

1. **Locate** (:func:`locate`, floating point, no guarantee): a safeguarded Newton
   iteration on ``g(L) = ln S(e^L) - ln(tau Z)`` with a bracket ``[0, ln W]``, from the
   kernel's cheap approximation (:meth:`~exactdp.engines.structure.Structure.approx`);
   at most :data:`MAX_LOCATE` approximations.
2. **Newton in the engine's arithmetic** from ``e^L``: ``t <- t + (S(t) - tau Z) / sigma(t)``.
   ``S`` is convex, piecewise linear and decreasing, and ``-sigma`` its right derivative,
   so every iterate, from either side of ``t*``, lands at or left of ``t*`` (the tangent
   lies below ``S``); from the left each step ends on ``t*``'s piece or passes a
   breakpoint, so in exact arithmetic the iteration lands *exactly* on ``t*``. Started
   within float accuracy of ``t*`` it takes one to three evaluations.

In ball arithmetic the answer is certified separately: with ``d = (t_hat - 1) 2^-b``,
``S(t_hat - d) > tau Z >= S(t_hat + d)`` is checked rigorously, so ``t*`` lies in
``(t_hat - d, t_hat + d]`` and ``eps_g`` in ``[ln(t_hat - d), ln(t_hat + d)]``, an
interval of relative width about ``2^(1-b)`` however small ``eps_g`` is (the offset is
relative to ``t - 1``, not to ``t``). The working precision is chosen from the
cancellation the certificate must see: the terms of ``S`` have size about
``S + t sigma``, and the certificate separates ``S`` from ``tau Z`` by ``sigma d``.
A tie that balls cannot see (``S(1) = tau Z`` exactly, i.e. ``eps_g = 0``) is decided
in exact arithmetic when every value is rational.

:class:`Target` is the right-hand side: OptComp(delta_g) is the least ``t = e^eps_g >= 1``
with ``S(t) <= tau Z``, ``tau = 1 - (1 - s delta_g) / P`` (``s = 1``, or an exp-space scale
such as Theorem 1.7's ``e^{-eta/2}``).

A *problem* is anything with ``struct`` (an S(t) kernel), ``Z(field)``,
``ln_W`` and ``log_Z`` (floats), ``W_groups()`` (``W = prod w_i`` as
``(w, count)`` pairs) and ``all_exact()`` (every value rational): a :class:`~exactdp.engines.base.Prepared` composition,
or Theorem 1.7's rounded lattice.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import NamedTuple, Optional, Sequence

from .._backend import arb, workprec
from ..errors import PrecisionError
from ..numbers import (
    MAXPREC,
    Enclosure,
    ExpNum,
    RatExp,
    arb_bounds,
    arb_of_fraction,
    decide_sign,
    digits_to_bits,
    log_sign_of_product,
    refine,
)
from .costs import Estimate, check_estimate
from .fields import ArbField, ExactField, Field, FloatField
from .structure import Structure

__all__ = [
    "Target",
    "BallP",
    "Inverse",
    "invert_exact",
    "invert_float",
    "invert_certified",
    "eps_at_W",
    "check_round",
    "mpf_to_fraction",
    "locate",
    "MAX_LOCATE",
    "MAX_NEWTON",
]

class BallP:
    """``P = prod (1 - delta_i)`` known as balls only: its exact rational would be too large
    (10^9 mechanisms of delta = 1e-8: 5.4e10 bits), so ``P`` and ``1 - P`` are enclosed at
    each precision asked (:meth:`~exactdp.events.Composition.delta_product_balls`).

    Guarantee: enclosure. Raises: nothing.
    """

    def __init__(self, comp):
        self.comp = comp
        self._cache: dict = {}

    def _balls(self, prec: int) -> tuple:
        hit = self._cache.get(prec)
        if hit is None:
            hit = self._cache[prec] = self.comp.delta_product_balls(prec)
        return hit

    def arb(self, prec: int) -> arb:
        """``P`` at ``prec`` bits. Guarantee: enclosure."""
        return self._balls(prec)[0]

    def one_minus(self, prec: int) -> arb:
        """``1 - P`` at ``prec`` bits (no cancellation). Guarantee: enclosure."""
        return self._balls(prec)[1]


class Target:
    """``tau = 1 - (1 - s * delta_g) / P``; ``s`` is 1 or an :class:`~exactdp.numbers.ExpNum` scale.

    Guarantee: exact (``exact()`` and ``sign()``), enclosure (``arb``).
    """

    def __init__(self, P: "Fraction | BallP", dg: Fraction, scale: Optional[ExpNum] = None):
        self.P = P
        self.dg = dg
        self.scale = scale
        self._sq: Optional[Fraction]
        if scale is not None and scale.exact() is not None:
            sq = scale.exact()
            self.scale = RatExp.from_exp(sq) if sq != 1 else None  # type: ignore[arg-type]
            self._sq = sq
        else:
            self._sq = Fraction(1) if scale is None else None
        self._sign: Optional[int] = None

    def exact(self) -> Optional[Fraction]:
        """tau as a Fraction when the scale and ``P`` are rational, else None."""
        if self._sq is None or isinstance(self.P, BallP):
            return None
        return 1 - (1 - self._sq * self.dg) / self.P

    def sign(self) -> int:
        """Exact sign of tau (the sign of ``s delta_g - (1 - P)``).

        Raises:
            PrecisionError: only for a Computable scale that sits on the threshold.
        """
        if self._sign is not None:
            return self._sign
        ex = self.exact()
        if ex is not None:
            s = (ex > 0) - (ex < 0)
        elif isinstance(self.P, BallP):
            # 1 - P > 0 (P is in balls only when some delta_i > 0); s delta_g - (1 - P) decided
            # at rising precision (equal only by accident: PrecisionError at the maximum)
            s = -1 if self.dg == 0 else decide_sign(
                lambda prec: self._scaled_dg(prec) - self.P.one_minus(prec),  # type: ignore[union-attr]
                what="the sign of delta_g - (1 - prod(1 - delta_i))")
        elif self.dg == 0:
            s = 0 if self.P == 1 else -1
        elif self.P == 1:
            s = 1
        else:
            s = log_sign_of_product([(self.scale, 1), (RatExp.from_exp(self.dg / (1 - self.P)), 1)])  # type: ignore[list-item]
            if s is None:
                raise PrecisionError("sign of the scaled delta_g target undecided")
        self._sign = s
        return s

    def arb(self, prec: int) -> arb:
        """tau as an Arb ball at ``prec`` bits. Guarantee: enclosure."""
        with workprec(prec):
            ex = self.exact()
            if ex is not None:
                return arb_of_fraction(ex)
            sd = self._scaled_dg(prec)
            if isinstance(self.P, BallP):
                return (sd - self.P.one_minus(prec)) / self.P.arb(prec)  # 1 - (1 - sd) / P
            return 1 - (1 - sd) / arb_of_fraction(self.P)

    def _scaled_dg(self, prec: int) -> arb:
        """``s delta_g`` as a ball (at the context precision). Guarantee: enclosure."""
        d = arb_of_fraction(self.dg)
        return d if self.scale is None else self.scale.arb(prec) * d

    def log_float(self) -> float:
        """``ln tau`` in floating point (tau > 0). Guarantee: approximate."""
        ex = self.exact()
        if ex is not None:
            return math.log(ex.numerator) - math.log(ex.denominator)
        with workprec(64):
            return float(self.arb(64).log().mid())

    def field_value(self, field: Field):
        """tau in ``field``: exact when rational; an Arb ball otherwise (ArbField only)."""
        ex = self.exact()
        if ex is not None:
            return field.rational(ex)
        return self.arb(field.prec)  # type: ignore[attr-defined]


#: Most float approximations of S made by :func:`locate`.
MAX_LOCATE = 60
#: Most Newton steps in ball arithmetic per precision (each one evaluation of S).
MAX_NEWTON = 40
#: Most exact Newton steps (each passes a breakpoint; the count is finite, this bounds it).
MAX_NEWTON_EXACT = 2000

_ONE = RatExp.from_exp(Fraction(1))


class Inverse(NamedTuple):
    """An OptComp value: ``value`` encloses eps_g; ``exp_exact`` is ``e^eps_g`` when rational;
    ``prec`` the working precision used (None when exact); ``exact_answer`` whether the
    value is exact in the engine's sense (t* rational, or eps_g itself rational);
    ``evaluations`` the number of evaluations of S in the engine's arithmetic."""

    value: Enclosure
    exp_exact: Optional[Fraction]
    prec: Optional[int]
    exact_answer: bool
    evaluations: int = 0


def mpf_to_fraction(x) -> Fraction:
    """An mpmath ``mpf`` as the exact binary rational it is. Guarantee: exact. Raises: nothing."""
    m, e = x.man_exp
    m, e = int(m), int(e)
    return Fraction(m * (1 << e)) if e >= 0 else Fraction(m, 1 << -e)


class _Counted:
    """The kernel's ``evaluate`` at rational points, counted."""

    def __init__(self, struct: Structure):
        self.struct = struct
        self.n = 0

    def __call__(self, f: Field, t: Fraction):
        self.n += 1
        return self.struct.evaluate(f, RatExp.from_exp(t))


# --------------------------------------------------------------------------
# phase 1: locate ln t* in floating point


def locate(struct: Structure, log_goal: float, lnW: float, *, max_iter: int = MAX_LOCATE) -> float:
    """An approximation of ``L* = ln t*`` in ``[0, ln W]`` (float; no guarantee); see
    :func:`locate_slope`, of which this is the first half. Raises: nothing."""
    return locate_slope(struct, log_goal, lnW, max_iter=max_iter)[0]


def locate_slope(struct: Structure, log_goal: float, lnW: float, *, max_iter: int = MAX_LOCATE) -> tuple[float, float]:
    """``(L, s)``: an approximation of ``L* = ln t*`` in ``[0, ln W]`` and the float model's
    slope ``s = d ln S / d ln t`` there (float; no guarantee; ``s`` is 0 when unknown).

    Safeguarded Newton on ``g(L) = ln S(e^L) - log_goal``: a Newton step when it stays
    inside the bracket, else Newton on ``S`` in ``t`` (which never passes ``t*``), else the
    Illinois secant, else bisection; it stops once ``S`` is within a relative ``1e-12`` of
    the goal, the bracket or the step within ``1e-12`` of ``L``, or the float model no
    longer changes (Newton in the engine's arithmetic does the rest). A kernel with its
    own float inverse (``struct.locate_float(log_goal)``, e.g. the windowed kernel's
    search over its pieces) answers first; ``None`` from it falls back to this search.
    Raises: nothing.
    """
    own = getattr(struct, "locate_float", None)
    if own is not None:
        L = own(log_goal)
        if L is not None:
            # a kernel with its own float inverse has a float model as cheap (the windowed table)
            return L, struct.approx(L)[1]
    a, b = 0.0, max(lnW, 0.0)
    if not math.isfinite(b):
        b = 1e300
    ga, sa = struct.approx(0.0)
    ga -= log_goal
    if not (ga > 0):
        return 0.0, sa
    gb = -math.inf
    L, g, s = a, ga, sa
    best = (abs(g), L, s)
    side = 0
    for _ in range(max_iter):
        cand = None
        if math.isfinite(g) and s < 0:
            c = L - g / s  # Newton on ln S: fast where ln S is concave (Gaussian-like tails)
            if a < c < b:
                cand = c
            else:
                # Newton on S itself, in t: S is convex, so this step never passes t*
                # (near t = W, where ln S has a log singularity, it lands on t* at once)
                x = -math.expm1(-g) / -s if g > -700 else -math.inf
                c = L + math.log1p(x) if x > -1 else a
                if x == math.inf:
                    # the slope underflowed (1e-321 on a plateau of ln S: 10^4 mechanisms of eps 1,
                    # 1000 left of t*): no step, the bracket's secant and bisection below
                    c = a
                elif c >= b:
                    # float resolution exhausted
                    return (b, 0.0) if math.isfinite(gb) or b < 1e300 else (L, s)
                if a < c:
                    cand = c
        if cand is None:
            c = b - gb * (b - a) / (gb - ga) if (math.isfinite(gb) and ga != gb) else None
            if c is not None and a < c < b:
                cand = c
            else:
                # bisection once the bracket is within a factor 64 (in L), else a step of 1/64 of it
                # (an answer far left of ln W: the bracket shrinks geometrically from the left)
                cand = 0.5 * (a + b) if b - a < 64 or b <= 64 * max(a, 1.0) else a + (b - a) / 64
        if not (a < cand < b) or abs(cand - L) <= 1e-12 * max(abs(cand), 1e-300):
            break
        L = cand
        g_prev, s_prev = g, s
        g, s = struct.approx(L)
        g -= log_goal
        if g == g_prev and s == s_prev and s != 0:
            # the float model cannot tell these points apart: Newton in the field takes over
            # (a changed slope on a plateau of ln S, e.g. S = Z (1 - 1e-32) far left of t*
            # for 10^7 equal mechanisms, still moves Newton in t to the right, and a slope
            # that underflowed to 0 leaves the bracket to the secant and bisection)
            break
        if math.isfinite(g) and abs(g) < best[0]:
            best = (abs(g), L, s)
        if g > 0:
            a, ga = L, g
            if side == 1 and math.isfinite(gb):
                gb *= 0.5  # Illinois
            side = 1
        else:
            b, gb = L, g
            if side == -1:
                ga *= 0.5
            side = -1
        if best[0] <= 1e-12 or b - a <= 1e-12 * max(b, 1e-300):
            break
    return best[1], best[2]


def t_of_L(L: float) -> Fraction:
    """A rational ``t >= 1`` near ``e^L``, accurate relative to ``t - 1``. Guarantee: approximate."""
    if L <= 0:
        return Fraction(1)
    if L < 700:
        return 1 + Fraction(math.expm1(L))
    with workprec(80):
        lo, _ = arb_bounds(arb(L).exp().mid())
    return max(lo, Fraction(1))


class _X:
    """``t = 1 + m 2^e`` (``m >= 0``): the ball Newton's iterate, kept as a short dyadic.

    ``e^eps_g`` can have millions of bits (eps_g ~ 10^7); Python Fractions of that size make
    every division a quadratic gcd, so the iterate is only turned into a Fraction (without
    a gcd) when the kernel needs it.
    """

    __slots__ = ("m", "e", "_f")

    def __init__(self, m: int, e: int):
        if m and not m & 1:
            tz = (m & -m).bit_length() - 1
            m >>= tz
            e += tz
        self.m, self.e = int(m), int(e) if m else 0
        self._f: Optional[Fraction] = None

    @classmethod
    def of(cls, t: Fraction) -> "_X":
        x = t - 1
        if x <= 0:
            return cls(0, 0)
        e = x.numerator.bit_length() - x.denominator.bit_length() - 128
        return cls(round(x * Fraction(2) ** -e), e)

    @classmethod
    def from_arb(cls, t1) -> "_X":
        """From a ball around ``t - 1`` (its midpoint; clamped at 0)."""
        m, e = t1.mid().man_exp()
        return cls(int(m), int(e)) if m > 0 else cls(0, 0)

    @classmethod
    def from_L(cls, L: float) -> "_X":
        """``t`` near ``e^L`` (``expm1``: accurate relative to ``t - 1``)."""
        if not (L > 0):
            return cls(0, 0)
        with workprec(96):
            return cls.from_arb(arb(L).expm1())

    def frac(self) -> Fraction:
        if self._f is None:
            m, e = self.m, self.e
            if e >= 0:
                self._f = Fraction((m << e) + 1)
            else:
                self._f = _coprime_fraction(m + (1 << -e), 1 << -e)  # m odd: coprime to 2^-e
        return self._f

    def log2(self) -> float:
        return float(self.m.bit_length() + self.e) if self.m else -math.inf

    def arb(self) -> arb:
        return arb(self.m) * arb(2) ** self.e + 1

    def shifted(self, num: int, sh: int) -> "_X":
        """``1 + (t - 1) num 2^sh``."""
        return _X(self.m * num, self.e + sh)

    def plus(self, m2: int, e2: int, keep: int) -> "_X":
        """``t + m2 2^e2`` (>= 1; clamped), rounded to ``keep`` bits of ``t - 1``."""
        if m2 == 0:
            return self
        la = self.m.bit_length() + self.e if self.m else -(1 << 62)
        lb = abs(m2).bit_length() + e2
        if self.m and la - lb > keep + 4:
            return self
        if not self.m or lb - la > keep + 4:
            m, e = m2, e2
        else:
            e = min(self.e, e2)
            m = (self.m << (self.e - e)) + (m2 << (e2 - e))
        if m <= 0:
            return _X(0, 0)
        sh = m.bit_length() - keep
        if sh > 0:
            m = (m + (1 << (sh - 1))) >> sh
            e += sh
        return _X(m, e)


def _coprime_fraction(p: int, q: int) -> Fraction:
    """``p/q`` for coprime ``p, q > 0`` without Python's gcd (quadratic on huge integers)."""
    try:
        return Fraction(p, q, _normalize=False)  # type: ignore[call-arg]
    except TypeError:  # Python >= 3.12
        return Fraction._from_coprime_ints(p, q)  # type: ignore[attr-defined]


def _mid(x) -> Fraction:
    lo, _ = arb_bounds(x.mid())
    return lo


def _W(prob, f: Field):
    v = f.rational(Fraction(1))
    for w, n in prob.W_groups():
        v = v * f.power(w, n)
    return v


def _log2_frac(x: Fraction) -> float:
    """``log2 x`` for a rational ``x > 0``, to within 1 (from the bit lengths; never underflows)."""
    return float(x.numerator.bit_length() - x.denominator.bit_length())


def _log2_arb(x) -> float:
    """``log2 |x|`` of a ball's midpoint (float; -inf for 0)."""
    m = abs(x.mid())
    if not (m > 0):
        return -math.inf
    return float(m.log().mid()) / math.log(2)


# --------------------------------------------------------------------------
# eps_g = sum eps_i (tau = 0)


#: Largest exact ``W = prod w_i`` (bits of numerator and denominator) computed for ``tau = 0``;
#: beyond it ``t*`` is not given exactly (``exp_exact`` None), eps_g still is or is enclosed.
MAX_EXACT_W_BITS = 2**28


def eps_at_W(W_groups: Sequence[tuple[ExpNum, int]], digits: int) -> Inverse:
    """``tau = 0``: ``t* = W`` and ``eps_g = sum eps_i`` (exact when every eps_i is rational).

    Guarantee: exact when ``exact_answer``, else an enclosure to ``digits``; ``t* = W`` exactly
    when every ``w_i`` is rational and ``W`` has at most :data:`MAX_EXACT_W_BITS` bits.
    """
    exact = [w.exact() for w, _ in W_groups]
    Wq: Optional[Fraction] = None
    if all(e is not None for e in exact) and sum(
            n * (e.numerator.bit_length() + e.denominator.bit_length()) for e, (_, n) in zip(exact, W_groups)
            if e != 1) <= MAX_EXACT_W_BITS:  # type: ignore[union-attr]
        # in GMP: (10000001/10000000)^2231436, a 5e7-bit rational, is 1 s there and minutes in Fractions
        from .._backend import mpq  # (gmpy2 loads here, not at the engines' import)

        v = mpq(1)
        for e, (_, n) in zip(exact, W_groups):
            if e != 1:
                v *= mpq(e.numerator, e.denominator) ** n  # type: ignore[union-attr]
        Wq = _coprime_fraction(int(v.numerator), int(v.denominator))
    eps: Optional[Fraction] = Fraction(0)
    for w, n in W_groups:
        le = w.log_exact() if w.log_exact() is not None else (Fraction(0) if w.is_one() else None)
        eps = eps + n * le if (eps is not None and le is not None) else None
    if eps is not None:
        return Inverse(Enclosure.point(eps), Wq, None, True)

    def prod(p: int) -> arb:
        f = ArbField(p)
        v = arb(1)
        for w, n in W_groups:
            v = v * f.power(w, n)
        return v

    enc = Enclosure.log_of(prod, digits).clamp(lo=Fraction(0))
    return Inverse(enc, Wq, None, False)


# --------------------------------------------------------------------------
# the three arithmetics


def invert_exact(prob, target: Target, digits: int) -> Inverse:
    """Exact rational arithmetic: ``t*`` exactly (the problem's values and tau rational).

    Raises:
        PrecisionError: only if Newton's method failed to terminate (a bug guard).
    """
    struct = prob.struct
    ev = _Counted(struct)
    f = ExactField()
    tq = target.exact()
    assert tq is not None
    goal = f.rational(tq) * prob.Z(f)
    S1, _ = ev(f, Fraction(1))
    if S1 <= goal:
        return Inverse(Enclosure.point(0), Fraction(1), None, True, ev.n)
    L0 = locate(struct, target.log_float() + prob.log_Z, prob.ln_W)
    W = None
    t = t_of_L(L0)
    for _ in range(MAX_NEWTON_EXACT):
        S, sig = ev(f, t)
        diff = S - goal
        if diff == 0:
            break
        if sig == 0:
            # t >= W, where S = 0; W - goal is a left point (the full set's term alone is W - t)
            if W is None:
                W = _W(prob, f)
            tn = f.to_fraction(W - goal)
        else:
            tn = t + f.to_fraction(diff / sig)
        tn = max(tn, Fraction(1))
        if tn == t:
            break
        t = tn
    else:
        raise PrecisionError(f"exact Newton iteration did not terminate in {MAX_NEWTON_EXACT} steps")
    enc = Enclosure.log_of_rational(t, digits).clamp(lo=Fraction(0))
    return Inverse(enc, t, None, True, ev.n)


def _newton_balls(ev: _Counted, f: Field, x: _X, goal, W, tol_bits: int):
    """Newton's method on ball midpoints from ``t = 1 + x``; returns ``(x, S, sigma, noise_log2,
    converged)`` (``S``, ``sigma`` at the last point evaluated; ``noise_log2`` the log2 of the
    step's uncertainty from the ball radii), or None when a ball is not finite (the
    precision is too low)."""
    S = sig = None
    noise = -math.inf
    converged = False
    keep = tol_bits + 24
    for _ in range(MAX_NEWTON):
        S, sig = ev(f, x.frac())
        diff = S - goal
        if not (diff.is_finite() and sig.is_finite()):
            return None
        if sig > 0:
            st = diff / sig
            if not st.is_finite():
                return None
            m2, e2 = st.mid().man_exp()
            xn = x.plus(int(m2), int(e2), keep)
            noise = _log2_arb(arb(st.rad())) if st.rad() > 0 else -math.inf
            step = abs(int(m2)).bit_length() + int(e2) if m2 else -math.inf
        else:
            # t >= W, where S = 0: W - goal is a left point
            xn = _X.from_arb(W - goal - 1)
            if not sig.is_zero() and (xn.log2() <= x.log2()):
                # sigma's ball straddles 0 only for want of bits (it cancels: sigma ~ 1e-70 S beside
                # e^eps = 1e308), and the left point W - goal gives no progress: more precision
                return None
            step = math.inf
            noise = -math.inf
        x = xn
        lx = x.log2()
        if step <= lx - tol_bits or (noise > -math.inf and step <= noise + 2):
            converged = True
            break
    return x, S, sig, noise, converged


def _flat_bits(bits: int, slope: float) -> int:
    """The precision the certificate needs where ``S`` is flat in ``t``, from the float model's
    slope ``s = d ln S / d ln t`` at ``t*``: separating ``S`` from ``tau Z`` by ``sigma d`` costs
    ``log2((|S| + tau Z + t sigma) / (t sigma)) = log2(1 + 2 / |s|)`` bits beyond the answer's
    (the rule :func:`_newton_balls`' caller raises to after its first evaluation; k = 10^9 at
    delta_g = 1e-5 needs 52 of them, and starting there saves a round). Capped at twice the
    usual start (a float slope far off only chooses a precision). Guarantee: approximate."""
    if not (slope < 0) or not math.isfinite(slope):
        return 0
    s = abs(slope)
    flat = math.log2(1 + 2 / s) if s > 1e-300 else 1 - math.log2(s)
    return int(bits + 24 + min(flat, bits + 32)) + 2


def _exact_affordable(struct) -> bool:
    """May the tie ``S(1) = tau Z`` be decided by the kernel in exact arithmetic within the cost
    limits? (A ball kernel's exact field is another kernel: exact binomials for k = 10^9, the
    grouped sum over 8e10 classes for two large groups; beyond the limits the balls keep
    trying, up to ``MAXPREC``.) Guarantee: exact decision on the estimate. Raises: nothing."""
    from .costs import current_limits

    est = getattr(struct, "estimate", None)
    if est is None:
        return True
    build, one = est("exact", 0)
    tot = build.then(one, 1)
    sec, mem = current_limits()
    return tot.seconds <= sec and tot.bytes <= mem


#: Evaluations of S budgeted for one round of the ball inverse at a raised precision (Newton's
#: steps from the last point, the certificate's two).
ROUND_EVALS = 4


def check_round(struct, cur: int, spent: float = 0.0) -> float:
    """Refuse a round at the raised precision ``cur`` whose estimate (the kernel rebuilt there, and
    :data:`ROUND_EVALS` evaluations) is over the limits in force, before it runs. The engines'
    estimate up front is at the starting precision; where the answer needs far more bits (e^eps
    = 1e308 beside e^eps = 11/10: sigma is 1e-70 of S) each doubling costs more than all before:
    at 1656 and 3312 bits, 19 s and 44 s per evaluation of meet in the middle's vector form.
    ``spent``: the seconds estimated for the rounds before (they count against the same limit);
    returns it with this round's added. Guarantee: exact decision on the estimate. Raises:
    CostTooHigh (parameter ``digits``)."""
    b, e = struct.estimate("arb", cur)
    # time: this round's build and evaluations after the rounds before; memory: the larger of
    # the build's and an evaluation's peaks (a round's peak, not a sum over rounds)
    est = Estimate(spent + b.seconds + ROUND_EVALS * e.seconds, max(b.bytes, e.bytes))
    check_estimate(est, "digits",
                   f"the answer needs more precision than estimated up front: a round at {cur} bits with the "
                   f"rounds before it (method {getattr(struct, 'method', '?')}, {ROUND_EVALS} evaluations of S each)",
                   "fewer digits, or the approximation of Theorem 1.7 (exactdp approx) or the lattice sandwich")
    return est.seconds


def _decide_S1(ev, f, goal, prob, tq, exact_ok: bool, allow_exact: bool) -> Optional[bool]:
    """Is ``S(1) <= tau Z``? True / False, or None when the balls cannot tell yet."""
    S1, _ = ev(f, Fraction(1))
    if S1 <= goal:
        return True
    if S1 > goal:
        return False
    if exact_ok and allow_exact:
        fx = ExactField()
        S1x, _ = prob.struct.evaluate(fx, _ONE)
        ev.n += 1
        return bool(S1x <= fx.rational(tq) * prob.Z(fx))
    return None


def invert_certified(prob, target: Target, digits: int, prec: Optional[int]) -> Inverse:
    """Arb balls at rising precision; the answer is certified at two rational points.

    Guarantee: enclosure of relative width about ``10^-digits`` (exactly 0 when
    ``eps_g = 0``).

    Raises:
        PrecisionError: no certificate by ``MAXPREC`` bits (or at the fixed ``prec``).
    """
    return _invert_balls(prob, target, digits, prec, certify=True)


def invert_float(prob, target: Target, digits: int, prec: Optional[int]) -> Inverse:
    """Arb balls whose straddling signs are guessed by midpoints, without the certificate.

    Guarantee: approximate, relative error about ``10^-digits`` (estimated from the last
    Newton step and the ball radii, not proved); with ``prec`` fixed, whatever that
    precision gives.

    Raises:
        PrecisionError: the estimated accuracy not reached by ``MAXPREC`` bits.
    """
    return _invert_balls(prob, target, digits, prec, certify=False)


def _invert_balls(prob, target: Target, digits: int, prec: Optional[int], *, certify: bool) -> Inverse:
    struct = prob.struct
    ev = _Counted(struct)
    Field_ = ArbField if certify else FloatField
    bits = digits_to_bits(digits) + 4
    tq = target.exact()
    exact_ok = tq is not None and prob.all_exact() and _exact_affordable(struct)
    L0, slope = locate_slope(struct, target.log_float() + prob.log_Z, prob.ln_W)
    small = max(0, int(-math.log2(L0))) if 0 < L0 < 1 else 0
    start = prec if prec is not None else min(max(64, bits + 32 + small, _flat_bits(bits, slope)), MAXPREC)
    x_hat: Optional[_X] = None
    s1_known = False
    # S(t_lo) > tau Z at the certificate's t_lo > 1 implies S(1) > tau Z (S decreases), so the
    # first round tries the certificate without deciding S(1) (one evaluation fewer: 40 ms at
    # k = 10^9); a round that does not return decides it as before
    defer_s1 = certify and prec is None and L0 > 0
    spent = 0.0  # estimated seconds of the rounds at raised precisions
    # the step hook's inputs, set by each round: the precision the certificate was found to need
    # (the round restarts there), or the bits by which the Newton point's noise missed the
    # certificate's step (that many more and a margin), else double
    need_prec: Optional[int] = None
    deficit: Optional[float] = None

    def round_at(cur: int) -> Optional[Inverse]:
        nonlocal x_hat, s1_known, defer_s1, spent, need_prec, deficit
        if cur > start:
            spent = check_round(struct, cur, spent)
        need_prec = deficit = None
        try:
            with workprec(cur):
                f = Field_(cur)
                goal = target.arb(cur) * prob.Z(f)
                if not s1_known and not defer_s1:
                    le = _decide_S1(ev, f, goal, prob, tq, exact_ok, prec is not None or cur >= 4 * start)
                    if le:
                        return Inverse(Enclosure.point(0), Fraction(1), cur, True, ev.n)
                    s1_known = le is not None
                if s1_known or defer_s1:
                    W = _W(prob, f)
                    res = _newton_balls(ev, f, x_hat if x_hat is not None else _X.from_L(L0), goal, W, bits + 4)
                    if res is not None:
                        x_hat, S, sig, noise, converged = res
                        # the precision at which the certificate can separate S from tau Z by sigma d
                        lx = x_hat.log2()
                        if x_hat.m and sig > 0:
                            mag = _log2_arb(abs(S) + abs(goal) + x_hat.arb() * sig)
                            sep = _log2_arb(sig) + lx
                            need = int(bits + 24 + mag - sep) if math.isfinite(mag - sep) else cur
                            if prec is None and need > cur and cur < MAXPREC:
                                need_prec = min(need, MAXPREC)
                        if need_prec is None and x_hat.m:
                            deficit = noise - (lx - bits) if converged and math.isfinite(noise) else None
                            # t_lo, t_hi = t_hat -+ d, d = (t_hat - 1) 2^-bits
                            t_lo = x_hat.shifted((1 << bits) - 1, -bits).frac()
                            t_hi = x_hat.shifted((1 << bits) + 1, -bits).frac()
                            if certify:
                                s_lo, _ = ev(f, t_lo)
                                s_hi, _ = ev(f, t_hi)
                                if s_lo > goal and s_hi <= goal:
                                    lo = Enclosure.log_of_rational(t_lo, digits + 2).lower
                                    hi = Enclosure.log_of_rational(t_hi, digits + 2).upper
                                    return Inverse(Enclosure(max(lo, Fraction(0)), hi), None, cur, False, ev.n)
                            elif prec is not None or (converged and noise <= lx - bits):
                                v = Enclosure.log_of_rational(x_hat.frac(), digits + 2).lower
                                return Inverse(Enclosure.point(max(v, Fraction(0))), None, cur, False, ev.n)
                if prec is not None and need_prec is None:
                    what = "certify" if certify else "approximate"
                    raise PrecisionError(f"could not {what} OptComp at the fixed precision {cur} bits")
        finally:
            defer_s1 = False
        return None

    def grow(cur: int) -> int:
        if need_prec is not None:
            return need_prec
        if deficit is not None and 0 < deficit < cur / 2:
            # the point is known to within 2^deficit of the step the certificate needs: that many
            # bits more (and a margin) instead of doubling (k = 1e9: 144 -> 288 bits cost 3x)
            return cur + int(deficit) + 32
        return 2 * cur

    return refine(round_at, start=start, grow=grow, maxprec=MAXPREC, what=f"OptComp to {digits} digits")
