"""The meet-in-the-middle kernel for arbitrary values: ``O(k 2^(k/2))``.

Guarantee: exact in the exact field, an enclosure in Arb balls; classes near
the threshold are decided by the field and, where a ball straddles, exactly.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Optional, Sequence

import numpy as np

from ..numbers import ExpNum, RatExp, log_sign_of_product
from .fields import Field
from .structure import Structure

__all__ = ["MITM"]


class MITM(Structure):
    """Meet in the middle over two halves ``L``, ``R`` of the mechanisms.

    For a subset ``S = A u B`` (``A`` in L, ``B`` in R) the term is positive iff
    ``d_A + d_B > log t`` where ``d_X = log W_X - log W_{notX}``. ``R`` is sorted
    by a float key of ``d_B``; for each ``A``, classes far from the threshold
    (beyond a margin ``mu`` a million times the worst-case float error of the
    keys) are classified by the keys, the few inside the margin by the field's
    own sign test and, if a ball straddles 0, by an exact symbolic decision.
    Suffix sums of ``W_B`` and ``W_notB`` over the sorted ``R`` give each ``A``'s
    contribution in O(1).
    """

    method = "mitm"

    def __init__(self, ws: Sequence[ExpNum]):
        self.ws = list(ws)
        k = len(self.ws)
        self.k = k
        half = k // 2
        self.L = self.ws[:half]
        self.R = self.ws[half:]
        self._cache: dict = {}
        lw = [x.flog() for x in self.ws]
        self._lw = lw
        self._abs_sum = math.fsum(abs(v) for v in lw)
        # Exact integer keys when every eps_i is a rational eps (w_i = e^{r_i}):
        # d_X = (sum_X n_i - sum_notX n_i) / L with n_i = r_i L integers.
        self._L: Optional[int] = None
        if all(isinstance(x, RatExp) and x.q == 1 for x in self.ws):
            L = 1
            for x in self.ws:
                L = L * x.r.denominator // math.gcd(L, x.r.denominator)
            n = [int(x.r * L) for x in self.ws]
            if 2 * sum(n) < 2 ** 62:
                self._L = L
                self._il = self._int_keys(n[:half])
                self._ir = self._int_keys(n[half:])
        if self._L is not None:
            self._order_r = np.argsort(self._ir, kind="stable")
            self._ir_sorted = self._ir[self._order_r]
            step = 1.0 / self._L
            self._fl = self._il.astype(float) * step
            self._fr = self._ir.astype(float) * step
            self._fr_sorted = self._ir_sorted.astype(float) * step  # monotone in the integer order
        else:
            self._fl = self._float_keys(lw[:half])
            self._fr = self._float_keys(lw[half:])
            self._order_r = np.argsort(self._fr, kind="stable")
            self._fr_sorted = self._fr[self._order_r]

    @staticmethod
    def _int_keys(n: Sequence[int]) -> np.ndarray:
        d = np.array([-sum(n)], dtype=np.int64)
        for v in n:
            d = np.concatenate([d, d + 2 * v])
        return d

    @staticmethod
    def _float_keys(lw: Sequence[float]) -> np.ndarray:
        # d_X = sum_{i in X} l_i - sum_{i not in X} l_i for all masks X (bit i = element i)
        d = np.array([-math.fsum(lw)])
        for l in lw:
            d = np.concatenate([d, d + 2 * l])
        return d

    def loss_classes(self, field: Field) -> list:
        """Every subset as a class (the brute-force classes; ``k <= 20``)."""
        from ..errors import CostTooHigh
        from .grouped import Grouped

        if self.k > 20:
            raise CostTooHigh("mechanisms", f"the privacy-loss classes of {self.k} incommensurable mechanisms number "
                              f"2^{self.k}; refused above 2^20", estimate=2.0**self.k, limit=2**20,
                              alternative="mechanisms on a common lattice (rational eps)")
        return Grouped([(x, 1) for x in self.ws], "brute").loss_classes(field)

    def cost(self) -> float:
        return float(2 ** len(self.L) + 2 ** len(self.R)) * max(1, self.k)

    def _margin(self, lnt: float) -> float:
        return 1e-9 * (1.0 + self._abs_sum + abs(lnt))

    def _half_values(self, field: Field, xs: Sequence[ExpNum]):
        one = field.rational(Fraction(1))
        ws = [one]
        wn = [one]
        for x in xs:
            e = field.embed(x)
            ws, wn = ws + [v * e for v in ws], [v * e for v in wn] + wn
        return ws, wn

    def _prepared(self, field: Field):
        key = (field.name, getattr(field, "prec", None))
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        la, lna = self._half_values(field, self.L)
        rb, rnb = self._half_values(field, self.R)
        order = self._order_r
        rb = [rb[i] for i in order]
        rnb = [rnb[i] for i in order]
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

    def _symbolic_sign(self, a_mask: int, b_pos: int, t_num: ExpNum) -> Optional[int]:
        b_mask = int(self._order_r[b_pos])
        facs = []
        for i, x in enumerate(self.L):
            facs.append((x, 1 if (a_mask >> i) & 1 else -1))
        for i, x in enumerate(self.R):
            facs.append((x, 1 if (b_mask >> i) & 1 else -1))
        facs.append((t_num, -1))
        return log_sign_of_product(facs)

    def evaluate(self, field: Field, t_num: ExpNum, t=None):
        if t is None:
            t = field.embed(t_num)
        la, lna, rb, rnb, suf_b, suf_nb = self._prepared(field)
        lnt = t_num.flog()
        if self._L is not None and isinstance(t_num, RatExp) and t_num.q == 1:
            # exact: positive iff n_A + n_B > t.r * L  iff  n_A + n_B > floor(t.r * L)
            tl = t_num.r * self._L
            T = tl.numerator // tl.denominator
            hi = np.searchsorted(self._ir_sorted, T - self._il, side="right")
            lo = hi
        else:
            mu = self._margin(lnt)
            theta = lnt - self._fl  # B positive iff d_B > theta_A
            hi = np.searchsorted(self._fr_sorted, theta + mu, side="right")
            lo = np.searchsorted(self._fr_sorted, theta - mu, side="left")
        zero = field.rational(Fraction(0))
        n = len(rb)
        g1 = {}
        g2 = {}
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

    def approx_log_S(self, lnt: float) -> float:
        # numpy float64 in a scaled log domain: W_S = sqrt(W) e^{d/2}, W_notS = sqrt(W) e^{-d/2},
        # S(t)/sqrt(W) = sum_A [e^{d_A/2} SE(h_A) - t e^{-d_A/2} SN(h_A)], every exponential scaled to <= 1.
        dl = self._fl
        dr = self._fr_sorted
        ma = 0.5 * float(np.abs(dl).max())
        mb = 0.5 * float(np.abs(dr).max())
        h = np.searchsorted(dr, lnt - dl, side="right")
        se = np.concatenate([np.cumsum(np.exp(0.5 * dr - mb)[::-1])[::-1], [0.0]])
        sn = np.concatenate([np.cumsum(np.exp(-0.5 * dr - mb)[::-1])[::-1], [0.0]])
        pos = float(np.dot(np.exp(0.5 * dl - ma), se[h]))
        neg = float(np.dot(np.exp(-0.5 * dl - ma), sn[h]))
        if pos <= 0:
            return float("-inf")
        if neg > 0:
            v = lnt + math.log(neg)
            if v > 700 or math.exp(v) >= pos:
                return float("-inf")
            pos -= math.exp(v)
        return math.log(pos) + ma + mb + 0.5 * math.fsum(self._lw)


