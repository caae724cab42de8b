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
    m("Theorem 1.4", "constant", "the corrected e^OptComp 1 % too large", "theorem_1_4", "corrected_t",
      "return max(F(1), num / den)", "return max(F(1), num / den) * F(101, 100)", part="correction"),
    m("Theorem 1.4", "term", "the corrected interpolation without the l = i term", "theorem_1_4", "corrected_t",
      "num = sum((comb(k, l) * w ** (k - l) for l in range(i + 1)), F(0))",
      "num = sum((comb(k, l) * w ** (k - l) for l in range(i)), F(0))", part="correction"),
    m("Theorem 1.6 (proof: delta_g * prod(1 + e^eps_i) = #SUM-PARTITION)", "term",
      "delta_g * prod e^eps_i (the 1 + dropped)", "theorem_1_6", "identity",
      "d * C.prod(1 + w for w in ws) == C.S_brute(ws, rq)", "d * C.prod(w for w in ws) == C.S_brute(ws, rq)"),
    m("Theorem 1.7", "constant", "the guarantee's + eta halved", "theorem_1_7", "outputs",
      "upper = None if ub is None else ub * q ** k", "upper = None if ub is None else ub * s ** k"),
    m("Theorem 1.7", "constant", "the lower end at delta_g/2", "theorem_1_7", "outputs",
      "lower = _opt(ws, ds, dg)", "lower = _opt(ws, ds, dg / 2)"),
    m("Lemma 3.2", "hypothesis", "M~_(eps, delta/2) simulates every (eps, delta)-DP M", "lemma_3_2", "lemma",
      "T = C.simulator(p0, p1, w, d)\n            q0, q1 = C.rr(w, d)",
      "T = C.simulator(p0, p1, w, d / 2)\n            q0, q1 = C.rr(w, d / 2)"),
    m("Lemma 4.9", "constant", "prod w_i <= c/2", "lemma_4_9", "_valid",
      "R.prod_int(zs) <= c ** D", "R.prod_int(zs) <= (c / 2) ** D"),
    m("Lemma 4.11 (proof: discreteness of gap values, z' from j' = floor(j+1))", "term",
      "the gap g(j) = j^(1/D) - W/j^(1/D) with W/(j+1)", "_partition", "g_of_j",
      "Rad.root(F(N, j), D)", "Rad.root(F(N, j + 1), D)"),
    m("Lemma 5.1", "inequality", "the recursion's a_r <= s made strict", "lemma_5_1", "knapsack_sum",
      "if a[r - 1] <= s:", "if a[r - 1] < s:"),
    m("Fact 2.2", "constant", "post-processing at least halves D_inf^delta", "fact_2_2", "fact",
      "after <= before", "after <= before / 2"),
]

#: Statements with no mutant, and why.
UNMUTATED = {
    "Lemma 4.4": "not checkable (a complexity statement whose proof is not in our copy): nothing to mutate",
}
