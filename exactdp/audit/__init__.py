"""Audits of real accountants against the certified optimum (``exactdp audit --peer NAME``).

A peer (:mod:`exactdp.audit.peers`) is run as its users run it, on a standard grid:
pure and approximate DP, homogeneous and heterogeneous compositions, k from 1 to
10^5, several delta_g (it returns eps_g) and eps_g (it returns delta_g), each knob
at its default and a tighter setting. Every answer is decided rigorously by
:func:`exactdp.testing.decide` against the exact composition the peer was given:
sound, unsound (below the optimum: a privacy violation, with the margin and an
exact reproduction), or undecided. The relative error and the peer's time are kept.

Audits are long: a state file makes them resumable, and they run on Dask
(:mod:`exactdp.jobs`). ``grid="quick"`` is a small grid for tests.
"""

from .run import (  # noqa: F401 (the package's public names)
    AUDIT_VERSION,
    GRIDS,
    audit_case,
    audit_grid,
    markdown,
    run_audit,
    summarize,
)

__all__ = ["audit_grid", "run_audit", "summarize", "markdown", "audit_case", "GRIDS", "AUDIT_VERSION"]
