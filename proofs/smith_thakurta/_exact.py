"""Exact linear algebra over Q(sqrt 2, sqrt 3, ...) for the Cholesky steps of Smith-Thakurta.

Guarantee: exact. A :class:`Surd` is a finite sum ``sum_s c_s sqrt(s)`` over distinct
squarefree integers ``s >= 1`` with rational ``c_s``; since square roots of distinct
squarefree integers are linearly independent over Q, a Surd is zero iff every
coefficient is zero, so every equality below is decided exactly.

The Cholesky factor of a rational PSD matrix has entries ``M_ij sqrt(D_j)`` (rational
``M``, ``D``: the LDL^T decomposition), so its entries are single-term Surds and every
residual ``A_jj - sum_k L_jk^2`` met by the column recursion is rational.

Contents: :class:`Surd`; :func:`rank` (Fraction elimination); :func:`chol_forced` (the
column recursion with a prescribed set of zero columns: the only candidate for a
lower-triangular ``L`` with ``L L^T = A``, positive diagonal outside the set and zero
columns on it); :func:`canonical` (the canonical Cholesky factor as the paper defines it:
``rank(A)`` positive diagonal entries and ``T - rank(A)`` zero columns, found by trying
every zero-column set); :func:`sigma` (``I - m m^T``); :func:`footnote_factor` (the
recursion of Footnote 1, as printed or corrected).
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F
from functools import lru_cache
from math import gcd
from typing import Iterable, Optional, Sequence

from sympy import factorint

__all__ = ["Surd", "rank", "chol_forced", "canonical", "sigma", "matmul_t", "footnote_factor", "Undefined",
           "is_canonical", "forward_solve"]


@lru_cache(maxsize=None)
def _split_square(n: int) -> tuple[int, int]:
    """n = a^2 * s with s squarefree (complete factorisation)."""
    a, s = 1, 1
    for p, e in factorint(n).items():
        a *= p ** (e // 2)
        if e % 2:
            s *= p
    return a, s


class Surd:
    """An element ``sum_s c_s sqrt(s)`` of Q(sqrt 2, sqrt 3, ...) (``s`` squarefree)."""

    __slots__ = ("t",)

    def __init__(self, t: Optional[dict] = None):
        self.t = {k: v for k, v in (t or {}).items() if v != 0}

    @staticmethod
    def of(x) -> "Surd":
        if isinstance(x, Surd):
            return x
        x = F(x)
        return Surd({1: x}) if x else Surd()

    @staticmethod
    def sqrt(x) -> "Surd":
        """The non-negative square root of a rational ``x >= 0``."""
        x = F(x)
        if x < 0:
            raise ValueError(f"sqrt of a negative rational {x}")
        if x == 0:
            return Surd()
        a, s = _split_square(x.numerator * x.denominator)
        return Surd({s: F(a, x.denominator)})

    def __add__(self, o) -> "Surd":
        o = Surd.of(o)
        t = dict(self.t)
        for k, v in o.t.items():
            t[k] = t.get(k, F(0)) + v
        return Surd(t)

    __radd__ = __add__

    def __neg__(self) -> "Surd":
        return Surd({k: -v for k, v in self.t.items()})

    def __sub__(self, o) -> "Surd":
        return self + (-Surd.of(o))

    def __rsub__(self, o) -> "Surd":
        return Surd.of(o) - self

    def __mul__(self, o) -> "Surd":
        o = Surd.of(o)
        t: dict = {}
        for a, x in self.t.items():
            for b, y in o.t.items():
                g = gcd(a, b)  # sqrt(a) sqrt(b) = g sqrt((a/g)(b/g)), (a/g)(b/g) squarefree
                k = (a // g) * (b // g)
                t[k] = t.get(k, F(0)) + x * y * g
        return Surd(t)

    __rmul__ = __mul__

    def inv(self) -> "Surd":
        """1/x for a single-term x = c sqrt(s): sqrt(s)/(c s)."""
        if len(self.t) != 1:
            raise ZeroDivisionError("division by zero" if not self.t else "division by a multi-term surd")
        (s, c), = self.t.items()
        return Surd({s: 1 / (c * s)})

    def __truediv__(self, o) -> "Surd":
        return self * Surd.of(o).inv()

    def is_zero(self) -> bool:
        return not self.t

    def __eq__(self, o) -> bool:  # exact
        return (self - Surd.of(o)).is_zero()

    def __hash__(self):
        return hash(tuple(sorted(self.t.items())))

    def rational(self) -> Optional[F]:
        """The value if it is rational, else None."""
        if not self.t:
            return F(0)
        if set(self.t) == {1}:
            return self.t[1]
        return None

    def sign(self) -> int:
        """Sign of a single-term surd (exact)."""
        if not self.t:
            return 0
        if len(self.t) != 1:
            raise ValueError("sign of a multi-term surd is not needed here")
        (c,) = self.t.values()
        return 1 if c > 0 else -1

    def __repr__(self) -> str:
        if not self.t:
            return "0"
        return " + ".join(str(c) if s == 1 else f"{c}*sqrt({s})" for s, c in sorted(self.t.items()))


Matrix = list  # list of rows


def rank(A: Sequence[Sequence]) -> int:
    """Rank of a rational matrix (exact Gaussian elimination)."""
    M = [[F(x) for x in row] for row in A]
    r = 0
    n = len(M[0]) if M else 0
    for c in range(n):
        piv = next((i for i in range(r, len(M)) if M[i][c] != 0), None)
        if piv is None:
            continue
        M[r], M[piv] = M[piv], M[r]
        for i in range(len(M)):
            if i != r and M[i][c] != 0:
                f = M[i][c] / M[r][c]
                M[i] = [a - f * b for a, b in zip(M[i], M[r])]
        r += 1
    return r


def sigma(m: Sequence) -> list:
    """Sigma = I - m m^T (rational)."""
    T = len(m)
    return [[(1 if i == j else 0) - F(m[i]) * F(m[j]) for j in range(T)] for i in range(T)]


def matmul_t(L: Sequence[Sequence[Surd]], K: Optional[Sequence[Sequence[Surd]]] = None) -> list:
    """L K^T (K = L by default), entries as Surds."""
    K = L if K is None else K
    return [[sum((Surd.of(a) * Surd.of(b) for a, b in zip(ri, rk)), Surd()) for rk in K] for ri in L]


def chol_forced(A: Sequence[Sequence], zero_cols: Iterable[int]) -> Optional[list]:
    """The unique candidate lower-triangular L with L L^T = A, L_jj > 0 for j outside ``zero_cols``
    and column j zero for j in ``zero_cols``; None when no such L exists.

    Why unique: column by column, (L L^T)_jj = sum_{k<j} L_jk^2 + L_jj^2 fixes L_jj^2, hence the
    positive L_jj; then (L L^T)_ij = sum_{k<j} L_ik L_jk + L_ij L_jj fixes L_ij (i > j). A zero
    column j instead requires those residuals to vanish.
    """
    Z = set(zero_cols)
    n = len(A)
    L = [[Surd() for _ in range(n)] for _ in range(n)]
    for j in range(n):
        res = Surd.of(A[j][j]) - sum((L[j][k] * L[j][k] for k in range(j)), Surd())
        rq = res.rational()
        if rq is None:
            raise ValueError("irrational residual (the input is not rational)")
        if j in Z:
            if rq != 0:
                return None
            for i in range(j + 1, n):
                if not (Surd.of(A[i][j]) - sum((L[i][k] * L[j][k] for k in range(j)), Surd())).is_zero():
                    return None
            continue
        if rq <= 0:
            return None
        L[j][j] = Surd.sqrt(rq)
        for i in range(j + 1, n):
            L[i][j] = (Surd.of(A[i][j]) - sum((L[i][k] * L[j][k] for k in range(j)), Surd())) / L[j][j]
    return L


def canonical(A: Sequence[Sequence]) -> tuple[Optional[list], int]:
    """(the canonical Cholesky factor, number of factors found) by trying every set of
    ``T - rank(A)`` zero columns (the paper: ``rank(A)`` positive diagonal entries and
    ``T - rank(A)`` zero columns)."""
    n = len(A)
    r = rank(A)
    found = []
    for Z in itertools.combinations(range(n), n - r):
        L = chol_forced(A, Z)
        if L is not None:
            found.append(L)
    return (found[0] if found else None), len(found)


def is_canonical(L: Sequence[Sequence[Surd]], A: Sequence[Sequence]) -> bool:
    """L lower-triangular, L L^T = A, exactly rank(A) positive diagonal entries and
    n - rank(A) zero columns (exact)."""
    n = len(A)
    r = rank(A)
    if any(not L[i][j].is_zero() for i in range(n) for j in range(i + 1, n)):
        return False
    P = matmul_t(L)
    if any(not (P[i][j] - Surd.of(A[i][j])).is_zero() for i in range(n) for j in range(n)):
        return False
    pos = sum(1 for j in range(n) if not L[j][j].is_zero() and L[j][j].sign() > 0)
    zero_cols = sum(1 for j in range(n) if all(L[i][j].is_zero() for i in range(n)))
    return pos == r and zero_cols == n - r


def forward_solve(L: Sequence[Sequence[Surd]], b: Sequence) -> list:
    """x with L x = b for lower-triangular L with non-zero (single-term) diagonal."""
    x: list = []
    for k in range(len(b)):
        s = Surd.of(b[k]) - sum((L[k][j] * x[j] for j in range(k)), Surd())
        x.append(s / L[k][k])
    return x


class Undefined(Exception):
    """The printed formula is undefined at this instance (a division by zero)."""


def footnote_factor(m: Sequence, diag: str = "sqrt", degenerate: bool = True) -> list:
    """L_T built by Footnote 1's recursion
    L_i = [[L_{i-1}, 0], [-m_i (L_{i-1}^{-1} m_{i-1})^T, d_i]].

    ``diag``: ``"printed"`` takes d_i = (1 - |m_i|^2)/(1 - |m_{i-1}|^2) as printed,
    ``"sqrt"`` its square root (the correction). ``degenerate``: when |m_{i-1}| = 1
    (then m_i = 0 under the budget) use the corrected branch [[L_{i-1}, 0], [0, 1]];
    otherwise the printed formula is applied and raises :class:`Undefined`.
    """
    m = [F(x) for x in m]
    L: list = []
    for i in range(1, len(m) + 1):
        s_prev = sum(x * x for x in m[: i - 1])
        s = s_prev + m[i - 1] ** 2
        if s_prev == 1:
            if not degenerate:
                raise Undefined(f"i = {i}: |m_{i - 1}|^2 = 1, so 1 - |m_{i - 1}|^2 = 0 in the denominator "
                                f"and L_{i - 1} is singular")
            if m[i - 1] != 0:
                raise ValueError("m_i must be 0 once the budget is exhausted")
            row = [Surd() for _ in range(i - 1)] + [Surd.of(1)]
        else:
            Lp = [r[: i - 1] for r in L]
            x = forward_solve(Lp, m[: i - 1]) if i > 1 else []
            ratio = (1 - s) / (1 - s_prev)
            d = Surd.of(ratio) if diag == "printed" else Surd.sqrt(ratio)
            row = [Surd.of(-m[i - 1]) * xj for xj in x] + [d]
        L = [r + [Surd()] for r in L] + [row]
    return L
