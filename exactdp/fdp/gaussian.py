"""The Gaussian trade-off function ``G_mu`` and its (eps, delta) profile, certified in Arb.

``G_mu = T(N(0, 1), N(mu, 1))``, ``G_mu(alpha) = Phi(Phi^-1(1 - alpha) - mu)``
(Dong-Roth-Su, Gaussian differential privacy). A mechanism is mu-GDP iff it is
``(eps, delta_mu(eps))``-DP for every ``eps >= 0`` with

    delta_mu(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)

(Dong-Roth-Su, the GDP-to-(eps, delta) corollary; Balle-Wang, the analytic Gaussian mechanism). ``k``
Gaussian queries of sensitivity ``Delta`` and standard deviation ``sigma`` compose
to ``mu``-GDP with ``mu = sqrt(k) Delta / sigma`` (``G_a (x) G_b = G_sqrt(a^2 + b^2)``).

Everything here is a certified enclosure: ``Phi(x) = erfc(-x / sqrt 2) / 2`` and
``Phi^-1(p) = -sqrt 2 erfcinv(2p)`` are evaluated in Arb ball arithmetic at rising
precision; ``mu`` enters through ``mu^2`` (a rational), so ``mu = sqrt(k) Delta / sigma``
is represented exactly. This module is deliberately minimal (issue 11's ``exactdp.gdp``
is the general GDP accountant); it is what calibration and the plots need.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Optional

import mpmath

from .._backend import arb, fmpq, workprec
from ..engines.inverse import mpf_to_fraction
from ..errors import InvalidArgument, PrecisionError
from ..numbers import (
    MAXPREC,
    Enclosure,
    RatExp,
    arb_bounds,
    digits_to_bits,
    parse_delta,
    parse_eps,
    parse_exp_eps,
    parse_rational,
    refine,
)

__all__ = ["GaussianTradeOff", "gdp_delta", "gdp_mu_for", "Phi_arb"]


def _q(x: Fraction) -> arb:
    return arb(fmpq(x.numerator, x.denominator))


def Phi_arb(x: arb) -> arb:
    """The standard normal CDF of a ball. Guarantee: enclosure (Arb ``erfc``)."""
    return (-x / arb(2).sqrt()).erfc() / 2


def _mu2_of(mu: object, mu_squared: object) -> Fraction:
    if (mu is None) == (mu_squared is None):
        raise InvalidArgument("mu / mu_squared", "given, exactly one of the two", None)
    if mu is not None:
        m = parse_rational(mu, "mu", expected="a rational number >= 0")
        if m < 0:
            raise InvalidArgument("mu", "a rational number >= 0", mu)
        return m * m
    m2 = parse_rational(mu_squared, "mu_squared", expected="a rational number >= 0")
    if m2 < 0:
        raise InvalidArgument("mu_squared", "a rational number >= 0", mu_squared)
    return m2


def _t_of(eps: object, exp_eps: object) -> RatExp:
    if (eps is None) == (exp_eps is None):
        raise InvalidArgument("eps / exp_eps", "given, exactly one of the two", None)
    return RatExp.from_eps(parse_eps(eps)) if eps is not None else RatExp.from_exp(parse_exp_eps(exp_eps))


def _delta_arb(mu2: Fraction, t: RatExp, prec: int) -> arb:
    with workprec(prec):
        mu = _q(mu2).sqrt()
        te = t.arb(prec)
        e = te.log() if t.r == 0 else _q(t.r) + (_q(t.q).log() if t.q != 1 else arb(0))
        return Phi_arb(-e / mu + mu / 2) - te * Phi_arb(-e / mu - mu / 2)


def gdp_delta(mu: object = None, eps: object = None, *, mu_squared: object = None, exp_eps: object = None,
              digits: int = 30) -> Enclosure:
    """``delta_mu(eps)``: the least delta such that mu-GDP implies (eps, delta)-DP.

    Guarantee: enclosure, ``digits`` significant digits (or absolute width
    ``10^-2digits`` for values that small); ``mu = 0`` gives exactly 0.

    Raises:
        InvalidArgument: mu < 0, eps < 0, or not exactly one of mu / mu_squared and of eps / exp_eps.
        PrecisionError: not accurate by ``MAXPREC`` bits.

    Examples:
        >>> gdp_delta(1, 0).decimal(12)    # 2 Phi(1/2) - 1
        ('0.382924922548', '0.382924922549')
        >>> gdp_delta(mu_squared=0, eps=1)
        Enclosure.point(0)

    References:
        Dong-Roth-Su, Gaussian differential privacy (JRSS-B 2022), its GDP-to-(eps, delta) corollary; Balle-Wang, Improving the Gaussian mechanism (ICML 2018), the analytic Gaussian mechanism.
    """
    mu2 = _mu2_of(mu, mu_squared)
    t = _t_of(eps, exp_eps)
    if mu2 == 0:
        return Enclosure.point(0)
    floor = Fraction(1, 10 ** (2 * digits))

    def step(prec: int) -> Optional[Enclosure]:
        v = _delta_arb(mu2, t, prec)
        if not v.is_finite():
            return None
        e = Enclosure(*arb_bounds(v)).clamp(Fraction(0), Fraction(1))
        return e if e.accurate(digits, floor=floor) else None

    return refine(step, start=digits_to_bits(digits) + 32, maxprec=MAXPREC, what="delta of mu-GDP")


def _decide_le(mu2: Fraction, t: RatExp, dg: Fraction, maxprec: int = 1 << 14) -> Optional[bool]:
    """Is ``delta_mu(eps) <= dg``? Certified; None when undecided by ``maxprec`` bits."""
    prec = 64
    while True:
        v = _delta_arb(mu2, t, prec)
        if v.is_finite():
            if v <= _q(dg):
                return True
            if v > _q(dg):
                return False
        if prec >= maxprec:
            return None
        prec *= 2


def gdp_mu_for(eps: object = None, delta: object = 0, *, exp_eps: object = None, digits: int = 15) -> Enclosure:
    """``mu* = sup {mu : delta_mu(eps) <= delta}``: the largest mu for which mu-GDP implies (eps, delta)-DP.

    ``delta_mu(eps)`` increases continuously from 0 (``mu = 0``) to 1, so ``mu*`` is the
    root of ``delta_mu(eps) = delta``. A float search (mpmath) proposes it; the result's
    ends are then each checked rigorously in Arb: ``delta_lower(eps) <= delta < delta_upper(eps)``.

    Guarantee: enclosure of ``mu*`` whose lower end is itself a valid mu (certified) and
    whose upper end is certified too large; relative width about ``10^-digits``.
    ``delta = 0`` gives exactly 0.

    Raises:
        InvalidArgument: bad eps or delta.
        PrecisionError: the ends could not be certified.

    Examples:
        >>> gdp_mu_for(1, "1e-5", digits=6).decimal(6)     # delta_mu(1) = 1e-5 at mu = 0.268051...
        ('0.268051', '0.268052')

    References:
        Dong-Roth-Su (JRSS-B 2022), the GDP-to-(eps, delta) corollary.
    """
    t = _t_of(eps, exp_eps)
    dg = parse_delta(delta, "delta")
    if dg == 0:
        return Enclosure.point(0)
    dps = digits + 25
    with mpmath.workdps(dps):
        e = mpmath.log(mpmath.mpf(t.q.numerator) / t.q.denominator) + mpmath.mpf(t.r.numerator) / t.r.denominator
        target = mpmath.mpf(dg.numerator) / dg.denominator

        def g(mu):
            return mpmath.ncdf(-e / mu + mu / 2) - mpmath.exp(e) * mpmath.ncdf(-e / mu - mu / 2) - target

        lo, hi = mpmath.mpf(0), mpmath.mpf(1)
        while g(hi) <= 0:
            lo, hi = hi, hi * 2
            if hi > 1e12:
                raise PrecisionError("gdp_mu_for: no bracket below mu = 1e12")
        for _ in range(int(3.4 * dps) + 60):
            mid = (lo + hi) / 2
            if mid == lo or mid == hi:
                break
            if g(mid) <= 0:
                lo = mid
            else:
                hi = mid
        mu_hat = mpf_to_fraction(lo)
    rel = Fraction(1, 10 ** (digits + 1))
    for _ in range(8):
        a = mu_hat * (1 - rel)
        b = mu_hat * (1 + rel) if mu_hat > 0 else rel
        ok_a = a <= 0 or _decide_le(a * a, t, dg) is True
        ok_b = _decide_le(b * b, t, dg) is False
        if ok_a and ok_b:
            return Enclosure(max(a, Fraction(0)), b)
        rel *= 10
    raise PrecisionError("gdp_mu_for: the bracket of mu* could not be certified")


class GaussianTradeOff:
    """``G_mu``, the trade-off function of ``N(0, 1)`` against ``N(mu, 1)``; give ``mu`` or ``mu_squared``.

    Guarantee: enclosure (every value certified in Arb, ``digits`` significant digits).

    Raises:
        InvalidArgument: mu < 0, or not exactly one of mu / mu_squared.

    Examples:
        >>> G = GaussianTradeOff(1)
        >>> G("0.05").decimal(10)          # Phi(Phi^-1(0.95) - 1) = Phi(0.6448...)
        ('0.7404889771', '0.7404889772')
        >>> GaussianTradeOff(mu_squared=2).mu_squared == GaussianTradeOff(1).tensor(GaussianTradeOff(1)).mu_squared
        True

    References:
        Dong-Roth-Su (JRSS-B 2022): the definition of G_mu and the composition ``G_a (x) G_b = G_sqrt(a^2 + b^2)``.
    """

    __slots__ = ("mu_squared", "digits")

    def __init__(self, mu: object = None, *, mu_squared: object = None, digits: int = 30):
        object.__setattr__(self, "mu_squared", _mu2_of(mu, mu_squared))
        object.__setattr__(self, "digits", digits)

    def __setattr__(self, name, value):
        raise AttributeError("GaussianTradeOff is immutable")

    def __repr__(self) -> str:
        return f"GaussianTradeOff(mu_squared={self.mu_squared})"

    def __call__(self, alpha: object) -> Enclosure:
        """``G_mu(alpha) = erfc(mu / sqrt 2 - erfcinv(2 alpha)) / 2``. Guarantee: enclosure.
        Raises: InvalidArgument for alpha outside [0, 1]."""
        a = parse_rational(alpha, "alpha", expected="a rational number in [0, 1]")
        if not 0 <= a <= 1:
            raise InvalidArgument("alpha", "a rational number in [0, 1]", alpha)
        if a == 0:
            return Enclosure.point(1)
        if a == 1:
            return Enclosure.point(0)
        if self.mu_squared == 0:
            return Enclosure.point(1 - a)
        d = self.digits

        def step(prec: int) -> Optional[Enclosure]:
            with workprec(prec):
                x = _q(self.mu_squared).sqrt() / arb(2).sqrt() - (2 * _q(a)).erfcinv()
                v = x.erfc() / 2
                if not v.is_finite():
                    return None
                e = Enclosure(*arb_bounds(v)).clamp(Fraction(0), 1 - a)
            return e if e.accurate(d, floor=Fraction(1, 10 ** (2 * d))) else None

        return refine(step, start=digits_to_bits(d) + 32, maxprec=MAXPREC, what="G_mu(alpha)")

    def delta(self, eps: object = None, *, exp_eps: object = None, digits: Optional[int] = None) -> Enclosure:
        """``delta_mu(eps)`` (:func:`gdp_delta`). Guarantee: enclosure."""
        return gdp_delta(mu_squared=self.mu_squared, eps=eps, exp_eps=exp_eps, digits=digits or self.digits)

    def tensor(self, other: "GaussianTradeOff") -> "GaussianTradeOff":
        """``G_a (x) G_b = G_sqrt(a^2 + b^2)``. Guarantee: exact (in mu^2)."""
        if not isinstance(other, GaussianTradeOff):
            raise InvalidArgument("other", "a GaussianTradeOff", other)
        return GaussianTradeOff(mu_squared=self.mu_squared + other.mu_squared, digits=min(self.digits, other.digits))

    def power(self, k: int) -> "GaussianTradeOff":
        """``G_mu`` tensored ``k`` times: ``G_(sqrt(k) mu)``. Guarantee: exact (in mu^2)."""
        from ..numbers import parse_int

        return GaussianTradeOff(mu_squared=self.mu_squared * parse_int(k, "k", lo=1), digits=self.digits)
