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
from functools import lru_cache
from typing import Optional, Sequence

from .._backend import arb_poly, fmpq, fmpz_poly
from ..errors import CostTooHigh
from ..numbers import ExpNum, log_sign_of_product
from .costs import ALLOC_SLACK, MAX_LATTICE_A, Estimate, count_text, elem_bytes, value_bits
from .fields import ArbField, ExactField, Field
from .kernel import APPROX_ALTERNATIVE, Kernel, Reason, Request
from .structure import Structure

__all__ = ["Lattice", "HOMOGENEOUS", "LATTICE", "lattice_build", "lattice_eval", "homogeneous_bits"]


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
        raise TypeError(f"the lattice kernel runs in exact rationals or Arb balls, not {field.name}")

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
    (built on first use, after the exact engine's cost check) and balls to
    ``_evaluate_balls(field, t_num, t)``, the one method a subclass writes.
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


# --------------------------------------------------------------------------
# the cost model (rates measured on 2 shared cores; docs/engines.md, benchmarks)


@lru_cache(maxsize=64)
def homogeneous_bits(k: int) -> float:
    """``sum_m log2 C(k, m)``: the bits of the binomial row (about ``0.72 k^2``); cached (the
    homogeneous and the lattice kernels of one group both ask, at every choice)."""
    if k <= 1:
        return 1.0
    lg = math.lgamma
    step = max(1, k // 2000)
    tot = 0.0
    for m in range(0, k + 1, step):
        tot += (lg(k + 1) - lg(m + 1) - lg(k - m + 1)) / math.log(2) * min(step, k + 1 - m)
    return tot + 64.0 * (k + 1)


def lattice_build(groups_a: Sequence[tuple[int, int]]) -> Estimate:
    """Building ``prod (1 + z^a)^n`` over ``(a, n)`` with FLINT.

    One group (the homogeneous row and its spread-out copies): the binomial row,
    ``sum log2 C(n, m)`` bits, measured 4e-10 to 1.6e-9 s per bit (k = 6e4 to 1.3e5, on
    a loaded machine) and one copy of memory (k = 1.3e5: 1.5 GB).
    Several groups: a product tree whose multiplications pack ``A + 1`` coefficients
    of up to ``k'`` bits (``k'`` mechanisms with ``a > 0``); measured peaks: 4-5.5 bytes
    per 8 packed bits ``(A + 1)(k' + 64)`` for k' = 50..200 (ten eps on a 1e-5 lattice,
    A up to 2e6), 7.9-8.1 for k' = 1000..3000 (A up to 1.6e5); time
    ``4.4e-9 (A + 1)^1.15 (k' + 64)`` s fits every run within a factor 2.5 (above it).
    """
    gs = [(int(a), int(n)) for a, n in groups_a]
    A = sum(a * n for a, n in gs)
    kp = sum(n for a, n in gs if a > 0)
    nz = [(a, n) for a, n in gs if a > 0]
    # n0 mechanisms with a = 0 multiply every coefficient by 2^n0: n0 more bits each (eps = 0
    # x 10^9 is the integer 2^(10^9); measured peak 1.0 GB at n0 = 10^9, about 8 bytes per bit)
    n0 = sum(n for a, n in gs if a == 0)
    zbits = float(n0) * (A + 1)
    if len(nz) <= 1:
        n = nz[0][1] if nz else 0
        bits = homogeneous_bits(n) + 64.0 * (A + 1)
        return Estimate(8e-10 * (bits + zbits) + 1e-7 * (A + 1), 1.25 * bits / 8 + zbits + 16.0 * (A + 1) + ALLOC_SLACK)
    bits = float(A + 1) * (kp + 64)
    return Estimate(4.4e-9 * float(A + 1) ** 1.15 * (kp + 64) + 8e-10 * zbits, 9.0 * bits / 8 + zbits + ALLOC_SLACK)


def lattice_eval(A: int, kp: int, kind: str, prec: int, ubits: float = 0.0, coeff_bits: Optional[float] = None) -> Estimate:
    """One evaluation of the lattice kernel (two polynomial evaluations).

    Arb: the polynomial converted to balls (kept at two precisions) and a shifted
    copy, ``3 (A + 1)`` balls; measured 0.1-0.35 us per coefficient and evaluation (64-400
    bits), 0.1-0.3 us per coefficient for a conversion; the estimate, 1 us at 512 bits,
    also covers the locate phase of OptComp (up to about 20 evaluations at 64 bits).
    Exact: a copy of half the coefficients and rationals of ``A ubits`` bits; Horner
    on them, measured ``1.2e-10 A^2 ubits`` s (k = 3e4 homogeneous: 0.8 s).
    """
    n = float(A + 1)
    if kind == "exact":
        cb = coeff_bits if coeff_bits is not None else n * (kp + 64)
        num = n * max(ubits, 1.0)
        return Estimate(1.2e-10 * n * n * max(ubits, 1.0) + 1e-6 * n, 1.2 * cb / 8 + 4 * num / 8 + ALLOC_SLACK)
    return Estimate(1e-6 * n * (1 + prec / 512), 3 * n * elem_bytes("arb", prec) + ALLOC_SLACK)


# --------------------------------------------------------------------------
# the plug-ins


#: The lattice kernel has no float model: the inverse's float search evaluates it in balls at
#: 64 bits, 9 times in an OptComp (k = 1000 and 10^4 equal mechanisms; 4 more evaluations follow).
LATTICE_LOCATE_EVALS = 9


class HomogeneousKernel(Kernel):
    """Every eps_i equal: Kairouz-Oh-Viswanath's binomial sum (:class:`Lattice` with ``a = 1``)."""

    name = "homogeneous"
    alternative = "fewer mechanisms, or " + APPROX_ALTERNATIVE
    locate_evals = LATTICE_LOCATE_EVALS

    def applies(self, req: Request) -> Optional[Reason]:
        if len(req.groups) != 1:
            return Reason("'homogeneous' only when every eps_i is equal", f"{len(req.groups)} distinct eps values")
        return None

    def estimate(self, req: Request, kind: str = "arb", prec: int = 128) -> tuple[Estimate, Estimate]:
        k = req.k
        return lattice_build([(1, k)]), lattice_eval(k, k, kind, prec, value_bits(req.groups[0][0]))

    def describe(self, req: Request) -> str:
        k = req.k
        return f"the homogeneous count polynomial of {k} mechanisms ({k + 1} binomials of up to {k} bits)"

    def build(self, req: Request) -> Structure:
        return Lattice.from_groups(req.groups[0][0], [(1, req.k)], "homogeneous")


class LatticeKernel(Kernel):
    """``w_i = u^(a_i)``: the exact count polynomial ``prod (1 + z^(a_i))``."""

    name = "lattice"
    alternative = "method='mitm', or " + APPROX_ALTERNATIVE
    locate_evals = LATTICE_LOCATE_EVALS

    def applies(self, req: Request) -> Optional[Reason]:
        if req.lattice is None:
            return Reason("'lattice' only when every e^eps_i is an integer power of one common base",
                          "incommensurable eps values")
        return None

    def offered(self, req: Request) -> bool:
        return req.lattice is not None and req.degree() <= MAX_LATTICE_A

    def check_size(self, req: Request) -> None:
        A = req.degree()
        if A > MAX_LATTICE_A:
            alt = "method='mitm' or exactdp approx"
            raise CostTooHigh("method", f"the lattice polynomial would have degree {count_text(A)} (limit {MAX_LATTICE_A}); use {alt}",
                              estimate=A, limit=MAX_LATTICE_A, alternative=alt)

    def estimate(self, req: Request, kind: str = "arb", prec: int = 128) -> tuple[Estimate, Estimate]:
        ga = req.exponent_groups()
        A = sum(x * n for x, n in ga)
        kp = sum(n for x, n in ga if x > 0)
        return lattice_build(ga), lattice_eval(A, kp, kind, prec, value_bits(req.lattice[0]))

    def describe(self, req: Request) -> str:
        u, a = req.lattice
        nonzero = sum(n for ai, (_, n) in zip(a, req.groups) if ai)
        return f"the lattice count polynomial ({req.degree() + 1} coefficients of up to {nonzero} bits)"

    def build(self, req: Request) -> Structure:
        return Lattice.from_groups(req.lattice[0], req.exponent_groups())


HOMOGENEOUS = HomogeneousKernel()
LATTICE = LatticeKernel()
