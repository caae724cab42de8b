"""Accounting Lemma 4: randomized response RR(p, m) (dp_accounting's
RandomizedResponseDpEvent(noise_parameter=p, num_buckets=m)): its pairs and loss laws under
replace_one and under replacement by a uniform special input (add/remove).

Checks (exact, Fractions, exhaustive): for m = 2..5 (2..7 with --full) and p in (0, 1], every
ordered pair of distinct inputs (v, v') gives, as sup_S R(v)(S) - alpha R(v')(S) over every
set S of outputs, exactly Lemma 1's formula on the stated loss law (so every pair attains the
stated curve: a tight dominating pair); likewise (R(v), U) and (U, R(v)) for the special input.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _discrete as D


def rr(p: F, m: int, v) -> list:
    """Output law of RR(p, m) on input v (None: the special input, output uniform)."""
    return [F(1, m) if v is None else (1 - p if o == v else 0) + p / m for o in range(m)]


def law_replace(p: F, m: int) -> D.Law:
    """Lemma 4's replace_one loss law, as {e^L: mass}."""
    r = (m * (1 - p) + p) / p
    atoms: dict = {}
    for e, w in ((r, 1 - p + p / m), (1 / r, p / m), (F(1), (m - 2) * p / m)):
        if w:
            atoms[e] = atoms.get(e, F(0)) + w
    return atoms, F(0)


def law_remove_special(p: F, m: int) -> D.Law:
    atoms: dict = {}
    for e, w in ((m * (1 - p) + p, 1 - p + p / m), (p, (m - 1) * p / m)):
        atoms[e] = atoms.get(e, F(0)) + w
    return atoms, F(0)


def law_add_special(p: F, m: int) -> D.Law:
    atoms: dict = {}
    for e, w in ((1 / (m * (1 - p) + p), F(1, m)), (1 / p, F(m - 1, m))):
        atoms[e] = atoms.get(e, F(0)) + w
    return atoms, F(0)


@statement("Lemma 4", "Randomized response RR(p, m): replace_one loss +-ln((m(1-p)+p)/p) with masses 1-p+p/m and p/m, "
           "0 with mass (m-2)p/m (tight); special input: remove ln(m(1-p)+p) w.p. 1-p+p/m, ln p w.p. (m-1)p/m; "
           "add -ln(m(1-p)+p) w.p. 1/m, -ln p w.p. (m-1)/m")
def lemma(p: Proof) -> None:
    ms = range(2, 8 if p.full else 6)
    ps = [F(1, 10), F(1, 3), F(1, 2), F(9, 10), F(1)]
    n = 0
    for m in ms:
        for pp in ps:
            cases = [((v, w), law_replace(pp, m)) for v in range(m) for w in range(m) if v != w]
            cases += [((v, None), law_remove_special(pp, m)) for v in range(m)]
            cases += [((None, v), law_add_special(pp, m)) for v in range(m)]
            for (v, w), law in cases:
                pair = list(zip(rr(pp, m, v), rr(pp, m, w)))
                for a in D.ALPHAS:
                    got, want = D.hs_sup(pair, a), D.delta_formula(law, a)
                    if not p.require(got == want, "sup_S of the pair = Lemma 1's formula on the stated loss law",
                                     lambda: f"m {m}, p {pp}, inputs {v} -> {w}, alpha {a}: {got} vs {want}"):
                        return
                    n += 1
    p.instances("RR(p, m), every ordered pair of inputs (and the special input both ways) x 12 alphas: brute-force sup "
                "over all output sets = the stated loss law's formula", n, "exhaustive")
