"""Vadhan-Zhang Lemma 1.6 (coupling property of f-DP).

Printed: if T(X, X') >= f and T(Y, Y') >= f, there are couplings (X, Y) and (X', Y') with
T((X, Y), (X', Y')) >= f.

Checked on random finite pairs: f random, (X, X') and (Y, Y') random post-processings of f's canonical
pair, and f's of every kind (0, 1 - alpha, f_{eps,delta} up to e^eps = 10^6); couplings built as in
Lemma 3.1's proof (Blackwell kernels from the exact LP); the marginals are exactly (X, Y), (X', Y')
and T(coupled) >= f. The independent coupling is not enough: an instance where
T(X x Y, X' x Y') < f is recorded (the paper's remark on "group privacy").
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _lp
from . import _tradeoff as T


def coupling_instances(p: Proof, count: int):
    out = []
    for i in range(count):
        if i % 4 == 3:
            f = p.rng.choice([T.PERFECT, T.IDENTITY, T.feps(F(10) ** 6, F(1, 10) ** 9), T.feps(F(3, 2), F(1, 5))])
        else:
            f = T.rand_tf(p.rng, 3)
        c = T.canonical(f)
        X = T.push(c, T.rand_kernel(p.rng, len(c), p.rng.randint(1, 3)))
        Y = T.push(c, T.rand_kernel(p.rng, len(c), p.rng.randint(1, 3)))
        out.append((f, X, Y))
    return out


def check_coupling(p: Proof, f, X, Y) -> bool:
    joint = _lp.couple(f, X, Y)
    if not p.require(joint is not None, "Blackwell kernels exist (T(X, X'), T(Y, Y') >= f)", f"f={T.fmt_tf(f)}"):
        return False
    mX, mY = _lp.marginals(joint, len(X), len(Y))
    if not p.require(mX == [tuple(v) for v in X] and mY == [tuple(v) for v in Y], "the couplings have the right marginals",
                     f"f={T.fmt_tf(f)} X={X} Y={Y}"):
        return False
    g = T.tradeoff(joint.values())
    return p.require(T.le(f, g), "T((X, Y), (X', Y')) >= f", f"f={T.fmt_tf(f)} X={X} Y={Y}: at {T.first_violation(f, g)}")


@statement(
    "Lemma 1.6",
    "If T(X, X') >= f and T(Y, Y') >= f, there exist couplings (X, Y) and (X', Y') with T((X, Y) || (X', Y')) >= f.",
)
def lemma(p: Proof) -> None:
    n = 0
    for f, X, Y in coupling_instances(p, 60 if p.full else 20):
        n += 1
        if not check_coupling(p, f, X, Y):
            return
    p.instances("random f and extreme f (0, 1 - alpha, f_{eps,delta}); X, Y random post-processings of the canonical "
                "pair: coupled marginals exact, T(coupling) >= f", n)
    w = F(3)
    rr = [pq for pq in T.rr_pair(w, 0) if pq[0] or pq[1]]
    f = T.feps(w, 0)
    indep = T.tradeoff(T.product_pairs(rr, rr))
    a = T.first_violation(f, indep)
    p.note(f"Independent coupling fails: X = Y = RR with e^eps = 3: T(X x Y, X' x Y') at alpha = {a} is "
           f"{T.value(indep, a)} < f_(eps,0)({a}) = {T.value(f, a)}.")
