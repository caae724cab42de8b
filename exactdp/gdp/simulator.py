"""The online simulator F* of Smith-Thakurta's proof of Theorem 1, and its Cholesky factor.

Setting (the proof, with ``mu_0 = 1`` after rescaling ``m_i = mu_i / mu_0``): from one draw
``W_0 ~ N(b, 1)`` and fresh ``V_i ~ N(0, 1)``, answer adaptively chosen ``m_1, m_2, ...``
(``sum m_i^2 <= 1``) with ``W_i = m_i W_0 + U_i``, where ``U_i`` is the last entry of
``L_i (V_1, ..., V_i)`` and ``L_i`` is the canonical Cholesky factor of
``Sigma_i = I - m m^T`` (restricted to the first i queries). Then, for every b and every
adaptive analyst, the transcript ``W_1, ..., W_T`` is distributed as the answers
``H_i = b m_i + Z_i`` of the real mechanism; hence the filter is mu_0-GDP.

The factor in closed form. With ``r_j = 1 - (m_1^2 + ... + m_j^2)`` (``r_0 = 1``),

    L_jj = sqrt(r_j / r_{j-1}),    L_ij = -m_i m_j / sqrt(r_{j-1} r_j)   (i > j),

that is ``L = R diag(sqrt(c))`` with the rational ``R_jj = r_j``, ``R_ij = -m_i m_j`` and
``c_j = 1 / (r_{j-1} r_j)``, so that ``L L^T = R diag(c) R^T`` is checked in exact rational
arithmetic. Degenerate columns (the prefix reaches norm 1 at query j, which the filter
allows): ``r_j = 0 < r_{j-1}`` gives a zero column (``L_jj = 0``), and every later query
has ``m_i = 0`` and an identity column (``L_ii = 1``); the factor then has
``rank(Sigma)`` positive diagonal entries and zero columns elsewhere (canonical).

Erratum (Smith-Thakurta Footnote 1). The printed recursion

    L_i = [[L_{i-1}, 0], [-m_i (L_{i-1}^-1 m_{i-1})^T, (1 - |m_i|^2) / (1 - |m_{i-1}|^2)]]

has the right last row off the diagonal, but its diagonal entry must be the square root
of the printed ratio (the Schur complement is the ratio): for ``m = (1/2)`` it gives
``L_1 = 3/4`` and ``L_1 L_1^T = 9/16 != 3/4 = Sigma_1``. It is also undefined (0/0 and a
singular ``L_{i-1}``) after a prefix of norm 1; the corrected form above covers it.

The online form needs O(1) work per query: ``U_i = -m_i A_{i-1} + L_ii V_i`` with the
running sum ``A_i = A_{i-1} + m_i V_i / sqrt(r_{i-1} r_i)``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Optional, Sequence

from ..errors import InvalidArgument
from ..links import implements
from ..numbers import Enclosure, parse_list, parse_rational
from .conversions import sqrt_enclosure

__all__ = ["CholeskyFactor", "cholesky_factor", "cholesky_factor_symbolic", "sigma_matrix", "OnlineSimulator",
           "MAX_FACTOR_SIZE"]

#: Largest T for the exact factor (T^2 rational entries).
MAX_FACTOR_SIZE = 2000

#: Slack allowed on the budget of floating-point queries in the simulator (sum m_i^2 <= 1 + this).
FLOAT_SLACK = 1e-12


def _parts(m: Sequence[Any], is_zero: Callable[[Any], bool], one: Any) -> tuple[list[list[Any]], list[Any], list[Any]]:
    """``(R, c, r)`` of the canonical factor ``L = R diag(sqrt(c))`` over any field (rationals,
    sympy expressions), with ``r_j = 1 - m_1^2 - ... - m_j^2`` (``r[0] = 1``, ``r[j+1] = r_j``);
    ``is_zero`` decides ``r_j = 0`` (the degenerate columns)."""
    T = len(m)
    zero = one - one
    R = [[zero] * T for _ in range(T)]
    c = [zero] * T
    rs = [one]
    for j in range(T):
        r_prev = rs[-1]
        r = r_prev - m[j] * m[j]
        if is_zero(r_prev):
            R[j][j] = one  # after a prefix of norm 1: m_j = 0, an identity column
            c[j] = one
        elif is_zero(r):
            c[j] = zero  # the prefix reaches norm 1 here: a zero column
        else:
            R[j][j] = r
            for i in range(j + 1, T):
                R[i][j] = -m[i] * m[j]
            c[j] = one / (r_prev * r)
        rs.append(r)
    return R, c, rs


def _parse_m(m: object, name: str = "m") -> list[Fraction]:
    items = parse_list(m, name)
    if len(items) > MAX_FACTOR_SIZE:
        from ..errors import CostTooHigh

        raise CostTooHigh(name, f"T = {len(items)} queries: the exact factor has T^2 entries (limit T = {MAX_FACTOR_SIZE})",
                          estimate=len(items) ** 2, limit=MAX_FACTOR_SIZE**2, alternative="OnlineSimulator (O(1) per query)")
    out = [parse_rational(x, f"{name}[{i}]") for i, x in enumerate(items)]
    s = sum(x * x for x in out)
    if s > 1:
        raise InvalidArgument(name, "a vector of rationals with sum m_i^2 <= 1", f"sum m_i^2 = {s}")
    return out


class CholeskyFactor:
    """The canonical Cholesky factor ``L = R diag(sqrt(c))`` of ``I - m m^T`` (exact).

    Guarantee: exact (``R`` and ``c`` are rationals; an entry is exact when rational, else
    an enclosure). Built by :func:`cholesky_factor`.
    """

    __slots__ = ("m", "R", "c")

    def __init__(self, m: tuple, R: tuple, c: tuple):
        self.m, self.R, self.c = m, R, c

    @property
    def size(self) -> int:
        return len(self.m)

    @property
    def rank(self) -> int:
        """The number of nonzero columns (= rank of ``I - m m^T``)."""
        return sum(1 for j in range(self.size) if self.c[j] != 0 and self.R[j][j] != 0)

    def entry(self, i: int, j: int, digits: int = 30) -> Enclosure:
        """``L[i][j]`` (0-based): exact when rational, else an enclosure to ``digits``. Guarantee: as said."""
        x = self.R[i][j]
        if x == 0 or self.c[j] == 0:
            return Enclosure.point(0)
        s = sqrt_enclosure(self.c[j], digits + 2)
        if s.exact is not None:
            return Enclosure.point(x * s.exact)
        lo, hi = sorted((x * s.lower, x * s.upper))
        return Enclosure(lo, hi)

    def gram(self) -> list[list[Fraction]]:
        """``L L^T`` in exact rational arithmetic: ``sum_j R_ij R_kj c_j``. Guarantee: exact."""
        T = self.size
        return [[sum((self.R[i][j] * self.R[k][j] * self.c[j] for j in range(min(i, k) + 1)), Fraction(0))
                 for k in range(T)] for i in range(T)]

    def to_sympy(self):
        """``L`` as a sympy Matrix with exact square roots. Guarantee: exact."""
        import sympy as sp

        T = self.size
        return sp.Matrix(T, T, lambda i, j: sp.Rational(self.R[i][j]) * sp.sqrt(sp.Rational(self.c[j])))

    def to_numpy(self):
        """``L`` as a float array (each entry rounded once). Guarantee: approximate (double precision)."""
        import numpy as np

        T = self.size
        out = np.zeros((T, T))
        for j in range(T):
            if self.c[j] == 0:
                continue
            sc = float(self.c[j]) ** 0.5
            for i in range(j, T):
                out[i, j] = float(self.R[i][j]) * sc
        return out


@implements("Smith-Thakurta Footnote 1")
def cholesky_factor(m: object) -> CholeskyFactor:
    """The canonical Cholesky factor of ``Sigma = I - m m^T`` for ``|m| <= 1``, exactly.

    Guarantee: exact: ``L = R diag(sqrt(c))`` with rational ``R``, ``c`` (module docstring);
    ``L L^T = Sigma`` holds exactly (``.gram()``), L is lower triangular with ``rank(Sigma)``
    positive diagonal entries and zero columns elsewhere. This is Smith-Thakurta Footnote 1
    corrected (a square root on the diagonal; the norm-1 prefix handled).

    Parameters:
        m: the rescaled queries ``m_i = mu_i / mu_0`` (rationals; a float is taken exactly)
            with ``sum m_i^2 <= 1``.

    Raises:
        InvalidArgument: malformed entries, an empty list, or ``sum m_i^2 > 1``.
        CostTooHigh: more than :data:`MAX_FACTOR_SIZE` queries.

    Examples:
        >>> L = cholesky_factor([Fraction(1, 2), Fraction(1, 2)])
        >>> L.entry(0, 0), L.entry(1, 0), L.entry(1, 1)      # sqrt(3)/2, -1/(2 sqrt 3), sqrt(2/3)
        (Enclosure(0.86602540378443864, 0.86602540378443865), Enclosure(-0.28867513459481289, -0.28867513459481288), Enclosure(0.81649658092772603, 0.81649658092772604))
        >>> L.gram() == sigma_matrix([Fraction(1, 2), Fraction(1, 2)])
        True
        >>> F = cholesky_factor([Fraction(3, 5), Fraction(4, 5), 0])   # norm 1 at query 2
        >>> [F.entry(i, i) for i in range(3)], F.rank
        ([Enclosure.point(4/5), Enclosure.point(0), Enclosure.point(1)], 2)

    References: Smith-Thakurta Footnote 1 (corrected), proof of Theorem 1.
    """
    mm = _parse_m(m)
    R, c, _ = _parts(mm, lambda x: x == 0, Fraction(1))
    return CholeskyFactor(tuple(mm), tuple(tuple(row) for row in R), tuple(c))


def cholesky_factor_symbolic(m: Sequence[Any]):
    """The canonical factor of ``I - m m^T`` for sympy expressions ``m`` (generic case:
    every prefix of norm < 1), as a sympy Matrix.

    Guarantee: exact (symbolic), valid where every ``r_j = 1 - m_1^2 - ... - m_j^2 > 0``.
    Raises: nothing (sympy errors for non-expressions).

    Examples:
        >>> import sympy as sp
        >>> a, b = sp.symbols("a b", positive=True)
        >>> cholesky_factor_symbolic([a, b])[1, 1]
        sqrt(-a**2 - b**2 + 1)/sqrt(1 - a**2)
    """
    import sympy as sp

    R, _, r = _parts(list(m), lambda x: False, sp.Integer(1))
    T = len(m)
    # sqrt(c_j) = 1 / (sqrt(r_{j-1}) sqrt(r_j)) for positive r: the same factor, in a form sympy keeps readable
    return sp.Matrix(T, T, lambda i, j: R[i][j] / (sp.sqrt(r[j]) * sp.sqrt(r[j + 1])))


def sigma_matrix(m: Sequence[Any]) -> list[list[Any]]:
    """``I - m m^T`` as a list of rows (exact for rationals). Guarantee: exact. Raises: nothing."""
    T = len(m)
    one = Fraction(1) if all(isinstance(x, (int, Fraction)) for x in m) else 1
    return [[(one if i == k else 0) - m[i] * m[k] for k in range(T)] for i in range(T)]


class OnlineSimulator:
    """F*: simulate the answers of the adaptive Gaussian mechanism from one draw ``W_0``.

    Given ``w0 = b mu_0 + Z_0`` (one number, or an array of independent runs) and the
    adaptively chosen ``mu_i``, :meth:`answer` returns ``W_i = (mu_i/mu_0) W_0 + U_i``,
    distributed (given the past) as ``N(b mu_i, 1)``: the answer of the real mechanism.
    O(1) work per query and run (module docstring).

    Guarantee: approximate (double precision sampling); the budget of a scalar rational
    query stream is tracked exactly (the norm-1 case is decided exactly), an array stream
    in floating point with a slack of 1e-12.

    Parameters:
        w0: the draw ``W_0`` (a float or a 1-d NumPy array of runs).
        mu_0: the budget (a rational >= 0).
        seed: seeds the generator of the ``V_i`` (``numpy.random.default_rng(seed)``).
        rng: the generator of the ``V_i`` itself (instead of ``seed``).

    Raises:
        InvalidArgument: bad mu_0 or w0.

    Examples:
        >>> sim = OnlineSimulator(1.0, mu_0=1)                  # W_0 = 1; the V_i given, to show the arithmetic
        >>> sim.answer(Fraction(3, 5), v=0.5)                   # 3/5 * 1 + sqrt(1 - 9/25) * 0.5
        1.0
        >>> round(sim.answer(Fraction(4, 5), v=0.5), 12)        # 4/5 - (4/5)(3/5)(0.5)/(4/5) + 0 * 0.5: norm 1 reached
        0.5
        >>> sim.answer(0, v=0.5), sim.remaining                 # budget exhausted: U_3 = V_3
        (0.5, Fraction(0, 1))

    References: Smith-Thakurta, proof of Theorem 1 (algorithm F*) and Footnote 1 (corrected).
    """

    def __init__(self, w0: Any, mu_0: object, *, seed: Optional[int] = None, rng: Any = None):
        import numpy as np

        self._mu0 = parse_rational(mu_0, "mu_0", expected="a rational number >= 0")
        if self._mu0 < 0:
            raise InvalidArgument("mu_0", "a rational number >= 0", mu_0)
        w = np.asarray(w0, dtype=float)
        if w.ndim > 1 or not np.all(np.isfinite(w)):
            raise InvalidArgument("w0", "a finite number or a 1-d array of finite numbers", f"shape {w.shape}")
        self._scalar = w.ndim == 0
        self._w0 = np.atleast_1d(w)
        n = self._w0.shape[0]
        self._rng = rng if rng is not None else np.random.default_rng(seed)
        self._r = np.ones(n)  # 1 - sum m_j^2 per run
        self._A = np.zeros(n)  # sum_j m_j V_j / sqrt(r_{j-1} r_j)
        self._r_exact: Optional[Fraction] = Fraction(1)  # while every query is a scalar rational
        self.rounds = 0

    @property
    def remaining(self):
        """``1 - sum m_i^2`` so far (exact Fraction for scalar rational queries, else a float array)."""
        return self._r_exact if self._r_exact is not None else self._r.copy()

    @implements("Smith-Thakurta Theorem 1", "Smith-Thakurta Footnote 1")
    def answer(self, mu_i: Any, v: Any = None) -> Any:
        """The simulated answer to a query of budget ``mu_i`` (a rational, or an array per run).

        ``v``: the fresh standard normals ``V_i`` (default: drawn from the generator); given
        explicitly they make the simulation a deterministic function (for checks).

        Guarantee: approximate (double precision). Raises: InvalidArgument when the query
        exceeds the budget (``sum m_i^2 > 1``) or is negative.
        """
        import numpy as np

        n = self._w0.shape[0]
        scalar_q = np.ndim(mu_i) == 0
        if scalar_q:
            mq = parse_rational(mu_i, "mu_i", expected="a rational number >= 0")
            if mq < 0:
                raise InvalidArgument("mu_i", "a rational number >= 0", mu_i)
            if self._mu0 == 0:
                if mq != 0:
                    raise InvalidArgument("mu_i", "0 (the budget mu_0 is 0)", mu_i)
                m_exact: Optional[Fraction] = Fraction(0)
            else:
                m_exact = mq / self._mu0
            m = np.full(n, float(m_exact))
        else:
            m_exact = None
            mu_arr = np.asarray(mu_i, dtype=float)
            if mu_arr.shape != (n,) or not np.all(np.isfinite(mu_arr)) or np.any(mu_arr < 0):
                raise InvalidArgument("mu_i", f"a number or an array of {n} finite numbers >= 0", f"shape {mu_arr.shape}")
            if self._mu0 == 0:
                if np.any(mu_arr != 0):
                    raise InvalidArgument("mu_i", "0 (the budget mu_0 is 0)", "a nonzero entry")
                m = np.zeros(n)
            else:
                m = mu_arr / float(self._mu0)
        r_prev = self._r
        if self._r_exact is not None and m_exact is not None:
            r_ex = self._r_exact - m_exact * m_exact
            if r_ex < 0:
                raise InvalidArgument("mu_i", "within the budget (sum mu_i^2 <= mu_0^2)", mu_i)
            r_new = np.full(n, float(r_ex))
            exhausted_before = np.full(n, self._r_exact == 0)
            exhausted_now = np.full(n, r_ex == 0)
            self._r_exact = r_ex
        else:
            self._r_exact = None
            r_new = r_prev - m * m
            if np.any(r_new < -FLOAT_SLACK):
                raise InvalidArgument("mu_i", "within the budget (sum mu_i^2 <= mu_0^2)", "a run over budget")
            r_new = np.maximum(r_new, 0.0)
            exhausted_before = r_prev <= 0
            exhausted_now = r_new <= 0
        V = self._rng.standard_normal(n) if v is None else np.broadcast_to(np.asarray(v, dtype=float), (n,))
        with np.errstate(divide="ignore", invalid="ignore"):
            d = np.where(exhausted_before, 1.0, np.sqrt(np.where(exhausted_before, 1.0, r_new / np.where(r_prev > 0, r_prev, 1.0))))
            s = np.where(exhausted_before | exhausted_now, 0.0, 1.0 / np.sqrt(np.where(r_prev * r_new > 0, r_prev * r_new, 1.0)))
        U = np.where(exhausted_before, V, -m * self._A + d * V)
        self._A = self._A + m * s * V
        self._r = r_new
        self.rounds += 1
        W = m * self._w0 + U
        return float(W[0]) if self._scalar else W
