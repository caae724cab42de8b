"""Exact LP feasibility (rational simplex) and Blackwell post-processings between finite pairs.

The simplex is only the search: every kernel it returns is checked again by
:func:`is_kernel_between` (plain exact matrix products), and only that check decides.
No floating point anywhere (the project does not depend on scipy; see the report).

Guarantee: exact (Fractions).
"""

from __future__ import annotations

from fractions import Fraction as F
from typing import Dict, List, Optional, Sequence, Tuple

from . import _tradeoff as T

ZERO, ONE = F(0), F(1)


def feasible(A: List[List[F]], b: List[F]) -> Optional[List[F]]:
    """A solution x >= 0 of A x = b, or None: phase 1 of the simplex method with artificial
    variables and Bland's rule (no cycling), in exact rational arithmetic."""
    m = len(A)
    n = len(A[0]) if m else 0
    rows = []
    for i in range(m):
        r = [F(v) for v in A[i]]
        bi = F(b[i])
        if bi < 0:
            r = [-v for v in r]
            bi = -bi
        rows.append(r + [ONE if k == i else ZERO for k in range(m)] + [bi])
    basis = [n + i for i in range(m)]
    width = n + m
    # objective: minimise the sum of artificials; reduced-cost row = -(sum of rows) on x columns
    obj = [ZERO] * (width + 1)
    for r in rows:
        for j in range(n):
            obj[j] -= r[j]
        obj[width] -= r[width]
    while True:
        enter = next((j for j in range(width) if obj[j] < 0), None)
        if enter is None:
            break
        best = None
        for i, r in enumerate(rows):
            if r[enter] > 0:
                ratio = r[width] / r[enter]
                if best is None or ratio < best[0] or (ratio == best[0] and basis[i] < basis[best[1]]):
                    best = (ratio, i)
        if best is None:  # unbounded direction cannot occur in phase 1 (objective >= 0)
            break
        i = best[1]
        piv = rows[i][enter]
        pr = [v / piv for v in rows[i]]
        rows[i] = pr
        nz = [j for j, v in enumerate(pr) if v]
        for k, r in enumerate(rows):
            if k != i and r[enter]:
                c = r[enter]
                for j in nz:
                    r[j] -= c * pr[j]
        if obj[enter]:
            c = obj[enter]
            for j in nz:
                obj[j] -= c * pr[j]
        basis[i] = enter
    if obj[width] != 0:
        return None
    x = [ZERO] * n
    for i, bv in enumerate(basis):
        if bv < n:
            x[bv] = rows[i][width]
    return x


def is_kernel_between(src: Sequence[Tuple[F, F]], K, dst: Sequence[Tuple[F, F]]) -> bool:
    """K is a Markov kernel (rows: outcomes of src) with src K = dst for both distributions."""
    if len(K) != len(src):
        return False
    for row in K:
        if len(row) != len(dst) or any(v < 0 for v in row) or sum(row) != 1:
            return False
    for j in range(len(dst)):
        if sum((src[i][0] * K[i][j] for i in range(len(src))), ZERO) != dst[j][0]:
            return False
        if sum((src[i][1] * K[i][j] for i in range(len(src))), ZERO) != dst[j][1]:
            return False
    return True


def kernel_lp(src: Sequence[Tuple[F, F]], dst: Sequence[Tuple[F, F]]) -> Optional[List[List[F]]]:
    """A Markov kernel K with src K = dst (both coordinates), by the exact LP, or None."""
    m, n = len(src), len(dst)
    A, b = [], []
    for i in range(m):  # rows sum to one
        A.append([ONE if v // n == i else ZERO for v in range(m * n)])
        b.append(ONE)
    for c in (0, 1):
        for j in range(n):
            A.append([src[v // n][c] if v % n == j else ZERO for v in range(m * n)])
            b.append(dst[j][c])
    x = feasible(A, b)
    if x is None:
        return None
    return [[x[i * n + j] for j in range(n)] for i in range(m)]


def _groups(dst: Sequence[Tuple[F, F]]):
    """Outcomes of dst grouped by likelihood ratio (its canonical form) and the splitting kernel."""
    keys: Dict[object, List[int]] = {}
    for j, (p, q) in enumerate(dst):
        if p == 0 and q == 0:
            continue
        key = "inf" if p == 0 else q / p
        keys.setdefault(key, []).append(j)
    groups = list(keys.values())
    grouped = [(sum((dst[j][0] for j in g), ZERO), sum((dst[j][1] for j in g), ZERO)) for g in groups]
    split = []
    for g, (P, Q) in zip(groups, grouped):
        row = [ZERO] * len(dst)
        for j in g:
            row[j] = dst[j][0] / P if P else dst[j][1] / Q
        split.append(row)
    return grouped, split


def blackwell_kernel(src: Sequence[Tuple[F, F]], dst: Sequence[Tuple[F, F]]) -> Optional[List[List[F]]]:
    """Theorem 3.2 (2): a post-processing K with src K = dst, found by the exact LP from src to the
    likelihood-ratio classes of dst, then split within classes; verified exactly before it is returned."""
    grouped, split = _groups(dst)
    K1 = kernel_lp(src, grouped)
    if K1 is None:
        return None
    K = [[sum((K1[i][k] * split[k][j] for k in range(len(grouped))), ZERO) for j in range(len(dst))]
         for i in range(len(src))]
    if not is_kernel_between(src, K, dst):
        raise AssertionError("LP witness failed exact verification")
    return K


def compose(K1, K2):
    return [[sum((K1[i][k] * K2[k][j] for k in range(len(K2))), ZERO) for j in range(len(K2[0]))]
            for i in range(len(K1))]


def dominated(f: T.TF, dst: Sequence[Tuple[F, F]]):
    """A kernel from the canonical pair of f to dst (exists iff T(dst) >= f, Theorem 3.2)."""
    return blackwell_kernel(T.canonical(f), dst)


def couple(f: T.TF, X: Sequence[Tuple[F, F]], Y: Sequence[Tuple[F, F]]):
    """Lemma 3.1's proof: kernels P_0, P_1 from the canonical pair (P, P') of f to (X, X') and (Y, Y');
    the couplings (P_0(P), P_1(P)) and (P_0(P'), P_1(P')) as pairs indexed by (i, j). None if a
    kernel does not exist."""
    src = T.canonical(f)
    K0, K1 = blackwell_kernel(src, X), blackwell_kernel(src, Y)
    if K0 is None or K1 is None:
        return None
    out = {}
    for k, (p, q) in enumerate(src):
        for i, a in enumerate(K0[k]):
            if not a:
                continue
            for j, b in enumerate(K1[k]):
                if b:
                    u, v = out.get((i, j), (ZERO, ZERO))
                    out[(i, j)] = (u + p * a * b, v + q * a * b)
    return out


def marginals(joint, nx: int, ny: int):
    X = [(sum((v[0] for (i, j), v in joint.items() if i == a), ZERO), sum((v[1] for (i, j), v in joint.items() if i == a), ZERO))
         for a in range(nx)]
    Y = [(sum((v[0] for (i, j), v in joint.items() if j == b), ZERO), sum((v[1] for (i, j), v in joint.items() if j == b), ZERO))
         for b in range(ny)]
    return X, Y
