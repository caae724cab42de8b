"""Smith-Thakurta Claim 2 (reduction to the Gaussian interaction A) and its proof's simulation.

Printed: "If, for all Adv, the mechanism A defined above satisfies mu_0-GDP, then so is M_0."
(A answers the query mu_i with H_i = b mu_i + Z_i while sum mu_i^2 <= mu_0^2; M_0 answers
with mu_i-GDP mechanisms M_i.) Proof: Adv simulates the analyst Adv' of M_0: for each
query (mu_i, M_i) it builds F_i with M_i(D) ~ F_i(Z_i), M_i(D') ~ F_i(mu_i + Z_i), asks mu_i
of A, and feeds F_i(H_i) to Adv'.

Checks: the conclusion on instances where the M_i are not Gaussian at all (exact rational
tables: randomized response and asymmetric binary and ternary mechanisms, each declared mu
certified), against every deterministic adaptive adversary (certified trade-off vertices);
the simulation step for randomized response: F_i is a noisy threshold, its law identities
proved in sympy, its flip probability certified in [0, 1/2], and the simulated transcript
probabilities (Arb) contain the exact ones for every adversary.

Library cross-check: exactdp's GDPFilter.charge (charging mu-GDP mechanisms run elsewhere,
this claim) admits exactly the queries the filter arithmetic admits for the menus' mu_i.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import sympy as sp
from flint import fmpq

from .._crosscheck import crosschecked
from .._framework import Proof, statement
from . import _finite as FN
from ._gauss import A, Ball, Phi, check_gdp, decide, prec
from ._sym import is_zero


def menus(full: bool) -> list:
    """(mu_0, menu of exact table mechanisms, depth)."""
    t, rr = FN.table, FN.rr
    asym = t("bin(P=(9/10,1/10), Q=(1/2,1/2))", F(13, 10), (F(9, 10), F(1, 10)), (F(1, 2), F(1, 2)))
    tern = t("ter(P=(1/2,3/10,1/5), Q=(1/5,3/10,1/2))", F(9, 10), (F(1, 2), F(3, 10), F(1, 5)),
             (F(1, 5), F(3, 10), F(1, 2)))
    out = [
        (F(1), [rr(F(3, 2), F(11, 20)), rr(2, F(9, 10)), tern], 2),
        (F(2), [rr(2, F(9, 10)), rr(4, F(17, 10)), asym, tern], 2),
        (F(6), [rr(10, 3), rr(200, F(26, 5)), asym], 2),
    ]
    if full:
        out += [
            (F(1), [rr(F(3, 2), F(11, 20)), rr(2, F(9, 10))], 3),
            (F(2), [rr(2, F(9, 10)), asym, rr(4, F(17, 10))], 3),
        ]
    return out


@statement(
    "Claim 2",
    "If, for all Adv, the Gaussian interaction A (H_i = b mu_i + Z_i while sum mu_i^2 <= mu_0^2) satisfies mu_0-GDP, "
    "then so does M_0 (answers by arbitrary mu_i-GDP mechanisms M_i, sum mu_i^2 <= mu_0^2).",
    library=("exactdp.gdp.GDPFilter.charge",),
)
def claim(p: Proof) -> None:
    from .theorem_1 import _ledger

    n = n_lib = 0
    for mu0, menu, depth in menus(p.full):
        for m in menu:
            ok, w = FN.certify(m)
            if not ok:
                raise AssertionError(f"menu mechanism {m.name} is not {m.mu}-GDP: {w}")
        for desc, P0, P1 in FN.adversaries(menu, depth, mu0):
            n += 1
            ok, w = check_gdp(mu0, P0, P1)
            if not p.require(ok, f"M_0 (non-Gaussian M_i) is {mu0}-GDP", f"mu_0 = {mu0}, adversary {desc}: {w}"):
                return
        sq = sorted({m.mu * m.mu for m in menu})
        for d in range(1, depth + 2):
            for qs in itertools.product(sq, repeat=d):
                _ledger(p, mu0, list(qs), "charge")
                n_lib += 1
    p.instances("M_0 built from non-Gaussian mu_i-GDP mechanisms (exact rational tables: randomized response, an "
                "asymmetric binary and a ternary mechanism; each declared mu certified: Phi(mu/2) >= e^eps/(1 + e^eps) for "
                "randomized response, every trade-off vertex above G_mu for the others) with "
                "the filter is mu_0-GDP against every deterministic adaptive adversary (mu_0 in {1, 2, 6}, depth "
                + ("2-3" if p.full else "2") + "; exact likelihood-ratio order, Arb for G_{mu_0})", n, "certified")
    crosschecked(p, "exactdp GDPFilter(mu_0).charge(mu_sq = mu_i^2) for the menus' mechanisms accepts and refuses exactly "
                 "as the independent filter, every sequence up to depth + 1, with the same exact spent and remaining",
                 n_lib)
    p.note("The hypothesis (A is mu_0-GDP for every Adv) is what the rest of Theorem 1's proof shows; this entry checks "
           "the conclusion on instances, so it tests Claim 2 together with Theorem 1. Typo, not an erratum: the proof "
           "says 'Adv' that interacts with mu_0' for 'with M_0'.")


def _rr_parts(w: F, mu: F):
    """(p, y, lambda) for randomized response rr(w): p = 1/(1+w), y = Phi(mu/2), lambda = (1 - y - p)/(1 - 2y)."""
    p = 1 / (1 + w)
    y = Ball(lambda: Phi(A(mu) / 2))
    lam = Ball(lambda: (1 - y() - A(p)) / (1 - 2 * y()))
    return p, y, lam


@statement(
    "Claim 2 (proof: simulating M_i by F_i(H_i))",
    "For each query (mu_i, M_i), Adv builds F_i with M_i(D) ~ F_i(Z_i) and M_i(D') ~ F_i(mu_i + Z_i), asks mu_i of A, "
    "and feeds F_i(H_i) to Adv'; the messages then simulate Adv''s interaction with M_0 exactly.",
)
def simulation(p: Proof) -> None:
    # F for rr(e^eps) declared mu-GDP: threshold at mu/2, then flip with probability lambda.
    # P[F(Z) = 1] = (1 - lambda)(1 - y) + lambda y and P[F(mu + Z) = 1] = (1 - lambda) y + lambda (1 - y), y = Phi(mu/2)
    y, pr = sp.symbols("y p", positive=True)
    lam = (1 - y - pr) / (1 - 2 * y)
    ok0 = is_zero((1 - lam) * (1 - y) + lam * y - pr)
    ok1 = is_zero((1 - lam) * y + lam * (1 - y) - (1 - pr))
    p.verified("F = (1[x > mu/2] flipped w.p. lambda), lambda = (1 - Phi(mu/2) - p)/(1 - 2 Phi(mu/2)): "
               "P[F(Z) = 1] = p = P[M(D) = 1] and P[F(mu + Z) = 1] = 1 - p = P[M(D') = 1] for randomized response "
               "with p = 1/(1 + e^eps) (identities in y = Phi(mu/2), p)", ok0 and ok1)
    rrs = {}
    for mu0, menu, _ in menus(p.full):
        for m in menu:
            if m.exp_eps is not None:
                rrs[m.name] = m
    n_lam = 0
    for m in rrs.values():
        pp, yb, lb = _rr_parts(m.exp_eps, m.mu)
        n_lam += 1
        in_range = decide(lambda: lb(), "lambda > 0") and decide(lambda: A(F(1, 2)) - lb(), "lambda < 1/2")
        if not p.require(in_range, "the flip probability lambda is in [0, 1/2] (F_i exists)", m.name):
            return
    p.instances("for every randomized-response mechanism of the menus, lambda is certified in (0, 1/2) (equivalent "
                "to its declared mu-GDP: Phi(mu/2) >= e^eps/(1 + e^eps))", n_lam, "certified")
    # chain rule: the transcript of Adv' fed F_i(H_i) (Gaussian H_i) has M_0's exact law, every adversary
    n = 0
    for mu0, menu, depth in menus(False):
        menu = [m for m in menu if m.exp_eps is not None]
        sim = {}
        for m in menu:
            _, yb, lb = _rr_parts(m.exp_eps, m.mu)
            # outcome 1 under b = 0: 1[Z > mu/2] flipped; under b = 1: 1[mu + Z > mu/2] flipped
            one0 = Ball(lambda yb=yb, lb=lb: (1 - lb()) * (1 - yb()) + lb() * yb())
            one1 = Ball(lambda yb=yb, lb=lb: (1 - lb()) * yb() + lb() * (1 - yb()))
            sim[m.name] = FN.Mech("sim-" + m.name, m.mu, (), (Ball(lambda o=one0: 1 - o()), one0),
                                  (Ball(lambda o=one1: 1 - o()), one1))
        exact = FN.adversaries(menu, depth, mu0)
        simulated = FN.adversaries([sim[m.name] for m in menu], depth, mu0)
        for (desc, P0, P1), (_, S0, S1) in zip(exact, simulated):
            n += 1
            with prec(128):
                ok = all(s().contains(fmpq(x.numerator, x.denominator)) for X, S in ((P0, S0), (P1, S1))
                         for x, s in zip(X, S))
            if not p.require(ok, "the simulated transcript law contains M_0's exact law",
                             f"mu_0 = {mu0}, adversary {desc}"):
                return
    p.instances("every deterministic adaptive adversary over the randomized-response menus (depth 2): each transcript "
                "probability of the simulation (Gaussian H_i, then F_i; Arb at 128 bits) encloses M_0's exact rational "
                "one (enclosure only: the equality itself is the identity above with the chain rule)", n, "certified")
