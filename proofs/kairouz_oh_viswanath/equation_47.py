"""Kairouz-Oh-Viswanath Equation (47) (Appendix B, the Gaussian mechanism of Theorem 4.3).

Printed (display lost; what survives: "Using a similar technique as in (41), we know that
[(47)]. Next, we give an upper bound on the moment generating function of Z. [...] for
any lambda >= 0. Substituting this into (47) with a choice of lambda = (sigma^2/(k Delta^2))
(eps - k Delta^2/(2 sigma^2))"): transcribed as the Chernoff-type bound used there:
for every lambda >= 0,
delta(eps) = E[(1 - e^{eps - Z})^+] <= E[e^{lambda (Z - eps)}] lambda^lambda/(lambda+1)^{lambda+1},
Z the privacy loss of the k-fold Gaussian mechanism (N(mu^2/2, mu^2) under D_0,
mu^2 = k Delta^2/sigma^2, E[e^{lambda Z}] = e^{lambda mu^2/2 + lambda^2 mu^2/2}). The factor comes from
max_{u} (1 - e^{-u}) e^{-lambda u} = lambda^lambda/(lambda+1)^{lambda+1}; it is what makes Appendix B's
condition with log(e + mu/delta) suffice (checked in the Theorem 4.3 entry).

Checked: the pointwise inequality exactly ((1 - s) s^lambda <= lambda^lambda/(lambda+1)^{lambda+1} for
s = e^{-u} in [0,1], integer lambda, rational s; equality at s = lambda/(lambda+1)); the bound on
delta(eps) certified (Arb) on a grid of eps, mu, lambda (including non-integer lambda).
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement
from . import _bounds as B
from ._arb import A, decide_le, gauss_hockey


@statement(
    "Equation (47)",
    "delta(eps) = E[(1 - e^{eps-Z})^+] <= E[e^{lambda(Z - eps)}] lambda^lambda/(lambda+1)^{lambda+1} for every "
    "lambda >= 0 (display lost; transcribed from the text).",
)
def equation(p: Proof) -> None:
    n = 0
    for lam in range(0, 9):
        c = F(lam ** lam, (lam + 1) ** (lam + 1)) if lam else F(1)
        star = F(lam, lam + 1)
        ok = (1 - star) * star ** lam == c
        for j in range(0, 101):
            s = F(j, 100)
            ok = ok and (1 - s) * s ** lam <= c
        n += 1
        if not p.require(ok, "(1-s) s^lambda <= lambda^lambda/(lambda+1)^(lambda+1), equality at s = lambda/(lambda+1)",
                         f"lambda={lam}"):
            return
    p.instances("pointwise bound: integer lambda <= 8, s = e^{-u} in {0, 1/100, ..., 1}, equality at the "
                "maximiser", n, "exact")
    t = B.Tally(p)
    for mu in (F(1, 10), F(1, 2), F(1), F(3), F(10)):
        for eps in (F(1, 10), F(1), F(5), F(30)):
            for lam in (F(0), F(1, 3), F(1), F(5, 2), F(10)):
                def bounds(prec, mu=mu, eps=eps):
                    g = gauss_hockey(A(eps), A(mu))
                    return g.lower(), g.upper()

                def rhs(prec, mu=mu, eps=eps, lam=lam):
                    L, M, E = A(lam), A(mu), A(eps)
                    mgf = (L * (M * M / 2 - E) + L * L * M * M / 2).exp()
                    fac = A(1) if lam == 0 else (L * L.log() - (L + 1) * (L + 1).log()).exp()
                    return mgf * fac

                ok, _, text = decide_le(bounds, rhs)
                if not t.take(ok, "delta(eps) <= E[e^{lambda(Z-eps)}] lambda^lambda/(lambda+1)^(lambda+1)",
                              f"mu={mu} eps={eps} lambda={lam}: {text}"):
                    return
    t.report("Arb: Gaussian delta(eps) below the bound, mu in {1/10 .. 10}, eps in {1/10 .. 30}, "
             "lambda in {0, 1/3, 1, 5/2, 10}")
    p.note("The display is reconstructed from the surrounding text (the lambda, 'similar technique as in (41)', and "
           "the log(e + ...) form of the resulting condition); a different lost display would not change the checked "
           "inequality's truth, only what it is attributed to.")
