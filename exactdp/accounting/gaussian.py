"""Compositions of unsampled Gaussian steps in closed form, in Arb balls.

The loss of one Gaussian step ``(sigma, Delta)`` is ``N(mu_i, 2 mu_i)`` under ``P`` with
``mu_i = s^2 / 2``, ``s = Delta / sigma`` (Accounting Lemma 2), so a composition of such steps
has the loss ``N(m, 2m)``, ``m = sum_i n_i s_i^2 / 2``: the pair of ``N(mu, 1)`` against
``N(0, 1)`` with ``mu^2 = sum_i n_i s_i^2``, whose

    delta(eps) = Phi(-eps / mu + mu / 2) - e^eps Phi(-eps / mu - mu / 2)

is decreasing in ``eps`` (Gaussian differential privacy's composition; the same formula as
:func:`exactdp.gdp.gdp_delta`, a separate implementation here because the accountant sits
below the papers' features). The accountant answers such compositions here, at any digits up
to its limit, instead of on a lattice.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Callable, Optional

from .._backend import arb, workprec
from ..links import implements
from ..numbers import Enclosure, arb_bounds, arb_of_fraction
from ..numbers.precision import accurate, decide_sign, refine

__all__ = ["gaussian_mu_sq", "closed_form"]

#: Highest working precision of the closed form (bits).
_MAX_PREC = 1 << 14


def gaussian_mu_sq(parts, relation: str) -> Optional[Fraction]:
    """``mu^2 = sum n (Delta / sigma)^2`` when every composed step is an unsampled Gaussian (the
    sensitivity doubled under replace-one), else None. Guarantee: exact."""
    from ..noise_events import Gaussian

    total = Fraction(0)
    for e, n in parts:
        if type(e) is not Gaussian:
            return None
        s = (2 if relation == "replace_one" else 1) * e.sensitivity / e.sigma
        total += n * s * s
    return total


def _delta(mu: arb, eps: arb) -> arb:
    """``Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)`` with ``Phi(x) = erfc(-x / sqrt 2) / 2``."""
    r2 = arb(2).sqrt()
    a = (-(-eps / mu + mu / 2) / r2).erfc() / 2
    b = (-(-eps / mu - mu / 2) / r2).erfc() / 2
    return a - eps.exp() * b


def _float_delta(mu: float, eps: float) -> float:
    a = math.erfc((eps / mu - mu / 2) / math.sqrt(2)) / 2
    b = math.erfc((eps / mu + mu / 2) / math.sqrt(2)) / 2
    try:
        return a - math.exp(eps) * b
    except OverflowError:
        return 0.0


def _propose(mu2: Fraction, delta: Fraction) -> float:
    """A float root of ``delta(eps) = delta`` by bisection on floats (a proposal only)."""
    mu, d = math.sqrt(mu2), float(delta)
    lo, hi = 0.0, mu * mu / 2 + mu * 40 + 1
    for _ in range(200):
        m = (lo + hi) / 2
        if _float_delta(mu, m) > d:
            lo = m
        else:
            hi = m
    return (lo + hi) / 2


def delta_enclosure(ball_at: Callable[[], arb], digits: int, prec: int, what: str) -> Enclosure:
    """A delta in ``[0, 1]`` from ``ball_at()`` (its ball at the working precision), refined until
    accurate to ``digits`` digits (or below ``10^-(digits + 300)``); an exact 0 is returned as such.

    Guarantee: enclosure. Raises: PrecisionError (not decided by 2^14 bits)."""
    def step(p: int) -> Optional[Enclosure]:
        with workprec(p):
            b = ball_at()
            if b == 0:
                return Enclosure.point(0)
            lo, hi = arb_bounds(b)
        lo = max(lo, Fraction(0))
        if hi >= lo and accurate(lo, hi, digits, floor=Fraction(1, 10 ** (digits + 300))):
            return Enclosure(lo, min(hi, Fraction(1)))
        return None

    return refine(step, start=prec, maxprec=_MAX_PREC, what=what)


def bisect_root(below: Callable[[Fraction], bool], lo: Fraction, hi: Fraction, digits: int) -> Enclosure:
    """The root of a decreasing delta(eps) - delta between ``lo`` (not below, or 0) and ``hi``
    (``below``: decided in balls), bisected until accurate to ``digits`` digits.

    Guarantee: enclosure (given the bracket). Raises: what ``below`` raises."""
    while not accurate(lo, hi, digits):
        m = (lo + hi) / 2
        if below(m):
            hi = m
        else:
            lo = m
    return Enclosure(lo, hi)


@implements("Accounting Lemma 2")
def closed_form(kind: str, x: Fraction, mu2: Fraction, digits: int) -> tuple[Enclosure, int]:
    """``epsilon(delta)`` (``kind="epsilon"``, ``x = delta``) or ``delta(eps)`` of the composition
    with ``mu^2 = mu2``, accurate to ``digits`` digits, and the precision its refinements start at.

    Guarantee: enclosure (each end decided in balls, at rising precision by
    :func:`~exactdp.numbers.precision.refine` and :func:`~exactdp.numbers.precision.decide_sign`).
    Raises: PrecisionError (not decided by 2^14 bits, e.g. a delta below the ball's reach).
    """
    prec = 64 + 4 * digits
    if mu2 == 0:
        return Enclosure.point(0), prec

    def ball(e: Fraction) -> arb:  # delta(e) at the working precision
        return _delta(arb_of_fraction(mu2).sqrt(), arb_of_fraction(e))

    if kind == "delta":
        return delta_enclosure(lambda: ball(x), digits, prec, "Gaussian closed form: delta"), prec

    # epsilon: 0 when delta(0) < delta, else the root, bracketed by two rationals decided in balls
    def below(e: Fraction) -> bool:  # delta(e) < delta, decided
        return decide_sign(lambda _p: ball(e) - arb_of_fraction(x), start=prec, maxprec=_MAX_PREC,
                           what="Gaussian closed form: delta(eps) - delta") < 0

    if below(Fraction(0)):
        return Enclosure.point(0), prec
    guess = Fraction(_propose(mu2, x))
    rel = Fraction(1, 10 ** (digits + 1))
    lo, hi = guess * (1 - rel), guess * (1 + rel) + Fraction(1, 10 ** (digits + 12))
    while not below(hi):
        hi = 2 * hi + 1
    while lo > 0 and below(lo):
        lo = lo / 2 if lo > Fraction(1, 10**30) else Fraction(0)
    return bisect_root(below, lo, hi, digits), prec
