"""Mechanisms that achieve the optimal composed region (Kairouz-Oh-Viswanath Sections 4.2 and 6).

* The (eps, delta) randomized response of KOV (their Section 6; Murtagh-Vadhan
  Definition 3.1): outputs ``{0, 1, 2, 3}`` with

      P = (delta, (1 - delta) w / (1 + w), (1 - delta) / (1 + w), 0)
      Q = (0, (1 - delta) / (1 + w), (1 - delta) w / (1 + w), delta),   w = e^eps.

  Every (eps, delta)-DP mechanism is a post-processing of it (KOV Theorem 2.5), so the
  k-fold product of randomized responses has the largest region of any k-fold
  composition: :func:`randomized_response_region`.
* The geometric mechanism (KOV Theorem 4.4): an integer query of sensitivity one
  answered with two-sided geometric noise ``p(z) = ((w - 1)/(w + 1)) w^(-|z|)``. For
  neighbouring databases the outputs are ``Z`` and ``Z + 1``; the likelihood ratio
  ``p(z - 1) / p(z)`` is ``w`` for ``z >= 1`` and ``1/w`` for ``z <= 0``, so the pair reduces
  exactly (a sufficient statistic) to the two classes, whose masses are geometric
  series summed in closed form: :func:`geometric_pair`. Its k-fold region is
  :func:`geometric_region`.

Both regions are computed from the mechanisms' own output distributions (Definition 1.6
on the product, :meth:`~exactdp.fdp.TradeOff.tensor`), independently of the OptComp
kernels; the tests check that they equal the optimal composed region exactly.
"""

from __future__ import annotations

from typing import Optional, Sequence

from ..errors import InvalidArgument
from ..events import Mechanism, as_composition
from ..fdp.geometry import neyman_pearson
from ..fdp.symbolic import QW, Scalar, exp_scalars, fast, field_units, scalar_exact
from ..fdp.tradeoff import TradeOff
from ..links import implements
from ..numbers import parse_int, parse_list
from .polygon import PrivacyRegion

__all__ = ["randomized_response", "geometric_pair", "randomized_response_region", "geometric_region"]


def randomized_response(eps: object = None, delta: object = 0, *, exp_eps: object = None) -> tuple[list[Scalar], list[Scalar]]:
    """KOV's (eps, delta) randomized response as the pair ``(P, Q)`` on four outputs (module docstring).

    Guarantee: exact (rationals, or ``Q(e^eps)`` for rational eps).

    Raises:
        InvalidArgument: bad eps / delta, or not exactly one of eps / exp_eps.

    Examples:
        >>> [str(x) for x in randomized_response(exp_eps=3, delta="1/10")[0]]
        ['1/10', '27/40', '9/40', '0']

    References:
        Kairouz-Oh-Viswanath Section 6 (their mechanism), Theorem 2.5; Murtagh-Vadhan Definition 3.1.
    """
    m = _mech(eps, exp_eps, delta)
    (w,) = exp_scalars([m.w])
    return _public(_rr(w, fast(m.delta)))


def _public(pair):
    """Rationals as Fractions (QW elements unchanged)."""
    return tuple([x if isinstance(x, QW) else scalar_exact(x) for x in xs] for xs in pair)


def _rr(w, d):
    zero, one = field_units([(w, w)])
    p = (one - d) * w / (one + w)
    q = (one - d) / (one + w)
    return [zero + d, p, q, zero], [zero, q, p, zero + d]


@implements("Kairouz-Oh-Viswanath Theorem 4.4")
def geometric_pair(eps: object = None, *, exp_eps: object = None) -> tuple[list[Scalar], list[Scalar]]:
    """The geometric mechanism's output pair for neighbouring databases (``Z`` against ``Z + 1``),
    reduced to its two likelihood-ratio classes ``{z <= 0}`` and ``{z >= 1}``.

    With ``c = (w - 1)/(w + 1)``: ``P(z <= 0) = c sum_{n >= 0} w^-n = c w/(w - 1)``,
    ``P(z >= 1) = c sum_{n >= 1} w^-n = c/(w - 1)``, and ``Q`` the same with the classes
    swapped (``Q(z) = p(z - 1)``). For ``w = 1`` (eps = 0) the noise is not a distribution;
    refused.

    Guarantee: exact.

    Raises:
        InvalidArgument: eps = 0 (exp_eps = 1), or a bad number.

    Examples:
        >>> [str(x) for x in geometric_pair(exp_eps=3)[0]]     # = randomized response at e^eps = 3
        ['3/4', '1/4']

    References:
        Kairouz-Oh-Viswanath Section 4.2, Theorem 4.4.
    """
    m = _mech(eps, exp_eps, 0)
    (w,) = exp_scalars([m.w])
    if w == 1:
        raise InvalidArgument("eps", "a number > 0 (the geometric noise needs e^eps > 1)", 0)
    c = (w - 1) / (w + 1)
    left = c * w / (w - 1)     # sum over z <= 0 of c w^(-|z|)
    right = c / (w - 1)        # sum over z >= 1 of c w^(-|z|)
    # Q(z) = p(z - 1): Q(z <= 0) = sum_{z <= -1} c w^(-|z|) = right, Q(z >= 1) = sum_{z >= 0} = left
    return _public(([left, right], [right, left]))


def _mech(eps, exp_eps, delta) -> Mechanism:
    if (eps is None) == (exp_eps is None):
        raise InvalidArgument("eps / exp_eps", "given, exactly one of the two", None)
    return Mechanism(eps=eps, delta=delta) if eps is not None else Mechanism(exp_eps=exp_eps, delta=delta)


def _product_tradeoff(pairs: Sequence[tuple[list, list]], counts: Sequence[int], label: str, digits: int) -> TradeOff:
    total: Optional[TradeOff] = None
    for (P, Q), n in zip(pairs, counts):
        zero, one = field_units([(x, x) for x in P + Q])
        f = TradeOff._exact(neyman_pearson(list(zip(P, Q)), zero, one), label, digits).power(n)
        total = f if total is None else total.tensor(f)
    return TradeOff._exact(total.symbolic_vertices(), label, digits)  # type: ignore[union-attr]


def randomized_response_region(mechanisms: object, *, digits: int = 30) -> PrivacyRegion:
    """The region of the product of KOV randomized responses, one per mechanism (their k-fold
    composition), computed from the output distributions.

    Guarantee: exact (rationals, or ``Q(e^g)`` for rational eps).

    Raises:
        InvalidArgument: bad mechanisms. CostTooHigh: a product too large for :meth:`TradeOff.tensor`.

    Examples:
        >>> from exactdp import mechanisms
        >>> from exactdp.regions import composition_region
        >>> ms = mechanisms(exp_eps=[2, 3], delta=["1/10", 0])
        >>> randomized_response_region(ms) == composition_region(ms)
        True

    References:
        Kairouz-Oh-Viswanath Theorem 3.3 (achievability), Section 6.
    """
    comp = as_composition(mechanisms)
    groups = comp.groups()
    ws = exp_scalars([m.w for m, _ in groups])
    pairs = [_rr(w, fast(m.delta)) for w, (m, _) in zip(ws, groups)]
    return PrivacyRegion(_product_tradeoff(pairs, [n for _, n in groups], f"randomized responses: {comp.describe()}", digits))


@implements("Kairouz-Oh-Viswanath Theorem 4.4")
def geometric_region(eps: object = None, *, exp_eps: object = None, k: int = 1, digits: int = 30) -> PrivacyRegion:
    """The region of ``k`` rounds of the geometric mechanism (each eps in the list repeated ``k``
    times; one value for the homogeneous case), from :func:`geometric_pair`.

    Guarantee: exact.

    Raises:
        InvalidArgument: an eps = 0, bad numbers, k < 1.

    Examples:
        >>> from exactdp import mechanisms
        >>> from exactdp.regions import composition_region
        >>> geometric_region(exp_eps=2, k=3) == composition_region(mechanisms(exp_eps=2, k=3))
        True

    References:
        Kairouz-Oh-Viswanath Theorem 4.4.
    """
    k = parse_int(k, "k", lo=1)
    if (eps is None) == (exp_eps is None):
        raise InvalidArgument("eps / exp_eps", "given, exactly one of the two", None)
    vals = parse_list(eps if eps is not None else exp_eps, "eps" if eps is not None else "exp_eps")
    ms = [_mech(v, None, 0) if eps is not None else _mech(None, v, 0) for v in vals]
    ws = exp_scalars([m.w for m in ms])
    pairs = []
    for w in ws:
        if w == 1:
            raise InvalidArgument("eps", "numbers > 0 (the geometric noise needs e^eps > 1)", 0)
        c = (w - 1) / (w + 1)
        pairs.append(([c * w / (w - 1), c / (w - 1)], [c / (w - 1), c * w / (w - 1)]))
    return PrivacyRegion(_product_tradeoff(pairs, [k] * len(pairs), f"geometric mechanism x {k}", digits))
