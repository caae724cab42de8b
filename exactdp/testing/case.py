"""One question put to an accountant (:class:`Case`), and how a composition is described in
reports; shared by :mod:`.check` and :mod:`.standard`."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from ..events import Composition, as_composition
from ..numbers import fraction_str, parse_choice, parse_delta, parse_eps

__all__ = ["DIRECTIONS", "Case", "describe", "show"]

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


