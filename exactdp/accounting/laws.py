"""Privacy-loss laws of the dominating pairs, in Arb balls.

A *loss law* describes a pair of distributions ``(P, Q)`` through its privacy loss
``L = ln(dP/dQ)``: a continuous part, given by the masses that ``P`` and ``Q`` put on
``{L < l}`` and ``{L > l}`` (:meth:`LossLaw.cdf`), finitely many atoms ``(l, P{L = l},
Q{L = l})``, the ``P``-mass where ``Q = 0`` (``L = +inf``) and the ``Q``-mass where ``P = 0``
(``L = -inf``). Every number is an Arb ball at the current working precision that contains
the true value.

The pairs (Accounting Lemmas 2-6, ``docs/accounting-lemmas.md``):

* Gaussian ``(sigma, Delta)``: ``(N(Delta, sigma^2), N(0, sigma^2))``; the loss is
  ``N(mu, s^2)`` under ``P`` and ``N(-mu, s^2)`` under ``Q`` with ``s = Delta / sigma``,
  ``mu = s^2 / 2``; both directions of add/remove (and replace-one with the replace-one
  sensitivity) have this law;
* Laplace ``(b, Delta)``: ``(Lap(Delta, b), Lap(0, b))``: atoms at ``+-E`` (``E = Delta / b``)
  and a continuous part between;
* randomized response and ``(eps, delta)`` mechanisms: finitely many atoms;
* Poisson subsampling at rate ``q`` of a pair ``(P, Q)``: ``(q P + (1 - q) Q, Q)`` for the
  removal of a record and ``(Q, q P + (1 - q) Q)`` for its addition; the loss is
  ``g(L) = ln(1 - q + q e^L)`` (removal) or ``-g(L)`` (addition) of the base loss.
"""

from __future__ import annotations

import math
from fractions import Fraction

from .._backend import arb, current_prec, workprec
from ..errors import InvalidArgument, PrecisionError
from ..events import Mechanism
from ..links import implements
from ..noise_events import Gaussian, Laplace, PoissonSampled, RandomizedResponse
from ..numbers import arb_of_fraction, refine

__all__ = ["LossLaw", "GaussianLaw", "LaplaceLaw", "AtomLaw", "SubsampledLaw", "law_of", "DIRECTIONS"]

#: The two directions of the add/remove relation: ``remove`` compares M(D) with M(D minus a
#: record), ``add`` M(D) with M(D plus a record).
DIRECTIONS = ("remove", "add")

_INF = math.inf


def _ball(x) -> arb:
    if isinstance(x, arb):
        return x
    if isinstance(x, Fraction):
        return arb_of_fraction(x)
    return arb(x)


def _two_sided(z: arb) -> tuple:
    """``(Phi(z sqrt 2), 1 - Phi(z sqrt 2))`` with one erfc: the small side by erfc, the other as 1 minus it."""
    if z.mid() <= 0:
        lt = (-z).erfc() / 2
        return lt, 1 - lt
    gt = z.erfc() / 2
    return 1 - gt, gt


def _two_sided_f(z: float) -> tuple:
    if z <= 0:
        lt = math.erfc(-z) / 2
        return lt, 1 - lt
    gt = math.erfc(z) / 2
    return 1 - gt, gt


class LossLaw:
    """The law of the privacy loss of a pair ``(P, Q)`` (see the module docstring).

    Subclasses give :meth:`cdf` (continuous part), :meth:`atoms`, :meth:`p_inf`, :meth:`q_ninf`
    and ``support`` (floats bracketing the continuous part's losses). Guarantee: enclosure
    (every ball contains the true value), at the current Arb precision.
    """

    #: (lo, hi): the continuous part lives in [lo, hi] (floats, may be infinite)
    support: tuple = (-_INF, _INF)
    #: a hashable description, equal for equal laws
    key: tuple = ()

    def cdf(self, l: object) -> tuple:
        """``(P{L < l}, P{L > l}, Q{L < l}, Q{L > l})`` of the continuous part at ``l`` (an arb,
        a Fraction, or +-inf)."""
        return arb(0), arb(0), arb(0), arb(0)

    def atoms(self) -> list:
        """``[(l, P{L = l}, Q{L = l}), ...]``: masses as balls, ``l`` finite, a Fraction when exactly rational."""
        return []

    def cdf_float(self, l: float) -> tuple:
        """:meth:`cdf` in floats (approximate: used only to propose bins)."""
        with workprec(53):
            return tuple(float(v.mid()) for v in self.cdf(Fraction(l) if math.isfinite(l) else l))

    def p_inf(self) -> arb:
        """``P{L = +inf}`` (the ``P``-mass where ``Q = 0``)."""
        return arb(0)

    def q_ninf(self) -> arb:
        """``Q{L = -inf}`` (the ``Q``-mass where ``P = 0``)."""
        return arb(0)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.key == other.key  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.key))


@implements("Accounting Lemma 2")
class GaussianLaw(LossLaw):
    """The loss of ``(N(Delta, sigma^2), N(0, sigma^2))``: ``N(mu, s^2)`` under P, ``N(-mu, s^2)``
    under Q, ``s = Delta / sigma``, ``mu = s^2 / 2``. Guarantee: enclosure."""

    def __init__(self, sigma: Fraction, sensitivity: Fraction = Fraction(1)):
        self.s = Fraction(sensitivity) / Fraction(sigma)
        self.key = (self.s,)
        s = float(self.s)
        self.support = (-_INF, _INF)
        self.mu_f, self.s_f = s * s / 2, s
        self._cache: tuple = (None, None)

    def cdf(self, l):
        if l == _INF:
            return arb(1), arb(0), arb(1), arb(0)
        if l == -_INF:
            return arb(0), arb(1), arb(0), arb(1)
        mu, r2 = self._consts()
        x = _ball(l)
        return _two_sided((x - mu) / r2) + _two_sided((x + mu) / r2)

    def _consts(self) -> tuple:
        """``(mu, s sqrt 2)`` as balls at the working precision (cached per precision: the same balls)."""
        prec = current_prec()
        if self._cache[0] != prec:
            s = _ball(self.s)
            self._cache = (prec, (s * s / 2, s * arb(2).sqrt()))
        return self._cache[1]

    def cdf_float(self, l: float) -> tuple:
        if l == _INF:
            return 1.0, 0.0, 1.0, 0.0
        if l == -_INF:
            return 0.0, 1.0, 0.0, 1.0
        r2 = self.s_f * math.sqrt(2)
        return _two_sided_f((l - self.mu_f) / r2) + _two_sided_f((l + self.mu_f) / r2)


@implements("Accounting Lemma 3")
class LaplaceLaw(LossLaw):
    """The loss of ``(Lap(Delta, b), Lap(0, b))``: atoms ``(E, 1/2, e^-E / 2)`` and
    ``(-E, e^-E / 2, 1/2)`` (``E = Delta / b``) and a continuous part on ``(-E, E)`` where
    ``x = (b L + Delta) / 2``. Guarantee: enclosure."""

    def __init__(self, b: Fraction, sensitivity: Fraction = Fraction(1)):
        self.E = Fraction(sensitivity) / Fraction(b)
        self.key = (self.E,)
        self.support = (-float(self.E), float(self.E))

    def cdf(self, l):
        E = _ball(self.E)
        half_tot = -((-E).expm1()) / 2  # (1 - e^-E) / 2: each of P, Q on the open interval
        if l == _INF or (l != -_INF and _ball(l) >= E):
            return half_tot, arb(0), half_tot, arb(0)
        if l == -_INF or _ball(l) <= -E:
            return arb(0), half_tot, arb(0), half_tot
        x = _ball(l)
        a = -(E - x) / 2  # ln of e^{-(E - l)/2}
        c = -(E + x) / 2
        p_lt = (a.exp() - (-E).exp()) / 2
        p_gt = -(a.expm1()) / 2
        q_lt = -(c.expm1()) / 2
        q_gt = (c.exp() - (-E).exp()) / 2
        return p_lt, p_gt, q_lt, q_gt

    def cdf_float(self, l: float) -> tuple:
        E = float(self.E)
        half_tot = -math.expm1(-E) / 2
        if l >= E:
            return half_tot, 0.0, half_tot, 0.0
        if l <= -E:
            return 0.0, half_tot, 0.0, half_tot
        a, c = -(E - l) / 2, -(E + l) / 2
        return ((math.exp(a) - math.exp(-E)) / 2, -math.expm1(a) / 2, -math.expm1(c) / 2,
                (math.exp(c) - math.exp(-E)) / 2)

    def atoms(self):
        small = (-_ball(self.E)).exp() / 2
        return [(self.E, arb(1) / 2, small), (-self.E, small, arb(1) / 2)]


class AtomLaw(LossLaw):
    """A law with finitely many atoms: randomized response and ``(eps, delta)`` mechanisms.

    ``spec``: a tuple of ``(kind, ...)`` rows evaluated at the working precision.
    Guarantee: enclosure.
    """

    def __init__(self, key: tuple, build):
        self.key = key
        self._build = build
        self.support = (0.0, 0.0)

    def atoms(self):
        return self._build()[0]

    def p_inf(self):
        return self._build()[1]

    def q_ninf(self):
        return self._build()[2]


@implements("Accounting Lemma 4")
def rr_law(p: Fraction, m: int, direction: str = "replace_one") -> AtomLaw:
    """Randomized response ``(p, m)``. Under replace-one: outputs ``y = x`` with ``P = 1 - p + p/m``,
    ``Q = p/m``; ``y = x'`` the reverse; the other ``m - 2`` values ``p/m`` under both. Under
    add/remove the record is compared with a uniformly random one (dp_accounting's convention):
    remove has losses ``ln(m(1-p) + p)`` (P-mass ``1 - p + p/m``) and ``ln p`` (``(m-1) p/m``), add
    their negatives with P-masses ``1/m`` and ``(m-1)/m``. Guarantee: enclosure."""

    def build_special():
        a = 1 - _ball(p) + _ball(p) / m  # P(y = x) for the true record
        c = _ball(p) / m
        u = arb(1) / m  # the uniform reference
        up, lo = (a / u).log(), (c / u).log()
        if direction == "remove":
            return [(up, a, u), (lo, c * (m - 1), u * (m - 1))], arb(0), arb(0)
        return [(-up, u, a), (-lo, u * (m - 1), c * (m - 1))], arb(0), arb(0)

    if direction in ("remove", "add"):
        return AtomLaw(("rr", p, m, direction), build_special)

    def build():
        a = 1 - _ball(p) + _ball(p) / m
        c = _ball(p) / m
        L = (a / c).log()
        out = [(L, a, c), (-L, c, a)]
        if m > 2:
            out.append((arb(0), c * (m - 2), c * (m - 2)))
        return out, arb(0), arb(0)

    return AtomLaw(("rr", p, m), build)


@implements("Accounting Lemma 4")
def mechanism_law(mech: Mechanism) -> AtomLaw:
    """The ``(eps, delta)`` pair (Kairouz-Oh-Viswanath): ``P = (delta, (1-delta) w/(1+w),
    (1-delta)/(1+w), 0)``, ``Q`` the mirror image, ``w = e^eps``. Guarantee: enclosure."""

    def build():
        w = mech.w.arb(current_prec())
        d = _ball(mech.delta)
        a = (1 - d) * w / (1 + w)
        c = (1 - d) / (1 + w)
        L = mech.eps if mech.eps is not None else w.log()  # exact when eps is rational
        return [(L, a, c), (-L, c, a)], d, d

    return AtomLaw(("mech", mech), build)


class SubsampledLaw(LossLaw):
    """Poisson subsampling at rate ``q`` of the pair of ``base``: ``(q P + (1 - q) Q, Q)`` for
    ``direction = "remove"``, ``(Q, q P + (1 - q) Q)`` for ``"add"`` (Accounting Lemma 5).
    The loss is ``g(L) = ln(1 - q + q e^L)``, resp. ``-g(L)``, of the base loss ``L``.
    Guarantee: enclosure.
    """

    def __init__(self, base: LossLaw, q: Fraction, direction: str):
        self.base, self.q, self.direction = base, Fraction(q), direction
        self.q_f = float(self.q)
        self._qcache: tuple = (None, None)
        self.key = (base.key, type(base).__name__, self.q, direction)
        lo_b, hi_b = base.support
        g = self._g_float
        if direction == "remove":
            self.support = (g(lo_b), g(hi_b))
        else:
            self.support = (-g(hi_b), -g(lo_b))

    def _g_float(self, l: float) -> float:
        q = float(self.q)
        if l == -_INF:
            return math.log1p(-q) if q < 1 else -_INF
        if l == _INF:
            return _INF
        if l > 700:
            return l + math.log(q) + math.log1p((1 - q) * math.exp(-l) / q)
        return math.log1p(q * math.expm1(l))

    def _g(self, l: arb) -> arb:
        q = _ball(self.q)
        return (q * l.expm1()).log1p()

    def _ginv(self, l):
        """``g^-1(l) = ln((e^l - 1 + q) / q)``, or -inf where ``l <= ln(1 - q)``."""
        if l == _INF or l == -_INF:
            return l
        x = _ball(l)
        q = self._qball()
        num = x.expm1() + q
        if num > 0:
            return (num / q).log()
        if num <= 0:
            return -_INF
        base = current_prec()

        def step(prec: int):
            with workprec(prec):
                q = _ball(self.q)
                num = x.expm1() + q
                if num > 0:
                    return (num / q).log()
                if num <= 0:
                    return -_INF
            return None

        # undecided at the working precision: a little more (64, then 256 bits more), not doubling
        return refine(step, start=base + 64, grow=lambda p: p + 192, maxprec=base + 256,
                      what="subsampled loss: a lattice point too close to ln(1 - q)")

    def _qball(self) -> arb:
        """``q`` as a ball at the working precision (cached per precision: the same ball)."""
        prec = current_prec()
        if self._qcache[0] != prec:
            self._qcache = (prec, _ball(self.q))
        return self._qcache[1]

    def cdf(self, l):
        q = self._qball()
        if self.direction == "remove":
            u = self._ginv(l)
            bp_lt, bp_gt, bq_lt, bq_gt = self.base.cdf(u)
            return q * bp_lt + (1 - q) * bq_lt, q * bp_gt + (1 - q) * bq_gt, bq_lt, bq_gt
        # add: L = -g(Lb) with P = Q_b, Q = q P_b + (1 - q) Q_b; {L < l} = {Lb > g^-1(-l)}
        m = -l if isinstance(l, float) else -_ball(l)
        u = self._ginv(m)
        bp_lt, bp_gt, bq_lt, bq_gt = self.base.cdf(u)
        return bq_gt, bq_lt, q * bp_gt + (1 - q) * bq_gt, q * bp_lt + (1 - q) * bq_lt

    def _ginv_float(self, l: float) -> float:
        if l == _INF or l == -_INF:
            return l
        q = self.q_f
        if l > 700:  # g^-1(l) = ln((e^l - 1 + q) / q) = l - ln q + ln(1 - (1 - q) e^-l), e^l beyond floats
            return l - math.log(q) + math.log1p(-(1 - q) * math.exp(-l))
        num = math.expm1(l) + q
        if num <= 0:
            return -_INF
        return math.log(num / q)

    def cdf_float(self, l: float) -> tuple:
        q = self.q_f
        if self.direction == "remove":
            bp_lt, bp_gt, bq_lt, bq_gt = self.base.cdf_float(self._ginv_float(l))
            return q * bp_lt + (1 - q) * bq_lt, q * bp_gt + (1 - q) * bq_gt, bq_lt, bq_gt
        bp_lt, bp_gt, bq_lt, bq_gt = self.base.cdf_float(self._ginv_float(-l))
        return bq_gt, bq_lt, q * bp_gt + (1 - q) * bq_gt, q * bp_lt + (1 - q) * bq_lt

    def atoms(self):
        q = _ball(self.q)
        out = []
        for l, p, qq in self.base.atoms():
            l = _ball(l)
            if self.direction == "remove":
                out.append((self._g(l), q * p + (1 - q) * qq, qq))
            else:
                out.append((-self._g(l), qq, q * p + (1 - q) * qq))
        qn = self.base.q_ninf()
        if self.q < 1 and qn != 0:  # base L = -inf maps to g(-inf) = ln(1 - q)
            l0 = (1 - q).log()
            if self.direction == "remove":
                out.append((l0, (1 - q) * qn, qn))
            else:
                out.append((-l0, qn, (1 - q) * qn))
        return out

    def p_inf(self):
        q = _ball(self.q)
        if self.direction == "remove":
            return q * self.base.p_inf()
        return self.base.q_ninf() if self.q == 1 else arb(0)

    def q_ninf(self):
        q = _ball(self.q)
        if self.direction == "remove":
            return self.base.q_ninf() if self.q == 1 else arb(0)
        return q * self.base.p_inf()


@implements("Accounting Lemma 6")
class ReplaceSampledGaussianLaw(LossLaw):
    """Poisson subsampling at rate ``q`` of the Gaussian ``(sigma, Delta)`` under replace-one: the
    tight dominating pair ``P = (1-q) N(0, sigma^2) + q N(Delta, sigma^2)``, ``Q = (1-q) N(0, sigma^2)
    + q N(-Delta, sigma^2)`` (Accounting Lemma 6); its loss ``L(x) = ln(1 - q + q e^{l(x)}) -
    ln(1 - q + q e^{l(-x)})``, ``l(x) = (Delta x - Delta^2/2) / sigma^2``, is increasing and odd in
    ``x``. ``L^-1`` is found by Newton steps and certified by a bracket checked in balls.
    Guarantee: enclosure."""

    def __init__(self, sigma: Fraction, sensitivity: Fraction, q: Fraction):
        self.sigma, self.D, self.q = Fraction(sigma), Fraction(sensitivity), Fraction(q)
        self.key = (self.sigma / self.D, self.q)
        self.t = self.sigma / self.D  # the law depends on sigma / Delta only: take Delta = 1
        self.t_f, self.q_f = float(self.t), float(self.q)
        self.support = (-_INF, _INF)
        self._warm = 0.0

    def _loss_f(self, x: float) -> float:
        t2, q = self.t_f ** 2, self.q_f

        def part(y: float) -> float:
            v = (y - 0.5) / t2
            return math.log1p(q * math.expm1(v)) if v < 700 else v + math.log(q)
        return part(x) - part(-x)

    def _slope_f(self, x: float) -> float:
        t2, q = self.t_f ** 2, self.q_f

        def w(y: float) -> float:  # q e^v / (1 - q + q e^v), v = (y - 1/2) / t^2
            v = (y - 0.5) / t2
            return 1.0 / (1.0 + (1 - q) / q * math.exp(-v)) if v > -700 else 0.0
        return (w(x) + w(-x)) / t2

    def _xstar_f(self, l: float) -> float:
        # closed form (Accounting Lemma 6's loss is a quadratic in u = e^{x / t^2}); Newton where it
        # overflows or cancels
        t2, q = self.t_f ** 2, self.q_f
        try:
            beta = (1 - q) * math.expm1(l) / (2 * q) * math.exp(1 / (2 * t2))
            el = math.exp(l)
            r = math.sqrt(beta * beta + el)
            u = beta + r if beta >= 0 else el / (r - beta)
            x = t2 * math.log(u)
            if math.isfinite(x) and abs(self._loss_f(x) - l) <= 1e-9 * max(1.0, abs(l)):
                return x
        except (OverflowError, ValueError, ZeroDivisionError):
            pass
        x = self._warm  # the last answer: the callers walk the loss line in order
        step = 1e-3 * max(1.0, abs(x))
        a, b = x - step, x + step
        while self._loss_f(a) > l:
            a -= 2 * (x - a)
        while self._loss_f(b) < l:
            b += 2 * (b - x)
        if not (a < x < b):
            x = (a + b) / 2
        x = self._newton(l, a, b, x)
        self._warm = x
        return x

    def _newton(self, l: float, a: float, b: float, x: float) -> float:
        for _ in range(100):  # Newton, kept inside the bracket by bisection
            f = self._loss_f(x) - l
            if f < 0:
                a = x
            else:
                b = x
            d = self._slope_f(x)
            nx = x - f / d if d > 0 else (a + b) / 2
            if not (a < nx < b):
                nx = (a + b) / 2
            if abs(nx - x) <= 1e-12 * max(1.0, abs(x)) or b - a <= 1e-12 * max(1.0, abs(a)):
                return nx
            x = nx
        return x

    def _loss(self, x: arb) -> arb:
        t2, q = _ball(self.t) ** 2, _ball(self.q)
        return ((x - arb(1) / 2) / t2).expm1().__mul__(q).log1p() - ((-x - arb(1) / 2) / t2).expm1().__mul__(q).log1p()

    def _xstar(self, l) -> tuple:
        """A bracket ``(x_lo, x_hi)`` (exact dyadic balls) with ``L(x_lo) <= l <= L(x_hi)`` certified.

        In closed form: with ``u = e^{x / t^2}`` and ``c = e^{-1 / (2 t^2)}``, ``e^l = (1 - q + q c u) /
        (1 - q + q c / u)`` is the quadratic ``u^2 - 2 beta u - e^l = 0``, ``beta = (1 - q)(e^l - 1) /
        (2 q c)``, whose positive root ``u = beta + sqrt(beta^2 + e^l)`` (``e^l / (sqrt(beta^2 + e^l) -
        beta)`` when ``beta < 0``, without cancellation) gives ``x = t^2 ln u``, evaluated in balls: ``L``
        is increasing, so the ends of the ball of ``x`` bracket it. Newton and a checked bracket when
        the ball is too wide."""
        lb = _ball(l)
        t2, q = _ball(self.t) ** 2, _ball(self.q)
        beta = (1 - q) * lb.expm1() / (2 * q) * (1 / (2 * t2)).exp()
        el = lb.exp()
        r = (beta * beta + el).sqrt()
        u = beta + r if beta >= 0 else (el / (r - beta) if beta < 0 else None)
        if u is not None and u > 0:
            x = t2 * u.log()
            if x.is_finite() and x.rad() <= arb(2) ** (-(current_prec() - 24)) * (1 + abs(x.mid())):
                return arb(x.lower()), arb(x.upper())
        xf = self._xstar_f(float(lb.mid()))
        x = arb(xf)
        prec = current_prec()
        slope = arb(self._slope_f(xf))
        for _ in range(max(2, prec // 40)):  # Newton with the float slope, on midpoints (a proposal)
            x = (x - (self._loss(x) - lb) / slope).mid()
        for w in (prec - 8, prec - 24, prec - 48, 20):
            e = arb(2) ** (-w) * (1 + abs(x.mid()))
            lo, hi = (x - e).mid(), (x + e).mid()
            if self._loss(lo) <= lb and self._loss(hi) >= lb:
                return lo, hi
        raise PrecisionError("replace-one loss: the inverse could not be bracketed")

    def cdf(self, l):
        if l == _INF:
            return arb(1), arb(0), arb(1), arb(0)
        if l == -_INF:
            return arb(0), arb(1), arb(0), arb(1)
        lo, hi = self._xstar(l)
        t, q = _ball(self.t), _ball(self.q)
        r2 = t * arb(2).sqrt()

        def rows(x):
            a0, a1 = _two_sided(x / r2)  # N(0)
            b0, b1 = _two_sided((x - 1) / r2)  # N(+1)
            c0, c1 = _two_sided((x + 1) / r2)  # N(-1)
            return ((1 - q) * a0 + q * b0, (1 - q) * a1 + q * b1, (1 - q) * a0 + q * c0, (1 - q) * a1 + q * c1)

        # {L < l} lies between {X < lo} and {X < hi}: the rows at the ball [lo, hi] hold it
        return rows(lo.union(hi))

    def cdf_float(self, l: float) -> tuple:
        if l == _INF:
            return 1.0, 0.0, 1.0, 0.0
        if l == -_INF:
            return 0.0, 1.0, 0.0, 1.0
        x, t, q = self._xstar_f(l), self.t_f * math.sqrt(2), self.q_f
        a0, a1 = _two_sided_f(x / t)
        b0, b1 = _two_sided_f((x - 1) / t)
        c0, c1 = _two_sided_f((x + 1) / t)
        return (1 - q) * a0 + q * b0, (1 - q) * a1 + q * b1, (1 - q) * a0 + q * c0, (1 - q) * a1 + q * c1


def base_law(event) -> LossLaw:
    """The loss law of an unsampled leaf event (the same in both directions)."""
    if isinstance(event, Gaussian):
        return GaussianLaw(event.sigma, event.sensitivity)
    if isinstance(event, Laplace):
        return LaplaceLaw(event.b, event.sensitivity)
    if isinstance(event, RandomizedResponse):
        return rr_law(event.noise_parameter, event.num_buckets)
    if isinstance(event, Mechanism):
        return mechanism_law(event)
    raise InvalidArgument("event", "a Gaussian, Laplace, RandomizedResponse, PoissonSampled or Mechanism", event)


@implements("Accounting Lemma 5")
def law_of(event, direction: str) -> LossLaw:
    """The loss law of the dominating pair of a leaf ``event`` in ``direction``: ``remove``, ``add``
    (the two directions of add/remove) or ``replace_one``.

    Sensitivities follow dp_accounting: ``sensitivity`` bounds one record's contribution (the
    add/remove sensitivity), so under replace-one an unsampled Gaussian or Laplace step moves by
    up to twice it; ``(eps, delta)`` mechanisms and randomized response carry their own pair
    under every relation.

    Guarantee: exact description (its numbers are enclosures at the working precision).
    Raises: InvalidArgument (not a leaf event; a Poisson-sampled event other than a Gaussian under
    replace-one, for which no dominating pair is established here).
    """
    if direction == "replace_one":
        if isinstance(event, PoissonSampled):
            if not isinstance(event.event, Gaussian):
                raise InvalidArgument("relation", "add_remove, remove or add for Poisson-sampled events other than "
                                      "the Gaussian (replace_one has a dominating pair here for the Gaussian only)",
                                      "replace_one")
            g = event.event
            return ReplaceSampledGaussianLaw(g.sigma, g.sensitivity, event.sample_rate)
        if isinstance(event, Gaussian):
            return GaussianLaw(event.sigma, 2 * event.sensitivity)
        if isinstance(event, Laplace):
            return LaplaceLaw(event.b, 2 * event.sensitivity)
        return base_law(event)
    if isinstance(event, PoissonSampled):
        return SubsampledLaw(law_of(event.event, "remove"), event.sample_rate, direction)
    if isinstance(event, RandomizedResponse):
        return rr_law(event.noise_parameter, event.num_buckets, direction)
    return base_law(event)
