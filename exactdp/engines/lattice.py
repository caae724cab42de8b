"""The lattice kernel: ``w_i = u^(a_i)`` (and the homogeneous case ``a_i = 1``).

``S(t) = sum_m c_m max(u^m - t u^(A-m), 0)`` with ``c_m`` the coefficients of the
count polynomial ``prod (1 + z^(a_i))`` (FLINT ``fmpz_poly``, equal exponents as
powers, then a product tree), ``A = sum a_i``; the positive classes are a tail
``m >= m_hi``, so with ``T(z) = sum_{m >= m_hi} c_m z^(m - m_hi)``::

    S(t) = u^m_hi T(u) - t u^(A - m_hi) T(1/u),    sigma(t) = u^(A - m_hi) T(1/u)

two evaluations of one integer polynomial (Horner at ``1/u < 1`` adds positive
terms of decreasing size). Homogeneous: Kairouz-Oh-Viswanath's sum (Murtagh-Vadhan
Theorem 1.4). Guarantee: exact in the exact field, an enclosure in Arb balls (signs
at the threshold decided exactly).

The coefficients stay in FLINT (never one Python integer each: for ``k = 10^5``
equal mechanisms they fill about 1 GB); Arb fields use the polynomial converted
once per precision (``arb_poly``, cached).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Optional, Sequence

from .._backend import arb_poly, fmpq, fmpz_poly
from ..numbers import ExpNum, log_sign_of_product
from .fields import ArbField, ExactField, Field
from .structure import Structure

__all__ = ["Lattice"]


class Lattice(Structure):
    """``w_i = u^(a_i)``: classes ``m = 0..A`` with count ``c_m``, ``W_S = u^m``.

    ``coeffs[m]`` is the number of subsets ``S`` with ``sum_{i in S} a_i = m``
    (the coefficients of ``prod (1 + z^(a_i))``).
    """

    def __init__(self, u: ExpNum, coeffs, method: str = "lattice"):
        self.u = u
        self.poly = coeffs if isinstance(coeffs, fmpz_poly) else fmpz_poly([int(c) for c in coeffs])
        self.A = max(self.poly.degree(), 0)
        self.method = method
        self._lu = u.flog()
        self._coeffs: Optional[list[int]] = None
        self._arb: dict = {}  # prec -> arb_poly (at most two precisions kept)
        self._exact: dict = {}  # cached full evaluations in the exact field

    @property
    def coeffs(self) -> list[int]:
        """``c_0..c_A`` as Python integers (built on first use; for small kernels only)."""
        if self._coeffs is None:
            self._coeffs = [int(c) for c in self.poly.coeffs()] or [0]
        return self._coeffs

    def polynomial(self) -> fmpz_poly:
        """The count polynomial ``sum c_m z^m`` (FLINT)."""
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
        if not polys:
            polys = [fmpz_poly([1])]
        while len(polys) > 1:  # product tree
            polys = [polys[i] * polys[i + 1] if i + 1 < len(polys) else polys[i] for i in range(0, len(polys), 2)]
        return cls(u, polys[0], method)

    def coefficient(self, m: int) -> int:
        """``c_m`` (0 outside ``0..A``)."""
        return int(self.poly[m]) if 0 <= m <= self.A else 0

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

    def estimate(self, kind: str, prec: int):
        from .costs import Estimate, lattice_eval

        q = self.u.exact()
        ub = float(q.numerator.bit_length() + q.denominator.bit_length()) if q is not None else 64.0
        hb = float(self.poly.height_bits()) if self.A < 10**8 else 64.0
        cb = float(self.A + 1) * (hb + 64)
        return Estimate(0.0, 0.0), lattice_eval(self.A, 0, kind, prec, ub, coeff_bits=cb)

    def _arb_poly(self, prec: int) -> arb_poly:
        hit = self._arb.get(prec)
        if hit is None:
            if len(self._arb) >= 2:  # keep the memory of at most two conversions
                self._arb.pop(next(iter(self._arb)))
            hit = self._arb[prec] = arb_poly(self.poly)
        return hit

    def threshold(self, t_num: ExpNum) -> tuple[int, list[int]]:
        """``(m_hi, undecided)``: classes ``m >= m_hi`` are positive at ``t`` (decided exactly);
        ``undecided`` lists classes below whose sign cannot be decided (Computable ``t`` only)."""
        return threshold_classes(self.u, self.A, self._lu, t_num)

    def _tail_values(self, field: Field, m_hi: int, u):
        """``(T(u), T(1/u))`` for the tail ``T`` from ``m_hi`` (see the module docstring)."""
        if isinstance(field, ExactField):
            from .._backend import mpq

            uq = fmpq(int(u.numerator), int(u.denominator))
            inv = 1 / uq
            if m_hi <= self.A // 2:
                # copy the shorter head and subtract: exact, no cancellation to fear
                full = self._exact.get("full")
                if full is None or full[0] != uq:
                    full = (uq, self.poly(uq), self.poly(inv))
                    self._exact["full"] = full
                head = self.poly.truncate(m_hi) if m_hi else fmpz_poly([])
                hu, hi_ = (head(uq), head(inv)) if m_hi else (fmpq(0), fmpq(0))
                a = (full[1] - hu) * inv**m_hi
                b = (full[2] - hi_) * uq**m_hi
            else:
                tail = self.poly.right_shift(m_hi)
                a, b = tail(uq), tail(inv)
            return mpq(int(a.p), int(a.q)), mpq(int(b.p), int(b.q))
        if isinstance(field, ArbField):
            tail = self._arb_poly(field.prec)
            if m_hi:
                tail = tail.right_shift(m_hi)
            return tail(u), tail(1 / u)
        # other fields (mpmath): through Arb at the field's precision, then the midpoint
        from .._backend import workprec

        with workprec(field.prec + 20):  # type: ignore[attr-defined]
            ua = self.u.arb(field.prec + 20)  # type: ignore[attr-defined]
            a, b = self._tail_values(ArbField(field.prec + 20), m_hi, ua)  # type: ignore[attr-defined]
            return _arb_to_field(field, a), _arb_to_field(field, b)

    def evaluate(self, field: Field, t_num: ExpNum, t=None):
        if t is None:
            t = field.embed(t_num)
        A = self.A
        zero = field.rational(Fraction(0))
        if A == 0 or self.u.is_one():
            return ratio_one_sums(field, t_num, t, field.rational(Fraction(sum(self.coeffs))))
        u = field.embed(self.u)
        m_hi, undecided = self.threshold(t_num)
        if m_hi <= A:
            tu, tinv = self._tail_values(field, m_hi, u)
            s1 = tu * _power(field, u, m_hi)
            s2 = tinv * _power(field, u, A - m_hi)
            s = s1 - t * s2
            sig = s2
        else:
            s = zero
            sig = zero
        for mm in undecided:
            c = self.coefficient(mm)
            if c:
                term = c * (_power(field, u, mm) - t * _power(field, u, A - mm))
                s += field.pos(term)
        return s, sig


def ratio_one_sums(field: Field, t_num: ExpNum, t, Z):
    """``(S(t), sigma(t))`` when every class has ratio 1 (``u = 1``, all eps_i = 0): each has
    ``W_S = W_notS = 1``, so ``S = Z (1 - t)_+`` and ``sigma = Z`` where that is positive, with
    ``Z`` the number of classes; the sign is that of ``log(1/t)``, decided exactly when ``t``
    allows it, else ``max(., 0)`` is enclosed. Guarantee: as the field. Raises: nothing."""
    zero = field.rational(Fraction(0))
    one = field.rational(Fraction(1))
    sg = log_sign_of_product([(t_num, -1)])
    if sg is None:
        return field.pos(Z * (one - t)), zero
    return (Z * (one - t), Z) if sg > 0 else (zero, zero)


class BallKernel(Structure):
    """A kernel that evaluates in Arb balls only (the windowed and ball-lattice kernels).

    :meth:`evaluate` sends the exact field to the exact lattice kernel ``_exact_kernel()``
    (built on first use, after the exact engine's cost check) and any other field (mpmath)
    through balls 20 bits wider, so a subclass writes only ``_evaluate_balls(field, t_num, t)``.
    """

    def _exact_kernel(self) -> "Lattice":
        raise NotImplementedError

    def _evaluate_balls(self, field: ArbField, t_num: ExpNum, t):
        raise NotImplementedError

    def evaluate(self, field: Field, t_num: ExpNum, t=None):
        """``(S(t), sigma(t))`` (the subclass's module docstring). Guarantee: enclosure (Arb
        fields), exact (exact field). Raises: nothing beyond the field's."""
        if isinstance(field, ExactField):
            return self._exact_kernel().evaluate(field, t_num, t)
        if not isinstance(field, ArbField):
            from .._backend import workprec

            with workprec(field.prec + 20):  # type: ignore[attr-defined]
                s, g = self.evaluate(ArbField(field.prec + 20), t_num)  # type: ignore[attr-defined]
            return _arb_to_field(field, s), _arb_to_field(field, g)
        return self._evaluate_balls(field, t_num, field.embed(t_num) if t is None else t)


class CachedApprox:
    """A kernel whose float model ``_approx_uncached(lnt)`` is worth caching (the windowed
    kernels: the inverse's searches ask the same points again). :meth:`approx` keeps up to 512
    answers in ``self._approx``."""

    def approx(self, lnt: float) -> tuple[float, float]:
        """``(ln S, d ln S / d ln t)`` in floating point (for the search only), cached; the model is
        the subclass's ``_approx_uncached``. Guarantee: approximate. Raises: nothing."""
        cache = self.__dict__.setdefault("_approx", {})
        hit = cache.get(lnt)
        if hit is None:
            if len(cache) > 512:
                cache.clear()
            hit = cache[lnt] = self._approx_uncached(lnt)  # type: ignore[attr-defined]
        return hit


def _arb_to_field(field: Field, x):
    import mpmath

    m, e = x.mid().man_exp()
    return mpmath.mpf((int(m), int(e)))


def _power(field: Field, x, n: int):
    if n == 0:
        return field.rational(Fraction(1))
    return x**n


def threshold_classes(u: ExpNum, A: int, lu: float, t_num: ExpNum) -> tuple[int, list[int]]:
    """``(m_hi, undecided)`` for the classes ``m = 0..A`` whose ratio is ``u^(2m - A)``: classes
    ``m >= m_hi`` have ``u^(2m - A) > t`` (decided exactly, from a float guess by ``lu = ln u``);
    ``undecided`` lists classes below whose sign cannot be decided (Computable ``t`` only).
    Shared by the lattice and the windowed kernels. Guarantee: exact. Raises: nothing."""
    lt = t_num.flog()
    if lu > 0 and math.isfinite(lt):
        guess = (A + lt / lu) / 2
        m = A + 1 if guess > A + 1 else (0 if guess < 0 else int(math.floor(guess)))
    else:
        m = A + 1 if lt > 0 or lu <= 0 else 0
    undecided: list[int] = []

    def sg(mm: int) -> Optional[int]:
        return log_sign_of_product([(u, 2 * mm - A), (t_num, -1)])

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
    mm = m - 1
    while mm >= 0 and mm not in undecided and sg(mm) is None:
        undecided.append(mm)
        mm -= 1
    return m, undecided
