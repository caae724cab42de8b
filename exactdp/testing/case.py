"""One question put to an accountant (:class:`Case`), and how a composition is described in
reports; shared by :mod:`.check` and :mod:`.standard`."""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Union

from ..events import Composition, as_composition
from ..numbers import fraction_str, parse_choice, parse_delta, parse_eps
from ..numbers.parse import as_scalar

__all__ = ["DIRECTIONS", "Case", "describe", "show", "exact_answer"]

DIRECTIONS = ("epsilon", "delta")


@dataclass(frozen=True)
class Case:
    """One question put to an accountant: a composition and the query (``delta_g`` when
    ``direction="epsilon"``, ``eps_g`` when ``"delta"``), both exact.

    Guarantee: exact. Raises: InvalidArgument (bad composition or query; see :meth:`of`).
    """

    composition: Composition
    query: Fraction
    direction: str = "epsilon"
    label: str = ""

    @classmethod
    def of(cls, composition: object, query: object, direction: str = "epsilon", label: str = "") -> "Case":
        """A case from any composition form (:func:`exactdp.events.as_composition`) and a query
        (converted exactly: a float as its binary value).

        Guarantee: exact.

        Raises:
            InvalidArgument: bad mechanisms, a delta_g outside [0, 1), an eps_g < 0, a bad direction.

        Examples:
            >>> from exactdp import mechanisms
            >>> c = Case.of(mechanisms(eps=[0.5], k=3), 1e-6)
            >>> c.query == Fraction(1e-6), c.composition.k
            (True, 3)
        """
        parse_choice(direction, "direction", DIRECTIONS)
        comp = as_composition(composition)
        q = parse_delta(query, "delta_g") if direction == "epsilon" else parse_eps(query, "eps_g")
        return cls(comp, q, direction, label)

    def describe(self) -> str:
        """``"10 x Mechanism(eps=1/10, delta=0), delta_g = 1e-06"``. Raises: nothing."""
        name = "delta_g" if self.direction == "epsilon" else "eps_g"
        return f"{self.label + ': ' if self.label else ''}{describe(self.composition)}, {name} = {show(self.query)}"


def describe(comp: Composition) -> str:
    """``"1000 x (eps=0.1, delta=0)"``: the composition's groups, floats shown as floats.

    Guarantee: exact for float-exact numbers (shortest repr), else 12 significant digits. Raises: nothing.
    """
    gs = comp.groups()
    parts = []
    for m, n in gs[:4]:
        e = f"eps={show(m.eps)}" if m.eps is not None else (
            f"exp_eps={show(m.exp_eps)}" if m.exp_eps is not None else f"w={m.w!r}")
        parts.append(f"{n} x ({e}, delta={show(m.delta)})")
    if len(gs) > 4:
        parts.append(f"... ({len(gs)} distinct, k = {comp.k})")
    return " + ".join(parts)


def show(x: object, digits: int = 12) -> str:
    """A number for a table: a float-exact value as its shortest repr, else a decimal."""
    if isinstance(x, float):
        return repr(x)
    if isinstance(x, Fraction):
        f = float(x)
        if math.isfinite(f) and Fraction(f) == x:
            return repr(f)
        if x.denominator == 1 or len(fraction_str(x)) <= 12:
            return fraction_str(x)
        return f"{float(x):.{digits}g}"
    return str(x)


def exact_answer(value: object) -> Union[Fraction, float]:
    """An accountant's answer as an exact number: a Fraction, or ``+inf`` / ``-inf``.

    Floats (and NumPy floats) are taken as the binary number they are; Decimals and
    strings digit for digit (``"inf"`` is accepted); ints and Fractions as they are.

    Guarantee: exact.

    Raises:
        InvalidArgument: NaN, None, a boolean, or anything that is not a number.

    Examples:
        >>> exact_answer(0.1)
        Fraction(3602879701896397, 36028797018963968)
        >>> exact_answer("0.1"), exact_answer(Decimal("-inf"))
        (Fraction(1, 10), -inf)
    """
    v = as_scalar(value)
    if isinstance(v, float) and math.isinf(v):
        return v
    if isinstance(v, Decimal) and v.is_infinite():
        return math.inf if v > 0 else -math.inf
    if isinstance(v, str) and v.strip().lower().lstrip("+-") in ("inf", "infinity"):
        return -math.inf if v.strip().startswith("-") else math.inf
    from ..numbers import parse_rational

    return parse_rational(v, "answer", expected="a number (float, Decimal, Fraction, int or numeric string)")


class StatusLists:
    """The lists by status of a report of verdicts (each verdict has ``.status``); shared by the
    (eps, delta) and the event reports. Guarantee: exact (selections of ``verdicts``)."""

    verdicts: list

    def _with(self, status: str) -> list:
        return [v for v in self.verdicts if v.status == status]

    def _worst(self, status: str, key) -> list:
        """The verdicts of ``status``, worst first by ``key`` (a missing value counts as 0)."""
        return sorted(self._with(status), key=lambda v: key(v) if key(v) is not None else 0.0)

    @property
    def sound(self) -> list:
        return self._with("sound")

    @property
    def undecided(self) -> list:
        return self._with("undecided")

    @property
    def errors(self) -> list:
        return self._with("error")
