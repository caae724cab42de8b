"""Accounting Lemma 11: one Poisson-subsampled Gaussian step in closed form. The loss of each
dominating pair (Lemmas 5 and 6, sensitivity 1, noise scale t = sigma/Delta) is monotone in the
output x, so {L > eps} is a half-line with the explicit end x*, and delta(eps) is two or three
Gaussian tails (the remove, add and replace_one formulas of STATEMENTS.md).

Checks (mpmath, 30 digits, agreement to 1e-15 relative): for t in {1/2, 1, 2, 5}, q from 1/1000
to 1 and eps from 0 to 8 (more with --full), the closed form of each direction against
sup_S P(S) - e^eps Q(S) computed from the definition (the set {p > e^eps q} from the roots of
an exponential sum, :func:`_gauss.mixture_hs`), and on a subset against quadrature of
(p - e^eps q)_+; the threshold x* against the loss evaluated from the densities
(ln p(x*) - ln q(x*) = eps) and the loss increasing (remove, replace_one) or decreasing (add)
across it; the add curve is 0 exactly from eps = -ln(1 - q) on; at q = 1 each direction is the
Gaussian pair of Lemma 2 (sensitivity 1, or 2 under replace_one); sympy: the replace-one root
u solves a u^2 - b u - w a = 0.
"""

from __future__ import annotations

import mpmath
import sympy as sp
from mpmath import mpf

from .._framework import Proof, statement
from . import _gauss as G


def threshold(direction, t, q, eps):
    """Lemma 11's x* (the transcription checked): {L > eps} is {x > x*} (remove, replace_one) or
    {x < x*} (add); None where the add loss never exceeds eps."""
    t, q, w = mpf(t), mpf(q), mpmath.exp(eps)
    if direction == "remove":
        return t ** 2 * mpmath.log((w - 1 + q) / q) + mpf(1) / 2
    if direction == "add":
        B = 1 - w * (1 - q)
        return None if B <= 0 else t ** 2 * mpmath.log(B / (w * q)) + mpf(1) / 2
    a = q * mpmath.exp(-1 / (2 * t ** 2))
    b = (1 - q) * (w - 1)
    return t ** 2 * mpmath.log((b + mpmath.sqrt(b * b + 4 * w * a * a)) / (2 * a))


def closed_delta(direction, t, q, eps):
    """Lemma 11's delta(eps): the tails at the threshold."""
    t, q, w = mpf(t), mpf(q), mpmath.exp(eps)
    xs = threshold(direction, t, q, eps)
    if direction == "remove":
        return q * G.Phibar((xs - 1) / t) - (w - 1 + q) * G.Phibar(xs / t)
    if direction == "add":
        if xs is None:
            return mpf(0)
        return (1 - w * (1 - q)) * G.Phi(xs / t) - w * q * G.Phi((xs - 1) / t)
    b = (1 - q) * (w - 1)
    return q * G.Phibar((xs - 1) / t) - b * G.Phibar(xs / t) - w * q * G.Phibar((xs + 1) / t)


def pair(direction, q):
    """The dominating pair (P, Q) of one step (Lemmas 5 and 6, sensitivity 1) as Gaussian mixtures."""
    q = mpf(q)
    mix = [(1 - q, 0), (q, 1)]
    if direction == "remove":
        return mix, [(1, 0)]
    if direction == "add":
        return [(1, 0)], mix
    return G.replace_pair(q, 1)


def loss(direction, t, q, x):
    """ln p(x) - ln q(x) from the mixture densities."""
    P, Q = pair(direction, q)
    return mpmath.log(G.mix_pdf(P, mpf(t))(x)) - mpmath.log(G.mix_pdf(Q, mpf(t))(x))


DIRECTIONS = ("remove", "add", "replace_one")


@statement("Lemma 11", "One Poisson-subsampled Gaussian step, t = sigma/Delta, w = e^eps: remove delta = q Phibar((x*-1)/t) "
           "- (w-1+q) Phibar(x*/t), x* = t^2 ln((w-1+q)/q) + 1/2; add delta = B Phi(x*/t) - w q Phi((x*-1)/t), "
           "B = 1 - w(1-q), x* = t^2 ln(B/(wq)) + 1/2 (0 when B <= 0); replace_one delta = q Phibar((x*-1)/t) "
           "- b Phibar(x*/t) - w q Phibar((x*+1)/t), x* = t^2 ln u, a u^2 - b u - w a = 0, a = q e^{-1/(2t^2)}, "
           "b = (1-q)(w-1)")
def lemma(p: Proof) -> None:
    with G.precision():
        _check(p)


def _check(p: Proof) -> None:
    a, b, w, u = sp.symbols("a b w u", positive=True)
    root = (b + sp.sqrt(b ** 2 + 4 * w * a ** 2)) / (2 * a)
    p.symbolic("u = (b + sqrt(b^2 + 4 w a^2)) / (2a) solves a u^2 - b u - w a = 0 (the replace-one threshold: "
               "(1-q) + q c u = w ((1-q) + q c / u) with u = e^{x/t^2}, c = e^{-1/(2t^2)})",
               sp.simplify(sp.expand(a * root ** 2 - b * root - w * a)) == 0)
    ts = [mpf(1) / 2, mpf(1), mpf(2), mpf(5)]
    qs = [mpf(1) / 1000, mpf(1) / 100, mpf(1) / 10, mpf(1) / 2, mpf(1)]
    epss = [mpf(0), mpf(1) / 10, mpf(1), mpf(3), mpf(8)]
    if p.full:
        ts += [mpf(3) / 10, mpf(4) / 5, mpf(10)]
        qs += [mpf(1) / 256, mpf(1) / 25, mpf(9) / 10]
        epss += [mpf(1) / 100, mpf(1) / 2, mpf(5), mpf(15)]
    n = nq = nt = nz = 0
    for t in ts:
        for q in qs:
            for eps in epss:
                for d in DIRECTIONS:
                    closed = closed_delta(d, t, q, eps)
                    P, Q = pair(d, q)
                    direct = G.mixture_hs(P, Q, t, mpmath.exp(eps))
                    if not p.require(G.close(closed, direct), f"{d}: closed form = sup_S P(S) - e^eps Q(S)",
                                     lambda: f"t {t}, q {q}, eps {eps}: {G.fmt(closed)} vs {G.fmt(direct)}"):
                        return
                    n += 1
                    xs = threshold(d, t, q, eps)
                    if xs is None:  # add beyond its loss's range: 0 exactly
                        if not p.require(q < 1 and eps >= -mpmath.log(1 - q) and closed == 0,
                                         "add: delta = 0 exactly from eps = -ln(1 - q) on",
                                         lambda: f"t {t}, q {q}, eps {eps}: {G.fmt(closed)}"):
                            return
                        nz += 1
                        continue
                    h = mpf(10) ** -8 * (1 + abs(xs))
                    sign = -1 if d == "add" else 1
                    ok = (abs(loss(d, t, q, xs) - eps) <= mpf(10) ** -20 * (1 + eps)
                          and sign * (loss(d, t, q, xs + h) - eps) > 0 and sign * (loss(d, t, q, xs - h) - eps) < 0)
                    if not p.require(ok, f"{d}: the loss crosses eps at x* (ln p(x*) - ln q(x*) = eps)",
                                     lambda: f"t {t}, q {q}, eps {eps}: x* {G.fmt(xs)}, L(x*) {G.fmt(loss(d, t, q, xs))}"):
                        return
                    nt += 1
                    if n % (3 if p.full else 7) == 0:
                        pts = [xs, -8 * t, 0, 1, 1 + 8 * t] + ([-1] if d == "replace_one" else [])
                        quad = G.quad_hs(G.mix_pdf(P, t), G.mix_pdf(Q, t), mpmath.exp(eps), pts)
                        if not p.require(G.close(closed, quad, mpf(10) ** -15), f"{d}: closed form = quadrature of (p - e^eps q)_+",
                                         lambda: f"t {t}, q {q}, eps {eps}: {G.fmt(closed)} vs {G.fmt(quad)}"):
                            return
                        nq += 1
                    if q == 1:
                        g = G.gauss_delta(t, 2 if d == "replace_one" else 1, eps)
                        if not p.require(G.close(closed, g), f"{d}: q = 1 is the Gaussian pair of Lemma 2",
                                         lambda: f"t {t}, eps {eps}: {G.fmt(closed)} vs {G.fmt(g)}"):
                            return
    p.instances("closed form vs the definition (the set {p > e^eps q}), remove, add and replace_one, "
                "t 1/2-5, q 1/1000-1, eps 0-8", n, "mpmath 30 digits")
    p.instances("the threshold: L(x*) = eps and L monotone across it", nt, "mpmath 30 digits")
    p.instances("add: delta = 0 exactly for eps >= -ln(1 - q)", nz, "mpmath 30 digits")
    p.instances("closed form vs quadrature of (p - e^eps q)_+ (to 1e-15)", nq, "mpmath 30 digits")
