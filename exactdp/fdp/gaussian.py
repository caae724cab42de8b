"""The Gaussian trade-off function ``G_mu`` as an f-DP object (issue 9).

``G_mu = T(N(0, 1), N(mu, 1))``, ``G_mu(alpha) = Phi(Phi^-1(1 - alpha) - mu)``
(Dong-Roth-Su, Gaussian differential privacy); ``G_a (x) G_b = G_sqrt(a^2 + b^2)``. ``mu``
enters through ``mu^2`` (a rational), so compositions are exact. The numbers (G_mu at alpha,
the (eps, delta) profile, its inverses) come from :mod:`exactdp.gdp`, the one certified
implementation of Gaussian DP; this module gives them the trade-off-function interface of
:mod:`exactdp.fdp` and a certified decision used by calibration.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Optional

from ..errors import InvalidArgument
from ..gdp import GDP, gdp_delta, gdp_tradeoff
from ..numbers import Enclosure, RatExp, parse_rational

__all__ = ["GaussianTradeOff", "delta_at_most"]


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


def delta_at_most(mu_squared: Fraction, t: RatExp, delta: Fraction, max_digits: int = 600) -> Optional[bool]:
    """Is ``delta_mu(eps) <= delta`` (``t = e^eps``, ``mu^2`` rational)? Decided on certified
    enclosures at rising digits; None when still undecided at ``max_digits``.

    Guarantee: exact decision when not None. Raises: as :func:`exactdp.gdp.gdp_delta`.
    """
    if t.r != 0 and t.q != 1:
        raise InvalidArgument("t", "e^eps given as eps (q = 1) or as exp_eps (r = 0)", t)
    g = GDP(mu_sq=mu_squared)
    digits = 20
    while digits <= max_digits:
        e = gdp_delta(g, exp_eps=t.q, digits=digits) if t.r == 0 else gdp_delta(g, t.r, digits=digits)
        if e.upper <= delta:
            return True
        if e.lower > delta:
            return False
        digits *= 3
    return None


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
        from ..numbers import short_fraction

        return f"GaussianTradeOff(mu_squared={short_fraction(Fraction(self.mu_squared))})"

    def __call__(self, alpha: object) -> Enclosure:
        """``G_mu(alpha) = erfc(mu / sqrt 2 - erfcinv(2 alpha)) / 2``. Guarantee: enclosure.
        Raises: InvalidArgument for alpha outside [0, 1]."""
        return gdp_tradeoff(GDP(mu_sq=self.mu_squared), alpha, digits=self.digits)

    def delta(self, eps: object = None, *, exp_eps: object = None, digits: Optional[int] = None) -> Enclosure:
        """``delta_mu(eps)`` (:func:`exactdp.gdp.gdp_delta`). Guarantee: enclosure."""
        return gdp_delta(GDP(mu_sq=self.mu_squared), eps, exp_eps=exp_eps, digits=digits or self.digits)

    def tensor(self, other: "GaussianTradeOff") -> "GaussianTradeOff":
        """``G_a (x) G_b = G_sqrt(a^2 + b^2)``. Guarantee: exact (in mu^2)."""
        if not isinstance(other, GaussianTradeOff):
            raise InvalidArgument("other", "a GaussianTradeOff", other)
        return GaussianTradeOff(mu_squared=self.mu_squared + other.mu_squared, digits=min(self.digits, other.digits))

    def power(self, k: int) -> "GaussianTradeOff":
        """``G_mu`` tensored ``k`` times: ``G_(sqrt(k) mu)``. Guarantee: exact (in mu^2)."""
        from ..numbers import parse_int

        return GaussianTradeOff(mu_squared=self.mu_squared * parse_int(k, "k", lo=1), digits=self.digits)
