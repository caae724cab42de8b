"""Sympy helpers for Smith-Thakurta.

Guarantee: :func:`is_zero` returns True only when sympy reduces the expression to 0
(exact); a False is checked again on an exact rational instance before it is reported.
"""

from __future__ import annotations

import sympy as sp

__all__ = ["is_zero", "mvec", "closed_form_L", "r_prefix"]


def is_zero(expr) -> bool:
    e = sp.expand(expr)
    if e == 0:
        return True
    e = sp.cancel(sp.together(e))
    if e == 0:
        return True
    return sp.simplify(e) == 0


def mvec(T: int) -> list:
    return list(sp.symbols(f"m1:{T + 1}", real=True))


def r_prefix(m: list, i: int):
    """r_i = 1 - (m_1^2 + ... + m_i^2) (r_0 = 1)."""
    return 1 - sum((x ** 2 for x in m[:i]), sp.Integer(0))


def closed_form_L(m: list) -> sp.Matrix:
    """Canonical Cholesky factor of I - m m^T when every prefix has norm < 1:
    L_jj = sqrt(r_j)/sqrt(r_{j-1}), L_ij = -m_i m_j / (sqrt(r_{j-1}) sqrt(r_j)) (i > j)."""
    T = len(m)
    L = sp.zeros(T, T)
    for j in range(T):
        rj, rp = r_prefix(m, j + 1), r_prefix(m, j)
        L[j, j] = sp.sqrt(rj) / sp.sqrt(rp)
        for i in range(j + 1, T):
            L[i, j] = -m[i] * m[j] / (sp.sqrt(rp) * sp.sqrt(rj))
    return L
