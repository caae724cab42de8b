"""Vadhan-Zhang Equation (9): the ChainRule function, formula (9), as a map of trade-off functions.

Checked exactly: for random X, X' and random trade-off functions f_x (not from joint distributions), the
formula is a trade-off function (Proposition 1.7's conditions), agrees at random alpha with the brute
force over the programme's vertices, and is monotone in each f_x (f_x <= g_x pointwise gives
ChainRule(f) <= ChainRule(g)).
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _tradeoff as T


@statement(
    "Equation (9)",
    "ChainRule_{X,X'}((f_x)_x)(alpha) = inf_{alpha_x in [0,1]} {E_{x~X'}[f_x(alpha_x)] : E_{x~X}[alpha_x] <= alpha}.",
)
def equation(p: Proof) -> None:
    n = 0
    for _ in range(100 if p.full else 30):
        nx = p.rng.randint(1, 3)
        X = T.rand_pairs(p.rng, nx)
        fs = [T.rand_tf(p.rng, 3) for _ in range(nx)]
        gs = [T.envelope([f, T.rand_tf(p.rng, 3)]) for f in fs]      # g_x <= f_x pointwise
        cf = T.chain_rule([(a, b, f) for (a, b), f in zip(X, fs)])
        cg = T.chain_rule([(a, b, g) for (a, b), g in zip(X, gs)])
        ok, why = T.is_tradeoff(cf)
        n += 1
        if not p.require(ok and T.le(cg, cf), "a trade-off function, monotone in each f_x", f"X={X} {why}"):
            return
        for a in [F(p.rng.randint(0, 12), 12) for _ in range(3)]:
            n += 1
            if not p.require(T.value(cf, a) == T.chain_rule_at([(x, y, f) for (x, y), f in zip(X, fs)], a),
                             "merged pieces = vertex brute force", f"X={X} alpha={a}"):
                return
    p.instances("random X, X' and random f_x: formula (9) is a trade-off function, monotone, equal to the brute force", n)
