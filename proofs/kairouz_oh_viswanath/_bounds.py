"""The printed composition bounds (Theorems 3.2, 3.4, 3.5, Corollary 4.1) as Arb balls, and the
certified check that the worst-case composition meets them.

By Theorem 3.3 (checked in its own entry) the worst case of k-fold adaptive composition
of (eps_l, delta_l)-DP mechanisms is the product of the Section 6.1 mechanisms, whose
hockey-stick at e^{eps~} is 1 - prod(1-delta_l) (1 - h(eps~)), h the hockey-stick of the
product of binary randomized responses (the identity is checked exactly in the
Theorem 3.4 and 3.5 entries). So "(eps~, 1 - prod(1-delta_l)(1-delta~))-DP" is
h(eps~) <= delta~, which :func:`check_rr` decides with rigorous bounds: h is
non-increasing in eps~, so its upper bound is taken at the lower end of the ball of
eps~ and its lower bound at the upper end.

Guarantee: every decision is certified (Arb), never a float comparison.
"""

from __future__ import annotations

from fractions import Fraction as F
from typing import Callable, List, Sequence, Tuple

from flint import arb

from ._arb import A, decide_le, rr_hockey_bounds


def ball_min(*xs: arb) -> arb:
    """A ball containing min(x_1, ..., x_n) for every choice of the x_j in their balls."""
    lo = min((x.lower() for x in xs), key=lambda v: v.mid())  # exact endpoints: comparisons are exact
    hi = min((x.upper() for x in xs), key=lambda v: v.mid())
    return lo.union(hi)


def e() -> arb:
    return arb(1).exp()


def drv_eps(k: int, eps: F, dprime: F) -> arb:
    """Theorem 3.2 [DRV10]: k eps (e^eps - 1) + eps sqrt(2k log(1/delta'))."""
    x = A(eps)
    return k * x * (x.exp() - 1) + x * (2 * k * (1 / A(dprime)).log()).sqrt()


def kov34_terms(k: int, eps: F, dt: F) -> List[arb]:
    """Theorem 3.4's three candidates: k eps, mean + eps sqrt(2k log(e + sqrt(k eps^2)/delta~)),
    mean + eps sqrt(2k log(1/delta~)), mean = (e^eps - 1) eps k / (e^eps + 1)."""
    x = A(eps)
    mean = (x.exp() - 1) * x * k / (x.exp() + 1)
    return [k * x,
            mean + x * (2 * k * (e() + (k * x * x).sqrt() / A(dt)).log()).sqrt(),
            mean + x * (2 * k * (1 / A(dt)).log()).sqrt()]


def kov35_terms(groups: Sequence[Tuple[F, int]], dt: F) -> List[arb]:
    """Theorem 3.5's three candidates for eps_l given as (eps, count) groups."""
    s1 = sum((c * A(x) for x, c in groups), arb(0))
    s2 = sum((c * A(x) * A(x) for x, c in groups), arb(0))
    mean = sum((c * (A(x).exp() - 1) * A(x) / (A(x).exp() + 1) for x, c in groups), arb(0))
    return [s1,
            mean + (2 * s2 * (e() + s2.sqrt() / A(dt)).log()).sqrt(),
            mean + (2 * s2 * (1 / A(dt)).log()).sqrt()]


def cor41_eps0(k: int, eps: F, delta: F) -> arb:
    """Corollary 4.1's per-query eps_0 = sqrt(eps^2 / (4k log(e + eps/delta)))."""
    x = A(eps)
    return (x * x / (4 * k * (e() + x / A(delta)).log())).sqrt()


def check_rr(groups: Callable[[], Sequence[Tuple[arb, int]]], eps_tilde: Callable[[], arb],
             target) -> Tuple[bool, int, str]:
    """Certified decision of h(eps~) <= target for the product of binary randomized responses
    (``groups()`` -> [(eps_j ball, count)], ``eps_tilde()`` -> ball, ``target`` a rational or a
    function returning a ball; all evaluated at the working precision). Returns (holds, precision, text)."""

    def bounds(prec):
        et = eps_tilde()
        g = groups()
        lo, _ = rr_hockey_bounds(g, et.upper())
        _, hi = rr_hockey_bounds(g, et.lower())
        return lo, hi

    return decide_le(bounds, (lambda prec: target()) if callable(target) else (lambda prec: A(target)))


def dec(x: F) -> str:
    """Short text of a rational parameter (powers of ten as 1e-n)."""
    x = F(x)
    if x.numerator == 1 and x.denominator > 1000 and str(x.denominator).rstrip("0") == "1":
        return f"1e-{len(str(x.denominator)) - 1}"
    return str(x)


class Tally:
    """Certified instances of an entry: counts the decided ones, stops at a certain counterexample,
    and reports the undecided ones (balls still overlapping at the largest precision) in a note,
    never counting them as passed."""

    def __init__(self, p):
        self.p = p
        self.n = 0
        self.undecided: List[str] = []

    def take(self, ok, what: str, instance: str) -> bool:
        """Record one decision; False means a counterexample was recorded (stop)."""
        if ok is None:
            self.undecided.append(instance)
            return True
        self.n += 1
        return self.p.require(ok, what, instance)

    def report(self, what: str, kind: str = "certified") -> None:
        self.p.instances(what, self.n, kind)
        if self.undecided:
            self.p.note(f"Undecided (balls still overlap at 2048 bits; not counted): {len(self.undecided)} point(s), "
                        f"e.g. {self.undecided[0]}.")
