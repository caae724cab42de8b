"""Murtagh-Vadhan Theorem 1.4 (optimal homogeneous composition, KOV), as restated.

Printed: for eps >= 0, delta in [0,1), OptComp((eps,delta) x k, delta_g) = (k - 2i) eps
with i the largest integer in {0..floor(k/2)} such that

    sum_{l=0}^{i-1} C(k,l) (e^{(k-l)eps} - e^{(k-2i+l)eps}) / (1+e^eps)^k <= 1 - (1-delta_g)/(1-delta)^k.

Refuted: the printed value is OptComp only at the breakpoints; between them the
true OptComp (Theorem 1.5, checked independently) is strictly smaller. The
printed (k - 2i) eps is an upper bound (KOV state the composition is
((k-2i)eps, .)-DP for each i; the restatement as an equality is the error).
Correction: on the segment found by the printed i, delta_g(t) is linear in
t = e^{eps_g}, so e^{OptComp} is the linear interpolation below.
"""

from __future__ import annotations

from fractions import Fraction as F
from math import comb

from .._framework import Proof, statement
from . import _common as C


def printed_t(k: int, w: F, d: F, dg: F):
    """e^{(k-2i) eps} with the printed i, or None when no i qualifies."""
    rhs = 1 - (1 - dg) / (1 - d) ** k
    best = None
    for i in range(k // 2 + 1):
        s = sum((comb(k, l) * (w ** (k - l) - w ** (k - 2 * i + l)) for l in range(i)), F(0)) / (1 + w) ** k
        if s <= rhs:
            best = i
    return None if best is None else (w ** (k - 2 * best), best)


def corrected_t(k: int, w: F, d: F, dg: F):
    """e^{OptComp}: None (infinite) when tau < 0, else max(1, linear interpolation on the printed i's segment)."""
    tau = 1 - (1 - dg) / (1 - d) ** k
    if tau < 0:
        return None
    _, i = printed_t(k, w, d, dg)
    num = sum((comb(k, l) * w ** (k - l) for l in range(i + 1)), F(0)) - tau * (1 + w) ** k
    den = sum((comb(k, l) * w ** l for l in range(i + 1)), F(0))
    return max(F(1), num / den)


def _engine_t(k, w, d, dg):
    from exactdp import Mechanism, optcomp

    r = optcomp([Mechanism(exp_eps=w, delta=d)] * k, dg, engine="exact")
    return None if r.infinite else r.exp_exact


def _cases(p: Proof):
    out = []
    for k in range(1, 9 if p.full else 7):
        for w in (F(1), F(3, 2), F(2), F(3)):
            for d in (F(0), F(1, 10)):
                P = (1 - d) ** k
                Z = (1 + w) ** k
                # breakpoint delta_g's, midpoints between them, and a few random values
                bps = []
                for i in range(k // 2 + 1):
                    s = sum((comb(k, l) * (w ** (k - l) - w ** (k - 2 * i + l)) for l in range(i)), F(0)) / Z
                    bps.append(1 - P * (1 - s))
                bps = sorted(set(x for x in bps if 0 <= x < 1))
                dgs = set(bps) | {(a + b) / 2 for a, b in zip(bps, bps[1:])} | {F(1, 3), F(1, 50)}
                dgs |= {F(p.rng.randint(0, 99), 100) for _ in range(2)}
                out.extend((k, w, d, dg) for dg in sorted(dgs) if 0 <= dg < 1)
    return out


@statement(
    "Theorem 1.4",
    "OptComp((eps,delta) x k, delta_g) = (k-2i) eps, i the largest in {0..floor(k/2)} with "
    "sum_{l<i} C(k,l)(e^{(k-l)eps} - e^{(k-2i+l)eps})/(1+e^eps)^k <= 1 - (1-delta_g)/(1-delta)^k.",
    library=('exactdp.optcomp',),
)
def theorem(p: Proof) -> None:
    # minimal counterexample: k = 1 (the printed i is always 0, so the printed OptComp is always eps)
    k, w, d, dg = 1, F(2), F(0), F(1, 3)
    pt, _ = printed_t(k, w, d, dg)
    true_t = C.optcomp_t_formula([w] * k, [d] * k, dg)
    # the true value twice: Theorem 1.5's formula inverted, and the product distribution of Definition 3.1
    if pt != true_t and true_t == C.optcomp_t_product([w] * k, [d] * k, dg):
        p.refute(
            "OptComp = (k-2i) eps",
            f"k = 1, eps = ln 2, delta = 0, delta_g = 1/3: printed OptComp = ln {C.frac(pt)} = eps, but M~_(ln 2, 0) is "
            f"(0, 1/3)-DP (its total variation is |2/3 - 1/3| = 1/3), so OptComp = ln {C.frac(true_t)} = 0. In general "
            "for k = 1 and 0 < delta_g < (e^eps-1)/(e^eps+1): OptComp = ln(e^eps - delta_g (1+e^eps)) < eps.",
        )
    n = exact_eq = 0
    for k, w, d, dg in _cases(p):
        pr = printed_t(k, w, d, dg)
        tt = C.optcomp_t_formula([w] * k, [d] * k, dg)
        if pr is None or tt is None:
            continue
        n += 1
        exact_eq += pr[0] == tt
        if not p.require(pr[0] >= tt, "printed value is an upper bound", f"k={k} e^eps={w} delta={d} delta_g={dg}"):
            return
    p.instances("the printed (k-2i) eps is >= the true OptComp (an upper bound)", n)
    p.note(f"The printed value equals OptComp in {exact_eq} of these {n} instances (the breakpoint delta_g's and the "
           "cases with OptComp = 0 at k even) and is strictly larger in the other {0}.".format(n - exact_eq))

    def corr(q: Proof) -> None:
        m = 0
        for k, w, d, dg in _cases(q):
            a = corrected_t(k, w, d, dg)
            b = C.optcomp_t_formula([w] * k, [d] * k, dg)
            m += 1
            if not q.require(a == b, "corrected formula = exact inverse of Theorem 1.5",
                             f"k={k} e^eps={w} delta={d} delta_g={dg}: {a} {b}"):
                return
            q.agree(q.library("exactdp optcomp (exact)", _engine_t, k, w, d, dg), a, "exactdp optcomp (exact)",
                    f"k={k} e^eps={w} delta={d} delta_g={dg}")
        q.instances("corrected e^OptComp = least t with Theorem 1.5's delta_g(t) <= delta_g (independent brute-force "
                    "inverse over all 2^k subsets) = exactdp optcomp (k <= 6, e^eps in {1, 3/2, 2, 3}, breakpoints, "
                    "midpoints, random delta_g)", m)

    p.correct(
        "With tau = 1 - (1-delta_g)/(1-delta)^k: OptComp = +inf if tau < 0; otherwise, with i as printed (the largest i "
        "with delta_i := sum_{l<i} C(k,l)(e^{(k-l)eps} - e^{(k-2i+l)eps})/(1+e^eps)^k <= tau), "
        "OptComp = ln max(1, [sum_{l=0}^{i} C(k,l) e^{(k-l)eps} - tau (1+e^eps)^k] / sum_{l=0}^{i} C(k,l) e^{l eps}) "
        "(linear interpolation in e^{eps_g} between the breakpoints e^{(k-2i-2)eps} and e^{(k-2i)eps}); it equals "
        "(k-2i) eps exactly when tau = delta_i (or OptComp = 0), and (k-2i) eps is always an upper bound.",
        corr,
    )
