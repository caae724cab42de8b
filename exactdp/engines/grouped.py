"""The grouped kernel: few distinct values ``v_j`` with multiplicities ``n_j``.

``S(t)`` is a sum over the ``prod (n_j + 1)`` classes ``(m_1..m_g)`` with
multinomial counts ``prod C(n_j, m_j)``; with every ``n_j = 1`` it is the brute
force over all ``2^k`` subsets, the reference form of Murtagh-Vadhan Theorem 1.5.
Guarantee: exact in the exact field, an enclosure in Arb balls.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Sequence

from ..numbers import ExpNum, log_sign_of_product
from .fields import Field
from .structure import Structure

__all__ = ["Grouped"]


class Grouped(Structure):
    """Distinct values ``v_j`` with multiplicities ``n_j``; classes ``(m_1..m_g)``.

    With every ``n_j = 1`` (no grouping) this is the brute-force sum over all
    ``2^k`` subsets, the reference implementation of Theorem 1.5.
    """

    def __init__(self, groups: Sequence[tuple[ExpNum, int]], method: str = "grouped"):
        self.groups = [(v, int(n)) for v, n in groups]
        self.method = method
        self._cache: dict = {}

    def cost(self) -> float:
        n = 1.0
        for _, nj in self.groups:
            n *= nj + 1
        return n * max(1, len(self.groups))

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
            new = []
            for cnt, ws, wn, ex in entries:
                for mj in range(n + 1):
                    new.append((cnt * comb(n, mj), ws * pw[mj], wn * pw[n - mj], ex + (mj,)))
            entries = new
        self._cache = {key: entries}
        return entries

    def loss_classes(self, field: Field) -> list:
        """Classes ``(m_1..m_g)``: ``(count, W_S, W_notS, [(v_j, 2 m_j - n_j)])``."""
        return [(cnt, ws, wn, [(v, 2 * mj - n) for (v, n), mj in zip(self.groups, ex)])
                for cnt, ws, wn, ex in self._classes(field)]

    def evaluate(self, field: Field, t_num: ExpNum, t=None):
        if t is None:
            t = field.embed(t_num)
        zero = field.rational(Fraction(0))
        s = zero
        sig = zero
        for cnt, ws, wn, ex in self._classes(field):
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


