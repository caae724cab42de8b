"""Kairouz-Oh-Viswanath Theorem 3.3: the optimal homogeneous composition as an intersection of regions.

Theorem 3.3 (as published; restated in ``papers/README.md``): the k-fold adaptive
composition of (eps, delta)-DP mechanisms is ``((k - 2i) eps, delta'_i)``-DP for every
``i = 0, ..., floor(k/2)``, with ``delta'_i = 1 - (1 - delta)^k (1 - delta_i)`` and

    delta_i = sum_{l=0}^{i-1} C(k, l) (e^{(k-l) eps} - e^{(k-2i+l) eps}) / (1 + e^eps)^k,

and its privacy region is exactly ``R = intersection over i of R((k - 2i) eps, delta'_i)``.

:func:`theorem33_region` builds that intersection as an exact polygon (the upper
envelope of the supporting lines, :func:`~exactdp.fdp.geometry.upper_envelope`);
:func:`check_theorem33` compares it with the polygon of the composition's exact
trade-off curve (the privacy-profile layer). Both are exact when ``e^eps`` is
rational; for a rational eps every number lies in ``Q(e^eps)`` and the comparison is
still exact (:mod:`exactdp.fdp.symbolic`), against KOV's own achieving construction
(Section 6: :func:`homogeneous_tradeoff`), and each exact vertex is checked to lie in
the profile's certified enclosure.

The sums are computed in ``O(k)`` from prefix sums: with ``A_i = sum_{l<i} C(k,l) w^(k-l)``
and ``B_i = sum_{l<i} C(k,l) w^l``, ``delta_i (1 + w)^k = A_i - w^(k-2i) B_i``.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb
from typing import Optional

from ..errors import InvalidArgument
from ..events import Mechanism
from ..fdp.symbolic import Scalar, exp_scalars, fast, field_units
from ..fdp.tradeoff import TradeOff, guarantees_tradeoff
from ..links import implements
from ..numbers import parse_int
from .polygon import PrivacyRegion, composition_region

__all__ = ["theorem33_guarantees", "theorem33_tradeoff", "theorem33_region", "homogeneous_tradeoff",
           "check_theorem33", "Theorem33Check", "MAX_THEOREM33_K"]

#: Largest k for Theorem 3.3's exact polygon (its O(k) lines hold k-bit numbers; the
#: envelope is O(k log k) exact comparisons of them).
MAX_THEOREM33_K = 20_000


def _mech(eps: object, exp_eps: object, delta: object) -> Mechanism:
    if (eps is None) == (exp_eps is None):
        raise InvalidArgument("eps / exp_eps", "given, exactly one of the two", None)
    return Mechanism(eps=eps, delta=delta) if eps is not None else Mechanism(exp_eps=exp_eps, delta=delta)


def _k(k: object) -> int:
    k = parse_int(k, "k", lo=1)
    if k > MAX_THEOREM33_K:
        from ..errors import CostTooHigh

        raise CostTooHigh("k", f"Theorem 3.3's exact polygon for k = {k} is refused (limit {MAX_THEOREM33_K})",
                          estimate=k, limit=MAX_THEOREM33_K, alternative="composition_region (the trade-off curve)")
    return k


@implements("Kairouz-Oh-Viswanath Theorem 3.3")
def theorem33_guarantees(eps: object = None, delta: object = 0, *, exp_eps: object = None, k: int = 1) -> list[tuple[int, Scalar, Scalar]]:
    """Theorem 3.3's guarantees ``(i, e^{(k-2i) eps}, delta'_i)``, ``i = 0..floor(k/2)``, exactly as printed.

    Guarantee: exact (rationals for rational ``e^eps``; elements of ``Q(e^eps)`` for rational eps).

    Raises:
        InvalidArgument: bad eps / delta / k. CostTooHigh: ``k > MAX_THEOREM33_K``.

    Examples:
        >>> [(i, str(t), str(d)) for i, t, d in theorem33_guarantees(exp_eps=2, k=2)]
        [(0, '4', '0'), (1, '1', '1/3')]

    References:
        Kairouz-Oh-Viswanath Theorem 3.3 (and ``papers/README.md``).
    """
    m = _mech(eps, exp_eps, delta)
    k = _k(k)
    (w,) = exp_scalars([m.w])
    zero, one = field_units([(w, w)])
    P = (1 - fast(m.delta)) ** k
    Z = (one + w) ** k
    pw = [one]
    for _ in range(k):
        pw.append(pw[-1] * w)
    out = []
    A = zero  # sum_{l < i} C(k, l) w^(k - l)
    B = zero  # sum_{l < i} C(k, l) w^l
    for i in range(k // 2 + 1):
        d_i = (A - pw[k - 2 * i] * B) / Z
        out.append((i, pw[k - 2 * i], one - P * (one - d_i)))
        c = comb(k, i)
        A = A + c * pw[k - i]
        B = B + c * pw[i]
    return out


def theorem33_tradeoff(eps: object = None, delta: object = 0, *, exp_eps: object = None, k: int = 1, digits: int = 30) -> TradeOff:
    """The trade-off function of Theorem 3.3's intersection: ``max_i f_{(k-2i) eps, delta'_i}``.
    Guarantee: exact (as :func:`theorem33_guarantees`). Raises: as it."""
    gs = theorem33_guarantees(eps, delta, exp_eps=exp_eps, k=k)
    return guarantees_tradeoff([(t, d) for _, t, d in gs], digits=digits, label=f"KOV Theorem 3.3, k = {k}")


def theorem33_region(eps: object = None, delta: object = 0, *, exp_eps: object = None, k: int = 1, digits: int = 30) -> PrivacyRegion:
    """Theorem 3.3's region ``intersection_i R((k - 2i) eps, delta'_i)`` as an exact polygon.

    Guarantee: exact (rational vertices for rational ``e^eps``; in ``Q(e^eps)`` for rational eps,
    printed as certified enclosures).

    Raises:
        InvalidArgument: bad eps / delta / k. CostTooHigh: ``k > MAX_THEOREM33_K``.

    Examples:
        >>> theorem33_region(exp_eps=2, k=2).to_dict()["vertices"]
        [['0', '1'], ['1/9', '5/9'], ['5/9', '1/9'], ['1', '0'], ['8/9', '4/9'], ['4/9', '8/9']]

    References:
        Kairouz-Oh-Viswanath Theorem 3.3.
    """
    return PrivacyRegion(theorem33_tradeoff(eps, delta, exp_eps=exp_eps, k=k, digits=digits))


@implements("Kairouz-Oh-Viswanath Theorem 3.3")
def homogeneous_tradeoff(eps: object = None, delta: object = 0, *, exp_eps: object = None, k: int = 1, digits: int = 30) -> TradeOff:
    """The trade-off curve of KOV's achieving mechanism composed k times (their Section 6):
    the (eps, delta) randomized response, whose k-fold product has, besides the two
    delta-atoms of mass ``1 - (1 - delta)^k``, the classes ``j = 0..k`` (``j`` "good" outcomes) with
    masses ``P C(k, j) w^j / (1 + w)^k`` and ``P C(k, j) w^(k-j) / (1 + w)^k`` and likelihood ratio
    ``w^(k - 2j)``, rejected in that (known) order.

    Guarantee: exact (as :func:`theorem33_guarantees`). Raises: as it.
    """
    m = _mech(eps, exp_eps, delta)
    k = _k(k)
    (w,) = exp_scalars([m.w])
    zero, one = field_units([(w, w)])
    P = (1 - fast(m.delta)) ** k
    Z = (one + w) ** k
    pw = [one]
    for _ in range(k):
        pw.append(pw[-1] * w)
    pts = [(zero, one), (zero, one * P)]
    a, b = zero, one * P
    for j in range(k + 1):
        c = comb(k, j) * P
        a = a + c * pw[j] / Z
        b = b - c * pw[k - j] / Z
        pts.append((a, b))
    pts.append((one, zero))
    return TradeOff._exact(pts, f"KOV Section 6 mechanism, k = {k}", digits)  # simplified: w = 1 makes it straight


@dataclass(frozen=True, kw_only=True)
class Theorem33Check:
    """The outcome of :func:`check_theorem33`.

    ``equal`` is an exact decision: the Theorem 3.3 polygon equals the polygon of the
    composition's trade-off curve. ``how`` says how it was decided; ``theorem`` and ``curve``
    are the two regions.
    """

    equal: bool
    how: str
    theorem: PrivacyRegion
    curve: PrivacyRegion

    def to_dict(self, digits: int = 30) -> dict:
        return {"equal_to_curve": self.equal, "how": self.how, **self.theorem.to_dict(digits)}


@implements("Kairouz-Oh-Viswanath Theorem 3.3")
def check_theorem33(eps: object = None, delta: object = 0, *, exp_eps: object = None, k: int = 1, digits: int = 30,
                    curve: Optional[PrivacyRegion] = None) -> Theorem33Check:
    """Decide, exactly, whether Theorem 3.3's polygon is the region of the k-fold composition.

    * ``e^eps`` rational: both polygons are rational; equality of vertex lists.
    * eps rational (``e^eps`` transcendental): Theorem 3.3's polygon equals the polygon of
      KOV's achieving construction (:func:`homogeneous_tradeoff`), both in ``Q(e^eps)`` (exact);
      and every exact vertex lies in the corresponding certified vertex enclosure of the
      profile's curve (exact decisions in ``Q(e^eps)``).

    Guarantee: exact decision. Raises: as :func:`theorem33_region`.

    References:
        Kairouz-Oh-Viswanath Theorem 3.3 and Section 6.
    """
    thm = theorem33_region(eps, delta, exp_eps=exp_eps, k=k, digits=digits)
    m = _mech(eps, exp_eps, delta)
    if curve is None:
        curve = composition_region(_repeat(m, k), digits=digits)
    if thm.is_exact and curve.is_exact:
        return Theorem33Check(equal=thm == curve, how="exact: rational vertices compared", theorem=thm, curve=curve)
    own = PrivacyRegion(homogeneous_tradeoff(eps, delta, exp_eps=exp_eps, k=k, digits=digits))
    if not thm == own:
        return Theorem33Check(equal=False, how="exact in Q(e^eps): differs from KOV's achieving construction", theorem=thm, curve=curve)
    tv = thm.symbolic_vertices()
    cv = curve.vertices
    if len(tv) != len(cv):
        return Theorem33Check(equal=False, how=f"{len(tv)} vertices against the curve's {len(cv)}", theorem=thm, curve=curve)
    inside = all(ea.lower <= a <= ea.upper and eb.lower <= b <= eb.upper for (a, b), (ea, eb) in zip(tv, cv))
    how = ("exact in Q(e^eps): equal to KOV's achieving construction, and every vertex inside the "
           "profile curve's certified enclosure")
    return Theorem33Check(equal=inside, how=how if inside else "a vertex outside the profile curve's enclosure", theorem=thm, curve=curve)


def _repeat(m: Mechanism, k: int):
    from ..events import Composition

    return Composition([(m, k)])

