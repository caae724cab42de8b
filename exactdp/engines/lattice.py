"""The lattice kernel: ``w_i = u^(a_i)`` (and the homogeneous case ``a_i = 1``).

``S(t) = sum_m c_m max(u^m - t u^(A-m), 0)`` with ``c_m`` the coefficients of the
count polynomial ``prod (1 + z^(a_i))`` (FLINT ``fmpz_poly``, equal exponents as
powers, then a product tree), ``A = sum a_i``; the positive classes are a tail
``m >= m_hi``, so ``S`` is two polynomial evaluations. Homogeneous: Kairouz-Oh-
Viswanath's sum (Murtagh-Vadhan Theorem 1.4). Guarantee: exact in the exact
field, an enclosure in Arb balls (signs at the threshold decided exactly).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Optional, Sequence

import numpy as np

from .._backend import fmpz_poly
from ..numbers import ExpNum, log_sign_of_product
from .fields import Field
from .structure import Structure

__all__ = ["Lattice"]


class Lattice(Structure):
    """``w_i = u^(a_i)``: classes ``m = 0..A`` with count ``c_m``, ``W_S = u^m``.

    ``coeffs[m]`` is the number of subsets ``S`` with ``sum_{i in S} a_i = m``
    (the coefficients of ``prod (1 + z^(a_i))``).
    """

    def __init__(self, u: ExpNum, coeffs, method: str = "lattice"):
        self.u = u
        if isinstance(coeffs, fmpz_poly):
            self.poly = coeffs
            self._coeffs: Optional[list[int]] = None
            self.A = coeffs.degree()
        else:
            self._coeffs = [int(c) for c in coeffs]
            self.poly = None
            self.A = len(self._coeffs) - 1
        self.method = method
        self._lu = u.flog()
        self._logc = None
        self._Z: dict = {}

    @property
    def coeffs(self) -> list[int]:
        """``c_0..c_A`` as Python integers (built once from the polynomial)."""
        if self._coeffs is None:
            self._coeffs = [int(c) for c in self.poly.coeffs()]  # type: ignore[union-attr]
        return self._coeffs

    def polynomial(self) -> fmpz_poly:
        """The count polynomial ``sum c_m z^m`` (FLINT)."""
        if self.poly is None:
            self.poly = fmpz_poly(self._coeffs)
        return self.poly

    @classmethod
    def from_exponents(cls, u: ExpNum, a: Sequence[int], method: str = "lattice") -> "Lattice":
        """The kernel of ``w_i = u^(a_i)``: ``prod (1 + z^(a_i))`` with equal exponents grouped."""
        counts: dict = {}
        for x in a:
            counts[int(x)] = counts.get(int(x), 0) + 1
        return cls.from_groups(u, sorted(counts.items()), method)

    @classmethod
    def from_groups(cls, u: ExpNum, groups: Sequence[tuple[int, int]], method: str = "lattice") -> "Lattice":
        """The kernel of ``n_j`` mechanisms ``w = u^(a_j)`` per group: ``prod (1 + z^(a_j))^(n_j)``
        (FLINT powers, then a product tree). Guarantee: exact."""
        polys = []
        for x, n in groups:
            base = fmpz_poly([1] + [0] * (x - 1) + [1]) if x > 0 else fmpz_poly([2])
            polys.append(base**n)
        while len(polys) > 1:  # product tree
            polys = [polys[i] * polys[i + 1] if i + 1 < len(polys) else polys[i] for i in range(0, len(polys), 2)]
        return cls(u, polys[0], method)

    def loss_classes(self, field: Field) -> list:
        """Classes ``m = 0..A``: ``(c_m, u^m, u^(A-m), [(u, 2m - A)])`` (see :class:`~.structure.Structure`)."""
        u = field.embed(self.u)
        one = field.rational(Fraction(1))
        pw = [one]
        for _ in range(self.A):
            pw.append(pw[-1] * u)
        return [(c, pw[m], pw[self.A - m], [(self.u, 2 * m - self.A)]) for m, c in enumerate(self.coeffs) if c]

    def cost(self) -> float:
        return float(self.A + 1)

    def approx_log_S(self, lnt: float) -> float:
        # log-space, vectorised: S = sum_{m: (2m-A) lu > lnt} c_m u^m (1 - t u^{A-2m})
        if self._logc is None:
            self._logc = np.array([_log_int(c) for c in self.coeffs])
        m = np.arange(self.A + 1, dtype=float)
        expo = lnt - (2 * m - self.A) * self._lu
        mask = (expo < 0) & np.isfinite(self._logc)
        if not mask.any():
            return float("-inf")
        x = self._logc[mask] + m[mask] * self._lu + np.log(-np.expm1(expo[mask]))
        mx = float(x.max())
        return mx + math.log(float(np.exp(x - mx).sum()))

    def _class_sign(self, m: int, t_num: ExpNum) -> Optional[int]:
        # sign of log(u^(2m - A) / t)
        return log_sign_of_product([(self.u, 2 * m - self.A), (t_num, -1)])

    def evaluate(self, field: Field, t_num: ExpNum, t=None):
        if t is None:
            t = field.embed(t_num)
        A, c = self.A, self.coeffs
        u = field.embed(self.u)
        zero = field.rational(Fraction(0))
        if A == 0 or self.u.is_one():
            # u = 1: every class has W_S = W_notS = 1, so S = Z (1 - t)_+ with Z = sum c_m;
            # the sign is that of log(1/t), decided exactly when t allows it.
            Z = field.rational(Fraction(sum(c)))
            one = field.rational(Fraction(1))
            sg = log_sign_of_product([(t_num, -1)])
            if sg is None:
                return field.pos(Z * (one - t)), zero
            if sg > 0:
                return Z * (one - t), Z
            return zero, zero
        # locate the threshold: class m is positive iff (2m - A) log u > log t
        guess = (A + t_num.flog() / self._lu) / 2 if self._lu > 0 else A + 1
        m = min(max(int(math.floor(guess)), 0), A + 1)
        # walk to the first certainly-positive class m_hi; collect undecided ones
        undecided: list[int] = []

        def sg(mm: int) -> Optional[int]:
            return self._class_sign(mm, t_num)

        if m <= A and sg(m) == 1:
            while m - 1 >= 0 and sg(m - 1) == 1:
                m -= 1
        else:
            while m <= A:
                s_m = sg(m)
                if s_m == 1:
                    break
                if s_m is None:
                    undecided.append(m)
                m += 1
        m_hi = m
        # classes just below m_hi that are undecided (Computable t) are enclosed with pos()
        mm = m_hi - 1
        while mm >= 0 and mm not in undecided and sg(mm) is None:
            undecided.append(mm)
            mm -= 1
        tail = c[m_hi:]
        if tail:
            s1 = field.polyval(tail, u)
            if m_hi:
                s1 = s1 * _power(field, u, m_hi)
            s2 = field.polyval(tail[::-1], u)
            s = s1 - t * s2
            sig = s2
        else:
            s = zero
            sig = zero
        for mm in undecided:
            if c[mm]:
                term = c[mm] * (_power(field, u, mm) - t * _power(field, u, A - mm))
                s += field.pos(term)
        return s, sig


def _log_int(c: int) -> float:
    return math.log(c) if c > 0 else float("-inf")


def _power(field: Field, x, n: int):
    if n == 0:
        return field.rational(Fraction(1))
    return x**n


