"""Murtagh-Vadhan Lemma 5.3: shifting every eps_i by c costs at most kc (at a scaled delta).

Lemma 5.3: ``OptComp((eps_1 + c, delta_1), ..., (eps_k + c, delta_k), delta_g)
<= OptComp(eps, e^{-kc/2} delta_g) + kc``. The irrational ``e^{-kc/2} delta_g`` is
handled by rational brackets (OptComp decreases in delta_g): rigorous enclosures.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Optional

from .._backend import workprec
from ..engines.api import check_digits, optcomp
from ..engines.inverse import Target
from ..errors import InvalidArgument, PrecisionError
from ..events import Composition, as_composition
from ..links import implements
from ..numbers import (
    Enclosure,
    ExpNum,
    RatExp,
    Root,
    arb_bounds,
    arb_of_fraction,
    parse_delta,
    parse_eps,
    parse_rational,
    refine,
)

__all__ = ["lemma53_bound", "scaled_delta_optcomp"]


def scaled_delta_optcomp(comp: Composition, delta_g: Fraction, scale: ExpNum, digits: int) -> Enclosure:
    """OptComp(ms, scale * delta_g) for an irrational scale in (0, 1], by rational brackets.

    ``d_lo <= scale * delta_g <= d_hi`` gives OptComp(d_hi) <= . <= OptComp(d_lo)
    (OptComp decreases in delta); brackets tighten until the enclosure reaches
    ``digits`` or stops improving.
    """
    ms = comp
    P = comp.delta_product
    if all(m.w.is_one() for m, _ in comp.groups()):  # every eps_i = 0: S(t) = 0 for t >= 1
        return Enclosure.infinity() if Target(P, delta_g, scale).sign() < 0 else Enclosure.point(0)
    sx = scale.exact()
    if sx is not None:
        return optcomp(ms, sx * delta_g, engine="auto", digits=digits).value
    tau = Target(P, delta_g, scale)
    if tau.sign() < 0:
        return Enclosure.infinity()
    best: Optional[Enclosure] = None

    def step(p: int) -> Optional[Enclosure]:
        nonlocal best
        with workprec(p):
            lo, hi = arb_bounds(scale.arb(p) * arb_of_fraction(delta_g))
        lo = max(lo, Fraction(0))
        hi = min(hi, delta_g)  # the scale is <= 1
        if lo < 1 - P:  # the bracket still crosses the threshold of finiteness
            return None
        r_hi = optcomp(ms, hi, engine="auto", digits=digits + 2)  # smaller eps
        r_lo = optcomp(ms, lo, engine="auto", digits=digits + 2)  # larger eps
        best = Enclosure(r_hi.lower, r_lo.upper)
        return best if best.accurate(digits, floor=Fraction(1, 10 ** (2 * digits))) else None

    try:
        return refine(step, digits=digits, extra=16, what="OptComp at a scaled delta_g")
    except PrecisionError:
        # the brackets stopped improving: the best enclosure is still rigorous
        if best is None:
            raise PrecisionError("scaled delta_g bracket did not separate from 1 - prod(1 - delta_i)") from None
        return best


@implements("Murtagh-Vadhan Lemma 5.3")
def lemma53_bound(mechanisms, c: object = None, delta_g: object = 0, *, exp_c: object = None, digits: int = 20) -> Enclosure:
    """Lemma 5.3's bound ``OptComp(eps, e^{-kc/2} delta_g) + kc`` (an enclosure of it).

    Lemma 5.3: ``OptComp((eps_1 + c, delta_1), ..., (eps_k + c, delta_k), delta_g)``
    is at most this value, for all ``eps_i, c >= 0``. ``c`` is a rational shift;
    or give ``exp_c = e^c`` (a rational >= 1, the shift in exp-space). The
    irrational ``e^{-kc/2} delta_g`` is handled by rational brackets (OptComp is
    decreasing in delta_g), so the enclosure is rigorous.

    Guarantee: enclosure of the bound (an :class:`~exactdp.numbers.Enclosure`;
    ``lo, hi = lemma53_bound(...)`` unpacks it; ``upper`` is therefore an upper bound
    on OptComp of the shifted mechanisms); infinite when
    ``e^{-kc/2} delta_g < 1 - prod(1 - delta_i)``.

    Raises:
        InvalidArgument: bad mechanisms, ``c < 0``, ``exp_c < 1``, not exactly
            one of c / exp_c, bad delta_g.

    Examples:
        >>> from exactdp import mechanisms, optcomp
        >>> lo, hi = lemma53_bound(mechanisms(exp_eps=[2, 3]), delta_g="1/10", exp_c=4)  # e^{-kc/2} = 1/4 exactly
        >>> round(float(hi), 6)   # OptComp((2, 3), 1/40) + ln 16
        4.513055
        >>> optcomp(mechanisms(exp_eps=[8, 12]), "1/10").upper <= hi   # the shifted mechanisms
        True

    References:
        Murtagh-Vadhan Lemma 5.3.
    """
    ms = as_composition(mechanisms)
    digits = check_digits(digits)
    dg = parse_delta(delta_g, "delta_g")
    k = ms.k
    if (c is None) == (exp_c is None):
        raise InvalidArgument("c / exp_c", "given, exactly one of the two", None)
    if c is not None:
        cc = parse_eps(c, "c")
        scale: ExpNum = RatExp.from_eps(-k * cc / 2)
        add = Enclosure.point(k * cc)
    else:
        s = parse_rational(exp_c, "exp_c", expected="a rational number >= 1")
        if s < 1:
            raise InvalidArgument("exp_c", "a rational number >= 1", exp_c)
        scale = Root(1 / s**k, 2)
        add = Enclosure.log_of_rational(s**k, digits + 4)
    e = scaled_delta_optcomp(ms, dg, scale, digits)
    return e if e.infinite else e + add


