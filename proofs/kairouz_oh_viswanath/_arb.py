"""Certified (Arb ball) evaluation of the transcendental quantities of the paper.

Every function takes an explicit working precision ``prec`` (bits) and returns
rigorous enclosures; :func:`decide_le` turns them into a three-valued decision,
raising the precision until the balls separate (never guessing).

* :func:`rr_hockey_bounds`: lower and upper bounds of the hockey-stick
  ``sum_l C(k,l) max(e^{(k-l)eps} - e^{eps_g + l eps}, 0) / (1+e^eps)^k`` of the
  k-fold binary randomized response at ``e^{eps_g}`` (grouped per distinct eps for
  heterogeneous compositions). A term whose ball straddles 0 contributes
  ``[0, upper]``: the bounds stay rigorous without deciding its sign.
* :func:`gauss_hockey`: ``Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)``, the
  hockey-stick of N(0,1) vs N(mu,1) (the k-fold Gaussian mechanism with
  mu = sqrt(k) Delta / sigma), as a ball.

Guarantee: enclosures (python-flint ``arb``).
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F
from math import comb
from typing import Callable, Optional, Sequence, Tuple

from flint import arb, ctx, fmpq

PRECS = (64, 128, 256, 512, 1024, 2048)


def A(x) -> arb:
    """An exact rational (Fraction or int) as a ball of radius 0."""
    x = F(x)
    return arb(fmpq(x.numerator, x.denominator))


def at_prec(prec: int, fn: Callable, *args):
    old = ctx.prec
    ctx.prec = prec
    try:
        return fn(*args)
    finally:
        ctx.prec = old


def pos_part_bounds(x: arb) -> Tuple[arb, arb]:
    """Rigorous (lower, upper) bounds of max(x, 0) for a ball x."""
    lo, hi = x.lower(), x.upper()
    return (lo if lo > 0 else arb(0)), (hi if hi > 0 else arb(0))


def rr_hockey_bounds(eps_groups: Sequence[Tuple[arb, int]], eps_g: arb) -> Tuple[arb, arb]:
    """(lower, upper) of sum over flip patterns of max(P0(y) - e^{eps_g} P1(y), 0) for the product of
    binary randomized responses; ``eps_groups`` = [(eps_j, count_j)], eps_j as balls.

    A pattern with l_j flips in group j has P0 ~ e^{sum (c_j - l_j) eps_j}, P1 ~ e^{sum l_j eps_j}
    (over prod (1 + e^{eps_j})^{c_j}); its term is certainly 0 when the privacy loss
    sum (c_j - 2 l_j) eps_j is certainly below eps_g, and is then skipped."""
    lo, hi = arb(0), arb(0)
    logZ = sum((c * (e.exp() + 1).log() for e, c in eps_groups), arb(0))
    if len(eps_groups) == 1:  # the privacy loss (c - 2l) eps decreases in l: stop at the first certain zero
        (e, c), = eps_groups
        binom = arb(1)  # C(c, l), updated by C(c, l+1) = C(c, l) (c - l)/(l + 1): balls stay rigorous
        for l in range(c + 1):
            if l:
                binom = binom * (c - l + 1) / l
            if (c - 2 * l) * e < eps_g:
                break
            term = binom * (((c - l) * e - logZ).exp() - (eps_g + l * e - logZ).exp())
            a, b = pos_part_bounds(term)
            lo += a
            hi += b
        return lo, hi
    for ls in itertools.product(*[range(c + 1) for _, c in eps_groups]):
        up = arb(0)  # log of the P0 numerator
        dn = arb(0)  # log of the P1 numerator
        for (e, c), l in zip(eps_groups, ls):
            up += (c - l) * e
            dn += l * e
        if up - dn < eps_g:
            continue
        mult = 1
        for (_, c), l in zip(eps_groups, ls):
            mult *= comb(c, l)
        term = arb(mult) * ((up - logZ).exp() - (eps_g + dn - logZ).exp())
        a, b = pos_part_bounds(term)
        lo += a
        hi += b
    return lo, hi


def Phi(x: arb) -> arb:
    return (-x / arb(2).sqrt()).erfc() / 2


def gauss_hockey(eps: arb, mu: arb) -> arb:
    """delta(eps) of N(0,1) vs N(mu,1): Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)."""
    return Phi(-eps / mu + mu / 2) - eps.exp() * Phi(-eps / mu - mu / 2)


def decide_le(bounds: Callable[[int], Tuple[arb, arb]], target: Callable[[int], arb],
              precs: Sequence[int] = PRECS) -> Tuple[Optional[bool], int, str]:
    """Decide ``quantity <= target`` from rigorous bounds; returns (holds, prec used, text).

    ``bounds(prec)`` -> (lower, upper) enclosing the quantity, ``target(prec)`` -> ball.
    True when upper <= target certainly, False when lower > target certainly; None (reported by
    the caller, never guessed) when the balls still overlap at the largest precision.
    """
    for prec in precs:
        def run():
            lo, hi = bounds(prec)
            t = target(prec)
            if hi <= t:
                return True, f"upper {hi.mid().str(8)} <= {t.mid().str(8)}"
            if lo > t:
                return False, f"lower {lo.str(10)} > {t.str(10)}"
            return None, ""
        ok, text = at_prec(prec, run)
        if ok is not None:
            return ok, prec, text
    return None, precs[-1], "undecided: the balls overlap at %d bits" % precs[-1]


def ball_str(x: arb, digits: int = 12) -> str:
    return x.str(digits)
