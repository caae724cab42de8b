"""Privacy regions: the hypothesis-testing view of differential privacy (Kairouz-Oh-Viswanath Section 2).

For a mechanism ``M`` and neighbouring databases ``D0, D1``, a test of
``H0: D0`` against ``H1: D1`` has a false-alarm probability ``P_FA`` (rejecting
``H0`` when it holds) and a missed-detection probability ``P_MD``; the privacy
region ``R(M)`` is the set of pairs ``(P_FA, P_MD)`` that tests can achieve. With
``f`` the trade-off function of the pair (Vadhan-Zhang Definition 1.6) it is the
convex polygon (for finite mechanisms)

    R = {(x, y) in [0, 1]^2 : f(x) <= y <= 1 - f(1 - x)}

(complementing a test maps ``(x, y)`` to ``(1 - x, 1 - y)``). The region of
``(eps, delta)``-DP (KOV eq. (3); Theorem 2.1: ``M`` is (eps, delta)-DP iff every
test satisfies these) is

    P_FA + e^eps P_MD >= 1 - delta,   e^eps P_FA + P_MD >= 1 - delta,

and the two mirrored constraints; Corollary 2.3: ``M`` is (eps, delta)-DP iff
``R(M)`` lies inside it (:meth:`PrivacyRegion.is_subset`).

A :class:`PrivacyRegion` is the boundary polygon, counter-clockwise from ``(0, 1)``:
first the lower-left boundary (the trade-off curve) down to ``(1, 0)``, then its
mirror image back up; no repeated or collinear vertices. Its vertices are exact
(rational, or in ``Q(e^g)`` for rational eps) or certified enclosures, as the
trade-off function it comes from.
"""

from __future__ import annotations

from ..errors import InvalidArgument, NotExact
from ..fdp.geometry import simplify_chain, turn, value_at
from ..fdp.symbolic import scalar_enclosure
from ..fdp.tradeoff import TradeOff, composition_tradeoff, f_eps_delta
from ..fdp.vertices import ExactVertices
from ..links import implements
from ..numbers import Enclosure, fraction_str, parse_rational

__all__ = ["PrivacyRegion", "dp_region", "composition_region", "coordinate_json"]


class PrivacyRegion(ExactVertices):
    """The privacy region of a trade-off function ``f``: a convex polygon (see the module docstring).

    Build it with :meth:`of_tradeoff`, :func:`dp_region`, :func:`composition_region`,
    :func:`~exactdp.regions.theorem33_region` or the achieving mechanisms.

    Guarantee: as the trade-off function: exact vertices (``is_exact``; or ``is_symbolic``:
    exact in ``Q(e^g)``, printed as enclosures), else certified enclosures.

    Examples:
        >>> R = dp_region(exp_eps=2)                 # (ln 2, 0)-DP
        >>> [tuple(map(str, v)) for v in R.exact_vertices()]
        [('0', '1'), ('1/3', '1/3'), ('1', '0'), ('2/3', '2/3')]
        >>> R.contains("1/2", "1/5"), R.contains("1/2", "1/4")     # f(1/2) = 1/4
        (False, True)

    References:
        Kairouz-Oh-Viswanath Section 2 (privacy regions), Theorem 2.1, Corollary 2.3.
    """

    __slots__ = ("tradeoff", "_pts", "_enc")
    _noun = "region"

    def __init__(self, tradeoff: TradeOff):
        if not isinstance(tradeoff, TradeOff):
            raise InvalidArgument("tradeoff", "a TradeOff", tradeoff)
        object.__setattr__(self, "tradeoff", tradeoff)
        object.__setattr__(self, "_enc", None)
        if tradeoff.is_symbolic:
            v = tradeoff.symbolic_vertices()
            one = v[0][1]
            mirror = [(one - a, one - b) for a, b in v[1:-1]]
            poly = v + mirror
            # the curve and its mirror are clean; only the two junctions can be straight
            # (then the region is the diagonal segment, every eps 0)
            n = len(v)
            if len(poly) >= 3 and (turn(poly[n - 2], poly[n - 1], poly[n % len(poly)]) == 0
                                   or turn(poly[-1], poly[0], poly[1]) == 0):
                poly = simplify_chain(poly, closed=True)
            object.__setattr__(self, "_pts", poly)
        else:
            object.__setattr__(self, "_pts", None)

    @classmethod
    def of_tradeoff(cls, f: TradeOff) -> "PrivacyRegion":
        """The region of ``f``. Guarantee: as ``f``. Raises: InvalidArgument for a non-TradeOff."""
        return cls(f)

    def _describe(self) -> str:
        return f"the region of {self.tradeoff.label}"

    # is_exact, is_symbolic, exact_vertices, symbolic_vertices, len, ==: ExactVertices
    @property
    def vertices(self) -> tuple[tuple[Enclosure, Enclosure], ...]:
        """Vertices ``(P_FA, P_MD)`` counter-clockwise from ``(0, 1)``, as enclosures (points when rational).
        Guarantee: enclosure."""
        if self._enc is None:
            if self._pts is not None:
                d = self.tradeoff.digits
                enc = tuple((scalar_enclosure(a, d), scalar_enclosure(b, d)) for a, b in self._pts)
            else:
                v = list(self.tradeoff.vertices)
                one = Enclosure.point(1)
                mirror = [(one - a, one - b) for a, b in v[1:-1]]
                # the curve has no repeated or collinear vertices (distinct likelihood ratios);
                # its mirror neither, and the two chains meet at (1, 0) and (0, 1) at an angle
                # unless the region is the diagonal segment (every eps 0, exact): see polygon docs
                enc = tuple(v + mirror)
            object.__setattr__(self, "_enc", enc)
        return self._enc  # type: ignore[return-value]

    def __repr__(self) -> str:
        kind = "exact" if self.is_exact else "symbolic" if self.is_symbolic else "enclosures"
        return f"PrivacyRegion({self.tradeoff.label}, {len(self)} vertices, {kind})"

    def contains(self, p_fa: object, p_md: object) -> bool:
        """Is ``(p_fa, p_md)`` achievable, i.e. inside the region? Guarantee: exact decision
        (exact regions); for enclosed ones, True/False only when decided, else NotExact.

        Raises:
            InvalidArgument: coordinates not rationals in [0, 1].
        """
        x = parse_rational(p_fa, "p_fa", expected="a rational number in [0, 1]")
        y = parse_rational(p_md, "p_md", expected="a rational number in [0, 1]")
        for name, v in (("p_fa", x), ("p_md", y)):
            if not 0 <= v <= 1:
                raise InvalidArgument(name, "a rational number in [0, 1]", v)
        lo = self.tradeoff(x)
        hi = 1 - self.tradeoff(1 - x)
        if lo.upper <= y <= hi.lower:
            return True
        if y < lo.lower or y > hi.upper:
            return False
        if self.tradeoff.is_symbolic:
            pts = self.tradeoff.symbolic_vertices()
            return bool(value_at(pts, x) <= y <= 1 - value_at(pts, 1 - x))
        raise NotExact("point", "decidable against the region's enclosures", (x, y))

    @implements("Kairouz-Oh-Viswanath Corollary 2.3")
    def is_subset(self, other: "PrivacyRegion") -> bool:
        """``self`` inside ``other`` (Corollary 2.3: a mechanism is (eps, delta)-DP iff its region
        lies in ``R(eps, delta)``): ``f_self >= f_other`` everywhere (:meth:`TradeOff.dominates`; the
        mirrored upper boundaries ``1 - f(1 - x)`` are then ordered too).
        Guarantee: exact decision. Raises: NotExact for enclosed regions."""
        if not isinstance(other, PrivacyRegion):
            raise InvalidArgument("other", "a PrivacyRegion", other)
        return self.tradeoff.dominates(other.tradeoff)

    def to_dict(self, digits: int = 30) -> dict:
        """``{"vertices": [[P_FA, P_MD], ...], "exact": bool, "count": n}``; each coordinate an exact
        ``"p/q"`` string when rational, else ``{"lower": ..., "upper": ...}`` (decimals rounded outward).
        Guarantee: enclosure (exact strings exact). Raises: nothing."""
        vs = self.vertices if self._pts is None or not self.is_exact else None
        if vs is None:
            coords = [[fraction_str(a), fraction_str(b)] for a, b in self.exact_vertices()]
        else:
            if self._pts is not None:
                vs = tuple((scalar_enclosure(a, digits), scalar_enclosure(b, digits)) for a, b in self._pts)
            coords = [[coordinate_json(a, digits), coordinate_json(b, digits)] for a, b in vs]
        return {"vertices": coords, "exact": self.is_exact, "count": len(coords)}


def coordinate_json(e: Enclosure, digits: int):
    """An exact ``"p/q"`` string for an exact enclosure, else ``{"lower": ..., "upper": ...}`` rounded outward.
    Guarantee: enclosure. Raises: nothing."""
    if e.exact is not None:
        return fraction_str(e.exact)
    lo, hi = e.decimal(digits)
    return {"lower": lo, "upper": hi}


@implements("Kairouz-Oh-Viswanath Theorem 2.1")
def dp_region(eps: object = None, delta: object = 0, *, exp_eps: object = None, digits: int = 30) -> PrivacyRegion:
    """``R(eps, delta)``: the region of (eps, delta)-DP (KOV eq. (3), Theorem 2.1), the region of ``f_{eps,delta}``.

    Guarantee: exact (rational e^eps), exact in ``Q(e^eps)`` for rational eps (printed as enclosures).

    Raises:
        InvalidArgument: eps < 0, exp_eps < 1, delta outside [0, 1).

    Examples:
        >>> len(dp_region(eps="0.4", delta="0.1"))   # (0,1) (0,.9) (c,c) (.9,0) (1,0) (1,.1) (1-c,1-c) (.1,1)
        8

    References:
        Kairouz-Oh-Viswanath eq. (3), Theorem 2.1.
    """
    return PrivacyRegion(f_eps_delta(eps, delta, exp_eps=exp_eps, digits=digits))


@implements("Kairouz-Oh-Viswanath Theorem 3.3", "Murtagh-Vadhan Theorem 1.5")
def composition_region(mechanisms: object, *, engine: str = "auto", method: str = "auto", digits: int = 30) -> PrivacyRegion:
    """The privacy region of the optimal (adaptive) composition of (eps_i, delta_i)-DP mechanisms,
    homogeneous or heterogeneous: the region of the composition's exact trade-off curve
    (:meth:`exactdp.PrivacyProfile.tradeoff_curve`); it contains the region of every such composition
    and is attained (KOV Theorem 3.3; Murtagh-Vadhan Theorem 1.5).

    Guarantee: exact when every ``e^eps_i`` is rational; else certified vertex enclosures (``digits``).

    Raises:
        InvalidArgument / CostTooHigh: from the privacy profile.

    Examples:
        >>> from exactdp import mechanisms
        >>> composition_region(mechanisms(exp_eps=2, k=2)).to_dict()["vertices"]
        [['0', '1'], ['1/9', '5/9'], ['5/9', '1/9'], ['1', '0'], ['8/9', '4/9'], ['4/9', '8/9']]

    References:
        Kairouz-Oh-Viswanath Theorem 3.3 (homogeneous), Murtagh-Vadhan Theorem 1.5 (any).
    """
    return PrivacyRegion(composition_tradeoff(mechanisms, engine=engine, method=method, digits=digits))

