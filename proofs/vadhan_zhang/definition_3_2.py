"""Vadhan-Zhang Definition 3.2 (continuous function between complete posets) and the remark after it.

Printed: f: A -> B is continuous if f(sup S) = sup f(S) for every set S subset A. "Every continuous
function is monotone: if a <= a' then f(a') = f(sup(a, a')) = sup(f(a), f(a')) >= f(a)."

Checked exhaustively over every pair of complete posets with at most 3 elements (4 with --full), up to
isomorphism, and every function between them: continuity (over nonempty S; sup of the empty set need not
exist under Definition 2.4) is equivalent to preserving binary sups; and (step) every continuous function
is monotone (while monotone functions need not be continuous: an example is recorded).
"""

from __future__ import annotations

import itertools

from .._framework import Proof, statement
from . import _posets as Po


def functions(A, B):
    return itertools.product(range(B[0]), repeat=A[0])


def continuous(A, B, f) -> bool:
    return all(f[Po.sup(A, S)] == Po.sup(B, [f[s] for s in S]) for S in Po.nonempty_subsets(A[0]))


def monotone(A, B, f) -> bool:
    return all(Po.le(B, f[a], f[b]) for a in range(A[0]) for b in range(A[0]) if Po.le(A, a, b))


def binary(A, B, f) -> bool:
    return all(f[Po.sup(A, (a, b))] == Po.sup(B, (f[a], f[b])) for a in range(A[0]) for b in range(A[0]))


@statement(
    "Definition 3.2",
    "For complete posets A, B, f: A -> B is continuous if f(sup(S)) = sup(f(S)) for every set S subset A.",
)
def definition(p: Proof) -> None:
    n = 0
    cps = Po.complete_posets(4 if p.full else 3)
    for A in cps:
        for B in cps:
            for f in functions(A, B):
                n += 1
                if not p.require(continuous(A, B, f) == binary(A, B, f), "continuous <=> preserves binary sups (finite)",
                                 f"A={sorted(A[1])} B={sorted(B[1])} f={f}"):
                    return
    p.instances(f"every function between complete posets with <= {4 if p.full else 3} elements (up to isomorphism)", n,
                "exhaustive")
    p.note("Quantifier (harmless): 'every set S' must mean every nonempty S, since Definition 2.4 only guarantees sups of "
           "nonempty sets.")


@statement(
    "Definition 3.2 (proof: every continuous function is monotone)",
    "If a <= a' then f(a') = f(sup(a, a')) = sup(f(a), f(a')) >= f(a).",
)
def monotone_step(p: Proof) -> None:
    n = 0
    example = None
    cps = Po.complete_posets(4 if p.full else 3)
    for A in cps:
        for B in cps:
            for f in functions(A, B):
                c = continuous(A, B, f)
                n += 1
                if not p.require(not c or monotone(A, B, f), "continuous => monotone",
                                 f"A={sorted(A[1])} B={sorted(B[1])} f={f}"):
                    return
                if example is None and monotone(A, B, f) and not c:
                    example = (sorted(A[1]), sorted(B[1]), f)
    p.instances("every function between small complete posets: continuous implies monotone", n, "exhaustive")
    if example:
        p.note(f"The converse fails: A = {example[0]}, B = {example[1]}, f = {example[2]} is monotone, not continuous.")
