"""Small sympy helpers for the symbolic checks.

Guarantee: ``is_zero`` is exact (sympy simplification of a rational or
algebraic expression; it returns True only when the expression simplifies to
0). ``same_sign_product`` checks ``expr == sign * prod(factors)`` as an
identity, so the sign of ``expr`` follows from the (hypothesised) signs of the
factors, stated by the caller.
"""

from __future__ import annotations

from typing import Iterable

import sympy as sp


def is_zero(expr) -> bool:
    """True iff ``expr`` simplifies to 0 (exact)."""
    e = sp.simplify(sp.expand(expr))
    if e == 0:
        return True
    e = sp.simplify(sp.factor(sp.together(e)))
    return e == 0


def identical(a, b) -> bool:
    """True iff ``a - b`` simplifies to 0 (exact)."""
    return is_zero(a - b)


def same_sign_product(expr, sign: int, factors: Iterable) -> bool:
    """True iff ``expr == sign * prod(factors)`` identically."""
    p = sp.Integer(sign)
    for f in factors:
        p = p * f
    return identical(expr, p)
