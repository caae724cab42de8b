"""mu-GDP, certified: the trade-off function G_mu, mu-GDP <-> (eps, delta), Gaussian composition.

A mechanism is mu-GDP (Dong, Roth, Su, "Gaussian Differential Privacy", JRSS-B 2022;
arXiv 1905.02383) when telling its outputs on two neighbouring data sets apart is at least
as hard as telling ``N(0, 1)`` from ``N(mu, 1)``. With ``Phi`` the standard normal CDF:

* trade-off function (DRS eq. (2.2)): ``G_mu(alpha) = Phi(Phi^-1(1 - alpha) - mu)``;
* privacy profile (DRS Corollary 2.13): mu-GDP is ``(eps, delta(eps))``-DP for every
  ``eps >= 0`` and no smaller delta, with
  ``delta_mu(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)``;
* composition (DRS Corollary 3.3): mu_i-GDP mechanisms compose (adaptively, with the
  mu_i fixed in advance) to ``sqrt(sum mu_i^2)``-GDP; Smith-Thakurta Theorem 1 extends
  this to mu_i chosen adaptively (:mod:`exactdp.gdp.filter`);
* the Gaussian mechanism (DRS Theorem 2.7): noise ``N(0, sigma^2)`` on a statistic of
  L2 sensitivity ``Delta`` is ``Delta/sigma``-GDP.

Exactness: ``mu^2`` is held as an exact rational (so a composition is exact); every
value is a rigorous Arb enclosure with exact ends (:class:`~exactdp.numbers.Enclosure`),
refined until it has the significant digits asked, or exact where the value is rational
(``mu = 0``, ``alpha`` in {0, 1}, eps = 0 when the budget covers it). The inverses
(least eps at delta, largest mu at (eps, delta)) are found by a Newton iteration on Arb
midpoints (a guess only) and then certified by evaluating the monotone function at the
two rational ends of the enclosure, each sign decided rigorously.

Checked (tests/gdp/test_conversions.py) against the defining integrals
``sup_S P(S) - e^eps Q(S)`` and ``inf {beta}`` computed by mpmath quadrature at higher
precision, for eps, mu from 1e-6 to 1e6 and the degenerate ends (mu = 0, eps = 0,
delta = 0, alpha in {0, 1}); the DRS formulas held everywhere checked.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Callable, Iterable, Optional

from .._backend import arb, workprec
from ..engines.api import check_digits
from ..errors import CostTooHigh, InvalidArgument, PrecisionError
from ..numbers import (
    MAXPREC,
    Enclosure,
    accurate,
    arb_bounds,
    arb_of_fraction,
    decide_sign,
    digits_to_bits,
    parse_delta,
    parse_eps,
    parse_exp_eps,
    parse_list,
    parse_rational,
    refine,
)

__all__ = [
    "GDP",
    "gdp_delta",
    "gdp_epsilon",
    "gdp_mu",
    "gdp_tradeoff",
    "gaussian_mu",
    "compose_gdp",
    "TAIL_LIMIT",
    "MAX_PARTS",
]

#: Standard-normal arguments below ``-TAIL_LIMIT`` are refused: ``Phi(-680) < 10^-100410``,
#: beyond what an exact-ended enclosure of a few digits can be written in (its ends would
#: have over 100,000 digits); the refusal states the bound instead.
TAIL_LIMIT = 680

#: Most mu_i a composition is built from in one call (a list longer than this is refused
#: before it is read; ``k`` copies are a count and cost nothing).
MAX_PARTS = 10_000_000


# --------------------------------------------------------------------------
# mu as an exact square


def _mu_sq_of(mu: object, name: str = "mu") -> Fraction:
    """``mu^2`` for a GDP value, a rational mu >= 0, or a list of them (composed)."""
    if isinstance(mu, GDP):
        return mu.mu_sq
    items = parse_list(mu, name)
    if len(items) > MAX_PARTS:
        raise CostTooHigh(name, f"{len(items)} parts is refused (limit {MAX_PARTS})", estimate=len(items), limit=MAX_PARTS,
                          alternative="GDP(mu, k=...) for k copies of one mu")
    total = Fraction(0)
    for i, x in enumerate(items):
        nm = name if len(items) == 1 else f"{name}[{i}]"
        if isinstance(x, GDP):
            total += x.mu_sq
            continue
        v = parse_rational(x, nm, expected="a rational number >= 0")
        if v < 0:
            raise InvalidArgument(nm, "a rational number >= 0", x)
        total += v * v
    return total


def _exact_sqrt(q: Fraction) -> Optional[Fraction]:
    """``sqrt(q)`` when it is rational, else None."""
    from .._backend import is_square, isqrt, mpz

    p, r = mpz(q.numerator), mpz(q.denominator)
    if is_square(p) and is_square(r):
        return Fraction(int(isqrt(p)), int(isqrt(r)))
    return None


def sqrt_enclosure(q: Fraction, digits: int) -> Enclosure:
    """``sqrt(q)`` for a rational ``q >= 0``: exact when rational, else an enclosure to ``digits``."""
    s = _exact_sqrt(q)
    if s is not None:
        return Enclosure.point(s)
    def step(prec: int) -> Optional[Enclosure]:
        with workprec(prec):
            lo, hi = arb_bounds(arb_of_fraction(q).sqrt())
        return Enclosure(lo, hi) if accurate(lo, hi, digits) else None

    return refine(step, digits=digits, extra=-8, what=f"sqrt to {digits} digits")


class GDP:
    """A mu-GDP guarantee, held exactly as the rational ``mu^2``.

    Guarantee: exact (``mu_sq`` is the exact rational; ``mu`` is exact when ``mu_sq`` is a
    rational square, else an enclosure). Built from ``mu`` (a rational >= 0, or a list of
    them, composed: ``mu^2 = sum mu_i^2``, times ``k`` copies), or from ``mu_sq``.
    Immutable. The methods answer with the guarantees of :func:`gdp_delta`,
    :func:`gdp_epsilon` and :func:`gdp_tradeoff`.

    Parameters:
        mu: a rational >= 0 (a float is taken exactly), a list of them, or a GDP.
        mu_sq: ``mu^2`` directly (a rational >= 0), instead of ``mu``.
        k: the number of copies composed (an integer >= 1; default 1).

    Raises:
        InvalidArgument: negative, malformed or missing values; both ``mu`` and ``mu_sq``.

    Examples:
        >>> g = GDP([Fraction(3, 10), Fraction(4, 10)])      # composed: sqrt(0.09 + 0.16)
        >>> g.mu_sq, g.mu
        (Fraction(1, 4), Enclosure.point(1/2))
        >>> GDP(1, k=2).mu.text(20)                           # sqrt(2): an enclosure
        '[1.4142135623730950488, 1.4142135623730950489]'
        >>> GDP.gaussian(sigma=4, sensitivity=2)              # the Gaussian mechanism, Delta/sigma
        GDP(mu=1/2)

    References: Dong-Roth-Su Corollary 3.3 (composition), Theorem 2.7 (Gaussian mechanism).
    """

    __slots__ = ("mu_sq",)

    def __init__(self, mu: object = None, *, mu_sq: object = None, k: int = 1):
        from ..numbers import parse_int

        if (mu is None) == (mu_sq is None):
            raise InvalidArgument("mu / mu_sq", "given, exactly one of the two", None)
        kk = parse_int(k, "k", lo=1)
        if mu_sq is not None:
            q = parse_rational(mu_sq, "mu_sq", expected="a rational number >= 0")
            if q < 0:
                raise InvalidArgument("mu_sq", "a rational number >= 0", mu_sq)
        else:
            q = _mu_sq_of(mu)
        object.__setattr__(self, "mu_sq", q * kk)

    def __setattr__(self, name, value):
        raise AttributeError("GDP is immutable")

    @classmethod
    def gaussian(cls, sigma: object, sensitivity: object = 1) -> "GDP":
        """The Gaussian mechanism: noise ``N(0, sigma^2)`` on a statistic of L2 sensitivity
        ``sensitivity`` is ``(sensitivity / sigma)``-GDP.

        Guarantee: exact. Raises: InvalidArgument (sigma <= 0, sensitivity < 0).
        References: Dong-Roth-Su Theorem 2.7.
        """
        return cls(gaussian_mu(sigma, sensitivity))

    @property
    def mu(self) -> Enclosure:
        """``mu = sqrt(mu_sq)``: exact when rational, else a 30-digit enclosure."""
        return sqrt_enclosure(self.mu_sq, 30)

    def compose(self, *others: object) -> "GDP":
        """This guarantee composed with ``others`` (GDPs or mu values): ``mu^2`` adds.

        Guarantee: exact. Raises: InvalidArgument. References: Dong-Roth-Su Corollary 3.3.
        """
        return GDP(mu_sq=self.mu_sq + sum((_mu_sq_of(o, "others") for o in others), Fraction(0)))

    def delta(self, eps: object = None, *, exp_eps: object = None, digits: int = 30) -> Enclosure:
        """:func:`gdp_delta` of this guarantee. Guarantee and Raises: as :func:`gdp_delta`."""
        return gdp_delta(self, eps, exp_eps=exp_eps, digits=digits)

    def epsilon(self, delta: object, *, digits: int = 30) -> Enclosure:
        """:func:`gdp_epsilon` of this guarantee. Guarantee and Raises: as :func:`gdp_epsilon`."""
        return gdp_epsilon(self, delta, digits=digits)

    def tradeoff(self, alpha: object, *, digits: int = 30) -> Enclosure:
        """:func:`gdp_tradeoff` of this guarantee. Guarantee and Raises: as :func:`gdp_tradeoff`."""
        return gdp_tradeoff(self, alpha, digits=digits)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GDP) and other.mu_sq == self.mu_sq

    def __hash__(self) -> int:
        return hash((GDP, self.mu_sq))

    def __repr__(self) -> str:
        from ..numbers import short_fraction

        s = _exact_sqrt(self.mu_sq)
        if s is not None:
            return f"GDP(mu={short_fraction(s, 60)})"
        return f"GDP(mu_sq={short_fraction(self.mu_sq, 60)})"

    def to_dict(self, digits: int = 30) -> dict:
        """``{"mu_sq": "p/q", "mu": <enclosure>}``. Guarantee: exact / enclosure. Raises: nothing."""
        from ..numbers import fraction_str

        return {"mu_sq": fraction_str(self.mu_sq), "mu": sqrt_enclosure(self.mu_sq, check_digits(digits)).to_dict(digits)}


def gaussian_mu(sigma: object, sensitivity: object = 1) -> Fraction:
    """mu of the Gaussian mechanism: ``sensitivity / sigma``.

    Guarantee: exact (a rational; floats are taken exactly).

    Parameters:
        sigma: the noise standard deviation, a rational > 0.
        sensitivity: the statistic's L2 sensitivity, a rational >= 0 (default 1).

    Raises:
        InvalidArgument: sigma <= 0 or sensitivity < 0 (or not numbers).

    Examples:
        >>> gaussian_mu(2, 1), gaussian_mu("0.5", "3/2")
        (Fraction(1, 2), Fraction(3, 1))

    References: Dong-Roth-Su Theorem 2.7.
    """
    s = parse_rational(sigma, "sigma", expected="a rational number > 0")
    if s <= 0:
        raise InvalidArgument("sigma", "a rational number > 0", sigma)
    d = parse_rational(sensitivity, "sensitivity", expected="a rational number >= 0")
    if d < 0:
        raise InvalidArgument("sensitivity", "a rational number >= 0", sensitivity)
    return d / s


def compose_gdp(mus: Iterable[object], *, k: int = 1) -> GDP:
    """The composition of mu_i-GDP mechanisms (the mu_i fixed in advance), ``k`` times over:
    ``sqrt(k sum mu_i^2)``-GDP.

    Guarantee: exact (``mu^2`` is the exact rational sum).

    Raises:
        InvalidArgument: an empty list, a negative or malformed mu_i.

    Examples:
        >>> compose_gdp([Fraction(1, 2)] * 4)
        GDP(mu=1)

    References: Dong-Roth-Su Corollary 3.3; Smith-Thakurta Theorem 1 for adaptively
    chosen mu_i (:class:`exactdp.gdp.GDPFilter`).
    """
    return GDP(mus, k=k)


# --------------------------------------------------------------------------
# Arb kernels (at the context precision)




def _decreasing(fn: Callable[[arb], arb], x: arb) -> arb:
    """``fn(x)`` for a decreasing ``fn``, as the union of its values at the two exact ends of
    the ball: Arb's erfc/erf of a ball far in the tail (|x| ~ 1e5 and beyond) propagate the
    radius with a bound that loses every digit, while exact points stay accurate."""
    if x.rad() == 0:
        return fn(x)
    return fn(x.upper()).union(fn(x.lower()))


def _Phi(x: arb) -> arb:
    """The standard normal CDF, ``erfc(-x/sqrt 2)/2`` (Arb's erfc is accurate in the far tails
    at exact points; see :func:`_decreasing`)."""
    return _decreasing(lambda y: y.erfc(), -x / arb(2).sqrt()) / 2


def _erf(x: arb) -> arb:
    """``erf(x)`` (increasing), evaluated at the ends of the ball as :func:`_Phi`."""
    return -_decreasing(lambda y: -(y.erf()), x)


def _Phi_inv_upper_tail(p: Fraction) -> arb:
    """``Phi^-1(1 - p)`` for a rational ``p`` in (0, 1): ``sqrt 2 erfcinv(2 p)``, with the
    argument kept away from 2 (``erfcinv(2 - y) = -erfcinv(y)``) so that ``p`` near 1 loses no bits."""
    if p <= Fraction(1, 2):
        return arb(2).sqrt() * (arb_of_fraction(2 * p)).erfcinv()
    return -arb(2).sqrt() * (arb_of_fraction(2 * (1 - p))).erfcinv()


def _delta_arb(mu: arb, eps: arb, w: arb) -> arb:
    """``Phi(-eps/mu + mu/2) - w Phi(-eps/mu - mu/2)`` with ``w = e^eps`` (``mu > 0``)."""
    a = -eps / mu + mu / 2
    return _Phi(a) - w * _Phi(a - mu)


def _eps_arbs(eps: Optional[Fraction], t: Optional[Fraction]) -> tuple[arb, arb]:
    """``(eps, e^eps)`` as balls, from exactly one of eps or ``t = e^eps``."""
    if t is not None:
        w = arb_of_fraction(t)
        return w.log(), w
    e = arb_of_fraction(eps)  # type: ignore[arg-type]
    return e, e.exp()


def _tail_refusal(param: str, what: str, arg: arb) -> None:
    """Refuse when ``arg`` (a standard-normal argument bounding the value above) is certainly < -TAIL_LIMIT."""
    if arg < -TAIL_LIMIT:
        raise CostTooHigh(
            param,
            f"{what} is below Phi(-{TAIL_LIMIT}) < 1e-100410 (the standard-normal argument is "
            f"{arg.mid().str(5, radius=False)}); its enclosure would need ends of over 100,000 digits",
            estimate="< 1e-100410",
            limit=f"Phi(-{TAIL_LIMIT})",
            alternative="the upper bound 1e-100410",
        )


# --------------------------------------------------------------------------
# the privacy profile delta_mu(eps)


def _parse_eps_or_exp(eps: object, exp_eps: object, name: str = "eps") -> tuple[Optional[Fraction], Optional[Fraction]]:
    if (eps is None) == (exp_eps is None):
        raise InvalidArgument(f"{name} / exp_{name}", "given, exactly one of the two", None)
    if eps is not None:
        return parse_eps(eps, name), None
    t = parse_exp_eps(exp_eps, f"exp_{name}")
    return (Fraction(0), None) if t == 1 else (None, t)


def gdp_delta(mu: object, eps: object = None, *, exp_eps: object = None, digits: int = 30) -> Enclosure:
    """The least delta such that a mu-GDP mechanism is (eps, delta)-DP:
    ``delta_mu(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)``.

    Guarantee: enclosure with ``digits`` significant digits (relative); exact 0 when mu = 0.
    The value is tight: mu-GDP is not (eps, delta')-DP for any smaller delta'.

    Parameters:
        mu: a rational >= 0, a list of them (composed), or a :class:`GDP`.
        eps: a rational >= 0 (a float is taken exactly); or ``exp_eps = e^eps``, a rational >= 1.
        digits: significant digits of the enclosure, 1..10000 (default 30).

    Raises:
        InvalidArgument: bad mu, eps, digits; none or both of eps / exp_eps.
        CostTooHigh: the value is below ``Phi(-680)`` (``eps/mu - mu/2 > 680``): it is
            refused with that bound, which no exact-ended enclosure of it could beat cheaply.
        PrecisionError: not accurate by MAXPREC bits (e.g. mu below 1e-30000 with eps > 0).

    Examples:
        >>> gdp_delta(1, 1, digits=15).text(15)
        '[0.126936737506643, 0.126936737506644]'
        >>> gdp_delta(0, 1)                                  # mu = 0: perfectly private
        Enclosure.point(0)
        >>> gdp_delta([Fraction(3, 5), Fraction(4, 5)], exp_eps=1, digits=10).text(10)   # eps = 0: erf(1/(2 sqrt 2))
        '[0.3829249225, 0.3829249226]'

    References: Dong-Roth-Su Corollary 2.13.
    """
    d = check_digits(digits)
    mu_sq = _mu_sq_of(mu)
    e, t = _parse_eps_or_exp(eps, exp_eps)
    if mu_sq == 0:
        return Enclosure.point(0)
    if e == 0:
        # eps = 0: Phi(mu/2) - Phi(-mu/2) = erf(mu / (2 sqrt 2)), written without the cancellation
        def step0(prec: int) -> Optional[Enclosure]:
            with workprec(prec):
                v = _erf(arb_of_fraction(mu_sq).sqrt() / (2 * arb(2).sqrt()))
                if not v.is_finite():
                    return None
                lo, hi = arb_bounds(v)
            return Enclosure(lo, min(hi, Fraction(1))) if lo > 0 and accurate(lo, hi, d) else None

        return refine(step0, digits=d, what=f"delta to {d} digits")

    with workprec(64):
        m = arb_of_fraction(mu_sq).sqrt()
        ee, _ = _eps_arbs(e, t)
        _tail_refusal("eps", "delta", -ee / m + m / 2)

    def step(prec: int) -> Optional[Enclosure]:
        with workprec(prec):
            ee, w = _eps_arbs(e, t)
            v = _delta_arb(arb_of_fraction(mu_sq).sqrt(), ee, w)
            if not v.is_finite():
                return None
            lo, hi = arb_bounds(v)
        if lo <= 0 or not accurate(lo, hi, d):
            return None
        return Enclosure(lo, min(hi, Fraction(1)))

    return refine(step, digits=d, extra=8, what=f"delta to {d} digits")


# --------------------------------------------------------------------------
# certified inverses


def _sign(fn: Callable[[], arb], what: str) -> int:
    """The sign of the real number ``fn()`` encloses (at the context precision set by
    :func:`refine`), decided rigorously at rising precision (+1 or -1; never 0: the callers
    evaluate at points other than the root)."""

    return decide_sign(lambda prec: fn(), maxprec=MAXPREC, what=what)


def _solve(
    value: Callable[[arb], arb],
    slope: Callable[[arb], arb],
    target: Fraction,
    lo: Fraction,
    hi: Fraction,
    increasing: bool,
    digits: int,
    what: str,
) -> Enclosure:
    """The root ``x* > 0`` of ``value(x) = target`` for a strictly monotone ``value`` with
    ``lo < x* < hi`` (the caller has proved the signs at lo and hi), to ``digits`` digits.

    Newton on ``log value - log target`` at Arb midpoints (a guess; bisection when it
    leaves the bracket); every point whose ball decides the sign of ``value - target``
    narrows the bracket rigorously, and the iteration stops where the ball no longer
    decides (the precision's resolution). The enclosure ``[x - w, x + w]`` is then
    certified by the rigorous signs at its two rational ends (monotonicity puts the root
    between them); a failed certification keeps what it decided and doubles the precision.
    """
    s_before = -1 if increasing else 1  # sign of value - target left of the root
    first_goal = digits_to_bits(digits) + 40
    prec = min(96, first_goal)
    x = _between(lo, hi)
    first = True

    def round_at(goal: int) -> Optional[Enclosure]:
        # one round: Newton raised to ``goal`` bits (a proposal, checked by nothing: from 96 bits
        # the first time, doubling, since quadratic convergence needs few steps per doubling),
        # then the certificate at two rational ends, which decides
        nonlocal prec, x, lo, hi, first
        if not first:
            prec = goal
        first = False
        while True:
            x, lo, hi, sharp = _newton(value, slope, target, lo, hi, x, s_before, prec)
            if not sharp and prec < MAXPREC:
                # the evaluation itself lost the bits (e^eps for a huge eps): more precision, same goal
                goal = min(goal + prec, MAXPREC)
            if prec >= goal:
                break
            prec = min(2 * prec, goal)
        w = abs(x) / (8 * 10**digits)
        a, b = max(x - w, lo), min(x + w, hi)
        # the ends lo and hi have known signs (the invariant); others are decided rigorously
        sa = s_before if a == lo else _sign(lambda: value(arb_of_fraction(a)) - arb_of_fraction(target), what)
        sb = -s_before if b == hi else _sign(lambda: value(arb_of_fraction(b)) - arb_of_fraction(target), what)
        if sa == s_before and sb == -s_before:
            enc = Enclosure(a, b)
            if enc.accurate(digits):
                return enc
            lo, hi = a, b
        else:
            if sa == s_before:
                lo = a
            else:
                hi = a
            if sb == s_before:
                lo = max(lo, b)
            else:
                hi = min(hi, b)
            x = _between(lo, hi)
        if prec >= MAXPREC:  # the round's Newton reached the maximum (its goal may exceed refine's)
            raise PrecisionError(f"{what}: no certified root to {digits} digits by maxprec={MAXPREC} bits")
        return None

    # a failed certificate keeps what it decided and doubles the precision the round reached
    return refine(round_at, start=first_goal, grow=lambda _goal: 2 * prec, maxprec=MAXPREC,
                  what=f"{what}: certified root to {digits} digits")


def _newton(value, slope, target: Fraction, lo: Fraction, hi: Fraction, x: Fraction, s_before: int,
            prec: int) -> tuple[Fraction, Fraction, Fraction, bool]:
    """Newton steps at ``prec`` bits from ``x``; returns ``(x, lo, hi, sharp)`` with the bracket
    narrowed by every sign the balls decided. Stops when a step is below the precision or
    the ball of ``value - target`` no longer decides; ``sharp`` is False when that happened
    because the value itself was known to fewer than half the bits (not the root's resolution)."""
    tol = Fraction(1, 1 << max(prec - 24, 8))
    sharp = True
    with workprec(prec):
        t = arb_of_fraction(target)
        for _ in range(200 + prec // 4):
            xa = arb_of_fraction(x)
            v = value(xa)
            diff = v - t
            if not (diff.is_finite() and (diff > 0 or diff < 0)):
                sharp = v.is_finite() and v.rad() * (1 << (prec // 2)) <= abs(v.mid())
                break
            if (1 if diff > 0 else -1) == s_before:
                lo = x
            else:
                hi = x
            sl = slope(xa)
            new = None
            if v > 0 and sl.is_finite() and (sl > 0 or sl < 0):
                step = (v.log() - t.log()) * v / sl
                if step.is_finite() and abs(step) < arb_of_fraction(hi - lo):  # a step out of the bracket is not taken
                    new = _round_bits(x - _mid_fraction(step), prec)
            if new is None or not (lo < new < hi):
                new = _between(lo, hi)
            converged = abs(new - x) <= abs(x) * tol
            x = new
            if converged:
                break
    return x, lo, hi, sharp


def _between(lo: Fraction, hi: Fraction) -> Fraction:
    """A point strictly inside ``(lo, hi)``: the geometric mean (to a few bits) when the
    bracket spans more than a factor 4 above 0, else the midpoint."""
    if lo > 0 and hi > 4 * lo:
        e = (lo.numerator.bit_length() - lo.denominator.bit_length() + hi.numerator.bit_length() - hi.denominator.bit_length()) // 2
        g = Fraction(2) ** e
        if lo < g < hi:
            return g
    return (lo + hi) / 2


def _mid_fraction(x: arb) -> Fraction:
    m, e = x.mid().man_exp()
    m, e = int(m), int(e)
    return Fraction(m * (1 << e)) if e >= 0 else Fraction(m, 1 << -e)


def _round_bits(x: Fraction, bits: int) -> Fraction:
    """``x`` rounded to ``bits`` significant bits (keeps Newton's rationals small)."""
    if x == 0:
        return x
    e = x.numerator.bit_length() - x.denominator.bit_length()
    shift = bits - e
    if shift >= 0:
        return Fraction(round(x * (1 << shift)), 1 << shift)
    return Fraction(round(x / (1 << -shift)) * (1 << -shift))


def gdp_epsilon(mu: object, delta: object, *, digits: int = 30) -> Enclosure:
    """The least eps >= 0 such that a mu-GDP mechanism is (eps, delta)-DP: the root of
    ``delta_mu(eps) = delta``, or 0 when ``delta >= delta_mu(0) = erf(mu / (2 sqrt 2))``.

    Guarantee: enclosure with ``digits`` significant digits; exact 0 when delta covers
    ``delta_mu(0)`` (decided rigorously) or mu = 0; infinity when delta = 0 < mu.

    Parameters:
        mu: a rational >= 0, a list of them (composed), or a :class:`GDP`.
        delta: a rational in [0, 1).
        digits: significant digits, 1..10000 (default 30).

    Raises:
        InvalidArgument: bad mu, delta or digits.
        PrecisionError: the comparison with ``delta_mu(0)`` or the root could not be
            certified by MAXPREC bits (nothing is guessed).

    Examples:
        >>> gdp_epsilon(1, "1e-5", digits=12).text(12)
        '[4.37717809568, 4.37717809569]'
        >>> gdp_epsilon(1, "1/2"), gdp_epsilon(1, 0)          # delta_1(0) = 0.383 < 1/2;  delta = 0
        (Enclosure.point(0), Enclosure.infinity(1))

    References: Dong-Roth-Su Corollary 2.13 (inverted; delta_mu is strictly decreasing in eps).
    """
    d = check_digits(digits)
    mu_sq = _mu_sq_of(mu)
    dl = parse_delta(delta, "delta")
    if mu_sq == 0:
        return Enclosure.point(0)
    if dl == 0:
        return Enclosure.infinity()
    # delta >= delta_mu(0) = erf(mu/(2 sqrt 2))  <=>  eps = 0 suffices
    s0 = _sign(lambda: _erf(arb_of_fraction(mu_sq).sqrt() / (2 * arb(2).sqrt())) - arb_of_fraction(dl), "eps: delta against delta_mu(0)")
    if s0 < 0:
        return Enclosure.point(0)
    # an upper bound: delta_mu(eps) < Phi(-eps/mu + mu/2) <= delta once eps >= mu z + mu^2/2,
    # z = Phi^-1(1 - delta) (the subtracted term is positive)
    with workprec(digits_to_bits(d) + 40):
        ub = arb_of_fraction(mu_sq).sqrt() * _Phi_inv_upper_tail(dl) + arb_of_fraction(mu_sq) / 2
        hi = arb_bounds(ub)[1]
    hi = max(hi, Fraction(1, 10**9))  # hi > 0 (z may be negative for delta > 1/2)

    def value(x: arb) -> arb:
        return _delta_arb(arb_of_fraction(mu_sq).sqrt(), x, x.exp())

    def slope(x: arb) -> arb:  # d delta_mu / d eps = -e^eps Phi(-eps/mu - mu/2)
        m = arb_of_fraction(mu_sq).sqrt()
        return -x.exp() * _Phi(-x / m - m / 2)

    return _solve(value, slope, dl, Fraction(0), hi, False, d, f"eps to {d} digits")


#: ``gdp_mu`` tries the two closed-form bounds first from this eps on (below it they are never
#: within 30 digits of each other at delta >= 1e-300).
MU_BOUNDS_MIN_EPS = Fraction(2**64)


def _mu_between_bounds(e: Optional[Fraction], dl: Fraction, d: int) -> Optional[Enclosure]:
    """``mu*`` between two closed forms, when they are within ``d`` digits of each other (a
    huge eps: at eps = 10^4000 the root search spent 51 s on e^eps; these take milliseconds).

    With ``a = -eps/mu + mu/2`` and ``mu(a) = a + sqrt(a^2 + 2 eps)`` (increasing in ``a``),
    ``delta_mu(eps) = Phi(a) - e^eps Phi(a - mu)``. The second term is > 0, so ``Phi(a) = delta``
    gives ``mu <= mu*``. It is also ``<= phi(a) / x <= 1 / sqrt(4 pi eps) = c`` with ``x = eps/mu
    + mu/2 >= sqrt(2 eps)`` (Mills' ratio ``Phi(-x) <= phi(x) / x`` and ``e^eps phi(x) = phi(a)``),
    so ``Phi(a) = delta + c`` gives ``mu >= mu*``. Guarantee: enclosure (None when the two are
    further apart than ``d`` digits or ``delta + c >= 1``). Raises: nothing."""
    if e is None or e < MU_BOUNDS_MIN_EPS:
        return None  # (a rational e^eps given exactly has eps below 2^64: it would have 2.7e19 bits)
    with workprec(digits_to_bits(d) + 64):
        ee = arb_of_fraction(e)
        c_hi = arb_bounds(1 / (4 * arb.pi() * ee).sqrt())[1]
        if not dl + c_hi < 1:
            return None

        def mu_at(delta: Fraction) -> arb:
            z = _Phi_inv_upper_tail(delta)  # Phi(-z) = delta
            return -z + (z * z + 2 * ee).sqrt()

        lo, hi = arb_bounds(mu_at(dl))[0], arb_bounds(mu_at(dl + c_hi))[1]
    enc = Enclosure(lo, hi) if 0 < lo <= hi else None
    return enc if enc is not None and enc.accurate(d) else None


def gdp_mu(eps: object = None, delta: object = None, *, exp_eps: object = None, digits: int = 30) -> Enclosure:
    """The largest mu such that every mu-GDP mechanism is (eps, delta)-DP: the root of
    ``delta_mu(eps) = delta`` in mu (strictly increasing in mu).

    Guarantee: enclosure with ``digits`` significant digits (exact 0 when delta = 0: no
    mu > 0 is (eps, 0)-DP). Use the lower end as a budget: ``lower``-GDP is certainly
    (eps, delta)-DP.

    Parameters:
        eps: a rational >= 0; or ``exp_eps = e^eps``, a rational >= 1.
        delta: a rational in [0, 1).
        digits: significant digits, 1..10000 (default 30).

    Raises:
        InvalidArgument: bad eps, delta or digits.
        PrecisionError: the root could not be certified by MAXPREC bits.

    Examples:
        >>> gdp_mu(1, "1e-5", digits=12).text(12)
        '[0.268051123211, 0.268051123212]'
        >>> gdp_mu(0, "1e-5", digits=12).text(12)             # eps = 0: 2 sqrt(2) erfinv(delta)
        '[0.0000250662827469, 0.0000250662827470]'

    References: Dong-Roth-Su Corollary 2.13 (inverted in mu; d delta_mu(eps)/d mu = phi(-eps/mu + mu/2) > 0).
    """
    d = check_digits(digits)
    e, t = _parse_eps_or_exp(eps, exp_eps)
    if delta is None:
        raise InvalidArgument("delta", "a rational number in [0, 1)", None)
    dl = parse_delta(delta, "delta")
    if dl == 0:
        return Enclosure.point(0)
    fast = _mu_between_bounds(e, dl, d)
    if fast is not None:
        return fast

    def value(m: arb) -> arb:
        ee, w = _eps_arbs(e, t)
        if e == 0:
            return _erf(m / (2 * arb(2).sqrt()))
        return _delta_arb(m, ee, w)

    def slope(m: arb) -> arb:  # d delta_mu / d mu = phi(a), a = -eps/mu + mu/2
        ee, _ = _eps_arbs(e, t)
        a = -ee / m + m / 2
        return (-(a * a) / 2).exp() / (2 * arb.pi()).sqrt()

    # a certified lower bound: with z = Phi^-1(1 - delta), delta_mu(eps) < Phi(-eps/mu + mu/2) <= delta
    # for mu <= -z + sqrt(z^2 + 2 eps) (the root of mu^2/2 + z mu - eps)
    with workprec(digits_to_bits(d) + 40):
        ee, _ = _eps_arbs(e, t)
        z = _Phi_inv_upper_tail(dl)
        lb = -z + (z * z + 2 * ee).sqrt()
        lo = max(arb_bounds(lb)[0], Fraction(0)) if lb.is_finite() else Fraction(0)
    # an upper bound by doubling, each step decided rigorously (delta_mu(eps) -> 1 > delta)
    hi = max(2 * lo, Fraction(1))
    for _ in range(4000):
        if _sign(lambda: value(arb_of_fraction(hi)) - arb_of_fraction(dl), f"mu to {d} digits") > 0:
            break
        lo, hi = hi, 2 * hi
    else:  # pragma: no cover - delta < 1 bounds mu* (about 1400 for delta = 1 - 1e-100000)
        raise PrecisionError("mu: no upper bound found")
    return _solve(value, slope, dl, lo, hi, True, d, f"mu to {d} digits")


# --------------------------------------------------------------------------
# the trade-off function


def gdp_tradeoff(mu: object, alpha: object, *, digits: int = 30) -> Enclosure:
    """The trade-off function ``G_mu(alpha) = Phi(Phi^-1(1 - alpha) - mu)``: the least type II
    error of a test between N(0, 1) and N(mu, 1) with type I error at most alpha.

    Guarantee: enclosure with ``digits`` significant digits; exact at alpha = 0 (1),
    alpha = 1 (0) and for mu = 0 (``1 - alpha``).

    Parameters:
        mu: a rational >= 0, a list of them (composed), or a :class:`GDP`.
        alpha: a rational in [0, 1].
        digits: significant digits, 1..10000 (default 30).

    Raises:
        InvalidArgument: bad mu, alpha or digits.
        CostTooHigh: the value is below ``Phi(-680)`` (see :data:`TAIL_LIMIT`).
        PrecisionError: not accurate by MAXPREC bits.

    Examples:
        >>> gdp_tradeoff(1, "0.05", digits=12).text(12)
        '[0.740488977158, 0.740488977159]'
        >>> gdp_tradeoff(1, 0), gdp_tradeoff(0, "1/3")
        (Enclosure.point(1), Enclosure.point(2/3))

    References: Dong-Roth-Su Definition 2.4 / eq. (2.2).
    """
    d = check_digits(digits)
    mu_sq = _mu_sq_of(mu)
    a = parse_rational(alpha, "alpha", expected="a rational number in [0, 1]")
    if not 0 <= a <= 1:
        raise InvalidArgument("alpha", "a rational number in [0, 1]", alpha)
    if a == 0:
        return Enclosure.point(1)
    if a == 1:
        return Enclosure.point(0)
    if mu_sq == 0:
        return Enclosure.point(1 - a)
    with workprec(64):
        _tail_refusal("alpha", "G_mu(alpha)", _Phi_inv_upper_tail(a) - arb_of_fraction(mu_sq).sqrt())

    def step(prec: int) -> Optional[Enclosure]:
        with workprec(prec):
            v = _Phi(_Phi_inv_upper_tail(a) - arb_of_fraction(mu_sq).sqrt())
            if not v.is_finite():
                return None
            lo, hi = arb_bounds(v)
        if lo <= 0 or not accurate(lo, hi, d):
            return None
        return Enclosure(lo, min(hi, Fraction(1)))

    return refine(step, digits=d, extra=8, what=f"G_mu(alpha) to {d} digits")


