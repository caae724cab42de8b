"""Choosing the S(t) kernel: lattice detection and the cheapest applicable method.

Works on *groups* ``(w, n)`` (a distinct ``e^eps`` and how many mechanisms have
it), so a composition of ``k`` equal mechanisms is one group, never a list of
``k`` values. Every refusal is decided before any work, from the limits in
:mod:`.costs`, with the estimate and the faster option.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Callable, Optional, Sequence, Union

from ..errors import CostTooHigh, InvalidArgument
from ..numbers import ExpNum, RatExp, Root
from .costs import (
    MAX_AUTO_COST,
    MAX_BRUTE_K,
    MAX_LATTICE_A,
    MAX_LATTICE_BITS,
    MAX_MITM_K,
    fmt,
    lattice_refusal,
)
from .grouped import Grouped
from .lattice import Lattice
from .mitm import MITM
from .structure import Structure

__all__ = ["METHODS", "choose_structure", "detect_lattice", "detect_lattice_groups", "groups_of"]

METHODS = ("auto", "homogeneous", "lattice", "grouped", "mitm", "brute")

Groups = Sequence[tuple[ExpNum, int]]


def _perfect_power(q: Fraction) -> tuple[Fraction, int]:
    """``q = b^e`` with ``b`` not a perfect power (``q > 0``, ``q != 1``)."""
    from gmpy2 import iroot

    num, den = q.numerator, q.denominator
    e = 1
    bits = max(num.bit_length(), den.bit_length())
    p = 2
    while p <= bits:
        r1, ok1 = iroot(num, p)
        r2, ok2 = iroot(den, p) if ok1 else (0, False)
        if ok1 and ok2:
            num, den = int(r1), int(r2)
            e *= p
            bits = max(num.bit_length(), den.bit_length())
            continue
        p += 1 if p == 2 else 2
    return Fraction(num, den), e


def detect_lattice_groups(values: Sequence[ExpNum]) -> Optional[tuple[ExpNum, list[int]]]:
    """``(u, a)`` with ``values[j] = u^(a[j])`` exactly, or ``None``. Guarantee: exact.

    Works for eps given as rationals (``u = e^{gcd}``), for rational ``e^eps``
    that are integer powers of one rational, and for D-th roots of such.
    Raises: nothing (``None`` when no lattice is found).
    """
    nontriv = [x for x in values if not x.is_one()]
    if not nontriv:
        return RatExp(), [0] * len(values)
    if all(isinstance(x, RatExp) and x.q == 1 for x in nontriv):
        g_num = 0
        l_den = 1
        for x in nontriv:
            r = x.r  # type: ignore[attr-defined]
            g_num = math.gcd(g_num, r.numerator)
            l_den = l_den * r.denominator // math.gcd(l_den, r.denominator)
        g = Fraction(g_num, l_den)
        a = [0 if x.is_one() else int(x.r / g) for x in values]  # type: ignore[attr-defined]
        return RatExp.from_eps(g), a
    if all((isinstance(x, RatExp) and x.r == 0) for x in nontriv) or (
        all(isinstance(x, Root) for x in nontriv) and len({x.D for x in nontriv}) == 1  # type: ignore[attr-defined]
    ):
        D = nontriv[0].D if isinstance(nontriv[0], Root) else 1
        vals = [x.n if isinstance(x, Root) else x.q for x in nontriv]  # type: ignore[attr-defined]
        bases = [_perfect_power(v) for v in vals]
        b0 = bases[0][0]
        if any(b != b0 for b, _ in bases):
            return None
        g = 0
        for _, e in bases:
            g = math.gcd(g, e)
        ubase = b0**g
        u: ExpNum = RatExp.from_exp(ubase) if D == 1 else Root(ubase, D)
        it = iter(e // g for _, e in bases)
        a = [0 if x.is_one() else next(it) for x in values]
        return u, a
    return None


def detect_lattice(ws: Sequence[ExpNum]) -> Optional[tuple[ExpNum, list[int]]]:
    """``(u, a)`` with ``w_i = u^(a_i)`` exactly for every element of ``ws``, or ``None``.

    Guarantee: exact. Raises: nothing. (The group form is :func:`detect_lattice_groups`.)
    """
    groups = groups_of(ws)
    lat = detect_lattice_groups([v for v, _ in groups])
    if lat is None:
        return None
    u, a = lat
    exp = {v: e for (v, _), e in zip(groups, a)}
    return u, [exp[x] for x in ws]


def groups_of(ws: Sequence[ExpNum]) -> list[tuple[ExpNum, int]]:
    """Distinct values of ``ws`` with their multiplicities, in order of first appearance.
    Guarantee: exact. Raises: nothing."""
    out: dict = {}
    for x in ws:
        out[x] = out.get(x, 0) + 1
    return list(out.items())


def choose_structure(ws: Union[Sequence[ExpNum], None] = None, method: str = "auto", *,
                     groups: Optional[Groups] = None) -> Structure:
    """Build the S(t) kernel (``ws``: every ``e^eps_i``, in order, or ``groups``: distinct
    values with counts, for compositions too large to list) with ``method``, or the
    cheapest applicable one for ``"auto"``.

    Guarantee: exact (the kernel's coefficients are exact integers or exp-space
    numbers; ``auto`` picks by a cost estimate and records the choice in ``.method``).

    Raises:
        InvalidArgument: an unknown method, or one that does not apply (e.g.
            ``homogeneous`` for unequal eps, ``lattice`` for incommensurable eps).
        CostTooHigh: the request would explode (brute force over 2^60 subsets),
            with the estimate and the faster option to use.
    """
    if method not in METHODS:
        raise InvalidArgument("method", "one of " + ", ".join(METHODS), method)
    if groups is None:
        groups = groups_of(ws or [])
    groups = [(v, int(n)) for v, n in groups]
    k = sum(n for _, n in groups)
    # brute force and meet-in-the-middle take the mechanisms in the order given (the
    # halves of mitm are its first and second half); from groups, in group order
    ordered = list(ws) if ws is not None else None

    def _expand(gs: Groups) -> list[ExpNum]:
        return ordered if ordered is not None else [v for v, n in gs for _ in range(n)]

    if method == "homogeneous":
        if len(groups) != 1:
            raise InvalidArgument("method", "'homogeneous' only when every eps_i is equal", f"{len(groups)} distinct eps values")
        why = lattice_refusal(k, k)
        if why:
            raise CostTooHigh("method", why + "; no exact kernel is cheaper for equal mechanisms: use fewer mechanisms",
                              estimate=f"{k + 1} coefficients of up to {k} bits", limit=f"{MAX_LATTICE_BITS} bits",
                              alternative="fewer mechanisms")
        return Lattice.from_groups(groups[0][0], [(1, k)], "homogeneous")
    if method == "brute":
        if k > MAX_BRUTE_K:
            alt = (f"method='mitm' (about {fmt(2.0 ** (k / 2) * k)} operations) or 'auto'" if k <= MAX_MITM_K
                   else "method='auto' (lattice or homogeneous for rational eps) or the approximation (exactdp approx)")
            raise CostTooHigh(
                "method",
                f"brute force over 2^{k} = {fmt(2.0 ** k)} subsets is refused (limit k <= {MAX_BRUTE_K}); use " + alt,
                estimate=f"2^{k} subsets", limit=f"k <= {MAX_BRUTE_K}", alternative=alt,
            )
        return Grouped([(x, 1) for x in _expand(groups)], "brute")
    if method == "mitm":
        if k > MAX_MITM_K:
            alt = "the lattice method (rational eps) or the approximation (exactdp approx)"
            raise CostTooHigh(
                "method",
                f"meet-in-the-middle with k = {k} needs 2^{(k + 1) // 2} = {fmt(2.0 ** ((k + 1) // 2))} subset products per half "
                f"(limit k <= {MAX_MITM_K}); use " + alt,
                estimate=f"2^{(k + 1) // 2} subset products per half", limit=f"k <= {MAX_MITM_K}", alternative=alt,
            )
        return MITM(_expand(groups))
    if method == "grouped":
        g = Grouped(groups)
        if g.cost() > MAX_AUTO_COST:
            raise CostTooHigh("method", f"grouped sum over {fmt(g.cost())} classes is refused; use method='auto'",
                              estimate=g.cost(), limit=MAX_AUTO_COST, alternative="method='auto'")
        return g
    lat = detect_lattice_groups([v for v, _ in groups])
    if method == "lattice":
        if lat is None:
            raise InvalidArgument("method", "'lattice' only when every e^eps_i is an integer power of one common base",
                                  "incommensurable eps values")
        u, a = lat
        A = sum(ai * n for ai, (_, n) in zip(a, groups))
        nonzero = sum(n for ai, (_, n) in zip(a, groups) if ai)
        if A > MAX_LATTICE_A:
            alt = "method='mitm' or exactdp approx"
            raise CostTooHigh("method", f"the lattice polynomial would have degree {A} (limit {MAX_LATTICE_A}); use {alt}",
                              estimate=A, limit=MAX_LATTICE_A, alternative=alt)
        why = lattice_refusal(A, nonzero)
        if why:
            alt = "method='mitm' (k <= 50) or exactdp approx"
            raise CostTooHigh("method", why + "; use " + alt, estimate=f"{A + 1} coefficients of up to {nonzero} bits",
                              limit=f"{MAX_LATTICE_BITS} bits", alternative=alt)
        return Lattice.from_groups(u, _merge(a, groups))
    # auto: cheapest applicable
    cands: list[tuple[float, Callable[[], Structure]]] = []
    refusals: list[str] = []
    if len(groups) == 1:
        why = lattice_refusal(k, k)
        if why is None:
            v0 = groups[0][0]
            cands.append((float(k + 1), lambda: Lattice.from_groups(v0, [(1, k)], "homogeneous")))
        else:
            refusals.append(why)
    if lat is not None:
        u, a = lat
        A = sum(ai * n for ai, (_, n) in zip(a, groups))
        nonzero = sum(n for ai, (_, n) in zip(a, groups) if ai)
        why = lattice_refusal(A, nonzero)
        if A <= MAX_LATTICE_A and why is None:
            cands.append((3.0 * (A + 1), lambda: Lattice.from_groups(u, _merge(a, groups))))
        elif why:
            refusals.append(why)
    gcost = 1.0
    for _, nj in groups:
        gcost *= nj + 1
    gcost *= len(groups) * 8  # Python-level loop per class
    if len(groups) < k:
        if gcost / (len(groups) * 8) * k <= MAX_LATTICE_BITS:  # classes x counts of up to k bits
            cands.append((gcost, lambda: Grouped(groups)))
    else:
        cands.append((gcost, lambda: Grouped([(x, 1) for x in _expand(groups)], "brute")))
    if k <= MAX_MITM_K:
        cands.append((8.0 * (2.0 ** (k // 2) + 2.0 ** (k - k // 2)) * max(1, k) / 4, lambda: MITM(_expand(groups))))
    cost, make = min(cands, key=lambda c: c[0]) if cands else (math.inf, None)
    if cost > MAX_AUTO_COST or make is None:
        alt = ("give rational eps on a coarser lattice, use fewer mechanisms, "
               "or use the approximation of Theorem 1.7 (exactdp approx)")
        raise CostTooHigh(
            "mechanisms",
            (f"exact optimal composition of these {k} mechanisms costs about {fmt(cost)} operations "
             f"(#P-hard in general, Murtagh-Vadhan Thm 1.6)" if cands else
             f"no exact kernel fits for these {k} mechanisms") + "".join(f"; {w}" for w in dict.fromkeys(refusals))
            + "; " + alt,
            estimate=f"about {fmt(cost)} operations" if cands else None, limit=MAX_AUTO_COST, alternative=alt,
        )
    return make()


def _merge(a: Sequence[int], groups: Groups) -> list[tuple[int, int]]:
    """Exponent groups ``(a_j, count)`` with equal exponents merged, sorted."""
    out: dict = {}
    for ai, (_, n) in zip(a, groups):
        out[ai] = out.get(ai, 0) + n
    return sorted(out.items())
