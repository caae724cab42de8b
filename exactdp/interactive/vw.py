"""Vadhan-Wang Theorem 4.1 (Theorem 1.4): concurrent composition of (eps_i, delta_i)-DP
interactive mechanisms, and the order of the mechanisms that minimises its delta.

Theorem 4.1: for every order ``sigma`` of the mechanisms, the concurrent composition is
``(eps_g, delta_sigma)``-DP with ``eps_g = sum eps_i`` and

    delta_sigma = sum_i (prod_{j < i} e^{eps_sigma(j)}) delta_sigma(i),

and the theorem's bound is the least ``delta_sigma`` over the k! orders. The order rule
(proved in ``docs/interactive.md``): sort by the key ``rho_i = delta_i / (e^{eps_i} - 1)``,
largest first (``rho = inf`` for ``eps_i = 0 < delta_i``; a mechanism with
``eps_i = delta_i = 0`` changes nothing wherever it stands). Swapping two adjacent
mechanisms ``a, b`` changes ``delta`` by ``W (delta_a (w_b - 1) - delta_b (w_a - 1))``
(``W`` the product of the ``w`` before them), so every swap towards the sorted order does
not increase delta, and bubble sort reaches the sorted order from any order.

The comparisons are exact: rational ``w`` compare as rationals; ``w = q e^r`` (a user's
rational eps) compare by the sign of ``delta_a q_b e^{r_b} - delta_b q_a e^{r_a} - delta_a
+ delta_b``, which is zero only when every coefficient of a distinct exponential is
(Lindemann-Weierstrass), and otherwise decided by ball arithmetic at rising precision.

The optimal value at the same ``eps_g`` (Vadhan-Zhang Theorem 1.3 with Murtagh-Vadhan
Theorem 1.5) is ``1 - prod (1 - delta_i)``: at ``e^{eps_g} = prod w_i`` every term
``max(W_S - e^{eps_g} W_{not S}, 0)`` of Theorem 1.5 vanishes.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cmp_to_key
from typing import Optional, Sequence

from .._backend import arb, workprec
from ..errors import CostTooHigh, InvalidArgument, PrecisionError
from ..events import Mechanism, as_composition
from ..links import implements
from ..numbers import MAXPREC, Enclosure, ExpNum, RatExp, decide_sign, fraction_str, refine
from ..numbers.fmt import arb_bounds, arb_of_fraction

__all__ = [
    "VWBound",
    "vw_delta",
    "vw_best_order",
    "vw_bound",
    "optimal_delta_at_sum",
    "MAX_VW_MECHANISMS",
]

#: Largest composition for which the bound and its best order are computed (measured: k = 10^4 with
#: rational e^eps_i in 26 to 51 s, the exact value growing to ~k^2 bits of work; the order is
#: a list of k indices; each comparison may need ball arithmetic).
MAX_VW_MECHANISMS = 20_000




def _mechs(ms: object) -> list[Mechanism]:
    comp = as_composition(ms)
    if comp.k > MAX_VW_MECHANISMS:
        raise CostTooHigh("mechanisms", f"{comp.k} mechanisms is refused for the Theorem 4.1 bound (limit "
                          f"{MAX_VW_MECHANISMS}): its order lists every mechanism", estimate=comp.k,
                          limit=MAX_VW_MECHANISMS, alternative="fewer mechanisms")
    return list(comp)


def _order(order: Optional[Sequence[int]], k: int) -> list[int]:
    if order is None:
        return list(range(k))
    try:
        o = [int(i) for i in order]
    except (TypeError, ValueError):
        raise InvalidArgument("order", f"a permutation of 0..{k - 1}", order) from None
    if sorted(o) != list(range(k)) or any(isinstance(i, bool) for i in order):
        raise InvalidArgument("order", f"a permutation of 0..{k - 1}", list(order)[:20])
    return o


def _value(ms: list[Mechanism], order: list[int], digits: int) -> Enclosure:
    if all(m.delta == 0 for m in ms):
        return Enclosure.point(0)
    ws = [m.w.exact() for m in ms]
    if all(w is not None for w in ws):
        total, prefix = Fraction(0), Fraction(1)
        for i in order:
            total += prefix * ms[i].delta
            prefix *= ws[i]  # type: ignore[operator]
        return Enclosure.point(total)

    def step(prec: int) -> Optional[Enclosure]:
        with workprec(prec):
            total, prefix = arb(0), arb(1)
            for i in order:
                if ms[i].delta:
                    total += prefix * arb_of_fraction(ms[i].delta)
                prefix *= ms[i].w.arb(prec)
            if not total.is_finite():
                return None
            lo, hi = arb_bounds(total)
        e = Enclosure(max(lo, Fraction(0)), hi)
        return e if e.accurate(digits) else None

    return refine(step, digits=digits, maxprec=MAXPREC, what="Theorem 4.1 delta")


@implements("Vadhan-Wang Theorem 4.1", "Vadhan-Wang Theorem 1.4")
def vw_delta(mechanisms: object, order: Optional[Sequence[int]] = None, *, digits: int = 30) -> Enclosure:
    """Vadhan-Wang Theorem 4.1's delta for one order of the mechanisms:
    ``sum_i (prod_{j<i} e^{eps_order(j)}) delta_order(i)``, at ``eps_g = sum eps_i``.

    Guarantee: exact when every ``e^eps_i`` is rational (or every delta is 0); else an
    enclosure of relative width ``10^-digits``.

    Parameters:
        mechanisms: (eps_i, delta_i) mechanisms (a list or an :class:`exactdp.Composition`).
        order: a permutation of ``0..k-1`` (default: the given order).
        digits: significant digits of an enclosure.

    Raises:
        InvalidArgument: bad mechanisms or order.
        CostTooHigh: more than :data:`MAX_VW_MECHANISMS` mechanisms.

    Examples:
        >>> from exactdp import Mechanism
        >>> ms = [Mechanism(exp_eps=2, delta="1/100"), Mechanism(exp_eps=3, delta="1/10")]
        >>> vw_delta(ms), vw_delta(ms, [1, 0])     # 1/100 + 2/10 vs 1/10 + 3/100
        (Enclosure.point(21/100), Enclosure.point(13/100))

    References: Vadhan-Wang Theorem 4.1 (Theorem 1.4 in the given order).
    """
    from ..engines.api import check_digits

    digits = check_digits(digits)
    ms = _mechs(mechanisms)
    return _value(ms, _order(order, len(ms)), digits)


def _exp_terms(w: ExpNum) -> Optional[list[tuple[Fraction, Fraction]]]:
    """``w - 1`` as ``[(coefficient, exponent)]`` (``q e^r - 1``), or None when w is not a RatExp."""
    if isinstance(w, RatExp):
        return [(w.q, w.r), (Fraction(-1), Fraction(0))]
    return None


def _cmp_keys(a: Mechanism, b: Mechanism) -> int:
    """Sign of ``rho_a - rho_b`` with ``rho = delta / (w - 1)``, decided exactly: the sign of
    ``delta_a (w_b - 1) - delta_b (w_a - 1)`` (both ``w - 1 >= 0``; see the module docstring)."""
    wa, wb = a.w, b.w
    if a.delta == 0 and b.delta == 0:
        return 0
    xa, xb = wa.exact(), wb.exact()
    if xa is not None and xb is not None:
        d = a.delta * (xb - 1) - b.delta * (xa - 1)
        return (d > 0) - (d < 0)
    ta, tb = _exp_terms(wa), _exp_terms(wb)
    if ta is not None and tb is not None:
        coef: dict[Fraction, Fraction] = {}
        for c, r in tb:
            coef[r] = coef.get(r, Fraction(0)) + a.delta * c
        for c, r in ta:
            coef[r] = coef.get(r, Fraction(0)) - b.delta * c
        if all(c == 0 for c in coef.values()):
            return 0  # Lindemann-Weierstrass: a vanishing sum of distinct exponentials has zero coefficients
        terms = [(c, r) for r, c in coef.items() if c != 0]

        def val(prec: int) -> arb:
            with workprec(prec):
                s = arb(0)
                for c, r in terms:
                    s += arb_of_fraction(c) * (arb_of_fraction(r).exp() if r else arb(1))
                return s
    else:
        def val(prec: int) -> arb:
            with workprec(prec):
                return arb_of_fraction(a.delta) * (wb.arb(prec) - 1) - arb_of_fraction(b.delta) * (wa.arb(prec) - 1)

    try:
        return decide_sign(val, maxprec=MAXPREC, what="order of two mechanisms")
    except PrecisionError:
        raise PrecisionError("the order key delta/(e^eps - 1) of two mechanisms could not be decided "
                             f"({a!r}, {b!r}) by {MAXPREC} bits") from None


@implements("Vadhan-Wang Theorem 4.1")
def vw_best_order(mechanisms: object) -> list[int]:
    """An order minimising Theorem 4.1's delta: the mechanisms sorted by
    ``delta_i / (e^{eps_i} - 1)``, largest first (ties and neutral mechanisms in their given order).

    Guarantee: exact (the order is optimal among all k! orders; the proof is in
    ``docs/interactive.md``; comparisons are exact decisions).

    Raises:
        InvalidArgument: bad mechanisms. CostTooHigh: more than :data:`MAX_VW_MECHANISMS`.
        PrecisionError: a comparison of irrational keys (a Root or Computable e^eps) undecided.

    Examples:
        >>> from exactdp import Mechanism
        >>> vw_best_order([Mechanism(exp_eps=2, delta="1/100"), Mechanism(exp_eps=3, delta="1/10"),
        ...                Mechanism(exp_eps=1, delta="1/1000")])     # rho = 1/100, 1/20, inf
        [2, 1, 0]
    """
    ms = _mechs(mechanisms)
    positions: dict[Mechanism, list[int]] = {}
    for i, m in enumerate(ms):
        positions.setdefault(m, []).append(i)
    distinct = list(positions)
    neutral = [m for m in distinct if m.delta == 0 and m.w.is_one()]
    rest = [m for m in distinct if not (m.delta == 0 and m.w.is_one())]

    def cmp(a: Mechanism, b: Mechanism) -> int:
        c = _cmp_keys(a, b)
        if c:
            return -c  # larger key first
        return positions[a][0] - positions[b][0]

    rest.sort(key=cmp_to_key(cmp))
    out: list[int] = []
    for m in rest + neutral:
        out.extend(positions[m])
    return out


@implements("Vadhan-Zhang Theorem 1.3", "Murtagh-Vadhan Theorem 1.5")
def optimal_delta_at_sum(mechanisms: object) -> Fraction:
    """The least delta_g of every concurrent composition of (eps_i, delta_i)-DP interactive
    mechanisms at ``eps_g = sum eps_i``: ``1 - prod (1 - delta_i)`` (module docstring).

    Guarantee: exact.

    Raises:
        InvalidArgument: bad mechanisms.

    Examples:
        >>> from exactdp import Mechanism
        >>> optimal_delta_at_sum([Mechanism(exp_eps=2, delta="1/100"), Mechanism(exp_eps=3, delta="1/10")])
        Fraction(109, 1000)
    """
    return 1 - as_composition(mechanisms).delta_product


@dataclass(frozen=True, kw_only=True)
class VWBound:
    """Theorem 4.1's delta in the given order and in the best order (``order``), the optimal
    delta at the same ``eps_g`` and ``eps_g`` itself. Enclosures throughout (exact when possible)."""

    eps_g: Enclosure
    exp_eps_g: Optional[Fraction]
    given_order: Enclosure
    best_order: Enclosure
    order: list[int]
    optimal: Fraction
    k: int

    def to_dict(self, digits: int = 30) -> dict:
        """The ``exactdp concurrent --json`` object: delta values as exact rational strings, or
        ``{"lower", "upper"}`` enclosures. Guarantee: exact / enclosure (outward). Raises: nothing."""

        def dv(e: Enclosure):
            if e.exact is not None:
                return fraction_str(e.exact)
            lo, hi = e.decimal(digits)
            return {"lower": lo, "upper": hi}

        if self.eps_g.exact is not None:
            eps: object = fraction_str(self.eps_g.exact)
        else:
            lo, hi = self.eps_g.decimal(digits)
            eps = {"exact": f"log({fraction_str(self.exp_eps_g)})" if self.exp_eps_g is not None else None,
                   "lower": lo, "upper": hi}
        return {
            "eps_g": eps,
            "vw_bound": {"given_order": dv(self.given_order), "best_order": dv(self.best_order), "order": self.order},
            "optimal": fraction_str(self.optimal),
            "k": self.k,
            "digits": digits,
        }


def _eps_sum(ms: list[Mechanism], digits: int) -> tuple[Enclosure, Optional[Fraction]]:
    if all(isinstance(m.w, RatExp) for m in ms):
        q, r = Fraction(1), Fraction(0)
        for m in ms:
            q *= m.w.q  # type: ignore[attr-defined]
            r += m.w.r  # type: ignore[attr-defined]
        if q == 1:
            return Enclosure.point(r), None
        lq = Enclosure.log_of_rational(q, digits + 2)
        return lq + r, (q if r == 0 else None)

    def step(prec: int) -> Optional[Enclosure]:
        with workprec(prec):
            s = arb(0)
            for m in ms:
                s += m.w.arb(prec).log()
            if not s.is_finite():
                return None
            lo, hi = arb_bounds(s)
        e = Enclosure(lo, hi)
        return e if e.accurate(digits, floor=Fraction(1, 10 ** (2 * digits))) else None

    return refine(step, digits=digits, what="eps_g"), None


def vw_bound(mechanisms: object, *, digits: int = 30) -> VWBound:
    """Theorem 4.1 in the given order and in the best order, with the optimal delta at the same
    ``eps_g = sum eps_i`` (Vadhan-Zhang Theorem 1.3): the data of ``exactdp concurrent``.

    Guarantee: as :func:`vw_delta` (exact or enclosure), optimal exact.

    Raises:
        InvalidArgument, CostTooHigh, PrecisionError: as :func:`vw_delta` and :func:`vw_best_order`.

    Examples:
        >>> from exactdp import mechanisms
        >>> b = vw_bound(mechanisms(exp_eps=[2, 3], delta=["1/100", "1/10"]))
        >>> b.order, b.given_order.exact, b.best_order.exact, b.optimal
        ([1, 0], Fraction(21, 100), Fraction(13, 100), Fraction(109, 1000))
    """
    from ..engines.api import check_digits

    digits = check_digits(digits)
    ms = _mechs(mechanisms)
    order = vw_best_order(ms)
    eps, t = _eps_sum(ms, digits)
    return VWBound(eps_g=eps, exp_eps_g=t, given_order=_value(ms, list(range(len(ms))), digits), best_order=_value(ms, order, digits), order=order,
                   optimal=optimal_delta_at_sum(ms), k=len(ms))
