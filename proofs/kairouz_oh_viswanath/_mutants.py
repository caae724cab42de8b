"""Mutants of the Kairouz-Oh-Viswanath checks (issue 27; see :mod:`exactdp_proofs._mutants`).

Each is a false variant of a transcription that the entry's own check must refute with
the exactdp cross-checks off.
"""

from __future__ import annotations

from functools import partial

from .._mutants import mutant

m = partial(mutant, "kairouz_oh_viswanath")

MUTANTS = [
    # Theorem 2.1: the conditions characterise (eps, delta)-DP
    m("Theorem 2.1", "hypothesis", "only the first of the two conditions", "theorem_2_1", "conditions",
      "if fa + w * md < 1 - d or w * fa + md < 1 - d:", "if fa + w * md < 1 - d:"),
    m("Theorem 2.1", "constant", "1 - delta replaced by 1 - 2 delta in the first condition", "theorem_2_1",
      "conditions", "if fa + w * md < 1 - d or", "if fa + w * md < 1 - 2 * d or"),
    m("Theorem 2.1", "inequality", "the conditions' strictness flipped (<= for <)", "theorem_2_1", "conditions",
      "w * fa + md < 1 - d:", "w * fa + md <= 1 - d:"),
    # Theorem 3.1: k-fold composition is (k eps, k delta)-DP
    m("Theorem 3.1", "constant", "k delta replaced by (k - 1/2) delta", "theorem_3_1", "theorem",
      "worst <= k * d,", "worst <= (k - F(1, 2)) * d,"),
    m("Theorem 3.1", "constant", "2 delta replaced by 3/2 delta at k = 2", "theorem_3_1", "theorem",
      "h <= 2 * d,", "h <= F(3, 2) * d,"),
    # Theorem 3.2 (Dwork-Rothblum-Vadhan)
    m("Theorem 3.2", "term", "the linear term k eps (e^eps - 1) dropped", "_bounds", "drv_eps",
      "return k * x * (x.exp() - 1) + x *", "return x *"),
    m("Theorem 3.2", "constant", "the 2 under the root dropped", "_bounds", "drv_eps",
      "(2 * k * (1 / A(dprime)).log())", "(k * (1 / A(dprime)).log())"),
    # Theorem 3.4
    m("Theorem 3.4", "constant", "the 2 under the second root dropped", "_bounds", "kov34_terms",
      "mean + x * (2 * k * (1 / A(dt)).log()).sqrt()", "mean + x * (k * (1 / A(dt)).log()).sqrt()"),
    m("Theorem 3.4", "constant", "the 2 under the first root dropped", "_bounds", "kov34_terms",
      "mean + x * (2 * k * (e()", "mean + x * (k * (e()"),
    m("Theorem 3.4", "term", "k eps replaced by (k - 1) eps", "_bounds", "kov34_terms",
      "return [k * x,", "return [(k - 1) * x,"),
    m("Theorem 3.4", "term", "the mean term (e^eps - 1) eps k/(e^eps + 1) halved", "_bounds", "kov34_terms",
      "mean = (x.exp() - 1) * x * k / (x.exp() + 1)", "mean = (x.exp() - 1) * x * k / (x.exp() + 1) / 2"),
    # Theorem 3.5 (heterogeneous): issue 27's first surviving mutant
    m("Theorem 3.5", "constant", "the 2 under the first root dropped", "_bounds", "kov35_terms",
      "mean + (2 * s2 * (e()", "mean + (s2 * (e()"),
    m("Theorem 3.5", "constant", "the 2 under the second root dropped", "_bounds", "kov35_terms",
      "mean + (2 * s2 * (1 / A(dt)).log()).sqrt()", "mean + (s2 * (1 / A(dt)).log()).sqrt()"),
    m("Theorem 3.5", "term", "the mean term dropped", "_bounds", "kov35_terms",
      "mean = sum((c * (A(x).exp() - 1) * A(x) / (A(x).exp() + 1) for x, c in groups), arb(0))",
      "mean = arb(0)"),
    m("Theorem 3.5", "term", "sum eps_l replaced by the sum without the largest group", "_bounds", "kov35_terms",
      "s1 = sum((c * A(x) for x, c in groups), arb(0))",
      "s1 = sum((c * A(x) for x, c in groups[:-1]), arb(0)) if len(groups) > 1 else arb(0)"),
    # Theorem 4.3 (refuted as printed): issue 27's second surviving mutant, and false corrections
    m("Theorem 4.3", "constant", "the printed variance constant 8 -> 16 (still false, from eps ~ 190)",
      "theorem_4_3", "mu_printed", "(8 * (B.e()", "(16 * (B.e()"),
    m("Theorem 4.3", "constant", "the printed variance constant 8 -> 64 (still false, at larger eps)",
      "theorem_4_3", "mu_printed", "(8 * (B.e()", "(64 * (B.e()"),
    m("Theorem 4.3", "constant", "corrected variance 2k Delta^2/eps -> k Delta^2/(2 eps)", "theorem_4_3",
      "mu_corrected", "m2b = eps / 2", "m2b = 2 * eps", part="correction"),
    m("Theorem 4.3", "constant", "corrected variance 8k Delta^2 L/eps^2 -> 2k Delta^2 L/eps^2", "theorem_4_3",
      "mu_corrected", "m2a = eps * eps / (8 *", "m2a = eps * eps / (2 *", part="correction"),
    m("Theorem 4.3", "term", "corrected variance without its second term 2k Delta^2/eps", "theorem_4_3",
      "mu_corrected", "return B.ball_min(m2a, m2b).sqrt()", "return m2a.sqrt()", part="correction"),
    # Corollary 2.3 and its total-variation step
    m("Corollary 2.3", "inequality", "R(eps, delta)'s first half-plane made strict", "_common", "in_R",
      "fa + w * md >= one and", "fa + w * md > one and"),
    m("Corollary 2.3 (proof: Appendix A, total variation <= delta + (1-delta)(e^eps-1)/(e^eps+1))", "constant",
      "TV bound with e^eps + 2 for e^eps + 1", "corollary_2_3", "tv_step",
      "bound = d_ + (1 - d_) * (w_ - 1) / (w_ + 1)", "bound = d_ + (1 - d_) * (w_ - 1) / (w_ + 2)"),
    # Theorems 2.4 and 2.5: post-processing and the converse
    m("Theorem 2.4", "inequality", "R(M) subset R(M') (the inclusion reversed)", "theorem_2_4", "theorem",
      "out = C.region_contains(C.all_points(p0, p1), C.all_points(q0, q1))",
      "out = C.region_contains(C.all_points(q0, q1), C.all_points(p0, p1))"),
    m("Theorem 2.5", "inequality", "the regions' nesting reversed", "theorem_2_5", "nested",
      "C.region_contains(C.all_points(p0, p1), C.all_points(q0, q1))",
      "C.region_contains(C.all_points(q0, q1), C.all_points(p0, p1))"),
    # Theorem 3.3 (optimal composition) and Theorem 4.4 (its delta = 0 form)
    m("Theorem 3.3", "term", "(6) with e^{(k-2i-l) eps} for e^{(k-2i+l) eps}", "_common", "delta_i_printed",
      "w ** (k - 2 * i + l)", "w ** (k - 2 * i - l)"),
    m("Theorem 3.3", "constant", "1 - (1-delta)^(k-1) (1 - delta_i)", "_common", "theorem33_pairs",
      "1 - (1 - delta) ** k * (1 - delta_i_printed(k, w, i))", "1 - (1 - delta) ** (k - 1) * (1 - delta_i_printed(k, w, i))"),
    m("Theorem 3.3", "constant", "(k - 2i + 1) eps for (k - 2i) eps", "_common", "theorem33_pairs",
      "[(w ** (k - 2 * i),", "[(w ** (k - 2 * i - 1),"),
    m("Theorem 4.4", "constant", "(k - 2i + 1) eps for (k - 2i) eps", "_common", "theorem33_pairs",
      "[(w ** (k - 2 * i),", "[(w ** (k - 2 * i - 1),"),
    m("Theorem 4.4", "term", "(6) with e^{(k-2i-l) eps} for e^{(k-2i+l) eps}", "_common", "delta_i_printed",
      "w ** (k - 2 * i + l)", "w ** (k - 2 * i - l)"),
    # Corollary 4.1 and Theorem 4.2
    m("Corollary 4.1", "constant", "eps_0 = sqrt(eps^2/(k log(e + eps/delta))) (4k -> k)", "_bounds", "cor41_eps0",
      "(x * x / (4 * k *", "(x * x / (k *"),
    m("Corollary 4.1", "constant", "per-query delta/k for delta/2k", "corollary_4_1", "target",
      "A(1 - delta / (2 * k))", "A(1 - delta / k)"),
    m("Theorem 4.2", "constant", "Laplace's eps_0 with k for 4k (variance 2k Delta^2 L/eps^2)", "_bounds",
      "cor41_eps0", "(x * x / (4 * k *", "(x * x / (k *"),
    m("Theorem 4.2", "term", "eps_0 without the log(e + eps/delta)", "_bounds", "cor41_eps0",
      "(x * x / (4 * k * (e() + x / A(delta)).log())).sqrt()", "(x * x / (4 * k)).sqrt()"),
    # Theorem 5.1 (refuted as printed): a false correction
    m("Theorem 5.1", "term", "the randomized responses (24) without their delta part", "_mpc", "rr_trans",
      "mech = [C.kov(w, d) for w, d in zip(ws, ds)]", "mech = [C.kov(w, 0) for w, d in zip(ws, ds)]",
      part="correction"),
    m("Theorem 2.4", "constant", "post-processing makes (eps, 0)-DP (ln((1 + e^eps)/2), 0)-DP", "theorem_2_4", "theorem",
      "C.dp_all_sets(q0, q1, w, F(0)), \"(eps,0)-DP is preserved (eps the",
      "C.dp_all_sets(q0, q1, (1 + w) / 2, F(0)), \"(eps,0)-DP is preserved (eps the"),
]
