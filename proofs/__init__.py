"""Executable checks of the numbered statements of the papers exactdp implements.

One subpackage per paper (``proofs/murtagh_vadhan/``, ...), one module per
numbered statement, each transcribing the statement (and key steps of its
proof) as printed and checking it: symbolically (sympy), exhaustively on small
exact instances (Fractions), on seeded random instances, or with certified
(Arb) arithmetic. Run them with ``exactdp proofs``; the results are written to
``docs/proofs-report.md`` and the errata to ``docs/errata.md``.

See :mod:`proofs._framework` for the result type and the status rules.
"""

from __future__ import annotations

#: Papers with a check subpackage: name -> (title, paper text file under ../shared/papers).
PAPERS = {
    "murtagh_vadhan": (
        "Murtagh, Vadhan. The Complexity of Computing the Optimal Composition of Differential Privacy (TCC 2016)",
        "murtagh-vadhan-2016-complexity-optimal-composition.txt",
    ),
}

#: Papers planned (their subpackages are added as their checks are written).
PLANNED = ("kairouz_oh_viswanath", "vadhan_wang", "vadhan_zhang", "smith_thakurta")

__all__ = ["PAPERS", "PLANNED"]
