"""Vadhan-Zhang Equation (1): Comp(M_1, ..., M_k)(x) := (M_1(x), ..., M_k(x)), independent coins.

Checked: (i) literally, with coin-based mechanisms (each M_i a table coin -> output on x and x'),
enumerating all independent coins, the output law is the product of the marginal laws;
(ii) the trade-off function of the composition depends only on the trade-off functions of the
parts: T(P_1 x P_2, Q_1 x Q_2) = T(canonical pairs of T(P_i, Q_i)) -- so f_1 (x) f_2 is well
defined and is the tightest f in the hypothesis of Theorem 1.4.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

from .._crosscheck import FAILED, crosschecked
from .._framework import Proof, statement
from . import _tradeoff as T


@statement(
    "Equation (1)",
    "Comp(M_1, ..., M_k)(x) := (M_1(x), ..., M_k(x)), each mechanism run with independent random coins.",
    library=("exactdp.fdp.tensor", "exactdp.fdp.composition_tradeoff"),
)
def equation(p: Proof) -> None:
    from exactdp import Mechanism
    from exactdp.fdp import composition_tradeoff, tensor, tradeoff_of

    from ._library import PQ, same_tf

    n1 = n2 = n_lib = 0
    for _ in range(30 if p.full else 10):
        k = p.rng.randint(1, 3)
        mechs = []
        for _ in range(k):
            nc = p.rng.randint(1, 4)
            mechs.append([(p.rng.randint(0, 2), p.rng.randint(0, 2)) for _ in range(nc)])  # coin -> (out on x, on x')
        joint = {}
        for coins in itertools.product(*[range(len(m)) for m in mechs]):
            pr = F(1)
            for m in mechs:
                pr /= len(m)
            for z in (0, 1):
                key = (z, tuple(m[c][z] for m, c in zip(mechs, coins)))
                joint[key] = joint.get(key, F(0)) + pr
        marg = [{(z, o): F(sum(1 for c in m if c[z] == o), len(m)) for z in (0, 1) for o in range(3)} for m in mechs]
        for (z, outs), pr in joint.items():
            want = F(1)
            for i, o in enumerate(outs):
                want *= marg[i][(z, o)]
            n1 += 1
            if not p.require(pr == want, "independent coins give the product law", f"mechanisms={mechs}"):
                return
    for _ in range(120 if p.full else 40):
        k = p.rng.randint(2, 3)
        parts = [T.rand_pairs(p.rng, p.rng.randint(1, 4)) for _ in range(k)]
        direct = T.tradeoff(T.product_pairs(*parts))
        via = T.tensor(*[T.tradeoff(pp) for pp in parts])
        n2 += 1
        fl = [p.library("exactdp tradeoff_of", tradeoff_of, *PQ(pp)) for pp in parts]
        if FAILED not in fl:
            n_lib += same_tf(p, p.library("exactdp tensor", tensor, *fl), direct, "exactdp tensor (T of Comp)",
                             " ; ".join(T.fmt_pairs(pp) for pp in parts))
        if not p.require(T.equal(direct, via), "T(Comp) depends only on the T(M_i) (tensor product well defined)",
                         " ; ".join(T.fmt_pairs(pp) for pp in parts)):
            return
    p.instances("coin-based mechanisms (k <= 3, up to 4 coins): the law of (M_1(x), ..., M_k(x)) is the product law",
                n1, "exhaustive")
    p.instances("T(P_1 x .. x P_k, Q_1 x .. x Q_k) = f_1 (x) .. (x) f_k computed from canonical pairs (k <= 3)", n2)
    for ws, ds in (([F(2), F(3)], [F(1, 10), F(0)]), ([F(2)] * 3, [F(1, 100)] * 3), ([F(5, 4), F(1000)], [F(0), F(1, 3)])):
        inst = f"e^eps_i={ws} delta_i={ds}"
        n_lib += same_tf(p, p.library("exactdp composition_tradeoff", composition_tradeoff,
                                      [Mechanism(exp_eps=w, delta=d) for w, d in zip(ws, ds)]),
                         T.tradeoff(T.product_pairs(*[T.rr_pair(w, d) for w, d in zip(ws, ds)])),
                         "exactdp composition_tradeoff (T of the composed randomized responses)", inst)
    crosschecked(p, "exactdp tensor of the parts' tradeoff_of equals T of the product pair (the same instances), and "
                 "composition_tradeoff of (eps_i, delta_i) mechanisms equals T of the composed (eps_i, delta_i) "
                 "randomized responses (3 instances)", n_lib)
