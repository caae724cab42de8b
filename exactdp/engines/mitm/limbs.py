"""Fixed-point limb arithmetic of meet in the middle's vector form (numpy, exact integers).

Values are fixed-point integers ``floor(P 2^F)`` (``F = 16 L``) held as L little-endian 16-bit
limbs; each is a lower bound within a counted number of units. Sums over pairs are exact
integers: limb products are summed in float64 matrix products whose every partial sum is an
integer below 2^53 (so exact, in any order, on any number of threads), which is also why a
chunked or distributed sum is identical to the serial one. Guarantee: exact (as each
function says). Raises: nothing.
"""

from __future__ import annotations

from typing import Optional, Sequence

from ..._backend import np

__all__ = ["VEC_CHUNK", "one_blas_thread", "floor_fixed", "limbs_of", "from_limbs", "mul_outer", "limb_dot", "limb_colsum"]

#: Left classes per chunk: a float64 matrix product over a chunk sums ``chunk`` products of
#: two 16-bit limbs, ``< chunk 2^32 <= 2^53``, exactly.
VEC_CHUNK = 1 << 16


def one_blas_thread():
    """One BLAS thread for the block (threadpoolctl when installed): the limb products are many
    thin matrix products, 3 to 15 times slower when OpenBLAS splits each over busy cores
    (measured on the 2-core machine). Dask workers run with one thread already."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - an optional speed-up
        from contextlib import nullcontext

        return nullcontext()
    return threadpool_limits(limits=1, user_api="blas")


def floor_fixed(x, F: int) -> int:
    """``floor(lower(x) 2^F)`` for a ball ``x`` (an integer lower bound of ``x 2^F``), at least 0."""
    m, e = x.lower().mid().man_exp()
    m, e = int(m), int(e) + F
    v = m << e if e >= 0 else m >> -e
    return max(v, 0)


def limbs_of(v: int, L: int) -> list[int]:
    return [(v >> (16 * i)) & 0xFFFF for i in range(L)]


def from_limbs(row) -> int:
    v = 0
    for i, x in enumerate(row.tolist()):
        v |= int(x) << (16 * i)
    return v


def _mul_table(cs: Sequence[Sequence[int]], L: int) -> np.ndarray:
    """The float64 matrix taking a row of L limbs to the product columns ``L - 2 .. 2L - 2`` of
    its products with each constant of ``cs`` (``L + 1`` columns per constant)."""
    T = np.zeros((L, (L + 1) * len(cs)), dtype=np.float64)
    for r, c in enumerate(cs):
        for i in range(L):
            for j in range(L):
                k = i + j - (L - 2)
                if k >= 0:
                    T[i, r * (L + 1) + k] += c[j]
    return T


def _carry(cols: np.ndarray, L: int) -> np.ndarray:
    """Limbs ``L .. 2L - 1`` of a product from its columns ``L - 2 .. 2L - 2`` (rows of L + 1)."""
    mask, s16 = np.uint64(0xFFFF), np.uint64(16)
    cols = cols.astype(np.uint64)
    out = np.empty((len(cols), L), dtype=np.uint16)
    carry = ((cols[:, 0] >> s16) + cols[:, 1]) >> s16
    for k in range(2, L + 1):
        v = cols[:, k] + carry
        out[:, k - 2] = (v & mask).astype(np.uint16)
        carry = v >> s16
    out[:, L - 1] = carry.astype(np.uint16)
    return out


def mul_outer(x: np.ndarray, cs: np.ndarray, L: int, out: Optional[np.ndarray] = None,
               where: Optional[np.ndarray] = None) -> np.ndarray:
    """Rows ``x`` (n x L limbs, values < 2^F) times each row of ``cs`` (m x L, < 2^F): the m blocks
    ``floor(x c / 2^F)``, each row less at most 2 units (the columns below ``L - 2`` are dropped,
    under ``(L - 2) 2^-16`` of a unit in all, and the floor loses under one): lower bounds.
    Exact float64: a column sums at most L products of two 16-bit limbs. Row ``i`` of the
    result goes to ``out[where[i]]`` when ``where`` is given (the sorted position)."""
    n = len(x)
    if out is None:
        out = np.empty((n * len(cs), L), dtype=np.uint16)
    per = max(1, VEC_CHUNK // max(n, 1))
    xf = x.astype(np.float64) if n <= VEC_CHUNK else None
    for r0 in range(0, len(cs), per):
        blk = cs[r0:r0 + per].tolist()
        T = _mul_table(blk, L)
        for s in range(0, n, VEC_CHUNK):
            xs = xf if xf is not None else x[s:s + VEC_CHUNK].astype(np.float64)
            cols = (xs @ T).reshape(len(xs), len(blk), L + 1).transpose(1, 0, 2).reshape(-1, L + 1)
            res = _carry(cols, L).reshape(len(blk), len(xs), L)
            for r in range(len(blk)):
                lo = (r0 + r) * n + s
                if where is None:
                    out[lo:lo + len(xs)] = res[r]
                else:
                    out[where[lo:lo + len(xs)]] = res[r]
    return out


def limb_dot(A: np.ndarray, B: np.ndarray) -> int:
    """``sum_r value(A[r]) value(B[r])`` exactly (rows of 16-bit limbs, at most VEC_CHUNK rows)."""
    if len(A) == 0:
        return 0
    M = A.astype(np.float64).T @ B.astype(np.float64)
    tot = 0
    for i in range(M.shape[0]):
        for j in range(M.shape[1]):
            v = int(M[i, j])
            if v:
                tot += v << (16 * (i + j))
    return tot


def limb_colsum(A: np.ndarray) -> int:
    """``sum_r value(A[r])`` exactly."""
    s = A.astype(np.uint64).sum(axis=0)
    return sum(int(v) << (16 * i) for i, v in enumerate(s.tolist()))
