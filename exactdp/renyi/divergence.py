"""Rényi divergence of finite distributions, exact where it is a rational power, certified otherwise.

``D_alpha(P || Q) = ln(E) / (alpha - 1)`` with ``E = sum_y P(y)^alpha Q(y)^(1 - alpha)``
(Vadhan-Zhang Definition 5.2), for a rational order ``alpha > 1``. ``E`` is rational when
every term is (always for an integer alpha; for ``alpha = n/d`` when ``P/Q`` is a perfect
d-th power): then the result carries ``exp_exact = E`` and an enclosure of ``ln(E)/(alpha-1)``.
Otherwise ``E`` is enclosed by Arb ball arithmetic at rising precision. ``P(y) > 0 = Q(y)``
makes the divergence infinite.

* :func:`renyi_divergence` finite distributions;
* :func:`rdp_randomized_response` RR_eps and its k-fold composition:
  ``E = ((w^alpha + w^(1-alpha)) / (1 + w))^k`` with ``w = e^eps``;
* :func:`rdp_composition` a composition of (eps_i, delta_i) mechanisms, each as its
  dominating randomized response (any (eps, 0)-DP pair is a post-processing of RR_eps;
  ``delta_i > 0`` gives an infinite divergence through RR_(eps, delta)'s ``Iam0`` answer);
  additive by Lemma 5.4;
* :func:`renyi_chain` Lemma 5.3's identity, the divergence of ``(U, V)`` from that of ``U``
  and the conditional divergences.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Optional, Sequence

from .._backend import arb, workprec
from ..engines.results import EnclosedResult
from ..errors import InvalidArgument
from ..links import implements
from ..numbers import MAXPREC, Enclosure, ExpNum, Guarantee, fraction_str, parse_rational, refine
from ..numbers.fmt import arb_bounds, arb_of_fraction

__all__ = [
    "RenyiResult",
    "parse_alpha",
    "rational_power",
    "renyi_divergence",
    "rdp_randomized_response",
    "rdp_composition",
    "renyi_chain",
    "result_from",
]


def parse_alpha(alpha: object, name: str = "alpha") -> Fraction:
    """The order: a rational > 1. Guarantee: exact. Raises: InvalidArgument."""
    a = parse_rational(alpha, name, expected="a rational number > 1")
    if a <= 1:
        raise InvalidArgument(name, "a rational number > 1", alpha)
    if a.denominator > 10**6 or a.numerator > 10**6:
        raise InvalidArgument(name, "a rational number > 1 with numerator and denominator at most 10^6", alpha)
    return a


def _iroot(n: int, d: int) -> Optional[int]:
    from .._backend import iroot

    r, exact = iroot(n, d)
    return int(r) if exact else None


def rational_power(x: Fraction, a: Fraction) -> Optional[Fraction]:
    """``x^a`` as a Fraction when it is rational (x > 0), else None.

    Guarantee: exact. Raises: nothing.

    Examples:
        >>> rational_power(Fraction(4, 9), Fraction(3, 2)), rational_power(Fraction(2), Fraction(1, 2))
        (Fraction(8, 27), None)
    """
    if x == 1 or a.denominator == 1:
        return x ** a.numerator if a.denominator == 1 else Fraction(1)
    n, d = _iroot(x.numerator, a.denominator), _iroot(x.denominator, a.denominator)
    if n is None or d is None:
        return None
    return Fraction(n, d) ** a.numerator




@dataclass(frozen=True, kw_only=True, repr=False)
class RenyiResult(EnclosedResult):
    """``D_alpha``: ``value`` encloses it (``inf`` when infinite); ``exp_exact`` is
    ``E = e^{(alpha - 1) D}`` as a Fraction when rational (then the value is ``ln(E)/(alpha - 1)``)."""

    value: Enclosure
    exp_exact: Optional[Fraction]
    alpha: Fraction
    guarantee: Guarantee

    def __post_init__(self) -> None:
        object.__setattr__(self, "guarantee", Guarantee(self.guarantee))  # a checked tier

    def to_dict(self, digits: int = 30) -> dict:
        """``{"exact", "lower", "upper", "exp_exact", "alpha"}`` (``exact``: ``"log(E)/(alpha-1)"``
        when E is rational). Guarantee: as ``guarantee``. Raises: nothing."""
        d = self.value.to_dict(digits)
        if self.exp_exact is not None and self.exp_exact != 1 and not self.infinite:
            d["exact"] = f"log({fraction_str(self.exp_exact)})/{fraction_str(self.alpha - 1)}"
        d["exp_exact"] = None if self.exp_exact is None else fraction_str(self.exp_exact)
        d["alpha"] = fraction_str(self.alpha)
        return d


def result_from(alpha: Fraction, digits: int, *, exact: Optional[Fraction] = None,
                ball: Optional[Callable[[int], arb]] = None, infinite: bool = False) -> RenyiResult:
    """A :class:`RenyiResult` from an exact ``E``, or from ``ball(prec)`` enclosing ``E`` (refined
    to ``digits``), or infinite. Guarantee: exact / enclosure. Raises: PrecisionError."""
    if infinite:
        return RenyiResult(value=Enclosure.infinity(), exp_exact=None, alpha=alpha, guarantee=Guarantee.EXACT)
    if exact is not None:
        if exact == 1:
            return RenyiResult(value=Enclosure.point(0), exp_exact=exact, alpha=alpha, guarantee=Guarantee.EXACT)
        e = Enclosure.log_of_rational(exact, digits + 1)
        return RenyiResult(value=Enclosure(e.lower / (alpha - 1), e.upper / (alpha - 1)), exp_exact=exact, alpha=alpha, guarantee=Guarantee.EXACT)
    assert ball is not None
    am1 = alpha - 1

    def step(prec: int) -> Optional[Enclosure]:
        with workprec(prec):
            v = ball(prec)
            if not v.is_finite() or not v > 0:
                return None
            lv = v.log() / arb_of_fraction(am1)
            if not lv.is_finite():
                return None
            lo, hi = arb_bounds(lv)
        enc = Enclosure(max(lo, Fraction(0)) if hi >= 0 else lo, hi)
        return enc if enc.accurate(digits, floor=Fraction(1, 10 ** (2 * digits))) else None

    return RenyiResult(value=refine(step, digits=digits, maxprec=MAXPREC, what="Renyi divergence"),
                       exp_exact=None, alpha=alpha, guarantee=Guarantee.ENCLOSURE)


@implements("Vadhan-Zhang Definition 5.2", "Vadhan-Zhang Definition 2.3")
def renyi_divergence(P: Sequence[object], Q: Sequence[object], alpha: object, *, digits: int = 30) -> RenyiResult:
    """``D_alpha(P || Q)`` of two finite distributions (module docstring).

    Guarantee: exact (``exp_exact``) when every term ``P^alpha Q^(1-alpha)`` is rational, else an
    enclosure of ``digits`` significant digits.

    Raises:
        InvalidArgument: not distributions on the same outcomes, alpha not a rational > 1.

    Examples:
        >>> renyi_divergence(["3/4", "1/4"], ["1/4", "3/4"], 2).exp_exact      # (9/4 + 1/12) ... = 7/3
        Fraction(7, 3)
        >>> renyi_divergence(["1/2", "1/2"], ["1/3", "2/3"], "3/2").value.text(8)
        '[0.088770740, 0.088770741]'
    """
    from ..engines.api import check_digits
    from ..fdp import distribution_pair

    a = parse_alpha(alpha)
    digits = check_digits(digits)
    atoms = [(p, q) for p, q in distribution_pair(P, Q) if p > 0]
    if any(q == 0 for _, q in atoms):
        return result_from(a, digits, infinite=True)
    terms = [(p, q, rational_power(p / q, a)) for p, q in atoms]
    if all(r is not None for _, _, r in terms):
        return result_from(a, digits, exact=sum((r * q for p, q, r in terms), Fraction(0)))  # type: ignore[operator]

    def ball(prec: int) -> arb:
        with workprec(prec):
            s = arb(0)
            for p, q, _ in terms:
                s += arb_of_fraction(p / q) ** arb_of_fraction(a) * arb_of_fraction(q)
            return s

    return result_from(a, digits, ball=ball)


@implements("Vadhan-Zhang Lemma 5.4")
def rdp_randomized_response(alpha: object, *, exp_eps: object = None, eps: object = None, k: int = 1,
                            digits: int = 30) -> RenyiResult:
    """``D_alpha`` of the k-fold composition of RR_eps (both orders of the pair give the same value):
    ``k ln((w^alpha + w^(1-alpha)) / (1 + w)) / (alpha - 1)``, ``w = e^eps`` (Lemma 5.4: additive).

    Guarantee: exact (``exp_exact``) when ``w`` is rational and the powers are; else an enclosure.

    Raises:
        InvalidArgument: not exactly one of eps / exp_eps, bad numbers, k < 1.

    Examples:
        >>> rdp_randomized_response(2, exp_eps=3).exp_exact          # (9 + 1/3) / 4
        Fraction(7, 3)
        >>> rdp_randomized_response(2, exp_eps=3, k=10).exp_exact == Fraction(7, 3) ** 10
        True
    """
    from ..engines.api import check_digits, eps_g_number
    from ..numbers import parse_int

    a = parse_alpha(alpha)
    digits = check_digits(digits)
    k = parse_int(k, "k", lo=1, hi=10**9)
    w = eps_g_number(eps, exp_eps) if (eps is None) != (exp_eps is None) else None
    if w is None:
        raise InvalidArgument("eps / exp_eps", "given, exactly one of the two", None)
    return _rr(w, a, k, digits)


def _rr(w: ExpNum, a: Fraction, k: int, digits: int) -> RenyiResult:
    x = w.exact()
    if x is not None:
        if x == 1:
            return result_from(a, digits, exact=Fraction(1))
        pa, pb = rational_power(x, a), rational_power(x, 1 - a)
        if pa is not None and pb is not None and k * max(x.numerator.bit_length(), x.denominator.bit_length()) * a < 4e6:
            return result_from(a, digits, exact=((pa + pb) / (1 + x)) ** k)

    def ball(prec: int) -> arb:
        with workprec(prec):
            ww = w.arb(prec)
            e = (ww ** arb_of_fraction(a) + ww ** arb_of_fraction(1 - a)) / (1 + ww)
            return e ** k

    return result_from(a, digits, ball=ball)


def rdp_composition(mechanisms: object, alpha: object, *, digits: int = 30) -> RenyiResult:
    """The tight Rényi-DP bound of a composition of (eps_i, delta_i)-DP mechanisms: the sum of the
    RDP of RR_{eps_i} (infinite when some delta_i > 0), Lemma 5.4.

    Guarantee: exact when every ``e^eps_i`` (and power) is rational, else an enclosure.

    Raises:
        InvalidArgument: bad mechanisms or alpha.

    Examples:
        >>> from exactdp import mechanisms
        >>> rdp_composition(mechanisms(exp_eps=[3, 3]), 2).exp_exact
        Fraction(49, 9)
    """
    from ..engines.api import check_digits
    from ..events import as_composition

    a = parse_alpha(alpha)
    digits = check_digits(digits)
    groups = as_composition(mechanisms).groups()
    if any(m.delta > 0 for m, _ in groups):
        return result_from(a, digits, infinite=True)
    parts = [(_rr(m.w, a, n, digits + 2), m, n) for m, n in groups]
    if all(r.exp_exact is not None for r, _, _ in parts):
        e = Fraction(1)
        for r, _, _ in parts:
            e *= r.exp_exact  # type: ignore[operator]
        return result_from(a, digits, exact=e)

    def ball(prec: int) -> arb:
        with workprec(prec):
            s = arb(1)
            for _, m, n in parts:
                ww = m.w.arb(prec)
                s *= ((ww ** arb_of_fraction(a) + ww ** arb_of_fraction(1 - a)) / (1 + ww)) ** n
            return s

    return result_from(a, digits, ball=ball)


@implements("Vadhan-Zhang Lemma 5.3")
def renyi_chain(PU: Sequence[object], QU: Sequence[object], conditional: Sequence[Optional[Fraction]],
                alpha: object, *, digits: int = 30) -> RenyiResult:
    """``D_alpha((U, V) || (U', V'))`` from the laws of ``U``, ``U'`` and the conditional divergences,
    given as ``E_u = e^{(alpha - 1) D_alpha(V|U=u || V'|U'=u)}`` (None: infinite; unused where
    ``P(u) = 0``): ``E = sum_u P(u)^alpha Q(u)^(1 - alpha) E_u`` (Lemma 5.3's proof; increasing in
    each ``E_u``, which is Lemma 5.3).

    Guarantee: exact when every term is rational, else an enclosure.

    Raises:
        InvalidArgument: bad distributions or lengths.

    Examples:
        >>> renyi_chain(["1/2", "1/2"], ["1/2", "1/2"], [Fraction(7, 3), Fraction(1)], 2).exp_exact
        Fraction(5, 3)
    """
    from ..engines.api import check_digits
    from ..fdp import distribution_pair

    a = parse_alpha(alpha)
    digits = check_digits(digits)
    atoms = distribution_pair(PU, QU)
    if len(conditional) != len(atoms):
        raise InvalidArgument("conditional", f"one value per outcome ({len(atoms)})", len(conditional))
    terms = []
    for (p, q), e in zip(atoms, conditional):
        if p == 0:
            continue
        if q == 0 or e is None:
            return result_from(a, digits, infinite=True)
        terms.append((p, q, Fraction(e), rational_power(p / q, a)))
    if all(r is not None for *_, r in terms):
        return result_from(a, digits, exact=sum((r * q * e for p, q, e, r in terms), Fraction(0)))  # type: ignore[operator]

    def ball(prec: int) -> arb:
        with workprec(prec):
            s = arb(0)
            for p, q, e, _ in terms:
                s += arb_of_fraction(p / q) ** arb_of_fraction(a) * arb_of_fraction(q) * arb_of_fraction(e)
            return s

    return result_from(a, digits, ball=ball)
