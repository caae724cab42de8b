"""Linear programmes searched in floating point (HiGHS), answered in exact rationals.

A float LP answer is never a result (STYLE.md item 1). :func:`exact_feasibility` asks
HiGHS (``highspy``, the ``lp`` extra) whether ``A x = b, x >= 0`` has a solution, then:

* feasible: the float solution's support names a vertex; the vertex is recomputed
  exactly (FLINT ``fmpq_mat`` row reduction on ``A_S x_S = b``) and checked exactly
  (``A x = b`` and ``x >= 0`` in rationals). Only a checked ``x`` is returned.
* infeasible: HiGHS's dual ray is rationalised and checked exactly as a Farkas
  certificate: ``y`` with ``y^T A >= 0`` and ``y^T b < 0`` (then no ``x >= 0`` has
  ``A x = b``: ``0 <= y^T A x = y^T b < 0``). Only a checked ``y`` is returned.

Anything that fails its exact check is reported as ``"unverified"``, never as a fact.
"""

from __future__ import annotations

import os
import sys
import threading
from dataclasses import dataclass
from fractions import Fraction
from typing import Optional, Sequence

from ..errors import CostTooHigh, InvalidArgument

__all__ = ["LPOutcome", "exact_feasibility", "check_solution", "check_farkas", "MAX_LP_SIZE", "have_lp"]

#: Largest LP (rows x columns) searched.
MAX_LP_SIZE = 4_000_000

_LOCK = threading.Lock()
_BANNER_DONE = False

Row = dict  # column index -> Fraction


def have_lp() -> bool:
    """Is the LP solver (``highspy``) installed? Guarantee: exact. Raises: nothing."""
    try:
        import highspy  # noqa: F401
    except ImportError:
        return False
    return True


def _highs():
    """A silent HiGHS instance (its first construction in a process prints a banner on the C
    stdout, which would corrupt ``--json`` output: it is sent to /dev/null)."""
    global _BANNER_DONE
    try:
        import highspy
    except ImportError:
        raise InvalidArgument("lp", "the LP solver highspy installed (pip install 'exactdp[lp]')", "not installed") from None
    with _LOCK:
        if not _BANNER_DONE:
            sys.stdout.flush()
            saved = os.dup(1)
            null = os.open(os.devnull, os.O_WRONLY)
            try:
                os.dup2(null, 1)
                h = highspy.Highs()
            finally:
                os.dup2(saved, 1)
                os.close(saved)
                os.close(null)
            _BANNER_DONE = True
        else:
            h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("solver", "simplex")
    h.setOptionValue("primal_feasibility_tolerance", 1e-10)
    h.setOptionValue("dual_feasibility_tolerance", 1e-10)
    return h


@dataclass(frozen=True, kw_only=True)
class LPOutcome:
    """``status``: ``"feasible"`` (``x`` checked exactly), ``"infeasible"`` (``farkas`` checked
    exactly) or ``"unverified"`` (the float answer ``float_status`` failed its exact check)."""

    status: str
    x: Optional[list[Fraction]]
    farkas: Optional[list[Fraction]]
    float_status: str


def check_solution(A: Sequence[Row], b: Sequence[Fraction], x: Sequence[Fraction]) -> bool:
    """``A x = b`` and ``x >= 0``, exactly. Guarantee: exact decision. Raises: nothing."""
    if any(v < 0 for v in x):
        return False
    return all(sum((c * x[j] for j, c in row.items()), Fraction(0)) == bi for row, bi in zip(A, b))


def check_farkas(A: Sequence[Row], b: Sequence[Fraction], y: Sequence[Fraction], n: int) -> bool:
    """``y`` proves ``A x = b, x >= 0`` infeasible: ``y^T A >= 0`` and ``y^T b < 0`` (or both signs
    reversed). Guarantee: exact decision. Raises: nothing."""
    col = [Fraction(0)] * n
    for yi, row in zip(y, A):
        if yi:
            for j, c in row.items():
                col[j] += yi * c
    yb = sum((yi * bi for yi, bi in zip(y, b)), Fraction(0))
    return (all(c >= 0 for c in col) and yb < 0) or (all(c <= 0 for c in col) and yb > 0)


def _exact_on_support(A: Sequence[Row], b: Sequence[Fraction], n: int, support: list[int]) -> Optional[list[Fraction]]:
    from .._backend import fmpq, fmpq_mat

    m, s = len(A), len(support)
    pos = {j: i for i, j in enumerate(support)}
    entries = []
    for row, bi in zip(A, b):
        r = [fmpq(0)] * (s + 1)
        for j, c in row.items():
            if j in pos:
                r[pos[j]] = fmpq(c.numerator, c.denominator)
        r[s] = fmpq(bi.numerator, bi.denominator)
        entries.extend(r)  # columns off the support are 0
    if m == 0:
        return [Fraction(0)] * n
    R, rank = fmpq_mat(m, s + 1, entries).rref()
    x = [Fraction(0)] * n
    for i in range(rank):
        lead = next(j for j in range(s + 1) if R[i, j] != 0)
        if lead == s:
            return None  # inconsistent on this support
        v = R[i, s]
        x[support[lead]] = Fraction(int(v.p), int(v.q))
    return x


def _farkas_lp(A: Sequence[Row], b: Sequence[Fraction], n: int) -> Optional[list[Fraction]]:
    """A Farkas certificate as a vertex of ``{y : y^T A >= 0, y^T b = -1}`` (``y = u - v``, slacks
    ``s``: ``A^T (u - v) - s = 0``, ``b^T (u - v) = -1``, all >= 0), searched and recovered exactly."""
    m = len(A)
    rows: list[dict] = [dict() for _ in range(n + 1)]
    for i, row in enumerate(A):
        for j, c in row.items():
            if c:
                rows[j][i] = c
                rows[j][m + i] = -c
    for j in range(n):
        rows[j][2 * m + j] = Fraction(-1)
    for i, bi in enumerate(b):
        if bi:
            rows[n][i] = bi
            rows[n][m + i] = -bi
    out = exact_feasibility(rows, [Fraction(0)] * n + [Fraction(-1)], 2 * m + n, _farkas=False)
    if out.status != "feasible":
        return None
    x = out.x
    assert x is not None
    y = [x[i] - x[m + i] for i in range(m)]
    return y if check_farkas(A, b, y, n) else None


def exact_feasibility(A: Sequence[Row], b: Sequence[object], n: int, *, _farkas: bool = True) -> LPOutcome:
    """Is ``{x >= 0 : A x = b}`` non-empty? Searched by HiGHS, answered exactly (module docstring).

    Guarantee: ``"feasible"`` comes with an exactly checked ``x``; ``"infeasible"`` with an exactly
    checked Farkas certificate; otherwise ``"unverified"``.

    Parameters:
        A: rows as ``{column: Fraction}``; b: right-hand sides; n: number of columns.

    Raises:
        InvalidArgument: highspy not installed, malformed rows.
        CostTooHigh: more than :data:`MAX_LP_SIZE` rows x columns.

    Examples:
        >>> F = Fraction
        >>> exact_feasibility([{0: F(1), 1: F(1)}, {0: F(1), 1: F(-1)}], [F(1), F(0)], 2).x
        [Fraction(1, 2), Fraction(1, 2)]
        >>> out = exact_feasibility([{0: F(1), 1: F(1)}, {0: F(1), 1: F(-1)}], [F(1), F(3)], 2)
        >>> out.status, check_farkas([{0: F(1), 1: F(1)}, {0: F(1), 1: F(-1)}], [F(1), F(3)], out.farkas, 2)
        ('infeasible', True)
    """
    import numpy as np

    b = [Fraction(x) for x in b]
    if len(A) != len(b):
        raise InvalidArgument("b", f"one value per row ({len(A)})", len(b))
    if len(A) * max(n, 1) > MAX_LP_SIZE:
        raise CostTooHigh("lp", f"an LP of {len(A)} rows x {n} columns is refused (limit {MAX_LP_SIZE} entries)",
                          estimate=len(A) * n, limit=MAX_LP_SIZE, alternative="a smaller mechanism")
    import highspy

    h = _highs()
    lp = highspy.HighsLp()
    lp.num_col_ = n
    lp.num_row_ = len(A)
    lp.col_cost_ = np.zeros(n)
    lp.col_lower_ = np.zeros(n)
    lp.col_upper_ = np.full(n, highspy.kHighsInf)
    bf = np.array([float(x) for x in b])
    lp.row_lower_ = bf
    lp.row_upper_ = bf.copy()
    cols: list[list[tuple[int, float]]] = [[] for _ in range(n)]
    for i, row in enumerate(A):
        for j, c in row.items():
            if not 0 <= j < n:
                raise InvalidArgument(f"A[{i}]", f"column indices in [0, {n - 1}]", j)
            if c:
                cols[j].append((i, float(c)))
    start, index, value = [0], [], []
    for c in cols:
        for i, v in c:
            index.append(i)
            value.append(v)
        start.append(len(index))
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = np.array(start, dtype=np.int32)
    lp.a_matrix_.index_ = np.array(index, dtype=np.int32)
    lp.a_matrix_.value_ = np.array(value, dtype=float)
    h.passModel(lp)
    h.run()
    status = h.modelStatusToString(h.getModelStatus())
    if status == "Optimal":
        xf = list(h.getSolution().col_value)
        for tol in (1e-9, 1e-7, 1e-11, 1e-5):
            support = [j for j, v in enumerate(xf) if v > tol]
            x = _exact_on_support(A, b, n, support)
            if x is not None and check_solution(A, b, x):
                return LPOutcome(status="feasible", x=x, farkas=None, float_status=status)
        # a float "feasible" within HiGHS's tolerances may be exactly infeasible
        y = _farkas_lp(A, b, n) if _farkas else None
        if y is not None:
            return LPOutcome(status="infeasible", x=None, farkas=y, float_status=status)
        return LPOutcome(status="unverified", x=None, farkas=None, float_status=status)
    if status == "Infeasible":
        ok, has, ray = h.getDualRay()
        if has:
            yf = list(ray)
            scale = max((abs(v) for v in yf), default=0.0) or 1.0
            for den in (10**3, 10**6, 10**9, 10**12):
                y = [Fraction(v / scale).limit_denominator(den) for v in yf]
                if check_farkas(A, b, y, n):
                    return LPOutcome(status="infeasible", x=None, farkas=y, float_status=status)
        if _farkas:
            y = _farkas_lp(A, b, n)
            if y is not None:
                return LPOutcome(status="infeasible", x=None, farkas=y, float_status=status)
        return LPOutcome(status="unverified", x=None, farkas=None, float_status=status)
    return LPOutcome(status="unverified", x=None, farkas=None, float_status=status)
