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
    m("Theorem 1.3", "constant", "delta(eps) of the sequential composition x 9/10", "theorem_1_3", "theorem",
      "if not p.require(worst <= dg,", "if not p.require(worst <= dg * F(9, 10),"),
    m("Lemma 2.1", "constant", "the largest ratio of the two replaced by the smaller one", "lemma_2_1", "lemma",
      "bound = max(Dv.max_ratio(a), Dv.max_ratio(b))", "bound = min(Dv.max_ratio(a), Dv.max_ratio(b))"),
    m("Lemma 5.4", "term", "additivity with the second factor dropped", "lemma_5_4", "lemma",
      "R.mul(R.S(U, a), R.S(V, a))", "R.S(U, a)"),
]
