"""Composition bounds beside the exact optimum: each a certified upper bound on OptComp.

For ``(eps_i, delta_i)``-DP mechanisms and a target ``delta_g``, each bound gives an
``eps_g`` such that the composition is ``(eps_g, delta_g)``-DP:

=========== ==================================================================== ============================
name        formula (hypotheses)                                                 statement
=========== ==================================================================== ============================
basic       ``sum eps_i``  (``delta_g >= sum delta_i``)                           Murtagh-Vadhan Thm 1.2; KOV Thm 3.1
advanced    ``sqrt(2k ln(1/delta')) eps + k eps (e^eps - 1)``,                   Murtagh-Vadhan Thm 1.3 (Dwork-
            ``delta' = delta_g - k delta > 0`` (homogeneous)                      Rothblum-Vadhan)
kov_3_4     ``min{k eps, a + eps sqrt(2k log(e + sqrt(k eps^2)/dt)),              Kairouz-Oh-Viswanath Thm 3.4
            a + eps sqrt(2k log(1/dt))}``, ``a = k eps (e^eps - 1)/(e^eps + 1)``,
            ``dt = 1 - (1 - delta_g)/(1 - delta)^k`` in (0, 1] (homogeneous)
kov_3_5     the same with ``sum`` over mechanisms (``k eps^2 -> sum eps_l^2``),     Kairouz-Oh-Viswanath Thm 3.5
            ``dt = 1 - (1 - delta_g)/prod (1 - delta_l)`` in (0, 1]
optimal     OptComp(delta_g), exact or certified                                  Murtagh-Vadhan Thm 1.5
=========== ==================================================================== ============================

Each analytic bound is evaluated in Arb ball arithmetic at rising precision: its
``value`` is an enclosure of the formula's exact value, so ``value.upper`` is a
certified upper bound on OptComp (the theorem's guarantee, made rigorous) and
``value.lower`` shows how tight the enclosure is. A bound whose hypotheses fail
says why instead of giving a value. The tests check, on random and extreme
instances, that no bound is ever below the exact optimum.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Optional

from .._backend import arb, workprec
from ..engines import EpsResult, optcomp
from ..events import Composition, as_composition
from ..links import implements
from ..numbers import (
    MAXPREC,
    Enclosure,
    Guarantee,
    RatExp,
    arb_bounds,
    arb_of_fraction,
    fraction_to_decimal,
    parse_delta,
    refine,
)

__all__ = ["Bound", "BoundsResult", "composition_bounds", "basic_bound", "advanced_bound", "kov34_bound", "kov35_bound",
           "BOUND_NAMES"]

#: The bounds in the order they are reported.
BOUND_NAMES = ("basic", "advanced", "kov_3_4", "kov_3_5", "optimal")


@dataclass(frozen=True, kw_only=True)
class Bound:
    """One bound on ``eps_g`` at ``delta_g``.

    ``value`` encloses the bound's formula (None when it does not apply; ``reason``
    then says why); ``statement`` names the published statement; ``guarantee`` the tier
    (:class:`~exactdp.numbers.Guarantee`), ``meaning`` what it says here (the JSON
    ``"guarantee"`` shows it when given).
    """

    name: str
    statement: str
    value: Optional[Enclosure]
    guarantee: Guarantee
    meaning: str = ""
    reason: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "guarantee", Guarantee(self.guarantee))  # a checked tier

    @property
    def applies(self) -> bool:
        return self.value is not None

    def to_dict(self, digits: int = 30) -> dict:
        """``{"applies": true, "eps_g": {"lower", "upper"}, "statement", "guarantee"}`` (and ``"eps_g_exact"``
        when the value is a known rational) or ``{"applies": false, "reason", "statement"}``.
        Guarantee: enclosure (decimals rounded outward). Raises: nothing."""
        if self.value is None:
            return {"applies": False, "reason": self.reason, "statement": self.statement}
        lo, hi = self.value.decimal(digits)
        d = {"applies": True, "eps_g": {"lower": lo, "upper": hi}, "statement": self.statement,
             "guarantee": self.meaning or str(self.guarantee)}
        if self.value.exact is not None:
            d["eps_g_exact"] = str(self.value.exact)
        return d




def _eps_arb(w, prec: int) -> arb:
    """``eps = ln w`` for an exp-space number ``w`` (exact ``r`` for ``w = e^r``)."""
    if isinstance(w, RatExp):
        e = arb_of_fraction(w.r)
        if w.q != 1:
            e = e + arb_of_fraction(w.q).log()
        return e
    return w.arb(prec).log()


def _certify(fn: Callable[[int], object], digits: int, what: str) -> Enclosure:
    """An enclosure of ``fn(prec)`` to ``digits`` digits, at rising precision (``fn`` runs inside
    workprec). ``fn`` returns a ball, or a list of balls whose minimum is wanted (the min of
    enclosures is ``[min of lowers, min of uppers]``, as min is monotone in each argument)."""

    def step(prec: int) -> Optional[Enclosure]:
        with workprec(prec):
            v = fn(prec)
            vs = v if isinstance(v, list) else [v]
            if any(not x.is_finite() for x in vs):
                return None
            ends = [arb_bounds(x) for x in vs]
            e = Enclosure(min(lo for lo, _ in ends), min(hi for _, hi in ends))
        return e if e.accurate(digits, floor=Fraction(1, 10 ** (2 * digits))) else None

    return refine(step, digits=digits, extra=8, maxprec=MAXPREC, what=what)


def _homogeneous(comp: Composition):
    gs = comp.groups()
    return gs[0] if len(gs) == 1 else None


#: the tier and sentence of every bound but the optimal one
_UPPER = {"guarantee": Guarantee.UPPER,
          "meaning": "upper bound on OptComp(delta_g): eps_g = value.upper is certified (value encloses the formula)"}


@implements("Murtagh-Vadhan Theorem 1.2", "Kairouz-Oh-Viswanath Theorem 3.1")
def basic_bound(mechanisms: object, delta_g: object, *, digits: int = 30) -> Bound:
    """Basic composition: ``(sum eps_i, sum delta_i)``-DP, so ``eps_g = sum eps_i`` when ``delta_g >= sum delta_i``.

    Guarantee: upper bound (exact when every eps_i is rational, else an enclosure of ``sum ln w_i``).
    Raises: InvalidArgument for bad input.

    Examples:
        >>> from exactdp import mechanisms
        >>> basic_bound(mechanisms(eps="0.1", delta="1e-3", k=30), "0.05").value
        Enclosure.point(3)
        >>> basic_bound(mechanisms(eps="0.1", delta="1e-3", k=30), "0.01").reason
        'delta_g = 1/100 is below sum delta_i = 3/100'

    References:
        Murtagh-Vadhan Theorem 1.2; Kairouz-Oh-Viswanath Theorem 3.1.
    """
    comp = as_composition(mechanisms)
    dg = parse_delta(delta_g, "delta_g")
    st = "Murtagh-Vadhan Theorem 1.2 (basic composition; KOV Theorem 3.1)"
    sd = sum((m.delta * n for m, n in comp.groups()), Fraction(0))
    if dg < sd:
        return Bound(name="basic", statement=st, value=None, **_UPPER, reason=f"delta_g = {dg} is below sum delta_i = {sd}")
    eps = [m.eps for m, _ in comp.groups()]
    if all(e is not None for e in eps):
        return Bound(name="basic", statement=st, value=Enclosure.point(sum(e * n for e, (_, n) in zip(eps, comp.groups()))), **_UPPER)
    val = _certify(lambda p: sum((n * _eps_arb(m.w, p) for m, n in comp.groups()), arb(0)), digits, "basic bound")
    return Bound(name="basic", statement=st, value=val, **_UPPER)


@implements("Murtagh-Vadhan Theorem 1.3", "Kairouz-Oh-Viswanath Theorem 3.2")
def advanced_bound(mechanisms: object, delta_g: object, *, digits: int = 30) -> Bound:
    """Advanced composition (Dwork-Rothblum-Vadhan, in Murtagh-Vadhan Theorem 1.3's explicit form):
    k (eps, delta)-DP mechanisms are ``(sqrt(2k ln(1/delta')) eps + k eps (e^eps - 1), k delta + delta')``-DP
    for every ``delta' > 0``; here ``delta' = delta_g - k delta``.

    Hypotheses: equal mechanisms, ``delta' in (0, 1)``. (The theorem asks ``eps > 0``, ``delta > 0``; the
    formula holds for ``delta = 0`` as a limit and gives 0 for ``eps = 0``.)

    Guarantee: upper bound (certified enclosure of the formula). Raises: InvalidArgument for bad input.

    References:
        Murtagh-Vadhan Theorem 1.3 (Dwork-Rothblum-Vadhan, FOCS 2010); Kairouz-Oh-Viswanath Theorem 3.2.
    """
    comp = as_composition(mechanisms)
    dg = parse_delta(delta_g, "delta_g")
    st = "Murtagh-Vadhan Theorem 1.3 (advanced composition, Dwork-Rothblum-Vadhan)"
    h = _homogeneous(comp)
    if h is None:
        return Bound(name="advanced", statement=st, value=None, **_UPPER, reason="the theorem is for k equal mechanisms (this composition is heterogeneous)")
    m, k = h
    dp = dg - k * m.delta
    if dp <= 0:
        return Bound(name="advanced", statement=st, value=None, **_UPPER, reason=f"delta' = delta_g - k delta = {dp} is not > 0")
    if m.w.is_one():
        return Bound(name="advanced", statement=st, value=Enclosure.point(0), **_UPPER)

    def fn(p: int) -> arb:
        e = _eps_arb(m.w, p)
        return (2 * k * (1 / arb_of_fraction(dp)).log()).sqrt() * e + k * e * (e.exp() - 1)

    return Bound(name="advanced", statement=st, value=_certify(fn, digits, "advanced composition bound"), **_UPPER)


def _kov_value(a: arb, s2: arb, ksum: arb, dt: Fraction) -> list:
    """The three terms of ``min{sum eps, a + sqrt(2 s2 log(e + sqrt(s2)/dt)), a + sqrt(2 s2 log(1/dt))}``."""
    t2 = a + (2 * s2 * (arb.const_e() + s2.sqrt() / arb_of_fraction(dt)).log()).sqrt()
    t3 = a + (2 * s2 * (1 / arb_of_fraction(dt)).log()).sqrt()
    return [ksum, t2, t3]


def _dt(dg: Fraction, P: Fraction) -> Fraction:
    return 1 - (1 - dg) / P


@implements("Kairouz-Oh-Viswanath Theorem 3.4")
def kov34_bound(mechanisms: object, delta_g: object, *, digits: int = 30) -> Bound:
    """Kairouz-Oh-Viswanath Theorem 3.4 (homogeneous): for ``delta_tilde in (0, 1]`` the composition is
    ``(eps_tilde, 1 - (1 - delta)^k (1 - delta_tilde))``-DP with ``eps_tilde = min{k eps,
    k eps (e^eps - 1)/(e^eps + 1) + eps sqrt(2k log(e + sqrt(k eps^2)/delta_tilde)),
    k eps (e^eps - 1)/(e^eps + 1) + eps sqrt(2k log(1/delta_tilde))}``; here ``delta_tilde`` is
    solved from ``delta_g``.

    Guarantee: upper bound (certified enclosure of the formula). Raises: InvalidArgument for bad input.

    Examples:
        >>> from exactdp import mechanisms
        >>> kov34_bound(mechanisms(eps="0.1", delta="1e-3", k=30), "0.05").value.decimal(6)   # the second term
        ('1.56932', '1.56933')

    References:
        Kairouz-Oh-Viswanath Theorem 3.4.
    """
    comp = as_composition(mechanisms)
    dg = parse_delta(delta_g, "delta_g")
    st = "Kairouz-Oh-Viswanath Theorem 3.4"
    h = _homogeneous(comp)
    if h is None:
        return Bound(name="kov_3_4", statement=st, value=None, **_UPPER, reason="the theorem is for k equal mechanisms (Theorem 3.5 covers this one)")
    m, k = h
    dt = _dt(dg, (1 - m.delta) ** k)
    if not 0 < dt <= 1:
        return Bound(name="kov_3_4", statement=st, value=None, **_UPPER,
                     reason=f"delta_tilde = 1 - (1 - delta_g)/(1 - delta)^k = {fraction_to_decimal(dt, 6, 'down')} is not in (0, 1]")
    if m.w.is_one():
        return Bound(name="kov_3_4", statement=st, value=Enclosure.point(0), **_UPPER)

    def fn(p: int) -> list:
        e = _eps_arb(m.w, p)
        we = e.exp()
        return _kov_value(k * e * (we - 1) / (we + 1), k * e * e, k * e, dt)

    return Bound(name="kov_3_4", statement=st, value=_certify(fn, digits, "KOV Theorem 3.4 bound"), **_UPPER)


@implements("Kairouz-Oh-Viswanath Theorem 3.5")
def kov35_bound(mechanisms: object, delta_g: object, *, digits: int = 30) -> Bound:
    """Kairouz-Oh-Viswanath Theorem 3.5 (heterogeneous): for ``delta_tilde in (0, 1]`` the composition is
    ``(eps_tilde, 1 - (1 - delta_tilde) prod (1 - delta_l))``-DP with ``eps_tilde = min{sum eps_l,
    sum (e^eps_l - 1) eps_l/(e^eps_l + 1) + sqrt(2 sum eps_l^2 log(e + sqrt(sum eps_l^2)/delta_tilde)),
    sum (e^eps_l - 1) eps_l/(e^eps_l + 1) + sqrt(2 sum eps_l^2 log(1/delta_tilde))}``.

    Guarantee: upper bound (certified enclosure of the formula). Raises: InvalidArgument for bad input.

    References:
        Kairouz-Oh-Viswanath Theorem 3.5.
    """
    comp = as_composition(mechanisms)
    dg = parse_delta(delta_g, "delta_g")
    st = "Kairouz-Oh-Viswanath Theorem 3.5"
    dt = _dt(dg, comp.delta_product)
    if not 0 < dt <= 1:
        return Bound(name="kov_3_5", statement=st, value=None, **_UPPER,
                     reason=f"delta_tilde = 1 - (1 - delta_g)/prod(1 - delta_l) = {fraction_to_decimal(dt, 6, 'down')} is not in (0, 1]")
    gs = [(m, n) for m, n in comp.groups() if not m.w.is_one()]
    if not gs:
        return Bound(name="kov_3_5", statement=st, value=Enclosure.point(0), **_UPPER)

    def fn(p: int) -> list:
        a = s2 = tot = arb(0)
        for m, n in gs:
            e = _eps_arb(m.w, p)
            we = e.exp()
            a += n * e * (we - 1) / (we + 1)
            s2 += n * e * e
            tot += n * e
        return _kov_value(a, s2, tot, dt)

    return Bound(name="kov_3_5", statement=st, value=_certify(fn, digits, "KOV Theorem 3.5 bound"), **_UPPER)


@dataclass(frozen=True, kw_only=True)
class BoundsResult:
    """Every bound at one ``delta_g``, and the exact optimum (``optimal``, an EpsResult)."""

    delta_g: Fraction
    bounds: dict
    optimal: EpsResult
    k: int

    def excess(self, name: str) -> Optional[Enclosure]:
        """``bound - optimum``: an enclosure (None when the bound does not apply or the optimum is infinite).
        Guarantee: enclosure."""
        b = self.bounds[name].value
        o = self.optimal.value
        if b is None or o.infinite:
            return None
        return Enclosure(b.lower - o.upper, b.upper - o.lower) if b.lower - o.upper <= b.upper - o.lower else None

    def to_dict(self, digits: int = 30) -> dict:
        """The ``exactdp bounds --json`` object. Guarantee: enclosures rounded outward. Raises: nothing."""
        return {"delta_g": str(self.delta_g), "k": self.k, "bounds": {n: b.to_dict(digits) for n, b in self.bounds.items()}}


def composition_bounds(mechanisms: object, delta_g: object, *, digits: int = 30, engine: str = "auto") -> BoundsResult:
    """Every bound of the module table at ``delta_g``, and the exact optimum beside them.

    Guarantee: each analytic bound is a certified upper bound (its formula enclosed to
    ``digits``); ``optimal`` is OptComp, exact or certified (``engine``).

    Raises:
        InvalidArgument: bad mechanisms or delta_g. CostTooHigh: OptComp refused (with the estimate).

    Examples:
        >>> from exactdp import mechanisms
        >>> r = composition_bounds(mechanisms(eps="0.1", delta="1e-3", k=30), "0.05", digits=6)
        >>> {n: b.value.decimal(4)[1] for n, b in r.bounds.items()}
        {'basic': '3', 'advanced': '1.848', 'kov_3_4': '1.570', 'kov_3_5': '1.570', 'optimal': '0.8464'}

    References:
        Murtagh-Vadhan Theorems 1.2, 1.3, 1.5; Kairouz-Oh-Viswanath Theorems 3.1-3.5.
    """
    comp = as_composition(mechanisms)
    dg = parse_delta(delta_g, "delta_g")
    bs = {
        "basic": basic_bound(comp, dg, digits=digits),
        "advanced": advanced_bound(comp, dg, digits=digits),
        "kov_3_4": kov34_bound(comp, dg, digits=digits),
        "kov_3_5": kov35_bound(comp, dg, digits=digits),
    }
    opt = optcomp(comp, dg, digits=digits, engine=engine)
    st = "Murtagh-Vadhan Theorem 1.5 (optimal composition; KOV Theorem 3.3 for equal mechanisms)"
    if opt.infinite:
        bs["optimal"] = Bound(name="optimal", statement=st, value=None, guarantee="exact", reason="no finite eps_g: delta_g < 1 - prod(1 - delta_i)")
    else:
        bs["optimal"] = Bound(name="optimal", statement=st, value=opt.value, guarantee="exact" if opt.guarantee == "exact" else "enclosure")
    return BoundsResult(delta_g=dg, bounds=bs, optimal=opt, k=comp.k)

