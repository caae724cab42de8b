"""Certified calibration: the noise, sampling rate or number of steps that meets a budget
``(target_eps, delta)``, decided by the certified :class:`~exactdp.accounting.Accountant`.

The four questions users ask of DP-SGD and of noisy queries:

* :func:`calibrate_sigma`: the least Gaussian noise ``sigma`` (standard deviation; the noise
  multiplier when ``sensitivity = 1``);
* :func:`calibrate_laplace`: the least Laplace scale ``b``;
* :func:`calibrate_sample_rate`: the largest Poisson sampling rate ``q``;
* :func:`calibrate_steps`: the most steps.

**How a result is certified.** A float search proposes (secant steps on the logarithm of the
accountant's cheap, low-digit answers); only certified runs decide. The returned value ``x``
(``sigma``, ``b``, ``sample_rate`` or ``steps``) is one at which the accountant's *upper* end
of epsilon(delta) is ``<= target_eps``: a valid guarantee. The other end of the returned
enclosure is a value at which the accountant's *lower* end exceeds ``target_eps``: certainly
infeasible. Both certificates (the two epsilon enclosures, the lattice step and the digits
they were computed at) are fields of the result, so a fresh accountant can re-check them.

**Why an enclosure of the optimum follows.** The true epsilon(delta) is monotone in each
parameter, by post-processing (data processing for the hockey-stick divergence):

* ``sigma``: ``N(0, s'^2) = N(0, s^2) + N(0, s'^2 - s^2)`` for ``s' > s``, so the larger noise
  is a post-processing of the smaller, step by step;
* ``b``: for ``b' > b`` the characteristic function of ``Lap(b')`` divided by that of
  ``Lap(b)`` is ``(b/b')^2 + (1 - (b/b')^2) / (1 + b'^2 t^2)``: ``Lap(b') = Lap(b) + Z`` with
  ``Z = 0`` with probability ``(b/b')^2``, else ``Lap(b')``, independent;
* ``q``: every dominating pair of a Poisson-sampled step at rate ``q`` is ``(q P + (1 - q) Q,
  Q)`` or its mirror (or, for replace-one, two such mixtures with a common ``Q``); the Markov
  kernel "keep the output with probability ``q'/q``, else replace it by a fresh draw from
  ``Q``" maps the pair at ``q`` to the pair at ``q' < q``;
* steps: dropping the last step's output is a post-processing.

So the feasible parameters form a half-line and its end (the least sigma, the most steps, ...)
lies between the two certified points.

Guarantee tier of every function here: the returned value is certified feasible (an upper
bound on the least sigma / b, a lower bound on the largest q / most steps), and the returned
enclosure contains the optimum.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Optional

from ..errors import CostTooHigh, InvalidArgument
from ..noise_events import MAX_COUNT, Gaussian, Laplace, PoissonSampled
from ..numbers import Enclosure, parse_delta, parse_int, parse_positive, parse_rational
from .accountant import MAX_DIGITS, MAX_POINTS, RELATIONS, Accountant

__all__ = [
    "NoiseCalibration",
    "SampleRateCalibration",
    "StepsCalibration",
    "calibrate_sigma",
    "calibrate_laplace",
    "calibrate_sample_rate",
    "calibrate_steps",
    "MAX_SECONDS",
]

#: Longest calibration accepted by the cost model (seconds on the 2-core reference machine):
#: beyond it the request is refused up front with the estimate and a tolerance that fits.
MAX_SECONDS = 600.0

#: Probes of the float search (each a cheap accountant run) before it gives up.
_MAX_PROBES = 40

#: Certified runs spent moving a candidate outward before the digits are raised.
_MAX_MOVES = 4

#: Time per lattice point and squaring of the certified runs, measured on the 2-core machine
#: (118,721 points at 10^4 steps in 6.6 s; 1.67e6 points in 46 s): used only to refuse early.
_SECONDS_PER_POINT_STEP = 4e-6


@dataclass(frozen=True, kw_only=True)
class _Certificate:
    """What the certified runs found, re-checkable by ``Accountant.query("epsilon", delta, digits, h=h)``
    at the returned value (and with ``h=h_infeasible`` at the infeasible end)."""

    target_eps: Fraction
    delta: Fraction
    relation: str
    #: epsilon enclosure at the returned value: its upper end is <= target_eps
    eps_feasible: Enclosure
    #: epsilon enclosure at the certified-infeasible end: its lower end is > target_eps
    eps_infeasible: Optional[Enclosure]
    #: the lattice step of the run at the returned value, and the digits of both certified runs
    h: Fraction
    digits: int
    #: the lattice step of the run at the infeasible end (the same as ``h`` for the Gaussian;
    #: Laplace runs each refine their own lattice, aligned to their atoms); None without that run
    h_infeasible: Optional[Fraction]
    seconds: float
    probes: int


@dataclass(frozen=True, kw_only=True)
class NoiseCalibration(_Certificate):
    """The result of :func:`calibrate_sigma` or :func:`calibrate_laplace`.

    ``value`` (also ``sigma`` or ``b``) is the returned noise, certified feasible; ``least``
    (also ``least_sigma`` or ``least_b``) an enclosure of the least feasible noise, whose lower
    end is certified infeasible and whose upper end is ``value``; ``value <= least.lower * (1 +
    tol)``.

    Guarantee: ``value`` is an upper bound on the least noise meeting ``(target_eps, delta)``
    (the accountant's certified upper end of epsilon at ``value`` is ``<= target_eps``);
    ``least`` is an enclosure of it.
    """

    mechanism: str
    value: Fraction
    least: Enclosure
    tol: Fraction
    steps: int
    sample_rate: Optional[Fraction]
    sensitivity: Fraction

    @property
    def sigma(self) -> Fraction:
        """The returned Gaussian sigma (``mechanism == "gaussian"``). Raises: AttributeError otherwise."""
        return self._named("gaussian")

    @property
    def least_sigma(self) -> Enclosure:
        """An enclosure of the least Gaussian sigma. Raises: AttributeError for Laplace."""
        self._named("gaussian")
        return self.least

    @property
    def b(self) -> Fraction:
        """The returned Laplace scale (``mechanism == "laplace"``). Raises: AttributeError otherwise."""
        return self._named("laplace")

    @property
    def least_b(self) -> Enclosure:
        """An enclosure of the least Laplace scale. Raises: AttributeError for the Gaussian."""
        self._named("laplace")
        return self.least

    def _named(self, mech: str) -> Fraction:
        if self.mechanism != mech:
            raise AttributeError(f"a {self.mechanism} calibration has no {mech} parameter")
        return self.value


@dataclass(frozen=True, kw_only=True)
class SampleRateCalibration(_Certificate):
    """The result of :func:`calibrate_sample_rate`: ``sample_rate`` certified feasible,
    ``largest_sample_rate`` an enclosure of the largest feasible rate (its upper end certified
    infeasible, or exactly 1 when rate 1 meets the budget).

    Guarantee: ``sample_rate`` is a lower bound on the largest feasible rate; the enclosure contains it.
    """

    sample_rate: Fraction
    largest_sample_rate: Enclosure
    tol: Fraction
    steps: int
    event: object


@dataclass(frozen=True, kw_only=True)
class StepsCalibration(_Certificate):
    """The result of :func:`calibrate_steps`: ``steps`` certified feasible (0 when even one
    step exceeds the budget); ``most_steps`` an enclosure of the most feasible steps, exact
    when ``decided`` (then ``steps + 1`` is certified infeasible).

    Guarantee: ``steps`` is a lower bound on the most steps; ``most_steps`` contains it exactly.
    """

    steps: int
    most_steps: Enclosure
    decided: bool
    event: object


# -- validation --------------------------------------------------------------------------------

def _common(target_eps, delta, relation, tol):
    T = parse_positive(target_eps, "target_eps")
    d = parse_delta(delta, "delta")
    if d <= 0:
        raise InvalidArgument("delta", "in (0, 1)", d)
    if relation not in RELATIONS:
        raise InvalidArgument("relation", f"one of {', '.join(RELATIONS)}", relation)
    t = parse_rational(tol, "tol")
    if not (Fraction(1, 10**9) <= t <= Fraction(1, 2)):
        raise InvalidArgument("tol", "a relative tolerance in [1e-9, 1/2]", t)
    return T, d, t


def _rate(sample_rate):
    if sample_rate is None:
        return None
    q = parse_rational(sample_rate, "sample_rate")
    if not (0 < q <= 1):
        raise InvalidArgument("sample_rate", "in (0, 1]", q)
    return q


# -- the float proposals -----------------------------------------------------------------------

def _phi(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2))


def _gdp_mu_float(eps: float, delta: float) -> float:
    """Float mu with delta_mu(eps) = delta (Dong-Roth-Su Corollary 2.13); a proposal only."""
    def dl(mu):
        return _phi(-eps / mu + mu / 2) - math.exp(min(eps, 700)) * _phi(-eps / mu - mu / 2)
    lo, hi = 1e-12, 1.0
    while dl(hi) < delta and hi < 1e6:
        hi *= 2
    for _ in range(200):
        mid = math.sqrt(lo * hi)
        if dl(mid) < delta:
            lo = mid
        else:
            hi = mid
        if hi / lo < 1 + 1e-12:
            break
    return math.sqrt(lo * hi)


def _mu_one(sigma: float, sens: float, q: Optional[float]) -> float:
    """Float mu of one step: ``sens/sigma``, or the CLT rate ``q sqrt(e^(sens/sigma)^2 - 1)`` when sampled."""
    s = sens / sigma
    if q is None:
        return s
    return q * math.sqrt(math.expm1(min(s * s, 700)))


# -- the search --------------------------------------------------------------------------------

class _Probe:
    """One accountant run at a parameter value: the enclosure, its lattice and cost."""

    __slots__ = ("x", "lo", "hi", "h", "points", "seconds")

    def __init__(self, x, res):
        self.x = x
        self.lo, self.hi = res.value.lower, res.value.upper
        self.h, self.points, self.seconds = res.h, res.points, res.seconds

    @property
    def mid(self) -> float:
        if self.hi == math.inf:
            return math.inf
        return math.sqrt(max(float(self.lo), 1e-300) * float(self.hi))

    @property
    def rel_width(self) -> float:
        if self.hi == math.inf:
            return math.inf
        return float((self.hi - self.lo) / self.hi) if self.hi > 0 else 0.0


class _Search:
    """Calibration of one parameter ``x > 0`` (at most ``xmax``) on which epsilon is monotone
    (``direction = -1``: decreasing, as sigma and b; ``+1``: increasing, as q and steps)."""

    def __init__(self, make: Callable, budget: tuple, direction: int, steps_of: Callable, progress: Optional[Callable],
                 *, xmax=None, integer=False, fixed_h=True):
        # budget: (target eps T, delta, relation)
        self.make = make
        self.T, self.delta, self.relation = budget
        # one lattice step for the certified runs (not for Laplace: its lattice is aligned to
        # its atoms at +-sensitivity/b, which move with b)
        self.fixed_h = fixed_h
        self.dir, self.steps_of, self.progress, self.xmax, self.integer = direction, steps_of, progress, xmax, integer
        self.probes = 0
        self.t0 = time.perf_counter()

    def run(self, x, digits: int, h: Optional[Fraction] = None) -> _Probe:
        self.probes += 1
        acc = Accountant(self.relation).compose(*self.make(x))
        try:
            res = acc.query("epsilon", self.delta, digits, h=h, progress=self.progress)
        except CostTooHigh as e:
            raise CostTooHigh("target_eps", f"at {x if self.integer else float(x):.6g} the accountant refused: {e}",
                              estimate=e.estimate, limit=e.limit,
                              alternative="a larger tol, fewer steps, or a budget further from the extremes") from None
        return _Probe(x, res)

    def _clip(self, lx: float) -> float:
        if self.xmax is not None:
            lx = min(lx, math.log(float(self.xmax)))
        return max(lx, math.log(1e-12) if not self.integer else 0.0)

    def _x(self, lx: float):
        if self.integer:
            return max(1, min(int(round(math.exp(lx))), int(self.xmax)))
        return Fraction(math.exp(lx)).limit_denominator(10**15)

    def propose(self, x0: float):
        """Float search: the root of ``ln mid eps(x) = ln T`` in ``ln x``, bracketed then by
        regula falsi (Illinois), at 1 then 2 digits. Returns (ln root, elasticity, last probe)."""
        lT = math.log(float(self.T))
        lx = self._clip(math.log(x0))
        below = above = None  # (lx, f) with f < 0 / f > 0, f = ln mid - ln T
        slope = self.dir * 1.0
        digits = 1
        last = None
        seen: dict = {}
        for _ in range(_MAX_PROBES):
            x = self._x(lx)
            key = (x, digits)
            p = seen.get(key) or self.run(x, digits)
            seen[key] = p
            last = p
            lxa = math.log(float(x))
            f = math.log(p.mid) - lT if p.mid < math.inf else math.inf
            if f == 0 or (abs(f) < max(p.rel_width, 1e-12) and digits == 2):
                break
            if abs(f) < 3 * p.rel_width and digits == 1:
                digits = 2
                continue
            if f < 0:
                if below is not None and abs(below[0] - lxa) > 0 and math.isfinite(below[1]):
                    slope = (f - below[1]) / (lxa - below[0]) or slope
                below = (lxa, f)
            else:
                if above is not None and abs(above[0] - lxa) > 0 and math.isfinite(above[1]) and math.isfinite(f):
                    slope = (f - above[1]) / (lxa - above[0]) or slope
                above = (lxa, f)
            if below is not None and above is not None:
                a, fa = below
                b, fb = above
                if not math.isfinite(fb):
                    nxt = (a + b) / 2
                else:
                    nxt = a - fa * (b - a) / (fb - fa)
                    nxt = min(max(nxt, min(a, b) + 0.02 * abs(b - a)), max(a, b) - 0.02 * abs(b - a))
                    slope = (fb - fa) / (b - a)
                if abs(b - a) < 1e-7 or (self.integer and abs(math.exp(a) - math.exp(b)) < 1.5):
                    break
            else:
                if not math.isfinite(f):
                    step = -self.dir * math.log(4)
                else:
                    s = slope if slope * self.dir > 0 else self.dir * 1.0
                    step = -f / s
                    step = max(-math.log(4), min(math.log(4), step))
                nxt = lxa + step
                if self.xmax is not None and f < 0 and lxa >= math.log(float(self.xmax)) - 1e-12:
                    return lxa, abs(slope), p  # feasible at the largest value
            if self.integer and self._x(nxt) == x:  # an integer step of at least one
                nxt = math.log(max(1, x - (1 if f > 0 else -1) * self.dir))
                if self._x(nxt) == x:
                    break
            if abs(nxt - lxa) < 1e-9:
                break
            lx = self._clip(nxt)
        else:
            raise CostTooHigh("target_eps", f"the float search did not settle in {_MAX_PROBES} probes",
                              estimate=_MAX_PROBES, limit=_MAX_PROBES, alternative="a target further from the extremes")
        e = abs(slope) if math.isfinite(slope) and slope != 0 else 1.0
        return math.log(float(last.x)), min(max(e, 0.02), 50.0), last

    def step_for(self, probe: _Probe, digits: int) -> Optional[Fraction]:
        """The lattice step that should give ``digits`` at ``probe``'s value (the width shrinks as
        h^2), skipping the accountant's ladder of coarser lattices; None (the ladder) for Laplace."""
        if not self.fixed_h or probe.h == 0 or not (0 < probe.rel_width < math.inf):  # (h = 0: closed form)
            return None
        need = 10.0 ** -digits / 2
        h = float(probe.h) * min(1.0, math.sqrt(need / probe.rel_width) * 0.8)
        return Fraction(1, max(1, math.ceil(1 / h)))

    def check_cost(self, probe: _Probe, digits: int, tol: Fraction) -> None:
        """Refuse up front when the certified runs at ``digits`` would exceed the cost model."""
        need = 10.0 ** -digits / 2
        ratio = max(1.0, math.sqrt(max(probe.rel_width, need) / need))
        pts = probe.points * ratio
        steps = self.steps_of(probe.x)
        secs = 3 * _SECONDS_PER_POINT_STEP * pts * (math.log2(max(steps, 2)) + 1)
        over = max(pts / MAX_POINTS, secs / MAX_SECONDS)
        if over > 1:
            fit = float(tol) * over**2
            raise CostTooHigh(
                "tol", f"a relative tolerance of {float(tol):.3g} needs {digits}-digit certified runs: about "
                       f"{pts:.3g} lattice points and {secs:.3g} s (limits {MAX_POINTS:.0e} points, {MAX_SECONDS:.0f} s)",
                estimate=secs, limit=MAX_SECONDS, alternative=f"tol={_nice_up(fit)}")


def _nice_up(x: float) -> str:
    e = math.floor(math.log10(x))
    m = math.ceil(x / 10**e)
    return f"{m}e{e}" if m < 10 else f"1e{e + 1}"


def _digits_for(rel: float) -> int:
    """Digits whose accuracy rule (relative width <= 10^-d / 2) gives relative width <= ``rel``."""
    return max(2, math.ceil(-math.log10(2 * rel)))


def _round(x: float, sig: int, up: bool) -> Fraction:
    """``x`` rounded to ``sig`` significant decimal digits, up or down (exact Fraction)."""
    e = math.floor(math.log10(x)) - sig + 1
    scale = Fraction(10) ** e
    n = Fraction(x) / scale
    k = math.ceil(n) if up else math.floor(n)
    return max(k, 1) * scale


def _certify(search: _Search, lroot: float, e: float, probe: _Probe, tol: Fraction, xmax=None):
    """The two certified ends around the float root: ``(x_f, p_f, x_i, p_i, digits, h)`` with
    ``p_f.hi <= T`` and (unless ``x_i`` is None: ``x_f == xmax``) ``p_i.lo > T``."""
    T, sgn = search.T, -search.dir  # sgn: the direction in ln x that lowers epsilon
    lT = math.log(float(T))
    sig = max(3, math.ceil(-math.log10(float(tol))) + 2)
    margin = float(tol) / 8
    # the width of epsilon, relative, that leaves room in tol for the margins and the rounding
    need = float(tol) * e * 0.6
    digits = _digits_for(need)
    if digits > MAX_DIGITS:
        raise CostTooHigh("tol", f"a relative tolerance of {float(tol):.3g} needs more than {MAX_DIGITS} digits of epsilon",
                          estimate=digits, limit=MAX_DIGITS, alternative=f"tol={_nice_up(float(tol) * 10)}")
    for _ in range(3):
        search.check_cost(probe, digits, tol)
        c = search.run(probe.x, digits, search.step_for(probe, digits))
        if c.rel_width > 10.0 ** -digits / 2:  # the guessed lattice fell short: the accountant's ladder
            c = search.run(probe.x, digits)
        h = c.h if search.fixed_h else None
        lx0 = math.log(float(c.x))
        # the feasible end: move until the upper end is <= T
        # (from the enclosure at the root: either end may lie on either side of T)
        lf = lx0 + sgn * ((math.log(float(c.hi)) - lT) / e + margin) if c.hi < math.inf else lx0 + sgn * 0.5
        pf = None
        for j in range(_MAX_MOVES):
            xf = _round(math.exp(lf), sig, up=sgn > 0)
            if xmax is not None and xf >= xmax:
                xf = Fraction(xmax)
            pf = search.run(xf, digits, h)
            if pf.hi <= T:
                break
            lf = math.log(float(xf)) + sgn * ((math.log(float(pf.hi)) - lT) / e + margin * 2**j)
        else:
            pf = None
        if pf is None:
            digits = min(digits + 1, MAX_DIGITS)
            continue
        if xmax is not None and pf.x == xmax:
            return pf.x, pf, None, None, digits, pf.h
        li = lx0 - sgn * ((lT - math.log(float(c.lo))) / e + margin) if c.lo > 0 else lx0 - sgn * 0.5
        pi = None
        for j in range(_MAX_MOVES):
            xi = _round(math.exp(li), sig, up=sgn < 0)
            if xmax is not None and xi >= xmax:
                pi = None
                break
            pi = search.run(xi, digits, h)
            if pi.lo > T:
                break
            li = math.log(float(xi)) - sgn * ((lT - math.log(float(pi.lo))) / e + margin * 2**j)
        else:
            pi = None
        if pi is not None and pi.lo > T:
            lo_x, hi_x = sorted((pf.x, pi.x))
            if hi_x <= lo_x * (1 + tol):
                return pf.x, pf, pi.x, pi, digits, pf.h
        if digits == MAX_DIGITS:
            break
        digits += 1
        probe = c
    raise CostTooHigh("tol", f"the certified runs did not meet the relative tolerance {float(tol):.3g} "
                             f"by {digits} digits", estimate=digits, limit=MAX_DIGITS,
                      alternative=f"tol={_nice_up(float(tol) * 10)}")


# -- the public functions ------------------------------------------------------------------------

def _noise(mechanism: str, target_eps, delta, steps, kw: dict) -> NoiseCalibration:
    sample_rate, relation, sensitivity, tol, progress = (kw[n] for n in ("sample_rate", "relation", "sensitivity", "tol", "progress"))
    T, d, t = _common(target_eps, delta, relation, tol)
    k = parse_int(steps, "steps", lo=1, hi=MAX_COUNT)
    q = _rate(sample_rate)
    S = parse_positive(sensitivity, "sensitivity")
    Ev = Gaussian if mechanism == "gaussian" else Laplace

    def make(x):
        ev = Ev(x, S)
        return (PoissonSampled(ev, q) if q is not None else ev), k

    search = _Search(make, (T, d, relation), -1, lambda x: k, progress, fixed_h=mechanism == "gaussian")
    # the first proposal: the Gaussian's GDP (CLT when sampled), the Laplace's from its variance
    mu = _gdp_mu_float(float(T), float(d))
    fs = float(S) * (2 if relation == "replace_one" and q is None else 1)
    if mechanism == "gaussian":
        mstep = mu / math.sqrt(k)
        x0 = fs / mstep if q is None else fs / math.sqrt(math.log1p((mstep / float(q)) ** 2))
    else:  # a Laplace step of scale b has loss variance about 2 (fs / b)^2 (small fs / b)
        mstep = mu / math.sqrt(k)
        x0 = math.sqrt(2) * fs / mstep * (1 if q is None else float(q) * 1.6)
        x0 = max(x0, fs / float(T) / 2)
    lroot, e, probe = search.propose(x0)
    xf, pf, xi, pi, digits, h = _certify(search, lroot, e, probe, t)
    return NoiseCalibration(
        mechanism=mechanism, value=xf, least=Enclosure(xi, xf), tol=t, steps=k, sample_rate=q, sensitivity=S,
        target_eps=T, delta=d, relation=relation, eps_feasible=_encl(pf), eps_infeasible=_encl(pi), h=h,
        h_infeasible=pi.h if pi is not None else None, digits=digits, seconds=time.perf_counter() - search.t0, probes=search.probes)


def _encl(p: Optional[_Probe]) -> Optional[Enclosure]:
    if p is None:
        return None
    return Enclosure.infinity() if p.hi == math.inf and p.lo == math.inf else Enclosure(p.lo, p.hi)


def calibrate_sigma(target_eps: object, delta: object, *, steps: int, sample_rate: object = None,
                    relation: str = "add_remove", sensitivity: object = 1, tol: object = Fraction(1, 10**4),
                    progress: Optional[Callable] = None) -> NoiseCalibration:
    """The least Gaussian noise ``sigma`` (standard deviation; the noise multiplier at
    sensitivity 1) such that ``steps`` (optionally Poisson-sampled at ``sample_rate``) Gaussian
    steps are ``(target_eps, delta)``-DP under ``relation``, certified.

    Guarantee: upper bound: ``result.sigma`` (a short decimal) is certified feasible: the
    accountant's upper end of epsilon(delta) at it is ``<= target_eps``. ``result.least_sigma``
    is an enclosure of the least feasible sigma: its lower end is certified infeasible (the
    accountant's lower end exceeds ``target_eps``) and its upper end is ``sigma``; ``sigma <=
    least_sigma.lower * (1 + tol)``. The certificates are ``eps_feasible`` / ``eps_infeasible``
    at lattice step ``h`` and ``digits``.

    Parameters:
        target_eps: the budget's epsilon, a rational > 0.
        delta: the budget's delta, in (0, 1).
        steps: number of steps, 1..1e12.
        sample_rate: Poisson sampling rate in (0, 1], or None (no sampling).
        relation: ``"add_remove"`` (default), ``"remove"``, ``"add"`` or ``"replace_one"``.
        sensitivity: the L2 sensitivity (> 0); sigma is then the noise standard deviation.
        tol: relative tolerance in [1e-9, 1/2] (default 1e-4).
        progress: called now and then during the certified runs (for a progress line).

    Raises:
        InvalidArgument: a parameter outside its range (named).
        CostTooHigh: the certified runs the tolerance needs exceed the cost model (the estimate
            and a tolerance that fits are its fields), or the accountant refuses at a probe.

    Examples:
        >>> c = calibrate_sigma(1, "1e-5", steps=10, tol="1e-3")      # no sampling: 10 Gaussian steps
        >>> c.least_sigma.lower < c.sigma <= c.least_sigma.lower * (1 + c.tol), c.eps_feasible.upper <= 1
        (True, True)

    References: the accountant's certified bounds (Accounting Lemmas 2-8); the monotonicity in
    the module docstring.
    """
    return _noise("gaussian", target_eps, delta, steps, dict(sample_rate=sample_rate, relation=relation,
                  sensitivity=sensitivity, tol=tol, progress=progress))


def calibrate_laplace(target_eps: object, delta: object, *, steps: int, sample_rate: object = None,
                      relation: str = "add_remove", sensitivity: object = 1, tol: object = Fraction(1, 10**4),
                      progress: Optional[Callable] = None) -> NoiseCalibration:
    """The least Laplace scale ``b`` such that ``steps`` (optionally Poisson-sampled) Laplace
    steps of L1 sensitivity ``sensitivity`` are ``(target_eps, delta)``-DP under ``relation``.

    Guarantee: upper bound, as :func:`calibrate_sigma`: ``result.b`` is certified feasible,
    ``result.least_b`` an enclosure of the least feasible scale, ``b <= least_b.lower * (1 + tol)``.

    Raises:
        InvalidArgument: a parameter outside its range (named).
        CostTooHigh: beyond the cost model (with the estimate and a tolerance that fits).

    Examples:
        >>> c = calibrate_laplace(1, "1e-6", steps=1, tol="1e-3")
        >>> c.least_b.lower <= c.b, c.eps_feasible.upper <= 1
        (True, True)
    """
    return _noise("laplace", target_eps, delta, steps, dict(sample_rate=sample_rate, relation=relation,
                  sensitivity=sensitivity, tol=tol, progress=progress))


def calibrate_sample_rate(target_eps: object, delta: object, *, steps: int, sigma: object, relation: str = "add_remove",
                          sensitivity: object = 1, tol: object = Fraction(1, 10**4),
                          progress: Optional[Callable] = None) -> SampleRateCalibration:
    """The largest Poisson sampling rate ``q`` such that ``steps`` Poisson-sampled Gaussian steps
    of noise ``sigma`` are ``(target_eps, delta)``-DP under ``relation``.

    Guarantee: lower bound: ``result.sample_rate`` is certified feasible (a short decimal, or 1);
    ``result.largest_sample_rate`` an enclosure of the largest feasible rate (its upper end
    certified infeasible; exactly 1 when rate 1 is feasible); relative width <= ``tol``.

    Raises:
        InvalidArgument: a parameter outside its range (named).
        CostTooHigh: beyond the cost model (with the estimate and a tolerance that fits).

    Examples:
        >>> c = calibrate_sample_rate(1, "1e-5", steps=100, sigma=2, tol="1e-2")
        >>> 0 < c.sample_rate <= c.largest_sample_rate.upper <= 1
        True
    """
    T, d, t = _common(target_eps, delta, relation, tol)
    k = parse_int(steps, "steps", lo=1, hi=MAX_COUNT)
    g = Gaussian(sigma, sensitivity)

    def make(x):
        return PoissonSampled(g, x), k

    search = _Search(make, (T, d, relation), +1, lambda x: k, progress, xmax=Fraction(1))
    mu = _gdp_mu_float(float(T), float(d)) / math.sqrt(k)
    one = _mu_one(float(g.sigma), float(g.sensitivity), 1.0)
    x0 = min(1.0, mu / one)
    lroot, e, probe = search.propose(x0)
    xf, pf, xi, pi, digits, h = _certify(search, lroot, e, probe, t, xmax=Fraction(1))
    largest = Enclosure.point(1) if xi is None else Enclosure(xf, xi)
    return SampleRateCalibration(
        sample_rate=xf, largest_sample_rate=largest, tol=t, steps=k, event=g, target_eps=T, delta=d,
        relation=relation, eps_feasible=_encl(pf), eps_infeasible=_encl(pi), h=h,
        h_infeasible=pi.h if pi is not None else None, digits=digits,
        seconds=time.perf_counter() - search.t0, probes=search.probes)


def calibrate_steps(target_eps: object, delta: object, *, event: object, relation: str = "add_remove",
                    max_digits: int = 6, progress: Optional[Callable] = None) -> StepsCalibration:
    """The most steps of ``event`` (e.g. ``PoissonSampled(Gaussian(1), "1/256")``) whose
    composition is ``(target_eps, delta)``-DP under ``relation``: an exact integer when decided.

    Guarantee: lower bound: ``result.steps`` is certified feasible (the accountant's upper end
    at ``steps`` is ``<= target_eps``; 0 when even one step exceeds it). When ``result.decided``,
    ``steps + 1`` is certified infeasible (its lower end exceeds ``target_eps``) and ``steps`` is
    exactly the most; otherwise ``result.most_steps`` is the integer range the certified runs at
    ``max_digits`` digits could not split (reported, never guessed).

    Raises:
        InvalidArgument: a parameter outside its range (named), max_digits outside [2, 12].
        CostTooHigh: the accountant refuses at a probe (with the estimate).

    Examples:
        >>> from exactdp import Gaussian
        >>> c = calibrate_steps(1, "1e-5", event=Gaussian(20))   # sqrt(n)/20-GDP: n <= 400 mu*^2 = 28.7
        >>> c.steps, c.decided
        (28, True)
    """
    from ..noise_events import as_event

    T, d, _ = _common(target_eps, delta, relation, Fraction(1, 10**4))
    ev = as_event(event)
    md = parse_int(max_digits, "max_digits", lo=2, hi=MAX_DIGITS)
    search = _Search(lambda n: (ev, n), (T, d, relation), +1, lambda n: n, progress, xmax=MAX_COUNT, integer=True)

    def result(n_f, pf, n_i, pi, digits, h):
        # n_i: the least steps certified infeasible (None: none was certified); the one-step run
        # is at max_digits on its own lattice
        hi = n_i - 1 if n_i is not None else math.inf
        if pf is not None:
            h = pf.h
            digits = md if pf is one_run[0] else digits
        return StepsCalibration(
            steps=n_f, most_steps=Enclosure(n_f, hi), decided=(hi == n_f), event=ev, target_eps=T, delta=d,
            relation=relation, eps_feasible=_encl(pf), eps_infeasible=_encl(pi), h=h,
            h_infeasible=pi.h if pi is not None else None, digits=digits,
            seconds=time.perf_counter() - search.t0, probes=search.probes)

    one = search.run(1, md)
    one_run = [one]
    if one.lo > T:
        return result(0, None, 1, one, md, one.h)
    if one.hi > T:  # one step undecided at max_digits: only 0 steps are certified
        return result(0, None, None, None, md, one.h)
    lroot, e, probe = search.propose(max(1.0, (float(T) / max(one.mid, 1e-300)) ** 2))
    n0 = max(1, int(round(math.exp(lroot))))
    # digits that separate n from n + 1 (epsilon moves by about e / n), within max_digits
    digits = min(md, _digits_for(e / n0 / 4))
    try:
        search.check_cost(probe, digits, Fraction(1, 10**4))
    except CostTooHigh:
        digits = 2
    c = search.run(n0, digits)
    h = c.h
    nf, pf = _steps_feasible(search, c, one, e, digits, h)
    ni, pi = _steps_infeasible(search, c, e, digits, h)
    if pi is None:
        return result(nf, pf, None, None, digits, h)
    # bisect between the two certified ends while the runs decide
    while ni - nf > 1:
        m = (nf + ni) // 2
        pm = search.run(m, digits, h)
        if pm.hi <= T:
            nf, pf = m, pm
        elif pm.lo > T:
            ni, pi = m, pm
        else:
            break
    return result(nf, pf, ni, pi, digits, h)


def _steps_feasible(search: _Search, c: _Probe, one: _Probe, e: float, digits: int, h):
    """Steps certified feasible, moving down from the root run ``c`` (``one``: 1 step, feasible)."""
    T, lT = search.T, math.log(float(search.T))
    if c.hi <= T:
        return c.x, c
    nf = c.x
    for _ in range(_MAX_MOVES + 4):
        nf = max(1, min(nf - 1, int(math.floor(nf * math.exp(-(math.log(float(c.hi)) - lT) / e)))))
        if nf == 1:
            return 1, one
        c = search.run(nf, digits, h)
        if c.hi <= T:
            return nf, c
    return 1, one


def _steps_infeasible(search: _Search, c: _Probe, e: float, digits: int, h):
    """Steps certified infeasible, moving up from the root run ``c``; (None, None) if none was found."""
    T, lT = search.T, math.log(float(search.T))
    if c.lo > T:
        return c.x, c
    ni = c.x
    for _ in range(_MAX_MOVES + 4):
        ni = max(ni + 1, int(math.ceil(ni * math.exp((lT - math.log(float(c.lo))) / e))))
        if ni > MAX_COUNT:
            return None, None
        c = search.run(ni, digits, h)
        if c.lo > T:
            return ni, c
    return None, None
