"""What a polygon or polyline with exactly known (or enclosed) vertices is: shared by
:class:`~exactdp.fdp.TradeOff` (a trade-off curve) and :class:`~exactdp.regions.PrivacyRegion`
(the polygon of a trade-off curve and its mirror image).

An object holds its vertices either as exact scalars (``_pts``: gmpy2 rationals, or
elements of ``Q(e^g)``, :mod:`.symbolic`) or, when they are irrational and not in such a
field, only as certified enclosures (``_pts`` None, ``vertices`` enclosures).
"""

from __future__ import annotations

from fractions import Fraction

from ..errors import NotExact
from .symbolic import QW, Scalar, scalar_exact

__all__ = ["ExactVertices"]


class ExactVertices:
    """Mixin: exactness, exact vertex lists, length, exact equality and immutability, from ``_pts``.

    A subclass sets ``_pts`` (a list of exact scalar pairs, or None), provides ``vertices``
    (enclosures) and :meth:`_describe`, and sets its attributes with ``object.__setattr__``.
    """

    __slots__ = ()

    #: what the object is, in messages ("trade-off function", "region")
    _noun = "object"

    def _describe(self) -> str:  # pragma: no cover - every subclass names itself
        return self._noun

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is immutable")

    @property
    def is_exact(self) -> bool:
        """Every vertex is rational (then :meth:`exact_vertices` gives them)."""
        return self._pts is not None and not any(isinstance(c, QW) and c.exact() is None for p in self._pts for c in p)

    @property
    def is_symbolic(self) -> bool:
        """Every vertex is known exactly (rational or in ``Q(e^g)``): exact decisions are possible."""
        return self._pts is not None

    def exact_vertices(self) -> list[tuple[Fraction, Fraction]]:
        """The vertices as Fractions. Guarantee: exact. Raises: NotExact when some vertex is irrational."""
        if not self.is_exact:
            raise NotExact("vertices", "rational (every e^eps rational)", self._describe(),
                           hint="use .vertices for certified enclosures")
        return [(scalar_exact(a), scalar_exact(b)) for a, b in self._pts]  # type: ignore[misc, union-attr]

    def symbolic_vertices(self) -> list[tuple[Scalar, Scalar]]:
        """The vertices as exact scalars (Fractions or :class:`~exactdp.fdp.symbolic.QW`).
        Guarantee: exact. Raises: NotExact for an object known only by enclosures."""
        if self._pts is None:
            raise NotExact("vertices", "known exactly (rational eps or rational e^eps)", self._describe())
        return list(self._pts)

    def __len__(self) -> int:
        return len(self._pts) if self._pts is not None else len(self.vertices)  # type: ignore[attr-defined]

    def __eq__(self, other: object) -> bool:
        """Exact equality of two exactly known objects of the same kind (same vertices).

        Raises:
            NotExact: when either is known only by enclosures (equality is then undecidable).
        """
        if not isinstance(other, ExactVertices) or other._noun != self._noun:
            return NotImplemented
        if self._pts is None or other._pts is None:
            raise NotExact(self._noun, "known exactly to compare for equality", "enclosures")
        return len(self._pts) == len(other._pts) and all(a == c and b == d for (a, b), (c, d) in zip(self._pts, other._pts))

    __hash__ = None  # type: ignore[assignment]
