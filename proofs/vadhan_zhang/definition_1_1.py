"""Vadhan-Zhang Definition 1.1 ((eps, delta)-differential privacy).

Printed: M is (eps, delta)-DP if for every pair of neighbouring x, x' and every S subset R,
Pr[M(x) in S] <= exp(eps) Pr[M(x') in S] + delta.

Checked (with e^eps = w rational): the literal quantifier over every S (all subsets of a finite
range, both orders of the neighbouring pair) against the single set {P > w Q} (the hockey-stick
value sum (p - w q)^+), and the least delta for which the definition holds, exhaustively on small
pairs, including large w (up to 10^6) and tiny delta (10^-9).
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import FAILED, crosschecked
from .._framework import Proof, statement
from . import _tradeoff as T

WS = [F(1), F(3, 2), F(2), F(7), F(10) ** 6]
DS = [F(0), F(1, 10) ** 9, F(1, 100), F(1, 3)]


def holds_literally(pairs, w, d) -> bool:
    """Definition 1.1 for the neighbouring pair in both orders, over every subset S."""
    n = len(pairs)
    for mask in range(1 << n):
        P = sum((pairs[i][0] for i in range(n) if mask >> i & 1), F(0))
        Q = sum((pairs[i][1] for i in range(n) if mask >> i & 1), F(0))
        if P > w * Q + d or Q > w * P + d:
            return False
    return True


@statement(
    "Definition 1.1",
    "M is (eps, delta)-DP if for all neighbouring x, x' and every S: Pr[M(x) in S] <= exp(eps) Pr[M(x') in S] + delta.",
    library=("exactdp.fdp.TradeOff.dominates", "exactdp.fdp.f_eps_delta"),
)
def definition(p: Proof) -> None:
    from exactdp.fdp import f_eps_delta, tradeoff_of

    n = n_lib = 0
    for _ in range(80 if p.full else 25):
        pairs = T.rand_pairs(p.rng, p.rng.randint(1, 6 if p.full else 5))
        lib = p.library("exactdp tradeoff_of", tradeoff_of, [a for a, _ in pairs], [b for _, b in pairs])
        for w in WS:
            hs = max(T.hockey(pairs, w), T.hockey(T.swap(pairs), w))
            if lib is not FAILED and (p.full or w in (F(2), F(7))):
                for d in [x for x in DS + [hs] if x < 1]:
                    n_lib += p.agree(p.library("exactdp TradeOff.dominates", lambda: lib.dominates(
                        f_eps_delta(exp_eps=w, delta=d))), holds_literally(pairs, w, d),
                        "exactdp T(P, Q).dominates(f_eps_delta) (against the literal definition)",
                        f"{T.fmt_pairs(pairs)} w={w} delta={d}")
            if not p.require(hs == max(T.hockey_brute(pairs, w), T.hockey_brute(T.swap(pairs), w)),
                             "max over all S of P(S) - w Q(S) is attained at S = {P > w Q}", T.fmt_pairs(pairs)):
                return
            for d in DS + [hs]:
                n += 1
                if not p.require(holds_literally(pairs, w, d) == (d >= hs), "(eps, delta)-DP <=> delta >= hockey-stick",
                                 f"{T.fmt_pairs(pairs)} w={w} delta={d}"):
                    return
            if hs > 0:
                n += 1
                if not p.require(not holds_literally(pairs, w, hs - hs / 1000), "delta below the hockey-stick fails",
                                 f"{T.fmt_pairs(pairs)} w={w}"):
                    return
    p.instances("the literal definition (every subset S, both orders) holds iff delta >= max(sum (p - wq)^+, "
                "sum (q - wp)^+), w = e^eps in {1, 3/2, 2, 7, 10^6}, delta in {0, 10^-9, 1/100, 1/3, the threshold}",
                n, "exhaustive")
    crosschecked(p, "exactdp tradeoff_of(P, Q).dominates(f_eps_delta(e^eps, delta)) decides as the literal definition "
                 "(every subset S, both orders) on the same pairs (e^eps in {2, 7}; all with --full; delta < 1)", n_lib)
