"""Executable checks of the numbered statements of the papers exactdp implements.

One subpackage per paper (``proofs/murtagh_vadhan/``, ...), one module per
numbered statement, each transcribing the statement (and key steps of its
proof) as printed and checking it: symbolically (sympy), exhaustively on small
exact instances (Fractions), on seeded random instances, or with certified
(Arb) arithmetic. Run them with ``exactdp proofs``; the results are written to
``docs/proofs-report.md`` and the errata to ``docs/errata.md``.

See :mod:`exactdp_proofs._framework` for the result type and the status rules.
"""

from __future__ import annotations

from ._papers import PAPERS, PLANNED

__all__ = ["PAPERS", "PLANNED"]
