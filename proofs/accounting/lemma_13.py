"""Accounting Lemma 13: re-binning a discrete loss law on a coarser lattice. (a) An atom between
two consecutive coarse points split to them with P- and Q-mass kept (the connect-the-dots split
of an atom, Doroshenko et al., PETS 2022), masses rounded up: every delta(eps) of the law
composed with any non-negative measure can only grow. (b) Atoms split into parts and merged
into bins (a post-processing), each merged atom put at a coarse point at or below its loss
-ln(sum p e^{-l} / sum p), masses lowered: every such delta(eps) can only fall.

Checks (exact, Fractions; the fine lattice step h with e^h = r rational, the coarse step m h,
m in {2, 3, 4}): seeded random loss laws on the fine lattice (with a +inf mass), composed
afterwards with random non-negative measures (random atoms at rational e^L, random total mass,
a +inf mass): (a) each off-point atom split, masses rounded up to 2^-12 or kept: the composed
delta at every alpha of the grid >= the original's; p_a, p_b >= 0, p_a + p_b = p and
p_a e^{-a} + p_b e^{-b} = p e^{-l}; (b) random bins of consecutive atoms with the boundary
atoms split at random fractions, each merged atom at the greatest coarse point at or below its
merged loss, masses rounded down or kept: the composed delta <= the original's; and the
accountant's sweep (pools lifted exactly to the coarse point at or above them by a fraction of
the next atom above; a pool that cannot be lifted put below its least atom): the same.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _discrete as D


def split_atom(p, i, m, r):
    """(a): the atom of P-mass ``p`` at loss ``i h`` split to the coarse points ``m j h`` and
    ``m (j + 1) h`` around it: ``[(index, mass)]`` (the atom itself when on a coarse point)."""
    j = i // m
    if i == m * j:
        return [(i, p)]
    ea_l = r ** (m * j - i)  # e^{a - l}
    ea_b = r ** (-m)  # e^{a - b}
    p_b = p * (1 - ea_l) / (1 - ea_b)
    return [(m * j, p - p_b), (m * (j + 1), p_b)]


def merged_point(parts, m, r):
    """(b): the coarse index (a multiple of ``m``) a merged bin of ``parts`` ``[(index, P-mass)]`` is
    put at: the greatest with loss at or below the merged loss ``-ln(sum p e^{-l} / sum p)``."""
    P = sum(p for _, p in parts)
    Q = sum(p / r ** i for i, p in parts)
    return m * D.floor_log(P / Q, r ** m)


def random_law(rng, r):
    """A loss law on the fine lattice: ``({index: P-mass}, inf mass)``."""
    n = rng.randint(3, 7)
    lo = rng.randint(-6, 2)
    idx = sorted(rng.sample(range(lo, lo + 14), n))
    ws = [rng.randint(1, 9) for _ in idx]
    inf = rng.choice((0, 0, 1))
    tot = sum(ws) + inf
    return {i: F(w, tot) for i, w in zip(idx, ws)}, F(inf, tot)


def random_measure(rng):
    """A non-negative measure of losses composed afterwards: ``({e^L: mass}, inf mass)``, any total."""
    atoms = {}
    for _ in range(rng.randint(1, 4)):
        e = F(rng.randint(1, 40), rng.randint(1, 40))
        atoms[e] = atoms.get(e, F(0)) + F(rng.randint(1, 9), rng.randint(1, 9))
    return atoms, F(rng.choice((0, 0, 1)), rng.randint(2, 7))


def as_law(idx_law, r):
    atoms, inf = idx_law
    out = {}
    for i, p in atoms.items():
        out[r ** i] = out.get(r ** i, F(0)) + p
    return out, inf


def upper(law, m, r, rng):
    atoms, inf = law
    out = {}
    for i, p in atoms.items():
        for j, q in split_atom(p, i, m, r):
            out[j] = out.get(j, F(0)) + q
    res = (out, inf)
    if rng.random() < 0.5:
        res = D.round_masses(as_law(res, r), 12, True)
        return res
    return as_law(res, r)


def random_bins(rng, law):
    """Random consecutive bins of parts: ``[[(index, P-mass), ...], ...]``; an atom at a bin's
    boundary split at a random fraction between the two bins."""
    items = sorted(law[0].items())
    bins, cur = [], []
    for i, p in items:
        if cur and rng.random() < 0.4:
            t = F(rng.randint(0, 4), 4)
            if 0 < t < 1:
                cur.append((i, t * p))
                p = (1 - t) * p
            bins.append(cur)
            cur = []
        cur.append((i, p))
    bins.append(cur)
    return bins


def sweep_bins(law, m, r):
    """The accountant's sweep (:func:`exactdp.accounting.lattice.coarsen`, lower side), exactly: a
    pool gathers the atoms at or below its target (the least coarse point at or above its first
    atom) and takes from the next atoms above just the fraction that lifts its merged loss to the
    target. Returns ``[(parts, coarse index or None)]`` (None: put by :func:`merged_point`)."""
    out = []
    pool, c, bal = [], None, F(0)
    for i, p in sorted(law[0].items()):
        while p:
            if not pool:
                c = -((-i) // m) * m
            if i <= c:
                pool.append((i, p))
                bal += p * (r ** (c - i) - 1)
                p = F(0)
                continue
            sur = 1 - r ** (c - i)
            x = max(F(0), bal / sur)
            if x <= p:
                out.append((pool + [(i, x)], c))
                pool, bal = [], F(0)
                p -= x
            else:
                pool.append((i, p))
                bal -= p * sur
                p = F(0)
    if pool:
        out.append((pool, c if bal <= 0 else None))
    return out


def lower(bins, inf, m, r, rng, placed=None):
    atoms = {}
    low = rng.choice((F(1), F(9, 10)))
    for k, parts in enumerate(bins):
        parts = [(i, q) for i, q in parts if q]
        if not parts:
            continue
        j = placed[k] if placed and placed[k] is not None else merged_point(parts, m, r)
        e = r ** j
        atoms[e] = atoms.get(e, F(0)) + low * sum(q for _, q in parts)
    res = (atoms, inf)
    return D.round_masses(res, 12, False) if rng.random() < 0.5 else res


@statement("Lemma 13", "Re-binning a discrete loss law on a coarser lattice: an atom split to the coarse points "
           "around it keeping P- and Q-mass (masses up) can only raise delta(eps) of any composition with it; atoms "
           "split and merged into bins, each put at a coarse point at or below -ln(sum p e^{-l} / sum p) (masses "
           "down), can only lower it")
def lemma(p: Proof) -> None:
    rng = p.rng
    nu = nl = ns = nm = 0
    for trial in range(30 if p.full else 14):
        r = [F(5, 4), F(3, 2), F(2), F(11, 10)][trial % 4]
        m = [2, 3, 4][trial % 3]
        law = random_law(rng, r)
        for i, q in law[0].items():
            parts = split_atom(q, i, m, r)
            ok = (all(x >= 0 for _, x in parts) and sum(x for _, x in parts) == q
                  and sum(x / r ** j for j, x in parts) == q / r ** i)
            if not p.require(ok, "split masses >= 0, P- and Q-mass kept",
                             lambda: f"atom {q} at index {i}, m {m}, r {r}: {parts}"):
                return
            nm += 1
        true = as_law(law, r)
        up = upper(law, m, r, rng)
        rb = random_bins(rng, law)
        low = lower(rb, law[1], m, r, rng)
        sw = sweep_bins(law, m, r)
        low_sw = lower([b for b, _ in sw], law[1], m, r, rng, [c for _, c in sw])
        for _ in range(3):
            rest = random_measure(rng)
            t_c, u_c = D.convolve(true, rest), D.convolve(up, rest)
            l_c, s_c = D.convolve(low, rest), D.convolve(low_sw, rest)
            for al in D.ALPHAS:
                t = D.delta_formula(t_c, al)
                if not p.require(D.delta_formula(u_c, al) >= t, "the split law's composed delta is at least the law's",
                                 lambda: f"law {law}, m {m}, r {r}, rest {rest}, alpha {al}"):
                    return
                nu += 1
                if not p.require(D.delta_formula(l_c, al) <= t, "the merged law's composed delta is at most the law's",
                                 lambda: f"law {law}, bins {rb}, m {m}, r {r}, rest {rest}, alpha {al}"):
                    return
                nl += 1
                if not p.require(D.delta_formula(s_c, al) <= t, "the sweep's composed delta is at most the law's",
                                 lambda: f"law {law}, sweep {sw}, m {m}, r {r}, rest {rest}, alpha {al}"):
                    return
                ns += 1
    p.instances("atoms split to the coarse points around them (m = 2..4): masses >= 0, P- and Q-mass kept", nm)
    p.instances("random laws split (masses rounded up or kept), composed with random non-negative measures, 12 "
                "alphas: delta >= the law's", nu)
    p.instances("random bins with split boundary atoms, merged, put at or below the merged loss (masses lowered): "
                "composed delta <= the law's", nl)
    p.instances("the accountant's sweep (pools lifted to their coarse point): composed delta <= the law's", ns)
