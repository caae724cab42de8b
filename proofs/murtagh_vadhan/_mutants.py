"""Mutants of the Murtagh-Vadhan checks (issue 27; see :mod:`exactdp_proofs._mutants`)."""

from __future__ import annotations

from functools import partial

from .._mutants import mutant

m = partial(mutant, "murtagh_vadhan")

MUTANTS = [
    m("Theorem 1.2", "constant", "k delta -> (k - 1/2) delta", "theorem_1_2", "theorem",
      "v <= k * d and", "v <= (k - F(1, 2)) * d and"),
    m("Theorem 1.2", "term", "the heterogeneous bound sum delta_i without its last term", "theorem_1_2", "theorem",
      "C.delta_formula(ws, ds, C.prod(ws)) <= sum(ds)", "C.delta_formula(ws, ds, C.prod(ws)) <= sum(ds[:-1])"),
    m("Theorem 1.3", "term", "delta_g = k delta + delta' without k delta", "theorem_1_3", "theorem",
      "bound = k * delta + dp", "bound = dp"),
    m("Theorem 1.3", "term", "eps_g without k eps (e^eps - 1)", "theorem_1_3", "_eps_g_ball",
      "return (2 * k * ld).sqrt() * e + k * e * (e.exp() - 1)", "return (2 * k * ld).sqrt() * e"),
    m("Theorem 1.3", "constant", "eps_g with sqrt(k log(1/delta')) for sqrt(2k log(1/delta'))", "theorem_1_3",
      "_eps_g_ball", "return (2 * k * ld).sqrt()", "return (k * ld).sqrt()"),
    m("Theorem 1.5", "term", "(1) without 1 - prod(1 - delta_i)", "_common", "delta_formula",
      "return 1 - P + P * S_brute(ws, t) / Z", "return P * S_brute(ws, t) / Z"),
    m("Theorem 1.5", "constant", "(1) with prod(1 + e^eps_i) squared", "_common", "delta_formula",
      "return 1 - P + P * S_brute(ws, t) / Z", "return 1 - P + P * S_brute(ws, t) / (Z * Z)"),
    m("Theorem 1.5", "inequality", "S(t) summing max(W_S - t W_notS, 0) over the sets with W_S < t W_notS",
      "_common", "S_brute", "total = F(0)", "total = F(0)\n    t = -t"),
    m("Theorem 3.4", "inequality", "hockey-stick >= delta_g(eps_g) (direction flipped)", "theorem_3_4", "theorem",
      "C.hockey(V0, V1, t) <= C.delta_formula(ws, ds, t)", "C.hockey(V0, V1, t) >= C.delta_formula(ws, ds, t)"),
    m("Theorem 3.4", "term", "delta_g(eps_g) without 1 - prod(1 - delta_i)", "_common", "delta_formula",
      "return 1 - P + P * S_brute(ws, t) / Z", "return P * S_brute(ws, t) / Z"),
    m("Lemma 3.3", "inequality", "hockey(M) >= hockey(M~) (direction flipped)", "lemma_3_3", "lemma",
      "C.hockey(M0, M1, t) <= C.hockey(R0, R1, t)", "C.hockey(M0, M1, t) >= C.hockey(R0, R1, t)"),
    m("Fact 2.2", "inequality", "post-processing strictly decreases D_inf^delta", "fact_2_2", "fact",
      "after <= before", "after < before"),
    m("Lemma 5.3 (proof: the term-by-term inequality)", "constant", "e^{kc} -> e^{(k-1)c}", "lemma_5_3", "termwise",
      "lhs <= Uc ** k * S", "lhs <= Uc ** (k - 1) * S"),
    m("Lemma 5.2", "constant", "B <= sum a_i / 2 -> sum a_i / 4", "lemma_5_2", "lemma",
      "B <= sum(a) // 2", "B <= sum(a) // 4"),
    m("Lemma 4.10", "constant", "prod W' = (prod W)^3", "lemma_4_10", "lemma",
      "R.prod_int(ns2) == R.prod_int(ns) ** 2", "R.prod_int(ns2) == R.prod_int(ns) ** 3"),
    m("Lemma 4.10", "term", "T = N^(3/2D) without - N^(1/2D)", "_partition", "lemma410_T",
      "[(F(1), N ** 3), (F(-1), N)]", "[(F(1), N ** 3)]"),
    m("Theorem 1.2", "hypothesis", "the bound claimed at e^{(k-1) eps} instead of e^{k eps}", "theorem_1_2", "theorem",
      "C.hockey(P0, P1, t) <= k * d", "C.hockey(P0, P1, t / w) <= k * d"),
]
