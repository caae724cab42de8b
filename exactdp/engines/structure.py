"""The S(t) kernels' common interface (Murtagh-Vadhan Theorem 1.5 in exp-space).

For ``w_i = e^{eps_i}``, ``W = prod w_i`` and ``t = e^{eps_g}``::

    S(t) = sum over S subset of [k] of max(W_S - t * W_{not S}, 0)

Every structure (one module per kernel: :mod:`.lattice`, :mod:`.grouped`,
:mod:`.mitm`; chosen by :mod:`.choose`) computes ``S(t)`` and the magnitude of its right
derivative ``sigma(t) = sum over {W_S > t W_notS} of W_notS`` in any
:mod:`~exactdp.engines.fields` field. ``S`` is convex, piecewise linear and
decreasing in ``t`` with breakpoints ``W_S^2 / W``.

Methods (``docs/engines.md``):

``homogeneous``  all ``w_i`` equal: ``sum_m C(k,m) max(w^m - t w^(k-m), 0)``
                 (Kairouz-Oh-Viswanath; Murtagh-Vadhan Theorem 1.4).
``lattice``      ``w_i = u^(a_i)``: count polynomial ``prod (1 + z^(a_i))`` (FLINT
                 ``fmpz_poly``, product tree), then two polynomial evaluations.
``grouped``      few distinct values ``v_j`` with multiplicities ``n_j``: a sum
                 over ``prod (n_j + 1)`` classes with multinomial counts.
``brute``        every subset (the grouped kernel with one group per mechanism).
``mitm``         meet in the middle: subset products of two halves, one half
                 sorted, suffix sums; ``O(k 2^(k/2))``.

Sign decisions inside ``max(., 0)`` are rigorous: a ball that straddles 0 is
decided exactly from the symbolic description of the term
(:func:`~exactdp.numbers.log_sign_of_product`); only when that is impossible (a
:class:`~exactdp.numbers.Computable` input) is ``max(x, 0)`` enclosed instead.
"""


from __future__ import annotations

from typing import Optional

from ..numbers import ExpNum, refine
from .fields import Field

__all__ = ["Structure"]

#: Highest precision of the default float model (:meth:`Structure.approx`), in bits.
APPROX_MAXPREC = 1024


class Structure:
    """A way to evaluate ``S(t)``; subclasses are immutable after construction (caches aside).

    Interface: ``method`` (its name), ``cost()`` (estimated operations per
    evaluation), ``evaluate(field, t_num, t=None) -> (S(t), sigma(t))`` in a field of
    :mod:`~exactdp.engines.fields`, and ``approx(lnt)`` for float searches.
    """

    method = "abstract"

    def cost(self) -> float:
        raise NotImplementedError

    def evaluate(self, field: Field, t_num: ExpNum, t=None):
        """Return ``(S(t), sigma(t))`` in ``field``; ``t`` is ``field.embed(t_num)``."""
        raise NotImplementedError

    def loss_classes(self, field: Field) -> list:
        """The privacy-loss classes of the composition's dominating pair (its pure part):
        ``(count, W_S, W_notS, factors)`` per class, ``W_S`` and ``W_notS`` in ``field``,
        ``factors`` the exact description ``[(x, e), ...]`` of ``W_S / W_notS = prod x^e``.
        Used by the privacy profile's trade-off curve. Raises: CostTooHigh when too many."""
        raise NotImplementedError

    def estimate(self, kind: str, prec: int):
        """``(build, one evaluation)``: :class:`~exactdp.engines.costs.Estimate` of preparing this
        kernel in an arithmetic (``kind``: ``"exact"`` or ``"arb"`` at ``prec`` bits) and of one
        evaluation of S there. Guarantee: approximate (upper estimates). Raises: nothing."""
        from .costs import Estimate

        return Estimate(0.0, 0.0), Estimate(0.0, 0.0)

    def approx(self, lnt: float) -> tuple[float, float]:
        """``(ln S(e^lnt), d ln S / d lnt)`` approximately; ``(-inf, 0)`` where S = 0.

        Guarantee: approximate (used only to choose where the rigorous search starts).
        This default evaluates the kernel in Arb balls at 64 bits, raising the precision
        (to 1024 bits) while the ball of S cannot tell S from 0; kernels with a cheaper
        floating-point form override it.
        """
        from .._backend import workprec
        from .fields import ArbField

        tn = _ApproxExp(lnt)

        def step(prec: int) -> Optional[tuple[float, float]]:
            f = ArbField(prec)
            with workprec(prec):
                s, sig = self.evaluate(f, tn)
                if s > 0:
                    ls = s.log()
                    slope = -(sig * tn.arb(prec) / s)
                    return float(ls.mid()), float(slope.mid())
                if not (s.lower() < 0 < s.upper()) or prec >= APPROX_MAXPREC:
                    return float("-inf"), 0.0
            return None

        # 64, 256, 1024 bits; at the last one the step answers (S taken as 0), so refine never raises
        return refine(step, start=64, grow=lambda p: 4 * p, maxprec=APPROX_MAXPREC, what="the float model of S")


class _ApproxExp(ExpNum):
    """``e^x`` for a float x (only for approximate search phases)."""

    __slots__ = ("x",)
    approximate = True

    def __init__(self, x: float):
        self.x = x

    def arb(self, prec):
        from .._backend import arb as _arb
        from .._backend import workprec

        with workprec(prec):
            return _arb(self.x).exp()

    def flog(self) -> float:
        return self.x


