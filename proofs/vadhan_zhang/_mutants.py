"""Mutants of the Vadhan-Zhang checks (issue 27; see :mod:`exactdp_proofs._mutants`)."""

from __future__ import annotations

from functools import partial

from .._mutants import mutant

m = partial(mutant, "vadhan_zhang")

MUTANTS = [
    m("Theorem 1.1", "constant", "delta(eps) of the sequential composition x 9/10", "_tradeoff", "delta_for",
      "    return d", "    return d * F(9, 10)"),
    m("Theorem 1.1", "hypothesis", "the bound of the composition at e^{eps_1} taken for e^{eps_1 + eps_2}",
      "theorem_1_1", "theorem", "dg = T.delta_for(comp, wg)\n                n_cd",
      "dg = T.delta_for(comp, wg * ws[1])\n                n_cd"),
    m("Theorem 1.3", "constant", "delta(eps) of the sequential composition x 9/10", "_tradeoff", "delta_for",
      "    return d", "    return d * F(9, 10)"),
    m("Lemma 2.1", "constant", "the largest ratio of the two replaced by the smaller one", "lemma_2_1", "lemma",
      "bound = max(Dv.max_ratio(a), Dv.max_ratio(b))", "bound = min(Dv.max_ratio(a), Dv.max_ratio(b))"),
    m("Lemma 5.4", "term", "additivity with the second factor dropped", "lemma_5_4", "lemma",
      "R.mul(R.S(U, a), R.S(V, a))", "R.S(U, a)"),
    # Theorems 1.2, 1.4, 1.5 (simulation by randomized response; f-DP)
    m("Theorem 1.2", "hypothesis", "simulated from RR_eps' with e^eps' = (1 + e^eps)/2 < e^eps", "theorem_1_2",
      "rr_views_equal", "rr = [(w / (1 + w), 1 / (1 + w)), (1 / (1 + w), w / (1 + w))]",
      "rr = [((1 + w) / (3 + w), 2 / (3 + w)), (2 / (3 + w), (1 + w) / (3 + w))]"),
    m("Theorem 1.4", "term", "f_1 (x) f_2 with f_2 dropped (ConComp claimed f_1-DP)", "_tradeoff", "tensor",
      "for f in fs]))", "for f in fs[:1]]))"),
    m("Theorem 1.5", "constant", "N for f_{eps, delta/2} where M is f_{eps,delta}-DP", "theorem_1_5", "theorem",
      "T.feps(w, T.delta_for(f, w))", "T.feps(w, T.delta_for(f, w) / 2)"),
    m("Proposition 1.7", "inequality", "f(x) < 1 - x (strict) in the characterisation", "_tradeoff", "is_tradeoff",
      "if any(y > 1 - x for x, y in f):", "if any(y >= 1 - x for x, y in f):"),
    # Lemmas 1.6 / 3.1 (coupling), 1.7 / 3.3 / Claim 3.4 (chain rule)
    m("Lemma 1.6", "hypothesis", "the independent coupling (X x Y, X' x Y') for the proof's", "_lp", "couple",
      "K0, K1 = blackwell_kernel(src, X), blackwell_kernel(src, Y)",
      "return {(i, j): (X[i][0] * Y[j][0], X[i][1] * Y[j][1]) for i in range(len(X)) for j in range(len(Y))}\n"
      "    K0, K1 = blackwell_kernel(src, X), blackwell_kernel(src, Y)"),
    m("Lemma 3.1", "hypothesis", "the independent coupling (X x Y, X' x Y') for the proof's", "_lp", "couple",
      "K0, K1 = blackwell_kernel(src, X), blackwell_kernel(src, Y)",
      "return {(i, j): (X[i][0] * Y[j][0], X[i][1] * Y[j][1]) for i in range(len(X)) for j in range(len(Y))}\n"
      "    K0, K1 = blackwell_kernel(src, X), blackwell_kernel(src, Y)"),
    m("Lemma 1.7", "hypothesis", "a conditional pair replaced by one with another trade-off function (its square)",
      "lemma_1_7", "lemma", "alt.append(p.rng.choice([T.canonical(T.tradeoff(Y)), split(Y, p.rng)]))",
      "alt.append(T.product_pairs(Y, Y))"),
    m("Lemma 3.3", "term", "(9) weighting f_x(a_x) by X(x) instead of X'(x) at alpha = 0", "_tradeoff", "chain_rule",
      "start = sum((q * f[0][1] for p, q, f in inter), ZERO)", "start = sum((p * f[0][1] for p, q, f in inter), ZERO)"),
    m("Claim 3.4", "term", "(9) weighting f_x(a_x) by X(x) instead of X'(x) at alpha = 0", "_tradeoff", "chain_rule",
      "start = sum((q * f[0][1] for p, q, f in inter), ZERO)", "start = sum((p * f[0][1] for p, q, f in inter), ZERO)"),
    # Lemmas 2.2-2.5
    m("Lemma 2.2", "term", "the max of the two D_alpha without the second", "lemma_2_2", "lemma",
      "[R.S(a, al), R.S(b, al)]), \"intended", "[R.S(a, al)]), \"intended"),
    m("Lemma 2.3", "hypothesis", "T(X_I, X'_I) >= T(X_0, X'_0) (f the first member's, not the sup)", "lemma_2_3",
      "lemma", "for f in (sup, T.envelope", "for f in (T.tradeoff(fam[0]), T.envelope"),
    m("Lemma 2.4", "term", "(4) mixing the two breakpoints with the weights exchanged", "_sup", "h_formula",
      "lam = (x2 - alpha) / (x2 - x1)", "lam = (alpha - x1) / (x2 - x1)"),
    m("Lemma 2.5", "hypothesis", "a randomized adversary does no better than deterministic adversary no. 0",
      "lemma_2_5", "lemma", "sup = G.tight_rec(tree)", "sup = T.tradeoff(views[0])"),
    # Theorems 3.2, 4.1, 4.2
    m("Theorem 3.2", "inequality", "T(P, Q) >= T(P', Q') for a post-processing (the order reversed)", "theorem_3_2",
      "theorem", "T.le(T.tradeoff(src), T.tradeoff(dst))", "T.le(T.tradeoff(dst), T.tradeoff(src))"),
    m("Theorem 4.1 (proof: Case 1 and Case 2)", "term", "Case 1's coupled pair the canonical pair of d (x) d",
      "theorem_4_1", "_walk", "src = T.canonical(d)", "src = T.canonical(T.tensor(d, d))"),
    m("Theorem 4.2", "term", "T(Y_1 x Y_2) >= d_1 (d_2 dropped)", "theorem_4_2", "theorem",
      "d = T.tensor(*[G.tight_rec(t) for t in trees])", "d = G.tight_rec(trees[0])"),
    # Section 5 (Renyi DP)
    m("Theorem 5.1", "term", "(alpha, max eps_i)-RDP for (alpha, sum eps_i)", "theorem_5_1", "theorem",
      "bound = R.mul(Rd.opt_value(trees[0], a), Rd.opt_value(trees[1], a))",
      "bound = Rd.smax([Rd.opt_value(trees[0], a), Rd.opt_value(trees[1], a)])"),
    m("Lemma 5.2", "hypothesis", "the product of any (not only optimal) adversaries is optimal", "lemma_5_2", "lemma",
      "o1, _ = Rd.optimal_strategies(trees[0], a)", "o1 = list(G.strategies(trees[0]))"),
    m("Lemma 5.3", "inequality", "the conclusion reversed (>=)", "lemma_5_3", "lemma",
      "R.cmp(R.S(joint(U, Vs), a), R.S(joint(U, Ws), a)) <= 0", "R.cmp(R.S(joint(U, Vs), a), R.S(joint(U, Ws), a)) >= 0"),
    m("Lemma 5.5", "hypothesis", "the first query q_1 is always optimal", "lemma_5_5", "lemma",
      "best = Rd.smax(vals)", "best = vals[0]"),
    m("Lemma 2.1", "term", "the max of the two D_inf without the second", "lemma_2_1", "lemma",
      "bound = max(Dv.max_ratio(a), Dv.max_ratio(b))", "bound = Dv.max_ratio(a)"),
    m("Lemma 5.4", "term", "D_alpha(U, V) = 2 D_alpha(U) (V's term replaced by U's)", "lemma_5_4", "lemma",
      "R.mul(R.S(U, a), R.S(V, a))", "R.mul(R.S(U, a), R.S(U, a))"),
]
