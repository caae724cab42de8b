"""Vadhan-Zhang Lemma 1.7 (chain rule of f-DP).

Printed: for X, X' with finite support there is a function ChainRule_{X,X'} with
T((X, Y), (X', Y')) = ChainRule_{X,X'}((T(Y|X=x, Y'|X'=x))_{x in supp X and supp X'}) for every Y, Y'
jointly distributed with X, X'; moreover ChainRule is continuous in each variable (Definition 3.3).

Checked on random finite instances: (i) existence, i.e. T of the joint pair is a function of X, X'
and the conditional trade-off functions only: replacing each conditional pair by a different pair
with the same trade-off function (its canonical pair, a relabelled split of it), and changing the
conditionals at x outside supp X and supp X', leaves T((X, Y), (X', Y')) unchanged exactly;
(ii) continuity in each variable for finite sets S_i (the sup of Lemma 2.4 is then the lower
convex envelope): ChainRule(.., sup S_i, ..) = sup{ChainRule(.., f_i, ..) : f_i in S_i}, with
ChainRule given by Equation (9).
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import crosschecked
from .._framework import Proof, statement
from . import _tradeoff as T


def joint(X, conds):
    return [(p * a, q * b) for (p, q), Y in zip(X, conds) for a, b in Y]


def split(pairs, rng):
    """A pair with the same trade-off function: every outcome split in two at a random ratio."""
    out = []
    for p, q in pairs:
        t = F(rng.randint(1, 4), 5)
        out += [(p * t, q * t), (p * (1 - t), q * (1 - t))]
    rng.shuffle(out)
    return out


def continuity_instances(p: Proof, count: int):
    for _ in range(count):
        n = p.rng.randint(1, 3)
        X = T.rand_pairs(p.rng, n)
        fs = [T.rand_tf(p.rng, 3) for _ in range(n)]
        i = p.rng.randrange(n)
        S = [T.rand_tf(p.rng, 3) for _ in range(p.rng.randint(1, 4))]
        yield X, fs, i, S


def check_continuity(p: Proof, X, fs, i, S) -> bool:
    def cr(fi):
        return T.chain_rule([(a, b, fi if j == i else fs[j]) for j, (a, b) in enumerate(X)])
    lhs = cr(T.envelope(S))
    rhs = T.envelope([cr(g) for g in S])
    return p.require(T.equal(lhs, rhs), "ChainRule(.., sup S_i, ..) = sup ChainRule(.., f_i, ..)",
                     f"X={X} fs={[T.fmt_tf(f) for f in fs]} i={i} S={[T.fmt_tf(g) for g in S]}")


@statement(
    "Lemma 1.7",
    "For X, X' with finite support there is ChainRule_{X,X'} with T((X, Y), (X', Y')) = ChainRule_{X,X'}((T(Y|X=x, "
    "Y'|X'=x))_{x in supp X and supp X'}); ChainRule is continuous in each variable.",
    library=("exactdp.fdp.chain_rule",),
)
def lemma(p: Proof) -> None:
    from ._library import library_chain_rule

    n1 = n2 = n_lib = 0
    for _ in range(120 if p.full else 40):
        nx = p.rng.randint(1, 4)
        X = T.rand_pairs(p.rng, nx)
        conds = [T.rand_pairs(p.rng, p.rng.randint(1, 3)) for _ in range(nx)]
        alt = []
        for (px, qx), Y in zip(X, conds):
            if px > 0 and qx > 0:
                alt.append(p.rng.choice([T.canonical(T.tradeoff(Y)), split(Y, p.rng)]))
            else:  # outside supp X and supp X': the conditional law is irrelevant
                alt.append(T.rand_pairs(p.rng, p.rng.randint(1, 3)))
        n1 += 1
        if p.full or n1 % 4 == 0:
            n_lib += library_chain_rule(p, X, alt, T.tradeoff(joint(X, conds)))
        if not p.require(T.equal(T.tradeoff(joint(X, conds)), T.tradeoff(joint(X, alt))),
                         "T of the joint pair depends only on X, X' and the conditional trade-off functions",
                         f"X={X} conds={conds} alt={alt}"):
            return
    for X, fs, i, S in continuity_instances(p, 80 if p.full else 30):
        n2 += 1
        if not check_continuity(p, X, fs, i, S):
            return
    p.instances("the joint trade-off function is unchanged when each conditional pair is replaced by another with the "
                "same trade-off function (canonical pair, split outcomes) and outside the common support", n1)
    p.instances("continuity in each variable for finite S_i (1-4 functions), |supp X| <= 3", n2)
    crosschecked(p, "exactdp chain_rule(X, X', f_x) with the f_x of the replaced conditionals equals the independent "
                 "T of the original joint pair (every fourth instance; all with --full)", n_lib)
