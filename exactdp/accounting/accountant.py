"""The certified accountant: compose events, ask for epsilon(delta) or delta(eps) as enclosures.

:class:`Accountant` keeps the composed events (counts, not copies) and answers each query by
the two certified lattice bounds of :mod:`.lattice` (connect-the-dots above, the
post-processing bound below), refining the lattice until the enclosure holds the digits
asked or the cost model refuses. Compositions of steps without atoms are re-binned on coarser
lattices between the products (Accounting Lemma 13), keeping :func:`points_per_sd` points a
standard deviation, so that their length grows about as the square root of their spread in
steps of the discretisation, not as the spread itself.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Optional

from ..errors import CostTooHigh, InvalidArgument
from ..events import Composition, Mechanism
from ..noise_events import Composed, Event, PoissonSampled, RandomizedResponse, as_event
from ..numbers import Enclosure, parse_choice, parse_delta, parse_eps, parse_int
from ..numbers.precision import accurate
from .gaussian import closed_form, gaussian_mu_sq
from .lattice import (
    LatticePLD,
    aligned_step,
    coarsen,
    coarsen_to,
    compose,
    delta_bound,
    discretise,
    epsilon_bound,
    on_step,
    power,
    window,
)
from .laws import law_of
from .subsampled import closed_form as subsampled_closed_form
from .subsampled import one_subsampled_gaussian

__all__ = ["Accountant", "RELATIONS", "AccountingResult", "MAX_DIGITS", "MAX_POINTS"]

#: Neighbouring relations: the add/remove relation (the larger of its two directions, the
#: DP-SGD convention), each direction on its own, and replace-one.
RELATIONS = ("add_remove", "remove", "add", "replace_one")

#: Most digits an answer is asked for (the lattice width shrinks as h^2: 8 digits already
#: need about 10^4 times the points of 4).
MAX_DIGITS = 12

#: Largest lattice window (points of one composed distribution) the accountant builds
#: (refused beyond): under 2 GiB by :data:`BYTES_PER_POINT`, a few minutes on a 2-core machine.
MAX_POINTS = 3_500_000

#: Measured cost of one composed lattice point: the process peaked at 336 MiB for 624,395 points
#: (sigma 2, q 0.01, 3000 steps, delta 1e-15, 105-bit fixed point), and one direction took 9.6 s
#: on an idle 2-core machine (both bounds, discretisation and composition): 1.5e-5 s a point;
#: 2.1e6 points at 7 digits (sigma 1, q 0.01, 1000 steps, two directions) took 3.4e-5 s a point
#: of CPU on a loaded machine. The estimate takes 2.5e-5.
BYTES_PER_POINT = 560
SECONDS_PER_POINT = 2.5e-5

#: Measured time to discretise one distinct step (both bounds, one direction) at 3 digits: 0.07-0.09 s
#: for a subsampled Gaussian (sigma 1, q 1/256); it grows as 10^(digits/2) with the lattice. A
#: composition of many distinct steps is refused up front beyond :data:`MAX_SECONDS`.
SECONDS_PER_STEP_LAW = 0.1
MAX_SECONDS = 600

#: Re-binning between powers (Accounting Lemma 13): a partial composition of ``j`` steps re-binned
#: on a lattice of step ``h_j`` moves the final bounds by about ``COARSEN_ERROR (k / j) (h_j / S_j)^2``
#: relative (``S_j`` its loss's standard deviation; the error is second order, and the later squares
#: add it up ``k / j`` times). Measured (sigma 1, q 1/256, 10^4 steps, delta 1e-5): the composed
#: bounds re-binned 32 times coarser (62 points a standard deviation) moved by 1.6e-5 and 2.5e-6
#: relative, a partial power of 625 steps 16 times coarser (31 points) by 2e-5 and 5.5e-5 after the
#: 16 further products: 0.01 to 0.06.
COARSEN_ERROR = 0.06

#: Fewest lattice points a standard deviation of a re-binned composition keeps.
MIN_POINTS_PER_SD = 32


def points_per_sd(n_full: float, digits: int) -> float:
    """The points a standard deviation of a partial composition keeps when it is re-binned, so that
    all re-binnings together add about a tenth of the width ``digits`` allows: the first re-binning
    (at ``j`` steps, where ``S_j / h = 2 r``) dominates, ``COARSEN_ERROR (k / j) / r^2 <= 10^-digits / 20``
    with ``k / j = (n_full / 2 r)^2``; ``n_full`` the composition's standard deviation in points of
    the unre-binned lattice."""
    eps = 10.0 ** -digits / 20
    return max(float(MIN_POINTS_PER_SD), (COARSEN_ERROR * n_full**2 / (4 * eps)) ** 0.25)


def _predicted(full: float, widest: float, n_full: float, digits: int) -> float:
    """The longest composed distribution built: the whole span (``full`` points, ``n_full`` a
    standard deviation) unless the re-binning keeps it below about 3 :func:`points_per_sd` a standard
    deviation (a square of a partial result with fewer than 2), plus one step's window ``widest``."""
    if n_full <= 0:
        return max(widest, full)
    return max(widest, min(full, full * 3 * points_per_sd(n_full, digits) / n_full + widest))


def _cost(points: float, directions: int) -> str:
    return (f"about {points * BYTES_PER_POINT / 2**30:.2g} GiB and {points * directions * SECONDS_PER_POINT:.2g} s "
            f"(limit {MAX_POINTS:.2g} points, {MAX_POINTS * BYTES_PER_POINT / 2**30:.2g} GiB)")


@dataclass(frozen=True, kw_only=True)
class AccountingResult:
    """What one certified query computed: the enclosure, the lattice and the time.

    A composition of unsampled Gaussian steps is answered in closed form (Gaussian DP,
    :mod:`exactdp.accounting.gaussian`), and so is one Poisson-subsampled Gaussian step
    (:mod:`exactdp.accounting.subsampled`): then ``h = 0``, ``points = 0`` and ``fixed_bits`` is
    the Arb precision its refinements start at. ``method`` says which: ``"lattice"``,
    ``"gdp-closed-form"`` or ``"subsampled-closed-form"``.

    ``h`` is the step the steps were discretised on; ``points`` the length of the longest
    composed distribution built (after re-binning, whose steps are ``h`` times powers of two).

    Guarantee: ``value`` is an enclosure of the true epsilon(delta) or delta(eps) of the
    composition under ``relation``.
    """

    value: Enclosure
    relation: str
    h: Fraction
    fixed_bits: int
    points: int
    seconds: float
    directions: tuple
    method: str = "lattice"


class Accountant:
    """A certified privacy accountant for compositions of Gaussian, Laplace, randomized-response,
    ``(eps, delta)`` and Poisson-subsampled steps.

    ``relation``: ``"add_remove"`` (default: the larger of the remove and add directions, the
    convention of DP-SGD accountants), ``"remove"``, ``"add"``, or ``"replace_one"``.

    Compositions of unsampled Gaussian steps (Gaussian DP) and a single Poisson-subsampled
    Gaussian step (Accounting Lemma 11) are answered in closed form, always to 12 digits in
    milliseconds; everything else on the certified lattice.

    Guarantee: :meth:`epsilon` and :meth:`delta` return enclosures: the true optimal value of
    the composition (of the dominating pairs of Accounting Lemmas 2-6) provably lies in
    ``[lower, upper]``; the upper end is a valid privacy guarantee.

    Raises:
        InvalidArgument: an unknown relation, a bad event or count, delta outside (0, 1), eps < 0,
            digits outside [1, MAX_DIGITS].
        CostTooHigh: a query whose lattice would exceed :data:`MAX_POINTS` (with the estimate).

    Examples:
        >>> from exactdp import Accountant, Gaussian, PoissonSampled
        >>> acc = Accountant().compose(PoissonSampled(Gaussian(1), "1/256"), count=1000)
        >>> e = acc.epsilon("1e-5", digits=3)
        >>> bool(0.5 < e.lower <= e.upper < 0.7)
        True
    """

    def __init__(self, relation: str = "add_remove"):
        self.relation = parse_choice(relation, "relation", RELATIONS)
        self._parts: list = []  # [(leaf event, count)]
        self._cache: dict = {}
        self.last: Optional[AccountingResult] = None

    # -- building ------------------------------------------------------------------------------
    def compose(self, event: Event, count: int = 1) -> "Accountant":
        """Compose ``event`` ``count`` times (a count, never copies). Returns the accountant.

        Guarantee: exact (records the event). Raises: InvalidArgument (not an event, count < 1).
        """
        event = as_event(event)
        count = parse_int(count, "count", lo=1, hi=10**12)
        if isinstance(event, Composed):
            for leaf, n in event.leaves():
                self._add(leaf, n * count)
        elif isinstance(event, Composition):
            for m, n in event.groups():
                self._add(m, n * count)
        else:
            self._add(event, count)
        self._cache.clear()
        return self

    def _add(self, leaf, n: int) -> None:
        for i, (e, m) in enumerate(self._parts):
            if e == leaf:
                self._parts[i] = (e, m + n)
                return
        self._parts.append((leaf, n))

    @property
    def events(self) -> Composed:
        """What has been composed, as one :class:`~exactdp.noise_events.Composed` event. Guarantee: exact.
        Raises: InvalidArgument (nothing composed yet)."""
        if not self._parts:
            raise InvalidArgument("events", "at least one composed event", "none")
        return Composed(self._parts)

    @property
    def steps(self) -> int:
        """Total number of steps composed."""
        return sum(n for _, n in self._parts)

    # -- queries -------------------------------------------------------------------------------
    def epsilon(self, delta: object, digits: int = 6, *, progress: Optional[Callable] = None) -> Enclosure:
        """The optimal epsilon of the composition at ``delta``, as an enclosure.

        Guarantee: enclosure (certified; the upper end is a valid epsilon for ``delta``),
        accurate to ``digits`` significant digits unless the cost model refuses first.

        Raises:
            InvalidArgument: delta outside (0, 1), digits outside [1, MAX_DIGITS].
            CostTooHigh: the lattice needed exceeds :data:`MAX_POINTS`.
        """
        d = parse_delta(delta, "delta")
        if d <= 0:
            raise InvalidArgument("delta", "in (0, 1)", d)
        return self._query("epsilon", d, digits, progress).value

    def delta(self, eps: object, digits: int = 6, *, progress: Optional[Callable] = None) -> Enclosure:
        """The optimal delta of the composition at ``eps``, as an enclosure.

        Guarantee: enclosure (certified), accurate to ``digits`` digits unless refused.

        Raises:
            InvalidArgument: eps < 0, digits outside [1, MAX_DIGITS].
            CostTooHigh: the lattice needed exceeds :data:`MAX_POINTS`.
        """
        e = parse_eps(eps, "eps")
        return self._query("delta", e, digits, progress).value

    def query(self, kind: str, x: object, digits: int = 6, *, h: Optional[Fraction] = None,
              progress: Optional[Callable] = None) -> AccountingResult:
        """:meth:`epsilon` (``kind="epsilon"``, ``x`` = delta) or :meth:`delta` (``x`` = eps) with
        the lattice, precision and time reported; ``h`` fixes the lattice step (no refinement; the
        lattice is then used even where a closed form applies).

        Guarantee: enclosure. Raises: as :meth:`epsilon` / :meth:`delta`.
        """
        kind = parse_choice(kind, "kind", ("epsilon", "delta"))
        x = parse_delta(x, "delta") if kind == "epsilon" else parse_eps(x, "eps")
        if kind == "epsilon" and x <= 0:
            raise InvalidArgument("delta", "in (0, 1)", x)
        return self._query(kind, x, digits, progress, h)

    def curve(self, eps: object = None, *, digits: int = 3, delta_ref: object = Fraction(1, 10**5),
              progress: Optional[Callable] = None):
        """delta(eps) on a grid of ``eps`` as a :class:`~exactdp.accounting.curve.PrivacyCurve`,
        every point an enclosure, all read from ONE composed lattice: the one :meth:`epsilon`
        builds for ``digits`` digits at ``delta_ref`` (so the curve costs one query).

        ``eps``: a sequence of rationals >= 0; default 41 points from 0 to twice the upper end
        of epsilon(delta_ref) (rounded up to two significant digits).

        Guarantee: enclosure at every point (certified). Raises: InvalidArgument (bad eps,
        delta_ref or digits); CostTooHigh (the lattice, as :meth:`epsilon`).

        Examples:
            >>> from exactdp import Accountant, Gaussian
            >>> c = Accountant().compose(Gaussian(2), count=4).curve(digits=2)
            >>> len(c), c.delta_lower[0] <= c.delta_upper[0], c.delta_upper[-1] < c.delta_upper[0]
            (41, True, True)
        """
        from .curve import PrivacyCurve

        r = self.query("epsilon", delta_ref, digits, progress=progress)
        if eps is None:
            from ..numbers import fraction_to_decimal

            top = 2 * r.value.upper if r.value.upper not in (0, math.inf) else Fraction(10)
            top = Fraction(fraction_to_decimal(top, 2, "up"))  # two significant digits, rounded up
            grid = [top * i / 40 for i in range(41)]
        else:
            if isinstance(eps, (str, bytes)) or not hasattr(eps, "__iter__"):
                raise InvalidArgument("eps", "a sequence of rationals >= 0", eps)
            grid = [parse_eps(e, f"eps[{i}]") for i, e in enumerate(eps)]
        tol = _tolerance("epsilon", parse_delta(delta_ref, "delta_ref"), digits)
        lows, highs = [], []
        for x in grid:
            if r.points == 0:  # unsampled Gaussians or one subsampled step: each point in closed form
                v = self._query("delta", x, max(digits, 2), None).value
                lows.append(v.lower)
                highs.append(v.upper)
                continue
            lo_v, hi_v = Fraction(0), Fraction(0)
            for dname in r.directions:
                up, lo, _, _ = self._bounds(dname, r.h, r.fixed_bits, tol, progress, digits)  # the cached lattice
                a, b = _answer("delta", x, up, lo, r.fixed_bits)
                lo_v, hi_v = max(lo_v, a), max(hi_v, b)
            lows.append(lo_v)
            highs.append(hi_v)
        return PrivacyCurve(eps=tuple(grid), delta_lower=tuple(lows), delta_upper=tuple(highs),
                            relation=self.relation, h=r.h, digits=digits)

    # -- the computation -----------------------------------------------------------------------
    def _directions(self) -> list[str]:
        if self.relation == "add_remove":
            # the Gaussian, Laplace and (eps, delta) pairs are the same in both directions
            two = any(isinstance(e, (PoissonSampled, RandomizedResponse)) for e, _ in self._parts)
            return ["remove", "add"] if two else ["remove"]
        if self.relation == "replace_one":
            return ["replace_one"]
        return [self.relation]

    def _query(self, kind: str, x: Fraction, digits: int, progress, h_fixed=None) -> AccountingResult:
        digits = parse_int(digits, "digits", lo=1, hi=MAX_DIGITS)
        if not self._parts:
            raise InvalidArgument("events", "at least one composed event (call compose first)", "none")
        t0 = time.perf_counter()
        dirs = self._directions()
        mu2 = gaussian_mu_sq(self._parts, self.relation) if not h_fixed else None  # (h = 0: the closed form's own)
        if mu2 is not None:  # unsampled Gaussians only: Gaussian DP in closed form, no lattice
            value, prec = closed_form(kind, x, mu2, max(digits, MAX_DIGITS))  # cheap: always to 12 digits
            return self._answered(value, t0, dirs, fixed_bits=prec, method="gdp-closed-form")
        one = one_subsampled_gaussian(self._parts) if not h_fixed else None
        if one is not None:  # one Poisson-subsampled Gaussian step: its closed form, no lattice
            value, prec = subsampled_closed_form(kind, x, one[0], one[1], self.relation, max(digits, MAX_DIGITS))
            return self._answered(value, t0, dirs, fixed_bits=prec, method="subsampled-closed-form")
        distinct_cost = len(self._parts) * len(dirs) * SECONDS_PER_STEP_LAW * 10 ** ((digits - 3) / 2)
        if len(self._parts) > 1 and distinct_cost > MAX_SECONDS:  # (one step: the lattice's own refusal)
            raise CostTooHigh(
                "events", f"{len(self._parts)} distinct steps are each discretised on their own: about "
                f"{distinct_cost:.3g} s at {digits} digits (limit {MAX_SECONDS} s); faster: phases, equal steps "
                "composed with a count (a noise schedule rounded down to fewer distinct sigmas still gives a valid "
                "upper bound)", estimate=distinct_cost, limit=MAX_SECONDS, alternative="phases of equal steps")
        grain = _atom_grain(self._parts)
        tol = _tolerance(kind, x, digits)  # absolute tolerance in delta: what the cuts and rounding may add
        F = int(math.ceil(28 + math.log2(1 / tol)))
        # each direction has its own lattice; a direction whose upper end lies at or below another's
        # lower end cannot hold the maximum and is not refined further (under add_remove the
        # dominated direction, often the add one, stays on its first coarse lattice)
        h_t = {d: 2.0 ** -9 for d in dirs}  # the first lattice steps (floats; then aligned to the atoms)
        done: dict = {}  # direction -> (h, lower, upper, points)
        while True:
            for dname in dirs:
                h = h_fixed if h_fixed is not None else _step(self._parts, dname, h_t[dname], grain)
                if dname not in done or done[dname][0] != h:
                    up, lo, n, span = self._bounds(dname, h, F, tol, progress, digits)
                    done[dname] = (h, *_answer(kind, x, up, lo, F), n, span)
            lo_v = max(r[1] for r in done.values())
            hi_v = max(r[2] for r in done.values())
            # the direction holding the upper end decides the width (the lower end is at least its own)
            top = max(dirs, key=lambda d: (done[d][2], done[d][2] - done[d][1]))
            h, _, _, pts, (full, widest, n_full) = done[top]
            if h_fixed is not None or _accurate(lo_v, hi_v, digits, kind):
                return self._answered(_enclosure(lo_v, hi_v), t0, dirs, h=h, fixed_bits=F, points=pts)
            # the width shrinks as h^2 (Accounting Lemmas 7 and 8): the step that should reach the
            # digits with a margin, at least halving
            w_rel = _rel_width(done[top][1], hi_v)
            need = 10.0 ** -digits / 2
            shrink = math.sqrt(need / w_rel) * 0.9 if 0 < w_rel < math.inf else 0.25
            h_t[top] = float(h) * min(0.5, max(shrink, 1 / 256))
            # refused as soon as the predicted final lattice (not only the next one) is too large: the
            # span and one step's window grow as 1/h, the re-binned composition more slowly

            def final_points(dg: int) -> float:
                sh = math.sqrt(10.0 ** -dg / 2 / w_rel) * 0.9 if 0 < w_rel < math.inf else 0.25
                f = 1 / min(0.5, sh)
                return _predicted(full * f, widest * f, n_full * f, dg)

            est = final_points(digits)
            if est > MAX_POINTS:
                fit = next((dg for dg in range(digits - 1, 0, -1) if final_points(dg) <= MAX_POINTS), 1)
                raise CostTooHigh(
                    "digits", f"{digits} digits would need a lattice of about {est:.3g} points, {_cost(est, len(dirs))}; "
                    f"the enclosure at {pts} points was [{float(lo_v):.8g}, {float(hi_v):.8g}]; faster: "
                    f"digits={fit} (the most that fit)",
                    estimate=est, limit=MAX_POINTS, alternative=f"digits={fit}")

    def _answered(self, value: Enclosure, t0: float, dirs, *, fixed_bits: int, h: Fraction = Fraction(0),
                  points: int = 0, method: str = "lattice") -> AccountingResult:
        self.last = AccountingResult(value=value, relation=self.relation, h=h, fixed_bits=fixed_bits, points=points,
                                     seconds=time.perf_counter() - t0, directions=tuple(dirs), method=method)
        return self.last

    def _bounds(self, direction: str, h: Fraction, F: int, tol: float, progress, digits: int):
        key = (direction, h, F, digits)
        if key in self._cache:
            return self._cache[key]
        total = sum(n for _, n in self._parts)
        tail = tol / (8 * total)
        budget = max(1, int(tol / 64 * 2.0**F))
        prec = F + 48
        ups: list = []
        lows: list = []
        pts = 0
        steps = []
        var = 0.0
        widest = 0
        for leaf, n in self._parts:
            law = law_of(leaf, direction)
            ia, ib = window(law, h, tail)
            widest = max(widest, ib - ia)
            v1 = _float_variance(law, ia, ib, h)
            var += n * v1
            steps.append((law, ia, ib, n, v1))
        # refused up front: a step's window beyond the limit, or a composition beyond it: the cuts
        # keep about +-z sd, z the normal quantile of the cut budget (measured: 0.8-0.95 of the
        # points this predicts at delta 1e-5 to 1e-15)
        z = math.sqrt(2 * math.log(64 / tol))
        n_full = math.sqrt(var) / float(h)
        full = int(2 * z * n_full) + widest
        # only compositions without atoms are re-binned: a composition of atoms lives on a sparse
        # sub-lattice, not smooth on the scale of a step, where the re-binning would be first order
        smooth = all(not law.atoms() for law, *_ in steps)
        est = _predicted(full, widest, n_full if smooth else 0.0, digits)
        if est > MAX_POINTS:
            raise CostTooHigh("steps", f"the composition would span about {est:.3g} lattice points at h = {float(h):.3g}, "
                              f"{_cost(est, 1)}; faster: fewer steps or fewer digits", estimate=est, limit=MAX_POINTS,
                              alternative="fewer steps or fewer digits")
        disc = []
        for law, ia, ib, n, v1 in steps:
            u1, l1 = discretise(law, h, F, ia, ib, prec)
            disc.append((u1, l1, n, v1))
            if progress:
                progress()
        r = points_per_sd(n_full, digits) if smooth else math.inf
        sds = []
        for u1, l1, n, v1 in disc:
            res = (math.sqrt(v1), r) if smooth else None
            ups.append(power(u1, n, budget, progress, res))
            lows.append(power(l1, n, budget, progress, res))
            sds.append(math.sqrt(n * v1))
        U, L = ups[0], lows[0]
        sd = sds[0]
        for u, l, sd_b in zip(ups[1:], lows[1:], sds[1:]):
            U, L = _joined(U, u, sd, sd_b, budget, r), _joined(L, l, sd, sd_b, budget, r)
            sd = math.hypot(sd, sd_b)
            pts = max(pts, U.poly.length())
        pts = max(pts, U.poly.length(), L.poly.length())
        out = (U, L, pts, (full, widest, n_full))
        self._cache[key] = out
        return out


def _joined(a: LatticePLD, b: LatticePLD, sd_a: float, sd_b: float, budget: int, r: float) -> LatticePLD:
    """Two phases (loss standard deviations ``sd_a``, ``sd_b``) composed, each on a step a power-of-two
    multiple of the lattice's (:func:`~exactdp.accounting.lattice.power`): the finer re-binned to the
    coarser step when it keeps ``r / 2`` points a standard deviation there, else the coarser put
    exactly on the finer lattice; the result re-binned while its standard deviation spans ``r``."""
    if a.h < b.h:
        a, b, sd_a, sd_b = b, a, sd_b, sd_a  # a: the coarser
    if b.h < a.h:
        b = coarsen(b, int(a.h / b.h)) if sd_b >= r / 2 * float(a.h) else b
        a = on_step(a, b.h)
    out = compose(a, b, budget)
    return coarsen_to(out, math.hypot(sd_a, sd_b), r) if r < math.inf else out


def _float_variance(law, ia: int, ib: int, h: Fraction) -> float:
    """Float variance of one step's loss under P, from the float cdf on 400 points of its window
    and its atoms (a cost estimate only)."""
    lo, hi = ia * float(h), ib * float(h)
    pts = [lo + (hi - lo) * i / 400 for i in range(401)]
    rows = [law.cdf_float(x) for x in pts] if law.support[0] != law.support[1] else []
    ms = []
    for a, b, x0, x1 in zip(rows, rows[1:], pts, pts[1:]):
        m = (b[0] - a[0]) if b[0] < 0.5 else (a[1] - b[1])
        ms.append((max(m, 0.0), (x0 + x1) / 2))
    for l, p, _ in law.atoms():
        ms.append((float(p.mid()), float(l) if isinstance(l, Fraction) else float(l.mid())))
    tot = sum(m for m, _ in ms)
    if tot <= 0:
        return 0.0
    mean = sum(m * x for m, x in ms) / tot
    return sum(m * (x - mean) ** 2 for m, x in ms) / tot


def _atom_grain(parts) -> Optional[Fraction]:
    """The largest rational ``G`` of which every atom's loss is a multiple (unsampled ``(eps, delta)``
    mechanisms with rational eps, Laplace with rational ``Delta / b``), or None when some atom's
    loss is not rational (randomized response, ``exp_eps`` mechanisms, subsampled atoms). A
    lattice of step ``G / j`` holds every atom exactly, so neither bound rounds them."""
    from ..noise_events import Laplace

    g: Optional[Fraction] = None
    for e, _ in parts:
        if isinstance(e, Mechanism):
            v = e.eps
        elif isinstance(e, Laplace):
            v = e.sensitivity / e.b
        elif isinstance(e, (RandomizedResponse, PoissonSampled)):
            return None
        else:
            continue
        if v is None:
            return None
        if v == 0:
            continue
        g = v if g is None else Fraction(math.gcd(v.numerator * g.denominator, g.numerator * v.denominator),
                                         v.denominator * g.denominator)
    return g


def _lattice(h_t: float, grain: Optional[Fraction]) -> Fraction:
    """The lattice step for a target ``h_t``: ``grain / j`` (the least j with step <= h_t) when the
    atoms have a grain, else ``1 / n``."""
    if grain is not None:
        return grain / max(1, math.ceil(float(grain) / h_t))
    return Fraction(1, max(1, math.ceil(1 / h_t)))


def _step(parts, direction: str, h_t: float, grain: Optional[Fraction]) -> Fraction:
    """The lattice step for a target ``h_t``: on the grain when the atoms are rational
    (:func:`_lattice`), else aligned to the atoms of the step composed most often that has two
    (:func:`~exactdp.accounting.lattice.aligned_step`: the lower bound then keeps them to second
    order), else ``1 / n``."""
    if grain is None:
        for leaf, _n in sorted(parts, key=lambda r: -r[1]):
            h = aligned_step(law_of(leaf, direction), h_t)
            if h is not None:
                return h
    return _lattice(h_t, grain)


def _tolerance(kind: str, x: Fraction, digits: int) -> float:
    if kind == "epsilon":
        return float(x) * 10.0 ** -(digits + 2)
    return 10.0 ** -(digits + 20)


def _answer(kind: str, x: Fraction, up: LatticePLD, lo: LatticePLD, F: int):
    prec = F + 64
    if kind == "epsilon":
        hi_v = epsilon_bound(up, x, prec)
        lo_v = epsilon_bound(lo, x, prec)
        if hi_v != math.inf and lo_v > hi_v:  # both certified: cannot happen
            raise AssertionError("certified bounds crossed")
        return lo_v, hi_v
    from ..numbers import arb_bounds

    d_hi = arb_bounds(delta_bound(up, x, prec))[1]
    d_lo = max(Fraction(0), arb_bounds(delta_bound(lo, x, prec))[0])
    return d_lo, min(d_hi, Fraction(1))


def _rel_width(lo, hi) -> float:
    if hi == math.inf:
        return math.inf
    if hi == 0:
        return 0.0
    return float((hi - lo) / hi)


def _accurate(lo, hi, digits: int, kind: str) -> bool:
    """Accurate to ``digits`` digits; a delta may also be accurate in absolute terms, within 100
    times the mass the cuts and rounding may add (where the true delta is 0 or below it), an
    epsilon within 10^-(digits + 6)."""
    if hi == math.inf:
        return lo == math.inf
    # an epsilon of 0 (a step that reveals nothing) is never reached in relative terms: 10^-(digits + 6)
    # absolute is accurate
    floor = Fraction(1, 10 ** (digits + 6)) if kind == "epsilon" else Fraction(100) * Fraction(_tolerance(kind, Fraction(0), digits))
    return accurate(Fraction(lo), Fraction(hi), digits, floor=floor)


def _enclosure(lo, hi) -> Enclosure:
    if hi == math.inf and lo == math.inf:
        return Enclosure.infinity()
    return Enclosure(lo, hi)
