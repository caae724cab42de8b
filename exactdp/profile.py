"""The privacy profile of a composition: eps -> delta_g, its inverse, and its trade-off curve.

A :class:`PrivacyProfile` is built once per composition (the S(t) kernel and its
constants are prepared and cached) and then answers any number of questions,
each with the guarantee tier of its engine:

* :meth:`~PrivacyProfile.delta` the least ``delta_g`` at ``eps_g`` (the profile itself);
* :meth:`~PrivacyProfile.epsilon` OptComp, the least ``eps_g`` at ``delta_g`` (its inverse);
* :meth:`~PrivacyProfile.tradeoff_curve` and :meth:`~PrivacyProfile.tradeoff` the
  trade-off function ``f`` (f-DP, hypothesis-testing view) of the composition.

The trade-off curve is that of the composition's dominating pair (Murtagh-Vadhan
Definition 3.1 / Kairouz-Oh-Viswanath's randomized response, composed): the
Neyman-Pearson tests that reject the privacy-loss classes in decreasing order of
likelihood ratio. Its vertices are

    (0, 1), (0, P), ..., (alpha_j, beta_j), ..., (1 - P ... 1, 0)

with ``alpha`` the type I error (under the first distribution) and ``beta`` the
type II error; ``P = prod (1 - delta_i)``. It is exact (rational vertices) when
every ``e^eps_i`` is rational, else every vertex is an enclosure. By convex
duality ``delta_g(eps) = max over vertices of (1 - beta - e^eps alpha)``, which
the tests check against :meth:`delta`.

Regions, f-DP, bounds and plots are built on this layer without touching the kernels.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cmp_to_key
from typing import Optional, Sequence

from ._backend import workprec
from .engines.api import ENGINES, check_digits, check_prec, eps_g_number, resolve_engine
from .engines.base import Prepared
from .engines.fields import ArbField, ExactField
from .engines.results import DeltaResult, EpsResult
from .errors import CostTooHigh, PrecisionError
from .events import Composition, as_composition
from .links import implements
from .numbers import (
    MAXPREC,
    Enclosure,
    RatExp,
    log_sign_of_product,
    parse_choice,
    parse_delta,
    parse_rational,
    refine,
)

__all__ = ["PrivacyProfile", "MAX_TRADEOFF_VERTICES"]

#: Largest number of privacy-loss classes a trade-off curve is built from.
MAX_TRADEOFF_VERTICES = 1_000_000


class PrivacyProfile:
    """The privacy profile of a composition (see the module docstring).

    Guarantee: as the engine's tier (``engine="auto"``: exact when every ``e^eps``
    involved is rational, else a certified enclosure).

    Raises:
        InvalidArgument: bad mechanisms, engine, method or digits.
        CostTooHigh: the kernel would explode (with the estimate).

    Examples:
        >>> from exactdp import PrivacyProfile, mechanisms
        >>> prof = PrivacyProfile(mechanisms(exp_eps=[2, 2]))
        >>> prof.delta(exp_eps_g=2).exact, prof.epsilon("2/9").exp_exact
        (Fraction(2, 9), Fraction(2, 1))
        >>> [(str(a), str(b)) for a, b in prof.tradeoff_curve()]   # exact vertices
        [('0', '1'), ('1/9', '5/9'), ('5/9', '1/9'), ('1', '0')]
        >>> prof.tradeoff("1/3")    # on the segment from (1/9, 5/9) to (5/9, 1/9)
        Enclosure.point(1/3)
    """

    def __init__(self, mechanisms: object, *, engine: str = "auto", method: str = "auto", digits: int = 30):
        self.composition: Composition = as_composition(mechanisms)
        self.engine = parse_choice(engine, "engine", ENGINES)
        self.digits = check_digits(digits)
        self._prep = Prepared(self.composition, method)
        self._curve: Optional[list[tuple[Enclosure, Enclosure]]] = None

    @property
    def method(self) -> str:
        """The S(t) kernel in use."""
        return self._prep.method

    @property
    def k(self) -> int:
        return self._prep.k

    @implements("Murtagh-Vadhan Theorem 1.5")
    def delta(self, eps_g: object = None, *, exp_eps_g: object = None, digits: Optional[int] = None,
              prec: Optional[int] = None) -> DeltaResult:
        """The least ``delta_g`` such that the composition is ``(eps_g, delta_g)``-DP.

        Guarantee: as :func:`exactdp.composed_delta` (same engines, same numbers).
        Raises: InvalidArgument, NotExact, PrecisionError as it.
        """
        d = self.digits if digits is None else check_digits(digits)
        t = eps_g_number(eps_g, exp_eps_g)
        return resolve_engine(self.engine, self._prep, t).delta(self._prep, t, digits=d, prec=check_prec(prec))

    @implements("Murtagh-Vadhan Theorem 1.5")
    def epsilon(self, delta_g: object, *, digits: Optional[int] = None, prec: Optional[int] = None) -> EpsResult:
        """OptComp: the least ``eps_g`` such that the composition is ``(eps_g, delta_g)``-DP.

        Guarantee: as :func:`exactdp.optcomp`. Raises: as it.
        """
        d = self.digits if digits is None else check_digits(digits)
        dg = parse_delta(delta_g, "delta_g")
        return resolve_engine(self.engine, self._prep).epsilon(self._prep, dg, digits=d, prec=check_prec(prec))

    # -- the trade-off curve ---------------------------------------------
    def tradeoff_curve(self) -> list[tuple[Enclosure, Enclosure]]:
        """Vertices ``(alpha, beta)`` of the trade-off function, from ``(0, 1)`` to ``(1, 0)``,
        alpha increasing, beta decreasing, no repeated or collinear points.

        Guarantee: exact (points of exact Enclosures) when every ``e^eps_i`` is
        rational; else every coordinate is a certified enclosure (``digits``).

        Raises:
            CostTooHigh: more than :data:`MAX_TRADEOFF_VERTICES` privacy-loss classes.
            PrecisionError: the coordinates did not reach ``digits`` by ``MAXPREC`` bits.
        """
        if self._curve is None:
            self._curve = self._build_curve()
        return list(self._curve)

    def tradeoff(self, alpha: object) -> Enclosure:
        """``beta = f(alpha)``: the least type II error of a test with type I error ``<= alpha``.

        Guarantee: exact when the curve is; else an enclosure (the curve's
        coordinates are enclosures, the interpolation is done on their ends).

        Raises:
            InvalidArgument: alpha not a rational in [0, 1].
        """
        from .errors import InvalidArgument

        a = parse_rational(alpha, "alpha", expected="a rational number in [0, 1]")
        if not 0 <= a <= 1:
            raise InvalidArgument("alpha", "a rational number in [0, 1]", alpha)
        curve = self.tradeoff_curve()
        exact = all(x.exact is not None and y.exact is not None for x, y in curve)
        if exact:
            for (a0, b0), (a1, b1) in zip(curve, curve[1:]):
                x0, x1 = a0.exact, a1.exact
                if x0 <= a <= x1:  # type: ignore[operator]
                    if x1 == x0:
                        return Enclosure.point(min(b0.exact, b1.exact))  # type: ignore[type-var]
                    return Enclosure.point(b0.exact + (b1.exact - b0.exact) * (a - x0) / (x1 - x0))  # type: ignore[operator]
            return Enclosure.point(0)
        # enclosures: f is convex and decreasing; f(a) lies between the chords' values
        # evaluated with the enclosures' ends (outward), on every segment that may hold a
        lo: Optional[Fraction] = None
        hi: Optional[Fraction] = None
        for (a0, b0), (a1, b1) in zip(curve, curve[1:]):
            if a1.upper < a or a0.lower > a:
                continue
            cands = []
            for x0 in (a0.lower, a0.upper):
                for x1 in (a1.lower, a1.upper):
                    for y0 in (b0.lower, b0.upper):
                        for y1 in (b1.lower, b1.upper):
                            if x1 > x0 and x0 <= a <= x1:
                                cands.append(y0 + (y1 - y0) * (a - x0) / (x1 - x0))
                            elif x0 <= a <= x1:
                                cands += [y0, y1]
            if cands:
                lo = min(cands) if lo is None else min(lo, min(cands))
                hi = max(cands) if hi is None else max(hi, max(cands))
        lo = max(lo if lo is not None else Fraction(0), Fraction(0))
        hi = min(hi if hi is not None else Fraction(1), Fraction(1))
        return Enclosure(lo, hi)

    def _build_curve(self) -> list[tuple[Enclosure, Enclosure]]:
        prep = self._prep
        struct = prep.struct
        exact = prep.all_exact() and self.engine != "certified"
        P = prep.P

        def build(field):
            Z = prep.Z(field)
            classes = struct.loss_classes(field)
            if len(classes) > MAX_TRADEOFF_VERTICES:
                raise CostTooHigh("mechanisms", f"the trade-off curve would have {len(classes)} vertices (limit "
                                  f"{MAX_TRADEOFF_VERTICES})", estimate=len(classes), limit=MAX_TRADEOFF_VERTICES,
                                  alternative="fewer mechanisms, or delta/epsilon queries")
            # reject the classes in decreasing order of the likelihood ratio W_notS / W_S
            order, tied = _order_classes([c[3] for c in classes])
            pts = []
            alpha = field.rational(Fraction(0))
            beta = field.rational(P)  # after rejecting the atom that only the second distribution has
            pts.append((alpha, beta))
            grouped: list = []
            for n, i in enumerate(order):
                if grouped and tied[n]:
                    grouped[-1].append(i)
                else:
                    grouped.append([i])
            Pf = field.rational(P)
            for g in grouped:
                for i in g:
                    cnt, ws, wn, _ = classes[i]
                    alpha = alpha + Pf * cnt * ws / Z
                    beta = beta - Pf * cnt * wn / Z
                pts.append((alpha, beta))
            return pts

        if exact:
            # gmpy2 rationals end to end (Fractions only for the simplified vertices)
            f = ExactField()
            raw = build(f)
            Pq, zq, oq = f.rational(P), f.rational(Fraction(0)), f.rational(Fraction(1))
            raw[0] = (zq, Pq)
            raw[-1] = (Pq, zq)
            raw = _simplify_exact([(zq, oq)] + raw + [(oq, zq)])
            return [(Enclosure.point(f.to_fraction(a)), Enclosure.point(f.to_fraction(b))) for a, b in raw]
        else:

            def step(prec: int):
                with workprec(prec):
                    raw = build(ArbField(prec))
                    out = []
                    for a, b in raw:
                        if not (a.is_finite() and b.is_finite()):
                            return None
                        ea, eb = Enclosure.from_arb(a).clamp(Fraction(0), Fraction(1)), Enclosure.from_arb(b).clamp(Fraction(0), Fraction(1))
                        if not (ea.accurate(self.digits, floor=Fraction(1, 10 ** (2 * self.digits)))
                                and eb.accurate(self.digits, floor=Fraction(1, 10 ** (2 * self.digits)))):
                            return None
                        out.append((ea, eb))
                    return out

            pts = refine(step, digits=self.digits, extra=16, maxprec=MAXPREC, what="trade-off curve")
        one, zero = Enclosure.point(1), Enclosure.point(0)
        # exactly known: after the atom only the second distribution has, (0, P); after every
        # class of the pure part, (P, 0); then the atom only the first distribution has ends at (1, 0)
        pts[0] = (zero, Enclosure.point(P))
        pts[-1] = (Enclosure.point(P), zero)
        pts.append((one, zero))
        first = (zero, one)
        return _simplify([first] + pts)


def _order_classes(factors: Sequence[Sequence]) -> tuple[list[int], list[bool]]:
    """The classes in the order of :func:`_cmp_ratio` (ties in index order), and for each position
    whether its class's ratio equals the one before it.

    The same order as ``sorted(range(n), key=cmp_to_key(_cmp_ratio))``, found in two passes: a
    sort by the float ``log`` of each class's ratio, then an exact order only inside runs whose
    floats lie within the margin of :func:`exactdp.numbers.expnum.log_sign_of_product` (1e-9 of
    the magnitudes: a million times the float error); classes in different runs differ by more
    than that margin, so the floats order them rightly. Inside a run the exact log of the ratio
    (``sum e r`` when every factor is ``e^r``; the rational ``prod q^e`` when every factor is
    rational) is the key, else :func:`_cmp_ratio`. 262,701 classes with 6,002 distinct ratios
    (5 mechanisms, k = 50) took minutes with :func:`_cmp_ratio` in the sort, seconds so.

    Guarantee: exact (the order and the ties of the exact comparison). Raises: PrecisionError as
    :func:`_cmp_ratio`.
    """
    n = len(factors)
    keys: list[float] = []
    mag = 0.0
    for fa in factors:
        try:
            k = math.fsum(e * x.flog() for x, e in fa if e != 0)
            m = math.fsum(abs(e) * x.fmag() for x, e in fa if e != 0) if all(hasattr(x, "fmag") for x, _ in fa) else math.inf
        except OverflowError:
            k, m = math.nan, math.inf
        keys.append(k)
        mag = max(mag, m)
    margin = 1e-9 * (1.0 + 2 * mag)
    order: list[int] = []
    tied: list[bool] = []

    def place(run: list[int]) -> None:
        run.sort()  # index order first: a tie keeps it, as the stable exact sort does
        ex = [_exact_log_key(factors[i]) for i in run] if len(run) > 1 else [None]
        if len(run) > 1 and all(x is not None for x in ex) and len({x[0] for x in ex}) == 1:  # type: ignore[index]
            pos = {i: x[1] for i, x in zip(run, ex)}  # type: ignore[index]
            run.sort(key=lambda i: pos[i])
            same = [False] + [pos[a] == pos[b] for a, b in zip(run, run[1:])]
        else:
            if len(run) > 1:
                run.sort(key=cmp_to_key(lambda i, j: _cmp_ratio(factors[i], factors[j])))
            same = [False] + [_cmp_ratio(factors[a], factors[b]) == 0 for a, b in zip(run, run[1:])]
        tied.extend(same)
        order.extend(run)

    if n < 2 or not math.isfinite(margin) or not all(math.isfinite(k) for k in keys):
        place(list(range(n)))  # beyond the floats: the exact comparison throughout
        return order, tied
    by_key = sorted(range(n), key=lambda i: keys[i])
    run = [by_key[0]]
    for prev, i in zip(by_key, by_key[1:]):
        if keys[i] - keys[prev] > margin:
            place(run)
            run = [i]
        else:
            run.append(i)
    place(run)
    return order, tied


def _exact_log_key(fa: Sequence) -> Optional[tuple[int, Fraction]]:
    """``(0, sum e r)`` when every factor is ``e^r`` (the log of the product, exactly), ``(1, prod
    q^e)`` when every factor is a rational ``q`` (the product); None otherwise. Keys of one kind
    order as the products do."""
    r, q = Fraction(0), Fraction(1)
    for x, e in fa:
        if e == 0:
            continue
        if not isinstance(x, RatExp):
            return None
        if x.r:
            r += e * x.r
        if x.q != 1:
            q *= x.q ** e
    if q == 1:
        return (0, r)
    return (1, q) if r == 0 else None


def _cmp_ratio(fa: Sequence, fb: Sequence) -> int:
    """Compare the likelihood ratios ``W_notS / W_S`` of two classes (decreasing order first).

    ``fa``, ``fb`` describe ``W_S / W_notS`` as products; the class with the smaller
    ``W_S / W_notS`` has the larger ratio and comes first. Guarantee: exact decision.
    """
    facs = list(fa) + [(x, -e) for x, e in fb]
    s = log_sign_of_product(facs)
    if s is None:
        raise PrecisionError("the order of two privacy-loss classes could not be decided")
    return s


def _simplify_exact(pts: list) -> list:
    """Drop repeated points and interior points of straight segments (exact coordinates)."""
    out: list = []
    for p in pts:
        if out and out[-1] == p:
            continue
        if len(out) >= 2:
            (x0, y0), (x1, y1) = out[-2], out[-1]
            if (x1 - x0) * (p[1] - y0) == (p[0] - x0) * (y1 - y0):
                out[-1] = p
                continue
        out.append(p)
    return out


def _simplify(pts: list[tuple[Enclosure, Enclosure]]) -> list[tuple[Enclosure, Enclosure]]:
    """Drop repeated points and (for exact points) interior points of straight segments."""
    out: list[tuple[Enclosure, Enclosure]] = []
    for p in pts:
        if out and out[-1] == p:
            continue
        if len(out) >= 2 and all(c.exact is not None for q in (out[-2], out[-1], p) for c in q):
            (x0, y0), (x1, y1), (x2, y2) = [(a.exact, b.exact) for a, b in (out[-2], out[-1], p)]
            if (x1 - x0) * (y2 - y0) == (x2 - x0) * (y1 - y0):  # type: ignore[operator]
                out[-1] = p
                continue
        out.append(p)
    return out
