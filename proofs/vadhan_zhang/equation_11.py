"""Vadhan-Zhang Equation (11): T((X, Y), (X', Y'))(alpha) = inf_phi {1 - E_{x~X'} E_{Y'}[phi_x] :
E_{x~X} E_{Y}[phi_x] <= alpha} >= inf_{alpha_x} {E_{x~X'} f_x(alpha_x) : E_{x~X} alpha_x <= alpha}.

Checked exhaustively: for every deterministic test phi on the joint outcomes of random finite instances,
the split of alpha_phi and beta_phi over x is exact and beta_phi >= formula (9) at alpha_phi (brute force
over the programme's vertices); randomised tests are mixtures of these, and formula (9) is convex.
"""

from __future__ import annotations

from .._framework import Proof, statement
from . import _tradeoff as T
from .claim_3_4 import instance


@statement(
    "Equation (11)",
    "T((X, Y), (X', Y'))(alpha) = inf_phi {1 - E_{x~X'} E[phi_x(Y')] : E_{x~X} E[phi_x(Y)] <= alpha} >= "
    "inf_{alpha_x} {E_{x~X'} f_x(alpha_x) : E_{x~X} alpha_x <= alpha}.",
)
def equation(p: Proof) -> None:
    n = 0
    for _ in range(30 if p.full else 12):
        X, conds, items = instance(p)
        outcomes = [(x, j, px * a, qx * b) for x, ((px, qx), Y) in enumerate(zip(X, conds)) for j, (a, b) in enumerate(Y)]
        for mask in range(1 << len(outcomes)):
            sel = [o for k, o in enumerate(outcomes) if mask >> k & 1]
            a = sum(o[2] for o in sel)
            b = 1 - sum(o[3] for o in sel)
            a_split = sum(px * sum(c[0] for j, c in enumerate(Y) if (x, j) in {(o[0], o[1]) for o in sel})
                          for x, ((px, _), Y) in enumerate(zip(X, conds)))
            n += 1
            if not p.require(a == a_split and b >= T.chain_rule_at(items, a), "beta_phi >= formula (9) at alpha_phi",
                             f"X={X} conds={conds} phi={sel}"):
                return
    p.instances("every deterministic joint test of random instances", n, "exhaustive")
