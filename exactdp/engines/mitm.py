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

Guarantee: exact in the exact field, an enclosure in Arb balls.
"""

from __future__ import annotations

import math
from fractions import Fraction
from math import gcd
from typing import Optional, Sequence

import numpy as np

from ..numbers import ExpNum, RatExp, Root, log_sign_of_product
from .fields import Field
from .grouped import binomial_row
from .structure import Structure

__all__ = ["MITM", "ratio_keys", "coprime_base", "split_groups"]


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


class MITM(Structure):
    """Meet in the middle over two halves of the groups (see the module docstring)."""

    method = "mitm"

    def __init__(self, groups: Sequence, *, keys: bool = True):
        gl = list(groups)
        if gl and not isinstance(gl[0], tuple):  # a list of values, one per mechanism
            merged: dict = {}
            for x in gl:
                merged[x] = merged.get(x, 0) + 1
            gl = list(merged.items())
        self.groups = [(v, int(n)) for v, n in gl]
        self.k = sum(n for _, n in self.groups)
        left, right = split_groups(self.groups)
        kv = ratio_keys([v for v, _ in self.groups]) if keys else None
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
        return float(len(self.Lh) + len(self.Rh)) * max(1, len(self.groups))

    def estimate(self, kind: str, prec: int):
        from .costs import mitm_cost

        def bits(v):
            q = v.exact()
            return float(q.numerator.bit_length() + q.denominator.bit_length()) if q is not None else 64.0

        wb = sum(bits(v) * n for v, n in self.groups) / 2
        cb = 0.73 * max(sum(n for _, n in self.Lh.groups if n > 1), sum(n for _, n in self.Rh.groups if n > 1))
        return mitm_cost(float(len(self.Lh)), float(len(self.Rh)), len(self.groups), kind, prec, wb, cb)

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
        if pos <= 0:
            return float("-inf"), 0.0
        tn = lnt + math.log(neg) if neg > 0 else -math.inf
        if tn > 700 or math.exp(tn) >= pos:
            return float("-inf"), 0.0
        rest = pos - math.exp(tn)
        ls = math.log(rest) + ma + mb + 0.5 * (self._log_W())
        return ls, -math.exp(tn) / rest

    def _log_W(self) -> float:
        return math.fsum(n * v.flog() for v, n in self.groups)
