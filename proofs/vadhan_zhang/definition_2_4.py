"""Vadhan-Zhang Definition 2.4 (complete poset) and the remark that sup(S) is unique.

Printed: (D, <=) is complete if every nonempty subset S has a supremum sup(S) (an upper bound below
every upper bound); "sup(S) is always unique".

Checked exhaustively on every partial order with at most 4 elements (up to isomorphism): every
nonempty subset has at most one least upper bound; and completeness as defined is
what the checks of Definitions 3.2 and 3.3 use (the complete ones are listed).
"""

from __future__ import annotations

from .._framework import Proof, statement
from . import _posets as Po


@statement(
    "Definition 2.4",
    "A poset is complete if every nonempty subset S has a supremum sup(S): s <= sup(S) for s in S and sup(S) <= t for "
    "every upper bound t; sup(S) is always unique.",
)
def definition(p: Proof) -> None:
    n = 0
    complete = 0
    for size in range(1, 5):
        for P in Po.posets(size):
            for S in Po.nonempty_subsets(size):
                n += 1
                if not p.require(len(Po.sups(P, S)) <= 1, "a least upper bound is unique", f"poset={sorted(P[1])} S={S}"):
                    return
            complete += Po.is_complete(P)
    p.instances("every poset with <= 4 elements (up to isomorphism) and every nonempty subset: at most one supremum", n,
                "exhaustive")
    p.note(f"{complete} of these posets are complete in the sense of the definition.")
