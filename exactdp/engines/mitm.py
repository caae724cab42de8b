"""The meet-in-the-middle kernel for arbitrary values: ``O(k 2^(k/2))`` at worst.

The mechanisms (as groups: a distinct value ``v_j`` with its count ``n_j``) are split
into two halves, each group's count shared between them. Each half is a list of
*classes*: subsets of the half counted up to which copies of a value they take,
then merged when their likelihood ratios ``W_X / W_notX`` are equal *exactly*
(:func:`ratio_keys`). A subset ``S = A u B`` contributes iff
``d_A + d_B > ln t`` (``d_X = ln W_X - ln W_notX``); the right half is sorted by ``d``
and carries suffix sums of ``W_B`` and ``W_notB``, so each left class costs O(1)
field operations, plus the few right classes within a float margin of the
threshold, decided by the field's sign test and, when a ball straddles 0, by the
exact symbolic rule.

Merging matters twice: ``k`` equal mechanisms make ``k + 1`` classes instead of
``2^k`` subsets, and a threshold ``t`` at a breakpoint (say ``t = 1`` with
mechanisms of ``eps = 0``) meets a handful of tied classes instead of a number
exponential in ``k`` (the cause of issue 16, item 2).

**The vector form** (balls only; issue 14: k = 48 arbitrary decimal eps in under a
minute). Per class Python objects cost about 2 KB and microseconds; in the vector form a
class is a row of L 16-bit limbs of a fixed-point lower bound of
``P_m = prod C(n_j, m_j) p_j^m_j (1 - p_j)^(n_j - m_j)`` (``p_j = v_j / (1 + v_j)``, so
``W_S / Z = P_A P_B`` and ``W_notS / Z = P_(n-A) P_(n-B)``: the complement's value), with
a float key whose rounding is bounded rigorously. Pair sums are exact integers (float64
matrix products of limbs with every partial sum below 2^53), the pairs within the keys'
error of the threshold are decided exactly, and the fixed point's total shortfall is a
counted number of units: an enclosure. Being exact integers, chunked sums over Dask workers
(:func:`distributed`) equal the serial ones. ``docs/engines.md`` has the details.

Guarantee: exact in the exact field, an enclosure in Arb balls.
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from fractions import Fraction
from math import gcd
from typing import Iterator, NamedTuple, Optional, Sequence

import numpy as np

from .._backend import arb, workprec
from ..numbers import ExpNum, RatExp, Root, log_sign_of_product
from .costs import mitm_vec_limbs
from .fields import Field
from .grouped import binomial_row
from .structure import Structure

__all__ = ["MITM", "ratio_keys", "coprime_base", "split_groups", "vec_applies", "vec_default", "distributed"]


# --------------------------------------------------------------------------
# exact keys of likelihood ratios


def coprime_base(nums: Sequence[int]) -> list[int]:
    """Pairwise coprime integers > 1 of which every ``nums[i]`` is a product (a coprime
    base, by gcd refinement; no factoring). Guarantee: exact. Raises: nothing."""
    base: list[int] = []
    todo = [int(abs(x)) for x in nums]
    while todo:
        y = todo.pop()
        if y <= 1:
            continue
        for i, b in enumerate(base):
            g = gcd(y, b)
            if g > 1:
                base.pop(i)
                todo.extend([b // g, g, y // g])
                break
        else:
            base.append(y)
    return sorted(set(base))


def _valuation(x: int, b: int) -> int:
    e = 0
    while x % b == 0:
        x //= b
        e += 1
    return e


def _rank_rows(M: list[list[Fraction]]) -> list[int]:
    """Indices of a maximal set of linearly independent rows of ``M`` (exact)."""
    rows: list[list[Fraction]] = []
    pivots: list[int] = []
    keep: list[int] = []
    for idx, r in enumerate(M):
        v = [Fraction(x) for x in r]
        for pr, pc in zip(rows, pivots):
            if v[pc]:
                f = v[pc] / pr[pc]
                v = [a - f * b for a, b in zip(v, pr)]
        nz = next((c for c, x in enumerate(v) if x), None)
        if nz is not None:
            rows.append(v)
            pivots.append(nz)
            keep.append(idx)
    return keep


def ratio_keys(values: Sequence[ExpNum]) -> Optional[list[list[int]]]:
    """Integer vectors ``key[j]`` (one per value) such that ``prod values[j]^(e_j) = 1``
    exactly iff ``sum e_j key[j] = 0``, for integer exponents ``e``; ``None`` when
    no exact relation can be decided (e.g. a Computable value, which is then
    treated as independent of the others).

    ``q e^r`` (RatExp) and ``n^(1/D)`` (Root): the product is ``alpha e^R`` with
    ``alpha`` algebraic and ``R`` rational; by Lindemann-Weierstrass it is 1 iff
    ``R = 0`` and ``alpha = 1``, and ``alpha^L = 1`` (``L`` the lcm of the D) iff every
    exponent over a coprime base of the rationals involved is 0. The rows of the key
    are those exponents and ``R`` (scaled to integers), reduced to independent rows.

    Guarantee: exact. Raises: nothing.
    """
    vals = list(values)
    if not vals:
        return []
    L = 1
    for x in vals:
        if isinstance(x, Root):
            L = L * x.D // gcd(L, x.D)
    nums: list[int] = []
    parts = []  # (rational whose L-th-power scaled log, scale, r)
    for x in vals:
        if isinstance(x, RatExp):
            parts.append((x.q, L, x.r))
        elif isinstance(x, Root):
            parts.append((x.n, L // x.D, Fraction(0)))
        else:
            parts.append(None)
        if parts[-1] is not None:
            q = parts[-1][0]
            nums.extend([q.numerator, q.denominator])
    base = coprime_base(nums)
    rows: list[list[int]] = []
    for b in base:
        rows.append([(_valuation(p[0].numerator, b) - _valuation(p[0].denominator, b)) * p[1] if p is not None else 0
                     for p in parts])
    den = 1
    for p in parts:
        if p is not None:
            den = den * p[2].denominator // gcd(den, p[2].denominator)
    rows.append([int(p[2] * den) if p is not None else 0 for p in parts])
    for j, p in enumerate(parts):  # a Computable: its own independent coordinate
        if p is None:
            rows.append([1 if i == j else 0 for i in range(len(parts))])
    keep = _rank_rows([[Fraction(v) for v in r] for r in rows])
    rows = [rows[i] for i in keep] or [[0] * len(vals)]
    return [[r[j] for r in rows] for j in range(len(vals))]


# --------------------------------------------------------------------------
# halves


def split_groups(groups: Sequence[tuple[ExpNum, int]]) -> tuple[list[tuple[ExpNum, int]], list[tuple[ExpNum, int]]]:
    """Two halves of the groups whose class counts ``prod (n_j + 1)`` are about equal.

    Whole groups go to one half when that balances within a factor 4 of sharing each
    group's count: a group shared between the halves makes every pair ``(a, n - a)`` of
    its two parts land on the same ratio, so the pairs at the threshold all fall in the
    band that is decided one by one (2 x 1000 mechanisms of two values: 111,723 band
    pairs shared, none whole). Guarantee: exact (a partition). Raises: nothing."""
    whole = _split(groups, share=False)
    shared = _split(groups, share=True)
    if max(half_classes(whole[0]), half_classes(whole[1])) <= 4 * max(half_classes(shared[0]), half_classes(shared[1])):
        return whole
    return shared


def _split(groups: Sequence[tuple[ExpNum, int]], share: bool) -> tuple[list[tuple[ExpNum, int]], list[tuple[ExpNum, int]]]:
    """Groups dealt, largest count first, to the half with fewer classes so far; with ``share``
    each count of 2 or more is split between the halves instead."""
    left: list[tuple[ExpNum, int]] = []
    right: list[tuple[ExpNum, int]] = []
    cl = cr = 1.0
    for v, n in sorted(groups, key=lambda g: -g[1]):
        if share and n >= 2:
            a = n // 2
            b = n - a
            if cl > cr:
                a, b = b, a
            if a:
                left.append((v, a))
            right.append((v, b))
            cl *= a + 1
            cr *= b + 1
        elif cl <= cr:
            left.append((v, n))
            cl *= n + 1
        else:
            right.append((v, n))
            cr *= n + 1
    return left, right


def half_classes(groups: Sequence[tuple[ExpNum, int]]) -> float:
    """Number of classes (before merging) of one half. Guarantee: exact. Raises: nothing."""
    c = 1.0
    for _, n in groups:
        c *= n + 1
    return c


class _Half:
    """The classes of one half, merged by exact ratio and sorted by their float key ``d``."""

    def __init__(self, groups: Sequence[tuple[ExpNum, int]], keys: Optional[dict]):
        self.groups = [(v, int(n)) for v, n in groups if n > 0]
        g = len(self.groups)
        # raw classes: exponent vectors m (0..n_j), in the order the field values are built
        ms = np.zeros((1, g), dtype=np.int64)
        cnt = np.ones(1, dtype=object)
        for j, (_, n) in enumerate(self.groups):
            blocks = []
            cblocks = []
            row = binomial_row(n)
            for m in range(n + 1):
                b = ms.copy()
                b[:, j] = m
                blocks.append(b)
                cblocks.append(cnt * row[m])
            ms = np.concatenate(blocks) if blocks else ms
            cnt = np.concatenate(cblocks) if cblocks else cnt
        self.raw = len(ms)
        ns = np.array([n for _, n in self.groups], dtype=np.int64)
        e = 2 * ms - ns  # exponents of the ratio W_X / W_notX
        logs = np.array([v.flog() for v, _ in self.groups], dtype=float)
        # the float keys' error is a few ulps of sum n_j fmag(v_j) (fmag: |ln q| + |r| for q e^r)
        with np.errstate(over="ignore", invalid="ignore"):
            self.abs_sum = float(np.array([v.fmag() for v, _ in self.groups]) @ ns) if g else 0.0
            d = e.astype(float) @ logs if g else np.zeros(len(ms))
        # merge classes whose ratios are exactly equal (equal exact keys)
        if keys is not None and g:
            K = np.array([keys[v] for v, _ in self.groups], dtype=object)  # g x r
            small = max((abs(int(x)) for x in K.ravel()), default=0) * max(int(ns.sum()), 1) < 2**62
            kk = e @ K.astype(np.int64) if small else e.astype(object) @ K
            seen: dict = {}
            inv = np.empty(len(ms), dtype=np.int64)
            for i, row in enumerate(kk.tolist()):
                inv[i] = seen.setdefault(tuple(row), len(seen))
            rep = np.zeros(len(seen), dtype=np.int64)
            rep[inv[::-1]] = np.arange(len(ms))[::-1]  # first member of each merged class
            mcnt = [0] * len(seen)
            for i, c in zip(inv.tolist(), cnt.tolist()):
                mcnt[i] += c
        else:
            rep = np.arange(len(ms))
            mcnt = cnt.tolist()
        order = np.argsort(d[rep], kind="stable")
        self.rep = rep[order]  # raw index of each merged class, sorted by d
        self.count = [int(mcnt[i]) for i in order.tolist()]
        self.d = d[self.rep]
        self.e = e[self.rep]
        self.logcount = np.array([math.log(c) for c in self.count])

    def __len__(self) -> int:
        return len(self.rep)

    def reorder(self, order) -> None:
        """Put the merged classes in ``order`` (a permutation)."""
        self.rep = self.rep[order]
        self.count = [self.count[i] for i in order.tolist()]
        self.d = self.d[order]
        self.e = self.e[order]
        self.logcount = self.logcount[order]

    def values(self, field: Field):
        """``(count * W_X, count * W_notX)`` per merged class, in field elements."""
        one = field.rational(Fraction(1))
        ws = [one]
        wn = [one]
        for v, n in self.groups:
            x = field.embed(v)
            pw = [one]
            for _ in range(n):
                pw.append(pw[-1] * x)
            ws = [a * pw[m] for m in range(n + 1) for a in ws]
            wn = [a * pw[n - m] for m in range(n + 1) for a in wn]
        reps = self.rep.tolist()
        return ([c * ws[i] for c, i in zip(self.count, reps)], [c * wn[i] for c, i in zip(self.count, reps)])

    def factors(self, pos: int) -> list[tuple[ExpNum, int]]:
        return [(v, int(x)) for (v, _), x in zip(self.groups, self.e[pos].tolist())]


# --------------------------------------------------------------------------
# the vector form: fixed-point limbs in numpy, exact integer sums (certified and float fields)
#
# Each half's classes carry ``P_m = prod_j C(n_j, m_j) p_j^m_j (1 - p_j)^(n_j - m_j)`` with
# ``p_j = v_j / (1 + v_j)``: ``W_S / Z = P_A P_B`` and ``W_notS / Z = Q_A Q_B``, ``Q_m = P_(n - m)``
# (the complementary class). Values are fixed-point integers ``floor(P 2^F)`` (``F = 16 L``) held
# as L little-endian 16-bit limbs; each is a lower bound within a counted number of units. Sums
# over pairs are exact integers: limb products are summed in float64 matrix products whose every
# partial sum is an integer below 2^53 (so exact, in any order, on any number of threads),
# which is also why a chunked or distributed sum is identical to the serial one.

#: Left classes per chunk: a float64 matrix product over a chunk sums ``chunk`` products of
#: two 16-bit limbs, ``< chunk 2^32 <= 2^53``, exactly.
VEC_CHUNK = 1 << 16
#: Pairs of one chunk decided one by one beyond which an evaluation goes to the per-class
#: form instead (which merges classes of exactly equal ratio: ties at a breakpoint of, say,
#: eps in {0.1, 0.2, 0.3}; random decimal eps put a handful of pairs in the band).
VEC_MAX_BAND = 1 << 14
#: The vector form is the default only when no value is repeated more often than this.
VEC_MAX_COUNT = 1000
#: The vector form is used when the larger half has at least this many classes.
VEC_MIN_CLASSES = 1 << 12
_U = 2.0**-53
#: Limbs of the float search's sums (80 bits: 2^24 classes each truncated leave ~2^-56 of 1).
APPROX_LIMBS = 5
_MASK = np.uint64(0xFFFF)
_S16 = np.uint64(16)


def _one_blas_thread():
    """One BLAS thread for the block (threadpoolctl when installed): the limb products are many
    thin matrix products, 3 to 15 times slower when OpenBLAS splits each over busy cores
    (measured on the 2-core machine). Dask workers run with one thread already."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - an optional speed-up
        from contextlib import nullcontext

        return nullcontext()
    return threadpool_limits(limits=1, user_api="blas")


def _ln_S(pos: float, neg: float, lnt: float, shift: float) -> tuple[float, float]:
    """``(ln S, d ln S / d ln t)`` from the scaled float sums ``pos`` and ``neg`` with
    ``S = e^shift (pos - t neg)`` (``(-inf, 0)`` where that is not positive). Guarantee: approximate."""
    if pos <= 0:
        return float("-inf"), 0.0
    tn = lnt + math.log(neg) if neg > 0 else -math.inf
    if tn > 700 or math.exp(tn) >= pos:
        return float("-inf"), 0.0
    rest = pos - math.exp(tn)
    return math.log(rest) + shift, -math.exp(tn) / rest


def _floor_fixed(x, F: int) -> int:
    """``floor(lower(x) 2^F)`` for a ball ``x`` (an integer lower bound of ``x 2^F``), at least 0."""
    m, e = x.lower().mid().man_exp()
    m, e = int(m), int(e) + F
    v = m << e if e >= 0 else m >> -e
    return max(v, 0)


def _limbs(v: int, L: int) -> list[int]:
    return [(v >> (16 * i)) & 0xFFFF for i in range(L)]


def _from_limbs(row) -> int:
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
    cols = cols.astype(np.uint64)
    out = np.empty((len(cols), L), dtype=np.uint16)
    carry = ((cols[:, 0] >> _S16) + cols[:, 1]) >> _S16
    for k in range(2, L + 1):
        v = cols[:, k] + carry
        out[:, k - 2] = (v & _MASK).astype(np.uint16)
        carry = v >> _S16
    out[:, L - 1] = carry.astype(np.uint16)
    return out


def _mul_outer(x: np.ndarray, cs: np.ndarray, L: int, out: Optional[np.ndarray] = None,
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


def _dot(A: np.ndarray, B: np.ndarray) -> int:
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


def _colsum(A: np.ndarray) -> int:
    """``sum_r value(A[r])`` exactly."""
    s = A.astype(np.uint64).sum(axis=0)
    return sum(int(v) << (16 * i) for i, v in enumerate(s.tolist()))


class VecSpec(NamedTuple):
    """What a process needs to build the vector form: the two halves' groups and the limbs L;
    ``path``: a folder where one process saved the form (:meth:`VecState.save`) for the
    others of the machine to map instead of building it again."""

    left: tuple
    right: tuple
    L: int
    path: Optional[str] = None


def vec_applies(groups: Sequence[tuple[ExpNum, int]]) -> bool:
    """Does the vector form apply (every value exact-symbolic, RatExp or Root, with a finite
    float log)? Guarantee: exact. Raises: nothing."""
    if not groups:
        return False
    for v, _ in groups:
        if not isinstance(v, (RatExp, Root)):
            return False
        if not (math.isfinite(v.flog()) and abs(v.flog()) < 1e12):
            return False
    return True


def _rows_of(facs: list, L: int) -> tuple[np.ndarray, np.ndarray]:
    """``(P limbs, float keys)`` of every class of a run of groups, by doubling (index: mixed
    radix, first group least significant). ``facs``: per group ``(factor limbs, exponents, log)``."""
    arr: Optional[np.ndarray] = None
    d: Optional[np.ndarray] = None
    for fac, es, lj in facs:
        if arr is None:
            arr, d = fac, es * lj
        else:
            arr = _mul_outer(arr, fac, L)
            d = np.concatenate([d + e * lj for e in es.tolist()])  # type: ignore[operator]
    return arr, d  # type: ignore[return-value]


def _strides(groups: Sequence[tuple[ExpNum, int]]) -> list[int]:
    """The mixed radix of class indices (first group least significant)."""
    strides = [1]
    for _, n in groups[:-1]:
        strides.append(strides[-1] * (n + 1))
    return strides


def vec_error_units(g: int) -> int:
    """Units (``2^-F``) by which any class value of a half of ``g`` groups may fall short: each
    factor within 2, each product adds 2 to the sum of its factors' (``x c - x~ c~ <= E_x + E_c``
    for values below 1): at most ``4 g - 2``, bounded here by ``4 g + 2``."""
    return 4 * max(g, 1) + 2


def vec_default(groups: Sequence[tuple[ExpNum, int]]) -> bool:
    """Does :class:`MITM` (``vector=None``) take the vector form for these groups? When it
    applies (:func:`vec_applies`), each half has two groups or more, no count exceeds
    :data:`VEC_MAX_COUNT` (few values with large counts are the grouped and windowed kernels'
    case) and the larger half has at least :data:`VEC_MIN_CLASSES` classes.
    Guarantee: exact. Raises: nothing."""
    left, right = split_groups(groups)
    return (vec_applies(groups) and len(left) >= 2 and len(right) >= 2
            and max(n for _, n in groups) <= VEC_MAX_COUNT
            and max(half_classes(left), half_classes(right)) >= VEC_MIN_CLASSES)


class _VecHalf:
    """One half in the vector form: classes sorted by ``(d, index)``; ``P`` limbs, float keys ``d``,
    the class index of each sorted position (``perm``)."""

    def __init__(self, groups: Sequence[tuple[ExpNum, int]], L: int, extra: bool = False):
        F = 16 * L
        self.groups = [(v, int(n)) for v, n in groups]
        prec = F + 64 + 2 * max(int(n).bit_length() for _, n in self.groups)
        facs = []
        with workprec(prec):
            for v, n in self.groups:
                w = v.arb(prec)
                q = 1 / (1 + w)
                lj = float(w.log().mid())
                # C(n, m) p^m q^(n - m) by the ratio (n - m) / (m + 1) * w: n ball products (the
                # binomials themselves have up to n bits each); the precision covers their n roundings
                c = q**n
                rows = []
                for m in range(n + 1):
                    rows.append(_limbs(_floor_fixed(c, F), L))
                    c = c * w * (n - m) / (m + 1)
                facs.append((np.array(rows, dtype=np.uint16), np.array([float(2 * m - n) for m in range(n + 1)]), lj))
        # two runs of groups of about equal class counts, then their outer product: each class
        # is one product of two (instead of the doubling's two per class on average)
        total = half_classes(self.groups)
        cut, acc = 1, float(self.groups[0][1] + 1)
        while cut < len(self.groups) - 1 and acc * acc < total:
            acc *= self.groups[cut][1] + 1
            cut += 1
        arr, d = _rows_of(facs[:cut], L)
        arrB = dB = None
        if cut < len(facs):
            arrB, dB = _rows_of(facs[cut:], L)
            d = (d[None, :] + dB[:, None]).ravel()
        self.N = N = len(d)
        # the complement (m -> n - m) maps index i to N - 1 - i and d to -d exactly (the float
        # operations are symmetric under negation), so the stable order by (d, index) is reversed
        # by it: Q at sorted position i is P at N - 1 - i
        order = np.argsort(d, kind="stable")
        self.d = d[order]
        del d
        itype = np.int32 if N < 2**31 else np.int64
        self.perm = order.astype(itype)
        del order
        where = np.empty(N, dtype=itype)
        where[self.perm] = np.arange(N, dtype=itype)
        # the products go straight to their sorted rows (no unsorted copy); the right half's
        # rows are the first L columns of its suffix-sum table, summed in place (VecState)
        self.P = np.zeros((N + 1, L + 1), dtype=np.uint16) if extra else np.empty((N, L), dtype=np.uint16)
        target = self.P[:, :L] if extra else self.P
        if arrB is None:
            target[where] = arr
        else:
            _mul_outer(arr, arrB, L, target, where)
        del where
        self.strides = _strides(self.groups)

    def factors(self, pos: int) -> list[tuple[ExpNum, int]]:
        """``W_X / W_notX = prod v^e`` of the class at sorted position ``pos``."""
        i = int(self.perm[pos])
        out = []
        for (v, n), s in zip(self.groups, self.strides):
            m = (i // s) % (n + 1)
            out.append((v, 2 * m - n))
        return out


class VecState:
    """The vector form of a composition's two halves (built once per process and limb count)."""

    _ARRAYS = ("PL", "dL", "permL", "X", "dR", "permR")

    def __init__(self, spec: VecSpec, *, load: bool = False):
        L = spec.L
        self.L = L
        self.F = 16 * L
        self._sq: dict = {}
        if load:
            self._load(spec)
            return
        self.left = _VecHalf(spec.left, L)
        right = _right_half(spec)
        self.NL, self.NR = self.left.N, right.N
        self.X = right.P
        self.dL, self.dR = self.left.d, right.d
        self.right_groups, self.right_perm, self.right_strides = right.groups, right.perm, right.strides
        self.X0 = _from_limbs(self.X[0])
        del right

    def save(self, path: str) -> None:
        """Write the arrays to ``path`` (``.npy`` files, mapped by :meth:`_load`)."""
        vec_save_half(self.left, "left", path)
        import os

        for name, a in (("X", self.X), ("dR", self.dR), ("permR", self.right_perm)):
            np.save(os.path.join(path, name + ".npy"), a)

    def _load(self, spec: VecSpec) -> None:
        import os

        a = {n: np.load(os.path.join(spec.path, n + ".npy"), mmap_mode="r") for n in self._ARRAYS}  # type: ignore[arg-type]
        left = _VecHalf.__new__(_VecHalf)
        left.groups = [(v, int(n)) for v, n in spec.left]
        left.P, left.d, left.perm, left.N = a["PL"], a["dL"], a["permL"], len(a["dL"])
        left.strides = _strides(left.groups)
        self.left = left
        self.NL, self.NR = left.N, len(a["dR"])
        self.X, self.dL, self.dR = a["X"], a["dL"], a["dR"]
        self.right_groups = [(v, int(n)) for v, n in spec.right]
        self.right_perm, self.right_strides = a["permR"], _strides(self.right_groups)
        self.X0 = _from_limbs(self.X[0])

    def right_factors(self, pos: int) -> list[tuple[ExpNum, int]]:
        i = int(self.right_perm[pos])
        return [(v, 2 * ((i // s) % (n + 1)) - n) for (v, n), s in zip(self.right_groups, self.right_strides)]

    def P_right(self, b: int) -> int:
        return _from_limbs(self.X[b]) - _from_limbs(self.X[b + 1])

    def bounds(self, lnt: float, mu: float, s: int, e: int) -> tuple[np.ndarray, np.ndarray]:
        """For left rows ``s..e``: ``hi`` (right classes ``b >= hi`` pair above ``ln t`` for sure) and
        ``lo`` (``b < lo`` below or at it for sure); ``[lo, hi)`` is the band decided exactly."""
        theta = lnt - self.dL[s:e]  # decreasing: searched reversed (sorted keys search faster)
        hi = np.searchsorted(self.dR, (theta + mu)[::-1], side="right")[::-1]
        lo = hi.copy()
        if mu > 0:
            cand = np.nonzero(hi > 0)[0]
            cand = cand[self.dR[hi[cand] - 1] >= theta[cand] - mu]
            if len(cand):
                lo[cand] = np.searchsorted(self.dR, theta[cand] - mu, side="left")
        return hi, lo

    def eval_chunk(self, s: int, e: int, lnt: float, mu: float, t_num: ExpNum) -> tuple:
        """Exact integer sums (scale ``2^(2F)``) over the pairs of left rows ``s..e`` above the
        threshold: ``(pos, negdot, sumQ, band_pos, band_neg, undecided)``; see :meth:`MITM._vec_evaluate`."""
        hi, lo = self.bounds(lnt, mu, s, e)
        if int((hi - lo).sum()) > VEC_MAX_BAND:
            return None  # many exact ties (a breakpoint of a structured composition): see MITM._vec_evaluate
        NL, NR = self.NL, self.NR
        P = self.left.P[s:e]
        Q = self.left.P[NL - e:NL - s][::-1]
        pos = _dot(P, self.X[hi])
        negdot = _dot(Q, self.X[NR - hi])
        sumq = self._sumq(s, e)
        bpos = bneg = 0
        und = []
        for a in np.nonzero(hi > lo)[0].tolist():
            fa = self.left.factors(s + a)
            Pa = _from_limbs(P[a])
            Qa = _from_limbs(Q[a])
            for b in range(int(lo[a]), int(hi[a])):
                facs: dict = {}
                for v, x in fa + self.right_factors(b):
                    facs[v] = facs.get(v, 0) + x
                sgn = log_sign_of_product(list(facs.items()) + [(t_num, -1)])
                Pb = self.P_right(b)
                Qb = self.P_right(NR - 1 - b)
                if sgn is None:
                    und.append((Pa * Pb, Qa * Qb))
                elif sgn > 0:
                    bpos += Pa * Pb
                    bneg += Qa * Qb
        return pos, negdot, sumq, bpos, bneg, und

    def approx_chunk(self, s: int, e: int, lnt: float, stride: int = 1) -> tuple[int, int, int]:
        """Integer sums like :meth:`eval_chunk` from the top :data:`APPROX_LIMBS` limbs only, without
        the band, over every ``stride``-th left row (for the float search: deterministic, whatever
        the chunking or the BLAS threads)."""
        NL, NR, L = self.NL, self.NR, self.L
        k = min(APPROX_LIMBS, L)
        if stride == 1:
            hi, _ = self.bounds(lnt, 0.0, s, e)
            P = self.left.P[s:e, L - k:]
            Q = self.left.P[NL - e:NL - s, L - k:][::-1]
            sq = self._sumq(s, e) >> (16 * (L - k))
        else:
            rows = np.arange(s, e, stride)
            hi = np.searchsorted(self.dR, lnt - self.dL[rows], side="right")
            P = self.left.P[rows, L - k:]
            Q = self.left.P[NL - 1 - rows, L - k:]
            sq = _colsum(Q)
        return _dot(P, self.X[hi, L - k:]), _dot(Q, self.X[NR - hi, L - k:]), sq

    def _sumq(self, s: int, e: int) -> int:
        """``sum Q_A`` over left rows ``s..e`` (independent of t: kept)."""
        v = self._sq.get((s, e))
        if v is None:
            v = self._sq[(s, e)] = _colsum(self.left.P[self.NL - e:self.NL - s])
        return v


def _right_half(spec: VecSpec) -> "_VecHalf":
    """The right half with its suffix sums in place of its values: ``P[h] = sum_{b >= h} P_b``
    (``L + 1`` limbs, exact integers)."""
    L = spec.L
    right = _VecHalf(spec.right, L, extra=True)
    X = right.P
    run = np.zeros(L + 1, dtype=np.uint64)
    for e in range(right.N, 0, -VEC_CHUNK):
        s = max(0, e - VEC_CHUNK)
        cs = np.cumsum(X[s:e].astype(np.uint64)[::-1], axis=0)[::-1] + run
        carry = np.zeros(len(cs), dtype=np.uint64)
        for k in range(L + 1):
            v = cs[:, k] + carry
            X[s:e, k] = (v & _MASK).astype(np.uint16)
            carry = v >> _S16
        run = X[s].astype(np.uint64)
    return right


def vec_save_half(h: "_VecHalf", side: str, path: str) -> None:
    """Save one half's arrays (the left's values, or the right's suffix sums) to ``path``."""
    import os

    names = ("PL", "dL", "permL") if side == "left" else ("X", "dR", "permR")
    for name, a in zip(names, (h.P, h.d, h.perm)):
        np.save(os.path.join(path, name + ".npy"), a)


def vec_build_half(spec: VecSpec, side: str, path: str) -> bool:
    """Build one half of the vector form and save it to ``path`` (a Dask task: the two halves
    of a local cluster's shared form are built by two workers at once)."""
    _malloc_keeps_memory()
    with _one_blas_thread():
        h = _VecHalf(spec.left, spec.L) if side == "left" else _right_half(spec)
        vec_save_half(h, side, path)
    return True


_STATES: dict = {}


def vec_state(spec: VecSpec) -> VecState:
    """The process's vector form for ``spec`` (kept for the last spec only: a few hundred MB)."""
    st = _STATES.get(spec)
    if st is None:
        _STATES.clear()
        st = _STATES[spec] = VecState(spec, load=spec.path is not None)
    return st


def vec_task(spec: VecSpec, op: str, chunks: Sequence[tuple[int, int]], args: tuple) -> tuple[int, list]:
    """A batch of chunks on a Dask worker: ``(X0, per-chunk results)``; ``op`` is ``"eval"``
    (args ``lnt, mu, t_num``: :meth:`VecState.eval_chunk`), ``"approx"`` (``lnt, stride``) or
    ``"build"`` (no chunks). The worker keeps its vector form for the next batch."""
    _malloc_keeps_memory()
    with _one_blas_thread():
        return _vec_task(spec, op, chunks, args)


_MALLOC_SET = False


def _malloc_keeps_memory() -> None:
    """On a Dask worker (glibc): keep freed memory instead of trimming it at 64 KiB (Dask's
    default ``MALLOC_TRIM_THRESHOLD_``), and serve arrays up to 32 MiB from the heap. Each
    chunk's temporaries are a few MiB: returned to the system and faulted in again at every
    chunk, they made an evaluation twice as slow (measured, k = 44: 0.6 s -> 1.3 s)."""
    global _MALLOC_SET
    if _MALLOC_SET:
        return
    _MALLOC_SET = True
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(-1, 1 << 30)  # M_TRIM_THRESHOLD
        libc.mallopt(-3, 1 << 25)  # M_MMAP_THRESHOLD
    except (OSError, AttributeError):  # not glibc: nothing to tune
        pass


def _vec_task(spec: VecSpec, op: str, chunks: Sequence[tuple[int, int]], args: tuple) -> tuple[int, list]:
    st = vec_state(spec)
    if op == "build":
        return st.X0, []
    if op == "eval":
        return st.X0, [st.eval_chunk(s, e, *args) for s, e in chunks]
    return st.X0, [st.approx_chunk(s, e, *args) for s, e in chunks]


class _Strided:
    """The float model of :class:`MITM`'s vector form on every ``stride``-th left class."""

    def __init__(self, m: "MITM", stride: int):
        self.m, self.stride = m, stride

    def approx(self, lnt: float) -> tuple[float, float]:
        return self.m._vec_approx(lnt, self.stride)


class MITM(Structure):
    """Meet in the middle over two halves of the groups (see the module docstring).

    ``vector``: the vector form in ball arithmetic (True), the per-class form (False), or
    (None) the vector form when :func:`vec_default` holds. The exact field always takes the
    per-class form (built on first use)."""

    method = "mitm"

    def __init__(self, groups: Sequence, *, keys: bool = True, vector: Optional[bool] = None):
        gl = list(groups)
        if gl and not isinstance(gl[0], tuple):  # a list of values, one per mechanism
            merged: dict = {}
            for x in gl:
                merged[x] = merged.get(x, 0) + 1
            gl = list(merged.items())
        self.groups = [(v, int(n)) for v, n in gl]
        self.k = sum(n for _, n in self.groups)
        self.left, self.right = split_groups(self.groups)
        self._keys = keys
        ok = vec_applies(self.groups) and bool(self.left) and bool(self.right)
        self.vector = ok and (vec_default(self.groups) if vector is None else bool(vector))
        self._client = None  # a Dask client while :func:`distributed` is in force
        self._shared: Optional[str] = None  # a folder the client and a local cluster's workers share
        self._state: Optional[VecState] = None
        self._vinfo: Optional[dict] = None

    _SCALAR = frozenset(["Lh", "Rh", "_abs_sum", "_keys_finite", "_cache", "_den", "_il", "_ir"])

    def __getattr__(self, name: str):
        # the per-class Python form (exact field, small cases) is built on first use only: the
        # vector form of k = 48 never needs it
        if name in MITM._SCALAR and "_scalar_done" not in self.__dict__:
            self._init_scalar()
            return getattr(self, name)
        raise AttributeError(name)

    def _init_scalar(self) -> None:
        self.__dict__["_scalar_done"] = True
        left, right = self.left, self.right
        kv = ratio_keys([v for v, _ in self.groups]) if self._keys else None
        kd = {v: kv[j] for j, (v, _) in enumerate(self.groups)} if kv is not None else None
        self.Lh = _Half(left, kd)
        self.Rh = _Half(right, kd)
        self._abs_sum = self.Lh.abs_sum + self.Rh.abs_sum
        self._keys_finite = bool(np.isfinite(self.Lh.d).all() and np.isfinite(self.Rh.d).all())
        self._cache: dict = {}
        # exact integer keys when every value is e^{r_i} (rational eps): d_X = n_X / den
        self._den: Optional[int] = None
        if all(isinstance(v, RatExp) and v.q == 1 for v, _ in self.groups) and self.groups:
            den = 1
            for v, _ in self.groups:
                den = den * v.r.denominator // gcd(den, v.r.denominator)  # type: ignore[attr-defined]
            nv = [int(v.r * den) for v, _ in self.groups]  # type: ignore[attr-defined]
            # int64 keys when they fit; Python integers otherwise (eps = 1e309 next to eps = 1/4,
            # where float keys overflow or put every pair within the band of one another)
            dt = np.int64 if sum(abs(x) * n for x, (_, n) in zip(nv, self.groups)) < 2**62 else object
            if dt is np.int64 or max(len(self.Lh), len(self.Rh)) <= 2**22:
                self._den = den
                idx = {v: i for i, (v, _) in enumerate(self.groups)}

                def ikeys(h: _Half):
                    if not h.groups:
                        return np.zeros(len(h), dtype=dt)
                    return h.e.astype(dt) @ np.array([nv[idx[v]] for v, _ in h.groups], dtype=dt)

                self._il = ikeys(self.Lh)
                ir = ikeys(self.Rh)
                order = np.argsort(ir, kind="stable")  # the exact order (the float one may swap near-ties)
                self.Rh.reorder(order)
                self._ir = ir[order]

    def cost(self) -> float:
        if self.vector or "_scalar_done" not in self.__dict__:
            return (half_classes(self.left) + half_classes(self.right)) * max(1, len(self.groups))
        return float(len(self.Lh) + len(self.Rh)) * max(1, len(self.groups))

    def estimate(self, kind: str, prec: int):
        from .costs import mitm_cost

        def bits(v):
            q = v.exact()
            return float(q.numerator.bit_length() + q.denominator.bit_length()) if q is not None else 64.0

        wb = sum(bits(v) * n for v, n in self.groups) / 2
        if self.vector and kind != "exact":
            return mitm_cost(half_classes(self.left), half_classes(self.right), len(self.groups), kind, prec, wb,
                             vector=True, workers=self._workers())
        cb = 0.73 * max(sum(n for _, n in self.left if n > 1), sum(n for _, n in self.right if n > 1))
        if self.vector or "_scalar_done" not in self.__dict__:
            # before the per-class form exists (it is what is being estimated): its size unmerged
            return mitm_cost(half_classes(self.left), half_classes(self.right), len(self.groups), kind, prec, wb, cb)
        return mitm_cost(float(len(self.Lh)), float(len(self.Rh)), len(self.groups), kind, prec, wb, cb)

    # ---------------------------------------------------------------- the vector form

    def _workers(self) -> int:
        if self._client is None:
            return 1
        return max(1, len(self._client.scheduler_info().get("workers", {})))

    def limbs(self, prec: int) -> int:
        """16-bit limbs of the fixed point for a ball precision ``prec``
        (:func:`~exactdp.engines.costs.mitm_vec_limbs`)."""
        g = max(len(self.left), len(self.right))
        return mitm_vec_limbs(half_classes(self.left), half_classes(self.right), g, prec)

    def _info(self) -> dict:
        """The float keys' error bound and magnitude (from the groups; the same numbers every
        process builds)."""
        if self._vinfo is None:
            derr = dmag = 0.0
            for half in (self.left, self.right):
                g = len(half)
                with workprec(128):
                    for v, n in half:
                        lb = v.arb(128).log()
                        lj = float(lb.mid())
                        derr += n * (float(lb.rad()) + 2 * (g + 2) * _U * abs(lj))
                        dmag += n * abs(lj)
            self._vinfo = {"derr": derr, "dmag": dmag}
        return self._vinfo

    def _spec(self, prec: int) -> VecSpec:
        # at least the limbs of the engines' usual precisions (delta_g 136 bits, OptComp 144+):
        # the float search comes first and must not build a narrower form that Newton rebuilds
        L = self.limbs(max(prec, 150))
        built = self._state.L if self._state is not None else getattr(self, "_built_L", 0)
        return VecSpec(tuple(self.left), tuple(self.right), max(L, built))

    def _run(self, spec: VecSpec, op: str, args: tuple) -> tuple[int, list]:
        """``(X0, per-chunk results in chunk order)``, serially or over the Dask workers (each
        builds the vector form once and keeps it; contiguous runs of chunks, one per worker)."""
        NL = int(half_classes(self.left))
        chunks = [(s, min(s + VEC_CHUNK, NL)) for s in range(0, NL, VEC_CHUNK)]
        if self._client is None:
            with _one_blas_thread():
                if self._state is None or self._state.L != spec.L:
                    self._state = None
                    self._state = VecState(spec)
                st = self._state
                if op == "eval":
                    return st.X0, [st.eval_chunk(s, e, *args) for s, e in chunks]
                return st.X0, [st.approx_chunk(s, e, *args) for s, e in chunks]
        client = self._client
        if self._shared is not None:
            # a local cluster: this process builds the form once and saves it where the workers
            # map it (shared pages), instead of every worker building its own
            import os

            path = os.path.join(self._shared, f"L{spec.L}")
            ws = sorted(client.scheduler_info()["workers"])
            if not os.path.isdir(path):
                os.makedirs(path + ".tmp", exist_ok=True)
                futs = [client.submit(vec_build_half, spec, side, path + ".tmp", workers=[ws[i % len(ws)]],
                                      allow_other_workers=False, pure=False) for i, side in enumerate(("left", "right"))]
                client.gather(futs)
                os.replace(path + ".tmp", path)
            spec = spec._replace(path=path)
        workers = sorted(client.scheduler_info()["workers"])
        n = max(1, min(len(workers), len(chunks)))
        parts = [chunks[len(chunks) * i // n: len(chunks) * (i + 1) // n] for i in range(n)]
        futs = [client.submit(vec_task, spec, op, part, args, workers=[w], allow_other_workers=False, pure=False)
                for part, w in zip(parts, workers)]
        res = client.gather(futs)
        self._built_L = spec.L
        return res[0][0], [r for _, rs in res for r in rs]

    def _lnt(self, t_num: ExpNum) -> tuple[float, float]:
        """``ln t`` as a float and a bound on its error."""
        with workprec(128):
            lb = t_num.arb(128).log()
            lnt = float(lb.mid())
            return lnt, float(lb.rad()) + 2 * _U * abs(lnt)

    def _Z(self, prec: int):
        z = arb(1)
        for v, n in self.groups:
            z *= (1 + v.arb(prec)) ** n
        return z

    def _vec_evaluate(self, field: Field, t_num: ExpNum, t=None):
        prec = field.prec  # type: ignore[attr-defined]
        spec = self._spec(prec)
        info = self._info()
        lnt, err_t = self._lnt(t_num)
        # a rigorous bound on the float error of d_A + d_B - ln t (and of the threshold's own
        # rounding), doubled: pairs outside it are placed by the floats, inside it exactly
        mu = 2 * (info["derr"] + err_t + 8 * _U * (abs(lnt) + info["dmag"])) + 1e-300
        X0, res = self._run(spec, "eval", (lnt, mu, t_num))
        if any(r is None for r in res):
            return self._scalar_evaluate(field, t_num, t)
        pos = sum(r[0] for r in res) + sum(r[3] for r in res)
        neg = X0 * sum(r[2] for r in res) - sum(r[1] for r in res) + sum(r[4] for r in res)
        F = 16 * spec.L
        g = max(len(self.left), len(self.right))
        E = vec_error_units(g)
        NL, NR = int(half_classes(self.left)), int(half_classes(self.right))
        # every stored value is a lower bound within E units: over any set of pairs the sum
        # of P_A P_B (scale 2^2F) is short of the true one by at most 2^F (E N_R + E N_L)
        err = (E * (NL + NR)) << F
        if t is None:
            t = field.embed(t_num)
        with workprec(prec + 32):
            sc = arb(2) ** (-2 * F)
            posb = arb(pos).union(arb(pos + err)) * sc
            negb = arb(neg).union(arb(neg + err)) * sc
            s_und = arb(0)
            sig_und = arb(0)
            for pp, qq in (u for r in res for u in r[5]):
                s_und += arb(0).union(arb(pp + err) * sc)
                sig_und += arb(0).union(arb(qq + err) * sc)
            Z = self._Z(prec + 32)
        S = Z * (posb - t * negb + s_und)
        sig = Z * (negb + sig_und)
        return S, sig

    def _vec_approx(self, lnt: float, stride: int = 1) -> tuple[float, float]:
        if not math.isfinite(lnt):
            return float("-inf"), 0.0
        spec = self._spec(64)
        X0, res = self._run(spec, "approx", (lnt, stride))
        k = min(APPROX_LIMBS, spec.L)
        X0top = X0 >> (16 * (spec.L - k))
        # top-limb sums, scale 2^(32 k): pos = sum P_A X(h_A), neg = sum Q_A Y(h_A)
        pos = math.ldexp(float(stride * sum(r[0] for r in res)), -32 * k)
        neg = math.ldexp(float(stride * (X0top * sum(r[2] for r in res) - sum(r[1] for r in res))), -32 * k)
        lz = math.fsum(n * (v.flog() + math.log1p(math.exp(-v.flog()))) for v, n in self.groups)
        return _ln_S(pos, neg, lnt, lz)

    def locate_float(self, log_goal: float) -> Optional[float]:
        """The float search of the inverse for the vector form: the generic search on every
        ``stride``-th left class (about 2^18 of them; ``S`` is smooth in the order of ``d``),
        then Newton steps on the full sums. ``None`` (the generic search) for the other forms.
        Guarantee: approximate (a starting point only). Raises: nothing."""
        if not self.vector:
            return None
        from .inverse import locate

        NL = int(half_classes(self.left))
        stride = max(1, NL >> 18)
        lnW = math.fsum(n * v.flog() for v, n in self.groups)
        L = locate(_Strided(self, stride), log_goal, lnW)
        if stride == 1 or not (L > 0):
            return L
        best = (math.inf, L)
        for _ in range(4):
            g, sl = self._vec_approx(L)
            g -= log_goal
            if not (math.isfinite(g) and sl < 0):
                break
            if abs(g) < best[0]:
                best = (abs(g), L)
            Ln = L - g / sl
            if abs(g) < 1e-12 or not (0 < Ln < lnW) or abs(Ln - L) <= 1e-13 * L:
                break
            L = Ln
        return best[1]

    def loss_classes(self, field: Field) -> list:
        """Every class of the composition (the grouped kernel's classes; refused above 2^20)."""
        from ..errors import CostTooHigh
        from .grouped import Grouped

        g = Grouped(self.groups)
        if g.cost() > 2**20:
            raise CostTooHigh("mechanisms", f"the privacy-loss classes of these {self.k} mechanisms number "
                              f"{g.cost():.3g}; refused above 2^20", estimate=g.cost(), limit=2**20,
                              alternative="mechanisms on a common lattice (rational eps)")
        return g.loss_classes(field)

    def _margin(self, lnt: float) -> float:
        # a million times the float error of d_A + d_B - ln t (relative: keys of mechanisms
        # with eps ~ 1e-12 are that small, and an absolute margin would put them all in the band)
        return 1e-9 * (self._abs_sum + abs(lnt)) + 1e-300

    def _prepared(self, field: Field):
        key = (field.name, getattr(field, "prec", None))
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        la, lna = self.Lh.values(field)
        rb, rnb = self.Rh.values(field)
        zero = field.rational(Fraction(0))
        n = len(rb)
        suf_b = [zero] * (n + 1)
        suf_nb = [zero] * (n + 1)
        acc_b = zero
        acc_nb = zero
        for i in range(n - 1, -1, -1):
            acc_b = acc_b + rb[i]
            acc_nb = acc_nb + rnb[i]
            suf_b[i] = acc_b
            suf_nb[i] = acc_nb
        prep = (la, lna, rb, rnb, suf_b, suf_nb)
        self._cache = {key: prep}
        return prep

    def _symbolic_sign(self, a: int, b: int, t_num: ExpNum) -> Optional[int]:
        facs: dict = {}
        for v, e in self.Lh.factors(a) + self.Rh.factors(b):
            facs[v] = facs.get(v, 0) + e
        return log_sign_of_product(list(facs.items()) + [(t_num, -1)])

    def _thresholds(self, t_num: ExpNum):
        lnt = t_num.flog()
        if self._den is not None and isinstance(t_num, RatExp) and t_num.q == 1 and not t_num.approximate:
            # exact: positive iff n_A + n_B > t.r * den  iff  n_A + n_B > floor(t.r * den)
            tl = t_num.r * self._den
            T = tl.numerator // tl.denominator
            if self._ir.dtype == object:
                hi = np.searchsorted(self._ir, T - self._il, side="right").astype(np.int64)
                return hi, hi
            if abs(T) < 2**62:
                hi = np.searchsorted(self._ir, T - self._il, side="right")
                return hi, hi
        mu = self._margin(lnt) if math.isfinite(lnt) else 0.0
        nl, nr = len(self.Lh.d), len(self.Rh.d)
        if not (math.isfinite(mu) and self._keys_finite):
            # keys beyond the float range (eps ~ 1e308): no class is placed by its float key;
            # every pair is in the band, decided in the engine's arithmetic
            return np.full(nl, nr, dtype=np.int64), np.zeros(nl, dtype=np.int64)
        theta = lnt - self.Lh.d
        hi = np.searchsorted(self.Rh.d, theta + mu, side="right")
        lo = np.searchsorted(self.Rh.d, theta - mu, side="left")
        return hi, lo

    def evaluate(self, field: Field, t_num: ExpNum, t=None):
        if self.vector and not field.exact:
            return self._vec_evaluate(field, t_num, t)
        return self._scalar_evaluate(field, t_num, t)

    def _scalar_evaluate(self, field: Field, t_num: ExpNum, t=None):
        if t is None:
            t = field.embed(t_num)
        la, lna, rb, rnb, suf_b, suf_nb = self._prepared(field)
        hi, lo = self._thresholds(t_num)
        zero = field.rational(Fraction(0))
        n = len(rb)
        g1: dict = {}
        g2: dict = {}
        s_band = zero
        sig_band = zero
        hi_l = hi.tolist()
        lo_l = lo.tolist()
        for a in range(len(la)):
            h = hi_l[a]
            if h < n:
                if h in g1:
                    g1[h] = g1[h] + la[a]
                    g2[h] = g2[h] + lna[a]
                else:
                    g1[h] = la[a]
                    g2[h] = lna[a]
            for j in range(lo_l[a], h):
                d = la[a] * rb[j] - t * (lna[a] * rnb[j])
                sgn = field.sign(d)
                if sgn is None:
                    sgn = self._symbolic_sign(a, j, t_num)
                if sgn is None:
                    s_band += field.pos(d)
                elif sgn > 0:
                    s_band += d
                    sig_band += lna[a] * rnb[j]
        s1 = zero
        s2 = zero
        for h in g1:
            s1 += g1[h] * suf_b[h]
            s2 += g2[h] * suf_nb[h]
        return s1 - t * s2 + s_band, s2 + sig_band

    def approx(self, lnt: float) -> tuple[float, float]:
        if self.vector:
            return self._vec_approx(lnt)
        # numpy float64 in a scaled log domain: W_S = sqrt(W) e^{d/2}, W_notS = sqrt(W) e^{-d/2},
        # S / sqrt(W) = sum_A c_A [e^{d_A/2} SE(h_A) - t e^{-d_A/2} SN(h_A)], exponentials scaled to <= 1
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            dl, dr = self.Lh.d, self.Rh.d
            cl, cr = self.Lh.logcount, self.Rh.logcount
            ma = 0.5 * float(np.abs(dl).max()) + float(cl.max())
            mb = 0.5 * float(np.abs(dr).max()) + float(cr.max())
            if not (math.isfinite(ma) and math.isfinite(mb) and math.isfinite(lnt)):
                return float("-inf"), 0.0
            h = np.searchsorted(dr, lnt - dl, side="right")
            se = np.concatenate([np.cumsum(np.exp(cr + 0.5 * dr - mb)[::-1])[::-1], [0.0]])
            sn = np.concatenate([np.cumsum(np.exp(cr - 0.5 * dr - mb)[::-1])[::-1], [0.0]])
            pos = float(np.dot(np.exp(cl + 0.5 * dl - ma), se[h]))
            neg = float(np.dot(np.exp(cl - 0.5 * dl - ma), sn[h]))
        return _ln_S(pos, neg, lnt, ma + mb + 0.5 * self._log_W())

    def _log_W(self) -> float:
        return math.fsum(n * v.flog() for v, n in self.groups)


@contextmanager
def distributed(struct: Structure, scheduler: Optional[str] = None, workers: Optional[int] = None) -> Iterator[None]:
    """Run the meet-in-the-middle kernel ``struct`` over Dask workers inside the block: the left
    half's chunks are split into one contiguous run per worker. With ``workers`` (a local
    cluster) two workers build the vector form's two halves at once and save them to a
    temporary folder (``/dev/shm`` when it has room) that every worker maps read-only, removed
    at the end; with a ``scheduler`` (machines that may not share a folder) each worker builds
    its own once. Any other kernel, or neither option given,
    runs serially as before.

    Guarantee: the results are identical to the serial ones (exact integer partial sums,
    combined in chunk order). Raises: InvalidArgument as :func:`exactdp.jobs.dask_client`
    (both options given, a bad count, dask[distributed] not installed, no scheduler there).
    """
    if scheduler is None and workers is None:
        yield
        return
    from ..jobs import dask_client

    if scheduler is not None and workers is not None:
        dask_client(scheduler, workers)  # raises: exactly one of the two
    if not (isinstance(struct, MITM) and struct.vector):
        yield
        return
    client, cluster = dask_client(scheduler, workers)
    struct._client = client
    if cluster is not None:
        import tempfile

        struct._shared = tempfile.mkdtemp(prefix="exactdp-mitm-", dir=_shared_root(struct))
    try:
        yield
    finally:
        struct._client = None
        client.close()
        if cluster is not None:
            cluster.close()
        if struct._shared is not None:
            import shutil

            shutil.rmtree(struct._shared, ignore_errors=True)
            struct._shared = None


def _shared_root(struct: "MITM") -> Optional[str]:
    """``/dev/shm`` when it has room for the vector form (memory pages the workers share
    without a disk write), else the default temporary folder."""
    import os

    try:
        sv = os.statvfs("/dev/shm")
        b, _ = struct.estimate("arb", 200)
        if sv.f_bavail * sv.f_frsize > 2 * b.bytes:
            return "/dev/shm"
    except (OSError, AttributeError):
        pass
    return None
