"""The two halves of meet in the middle and their per-class form.

:func:`split_groups` deals the groups to two halves of about equal class counts; a
:class:`Half` holds one half's classes merged by exact ratio (:mod:`.keys`) and sorted by
their float key. Guarantee: exact. Raises: nothing.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Optional, Sequence

from ..._backend import np
from ...numbers import ExpNum
from ..fields import Field
from ..grouped import binomial_row

__all__ = ["split_groups", "half_classes", "Half"]


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


class Half:
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
