"""Blackwell's theorem for finite distributions (Vadhan-Zhang Theorem 3.2): ``T(P, Q) <= T(P', Q')``
(the pair ``(P', Q')`` is at least as private) exactly when some Markov kernel ``K`` maps ``P`` to
``P'`` and ``Q`` to ``Q'``. The kernel is searched by linear programming (HiGHS) and accepted only
after an exact check; when no kernel exists, an exact Farkas certificate proves it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Optional, Sequence

from ..fdp import distribution_pair, tradeoff_of
from ..links import implements
from .lp import LPOutcome, exact_feasibility

__all__ = ["BlackwellResult", "blackwell_kernel", "apply_kernel"]


@dataclass(frozen=True, kw_only=True)
class BlackwellResult:
    """``status``: ``"verified"`` (``kernel[x][y] = K(y | x)`` checked exactly), ``"infeasible"``
    (exact Farkas certificate) or ``"unverified"``; ``dominated`` is the exact decision
    ``T(P, Q) <= T(P', Q')`` from the trade-off functions (Blackwell: equivalent to a kernel)."""

    status: str
    kernel: Optional[list[list[Fraction]]]
    dominated: bool
    lp: LPOutcome


def apply_kernel(K: Sequence[Sequence[Fraction]], P: Sequence[Fraction]) -> list[Fraction]:
    """``(K P)(y) = sum_x P(x) K(y | x)``. Guarantee: exact. Raises: nothing."""
    m = len(K[0]) if K else 0
    return [sum((P[x] * K[x][y] for x in range(len(P))), Fraction(0)) for y in range(m)]


@implements("Vadhan-Zhang Theorem 3.2")
def blackwell_kernel(P: Sequence[object], Q: Sequence[object], P2: Sequence[object], Q2: Sequence[object]) -> BlackwellResult:
    """A Markov kernel ``K`` with ``K P = P2`` and ``K Q = Q2`` (post-processing), found by LP and
    verified exactly, or an exact proof that none exists.

    Guarantee: ``"verified"``: ``K`` is row-stochastic and maps the pairs exactly;
    ``"infeasible"``: exact Farkas certificate; ``dominated`` is an exact decision.

    Raises:
        InvalidArgument: not distributions; highspy not installed.

    Examples:
        >>> rr3 = (["3/4", "1/4"], ["1/4", "3/4"]); rr2 = (["2/3", "1/3"], ["1/3", "2/3"])
        >>> r = blackwell_kernel(*rr3, *rr2)          # RR with e^eps = 2 is a post-processing of e^eps = 3
        >>> r.status, r.dominated, r.kernel
        ('verified', True, [[Fraction(5, 6), Fraction(1, 6)], [Fraction(1, 6), Fraction(5, 6)]])
        >>> blackwell_kernel(*rr2, *rr3).status
        'infeasible'
    """
    a1, a2 = distribution_pair(P, Q), distribution_pair(P2, Q2)
    n, m = len(a1), len(a2)
    A: list[dict] = []
    b: list[Fraction] = []
    for x in range(n):
        A.append({x * m + y: Fraction(1) for y in range(m)})
        b.append(Fraction(1))
    for k in (0, 1):
        for y in range(m):
            A.append({x * m + y: a1[x][k] for x in range(n) if a1[x][k]})
            b.append(a2[y][k])
    dominated = tradeoff_of([p for p, _ in a2], [q for _, q in a2]).dominates(tradeoff_of([p for p, _ in a1], [q for _, q in a1]))
    out = exact_feasibility(A, b, n * m)
    if out.status != "feasible":
        return BlackwellResult(status=out.status, kernel=None, dominated=dominated, lp=out)
    x = out.x
    assert x is not None
    K = [[x[i * m + y] for y in range(m)] for i in range(n)]
    ok = (all(sum(row) == 1 and min(row) >= 0 for row in K) and apply_kernel(K, [p for p, _ in a1]) == [p for p, _ in a2]
          and apply_kernel(K, [q for _, q in a1]) == [q for _, q in a2])
    return BlackwellResult(status="verified" if ok else "unverified", kernel=K if ok else None, dominated=dominated, lp=out)
