"""Mechanisms: immutable values with exact fields (STYLE.md item 6).

A :class:`Mechanism` is an ``(eps, delta)``-DP mechanism. Its privacy loss is
stored in exp-space, ``w = e^eps`` (an :class:`~exactdp.numbers.ExpNum`), so that
``eps = 1/10`` (``w = e^(1/10)``, transcendental) and ``exp_eps = 11/10``
(``w = 11/10``, rational) are both exact descriptions. ``delta`` is an exact
rational in ``[0, 1)``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Iterable, Optional, Sequence

from .errors import CostTooHigh, InvalidArgument
from .numbers import ExpNum, RatExp, parse_rational

__all__ = ["Mechanism", "mechanisms", "parse_eps", "parse_exp_eps", "parse_delta", "validate_mechanisms"]


def parse_eps(value: object, name: str = "eps") -> Fraction:
    """Parse a privacy parameter eps: a finite rational >= 0. Guarantee: exact.

    Raises:
        InvalidArgument: not a finite rational, or negative.
    """
    e = parse_rational(value, name, expected="a finite rational number >= 0")
    if e < 0:
        raise InvalidArgument(name, "a finite rational number >= 0", value)
    return e


def parse_exp_eps(value: object, name: str = "exp_eps") -> Fraction:
    """Parse ``e^eps`` given directly: a finite rational >= 1. Guarantee: exact.

    Raises:
        InvalidArgument: not a finite rational, or below 1 (eps would be negative).
    """
    w = parse_rational(value, name, expected="a finite rational number >= 1")
    if w < 1:
        raise InvalidArgument(name, "a finite rational number >= 1 (it is e^eps, eps >= 0)", value)
    return w


def parse_delta(value: object, name: str = "delta") -> Fraction:
    """Parse a delta: a rational in ``[0, 1)``. Guarantee: exact.

    Raises:
        InvalidArgument: not a rational, or outside ``[0, 1)``.
    """
    d = parse_rational(value, name, expected="a rational number in [0, 1)")
    if not (0 <= d < 1):
        raise InvalidArgument(name, "a rational number in [0, 1)", value)
    return d


class Mechanism:
    """An ``(eps, delta)``-differentially private mechanism, immutable.

    Give exactly one of ``eps`` (a rational eps; ``e^eps`` is then
    transcendental unless eps = 0), ``exp_eps`` (the rational number ``e^eps >= 1``)
    or ``w`` (any :class:`~exactdp.numbers.ExpNum` >= 1, e.g. a D-th root of an
    integer as in Murtagh-Vadhan Definition 4.6).

    Guarantee: exact (fields are stored exactly; floats are converted with
    ``Fraction(x)``).

    Raises:
        InvalidArgument: eps < 0, exp_eps < 1, delta outside [0, 1), malformed
            numbers, or not exactly one of eps / exp_eps / w.

    Examples:
        >>> Mechanism(eps="0.1", delta="1e-6")
        Mechanism(eps=1/10, delta=1/1000000)
        >>> Mechanism(exp_eps="11/10")
        Mechanism(exp_eps=11/10, delta=0)
    """

    __slots__ = ("_w", "_delta")

    def __init__(self, eps: object = None, delta: object = 0, *, exp_eps: object = None, w: Optional[ExpNum] = None):
        given = sum(x is not None for x in (eps, exp_eps, w))
        if given != 1:
            raise InvalidArgument("eps / exp_eps", "given exactly once per mechanism", f"{given} of them")
        if eps is not None:
            ww: ExpNum = RatExp.from_eps(parse_eps(eps))
        elif exp_eps is not None:
            ww = RatExp.from_exp(parse_exp_eps(exp_eps))
        else:
            if not isinstance(w, ExpNum):
                raise InvalidArgument("w", "an exactdp.numbers.ExpNum", w)
            if w.flog() < -1e-12:
                raise InvalidArgument("w", "a real number >= 1 (it is e^eps, eps >= 0)", w)
            ww = w
        object.__setattr__(self, "_w", ww)
        object.__setattr__(self, "_delta", parse_delta(delta))

    def __setattr__(self, name, value):  # immutability
        raise AttributeError("Mechanism is immutable")

    @property
    def w(self) -> ExpNum:
        """``e^eps`` as an exact exp-space number."""
        return self._w

    @property
    def delta(self) -> Fraction:
        return self._delta

    @property
    def eps(self) -> Optional[Fraction]:
        """eps as a Fraction when it is rational (``None`` when only ``e^eps`` is)."""
        le = self._w.log_exact()
        if le is not None:
            return le
        return Fraction(0) if self._w.is_one() else None

    @property
    def exp_eps(self) -> Optional[Fraction]:
        """``e^eps`` as a Fraction when it is rational, else ``None``."""
        return self._w.exact()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mechanism) and self._w == other._w and self._delta == other._delta

    def __hash__(self) -> int:
        return hash((self._w, self._delta))

    def __repr__(self) -> str:
        d = self._delta
        ds = str(d.numerator) if d.denominator == 1 else f"{d.numerator}/{d.denominator}"
        if isinstance(self._w, RatExp) and self._w.q == 1:
            e = self._w.r
            return f"Mechanism(eps={e.numerator if e.denominator == 1 else f'{e.numerator}/{e.denominator}'}, delta={ds})"
        if isinstance(self._w, RatExp) and self._w.r == 0:
            q = self._w.q
            return f"Mechanism(exp_eps={q.numerator if q.denominator == 1 else f'{q.numerator}/{q.denominator}'}, delta={ds})"
        return f"Mechanism(w={self._w!r}, delta={ds})"


#: Largest composition :func:`mechanisms` builds (``len(eps) * k``).
MAX_MECHANISMS = 10_000_000


def mechanisms(
    eps: Optional[Sequence[object]] = None,
    delta: object = 0,
    *,
    exp_eps: Optional[Sequence[object]] = None,
    k: int = 1,
) -> tuple[Mechanism, ...]:
    """Build a composition (a tuple of mechanisms) from parallel lists.

    ``eps`` / ``exp_eps`` is one number or a list; ``delta`` is one value
    or a list as long as the eps list (a single value on either side is
    broadcast to the other's length); the whole list is repeated
    ``k`` times (``k`` copies of a homogeneous mechanism:
    ``mechanisms(eps="0.1", k=100)``).

    Guarantee: exact.

    Raises:
        InvalidArgument: empty lists, both or neither of eps / exp_eps, a delta
            list of the wrong length, k < 1, or any bad number (named by its
            position, e.g. ``eps[2]``).
        CostTooHigh: more than ``MAX_MECHANISMS`` mechanisms in all.
    """
    if (eps is None) == (exp_eps is None):
        raise InvalidArgument("eps / exp_eps", "given, exactly one of the two", None)
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise InvalidArgument("k", "an integer >= 1", k)
    raw = eps if eps is not None else exp_eps
    # one number (str, int, Fraction, float, Decimal) is a one-element list, not its characters
    vals = list(raw) if isinstance(raw, (list, tuple, range)) or (hasattr(raw, "__iter__") and not isinstance(raw, str)) else [raw]  # type: ignore[arg-type]
    name = "eps" if eps is not None else "exp_eps"
    if not vals:
        raise InvalidArgument(name, "a non-empty list", "an empty list")
    if isinstance(delta, (list, tuple)):
        deltas = list(delta)
        if len(deltas) == 1:
            deltas = deltas * len(vals)
        elif len(vals) == 1:
            vals = vals * len(deltas)
        if len(deltas) != len(vals):
            raise InvalidArgument("delta", f"one value or a list of {len(vals)} values (one per eps)", f"{len(deltas)} values")
    else:
        deltas = [delta] * len(vals)
    if len(vals) * k > MAX_MECHANISMS:
        raise CostTooHigh("k", f"{len(vals)} x {k} = {len(vals) * k:.3g} mechanisms is refused (limit {MAX_MECHANISMS:.0e}): "
                          "no exact kernel handles that many (the homogeneous one stops near 1.3e5)")
    out = []
    for i, (v, d) in enumerate(zip(vals, deltas)):
        dd = parse_delta(d, f"delta[{i}]")
        if eps is not None:
            out.append(Mechanism(eps=parse_eps(v, f"eps[{i}]"), delta=dd))
        else:
            out.append(Mechanism(exp_eps=parse_exp_eps(v, f"exp_eps[{i}]"), delta=dd))
    return tuple(out) * k


def validate_mechanisms(mechs: Iterable[Mechanism]) -> tuple[Mechanism, ...]:
    """Check that ``mechs`` is a non-empty iterable of Mechanism (a single one is accepted).

    Guarantee: exact (returns the same mechanisms as a tuple).

    Raises:
        InvalidArgument: empty, or an element that is not a Mechanism.
    """
    if isinstance(mechs, Mechanism):
        return (mechs,)
    try:
        ms = tuple(mechs)
    except TypeError:
        raise InvalidArgument("mechanisms", "an iterable of Mechanism", mechs) from None
    if not ms:
        raise InvalidArgument("mechanisms", "a non-empty list", "an empty list")
    for i, m in enumerate(ms):
        if not isinstance(m, Mechanism):
            raise InvalidArgument(f"mechanisms[{i}]", "a Mechanism", m)
    return ms
