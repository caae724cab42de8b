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
]
