"""Results of the engines: a value (an :class:`~exactdp.numbers.Enclosure`) and how it was obtained.

Every result type of exactdp that reports one number builds on :class:`EnclosedResult`:
``value`` is the enclosure, ``lower`` / ``upper`` / ``exact`` / ``infinite`` read it,
and the JSON form nests ``value.to_dict()`` under the result's own key.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from typing import Optional

from ..numbers import Enclosure, fraction_str, parse_int, short_fraction
from ..numbers.enclosure import End

__all__ = ["EnclosedResult", "DeltaResult", "EpsResult", "GUARANTEES", "MAX_DIGITS", "check_digits"]

#: Most significant digits any engine is asked for.
MAX_DIGITS = 10_000


def check_digits(digits: object, name: str = "digits") -> int:
    """``digits`` as an integer in ``[1, MAX_DIGITS]``. Guarantee: exact. Raises: InvalidArgument."""
    return parse_int(digits, name, lo=1, hi=MAX_DIGITS)

#: Guarantee tiers of results (STYLE.md item 1).
GUARANTEES = ("exact", "enclosure", "approximate", "upper bound", "lower bound")


class EnclosedResult:
    """Mixin: ``lower``, ``upper``, ``exact``, ``infinite`` of the result's ``value`` enclosure,
    and a ``repr`` that never fails (huge rationals are shortened)."""

    value: Enclosure

    def __repr__(self) -> str:
        parts = []
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            v = getattr(self, f.name)
            parts.append(f"{f.name}={short_fraction(v, 60) if isinstance(v, Fraction) else repr(v)}")
        return f"{type(self).__name__}({', '.join(parts)})"

    @property
    def lower(self) -> End:
        return self.value.lower

    @property
    def upper(self) -> End:
        return self.value.upper

    @property
    def exact(self) -> Optional[Fraction]:
        return self.value.exact

    @property
    def infinite(self) -> bool:
        return self.value.infinite


@dataclass(frozen=True, kw_only=True, repr=False)
class DeltaResult(EnclosedResult):
    """``delta_g`` of a composition at a given ``eps_g``.

    ``lower <= delta_g <= upper`` always holds for the exact and certified
    engines (``guarantee`` is ``"exact"`` or ``"enclosure"``); for the float
    engine ``lower == upper`` is an approximation (``"approximate"``; then ``exact`` is None).
    """

    value: Enclosure
    engine: str
    method: str
    guarantee: str
    prec: Optional[int]
    k: int

    @property
    def exact(self) -> Optional[Fraction]:
        return None if self.guarantee == "approximate" else self.value.exact

    def to_dict(self, digits: int = 30) -> dict:
        """The ``exactdp delta --json`` object. Guarantee: as ``guarantee`` (decimals outward).
        Raises: InvalidArgument for ``digits`` outside [1, MAX_DIGITS] (0 printed an upper end of 0.0)."""
        digits = check_digits(digits)
        d = self.value.to_dict(digits)
        if self.guarantee == "approximate":
            d["exact"] = None
        return {
            "delta_g": d,
            "engine": self.engine,
            "method": self.method,
            "guarantee": self.guarantee,
            "precision_bits": self.prec,
            "digits": digits,
            "k": self.k,
        }


@dataclass(frozen=True, kw_only=True, repr=False)
class EpsResult(EnclosedResult):
    """OptComp: the least ``eps_g`` at a given ``delta_g``.

    ``value`` encloses ``eps_g``; its ``exact`` is ``eps_g`` itself when that is
    rational (e.g. 0, or the sum of the eps_i when ``delta_g = 1 - prod(1 - delta_i)``).
    ``exp_exact`` is ``t* = e^{eps_g}`` when it is rational (exact engine).
    ``infinite`` is True when no finite eps_g achieves ``delta_g``
    (``delta_g < 1 - prod(1 - delta_i)``); then ``lower = upper = inf``.
    """

    value: Enclosure
    exp_exact: Optional[Fraction]
    engine: str
    method: str
    guarantee: str
    prec: Optional[int]
    k: int

    @property
    def exact(self) -> Optional[Fraction]:
        return None if self.guarantee == "approximate" else self.value.exact

    def to_dict(self, digits: int = 30) -> dict:
        """The ``exactdp epsilon --json`` object. Guarantee: as ``guarantee`` (decimals outward).
        Raises: InvalidArgument for ``digits`` outside [1, MAX_DIGITS] (0 printed an upper end of 0.0)."""
        digits = check_digits(digits)
        if self.infinite:
            eps = {"exact": "inf", "exp_exact": None, "lower": "inf", "upper": "inf"}
        else:
            lo, hi = self.value.decimal(digits)
            if self.exp_exact is not None and self.exp_exact == 1:
                ex: Optional[str] = "0"
            elif self.exp_exact is not None:
                ex = f"log({fraction_str(self.exp_exact)})"
            elif self.exact is not None:
                ex = fraction_str(self.exact)
            else:
                ex = None
            eps = {
                "exact": ex,
                "exp_exact": fraction_str(self.exp_exact) if self.exp_exact is not None else None,
                "lower": lo,
                "upper": hi,
            }
        return {
            "eps_g": eps,
            "infinite": self.infinite,
            "engine": self.engine,
            "method": self.method,
            "guarantee": self.guarantee,
            "precision_bits": self.prec,
            "digits": digits,
            "k": self.k,
        }
