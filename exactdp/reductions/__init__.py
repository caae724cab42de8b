"""The #P-hardness chain of Murtagh-Vadhan Section 4, executable.

::

    #INT-PARTITION --4.9--> #PARTITION --4.10--> #T-PARTITION --4.11--> #SUM-PARTITION --1.6--> OptComp

* :mod:`.problems`: the four counting problems (Definitions 4.5-4.8) as immutable,
  validated instances with exact brute-force solvers.
* :mod:`.steps`: each reduction as a function of an instance and an oracle for
  the next problem, with the printed and the corrected form of the steps that
  fail as printed (``docs/errata.md``).
* :mod:`.chain`: the whole chain down to OptComp oracle calls answered by the
  certified engine, checked step by step against brute force.
* :mod:`.radicals`: exact sums of real radicals (the thresholds ``T``, ``z``).
* :mod:`.cli`: the ``exactdp reduce`` subcommand.

Guarantee: counts are exact (certified enclosures of width < 1 around one
integer; integer decisions made exactly).

References: Murtagh-Vadhan, "The Complexity of Computing the Optimal Composition
of Differential Privacy" (TCC 2016), Section 4, Theorem 1.6; docs/reductions.md.
"""

from .chain import ChainResult, render_trace, run_chain
from .problems import BRUTE_FORCE_MAX_K, IntPartition, LazyReal, Partition, SumPartition, TPartition, gap_value
from .radicals import RadicalSum
from .steps import (
    ReductionFailure,
    Trace,
    optcomp_oracle,
    solve_int_partition,
    solve_partition,
    solve_sum_partition,
    solve_t_partition,
)

__all__ = [
    "IntPartition",
    "Partition",
    "TPartition",
    "SumPartition",
    "LazyReal",
    "RadicalSum",
    "gap_value",
    "BRUTE_FORCE_MAX_K",
    "solve_int_partition",
    "solve_partition",
    "solve_t_partition",
    "solve_sum_partition",
    "optcomp_oracle",
    "ReductionFailure",
    "Trace",
    "run_chain",
    "ChainResult",
    "render_trace",
]
