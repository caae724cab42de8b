"""The vector form of meet in the middle: each half's classes as rows of 16-bit limbs.

Each half's classes carry ``P_m = prod_j C(n_j, m_j) p_j^m_j (1 - p_j)^(n_j - m_j)`` with
``p_j = v_j / (1 + v_j)``: ``W_S / Z = P_A P_B`` and ``W_notS / Z = Q_A Q_B``, ``Q_m = P_(n - m)``
(the complementary class), as fixed-point lower bounds (:mod:`.limbs`). :class:`VecState` is
one process's form (built, or mapped from the ``.npy`` files another process saved).
Guarantee: exact integer sums; the counted shortfall makes the kernel's enclosure.
"""

from __future__ import annotations

import math
from typing import NamedTuple, Optional, Sequence

from ..._backend import np, workprec
from ...numbers import ExpNum, RatExp, Root, log_sign_of_product
from .halves import half_classes, split_groups
from .limbs import VEC_CHUNK, floor_fixed, from_limbs, limb_colsum, limb_dot, limbs_of, mul_outer

__all__ = ["VecSpec", "VecState", "VecHalf", "vec_applies", "vec_default", "vec_error_units", "vec_state",
           "right_half", "vec_save_half", "VEC_MAX_BAND", "VEC_MAX_COUNT", "VEC_MIN_CLASSES", "APPROX_LIMBS"]

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
            arr = mul_outer(arr, fac, L)
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


class VecHalf:
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
                    rows.append(limbs_of(floor_fixed(c, F), L))
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
            mul_outer(arr, arrB, L, target, where)
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
        self.left = VecHalf(spec.left, L)
        right = right_half(spec)
        self.NL, self.NR = self.left.N, right.N
        self.X = right.P
        self.dL, self.dR = self.left.d, right.d
        self.right_groups, self.right_perm, self.right_strides = right.groups, right.perm, right.strides
        self.X0 = from_limbs(self.X[0])
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
        left = VecHalf.__new__(VecHalf)
        left.groups = [(v, int(n)) for v, n in spec.left]
        left.P, left.d, left.perm, left.N = a["PL"], a["dL"], a["permL"], len(a["dL"])
        left.strides = _strides(left.groups)
        self.left = left
        self.NL, self.NR = left.N, len(a["dR"])
        self.X, self.dL, self.dR = a["X"], a["dL"], a["dR"]
        self.right_groups = [(v, int(n)) for v, n in spec.right]
        self.right_perm, self.right_strides = a["permR"], _strides(self.right_groups)
        self.X0 = from_limbs(self.X[0])

    def right_factors(self, pos: int) -> list[tuple[ExpNum, int]]:
        i = int(self.right_perm[pos])
        return [(v, 2 * ((i // s) % (n + 1)) - n) for (v, n), s in zip(self.right_groups, self.right_strides)]

    def P_right(self, b: int) -> int:
        return from_limbs(self.X[b]) - from_limbs(self.X[b + 1])

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
        pos = limb_dot(P, self.X[hi])
        negdot = limb_dot(Q, self.X[NR - hi])
        sumq = self._sumq(s, e)
        bpos = bneg = 0
        und = []
        for a in np.nonzero(hi > lo)[0].tolist():
            fa = self.left.factors(s + a)
            Pa = from_limbs(P[a])
            Qa = from_limbs(Q[a])
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
            sq = limb_colsum(Q)
        return limb_dot(P, self.X[hi, L - k:]), limb_dot(Q, self.X[NR - hi, L - k:]), sq

    def _sumq(self, s: int, e: int) -> int:
        """``sum Q_A`` over left rows ``s..e`` (independent of t: kept)."""
        v = self._sq.get((s, e))
        if v is None:
            v = self._sq[(s, e)] = limb_colsum(self.left.P[self.NL - e:self.NL - s])
        return v


def right_half(spec: VecSpec) -> "VecHalf":
    """The right half with its suffix sums in place of its values: ``P[h] = sum_{b >= h} P_b``
    (``L + 1`` limbs, exact integers)."""
    L = spec.L
    right = VecHalf(spec.right, L, extra=True)
    X = right.P
    mask, s16 = np.uint64(0xFFFF), np.uint64(16)
    run = np.zeros(L + 1, dtype=np.uint64)
    for e in range(right.N, 0, -VEC_CHUNK):
        s = max(0, e - VEC_CHUNK)
        cs = np.cumsum(X[s:e].astype(np.uint64)[::-1], axis=0)[::-1] + run
        carry = np.zeros(len(cs), dtype=np.uint64)
        for k in range(L + 1):
            v = cs[:, k] + carry
            X[s:e, k] = (v & mask).astype(np.uint16)
            carry = v >> s16
        run = X[s].astype(np.uint64)
    return right


def vec_save_half(h: "VecHalf", side: str, path: str) -> None:
    """Save one half's arrays (the left's values, or the right's suffix sums) to ``path``."""
    import os

    names = ("PL", "dL", "permL") if side == "left" else ("X", "dR", "permR")
    for name, a in zip(names, (h.P, h.d, h.perm)):
        np.save(os.path.join(path, name + ".npy"), a)


_STATES: dict = {}


def vec_state(spec: VecSpec) -> VecState:
    """The process's vector form for ``spec`` (kept for the last spec only: a few hundred MB)."""
    st = _STATES.get(spec)
    if st is None:
        _STATES.clear()
        st = _STATES[spec] = VecState(spec, load=spec.path is not None)
    return st
