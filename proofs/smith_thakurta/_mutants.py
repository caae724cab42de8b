"""Mutants of the Smith-Thakurta checks (issue 27; see :mod:`exactdp_proofs._mutants`)."""

from __future__ import annotations

from functools import partial

from .._mutants import mutant

m = partial(mutant, "smith_thakurta")

MUTANTS = [
    # Theorem 1: the filter; issue 27's fourth surviving mutant (10 % too lenient)
    m("Theorem 1", "constant", "the filter 10 % too lenient (sum mu_i^2 <= 1.1 mu_0^2)", "_finite", "filter_accepts",
      "return spent2 + mu2 <= mu0 * mu0", "return spent2 + mu2 <= mu0 * mu0 * F(11, 10)"),
    m("Theorem 1", "constant", "the filter 1 % too lenient", "_finite", "filter_accepts",
      "return spent2 + mu2 <= mu0 * mu0", "return spent2 + mu2 <= mu0 * mu0 * F(101, 100)"),
    m("Theorem 1", "term", "the filter without the new query's mu_i^2 (checks the sum so far)", "_finite",
      "filter_accepts", "return spent2 + mu2 <= mu0 * mu0", "return spent2 <= mu0 * mu0"),
    m("Theorem 1", "term", "the filter on sum mu_i instead of sum mu_i^2", "_finite", "filter_accepts",
      "return spent2 + mu2 <= mu0 * mu0", "return spent2 + mu2 <= mu0"),
    m("Theorem 1", "constant", "G_{mu_0} replaced by the curve of mu_0/2 (a stricter claim than mu_0-GDP)",
      "_gauss", "G", "return Phi(Phi_inv(1 - A(alpha)) - A(mu))", "return Phi(Phi_inv(1 - A(alpha)) - A(mu) / 2)"),
    m("Claim 2", "constant", "the filter 10 % too lenient", "_finite", "filter_accepts",
      "return spent2 + mu2 <= mu0 * mu0", "return spent2 + mu2 <= mu0 * mu0 * F(11, 10)",
      true="Claim 2 is the implication 'A mu_0-GDP => M_0 mu_0-GDP' for the same filter; a lenient filter in both "
           "makes A fail its hypothesis, not the implication (Theorem 1's boundary family refutes the filter)"),
    m("Claim 2", "constant", "the conclusion mu_0/2-GDP for mu_0-GDP", "claim_2", "claim",
      "ok, w = check_gdp(mu0, P0, P1)", "ok, w = check_gdp(mu0 / 2, P0, P1)"),
    m("Claim 2 (proof: simulating M_i by F_i(H_i))", "constant", "F_i(H_i) simulating RR with e^eps replaced by "
      "e^eps + 1", "claim_2", "_rr_parts", "def _rr_parts(w: F, mu: F):", "def _rr_parts(w: F, mu: F):\n    w = w + 1"),
]
