"""Accounting Lemma 7: connect-the-dots dominance (Doroshenko, Ghazi, Kamath, Kumar,
Manurangsi, PETS 2022): each bin's (P(B), Q(B)) split to the bin's lattice endpoints
dominates the pair, and k-fold products of split pairs dominate k-fold products.

Checks. Exact (Fractions; the lattice step h with e^h = r rational, r in {5/4, 3/2, 2}): on
seeded random finite pairs (with +inf and -inf losses), unit bins [ih, (i+1)h) and coarse
bins of random widths: the split masses are non-negative and q_lo + q_hi = Q(B); H_alpha of
the split pair >= H_alpha of the pair on the alpha grid, and likewise for their k-fold products,
k = 2..4 (exact convolution). Gaussian (mpmath, 30 digits): the loss of N(Delta) vs N(0) binned
on lattices h in {1/20, 1/4} (tails beyond +-14 sd of the loss moved to the pessimistic side,
mass below 1e-40), H of the split pair and of its k-fold products (k <= 4, merged on the lattice)
>= the closed form of Lemma 2 with Delta sqrt(k).
"""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
from mpmath import mpf

from .._framework import Proof, statement
from . import _discrete as D
from . import _gauss as G


def split(pair, r, breaks):
    """The construction checked (``_discrete.connect_dots``), named here so that a test can replace it."""
    return D.connect_dots(pair, r, breaks)


def split_bin(P, Q, ea, eb):
    """One bin's split for the Gaussian check: (p_hi, q_hi), (p_lo, q_lo) at endpoints e^a = ea, e^b = eb."""
    p_hi = (P - ea * Q) / (1 - ea / eb)
    p_lo = P - p_hi
    return (p_hi, p_hi / eb), (p_lo, p_lo / ea)


def _discrete(p: Proof) -> bool:
    rng = p.rng
    n = nk = nm = 0
    for trial in range(12 if p.full else 6):
        r = [F(5, 4), F(3, 2), F(2)][trial % 3]
        pair = D.random_pair(rng, rng.randint(3, 6))
        for coarse in (False, True):
            breaks = D.random_breaks(rng, pair, r, coarse)
            sp = split(pair, r, breaks)
            for a, b, P, Q in D.bins_of(pair, r, breaks):
                if P == 0 and Q == 0:
                    continue
                p_hi = (P - r ** a * Q) / (1 - r ** (a - b))
                ok = p_hi >= 0 and P - p_hi >= 0 and p_hi / r ** b + (P - p_hi) / r ** a == Q
                if not p.require(ok, "split masses non-negative, q_lo + q_hi = Q(B)",
                                 lambda: f"{D.fmt_pair(pair)}, r {r}, bin [{a}, {b}]"):
                    return False
                nm += 1
            for al in D.ALPHAS:
                if not p.require(D.hs(sp, al) >= D.hs(pair, al), "the split pair dominates",
                                 lambda: f"{D.fmt_pair(pair)}, r {r}, breaks {breaks}, alpha {al}: {D.hs(sp, al)} < "
                                         f"{D.hs(pair, al)}"):
                    return False
                n += 1
            for k in range(2, 5 if p.full or trial < 3 else 4):
                spk, pk = D.power(sp, k), D.power(pair, k)
                for al in D.ALPHAS:
                    if not p.require(D.hs(spk, al) >= D.hs(pk, al), "k-fold split products dominate",
                                     lambda: f"{D.fmt_pair(pair)}, r {r}, breaks {breaks}, k {k}, alpha {al}"):
                        return False
                    nk += 1
    p.instances("bins of random pairs (unit and coarse lattice bins): split masses >= 0, q_lo + q_hi = Q(B)", nm)
    p.instances("random pairs, unit and coarse bins, 12 alphas: H(split) >= H(pair)", n)
    p.instances("k-fold products, k = 2..4 (exact convolution): H(split^k) >= H(pair^k)", nk)
    return True


def gaussian_split(sigma, Delta, h, width=6):
    """Lemma 7's split of the Gaussian pair's loss binned on the lattice h Z (unit bins), as a
    list of (p, q, i) with loss i h (i None: +inf); the tails beyond +-width sd of the loss go to
    the pessimistic side (above: +inf; below: the lowest lattice point)."""
    eta = Delta ** 2 / (2 * sigma ** 2)
    sd = mpmath.sqrt(2 * eta)
    lo, hi = int(mpmath.floor((eta - width * sd) / h)), int(mpmath.ceil((eta + width * sd) / h))

    def x_of(l):  # the output at which the loss is l
        return sigma ** 2 * l / Delta + Delta / 2

    def mass(x0, x1, m):
        return G.Phi((x1 - m) / sigma) - G.Phi((x0 - m) / sigma)

    atoms = {}
    for i in range(lo, hi):
        x0, x1 = x_of(i * h), x_of((i + 1) * h)
        P, Q = mass(x0, x1, Delta), mass(x0, x1, 0)
        (ph, qh), (pl, ql) = split_bin(P, Q, mpmath.exp(i * h), mpmath.exp((i + 1) * h))
        for j, pp, qq in ((i + 1, ph, qh), (i, pl, ql)):
            a = atoms.setdefault(j, [mpf(0), mpf(0)])
            a[0] += pp
            a[1] += qq
    below_p = G.Phi((x_of(lo * h) - Delta) / sigma)
    atoms[lo][0] += below_p  # moved up to the lowest lattice point: loss raised (Lemma 1's monotonicity)
    atoms[lo][1] += below_p * mpmath.exp(-lo * h)
    out = [(a[0], a[1], i) for i, a in sorted(atoms.items())]
    out.append((G.Phibar((x_of(hi * h) - Delta) / sigma), mpf(0), None))
    return out


def _power_lattice(atoms, k):
    out = {0: [mpf(1), mpf(1)]}
    inf = mpf(0)
    fin_total = mpf(1)
    a_inf = sum(p for p, q, i in atoms if i is None)
    a_fin = sum(p for p, q, i in atoms if i is not None)
    for _ in range(k):
        new = {}
        for j, (pp, qq) in out.items():
            for p_, q_, i in atoms:
                if i is None:
                    continue
                t = new.setdefault(j + i, [mpf(0), mpf(0)])
                t[0] += pp * p_
                t[1] += qq * q_
        inf = inf * (a_fin + a_inf) + fin_total * a_inf
        fin_total *= a_fin
        out = new
    return out, inf


def _gaussian(p: Proof) -> None:
    n = 0
    cases = [(mpf(1), mpf(1), mpf(1) / 4), (mpf(3) / 10, mpf(1), mpf(1)), (mpf(2), mpf(1), mpf(1) / 20)]
    if p.full:
        cases += [(mpf(20), mpf(1), mpf(1) / 100), (mpf(1), mpf(2), mpf(1) / 10)]
    for sigma, Delta, h in cases:
        atoms = gaussian_split(sigma, Delta, h)
        for k in (1, 2, 3) + ((4,) if p.full else ()):
            comp, inf = _power_lattice(atoms, k)
            for eps in (mpf(0), mpf(1) / 2, mpf(2)):
                alpha = mpmath.exp(eps)
                hs = inf + sum(max(pp - alpha * qq, 0) for pp, qq in comp.values())
                true = G.gauss_delta(sigma, Delta * mpmath.sqrt(k), eps)
                if not p.require(hs >= true * (1 - G.TOL), "the split Gaussian pair's k-fold product dominates",
                                 lambda: f"sigma {sigma}, Delta {Delta}, h {h}, k {k}, eps {eps}: {G.fmt(hs)} < {G.fmt(true)}"):
                    return
                n += 1
    p.instances("Gaussian pairs split on lattices h = 1, 1/4, 1/20, k-fold products k in {1, 2, 3}: H >= Lemma 2's closed "
                "form", n, "mpmath 30 digits")


@statement("Lemma 7", "Connect-the-dots: a bin's (P(B), Q(B)) split to its lattice endpoints, p_hi = (P(B) - e^a Q(B))"
           "/(1 - e^{a-b}), p_lo = P(B) - p_hi, q = p e^{-l}, dominates the pair (every alpha), unit and coarse bins, "
           "and so do k-fold products")
def lemma(p: Proof) -> None:
    if _discrete(p):
        with G.precision():
            _gaussian(p)
