"""What the engines work on: a prepared composition.

:class:`Prepared` is a composition made ready for Murtagh-Vadhan Theorem 1.5 in
exp-space: its distinct ``w = e^eps`` with counts, ``P = prod (1 - delta_i)``,
the chosen S(t) kernel, and ``Z = prod (1 + w_i)`` in each field (cached). It is
built once per composition and reused by every query (the privacy profile keeps
one). The inverse's target (:class:`~exactdp.engines.inverse.Target`) lives with the
inverse.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Optional, Sequence

from ..errors import CostTooHigh
from ..events import Composition
from ..numbers import ExpNum
from .choose import choose_structure
from .fields import ExactField, Field
from .inverse import BallP
from .structure import Structure

__all__ = ["Prepared", "merge_by_w"]


def merge_by_w(comp: Composition) -> list[tuple[ExpNum, int]]:
    """Distinct ``w = e^eps`` of a composition with total counts (deltas do not enter S(t)).

    Mechanisms with ``eps = 0`` (``w = 1``) are left out when any other remains: each
    doubles both ``S(t)`` (a subset with or without it has the same ratio) and
    ``Z = prod (1 + w_i)``, so ``S / Z`` is unchanged and the kernel stays homogeneous
    (``k`` mechanisms of one eps plus any number of pure-delta ones).
    Guarantee: exact. Raises: nothing."""
    out: dict = {}
    for m, n in comp.groups():
        out[m.w] = out.get(m.w, 0) + n
    if len(out) > 1:
        out = {w: n for w, n in out.items() if not w.is_one()}
    return list(out.items())


def _log1p_exp(l: float) -> float:
    """``log(1 + e^l)`` without overflow."""
    return l + math.log1p(math.exp(-l)) if l > 0 else math.log1p(math.exp(l))


class Prepared:
    """A composition ready for the engines (see the module docstring).

    ``exact_first=False`` when the engine computes in balls (certified, float): ``auto`` then
    ranks the kernels in balls only. ``prec``: the balls' precision the request runs at, at
    which the kernel's cost is estimated before it is built.

    Guarantee: exact (the kernel and P are exact; Z is exact or an enclosure per field).

    Raises:
        InvalidArgument / CostTooHigh: from the kernel's choice (:func:`~exactdp.engines.choose.choose_structure`).
    """

    def __init__(self, comp: Composition, method: str = "auto", *, struct: Optional[Structure] = None,
                 exact_first: bool = True, p_balls: bool = False, prec: int = 128):
        self.comp = comp
        self.k = comp.k
        self.groups = merge_by_w(comp)
        if struct is None:
            struct = choose_structure(None, method, groups=self.groups, exact_first=exact_first, prec=prec)
        self.struct = struct
        # P after the kernel's refusal (both are estimated before any work); with p_balls, a
        # P too large as a rational is kept as balls (BallP) for the ball engines, and its
        # refusal for the exact engine (P_refusal)
        self.P_refusal: Optional[CostTooHigh] = None
        try:
            self.P: "Fraction | BallP" = comp.delta_product
        except CostTooHigh as e:
            if not p_balls:
                raise
            self.P, self.P_refusal = BallP(comp), e
        self._Z: dict = {}
        self.ln_W = math.fsum(n * w.flog() for w, n in self.groups)
        self.log_Z = math.fsum(n * _log1p_exp(w.flog()) for w, n in self.groups)

    @property
    def method(self) -> str:
        return self.struct.method

    def all_exact(self) -> bool:
        """Is every ``e^eps_i`` rational (so the exact engine applies)?"""
        return all(w.exact() is not None for w, _ in self.groups)

    def check_exact(self) -> None:
        """Refuse the exact engine for an irrational ``e^eps_i``, before any work.

        Raises:
            NotExact: naming eps / exp_eps.
        """
        f = ExactField()
        for w, _ in self.groups:
            f.embed(w)

    def Z(self, field: Field):
        """``prod (1 + w_i)`` in ``field`` (cached per field and precision; powers per group)."""
        key = (field.name, getattr(field, "prec", None))
        hit = self._Z.get(key)
        if hit is None:
            z = field.rational(Fraction(1))
            for w, n in self.groups:
                z = z * field.power(w, n, one_plus=True)
            hit = self._Z[key] = z
        return hit

    def W_groups(self) -> Sequence[tuple[ExpNum, int]]:
        """``W = prod w_i`` as groups ``(w, count)``."""
        return self.groups
