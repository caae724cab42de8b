"""Vadhan-Zhang Proposition 1.7 (Dong-Roth-Su: the class of trade-off functions).

Printed: f: [0,1] -> [0,1] is a trade-off function iff f is convex, continuous, non-increasing and
f(x) <= 1 - x on [0, 1].

Checked: "only if" -- the exact trade-off functions of random finite pairs satisfy the four
conditions (exact), and G_mu = T(N(0,1), N(mu,1)) does, certified on grids (values in [0,1],
strictly decreasing, strictly convex second differences, G_mu(x) < 1 - x), for mu from 1/10 to 10;
"if" -- random piecewise-linear functions satisfying the conditions, generated directly (lower
convex hulls of random points under 1 - x, not from pairs), and the extreme ones (0, 1 - x,
f_{eps,delta} with e^eps up to 10^6), are realised exactly as T(P, P') by their canonical pairs.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import FAILED, crosschecked
from .._framework import Proof, statement
from . import _gauss as Gs
from . import _tradeoff as T


def rand_convex(rng, k=None, den=12) -> T.TF:
    """A random function meeting Proposition 1.7's conditions, built without any distribution."""
    k = rng.randint(0, 4) if k is None else k
    pts = [(F(0), F(rng.randint(0, den), den)), (F(1), F(0))]
    for _ in range(k):
        x = F(rng.randint(1, den - 1), den)
        pts.append((x, (1 - x) * F(rng.randint(0, den), den)))
    return T.normalize(T.lower_hull(pts))


@statement(
    "Proposition 1.7",
    "f: [0,1] -> [0,1] is a trade-off function if and only if f is convex, continuous, non-increasing, and "
    "f(x) <= 1 - x for x in [0, 1].",
    library=("exactdp.fdp.is_tradeoff_function", "exactdp.fdp.TradeOff.check", "exactdp.fdp.TradeOff.to_distributions"),
)
def proposition(p: Proof) -> None:
    from exactdp.fdp import TradeOff, is_tradeoff_function

    n_only = n_if = n_g = n_lib = 0
    for _ in range(300 if p.full else 100):
        pairs = T.rand_pairs(p.rng, p.rng.randint(1, 6), p.rng.choice([3, 9, 1000]))
        ok, why = T.is_tradeoff(T.tradeoff(pairs))
        n_only += 1
        if not p.require(ok, "T(P, Q) satisfies the four conditions", f"{T.fmt_pairs(pairs)}: {why}"):
            return
    extremes = [T.PERFECT, T.IDENTITY] + [T.feps(w, d) for w in (F(1), F(2), F(10) ** 6)
                                          for d in (F(0), F(1, 10) ** 9, F(1, 2), F(1))]
    for f in extremes + [rand_convex(p.rng) for _ in range(300 if p.full else 100)]:
        ok, why = T.is_tradeoff(f)
        lib = p.library("exactdp is_tradeoff_function", is_tradeoff_function, list(f))
        n_lib += lib is not FAILED and p.agree(lib[0], ok, "exactdp is_tradeoff_function (the decision)", T.fmt_tf(f))
        if not ok:
            continue
        n_if += 1
        g = p.library("exactdp TradeOff", TradeOff, list(f))
        if g is not FAILED:
            chk = p.library("exactdp TradeOff.check", g.check)
            pq = p.library("exactdp TradeOff.to_distributions", g.to_distributions)
            if chk is not FAILED and pq is not FAILED:
                n_lib += p.agree(chk[0], True, "exactdp TradeOff.check", T.fmt_tf(f))
                # the library's realising pair, judged by the independent Neyman-Pearson curve
                n_lib += p.agree(T.equal(T.tradeoff(list(zip(*pq))), f), True,
                                 "exactdp TradeOff.to_distributions (T of its pair = f)", T.fmt_tf(f))
        if not p.require(T.equal(T.tradeoff(T.canonical(f)), f), "f = T(P, P') for its canonical pair", T.fmt_tf(f)):
            return
    grid = [F(k, 16) for k in range(1, 16)]
    undecided = 0
    for mu in ([F(1, 10), F(1), F(3)] + ([F(10)] if p.full else [])):
        cases = [("0 < G_mu(x) < 1 - x", a,
                  lambda a=a: (Gs.G(mu, a) > 0) and (Gs.G(mu, a) < 1 - Gs.A(a)),
                  lambda a=a: (Gs.G(mu, a) <= 0) or (Gs.G(mu, a) >= 1 - Gs.A(a))) for a in grid]
        cases += [("G_mu strictly decreasing and convex", b,
                   lambda a=a, b=b, c=c: (Gs.G(mu, b) < Gs.G(mu, a)) and (Gs.G(mu, a) + Gs.G(mu, c) - 2 * Gs.G(mu, b) > 0),
                   lambda a=a, b=b, c=c: (Gs.G(mu, b) >= Gs.G(mu, a)) or (Gs.G(mu, a) + Gs.G(mu, c) - 2 * Gs.G(mu, b) <= 0))
                  for a, b, c in zip(grid, grid[1:], grid[2:])]
        for what, x, holds, fails in cases:
            r = Gs.decide(holds, fails)
            if r is None:
                undecided += 1
                continue
            n_g += 1
            if not p.require(r, what, f"mu={mu} x={x}"):
                return
    if undecided:
        p.note(f"{undecided} Gaussian comparisons stayed undecided at 4096 bits (reported, not counted).")
    p.instances("only if: T(P, Q) of random finite pairs is convex, non-increasing, <= 1 - x, in [0, 1]", n_only)
    p.instances("if: functions meeting the conditions (random lower hulls, 0, 1 - x, f_{eps,delta}) equal T of their "
                "canonical pairs", n_if)
    p.instances("only if, Gaussian: G_mu on the grid k/16 (mu in {1/10, 1, 3}): values, monotonicity, convexity, "
                "G_mu(x) < 1 - x", n_g, "certified")
    crosschecked(p, "on the same functions (those meeting the conditions and those that do not): exactdp "
                 "is_tradeoff_function decides as the independent check; for trade-off functions TradeOff.check accepts "
                 "and TradeOff.to_distributions gives a pair whose independent T(P, Q) is f", n_lib)
    p.note("Continuity of a piecewise-linear interpolant is structural; for G_mu it is that of Phi and Phi^{-1}.")
