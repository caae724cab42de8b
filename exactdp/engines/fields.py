"""Arithmetic "fields" the S(t) kernels run in (the lower layer, STYLE.md item 5).

Each S(t) algorithm is written once, generically, and run in one of:

* :class:`ExactField`   gmpy2 ``mpq``; every operation exact; every sign decided.
* :class:`ArbField`     Arb balls at a fixed working precision; every result an
  enclosure; ``sign`` returns ``None`` when a ball straddles 0.
* :class:`FloatField`   Arb balls at a fixed precision whose straddling signs are
  decided by the midpoint (no exact escalation); approximate, the float engine's.

A kernel needs: ``embed`` (an exp-space number into the field), ``rational``,
``pos`` (``max(x, 0)``: exact, or a rigorous enclosure of it), ``sign``
(three-valued for balls), ``polyval`` (integer-coefficient polynomial at a
point) and ordinary ``+ - * /`` on elements.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Optional, Sequence

from .. import _backend as _b
from .._backend import arb, arb_poly, fmpq, fmpz_poly, workprec
from ..errors import NotExact
from ..numbers import ExpNum, arb_of_fraction

__all__ = ["ExactField", "ArbField", "FloatField", "Field"]


class Field:
    name = "abstract"
    exact = False

    def embed(self, x: ExpNum):
        raise NotImplementedError

    def rational(self, q: Fraction):
        raise NotImplementedError

    def pos(self, x):
        raise NotImplementedError

    def sign(self, x) -> Optional[int]:
        raise NotImplementedError

    def polyval(self, coeffs: Sequence[int], x):
        """``sum_j coeffs[j] * x**j``."""
        raise NotImplementedError

    def power(self, x: ExpNum, n: int, *, one_plus: bool = False):
        """``x^n`` (or ``(1 + x)^n``) of an exp-space ``x`` in the field."""
        base = self.embed(x)
        return (self.rational(Fraction(1)) + base if one_plus else base) ** n

    def to_float(self, x) -> float:
        raise NotImplementedError


class ExactField(Field):
    """Exact rational arithmetic (gmpy2 ``mpq``). Guarantee: exact."""

    name = "exact"
    exact = True

    def embed(self, x: ExpNum):
        v = x.exact()
        if v is None:
            raise NotExact(
                "eps / exp_eps",
                "exactly representable for the exact engine: e^eps must be rational",
                repr(x),
                hint="give exp_eps as a rational, or use engine='certified'",
            )
        return _b.mpq(v.numerator, v.denominator)

    def rational(self, q: Fraction):
        return _b.mpq(q.numerator, q.denominator)

    def pos(self, x):
        return x if x > 0 else _b.mpq(0)

    def sign(self, x) -> int:
        return (x > 0) - (x < 0)

    def polyval(self, coeffs: Sequence[int], x):
        if not coeffs:
            return _b.mpq(0)
        v = fmpz_poly(list(coeffs))(fmpq(int(x.numerator), int(x.denominator)))
        return _b.mpq(int(v.p), int(v.q))

    def to_float(self, x) -> float:
        return float(x)

    def to_fraction(self, x) -> Fraction:
        return Fraction(int(x.numerator), int(x.denominator))


class ArbField(Field):
    """Arb ball arithmetic at ``prec`` bits. Guarantee: enclosure.

    Callers run kernels inside ``workprec(field.prec)``.
    """

    name = "certified"

    def __init__(self, prec: int):
        self.prec = int(prec)

    def embed(self, x: ExpNum):
        return x.arb(self.prec)

    def rational(self, q: Fraction):
        return arb_of_fraction(q)

    def power(self, x: ExpNum, n: int, *, one_plus: bool = False):
        """As :meth:`Field.power`, with the base ``n.bit_length()`` bits more precise: a power
        multiplies the base's relative radius by ``n`` (``(1 + e^0.01)^(10^9)`` at 145 bits was
        only 115 bits wide, which cost the k = 10^9 inverse a round at higher precision)."""
        hp = self.prec + max(int(n), 1).bit_length() + 4
        with workprec(hp):
            base = x.arb(hp)
            return (1 + base if one_plus else base) ** n

    def pos(self, x):
        return x.nonnegative_part()

    def sign(self, x) -> Optional[int]:
        if x > 0:
            return 1
        if x < 0:
            return -1
        if x.is_zero():
            return 0
        return None

    def polyval(self, coeffs: Sequence[int], x):
        if not coeffs:
            return arb(0)
        return arb_poly(fmpz_poly(list(coeffs)))(x)

    def to_float(self, x) -> float:
        return float(x.mid())


class FloatField(ArbField):
    """Arb balls at ``prec`` bits, but a ball that straddles 0 takes the sign of its midpoint.

    Guarantee: approximate (the balls still bound the arithmetic, so the float engine
    can tell how accurate its answer is; only the ``max(x, 0)`` choices are guesses).
    """

    name = "float"

    def sign(self, x) -> Optional[int]:
        s = ArbField.sign(self, x)
        if s is None:
            m = x.mid()
            return (m > 0) - (m < 0)
        return s

    def pos(self, x):
        m = x.mid()
        return x if m > 0 else arb(0)
