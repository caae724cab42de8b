"""Section 5 of Murtagh-Vadhan transcribed independently (exact, exp-space).

Lattice instances: ``q = e^{eps_0}`` rational, ``eps_i = a_i eps_0`` (so ``w_i = q^{a_i}``),
``t* = e^{eps*}`` rational. Guarantee: exact.
"""

from __future__ import annotations

from fractions import Fraction as F
from typing import Sequence

from . import _common as C


def knapsack_sum(a: Sequence[int], B: int, w: Sequence) -> object:
    """Lemma 5.1 as printed: F(k, B) from the table F(r, s), 0 <= r <= k, 0 <= s <= B.

    F(0, s) = 1; F(r, s) = F(r-1, s) + w_r F(r-1, s - a_r) if a_r <= s, else F(r-1, s).
    Works for any ring elements w (Fractions, sympy symbols). Returns (value, cells).
    """
    k = len(a)
    prev = [1] * (B + 1)
    cells = B + 1
    for r in range(1, k + 1):
        cur = []
        for s in range(B + 1):
            if a[r - 1] <= s:
                cur.append(prev[s] + w[r - 1] * prev[s - a[r - 1]])
            else:
                cur.append(prev[s])
            cells += 1
        prev = cur
    return prev[B], cells


def knapsack_brute(a: Sequence[int], B: int, w: Sequence) -> object:
    k = len(a)
    tot = 0
    for mask in range(1 << k):
        if sum(a[i] for i in range(k) if mask >> i & 1) <= B:
            term = 1
            for i in range(k):
                if mask >> i & 1:
                    term = term * w[i]
            tot = tot + term
    return tot


def lemma52_B(q: F, a: Sequence[int], t: F) -> int:
    """B = floor((sum eps_i - eps*) / (2 eps_0)), decided exactly: the largest integer b with t q^{2b} <= q^{sum a}
    (negative when t > q^{sum a}; then K is empty)."""
    A = sum(a)
    top = q ** A
    if t > top:
        # largest b < 0 with t q^{2b} <= q^A
        b = -1
        while t * q ** (2 * b) > top:
            b -= 1
        return b
    b = 0
    while t * q ** (2 * (b + 1)) <= top:
        b += 1
    return b


def lemma52_sum(q: F, a: Sequence[int], t: F) -> F:
    """The sum over K via two Lemma 5.1 tables: e^{sum eps} sum_K prod_T e^{-eps_i} - e^{eps*} sum_K prod_T e^{eps_i}."""
    B = lemma52_B(q, a, t)
    if B < 0:
        return F(0)
    w = [q ** ai for ai in a]
    f_minus, _ = knapsack_sum(a, B, [1 / x for x in w])
    f_plus, _ = knapsack_sum(a, B, w)
    return C.prod(w) * f_minus - t * f_plus


def lemma52_decide(q: F, a: Sequence[int], ds: Sequence[F], t: F, dg: F) -> bool:
    """Lemma 5.2's test of OptComp <= eps* (t = e^{eps*}) via Theorem 1.5's inequality."""
    w = [q ** ai for ai in a]
    Z = C.prod(1 + x for x in w)
    P = C.prod(1 - d for d in ds)
    return lemma52_sum(q, a, t) / Z <= 1 - (1 - dg) / P


def floor_log(q: F, w: F) -> int:
    """a = floor(log_q w) for q > 1, w >= 1 (exact): the largest a with q^a <= w."""
    a = 0
    while q ** (a + 1) <= w:
        a += 1
    return a
