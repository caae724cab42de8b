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
from ..numbers import ExpNum, RatExp, Root, pow2_text
from .balllattice import BallLattice
from .costs import (
    EVALS_DELTA,
    MAX_BRUTE_K,
    MAX_LATTICE_A,
    Estimate,
    balllattice_cost,
    check_estimate,
    current_limits,
    fmt,
    fmt_bytes,
    grouped_cost,
    lattice_build,
    lattice_eval,
    magnitude_bits,
    mitm_cost,
    windowed_cost,
    windowed_groups_cost,
)
from .grouped import Grouped
from .lattice import Lattice
from .mitm import MITM, half_classes, split_groups, vec_default
from .multiwindow import WindowedGroups
from .structure import Structure
from .windowed import Windowed

__all__ = ["METHODS", "choose_structure", "detect_lattice", "detect_lattice_groups", "groups_of", "estimate_method"]

METHODS = ("auto", "homogeneous", "windowed", "lattice", "lattice-balls", "windowed-groups", "grouped", "mitm", "brute")

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


def _value_bits(v: ExpNum) -> float:
    """Bits of an exact value (numerator and denominator), 64 for an irrational one."""
    q = v.exact()
    return float(q.numerator.bit_length() + q.denominator.bit_length()) if q is not None else 64.0


def estimate_method(method: str, groups: Groups, lat=None, *, kind: str = "arb", prec: int = 128):
    """``(build, one evaluation)`` :class:`~exactdp.engines.costs.Estimate` of a kernel before it
    is built, or None when the method does not apply. Guarantee: approximate (upper estimates).
    Raises: nothing."""
    k = sum(n for _, n in groups)
    if method in ("homogeneous", "lattice"):
        if method == "homogeneous":
            if len(groups) != 1:
                return None
            ga = [(1, k)]
            ub = _value_bits(groups[0][0])
        else:
            if lat is None:
                return None
            u, a = lat
            ga = _merge(a, groups)
            ub = _value_bits(u)
        A = sum(x * n for x, n in ga)
        kp = sum(n for x, n in ga if x > 0)
        return lattice_build(ga), lattice_eval(A, kp, kind, prec, ub)
    if method == "windowed":
        if len(groups) != 1:
            return None
        if kind == "exact":  # the exact field goes through exact binomials
            return estimate_method("homogeneous", groups, lat, kind=kind, prec=prec)
        return windowed_cost(k, groups[0][0].flog(), prec)
    if method == "lattice-balls":
        if lat is None:
            return None
        u, a = lat
        ga = _merge(a, groups)
        if kind == "exact":  # the exact field goes through the exact lattice kernel
            return estimate_method("lattice", groups, lat, kind=kind, prec=prec)
        return balllattice_cost([(x, n) for x, n in ga if x > 0], u.flog(), prec)
    if method == "windowed-groups":
        if not _windowed_groups_apply(groups):
            return None
        if kind == "exact":  # the exact field goes through the grouped kernel
            return estimate_method("grouped", groups, lat, kind=kind, prec=prec)
        return windowed_groups_cost([(v.flog(), n) for v, n in groups], prec)
    # the grouped kernel keeps two balls per class, at the precision the values' size needs
    # (measured: e^(5.5e316) takes 1088 bits and 2.78 GB over 1e6 classes)
    mag = magnitude_bits(groups) if kind == "arb" else 0
    if method == "grouped":
        return grouped_cost([(_value_bits(v), n) for v, n in groups], kind, prec + mag, mag)
    if method == "brute":
        return grouped_cost([(_value_bits(v), 1) for v, n in groups for _ in range(n)], kind, prec + mag, mag)
    if method == "mitm":
        left, right = split_groups(groups)
        wb = sum(_value_bits(v) * n for v, n in groups) / 2
        cb = 0.73 * max(sum(n for _, n in left if n > 1), sum(n for _, n in right if n > 1))
        return mitm_cost(half_classes(left), half_classes(right), max(len(left), len(right)), kind, prec, wb, cb,
                         vector=kind != "exact" and vec_default(groups))
    return None


def _windowed_groups_apply(groups: Groups) -> bool:
    """The windowed grouped kernel takes two or more groups, every eps in ``(0, 1e6]``: its
    windows and thresholds are chosen in floats, and its binomial terms come from
    ``n ln(1 + e^eps)`` at ``48 + log2 n`` bits beyond the working precision (a value like
    e^(6.8e143) needs the grouped kernel's precision rule)."""
    return len(groups) >= 2 and all(0 < v.flog() <= 1e6 for v, _ in groups)


def _count_text(n: int) -> str:
    """An integer for a message: whole up to 15 digits, else ``about 10^d`` (eps = 1e309 makes
    degrees of 300 digits, and a float of them overflows)."""
    if abs(n) < 10**15:
        return str(n)
    if n.bit_length() < 14000:  # str() of an int stops at 4300 digits
        return f"about 10^{len(str(abs(n))) - 1}"
    return f"about 2^{n.bit_length() - 1}"


def _total(build: Estimate, ev: Estimate, evals: int) -> Estimate:
    return build.then(ev, evals)


def choose_structure(ws: Union[Sequence[ExpNum], None] = None, method: str = "auto", *,
                     groups: Optional[Groups] = None) -> Structure:
    """Build the S(t) kernel (``ws``: every ``e^eps_i``, or ``groups``: distinct values with
    counts, for compositions too large to list) with ``method``, or the cheapest
    applicable one for ``"auto"``.

    Every kernel's time and memory are estimated before it is built
    (:mod:`~exactdp.engines.costs`): an explicit ``method`` over the limits is refused,
    and ``auto`` takes the fastest estimate among the kernels within them.

    Guarantee: exact (the kernel's coefficients are exact integers or exp-space
    numbers; ``auto`` picks by the estimates and records the choice in ``.method``).

    Raises:
        InvalidArgument: an unknown method, or one that does not apply (e.g.
            ``homogeneous`` for unequal eps, ``lattice`` for incommensurable eps).
        CostTooHigh: the request would take too long or too much memory, with the
            estimate (seconds, bytes) and the faster option to use.
    """
    if method not in METHODS:
        raise InvalidArgument("method", "one of " + ", ".join(METHODS), method)
    if groups is None:
        groups = groups_of(ws or [])
    groups = [(v, int(n)) for v, n in groups]
    k = sum(n for _, n in groups)
    approx_alt = "the approximation of Theorem 1.7 (exactdp approx) or the lattice sandwich (exactdp.approx.optcomp_bounds)"

    if method == "homogeneous":
        if len(groups) != 1:
            raise InvalidArgument("method", "'homogeneous' only when every eps_i is equal", f"{len(groups)} distinct eps values")
        b, e = estimate_method("homogeneous", groups)  # type: ignore[misc]
        check_estimate(_total(b, e, EVALS_DELTA), "method",
                       f"the homogeneous count polynomial of {k} mechanisms ({k + 1} binomials of up to {k} bits)",
                       "fewer mechanisms, or " + approx_alt)
        return Lattice.from_groups(groups[0][0], [(1, k)], "homogeneous")
    if method == "windowed":
        if len(groups) != 1:
            raise InvalidArgument("method", "'windowed' only when every eps_i is equal", f"{len(groups)} distinct eps values")
        b, e = estimate_method("windowed", groups)  # type: ignore[misc]
        check_estimate(_total(b, e, EVALS_DELTA), "method",
                       f"the windowed homogeneous kernel of {k} mechanisms", "fewer mechanisms, or " + approx_alt)
        return Windowed(groups[0][0], k)
    if method == "brute":
        if k > MAX_BRUTE_K:
            bm, em = estimate_method("mitm", groups)  # type: ignore[misc]
            tm = _total(bm, em, EVALS_DELTA)
            sec_lim, mem_lim = current_limits()
            alt = (f"method='mitm' ({tm.text()}) or 'auto'; for compositions too large for every exact method, "
                   "the approximation (exactdp approx)" if tm.seconds <= sec_lim and tm.bytes <= mem_lim
                   else "method='auto' (lattice or homogeneous for rational eps) or the approximation (exactdp approx)")
            raise CostTooHigh(
                "method",
                f"brute force over 2^{k} = {pow2_text(k)} subsets is refused (limit k <= {MAX_BRUTE_K}); use " + alt,
                estimate=f"2^{k} subsets", limit=f"k <= {MAX_BRUTE_K}", alternative=alt,
            )
        b, e = estimate_method("brute", groups)  # type: ignore[misc]
        check_estimate(_total(b, e, EVALS_DELTA), "method", f"brute force over 2^{k} subsets", "method='auto'")
        return Grouped([(v, 1) for v, n in groups for _ in range(n)], "brute")
    if method == "mitm":
        b, e = estimate_method("mitm", groups)  # type: ignore[misc]
        left, right = split_groups(groups)
        check_estimate(_total(b, e, EVALS_DELTA), "method",
                       f"meet in the middle over {fmt(half_classes(left))} + {fmt(half_classes(right))} classes",
                       "method='auto', or " + approx_alt)
        return MITM(groups)
    if method == "grouped":
        b, e = estimate_method("grouped", groups)  # type: ignore[misc]
        C = 1.0
        for _, n in groups:
            C *= n + 1
        check_estimate(_total(b, e, EVALS_DELTA), "method", f"the grouped sum over {fmt(C)} classes", "method='auto'")
        return Grouped(groups)
    if method == "windowed-groups":
        if not _windowed_groups_apply(groups):
            raise InvalidArgument("method", "'windowed-groups' only for two or more distinct eps values, each > 0",
                                  f"{len(groups)} distinct eps values")
        b, e = estimate_method("windowed-groups", groups)  # type: ignore[misc]
        check_estimate(_total(b, e, EVALS_DELTA), "method",
                       f"the windowed grouped kernel of {k} mechanisms in {len(groups)} groups", "method='auto', or " + approx_alt)
        return WindowedGroups(groups)
    lat = detect_lattice_groups([v for v, _ in groups])
    if method == "lattice":
        if lat is None:
            raise InvalidArgument("method", "'lattice' only when every e^eps_i is an integer power of one common base",
                                  "incommensurable eps values")
        u, a = lat
        A = sum(ai * n for ai, (_, n) in zip(a, groups))
        if A > MAX_LATTICE_A:
            alt = "method='mitm' or exactdp approx"
            raise CostTooHigh("method", f"the lattice polynomial would have degree {_count_text(A)} (limit {MAX_LATTICE_A}); use {alt}",
                              estimate=A, limit=MAX_LATTICE_A, alternative=alt)
        b, e = estimate_method("lattice", groups, lat)  # type: ignore[misc]
        nonzero = sum(n for ai, (_, n) in zip(a, groups) if ai)
        check_estimate(_total(b, e, EVALS_DELTA), "method",
                       f"the lattice count polynomial ({A + 1} coefficients of up to {nonzero} bits)",
                       "method='mitm', or " + approx_alt)
        return Lattice.from_groups(u, _merge(a, groups))
    if method == "lattice-balls":
        if lat is None:
            raise InvalidArgument("method", "'lattice-balls' only when every e^eps_i is an integer power of one common base",
                                  "incommensurable eps values")
        u, a = lat
        b, e = estimate_method("lattice-balls", groups, lat)  # type: ignore[misc]
        A = sum(ai * n for ai, (_, n) in zip(a, groups))
        if not math.isfinite(_total(b, e, EVALS_DELTA).seconds):  # a degree beyond the float range (eps = 1e309)
            alt = "method='mitm' or exactdp approx"
            raise CostTooHigh("method", f"the ball-lattice polynomial would have degree {_count_text(A)}, beyond what "
                              f"can be estimated; use {alt}", estimate=A, limit=None, alternative=alt)
        check_estimate(_total(b, e, EVALS_DELTA), "method",
                       f"the certified ball-lattice kernel of {k} mechanisms (degree {_count_text(sum(x * n for x, n in _merge(a, groups)))})",
                       "method='auto', or " + approx_alt)
        return BallLattice(u, _merge(a, groups))
    # auto: the fastest estimate within the limits, in the arithmetic auto will use: exact
    # rationals when every value is rational and some kernel fits so, else balls (the
    # engines fall back the same way)
    all_rational = all(v.exact() is not None for v, _ in groups)
    sec_lim, mem_lim = current_limits()
    makers: list[tuple[str, Callable[[], Structure]]] = []
    if len(groups) == 1:
        v0 = groups[0][0]
        makers.append(("homogeneous", lambda: Lattice.from_groups(v0, [(1, k)], "homogeneous")))
        makers.append(("windowed", lambda: Windowed(v0, k)))
    if lat is not None:
        u, a = lat
        if sum(ai * n for ai, (_, n) in zip(a, groups)) <= MAX_LATTICE_A:
            makers.append(("lattice", lambda: Lattice.from_groups(u, _merge(a, groups))))
        makers.append(("lattice-balls", lambda: BallLattice(u, _merge(a, groups))))
    if _windowed_groups_apply(groups):
        makers.append(("windowed-groups", lambda: WindowedGroups(groups)))
    if len(groups) < k:
        makers.append(("grouped", lambda: Grouped(groups)))
    elif k <= 60:
        makers.append(("brute", lambda: Grouped([(v, 1) for v, n in groups for _ in range(n)], "brute")))
    makers.append(("mitm", lambda: MITM(groups)))
    cands: list[tuple[float, str, Estimate, Callable[[], Structure]]] = []
    seen: list[tuple[str, Estimate]] = []
    for kind in (("exact", "arb") if all_rational else ("arb",)):
        for name, make in makers:
            if name in ("windowed", "lattice-balls", "windowed-groups") and kind == "exact":
                continue  # exact answers use exact integers (the homogeneous and lattice kernels)
            est = estimate_method(name, groups, lat, kind=kind)
            if est is None:
                continue
            tot = _total(est[0], est[1], EVALS_DELTA)
            seen.append((name, tot))
            if tot.bytes <= mem_lim and tot.seconds <= sec_lim:
                # rank by a few evaluations: the build is paid once, OptComp evaluates several times
                cands.append((_total(est[0], est[1], 4).seconds, name, tot, make))
        if cands:
            break
    if not cands:
        best = min(seen, key=lambda c: max(c[1].seconds / sec_lim, c[1].bytes / mem_lim)) if seen else None
        alt = "give rational eps on a coarser lattice, use fewer mechanisms, or " + approx_alt
        what = (f"exact optimal composition of these {k} mechanisms (#P-hard in general, Murtagh-Vadhan Thm 1.6); "
                f"the cheapest kernel ({best[0]}) is estimated at {best[1].text()}" if best else
                f"no kernel fits for these {k} mechanisms")
        raise CostTooHigh(
            "mechanisms",
            f"{what}, over the limits ({fmt(sec_lim)} s, {fmt_bytes(mem_lim)}); {alt} (or lift the limits: "
            "exactdp.engines.costs.cost_limits, EXACTDP_MAX_SECONDS / EXACTDP_MAX_MEMORY)",
            estimate=best[1].as_dict() if best else None, limit={"seconds": sec_lim, "bytes": mem_lim}, alternative=alt,
        )
    return min(cands, key=lambda c: c[0])[3]()


def _merge(a: Sequence[int], groups: Groups) -> list[tuple[int, int]]:
    """Exponent groups ``(a_j, count)`` with equal exponents merged, sorted."""
    out: dict = {}
    for ai, (_, n) in zip(a, groups):
        out[ai] = out.get(ai, 0) + n
    return sorted(out.items())
