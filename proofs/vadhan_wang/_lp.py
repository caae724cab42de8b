"""A small exact LP feasibility solver (phase-1 simplex over the rationals, Bland's rule).

Used to *search* for the post-processings of Theorem 5.1 and of the Section 6 experiment;
every point it returns is re-verified by the callers against the constraints exactly as the
paper prints them, so a solver bug cannot pass a false witness. Infeasibility is reported
with the exact phase-1 optimum (> 0) as evidence.

Guarantee: exact (Fractions).
"""

from __future__ import annotations

from fractions import Fraction as F
from typing import List, Optional, Sequence, Tuple


def feasible(n: int, A_eq: Sequence[Sequence[F]] = (), b_eq: Sequence[F] = (),
             A_ub: Sequence[Sequence[F]] = (), b_ub: Sequence[F] = ()) -> Tuple[Optional[List[F]], F]:
    """A point ``x >= 0`` (length n) with ``A_eq x = b_eq`` and ``A_ub x <= b_ub``, or None; and the phase-1 optimum.

    The phase-1 optimum is the least total violation ``sum |residual|`` reachable, 0 iff feasible."""
    rows: List[List[F]] = []
    basis: List[int] = []
    m_ub = len(A_ub)
    n_slack = m_ub
    # columns: x (n), slacks (m_ub), artificials (one per row that needs one)
    art_rows = []
    raw = []
    for i, (r, b) in enumerate(zip(A_ub, b_ub)):
        row = [F(v) for v in r] + [F(int(j == i)) for j in range(n_slack)]
        raw.append((row, F(b)))
    for r, b in zip(A_eq, b_eq):
        raw.append(([F(v) for v in r] + [F(0)] * n_slack, F(b)))
    n_art = 0
    for i, (row, b) in enumerate(raw):
        if b < 0:
            row, b = [-v for v in row], -b
        needs_art = not (i < m_ub and row[n + i] == 1)
        raw[i] = (row, b, needs_art)
        n_art += needs_art
    ncol = n + n_slack + n_art
    a_idx = n + n_slack
    for i, (row, b, needs_art) in enumerate(raw):
        full = row + [F(0)] * n_art
        if needs_art:
            full[a_idx] = F(1)
            basis.append(a_idx)
            art_rows.append(i)
            a_idx += 1
        else:
            basis.append(n + i)
        rows.append(full + [b])
    # phase-1 objective: minimise the sum of artificials; reduced costs z
    z = [F(0)] * (ncol + 1)
    for j in range(n + n_slack, ncol):
        z[j] = F(1)
    for i in art_rows:
        z = [zj - rj for zj, rj in zip(z, rows[i])]
    while True:
        e = next((j for j in range(ncol) if z[j] < 0), None)
        if e is None:
            break
        best = None
        for i, row in enumerate(rows):
            if row[e] > 0:
                ratio = row[-1] / row[e]
                if best is None or ratio < best[0] or (ratio == best[0] and basis[i] < basis[best[1]]):
                    best = (ratio, i)
        if best is None:
            raise AssertionError("phase-1 objective unbounded (impossible)")
        r = best[1]
        pv = rows[r][e]
        if pv != 1:
            rows[r] = [v / pv for v in rows[r]]
        pr = rows[r]
        for i in range(len(rows)):
            f = rows[i][e]
            if i != r and f != 0:
                rows[i] = [a - f * b for a, b in zip(rows[i], pr)]
        f = z[e]
        z = [a - f * b for a, b in zip(z, pr)]
        basis[r] = e
    opt = -z[-1]
    if opt != 0:
        return None, opt
    x = [F(0)] * n
    for i, bv in enumerate(basis):
        if bv < n:
            x[bv] = rows[i][-1]
    return x, F(0)
