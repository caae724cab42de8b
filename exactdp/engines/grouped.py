"""The grouped kernel: few distinct values ``v_j`` with multiplicities ``n_j``.

``S(t)`` is a sum over the ``prod (n_j + 1)`` classes ``(m_1..m_g)`` with
multinomial counts ``prod C(n_j, m_j)``; with every ``n_j = 1`` it is the brute
force over all ``2^k`` subsets, the reference form of Murtagh-Vadhan Theorem 1.5.
Guarantee: exact in the exact field, an enclosure in Arb balls.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Sequence

from .._backend import np
from ..numbers import ExpNum, RatExp, log_sign_of_product
from .costs import ALLOC_SLACK, Estimate, elem_bytes, fmt, magnitude_bits, value_bits
from .fields import Field
from .kernel import Kernel, Request
from .structure import Structure

__all__ = ["Grouped", "GROUPED", "binomial_row", "grouped_cost", "grouped_estimate"]


def binomial_row(n: int) -> list[int]:
    """``C(n, 0..n)`` by the multiplicative recurrence (``math.comb`` per entry is cubic in n).
    Guarantee: exact. Raises: nothing."""
    row = [1]
    c = 1
    for m in range(n):
        c = c * (n - m) // (m + 1)
        row.append(c)
    return row


class Grouped(Structure):
    """Distinct values ``v_j`` with multiplicities ``n_j``; classes ``(m_1..m_g)``.

    With every ``n_j = 1`` (no grouping) this is the brute-force sum over all
    ``2^k`` subsets, the reference implementation of Theorem 1.5.
    """

    def __init__(self, groups: Sequence[tuple[ExpNum, int]], method: str = "grouped"):
        self.groups = [(v, int(n)) for v, n in groups]
        self.method = method
        self._cache: dict = {}
        self._float: tuple | None = None
        self._ikeys: tuple | None = None

    def cost(self) -> float:
        n = 1.0
        for _, nj in self.groups:
            n *= nj + 1
        return n * max(1, len(self.groups))

    def estimate(self, kind: str, prec: int):
        return grouped_estimate(self.groups, kind, prec)

    def _classes(self, field: Field):
        key = (field.name, getattr(field, "prec", None))
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        one = field.rational(Fraction(1))
        # entries: (count, W_S, W_notS, exponent vector)
        entries = [(1, one, one, ())]
        for v, n in self.groups:
            x = field.embed(v)
            pw = [one]
            for _ in range(n):
                pw.append(pw[-1] * x)
            row = binomial_row(n)
            new = []
            for cnt, ws, wn, ex in entries:
                for mj in range(n + 1):
                    new.append((cnt * row[mj], ws * pw[mj], wn * pw[n - mj], ex + (mj,)))
            entries = new
        self._cache = {key: entries}
        return entries

    def loss_classes(self, field: Field) -> list:
        """Classes ``(m_1..m_g)``: ``(count, W_S, W_notS, [(v_j, 2 m_j - n_j)])``."""
        return [(cnt, ws, wn, [(v, 2 * mj - n) for (v, n), mj in zip(self.groups, ex)])
                for cnt, ws, wn, ex in self._classes(field)]

    def _int_keys(self, t_num: ExpNum):
        """Exact integer keys when every value and ``t`` are ``e^r`` with rational r:
        ``(den * ln(W_S / W_notS) per class, den * ln t)``, so a class counts iff its key is
        larger; else None. Decides every class exactly, also where balls cannot
        (``e^(1e309)``) and without the symbolic rule per class."""
        if not (isinstance(t_num, RatExp) and t_num.q == 1 and not t_num.approximate):
            return None
        if not all(isinstance(v, RatExp) and v.q == 1 for v, _ in self.groups):
            return None
        if self._ikeys is None:
            den = 1
            for v, _ in self.groups:
                den = den * v.r.denominator // math.gcd(den, v.r.denominator)  # type: ignore[attr-defined]
            nv = [int(v.r * den) for v, _ in self.groups]  # type: ignore[attr-defined]
            keys: dict = {(): 0}
            for (_, n), x in zip(self.groups, nv):
                keys = {ex + (m,): key + (2 * m - n) * x for ex, key in keys.items() for m in range(n + 1)}
            self._ikeys = (den, keys)
        den, keys = self._ikeys
        tl = t_num.r * den  # type: ignore[attr-defined]
        return keys, tl.numerator // tl.denominator  # an integer key is <= tl iff it is <= floor(tl)

    def evaluate(self, field: Field, t_num: ExpNum, t=None):
        if t is None:
            t = field.embed(t_num)
        zero = field.rational(Fraction(0))
        s = zero
        sig = zero
        ik = self._int_keys(t_num) if self.cost() <= 2**24 else None
        for cnt, ws, wn, ex in self._classes(field):
            if ik is not None:
                key = ik[0][ex]
                if key <= ik[1]:  # d <= 0 exactly: no contribution
                    continue
                d = ws - t * wn
                s += cnt * d
                sig += cnt * wn
                continue
            d = ws - t * wn
            sgn = field.sign(d)
            if sgn is None:
                facs = [(v, 2 * mj - n) for (v, n), mj in zip(self.groups, ex)]
                facs.append((t_num, -1))
                sgn = log_sign_of_product(facs)
            if sgn is None:
                s += cnt * field.pos(d)
            elif sgn > 0:
                s += cnt * d
                sig += cnt * wn
        return s, sig

    def _float_classes(self):
        """Float arrays over the classes: ``ln count``, ``ln W_S``, ``ln W_notS`` (for :meth:`approx`)."""
        if self._float is None:
            logs = np.array([v.flog() for v, _ in self.groups])
            ns = np.array([n for _, n in self.groups])
            ms = np.array(list(itertools.product(*[range(n + 1) for _, n in self.groups])), dtype=float)
            ms = ms.reshape(-1, len(self.groups))
            lb = [np.array([math.lgamma(n + 1) - math.lgamma(m + 1) - math.lgamma(n - m + 1) for m in range(n + 1)])
                  for _, n in self.groups]
            lc = np.zeros(len(ms))
            for j in range(len(self.groups)):
                lc += lb[j][ms[:, j].astype(int)]
            with np.errstate(invalid="ignore"):
                lws = ms @ logs
                lwn = (ns - ms) @ logs
            self._float = (lc, lws, lwn)
        return self._float

    def approx(self, lnt: float) -> tuple[float, float]:
        # float log-space over the classes: S = sum_{key > lnt} cnt W_S (1 - t W_notS / W_S)
        lc, lws, lwn = self._float_classes()
        return _approx_classes(lc, lws, lwn, lnt)


def _approx_classes(lc, lws, lwn, lnt: float) -> tuple[float, float]:
    """``(ln S, d ln S / d ln t)`` from float class arrays (count, W_S, W_notS in logs)."""
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        key = lws - lwn
        mask = key > lnt
        if not mask.any():
            return float("-inf"), 0.0
        x = lc[mask] + lws[mask] + np.log(-np.expm1(lnt - key[mask]))
        mx = float(x.max())
        if not math.isfinite(mx):
            return float("-inf"), 0.0
        ls = mx + math.log(float(np.exp(x - mx).sum()))
        y = lc[mask] + lwn[mask]
        my = float(y.max())
        lsig = my + math.log(float(np.exp(y - my).sum()))
        return ls, -math.exp(min(lsig + lnt - ls, 700.0))


# --------------------------------------------------------------------------
# the cost model (rates measured on 2 shared cores; docs/engines.md, benchmarks)


def grouped_cost(groups: Sequence[tuple[float, int]], kind: str, prec: int, mag: int = 0) -> tuple[Estimate, Estimate]:
    """``(build, one evaluation)`` of the grouped kernel over ``prod (n_j + 1)`` classes.

    ``groups``: ``(bits of one value, count)``. Each class keeps a count, ``W_S``,
    ``W_notS`` and its exponent vector (two lists alive while building), plus float
    arrays for the search; measured 420-600 bytes per class, 10 us (Arb) and 15 us
    (exact, 400-bit rationals) per class and evaluation, more with counts of ``cbits``
    bits (one group of 1e5: 15 s for delta_g).
    """
    g = len(groups)
    C = 1.0
    wbits = 0.0
    cbits = 0.0
    for b, n in groups:
        C *= n + 1
        wbits += b * n
        cbits += 0.73 * n  # mean of log2 C(n, m) over m
    eb = elem_bytes(kind, prec, wbits, mag)
    per = 2 * (200 + 2 * eb + 16 * g + cbits / 8) + 8 * (g + 4)
    build = Estimate(C * (2e-6 * max(g, 1) + 1e-6 + 1e-9 * cbits), C * per + ALLOC_SLACK)
    ev = Estimate(C * (3e-6 + (1e-8 * wbits if kind == "exact" else 2e-9 * prec) + 5e-10 * cbits), ALLOC_SLACK)
    return build, ev


def grouped_estimate(groups: Sequence[tuple[ExpNum, int]], kind: str, prec: int) -> tuple[Estimate, Estimate]:
    """:func:`grouped_cost` of the grouped kernel over ``groups`` (values with counts). The kernel
    keeps two balls per class, at the precision the values' size needs (measured: e^(5.5e316)
    takes 1088 bits and 2.78 GB over 1e6 classes). Guarantee: approximate. Raises: nothing."""
    mag = magnitude_bits(groups) if kind == "arb" else 0
    return grouped_cost([(value_bits(v), n) for v, n in groups], kind, prec + mag, mag)


# --------------------------------------------------------------------------
# the plug-in


class GroupedKernel(Kernel):
    """Few distinct values with multiplicities: a sum over ``prod (n_j + 1)`` classes."""

    name = "grouped"

    def offered(self, req: Request) -> bool:
        return len(req.groups) < req.k  # one mechanism per group: the brute force's case

    def estimate(self, req: Request, kind: str = "arb", prec: int = 128) -> tuple[Estimate, Estimate]:
        return grouped_estimate(req.groups, kind, prec)

    def describe(self, req: Request) -> str:
        C = 1.0
        for _, n in req.groups:
            C *= n + 1
        return f"the grouped sum over {fmt(C)} classes"

    def build(self, req: Request) -> Structure:
        return Grouped(req.groups)


GROUPED = GroupedKernel()
