"""Accounting Lemma 1: the hockey-stick divergence as an expectation of the privacy loss;
composition is convolution of loss laws; the formula is monotone in losses and masses.

Checks (exact, Fractions): on seeded random finite pairs (with +inf and -inf losses) the
formula P(L = +inf) + E_P[(1 - e^{eps - L})_+] equals sup_S P(S) - alpha Q(S) computed by
brute force over every set S, for alpha = e^eps on a grid from 1/4 to 40; for products of
two and three pairs the loss of each product outcome is the sum of the factors' losses
(e^L multiplies) and the convolved loss law gives the brute-force sup over the product space;
raising one loss value or one mass (or moving mass to +inf) never lowers the formula.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _discrete as D


def formula(pair, alpha):
    """Lemma 1's right side on the loss law of ``pair`` (the transcription checked here)."""
    return D.delta_formula(D.loss_law(pair), alpha)


@statement("Lemma 1", "H_{e^eps}(P||Q) = P(L = +inf) + E_P[(1 - e^{eps - L})_+ ; L < inf]; for products the "
           "loss is the sum of independent losses; the right side is non-decreasing in every loss value and "
           "every mass")
def lemma(p: Proof) -> None:
    rng = p.rng
    n_pairs = 30 if p.full else 12
    pairs = [D.random_pair(rng, rng.randint(2, 7)) for _ in range(n_pairs)]
    n = 0
    for pair in pairs:
        for a in D.ALPHAS:
            if not p.require(formula(pair, a) == D.hs_sup(pair, a), "the loss formula equals sup_S P(S) - alpha Q(S)",
                             lambda: f"pair {D.fmt_pair(pair)}, alpha {a}: {formula(pair, a)} vs {D.hs_sup(pair, a)}"):
                return
            n += 1
    p.instances("random pairs (2-7 outcomes, +inf and -inf losses) x 12 alphas: formula = brute-force sup over all S", n,
                "exhaustive")
    n = 0
    small = [D.random_pair(rng, rng.randint(2, 3)) for _ in range(n_pairs)]
    for i in range(len(small) - 2):
        a, b, c = small[i], small[i + 1], small[i + 2]
        for pa, qa in a:  # e^{L} of a product outcome = the product of the factors' e^L
            for pb, qb in b:
                if pa and pb and qa and qb and not p.require(
                        (pa * pb) / (qa * qb) == (pa / qa) * (pb / qb), "product loss = sum", f"{(pa, qa)} x {(pb, qb)}"):
                    return
        for factors in ((a, b), (a, b, c)):
            if len(factors) == 3:
                factors = tuple(f[:2] if len(f) > 2 else f for f in factors)
                factors = tuple([(x / sum(u for u, _ in f), y / sum(v for _, v in f)) for x, y in f] for f in factors
                                if sum(u for u, _ in f) and sum(v for _, v in f))
            flat = [(F(1), F(1))]
            law = ({F(1): F(1)}, F(0))
            for f in factors:
                flat = [(x * pf, y * qf) for x, y in flat for pf, qf in f]
                law = D.convolve(law, D.loss_law(f))
            for al in D.ALPHAS:
                if not p.require(D.delta_formula(law, al) == D.hs_sup(flat, al),
                                 "convolved loss laws give H of the product",
                                 lambda: " x ".join(D.fmt_pair(f) for f in factors) + f", alpha {al}"):
                    return
                n += 1
    p.instances("products of two and of three random pairs: convolved loss laws give the brute-force sup over the product space", n,
                "exhaustive")
    n = 0
    for pair in pairs:
        atoms, m_inf = D.loss_law(pair)
        for e in list(atoms):
            for al in D.ALPHAS:
                base = D.delta_formula((atoms, m_inf), al)
                up_loss = dict(atoms)
                m = up_loss.pop(e)
                e2 = e * F(rng.randint(11, 30), 10)
                up_loss[e2] = up_loss.get(e2, F(0)) + m
                up_mass = dict(atoms)
                up_mass[e] += F(rng.randint(1, 5), 20)
                to_inf = dict(atoms)
                to_inf.pop(e)
                ok = (D.delta_formula((up_loss, m_inf), al) >= base and D.delta_formula((up_mass, m_inf), al) >= base
                      and D.delta_formula((to_inf, m_inf + m), al) >= base)
                if not p.require(ok, "monotone in losses and masses", lambda: f"{D.fmt_pair(pair)}, atom {e}, alpha {al}"):
                    return
                n += 1
    p.instances("one loss raised, one mass raised, one atom sent to +inf: the formula does not decrease", n)
