"""Trade-off functions (f-DP) as exact objects: Vadhan-Zhang Definitions 1.6, 1.8, Proposition 1.7, Lemma 2.4.

A trade-off function ``f = T(P, Q)`` maps a type I error ``alpha`` (rejecting the
null ``P`` when it holds) to the least type II error ``beta`` of a test at level
``alpha`` (Vadhan-Zhang Definition 1.6). The piecewise-linear ones are exactly
those of pairs of finite distributions, and are what every composition of
``(eps, delta)``-DP mechanisms has. :class:`TradeOff` holds one by its vertices,
from ``(0, 1)`` to ``(1, 0)`` (a vertical first segment when ``f(0) < 1``, as in
:meth:`exactdp.PrivacyProfile.tradeoff_curve`), alpha increasing, no repeated or
collinear vertices.

Numbers: the vertices are exact scalars (Fractions, or elements of ``Q(e^g)``
for rational eps, :mod:`.symbolic`) whenever they can be, and certified
enclosures otherwise (a composition whose ``e^eps_i`` are irrational, computed by
the privacy-profile layer). Every operation states its tier.

* :func:`f_eps_delta` ``f_{eps,delta}(alpha) = max{0, 1 - delta - e^eps alpha, e^-eps (1 - delta - alpha)}``.
* :func:`tradeoff_of` Definition 1.6 for two finite distributions (Neyman-Pearson).
* :func:`is_tradeoff_function` Proposition 1.7 (convex, continuous, non-increasing,
  ``f(x) <= 1 - x``), constructive: :meth:`TradeOff.to_distributions` returns a pair
  ``(P, Q)`` with ``T(P, Q) = f``.
* :meth:`TradeOff.tensor` / :func:`tensor` the trade-off function of the product (composition).
* :func:`chain_rule` Vadhan-Zhang Claim 3.4 (Lemma 3.3): the trade-off function of ``(X, Y)``
  against ``(X', Y')`` from the laws of ``X``, ``X'`` and the conditional trade-off functions.
* :meth:`TradeOff.dominates` the f-DP order (``f >= g`` pointwise: at least as private);
  :meth:`TradeOff.identity` ``1 - alpha`` (identical distributions).
* :func:`composition_tradeoff` the composition of ``(eps_i, delta_i)``-DP mechanisms.
* :func:`tradeoff_sup` the supremum of a finite family in the f-DP order (Lemma 2.4:
  the lower convex envelope of the pointwise minimum); :func:`tradeoff_inf` the
  infimum (the pointwise maximum: the intersection of privacy regions).
* Conversions: :meth:`TradeOff.delta` (f-DP to the ``(eps, delta(eps))`` profile,
  ``delta(eps) = max over vertices of (1 - beta - e^eps alpha)``), :meth:`TradeOff.epsilon`
  and :meth:`TradeOff.exp_epsilon` (its inverse), :func:`tradeoff_from_guarantees` (a family of ``(eps_j, delta_j)``
  guarantees to the trade-off function they imply, ``max_j f_{eps_j, delta_j}``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Iterable, Optional, Sequence

from .._backend import workprec
from ..errors import CostTooHigh, InvalidArgument
from ..events import Composition, Mechanism, as_composition
from ..links import implements
from ..numbers import (
    MAXPREC,
    Enclosure,
    RatExp,
    digits_to_bits,
    parse_delta,
    parse_eps,
    parse_exp_eps,
    parse_list,
    parse_rational,
    parse_unit,
    refine,
)
from .geometry import lower_hull, neyman_pearson, simplify_chain, upper_envelope, value_at, values_at
from .symbolic import QW, Scalar, exp_scalars, fast, field_units, scalar_enclosure, scalar_exact
from .vertices import ExactVertices

__all__ = [
    "TradeOff",
    "f_eps_delta",
    "tradeoff_of",
    "distribution_pair",
    "is_tradeoff_function",
    "tradeoff_sup",
    "tradeoff_inf",
    "tensor",
    "chain_rule",
    "tradeoff_from_guarantees",
    "composition_tradeoff",
    "MAX_TENSOR_ATOMS",
    "MAX_EXACT_CURVE_BITS",
    "exact_curve_bits",
]

#: Largest number of atoms (before merging equal likelihood ratios) a tensor product builds.
MAX_TENSOR_ATOMS = 2_000_000

#: Largest exact trade-off curve (estimated bits of its rational vertices) built for
#: ``engine="auto"`` / ``"exact"``: beyond it ``auto`` gives certified enclosures, ``exact`` refuses.
#: Measured (benchmarks/bench_regions.py): 1000 equal mechanisms with e^eps = 1001/1000 hold
#: about 8e7 bits (4.4 s), 2000 about 3.4e8 bits (28 s); size and time grow as k^2.
MAX_EXACT_CURVE_BITS = 2**29


def exact_curve_bits(comp, classes: float) -> float:
    """Estimated bits of an exact trade-off curve: ~``2 classes`` vertices (curve and mirror), two
    coordinates each, each with the size of ``prod (1 + w_i)`` and ``prod (1 - delta_i)``.
    Guarantee: approximate (an estimate). Raises: nothing."""
    per = 0.0
    for m, n in comp.groups():
        w = m.exp_eps
        if w is not None:
            per += n * ((w.numerator + w.denominator).bit_length() + w.denominator.bit_length())
        if m.delta:
            per += n * (m.delta.numerator.bit_length() + m.delta.denominator.bit_length())
    return 4.0 * (classes + 2) * max(per, 1.0)

_ZERO, _ONE = Fraction(0), Fraction(1)


class TradeOff(ExactVertices):
    """A piecewise-linear trade-off function, by its vertices (see the module docstring).

    Build one with :func:`f_eps_delta`, :func:`tradeoff_of`, :func:`composition_tradeoff`,
    :func:`tradeoff_sup` / :func:`tradeoff_inf`, or from exact vertices:
    ``TradeOff([(0, 1), ("1/3", "1/3"), (1, 0)])`` (validated by Proposition 1.7).

    Guarantee: exact when :attr:`is_exact` (rational vertices) or :attr:`is_symbolic`
    (vertices in ``Q(e^g)``, printed as enclosures); else every vertex is a certified
    enclosure (``digits``). Immutable.

    Raises:
        InvalidArgument: vertices that are not a trade-off function (the failing
            condition of Proposition 1.7 is named), or malformed numbers.

    Examples:
        >>> f = TradeOff([(0, 1), ("1/3", "1/3"), (1, 0)])
        >>> f("1/6"), f.delta(exp_eps=1).exact        # f(1/6) = 2/3; delta(0) = 1/3
        (Enclosure.point(2/3), Fraction(1, 3))
        >>> f == f_eps_delta(exp_eps=2)                # it is f_{ln 2, 0}
        True

    References:
        Vadhan-Zhang Definitions 1.6, 1.8 and Proposition 1.7; Dong-Roth-Su, Gaussian differential privacy (JRSS-B 2022).
    """

    __slots__ = ("_pts", "_enc", "digits", "label")
    _noun = "trade-off function"

    def __init__(self, vertices: Iterable[Sequence[object]], *, label: str = "trade-off function", digits: int = 30):
        pts = []
        if isinstance(vertices, (str, bytes)) or not hasattr(vertices, "__iter__"):
            raise InvalidArgument("vertices", "an iterable of pairs (alpha, beta)", vertices)
        for i, v in enumerate(vertices):
            if not (isinstance(v, (tuple, list)) and len(v) == 2):
                raise InvalidArgument(f"vertices[{i}]", "a pair (alpha, beta)", v)
            pts.append((parse_rational(v[0], f"vertices[{i}].alpha"), parse_rational(v[1], f"vertices[{i}].beta")))
        ok, why = is_tradeoff_function(pts)
        if not ok:
            raise InvalidArgument("vertices", "the vertices of a trade-off function (Vadhan-Zhang Proposition 1.7)",
                                  None, hint=why)
        self._init(_normalise(pts), None, label, digits)

    def _init(self, pts, enc, label, digits):
        object.__setattr__(self, "_pts", pts)
        object.__setattr__(self, "_enc", enc)
        object.__setattr__(self, "label", label)
        object.__setattr__(self, "digits", digits)

    def _describe(self) -> str:
        return self.label

    @classmethod
    def _exact(cls, pts: Sequence[tuple], label: str, digits: int = 30, *, clean: bool = False) -> "TradeOff":
        """From exact scalar vertices already known to form a trade-off function (internal);
        ``clean``: the producer guarantees no repeated or collinear vertices (no exact re-check)."""
        obj = cls.__new__(cls)
        obj._init(_normalise(list(pts), clean), None, label, digits)
        return obj

    @classmethod
    def _enclosed(cls, enc: Sequence[tuple[Enclosure, Enclosure]], label: str, digits: int = 30) -> "TradeOff":
        """From certified vertex enclosures (internal; the privacy profile's curve)."""
        obj = cls.__new__(cls)
        if all(a.exact is not None and b.exact is not None for a, b in enc):
            # the privacy profile's exact curve is already free of repeated and collinear points
            obj._init(_normalise([(a.exact, b.exact) for a, b in enc], clean=True), None, label, digits)
        else:
            obj._init(None, tuple(enc), label, digits)
        return obj

    @classmethod
    def identity(cls) -> "TradeOff":
        """``Id(alpha) = 1 - alpha``: the trade-off function of two identical distributions (perfect
        privacy; the most private trade-off function). Guarantee: exact. Raises: nothing.

        Examples:
            >>> TradeOff.identity() == f_eps_delta(exp_eps=1)
            True
        """
        return cls._exact([(fast(0), fast(1)), (fast(1), fast(0))], "Id", clean=True)

    # -- what it is (is_exact, is_symbolic, exact_vertices, symbolic_vertices: ExactVertices)
    @property
    def vertices(self) -> tuple[tuple[Enclosure, Enclosure], ...]:
        """The vertices as enclosures (points when rational), from ``(0, 1)`` to ``(1, 0)``.
        Guarantee: enclosure (``digits`` significant digits for irrational ones)."""
        if self._enc is None:
            object.__setattr__(self, "_enc", tuple((scalar_enclosure(a, self.digits), scalar_enclosure(b, self.digits))
                                                   for a, b in self._pts))  # type: ignore[union-attr]
        return self._enc  # type: ignore[return-value]

    def __repr__(self) -> str:
        return f"TradeOff({self.label}, {len(self)} vertices, {'exact' if self.is_exact else 'symbolic' if self.is_symbolic else 'enclosures'})"

    # -- evaluation --------------------------------------------------------
    def __call__(self, alpha: object) -> Enclosure:
        """``f(alpha)``. Guarantee: exact for rational vertices; else an enclosure.

        Raises:
            InvalidArgument: alpha not a rational in [0, 1].
        """
        a = parse_unit(alpha, "alpha")
        if self.is_exact:
            return Enclosure.point(value_at(self.exact_vertices(), a))
        if self._pts is not None:
            v = value_at(self._pts, a)
            return scalar_enclosure(v, self.digits)
        return _interp_enclosed(self.vertices, a)

    def dominates(self, other: "TradeOff") -> bool:
        """``self >= other`` pointwise: ``self`` is at least as private (the f-DP order; a
        mechanism that is ``self``-DP is ``other``-DP). Guarantee: exact decision.

        ``self - other`` is concave on each segment of ``self`` (``other`` is convex), so the
        vertices of ``self`` decide it (one sweep over both vertex lists).

        Raises:
            InvalidArgument: other not a TradeOff, or the two exact in different fields ``Q(e^g)``
                (e.g. ``eps = 0.4`` and ``0.5`` built apart). NotExact: either known only by enclosures.

        Examples:
            >>> f_eps_delta(exp_eps=2).dominates(f_eps_delta(exp_eps=3)), TradeOff.identity().dominates(f_eps_delta(exp_eps=2))
            (True, True)
            >>> f_eps_delta(exp_eps=2).dominates(f_eps_delta(exp_eps=1, delta="1/5"))   # at 1/3: 1/3 < 4/5 - 1/3
            False

        References:
            Vadhan-Zhang Definition 1.8 (f-DP) and Section 2 (the poset of trade-off functions).
        """
        if not isinstance(other, TradeOff):
            raise InvalidArgument("other", "a TradeOff", other)
        f = self.symbolic_vertices()
        return all(b >= v for (_, b), v in zip(f, values_at(other.symbolic_vertices(), [a for a, _ in f])))

    # -- conversions -------------------------------------------------------
    @implements("Vadhan-Zhang Proposition 1.7")
    def to_distributions(self) -> tuple[list[Scalar], list[Scalar]]:
        """A pair of finite distributions ``(P, Q)`` with ``T(P, Q) = f`` (the constructive half of
        Proposition 1.7): one atom per segment, ``P``-mass its alpha-length, ``Q``-mass its beta-drop.

        Guarantee: exact. Raises: NotExact for a function known only by enclosures.
        """
        pts = self.symbolic_vertices()
        P = [b[0] - a[0] for a, b in zip(pts, pts[1:])]
        Q = [a[1] - b[1] for a, b in zip(pts, pts[1:])]
        return P, Q

    @implements("Vadhan-Zhang Definition 1.6")
    def tensor(self, other: "TradeOff") -> "TradeOff":
        """``f (x) g``: the trade-off function of the product pair (the composition of an
        f-DP and a g-DP mechanism, non-adaptively; adaptively too, Dong-Roth-Su).

        Guarantee: exact (Neyman-Pearson on the product atoms, equal likelihood ratios merged).

        Raises:
            NotExact: either is known only by enclosures.
            CostTooHigh: more than :data:`MAX_TENSOR_ATOMS` product atoms.
        """
        if not isinstance(other, TradeOff):
            raise InvalidArgument("other", "a TradeOff", other)
        P1, Q1 = self.to_distributions()
        P2, Q2 = other.to_distributions()
        n = len(P1) * len(P2)
        if n > MAX_TENSOR_ATOMS:
            raise CostTooHigh("other", f"the product has {n} atoms (limit {MAX_TENSOR_ATOMS})", estimate=n,
                              limit=MAX_TENSOR_ATOMS, alternative="composition_tradeoff (the privacy-profile kernels)")
        atoms = [(p * r, q * s) for p, q in zip(P1, Q1) for r, s in zip(P2, Q2)]
        zero, one = field_units(atoms)
        return TradeOff._exact(neyman_pearson(atoms, zero, one), f"({self.label}) x ({other.label})",
                               min(self.digits, other.digits), clean=True)

    def power(self, k: int) -> "TradeOff":
        """``f`` tensored ``k`` times (repeated squaring). Guarantee: exact. Raises: as :meth:`tensor`."""
        from ..numbers import parse_int

        k = parse_int(k, "k", lo=1)
        result: Optional[TradeOff] = None
        base = self
        while k:
            if k & 1:
                result = base if result is None else result.tensor(base)
            k >>= 1
            if k:
                base = base.tensor(base)
        return result  # type: ignore[return-value]

    def inverse(self) -> "TradeOff":
        """``f^-1``: the trade-off function of the swapped pair ``T(Q, P)`` (the mirror image in the
        diagonal). Guarantee: exact (or enclosures, mirrored)."""
        if self._pts is not None:
            return TradeOff._exact([(b, a) for a, b in reversed(self._pts)], f"inverse of {self.label}", self.digits, clean=True)
        return TradeOff._enclosed([(b, a) for a, b in reversed(self.vertices)], f"inverse of {self.label}", self.digits)

    def is_symmetric(self) -> bool:
        """``f = f^-1``. Guarantee: exact. Raises: NotExact for enclosures."""
        return self == self.inverse()

    def symmetrized(self) -> "TradeOff":
        """The largest symmetric trade-off function below ``f`` and ``f^-1``: their supremum
        (Lemma 2.4), what f-DP over neighbouring pairs in both orders gives. Guarantee: exact."""
        return tradeoff_sup([self, self.inverse()])

    @implements("Vadhan-Zhang Definition 1.8")
    def delta(self, eps: object = None, *, exp_eps: object = None, digits: Optional[int] = None) -> Enclosure:
        """``delta(eps) = sup_alpha (1 - e^eps alpha - f(alpha))``: an f-DP pair is
        ``(eps, delta(eps))``-DP (for the ordered pair; symmetric f: both orders).

        The supremum of a concave piecewise-linear function is at a vertex, so
        ``delta(eps) = max(0, max over vertices (1 - beta_j - e^eps alpha_j))``.

        Guarantee: exact when the vertices and ``e^eps`` are rational; else an
        enclosure (``digits`` significant digits, or as narrow as the vertices allow).

        Raises:
            InvalidArgument: not exactly one of eps / exp_eps, or a bad number.
        """
        d = self.digits if digits is None else digits
        if (eps is None) == (exp_eps is None):
            raise InvalidArgument("eps / exp_eps", "given, exactly one of the two", None)
        t = (RatExp.from_eps(parse_eps(eps)) if eps is not None else RatExp.from_exp(parse_exp_eps(exp_eps)))
        if self._pts is not None:
            tw = _embed(self._pts, t)
            if tw is not None:
                zero, _ = field_units(self._pts + [(tw, tw)])
                return scalar_enclosure(_max(zero, [1 - b - tw * a for a, b in self._pts]), d)
        verts = self.vertices

        def step(prec: int) -> Optional[Enclosure]:
            with workprec(prec):
                te = Enclosure.from_arb(t.arb(prec))
            lo = hi = _ZERO
            for a, b in verts:
                lo = max(lo, 1 - b.upper - te.upper * a.upper)
                hi = max(hi, 1 - b.lower - te.lower * a.lower)
            e = Enclosure(lo, hi)
            if e.accurate(d, floor=Fraction(1, 10 ** (2 * d))) or prec >= 4 * digits_to_bits(d) + 256:
                return e
            return None

        return refine(step, digits=d, maxprec=MAXPREC, what="delta(eps) of a trade-off function")

    def exp_epsilon(self, delta: object) -> Optional[Scalar]:
        """``e^eps*`` for the least ``eps* >= 0`` with ``delta(eps*) <= delta``, as an exact scalar; None
        when no finite eps works.

        ``e^eps* = max(1, max over vertices with alpha_j > 0 of (1 - beta_j - delta) / alpha_j)``;
        infinite when a vertex with ``alpha_j = 0`` has ``1 - beta_j > delta``.

        Guarantee: exact (a Fraction when rational, else an element of ``Q(e^g)``).

        Raises:
            InvalidArgument: delta not in [0, 1). NotExact: a function known only by enclosures.

        Examples:
            >>> f_eps_delta(exp_eps=3).exp_epsilon(0), f_eps_delta(exp_eps=3, delta="1/10").exp_epsilon("1/20")
            (Fraction(3, 1), None)
        """
        dl = parse_delta(delta, "delta")
        pts = self.symbolic_vertices()
        _, t = field_units(pts)
        for a, b in pts:
            if a == 0:
                if 1 - b > dl:
                    return None
            else:
                c = (1 - b - dl) / a
                if c > t:
                    t = c
        tx = scalar_exact(t)
        return t if tx is None else tx

    def epsilon(self, delta: object, *, digits: Optional[int] = None) -> tuple[Enclosure, Optional[Fraction]]:
        """The least ``eps >= 0`` with ``delta(eps) <= delta``, and ``e^eps`` when it is rational.

        ``e^eps*`` as in :meth:`exp_epsilon`, for exactly known vertices; from the vertex
        enclosures otherwise.

        Guarantee: exact ``e^eps*`` (rational vertices), ``eps*`` enclosed to ``digits``;
        enclosure otherwise.

        Raises:
            InvalidArgument: delta not in [0, 1).
        """
        d = self.digits if digits is None else digits
        dl = parse_delta(delta, "delta")
        if self._pts is not None:
            t = self.exp_epsilon(dl)
            if t is None:
                return Enclosure.infinity(), None
            if not isinstance(t, QW):
                return Enclosure.log_of_rational(t, d).clamp(lo=_ZERO), t
            n = _monomial_degree(t)
            if n is not None:  # t = u^n: eps* = n g exactly
                return Enclosure.point(n * t.w.r), None  # type: ignore[attr-defined]
            return Enclosure.log_of(lambda p: t._arb(p), d).clamp(lo=_ZERO), None
        lo_t, hi_t = _ONE, _ONE
        for a, b in self.vertices:
            if a.upper == 0:
                if 1 - b.upper > dl:
                    return Enclosure.infinity(), None
                continue
            if a.lower <= 0:
                from ..errors import PrecisionError

                raise PrecisionError("epsilon of a trade-off curve: a vertex's alpha is not separated from 0")
            lo_t = max(lo_t, (1 - b.upper - dl) / a.upper if 1 - b.upper - dl > 0 else (1 - b.upper - dl) / a.lower)
            hi_t = max(hi_t, (1 - b.lower - dl) / a.lower if 1 - b.lower - dl > 0 else (1 - b.lower - dl) / a.upper)
        lo = Enclosure.log_of_rational(lo_t, d + 2).lower if lo_t > 1 else _ZERO
        hi = Enclosure.log_of_rational(hi_t, d + 2).upper if hi_t > 1 else _ZERO
        return Enclosure(max(lo, _ZERO), max(hi, _ZERO)), None

    def privacy_loss_values(self) -> list[Scalar]:
        """``e^eps_j`` for the slopes ``-e^eps_j`` of the segments with slope <= -1 (the privacy
        losses of the pair at which ``delta(eps)`` has its breakpoints), largest first.
        Guarantee: exact. Raises: NotExact for enclosures."""
        pts = self.symbolic_vertices()
        out = []
        for (a0, b0), (a1, b1) in zip(pts, pts[1:]):
            if a1 != a0:
                t = (b0 - b1) / (a1 - a0)
                if t >= 1:
                    out.append(t if isinstance(t, QW) else scalar_exact(t))
        return out

    @implements("Vadhan-Zhang Proposition 1.7")
    def check(self) -> tuple[bool, str]:
        """Proposition 1.7 on the vertices: convex, continuous, non-increasing, ``f(x) <= 1 - x``.
        Guarantee: exact decision (``(True, "")`` or ``(False, reason)``). Raises: NotExact for enclosures."""
        return is_tradeoff_function(self.symbolic_vertices())


def _embed(pts, t: RatExp) -> Optional[Scalar]:
    """``t`` in the field of the exact vertices ``pts`` (None when it is not in it)."""
    tq = t.exact()
    if tq is not None:
        return tq
    gen = next((c for p in pts for c in p if isinstance(c, QW)), None)
    if gen is None:
        (tw,) = exp_scalars([t])
        return tw
    g = gen.w.r  # type: ignore[attr-defined]
    n = t.r / g
    if n.denominator != 1:
        return None
    u = QW.gen(gen.w)  # type: ignore[arg-type]
    return u.const(t.q) * u ** int(n)


def _monomial_degree(t: QW) -> Optional[int]:
    """``n`` when ``t = u^n`` exactly (coefficient 1), else None."""
    if t.den.degree() == 0 and t.den.coeffs()[0] == 1:
        cs = t.num.coeffs()
        if cs and cs[-1] == 1 and all(c == 0 for c in cs[:-1]):
            return len(cs) - 1
    if t.num.degree() == 0 and t.num.coeffs()[0] == 1:
        cs = t.den.coeffs()
        if cs and cs[-1] == 1 and all(c == 0 for c in cs[:-1]):
            return -(len(cs) - 1)
    return None


def _max(zero, xs):
    m = zero
    for x in xs:
        if x > m:
            m = x
    return m


def _normalise(pts: list, clean: bool = False) -> list:
    """Vertices from ``(0, 1)`` on, repeated and collinear points dropped (``clean``: only
    at the prepended start, the rest is known clean)."""
    pts = [(fast(a), fast(b)) for a, b in pts]
    zero, one = field_units(pts)
    if not (pts[0][0] == 0 and pts[0][1] == 1):
        if clean:
            return simplify_chain([(zero, one)] + pts[:2]) + pts[2:]
        pts = [(zero, one)] + list(pts)
    return pts if clean else simplify_chain(pts)


def _interp_enclosed(verts, a: Fraction) -> Enclosure:
    """f(a) from vertex enclosures: every segment that may hold ``a``, interpolated over the
    corners of its (clipped) vertex box; f convex and non-increasing bounds the rest."""
    lo: Optional[Fraction] = None
    hi: Optional[Fraction] = None
    for (a0, b0), (a1, b1) in zip(verts, verts[1:]):
        if a1.upper < a or a0.lower > a:
            continue
        if a0.exact is not None and a0.exact == a1.exact == a:
            # a vertical segment at alpha = a (f(0) < 1: (0, 1) -> (0, f(0))): f(a) is its lower end
            for v in (min(b0.lower, b1.lower), min(b0.upper, b1.upper)):
                lo = v if lo is None else min(lo, v)
                hi = v if hi is None else max(hi, v)
            continue
        xs0 = [x for x in (a0.lower, min(a0.upper, a)) if x <= a]
        xs1 = [x for x in (max(a1.lower, a), a1.upper) if x >= a]
        for x0 in xs0:
            for x1 in xs1:
                for y0 in (b0.lower, b0.upper):
                    for y1 in (b1.lower, b1.upper):
                        v = y0 if x1 == x0 else y0 + (y1 - y0) * (a - x0) / (x1 - x0)
                        lo = v if lo is None else min(lo, v)
                        hi = v if hi is None else max(hi, v)
    lo = max(lo if lo is not None else _ZERO, _ZERO)
    hi = min(hi if hi is not None else _ONE, 1 - a)
    return Enclosure(lo, max(lo, hi))


# --------------------------------------------------------------------------
# constructors


@implements("Vadhan-Zhang Proposition 1.7")
def is_tradeoff_function(vertices: Sequence[tuple]) -> tuple[bool, str]:
    """Proposition 1.7 for the piecewise-linear function through ``vertices`` (alpha non-decreasing):
    a trade-off function iff convex, continuous, non-increasing, and ``f(x) <= 1 - x`` on [0, 1].

    A polyline is continuous; it must cover ``[0, 1]`` (first alpha 0, last alpha 1),
    keep ``beta`` in ``[0, 1]``, never increase, have non-decreasing slopes, and lie on or
    below ``1 - x`` (enough at the vertices). A vertical first segment at ``alpha = 0`` is
    the convention ``(0, 1) -> (0, f(0))``.

    Guarantee: exact decision; ``(True, "")`` or ``(False, the first failing condition)``.
    Raises: nothing for well-formed pairs.

    Examples:
        >>> is_tradeoff_function([(0, 1), (Fraction(1, 2), Fraction(1, 4)), (1, 0)])
        (True, '')
        >>> is_tradeoff_function([(0, 1), (Fraction(1, 2), Fraction(1, 3)), (Fraction(3, 4), Fraction(1, 4)), (1, 0)])[1]
        'not convex: the slope decreases at vertex 2'

    References:
        Vadhan-Zhang Proposition 1.7 (from Dong-Roth-Su).
    """
    pts = list(vertices)
    if len(pts) < 2:
        return False, "fewer than two vertices"
    if not (pts[0][0] == 0 and pts[-1][0] == 1):
        return False, "alpha must run from 0 to 1"
    for i, (a, b) in enumerate(pts):
        if not (0 <= b <= 1):
            return False, f"beta outside [0, 1] at vertex {i}"
        if b > 1 - a:
            return False, f"f(x) > 1 - x at vertex {i}"
    for i, ((a0, b0), (a1, b1)) in enumerate(zip(pts, pts[1:])):
        if a1 < a0:
            return False, f"alpha decreases at vertex {i + 1}"
        if b1 > b0:
            return False, f"increasing at vertex {i + 1}"
        if a1 == a0 and i > 0:
            return False, f"a vertical segment away from alpha = 0 at vertex {i + 1} (not continuous)"
    # convexity: slopes non-decreasing over segments of positive length
    segs = [(p, q) for p, q in zip(pts, pts[1:]) if q[0] != p[0]]
    for i, ((p0, p1), (q0, q1)) in enumerate(zip(segs, segs[1:])):
        # slope(p) <= slope(q)  <=>  (p1.y - p0.y)(q1.x - q0.x) <= (q1.y - q0.y)(p1.x - p0.x)
        if (p1[1] - p0[1]) * (q1[0] - q0[0]) > (q1[1] - q0[1]) * (p1[0] - p0[0]):
            idx = next(j for j, v in enumerate(pts) if v is q0)
            return False, f"not convex: the slope decreases at vertex {idx}"
    return True, ""


@implements("Vadhan-Zhang Definition 1.6")
def tradeoff_of(P: Sequence[object], Q: Sequence[object], *, label: str = "T(P, Q)") -> TradeOff:
    """Definition 1.6 for two distributions on ``n`` points: ``T(P, Q)(alpha) = inf {beta_phi : alpha_phi <= alpha}``.

    The most powerful tests reject in decreasing order of ``Q(x) / P(x)`` (Neyman-Pearson).

    Guarantee: exact.

    Raises:
        InvalidArgument: lists of different lengths, empty, a negative or malformed
            probability, or a list not summing to 1.

    Examples:
        >>> tradeoff_of(["2/3", "1/3"], ["1/3", "2/3"]).exact_vertices()   # randomized response, e^eps = 2
        [(Fraction(0, 1), Fraction(1, 1)), (Fraction(1, 3), Fraction(1, 3)), (Fraction(1, 1), Fraction(0, 1))]

    References:
        Vadhan-Zhang Definition 1.6; the Neyman-Pearson lemma.
    """
    return TradeOff._exact(neyman_pearson(distribution_pair(P, Q)), label, clean=True)


def distribution_pair(P: Sequence[object], Q: Sequence[object]) -> list[tuple[Fraction, Fraction]]:
    """Two finite distributions on the same outcomes, validated, as atoms ``(P(x), Q(x))``.

    Guarantee: exact (numbers converted exactly, floats by ``Fraction(x)``).

    Raises:
        InvalidArgument: lists of different lengths, empty, a negative or malformed
            probability, or a list not summing to 1.

    Examples:
        >>> distribution_pair(["1/2", 0.5], [1, 0])
        [(Fraction(1, 2), Fraction(1, 1)), (Fraction(1, 2), Fraction(0, 1))]
    """
    ps = [parse_rational(x, f"P[{i}]") for i, x in enumerate(parse_list(P, "P"))]
    qs = [parse_rational(x, f"Q[{i}]") for i, x in enumerate(parse_list(Q, "Q"))]
    if len(ps) != len(qs):
        raise InvalidArgument("Q", f"a list of {len(ps)} probabilities (as long as P)", f"{len(qs)} values")
    for name, xs in (("P", ps), ("Q", qs)):
        for i, x in enumerate(xs):
            if x < 0:
                raise InvalidArgument(f"{name}[{i}]", "a probability >= 0", x)
        if sum(xs) != 1:
            raise InvalidArgument(name, "probabilities summing to 1", sum(xs))
    return list(zip(ps, qs))


@implements("Vadhan-Zhang Claim 3.4", "Vadhan-Zhang Lemma 3.3")
def chain_rule(P: Sequence[object], Q: Sequence[object], fs: Sequence[Optional[TradeOff]], *,
               label: str = "ChainRule") -> TradeOff:
    """``ChainRule_{X,X'}``: the trade-off function of ``(X, Y)`` against ``(X', Y')`` from the law ``P``
    of ``X``, the law ``Q`` of ``X'`` and the conditional trade-off functions ``fs[x] = T(Y|X=x, Y'|X'=x)``.

    Vadhan-Zhang Claim 3.4: ``inf { sum_x Q(x) f_x(alpha_x) : sum_x P(x) alpha_x <= alpha }`` over the
    ``x`` in both supports (an outcome only ``X'`` has is rejected at no cost, one only ``X`` has is
    never worth rejecting). The infimum of a sum of convex piecewise-linear functions under one
    budget is their infimal convolution: start from ``sum Q(x) f_x(0)`` and take the segments of the
    scaled ``f_x`` (``d alpha`` times ``P(x)``, ``d beta`` times ``Q(x)``) steepest first. That is
    the Neyman-Pearson curve (:func:`tradeoff_of`) of the joint law of ``X`` and each ``f_x``'s own
    pair (:meth:`TradeOff.to_distributions`; Lemma 3.3), which is how it is computed.

    Guarantee: exact. ``fs[x]`` may be None where ``P(x) = 0`` or ``Q(x) = 0`` (it is not used).

    Raises:
        InvalidArgument: P, Q not distributions on the same outcomes, ``fs`` of another length, or a
            missing ``f_x`` where both probabilities are positive.
        NotExact: an ``f_x`` known only by enclosures.

    Examples:
        >>> rr = f_eps_delta(exp_eps=3)
        >>> chain_rule(["3/4", "1/4"], ["1/4", "3/4"], [rr, rr]) == rr.tensor(rr)
        True

    References:
        Vadhan-Zhang Lemma 3.3 and Claim 3.4 (formula (9)).
    """
    pairs = distribution_pair(P, Q)
    fs = list(fs)
    if len(fs) != len(pairs):
        raise InvalidArgument("fs", f"one trade-off function per outcome ({len(pairs)})", f"{len(fs)} values")
    # Lemma 3.3 with each f_x's own pair (TradeOff.to_distributions): the chain rule is the
    # Neyman-Pearson curve of the joint law, whose atoms are P(x) times f_x's segment lengths
    # against Q(x) times its drops; Claim 3.4's infimal convolution (segments steepest first) is
    # the same sort by likelihood ratio
    atoms = []
    digits = []
    for i, ((p, q), f) in enumerate(zip(pairs, fs)):
        if p == 0 or q == 0:
            atoms.append((fast(p), fast(q)))
            continue
        if not isinstance(f, TradeOff):
            raise InvalidArgument(f"fs[{i}]", "a TradeOff (both probabilities are positive)", f)
        Pf, Qf = f.to_distributions()
        p, q = fast(p), fast(q)
        atoms += [(p * a, q * b) for a, b in zip(Pf, Qf)]
        digits.append(f.digits)
    zero, one = field_units(atoms)
    return TradeOff._exact(neyman_pearson(atoms, zero, one), label, min(digits, default=30), clean=True)


@implements("Vadhan-Zhang Theorem 1.4")
def tensor(*fs: TradeOff) -> TradeOff:
    """``f_1 (x) ... (x) f_k``: the trade-off function of the composition of non-interactive
    mechanisms that are exactly ``f_i``-DP (the product of the pairs of :meth:`TradeOff.to_distributions`,
    Neyman-Pearson: :meth:`TradeOff.tensor` in turn). By Vadhan-Zhang Theorem 1.4 it is also the
    guarantee of their concurrent composition (interactive ``f_i``-DP mechanisms).

    Guarantee: exact.

    Raises:
        InvalidArgument: no function, or a non-TradeOff. NotExact, CostTooHigh: as :meth:`TradeOff.tensor`.

    Examples:
        >>> f = f_eps_delta(exp_eps=2)
        >>> [tuple(map(str, v)) for v in tensor(f, f).exact_vertices()]
        [('0', '1'), ('1/9', '5/9'), ('5/9', '1/9'), ('1', '0')]

    References:
        Vadhan-Zhang Theorem 1.4; Dong-Roth-Su (tensor products of trade-off functions).
    """
    if not fs:
        raise InvalidArgument("fs", "at least one trade-off function", "none")
    for i, f in enumerate(fs):
        if not isinstance(f, TradeOff):
            raise InvalidArgument(f"fs[{i}]", "a TradeOff", f)
    out = fs[0]
    for f in fs[1:]:
        out = out.tensor(f)
    return out


def _w_and_delta(eps: object, exp_eps: object, delta: object):
    if (eps is None) == (exp_eps is None):
        raise InvalidArgument("eps / exp_eps", "given, exactly one of the two", None)
    m = Mechanism(eps=eps, delta=delta) if eps is not None else Mechanism(exp_eps=exp_eps, delta=delta)
    return m


@implements("Vadhan-Zhang Definition 1.8")
def f_eps_delta(eps: object = None, delta: object = 0, *, exp_eps: object = None, digits: int = 30) -> TradeOff:
    """``f_{eps,delta}(alpha) = max{0, 1 - delta - e^eps alpha, e^-eps (1 - delta - alpha)}``
    (Vadhan-Zhang Section 1; Kairouz-Oh-Viswanath's privacy region of (eps, delta)-DP).

    Vertices ``(0, 1), (0, 1 - delta), (c, c), (1 - delta, 0), (1, 0)`` with
    ``c = (1 - delta) / (1 + e^eps)`` (repeated or collinear ones dropped).

    Guarantee: exact (rational vertices for rational ``e^eps``; in ``Q(e^eps)``,
    printed as enclosures of ``digits`` digits, for rational eps).

    Raises:
        InvalidArgument: eps < 0, exp_eps < 1, delta outside [0, 1), or not exactly one of eps / exp_eps.

    Examples:
        >>> f_eps_delta(exp_eps=3, delta="1/10").exact_vertices()[1:4]
        [(Fraction(0, 1), Fraction(9, 10)), (Fraction(9, 40), Fraction(9, 40)), (Fraction(9, 10), Fraction(0, 1))]
        >>> f_eps_delta(eps="0.4")("0.1").decimal(12)    # 1 - e^0.4 / 10: an enclosure
        ('0.850817530235', '0.850817530236')

    References:
        Vadhan-Zhang Section 1 (after Definition 1.8); Kairouz-Oh-Viswanath eq. (3), Theorem 2.1.
    """
    m = _w_and_delta(eps, exp_eps, delta)
    (w,) = exp_scalars([m.w])
    return _f_eps_delta_scalar(w, fast(m.delta), _label(m), digits)


def _label(m: Mechanism) -> str:
    from ..numbers import short_fraction

    e = short_fraction(m.eps, 40) if m.eps is not None else "ln " + short_fraction(m.exp_eps, 40)
    return f"f_{{{e}, {short_fraction(m.delta, 40)}}}"


def _f_eps_delta_scalar(w: Scalar, d, label: str, digits: int = 30) -> TradeOff:
    zero, one = field_units([(w, w)])
    c = (one - d) / (one + w)
    return TradeOff._exact([(zero, one), (zero, one - d), (c, c), (one - d, zero), (one, zero)], label, digits)


@implements("Vadhan-Zhang Lemma 2.4")
def tradeoff_sup(functions: Iterable[TradeOff], *, label: str = "sup") -> TradeOff:
    """The supremum of a finite family in the f-DP order (the least private trade-off function
    that every member is at least as private as): Lemma 2.4's ``h``, which for piecewise-linear
    functions is the lower convex envelope of the pointwise minimum (the lower hull of all vertices).

    Guarantee: exact (rational or ``Q(e^g)`` vertices).

    Raises:
        InvalidArgument: an empty family or a non-TradeOff member.
        NotExact: a member known only by enclosures.

    Examples:
        >>> f, g = f_eps_delta(exp_eps=2), f_eps_delta(exp_eps=1, delta="1/5")
        >>> [tuple(map(str, v)) for v in tradeoff_sup([f, g]).exact_vertices()]
        [('0', '1'), ('0', '4/5'), ('1/3', '1/3'), ('4/5', '0'), ('1', '0')]

    References:
        Vadhan-Zhang Lemma 2.4.
    """
    fs = _family(functions)
    pts = [p for f in fs for p in f.symbolic_vertices()]
    hull = lower_hull(pts)
    return TradeOff._exact(hull, label, min(f.digits for f in fs), clean=True)


def tradeoff_inf(functions: Iterable[TradeOff], *, label: str = "inf") -> TradeOff:
    """The infimum of a finite family in the f-DP order: the pointwise maximum (the
    intersection of the privacy regions): the upper envelope of every segment's line.

    Guarantee: exact.

    Raises:
        InvalidArgument: an empty family. NotExact: a member known only by enclosures.

    References:
        Kairouz-Oh-Viswanath Theorem 3.3 (regions as intersections).
    """
    fs = _family(functions)
    lines = []
    for f in fs:
        pts = f.symbolic_vertices()
        for (a0, b0), (a1, b1) in zip(pts, pts[1:]):
            if a1 != a0:
                s = (b1 - b0) / (a1 - a0)
                lines.append((b0 - s * a0, s))
    zero, one = field_units([p for f in fs for p in f.symbolic_vertices()])
    env = upper_envelope(lines, zero, one)
    return TradeOff._exact(env, label, min(f.digits for f in fs), clean=True)


def _family(functions: Iterable[TradeOff]) -> list[TradeOff]:
    fs = list(functions) if not isinstance(functions, TradeOff) else [functions]
    if not fs:
        raise InvalidArgument("functions", "a non-empty family of TradeOff", "an empty list")
    for i, f in enumerate(fs):
        if not isinstance(f, TradeOff):
            raise InvalidArgument(f"functions[{i}]", "a TradeOff", f)
    return fs


def tradeoff_from_guarantees(guarantees: Iterable[Mechanism], *, digits: int = 30) -> TradeOff:
    """The trade-off function implied by being ``(eps_j, delta_j)``-DP for every ``j``:
    ``max_j f_{eps_j, delta_j}`` (the intersection of the privacy regions). With the
    composition's own profile at its privacy-loss values it is the composition's trade-off
    function (the (eps, delta) -> f-DP conversion; checked against the engine by the tests).

    ``guarantees``: :class:`~exactdp.Mechanism` objects, read as (eps, delta) guarantees (a
    :class:`~exactdp.Composition` is read as its distinct mechanisms: repeats change no maximum).

    Guarantee: exact (rational vertices when every ``e^eps_j`` is rational; ``Q(e^g)`` for rational eps).

    Raises:
        InvalidArgument: an empty list or a non-Mechanism. NotExact: a root or computable ``e^eps``.

    Examples:
        >>> from exactdp import Mechanism, mechanisms
        >>> f = tradeoff_from_guarantees(mechanisms(eps=["0.1"], k=10**9))   # one distinct guarantee
        >>> f == tradeoff_from_guarantees([Mechanism(eps="0.1")]) == f_eps_delta(eps="0.1")
        True

    References:
        Vadhan-Zhang Section 1; Kairouz-Oh-Viswanath Theorem 3.3; Dong-Roth-Su, the primal-dual conversion between f-DP and (eps, delta) profiles.
    """
    if isinstance(guarantees, Composition):
        # a max over the guarantees: each distinct one once (a composition of 10^9 is a few)
        ms = [m for m, _ in guarantees.groups()]
    else:
        ms = list(guarantees) if not isinstance(guarantees, Mechanism) else [guarantees]
    if not ms:
        raise InvalidArgument("guarantees", "a non-empty list of Mechanism", "an empty list")
    for i, m in enumerate(ms):
        if not isinstance(m, Mechanism):
            raise InvalidArgument(f"guarantees[{i}]", "a Mechanism (an (eps, delta) pair)", m)
    ws = exp_scalars([m.w for m in ms])
    return guarantees_tradeoff([(w, fast(m.delta)) for w, m in zip(ws, ms)], digits=digits)


def guarantees_tradeoff(pairs: Sequence[tuple[Scalar, Scalar]], *, digits: int = 30, label: str = "max_j f_{eps_j, delta_j}") -> TradeOff:
    """``max_j f_{eps_j, delta_j}`` for exact scalar pairs ``(e^eps_j, delta_j)`` (internal form of
    :func:`tradeoff_from_guarantees`; the deltas may lie in ``Q(e^g)``). Guarantee: exact."""
    zero, one = field_units(list(pairs))
    lines = [(zero, zero)]
    for w, d in pairs:
        lines.append((one - d, -w))          # beta = 1 - delta - w alpha
        lines.append(((one - d) / w, -one / w))  # beta = (1 - delta - alpha) / w
    return TradeOff._exact(upper_envelope(lines, zero, one), label, digits, clean=True)


def composition_tradeoff(mechanisms: object, *, engine: str = "auto", method: str = "auto", digits: int = 30) -> TradeOff:
    """The trade-off function of a composition of ``(eps_i, delta_i)``-DP mechanisms: the tensor
    product of the ``f_{eps_i, delta_i}`` (Kairouz-Oh-Viswanath's randomized responses composed),
    from :meth:`exactdp.PrivacyProfile.tradeoff_curve`.

    Guarantee: exact when every ``e^eps_i`` is rational and the exact curve is not larger than
    :data:`MAX_EXACT_CURVE_BITS` (``engine="auto"``; beyond it certified enclosures, ``is_exact`` False);
    else certified vertex enclosures (``digits``).

    Raises:
        InvalidArgument / CostTooHigh: from the profile (bad mechanisms; too many privacy-loss classes);
            CostTooHigh for ``engine="exact"`` beyond :data:`MAX_EXACT_CURVE_BITS`.

    Examples:
        >>> from exactdp import mechanisms
        >>> f = composition_tradeoff(mechanisms(exp_eps=2, k=2))
        >>> f == f_eps_delta(exp_eps=2).tensor(f_eps_delta(exp_eps=2))
        True

    References:
        Kairouz-Oh-Viswanath Theorem 3.3; Murtagh-Vadhan Theorem 1.5 and Definition 3.1.
    """
    from ..engines.base import Prepared
    from ..numbers import parse_choice
    from ..profile import PrivacyProfile

    comp = as_composition(mechanisms)
    engine = parse_choice(engine, "engine", ("auto", "exact", "certified"))
    if engine != "certified":
        prep = Prepared(comp, method)
        if prep.all_exact():
            bits = exact_curve_bits(comp, prep.struct.cost())
            if bits > MAX_EXACT_CURVE_BITS:
                if engine == "exact":
                    raise CostTooHigh("engine", f"the exact trade-off curve would hold about {bits:.3g} bits of rationals "
                                      f"(limit {MAX_EXACT_CURVE_BITS:.3g}); use engine='certified' (enclosures)",
                                      estimate=bits, limit=MAX_EXACT_CURVE_BITS, alternative="engine='certified'")
                engine = "certified"  # auto: the certified tier, stated in the result (is_exact False)
    prof = PrivacyProfile(comp, engine=engine, method=method, digits=digits)
    # the profile gives (0, P) and (P, 0) exactly and no repeated vertex
    return TradeOff._enclosed(list(prof.tradeoff_curve()), f"composition of {comp.describe()}", digits)
