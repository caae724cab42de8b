"""Murtagh-Vadhan Lemma 4.9 (#PARTITION is #P-hard, even with prod w_i <= c).

Printed proof: given #INT-PARTITION {z_1..z_k}, set D = ceil(log_c prod z_i) and
w_i = z_i^(1/D); then prod w_i <= c and prod_P w = prod_notP w <=> prod_P z = prod_notP z.

The equivalence is checked (and holds); the choice of D is refuted on two
counts: D = 0 when prod z_i = 1 (no 0-th root; Definition 4.6 needs a positive
integer D), and for c > e a w_i can exceed e (Definition 4.6 needs 1 <= w_i <= e).
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

from .._framework import Proof, statement
from . import _partition as R

C_VALUES = (F(3, 2), F(2), F(3), F(10))


def _zsets(p: Proof):
    vals = range(1, 7 if p.full else 6)
    out = []
    for k in range(1, 5 if p.full else 4):
        out.extend(itertools.combinations_with_replacement(vals, k))
    return [list(z) for z in out]


def _valid(D: int, zs, c: F) -> bool:
    """Definition 4.6's constraints on the produced instance, plus prod w_i <= c."""
    return D >= 1 and all(z >= 1 and R.within_e(z, D) for z in zs) and R.prod_int(zs) <= c ** D


@statement(
    "Lemma 4.9",
    "For every constant c > 1, #PARTITION is #P-hard, even on instances where prod_i w_i <= c.",
    library=("exactdp.reductions.solve_int_partition",),
)
def lemma(p: Proof) -> None:
    from exactdp.reductions import IntPartition, solve_int_partition
    n = 0
    for zs in _zsets(p):
        truth = R.count_int_partition(zs)
        for c in C_VALUES:
            D = R.lemma49_corrected_D(zs, c)
            n += 1
            if not p.require(_valid(D, zs, c) and R.count_partition(D, zs) == truth,
                             "valid #PARTITION instance with the same count", f"Z={zs} c={c} D={D}"):
                return
            if c <= 2:  # exactdp's step takes a constant in (1, e]
                # exactdp's Lemma 4.9 step, its one oracle call answered by the independent count of the instance it built
                got = p.library("exactdp.reductions.solve_int_partition", solve_int_partition, IntPartition(zs),
                                lambda W: R.count_partition(W.D, list(W.n)), c=c)
                p.agree(got, truth, "exactdp.reductions.solve_int_partition", f"Z={zs} c={c}")
    p.instances("#INT-PARTITION(Z) = #PARTITION(D, {z_i^(1/D)}) (equality of products of D-th roots decided exactly, "
                "independently of raising to the D-th power), instance valid (D >= 1, 1 <= w_i <= e, prod w_i <= c); "
                f"all multisets Z with k <= 3 (4 with --full), z_i <= 5, c in {[str(c) for c in C_VALUES]}, D as corrected; "
                "exactdp's solve_int_partition (c <= 2) returns the same count from the instance it builds",
                n, "exhaustive")
    p.note("Hardness of #INT-PARTITION is Ehrgott's result, taken as given; the reduction is one oracle call.")


@statement(
    "Lemma 4.9 (proof: the choice of D)",
    "Set D = ceil(log_c(prod_i z_i)) and w_i = z_i^(1/D); then prod_i w_i <= c [and the w_i form a #PARTITION instance: "
    "D a positive integer, 1 <= w_i <= e].",
)
def choice_of_D(p: Proof) -> None:
    n_equiv = 0
    for zs in _zsets(p):
        for c in C_VALUES:
            D = R.lemma49_printed_D(zs, c)
            if D >= 1:
                n_equiv += 1
                if not p.require(R.count_partition(D, zs) == R.count_int_partition(zs) and R.prod_int(zs) <= c ** D,
                                 "equivalence and prod w_i <= c when D >= 1", f"Z={zs} c={c}"):
                    return
    p.instances("where the printed D is >= 1: prod w_i <= c and the partition counts agree", n_equiv, "exhaustive")
    D1 = R.lemma49_printed_D([1], F(2))
    D2 = R.lemma49_printed_D([3], F(3))
    bad_range = not R.within_e(3, D2)
    if D1 == 0 or bad_range:
        p.refute(
            "D = ceil(log_c prod z_i) gives a valid #PARTITION instance",
            f"(a) Z = {{1}} (any c > 1): D = ceil(log_c 1) = {D1}, and w_1 = 1^(1/0) is undefined (Definition 4.6 needs "
            f"D in N, positive); (b) c = 3, Z = {{3}}: D = ceil(log_3 3) = {D2}, w_1 = 3 > e, outside Definition 4.6's "
            "range 1 <= w_i <= e (any c > e fails the same way).",
        )

    def corr(q: Proof) -> None:
        m = 0
        for zs in _zsets(q):
            for c in C_VALUES + (F(100),):
                D = R.lemma49_corrected_D(zs, c)
                m += 1
                if not q.require(_valid(D, zs, c) and R.count_partition(D, zs) == R.count_int_partition(zs),
                                 "corrected D gives a valid instance with the same count", f"Z={zs} c={c} D={D}"):
                    return
        q.instances("D >= 1, 1 <= z_i^(1/D) <= e (certified comparison with e^D), prod w_i <= c, counts preserved", m,
                    "exhaustive")
        q.note("D stays polynomial: D <= 1 + log(prod z_i)/log(c').")

    p.correct(
        "Set D = max(1, ceil(log_{c'} prod_i z_i)) for a rational c' with 1 < c' <= min(c, e), e.g. c' = min(c, 2); "
        "then D is a positive integer, prod w_i <= c' <= c, and every w_i <= prod w_i <= e. (For an all-ones Z the "
        "count is simply 2^k.)",
        corr,
    )
