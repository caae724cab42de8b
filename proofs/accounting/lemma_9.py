"""Accounting Lemma 9: truncation and fixed-point rounding of loss laws, per step or after
composition, on the pessimistic (upper) or optimistic (lower) side, and the union bound
m_inf(A * B) <= m_inf(A) + m_inf(B) for infinite masses under composition.

Checks (exact, Fractions): seeded random loss laws (with +inf mass) of k = 1..3 steps (4 with
--full), random cuts and grids 2^-b: each step modified on the upper side (mass above the
high cut to +inf, mass below the low cut raised to the cut, masses rounded up) and on the
lower side (both tails dropped, masses rounded down), then composed by exact convolution:
Lemma 1's formula on the composed upper laws >= the true composed delta >= on the lower
laws, on the alpha grid; the same modifications applied to the true composed law; and the
union bound on the true laws' +inf masses.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _discrete as D


def modify(law, rng, upper: bool):
    """One step's (or one composition's) modification on one side, random cuts and grid."""
    es = sorted(law[0])
    if not es:
        return D.round_masses(law, 8, upper)
    hi = es[-1] / F(rng.randint(1, 4))
    lo = es[0] * F(rng.randint(1, 4))
    bits = rng.choice((3, 6, 10))
    out = D.cut_high(law, hi, upper)
    out = D.cut_low(out, lo, upper)
    return D.round_masses(out, bits, upper)


def compose(laws):
    out = ({F(1): F(1)}, F(0))
    for law in laws:
        out = D.convolve(out, law)
    return out


@statement("Lemma 9", "Truncation and fixed-point rounding: mass above a cut to +inf (upper) / dropped (lower); mass "
           "below a cut moved up to it (upper) / dropped (lower); masses rounded up (upper) / down (lower); per step "
           "or composed; m_inf(A * B) <= m_inf(A) + m_inf(B)")
def lemma(p: Proof) -> None:
    rng = p.rng
    n = nc = nu = 0
    for trial in range(24 if p.full else 12):
        k = 1 + trial % (4 if p.full else 3)
        laws = [D.loss_law(D.random_pair(rng, rng.randint(3, 6), zero=False)) for _ in range(k)]
        true = compose(laws)
        up = compose([modify(law, rng, True) for law in laws])
        down = compose([modify(law, rng, False) for law in laws])
        up_c, down_c = modify(true, rng, True), modify(true, rng, False)
        for al in D.ALPHAS:
            t = D.delta_formula(true, al)
            if not p.require(D.delta_formula(down, al) <= t <= D.delta_formula(up, al),
                             "per-step modifications bound the composed delta on their side",
                             lambda: f"trial {trial}, k {k}, alpha {al}: lower {D.delta_formula(down, al)}, true {t}, "
                                     f"upper {D.delta_formula(up, al)}"):
                return
            n += 1
            if not p.require(D.delta_formula(down_c, al) <= t <= D.delta_formula(up_c, al),
                             "modifications of the composed law bound it on their side",
                             lambda: f"trial {trial}, k {k}, alpha {al}"):
                return
            nc += 1
        for a, b in zip(laws, laws[1:]):
            if not p.require(D.convolve(a, b)[1] <= D.m_inf_bound(a, b), "union bound for +inf masses",
                             lambda: f"m_inf {a[1]}, {b[1]}: composed {D.convolve(a, b)[1]}"):
                return
            nu += 1
    p.instances("per-step upper/lower truncation and rounding, composed (k = 1..3): lower <= true <= upper, 12 alphas",
                n)
    p.instances("the same modifications of the composed law", nc)
    p.instances("m_inf(A * B) <= m_inf(A) + m_inf(B)", nu)
