"""Accounting Lemma 8: the lower construction. The pair of bin masses (P(B_j), Q(B_j)) of any
partition of the loss line is a post-processing of (P, Q), hence dominated by it, and so are
its k-fold products; its loss ln(P(B_j)/Q(B_j)) lies in the bin's loss range; and with
lattice points l_j and tau_j >= 0 such that L'_j >= l_j - tau_j, the composed lattice sum
sum prod p (1 - e^{eps + sum tau - sum l})_+ (p's lowered freely) is a lower bound for the
true composed delta(eps).

Checks (exact, Fractions; e^h = r rational): seeded random pairs (with +inf and -inf
losses) and random rational partitions: H(bins) <= H(pair) on the alpha grid, for the pair and
for k-fold products (k = 2, 3); P(B)/Q(B) between the smallest and largest likelihood ratio
in the bin; heterogeneous compositions of k = 1..3 different pairs, each binned, its bin
losses rounded to l_j = ceil(L'_j / h) h with tau_j = l_j - floor(L'_j / h) h, masses lowered
(scaled by 1, 9/10 or 1/2, or rounded down to 2^-8): the lattice sum <= the true composed H;
the same with one tau per step of any size (a shifted lattice, e^tau = s rational: each bin at
the greatest i with i h - tau <= L'), as the accountant uses to put atoms just above lattice
points.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

from .._framework import Proof, statement
from . import _discrete as D


def lower_formula(steps, r, alpha):
    """The lower bound checked (``_discrete.lattice_lower``), named here so that a test can replace it."""
    return D.lattice_lower(steps, r, alpha)


def shifted_formula(steps, r, alpha):
    """Lemma 8 with one ``tau`` per step (a shifted lattice, ``e^tau = s`` rational): each step is
    ``(atoms, s)``, ``atoms`` rows ``(p, i)`` (``i = None`` for +inf) with ``L' >= i h - tau``; the
    bound is ``sum prod p (1 - alpha prod s / r^(sum i))_+`` over one atom per step."""
    total = F(0)
    shift = F(1)
    for _, s in steps:
        shift *= s
    for combo in itertools.product(*(a for a, _ in steps)):
        m = F(1)
        inf = False
        si = 0
        for p_, i in combo:
            m *= p_
            if i is None:
                inf = True
            else:
                si += i
        if inf:
            total += m
        else:
            v = 1 - alpha * shift / r ** si
            if v > 0:
                total += m * v
    return total


def shifted_steps(rng, bins, r, s):
    """One step's rows ``(p', i)`` on the lattice shifted by ``tau = ln s``: ``i`` the greatest with
    ``i h - tau <= L'`` (``r^i <= s P/Q``), ``p' <= p``."""
    out = []
    for P, Q in bins:
        if P == 0:
            continue
        pl = P * [F(1), F(9, 10), F(1, 2)][rng.randint(0, 2)]
        out.append((pl, None if Q == 0 else D.floor_log(s * P / Q, r)))
    return out


def random_ratio_breaks(rng, pair):
    ratios = sorted({p / q for p, q in pair if p and q})
    out = sorted({ratios[0] * F(rng.randint(5, 20), 10) for _ in range(rng.randint(1, 3))})
    return out


def lattice_steps(rng, bins, r):
    """One step's atoms (p', i, t) for the lower formula: l = i h >= L' >= (i - t) h, p' <= p."""
    out = []
    for P, Q in bins:
        if P == 0:
            continue
        low = [F(1), F(9, 10), F(1, 2)][rng.randint(0, 2)]
        pl = P * low if rng.random() < 0.5 else F(int(P * 256), 256)
        if Q == 0:
            out.append((pl, None, 0))
            continue
        rho = P / Q
        i = D.ceil_log(rho, r)
        out.append((pl, i, i - D.floor_log(rho, r)))
    return out


def check_shifted(p: Proof, rng, pairs):
    """One tau per step, of any size (the accountant's shifted lattices; tau tiny when they are
    aligned to the atoms): e^tau = s rational in [1, r), each bin at the greatest i with
    i h - tau <= L'. Returns the number of instances, or None after a counterexample."""
    ns = 0
    trials = len(pairs)
    for t in range(trials):
        r = [F(5, 4), F(3, 2), F(2)][t % 3]
        for k in (1, 2, 3):
            group = [pairs[(t + j) % trials] for j in range(k)]
            steps = []
            for g in group:
                sh = [F(1), 1 + F(1, 10**6), 1 + (r - 1) * F(rng.randint(1, 15), 16)][rng.randint(0, 2)]
                steps.append((shifted_steps(rng, D.bin_masses(g, random_ratio_breaks(rng, g)), r, sh), sh))
            true = group[0]
            for g in group[1:]:
                true = D.product(true, g)
            for al in D.ALPHAS:
                lower = shifted_formula(steps, r, al)
                if not p.require(lower <= D.hs(true, al), "the shifted lattice sum is a lower bound",
                                 lambda: f"pairs {[D.fmt_pair(g) for g in group]}, r {r}, shifts "
                                         f"{[sh for _, sh in steps]}, alpha {al}: {lower} > {D.hs(true, al)}"):
                    return None
                ns += 1
    return ns


@statement("Lemma 8", "Bin masses (P(B_j), Q(B_j)) of any partition: dominated by (P, Q) (post-processing), also "
           "k-fold; L'_j = ln(P(B_j)/Q(B_j)) in the bin's range; with L'_j >= l_j - tau_j, delta_true(eps) >= "
           "sum prod p (1 - e^{eps + sum tau - sum l})_+ over the composed lattice atoms, p's lowered freely")
def lemma(p: Proof) -> None:
    rng = p.rng
    n = nk = nr = nl = 0
    trials = 16 if p.full else 8
    pairs = [D.random_pair(rng, rng.randint(3, 6)) for _ in range(trials)]
    for t, pair in enumerate(pairs):
        breaks = random_ratio_breaks(rng, pair)
        bins = D.bin_masses(pair, breaks)
        edges = [F(0)] + breaks + [None]
        for lo, hi in zip(edges, edges[1:]):
            inside = [p_ / q_ for p_, q_ in pair if p_ and q_ and p_ / q_ >= lo and (hi is None or p_ / q_ < hi)]
            if inside:
                P = sum(p_ for p_, q_ in pair if p_ and q_ and lo <= p_ / q_ and (hi is None or p_ / q_ < hi))
                Q = sum(q_ for p_, q_ in pair if p_ and q_ and lo <= p_ / q_ and (hi is None or p_ / q_ < hi))
                if not p.require(min(inside) <= P / Q <= max(inside), "the bin's loss lies in its range",
                                 lambda: f"{D.fmt_pair(pair)}, bin [{lo}, {hi})"):
                    return
                nr += 1
        for al in D.ALPHAS:
            if not p.require(D.hs(bins, al) <= D.hs(pair, al), "the bin-mass pair is dominated",
                             lambda: f"{D.fmt_pair(pair)}, breaks {breaks}, alpha {al}"):
                return
            n += 1
        for k in (2, 3):
            bk, pk = D.power(bins, k), D.power(pair, k)
            for al in D.ALPHAS:
                if not p.require(D.hs(bk, al) <= D.hs(pk, al), "k-fold bin-mass products are dominated",
                                 lambda: f"{D.fmt_pair(pair)}, breaks {breaks}, k {k}, alpha {al}"):
                    return
                nk += 1
        r = [F(5, 4), F(3, 2), F(2)][t % 3]
        for k in (1, 2, 3):
            group = [pairs[(t + j) % trials] for j in range(k)]
            steps = [lattice_steps(rng, D.bin_masses(g, random_ratio_breaks(rng, g)), r) for g in group]
            true = group[0]
            for g in group[1:]:
                true = D.product(true, g)
            for al in D.ALPHAS:
                lower = lower_formula(steps, r, al)
                if not p.require(lower <= D.hs(true, al), "the composed lattice sum is a lower bound",
                                 lambda: f"pairs {[D.fmt_pair(g) for g in group]}, r {r}, alpha {al}: {lower} > "
                                         f"{D.hs(true, al)}"):
                    return
                nl += 1
    ns = check_shifted(p, rng, pairs)
    if ns is None:
        return
    p.instances("random pairs and partitions: P(B)/Q(B) within the bin's likelihood ratios", nr)
    p.instances("random pairs and partitions, 12 alphas: H(bins) <= H(pair)", n)
    p.instances("k-fold products (k = 2, 3): H(bins^k) <= H(pair^k)", nk)
    p.instances("heterogeneous compositions of k = 1..3 binned, lattice-rounded, mass-lowered steps: lattice sum <= "
                "true composed H", nl)
    p.instances("compositions of k = 1..3 binned steps on lattices shifted by one tau per step (e^tau in {1, "
                "1 + 1e-6, random in (1, r)}): lattice sum <= true composed H", ns)
