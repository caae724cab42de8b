"""Accounting Lemma 5: Poisson subsampling under remove and under add (Zhu, Dong, Wang,
AISTATS 2022, Theorem 11): with (P, Q) dominating the base mechanism under remove for every
eps in R, (q P + (1 - q) Q, Q) dominates under remove and (Q, (1 - q) Q + q P) under add; the
losses are l -> ln(1 - q + q e^l) (under qP + (1-q)Q) and l -> -ln(1 - q + q e^l) (under Q).

Checks. Exact (Fractions, exhaustive): the base mechanism M(T) = sum of the records' values
(0 or 1) + N, N a seeded random finite noise (asymmetric, so that the two orientations of the
add pair differ), (P, Q) = (N + 1, N) (which dominates M under remove: the check confirms
it); every dataset of a 3-record universe and every record x, the exact laws of M o S_q, and
sup over neighbours of H_alpha equals H_alpha of the stated pair for every alpha of the grid
(dominance and tightness), for q in {1/10, 1/3, 1/2, 1}; the outcomes' losses are the stated
maps of the base losses. Gaussian (mpmath, 30 digits): the subsampled Gaussian pairs' curves
from their loss maps (a threshold on the base loss) equal sup_S computed from the definition,
and dominate every one-record configuration with contribution a in [-Delta, Delta], with
equality at a = Delta, for sigma in {0.3, 2} (more with --full), q in {0.01, 0.5}, eps in {0, 2}.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import mpmath
from mpmath import mpf

from .._framework import Proof, statement
from . import _discrete as D
from . import _gauss as G


def remove_pair(P: dict, Q: dict, q: F):
    """Lemma 5's remove pair (q P + (1 - q) Q, Q) (distributions as {outcome: mass})."""
    return mix(P, Q, q), dict(Q)


def add_pair(P: dict, Q: dict, q: F):
    """Lemma 5's add pair (Q, (1 - q) Q + q P)."""
    return dict(Q), mix(P, Q, q)


def loss_map(e_l, q):
    """e^{L} of the remove pair at an outcome whose base loss is l (the add pair's is its inverse)."""
    return 1 - q + q * e_l


def mix(P: dict, Q: dict, q) -> dict:
    out = {o: (1 - q) * m for o, m in Q.items()}
    for o, m in P.items():
        out[o] = out.get(o, 0) + q * m
    return out


def as_pair(A: dict, B: dict) -> D.Pair:
    return [(F(A.get(o, 0)), F(B.get(o, 0))) for o in sorted(set(A) | set(B))]


def shift(N: dict, k: int) -> dict:
    return {o + k: m for o, m in N.items()}


def subsampled(values, N: dict, q: F) -> dict:
    """Exact law of M o S_q: each record kept with probability q, output sum of kept values + N."""
    out: dict = {}
    for keep in itertools.product((0, 1), repeat=len(values)):
        w = F(1)
        for k in keep:
            w *= q if k else 1 - q
        if w == 0:
            continue
        s = sum(v for v, k in zip(values, keep) if k)
        for o, m in N.items():
            out[o + s] = out.get(o + s, F(0)) + w * m
    return out


def _discrete(p: Proof) -> bool:
    rng = p.rng
    universe = [1, 0, 1]
    n = nl = 0
    for _ in range(4 if p.full else 2):
        N = {i: F(rng.randint(1, 9)) for i in range(rng.randint(2, 4))}
        tot = sum(N.values())
        N = {o: m / tot for o, m in N.items()}
        P, Q = shift(N, 1), N
        for q in (F(1, 10), F(1, 3), F(1, 2), F(1)):
            rem = as_pair(*remove_pair(P, Q, q))
            add = as_pair(*add_pair(P, Q, q))
            configs_rem, configs_add, base = [], [], []
            for r in range(len(universe) + 1):
                for Dp in itertools.combinations(range(len(universe)), r):
                    for x in range(len(universe)):
                        if x in Dp:
                            continue
                        small = [universe[i] for i in Dp]
                        big = small + [universe[x]]
                        A, B = subsampled(big, N, q), subsampled(small, N, q)
                        configs_rem.append(as_pair(A, B))
                        configs_add.append(as_pair(B, A))
                        base.append(as_pair(subsampled(big, N, F(1)), subsampled(small, N, F(1))))
            for a in D.ALPHAS:
                hb = D.hs(as_pair(P, Q), a)
                if not p.require(all(D.hs(c, a) <= hb for c in base), "(N + 1, N) dominates the base mechanism",
                                 f"noise {N}, alpha {a}"):
                    return False
                for name, claim, configs in (("remove", rem, configs_rem), ("add", add, configs_add)):
                    sup = max(D.hs(c, a) for c in configs)
                    if not p.require(sup == D.hs(claim, a), f"sup over {name} neighbours = H of the {name} pair",
                                     lambda: f"noise {N}, q {q}, alpha {a}: sup {sup} vs pair {D.hs(claim, a)}"):
                        return False
                    n += 1
            remP, remQ = remove_pair(P, Q, q)
            for o, m in remQ.items():  # the losses: e^{L} = 1 - q + q e^{l} (remove), its inverse under Q (add)
                e_l = F(P.get(o, 0)) / m
                if m and remP.get(o, 0) and not p.require(
                        remP[o] / m == loss_map(e_l, q) and m / remP[o] == 1 / loss_map(e_l, q),
                        "the loss maps l -> +-ln(1 - q + q e^l)", f"noise {N}, q {q}, outcome {o}"):
                    return False
                nl += 1
    p.instances("subsampled sum + random asymmetric noise, every dataset of a 3-record universe and record, q in "
                "{1/10, 1/3, 1/2, 1}, 12 alphas: sup over neighbours = H of the stated pair (remove and add)", n, "exhaustive")
    p.instances("loss of each outcome = the stated map of the base loss", nl)
    return True


def _gaussian(p: Proof) -> None:
    sigmas = [mpf(3) / 10, mpf(2)] + ([mpf(1), mpf(20)] if p.full else [])
    qs = [mpf(1) / 100, mpf(1) / 2] + ([mpf(1)] if p.full else [])
    epss = [mpf(0), mpf(2)] + ([mpf(1) / 2, mpf(8)] if p.full else [])
    Delta = mpf(1)
    n = 0
    with G.precision():
        for s, q, eps in itertools.product(sigmas, qs, epss):
            alpha = mpmath.exp(eps)
            # remove: L = ln(1 - q + q e^{l(x)}) > eps  <=>  l(x) > ln((alpha - 1 + q)/q)  <=>  x > x_r
            Pm = [(q, Delta), (1 - q, 0)]
            lr = mpmath.log((alpha - 1 + q) / q)
            x_r = s ** 2 * lr / Delta + Delta / 2
            via_r = G.mix_mass_above(Pm, s, x_r) - alpha * G.mix_mass_above([(1, 0)], s, x_r)
            # add: L = -ln(1 - q + q e^{l(x)}) > eps under Q = N(0)  <=>  l(x) < ln((1/alpha - 1 + q)/q) (if > 0)
            if 1 / alpha > 1 - q:
                x_a = s ** 2 * mpmath.log((1 / alpha - 1 + q) / q) / Delta + Delta / 2
                via_a = G.mix_mass_between([(1, 0)], s, -mpmath.inf, x_a) - alpha * G.mix_mass_between(Pm, s, -mpmath.inf, x_a)
            else:
                via_a = mpf(0)
            for name, via, claim_fn in (
                    ("remove", via_r, lambda a: G.mixture_hs([(q, a), (1 - q, 0)], [(1, 0)], s, alpha)),
                    ("add", via_a, lambda a: G.mixture_hs([(1, 0)], [(1 - q, 0), (q, a)], s, alpha))):
                claim = claim_fn(Delta)
                if not p.require(G.close(via, claim, mpf(10) ** -15), f"{name}: the loss map's curve = sup_S of the pair",
                                 lambda: f"sigma {s}, q {q}, eps {eps}: {G.fmt(via)} vs {G.fmt(claim)}"):
                    return
                for a in (-Delta, mpf(0), Delta / 2):
                    h = claim_fn(a)
                    if not p.require(h <= claim * (1 + G.TOL) + mpf(10) ** -35, f"{name}: contribution a is dominated",
                                     lambda: f"sigma {s}, q {q}, eps {eps}, a {a}: {G.fmt(h)} > {G.fmt(claim)}"):
                        return
                n += 1
    p.instances("subsampled Gaussian sum query: loss-map curve = definition, contributions a in {-Delta, 0, Delta/2, "
                "Delta} dominated by (attained at) a = Delta, remove and add", n, "mpmath 30 digits")


@statement("Lemma 5", "Poisson subsampling (Zhu-Dong-Wang Theorem 11): with (P, Q) dominating M under remove for all "
           "eps, (qP + (1-q)Q, Q) dominates M o S_q under remove and (Q, (1-q)Q + qP) under add; losses "
           "l -> ln(1 - q + q e^l) under qP + (1-q)Q, l -> -ln(1 - q + q e^l) under Q")
def lemma(p: Proof) -> None:
    if _discrete(p):
        with G.precision():
            _gaussian(p)
