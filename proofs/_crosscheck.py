"""Helpers for the library cross-checks of the entries (issue 12).

The independent transcriptions judge the papers; the exactdp library is only
compared with them (:meth:`Proof.library`, :meth:`Proof.agree`). Exact values
are compared with ``==``; a library enclosure is compared with an independent
exact value by containment, and with an independent enclosure (of an
irrational value) by intersection: two correct enclosures of the same number
always meet, so a disjoint pair is a library issue, never a false alarm.

Nothing here computes a paper quantity; it only compares.
"""

from __future__ import annotations

from fractions import Fraction as F

from ._framework import FAILED, Proof

__all__ = ["FAILED", "crosschecked", "contains", "meets", "meets_ball", "ball_ends", "contains_log", "exp_exact",
           "same_function"]


def crosschecked(p: Proof, what: str, n: int) -> None:
    """Record that the library was compared on ``n`` instances (a note: the comparisons are not instances of the
    paper's statement, so they do not add to its N; a disagreement is recorded by :meth:`Proof.agree` as an issue)."""
    p.note(f"Library cross-check ({n} comparisons): {what}.")


def _ends(enc):
    return F(enc.lower), F(enc.upper)


def contains(p: Proof, enc, value: F, what: str, instance: str) -> bool:
    """The library enclosure ``enc`` (``lower``/``upper``) contains the independent exact ``value``."""
    if enc is FAILED:
        return False
    lo, hi = _ends(enc)
    if not (lo <= value <= hi):
        p.issue(f"{what}: the enclosure [{float(lo):.17g}, {float(hi):.17g}] misses the independent exact value "
                f"{value} on {instance}")
        return False
    return True


def meets(p: Proof, enc, lo: F, hi: F, what: str, instance: str) -> bool:
    """The library enclosure ``enc`` and the independent enclosure ``[lo, hi]`` of the same number intersect."""
    if enc is FAILED:
        return False
    a, b = _ends(enc)
    if b < lo or a > hi:
        p.issue(f"{what}: the enclosure [{float(a):.17g}, {float(b):.17g}] is disjoint from the independent enclosure "
                f"[{float(lo):.17g}, {float(hi):.17g}] on {instance}")
        return False
    return True


def ball_ends(x) -> tuple:
    """The two ends of an Arb ball as exact Fractions (``lower``/``upper`` are exact dyadic numbers)."""
    out = []
    for end in (x.lower(), x.upper()):
        m, e = end.man_exp()
        out.append(F(int(m)) * F(2) ** int(e))
    return tuple(out)


def meets_ball(p: Proof, enc, ball, what: str, instance: str) -> bool:
    """:func:`meets` with the independent enclosure given as an Arb ball (which must be finite)."""
    if enc is FAILED:
        return False
    if not ball.is_finite():  # a defect of the check itself (too little precision), not of the library
        raise ValueError(f"the independent enclosure for {what} is not finite on {instance}")
    lo, hi = ball_ends(ball)
    return meets(p, enc, lo, hi, what, instance)


def contains_log(p: Proof, enc, w: F, what: str, instance: str, prec: int = 256) -> bool:
    """The library enclosure ``enc`` of a logarithm contains ``ln w`` (``w`` an exact positive rational).

    Decided in Arb: ``e^lower <= w <= e^upper`` (a rational end equal to ``ln w`` is only possible for ``w = 1``,
    handled exactly); an undecided comparison at ``prec`` bits counts as containment (the balls overlap)."""
    if enc is FAILED:
        return False
    from flint import arb, ctx, fmpq

    lo, hi = _ends(enc)
    if w == 1:
        ok = lo <= 0 <= hi
    else:
        old = ctx.prec
        ctx.prec = prec
        try:
            wq = arb(fmpq(w.numerator, w.denominator))
            elo = arb(fmpq(lo.numerator, lo.denominator)).exp()
            ehi = arb(fmpq(hi.numerator, hi.denominator)).exp()
            ok = not (elo > wq) and not (ehi < wq)
        finally:
            ctx.prec = old
    if not ok:
        p.issue(f"{what}: the enclosure [{float(lo):.17g}, {float(hi):.17g}] misses ln({w}) on {instance}")
    return ok


def exp_exact(r):
    """``e^eps`` of an exactdp EpsResult as the independent checks write it: ``None`` for infinity."""
    if r is FAILED:
        return FAILED
    return None if r.infinite else r.exp_exact


def same_function(p: Proof, f_lib, g, breakpoints, what: str, instance: str) -> bool:
    """A library trade-off function (exact vertices) equals the independent piecewise-linear ``g`` on [0, 1].

    ``g(x)`` returns the independent exact value; ``breakpoints`` are g's breakpoints. Both functions are
    linear between consecutive points of the union of their breakpoints, so equality there is equality
    everywhere."""
    if f_lib is FAILED:
        return False
    xs = sorted({F(x) for x in breakpoints} | {x for x, _ in f_lib.exact_vertices()} | {F(0), F(1)})
    for x in xs:
        a, b = f_lib(x), g(x)
        if a.exact != b:
            p.issue(f"{what} disagrees with the independent function on {instance} at alpha = {x}: "
                    f"{a.exact if a.exact is not None else a} vs {b}")
            return False
    return True
