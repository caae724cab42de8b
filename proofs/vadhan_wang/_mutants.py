"""Mutants of the Vadhan-Wang checks (issue 27; see :mod:`exactdp_proofs._mutants`)."""

from __future__ import annotations

from functools import partial

from .._mutants import mutant

m = partial(mutant, "vadhan_wang")

MUTANTS = [
    # Theorem 1.4: issue 27's third surviving mutant (x 3/4), and its relatives
    m("Theorem 1.4", "constant", "the general delta_g x 3/4", "theorem_1_4", "printed_delta_g",
      "return sum((D.prod(ws[:i]) * ds[i] for i in range(len(ws))), F(0))",
      "return F(3, 4) * sum((D.prod(ws[:i]) * ds[i] for i in range(len(ws))), F(0))"),
    m("Theorem 1.4", "constant", "the homogeneous delta x 3/4", "theorem_1_4", "printed_homogeneous",
      "return (w ** k - 1) / (w - 1) * d", "return F(3, 4) * (w ** k - 1) / (w - 1) * d"),
    m("Theorem 1.4", "constant", "the homogeneous delta x 99/100", "theorem_1_4", "printed_homogeneous",
      "return (w ** k - 1) / (w - 1) * d", "return F(99, 100) * (w ** k - 1) / (w - 1) * d"),
    m("Theorem 1.4", "term", "delta_g without the factor e^{sum_{j<i} eps_j}", "theorem_1_4", "printed_delta_g",
      "D.prod(ws[:i]) * ds[i]", "ds[i]",
      true="(sum eps_i, sum delta_i) holds for concurrent composition too: concurrent composition of approximate "
           "DP is as good as sequential (Vadhan-Zhang 2023, Theorem 1.3; also Lyu 2022), and sequential composition "
           "gives (sum eps_i, sum delta_i)"),
    m("Theorem 1.4", "term", "the homogeneous delta with k - 1 terms", "theorem_1_4", "printed_homogeneous",
      "return (w ** k - 1) / (w - 1) * d", "return (w ** (k - 1) - 1) / (w - 1) * d"),
    # Theorem 1.1 (basic composition)
    m("Theorem 1.1", "constant", "k delta -> (k - 1/2) delta (random pairs)", "theorem_1_1", "theorem",
      "if not p.require(got <= k * delta,", "if not p.require(got <= (k - F(1, 2)) * delta,"),
    m("Theorem 1.1", "constant", "k delta -> (k - 1/2) delta (the worst case)", "theorem_1_1", "theorem",
      "if worst > k * delta:", "if worst > (k - F(1, 2)) * delta:"),
    # Theorem 1.2 (advanced composition, an O(.) statement)
    m("Theorem 1.2", "term", "O(sqrt(log(1/delta')) eps) without the k", "theorem_1_2", "theorem",
      "C_const() * (k * (1 / R.A(dp)).log()).sqrt()", "C_const() * ((1 / R.A(dp)).log()).sqrt()"),
    # Theorem 1.3 (optimal composition) and what is built on it
    m("Theorem 1.3", "constant", "1 - (1 - delta_g) prod(1 - delta_i) (divided by the product where it multiplies)",
      "_dp", "thm13_rhs", "/ prod(1 - F(d) for d in deltas)", "* prod(1 - F(d) for d in deltas)"),
    m("Theorem 1.3", "term", "the left side without its normalisation 1/prod(1 + e^eps_i)", "_dp", "thm13_lhs",
      "return S_sum(ws, t) / prod(1 + w for w in ws)", "return S_sum(ws, t) / prod(1 + w for w in ws[1:])"),
    m("Theorem 1.3", "inequality", "S summing max(t W_notS - W_S, 0) (the difference reversed)", "_dp", "S_sum",
      "total += max(a - t * b, F(0))", "total += max(t * b - a, F(0)) if mask else max(a - t * b, F(0))"),
    m("Corollary 1", "constant", "Advanced: sqrt(k ln(1/delta')) for sqrt(2k ln(1/delta'))", "corollary_1",
      "advanced_eps", "(2 * k * (1 / R.A(dp)).log())", "(k * (1 / R.A(dp)).log())"),
    m("Corollary 1", "term", "Optimal: the left side halved", "_dp", "thm13_lhs",
      "return S_sum(ws, t) / prod(1 + w for w in ws)", "return S_sum(ws, t) / prod(1 + w for w in ws) / 2"),
    m("Theorem 5.3", "term", "the bound's left side halved", "_dp", "thm13_lhs",
      "return S_sum(ws, t) / prod(1 + w for w in ws)", "return S_sum(ws, t) / prod(1 + w for w in ws) / 2"),
    m("Theorem 5.3", "term", "delta_g without 1 - prod(1 - delta_i)", "theorem_5_3", "formula_delta",
      "return lambda t: 1 - D.prod(1 - d for d in ds) * (1 - D.thm13_lhs(ws, t))",
      "return lambda t: D.thm13_lhs(ws, t)"),
    m("Theorem 5.4", "term", "the least eps_g of a left side halved", "_dp", "thm13_lhs",
      "return S_sum(ws, t) / prod(1 + w for w in ws)", "return S_sum(ws, t) / prod(1 + w for w in ws) / 2"),
    # Lemmas 1-4
    m("Lemma 1", "inequality", "a randomized adversary needs at least the deterministic delta (flipped)", "lemma_1",
      "lemma", "if not p.require(got <= best,", "if not p.require(got >= best,"),
    m("Lemma 2", "inequality", "ConComp needs at least the ordered composition's delta (flipped)", "lemma_2", "lemma",
      "free = I.cc_hockey(mechs, a, b, w)", "free = I.cc_hockey(mechs, a, b, w) * 2"),
    m("Lemma 3", "constant", "X ~(eps_1 + eps_2 - ln(10/9), 0) Z", "lemma_3", "lemma",
      "D.dp_delta(X, Z, w1 * w2) == 0", "D.dp_delta(X, Z, w1 * w2 * 9 / 10) == 0"),
    m("Lemma 4", "inequality", "post-processing increases delta (flipped)", "lemma_4", "lemma",
      "D.dp_delta(FP, FQ, w) <= D.dp_delta(P, Q, w)", "D.dp_delta(FP, FQ, w) >= D.dp_delta(P, Q, w)"),
    # Lemma 5 (refuted as printed): a false correction
    m("Lemma 5", "constant", "the corrected PrivLoss of Comp(RR) at 2 delta_g", "lemma_5", "rr_privloss_t",
      "return D.hockey_least_t(P, Q, dg)", "return D.hockey_least_t(P, Q, 2 * dg)", part="correction"),
    # Theorems 1.5, 3.1, 4.1, 5.1, 5.2
    m("Theorem 1.5", "hypothesis", "M simulated from RR_eps' with e^eps' = (1 + e^eps)/2 < e^eps", "theorem_1_5",
      "theorem", "for m, w in instances(p):", "for m, w in ((m, (1 + w) / 2) for m, w in instances(p)):"),
    m("Theorem 3.1", "term", "(sum eps_i without eps_0, 0)-DP", "theorem_3_1", "theorem",
      "t = D.prod(ws)", "t = D.prod(ws[1:])"),
    m("Theorem 4.1", "term", "min_sigma delta_g without delta_{sigma(0)}", "theorem_4_1", "printed_min_delta",
      "v = ds[s[0]] + sum(", "v = sum("),
    m("Theorem 5.1", "hypothesis", "an (eps, delta)-DP M simulated from RR_(eps, delta/2)", "theorem_5_1", "theorem",
      "for ww, dd in ((w, d), (w, (d + 1) / 2), (w * 2, d)):", "for ww, dd in ((w, d / 2), (w, (d + 1) / 2), (w * 2, d)):"),
    m("Theorem 5.2 (proof: Section 6 experiment, RR_(eps,delta) simulates 2-round 1-bit mechanisms)", "hypothesis",
      "simulated from RR_(eps, delta/2)", "theorem_5_2", "section6",
      "T, opt = S.section6_lp(m, t, d)", "d = d / 2\n        T, opt = S.section6_lp(m, t, d)"),
    m("Lemma 3", "term", "X ~(max(eps_1, eps_2), 0) Z (one of the two eps dropped)", "lemma_3", "lemma",
      "D.dp_delta(X, Z, w1 * w2) == 0", "D.dp_delta(X, Z, max(w1, w2)) == 0"),
    m("Lemma 4", "constant", "F o M is (ln((1 + e^eps)/2), delta)-DP", "lemma_4", "lemma",
      "D.dp_delta(FP, FQ, w) <= D.dp_delta(P, Q, w)", "D.dp_delta(FP, FQ, (1 + w) / 2) <= D.dp_delta(P, Q, w)"),
]
