"""Murtagh-Vadhan Lemma 5.1: the knapsack-style table (a modification of Dyer's counting programme).

Guarantee: exact in the arithmetic of the weights (see :func:`knapsack_sum`).
"""

from __future__ import annotations

from typing import Sequence

from .._backend import arb, arb_poly
from ..errors import InvalidArgument
from ..links import implements
from .lattice import check_exponents

__all__ = ["knapsack_sum", "knapsack_arb"]


@implements("Murtagh-Vadhan Lemma 5.1")
def knapsack_sum(a: Sequence[int], B: int, w: Sequence, *, table: bool = False):
    """Lemma 5.1: ``sum over S subset [k] with sum_{i in S} a_i <= B of prod_{i in S} w_i``.

    The dynamic programme exactly as printed: ``F(0, s) = 1``;
    ``F(r, s) = F(r-1, s) + w_r F(r-1, s - a_r)`` if ``a_r <= s``, else
    ``F(r-1, s)``; the answer is ``F(k, B)``, after filling the ``(k+1) x (B+1)``
    table in ``O(Bk)`` ring operations.

    Guarantee: exact in the arithmetic of the weights: exact for ``int``,
    ``Fraction`` or gmpy2 ``mpq`` weights; an enclosure for Arb balls (every
    operation is a ball operation); approximate for floats.

    Parameters:
        a: non-negative integers ``a_1..a_k``.
        B: the knapsack bound, an integer >= 0.
        w: ``k`` weights in one ring (anything with ``+`` and ``*`` with ints).
        table: also return the whole table (a list of ``k+1`` rows, row ``r``
            holding ``F(r, 0..B)``).

    Raises:
        InvalidArgument: a negative or non-integer ``a_i`` or ``B``, or ``w`` of
            the wrong length.

    Examples:
        >>> from fractions import Fraction
        >>> knapsack_sum([1, 2, 3], 3, [Fraction(2), Fraction(3), Fraction(5)])  # {},{1},{2},{3},{1,2}
        Fraction(17, 1)
        >>> from flint import arb
        >>> knapsack_sum([1, 1], 1, [arb(2).sqrt(), arb(3).sqrt()])  # 1 + sqrt2 + sqrt3 (enclosure)
        [4.14626436994197 +/- 3.01e-15]

    References:
        Murtagh-Vadhan Lemma 5.1 (a modification of Dyer's knapsack counting
        programme).
    """
    al = check_exponents(a)
    if isinstance(B, bool) or not isinstance(B, int) or B < 0:
        raise InvalidArgument("B", "an integer >= 0", B)
    wl = list(w)
    if len(wl) != len(al):
        raise InvalidArgument("w", f"a list of {len(al)} weights (one per a_i)", f"{len(wl)} weights")
    prev = [1] * (B + 1)
    rows = [prev] if table else None
    for ar, wr in zip(al, wl):
        cur = list(prev)
        for s in range(ar, B + 1):
            cur[s] = prev[s] + wr * prev[s - ar]
        prev = cur
        if rows is not None:
            rows.append(cur)
    return (prev[B], rows) if table else prev[B]


def knapsack_arb(a: Sequence[int], B: int, weights: Sequence[arb]) -> arb:
    """Lemma 5.1 in Arb, one table row per step as a vector operation.

    Row ``r`` of the table is the coefficient vector of an ``arb_poly``; the
    printed recursion ``F(r, s) = F(r-1, s) + w_r F(r-1, s - a_r)`` is
    ``F_r = F_{r-1} + w_r * (F_{r-1} shifted by a_r)``, truncated to ``B+1``
    entries. Same cells, same order of operations per cell. Guarantee:
    enclosure (run inside ``workprec``).
    """
    if B < 0:
        return arb(0)
    F = arb_poly([1] * (B + 1))
    for ar, wr in zip(a, weights):
        if ar > B:
            continue
        if ar == 0:
            F = F * (1 + wr)
        else:
            F = F + F.left_shift(ar).truncate(B + 1) * wr
    return F[B]
