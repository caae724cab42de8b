"""Murtagh-Vadhan Definition 4.5 (#INT-PARTITION)."""

from __future__ import annotations

import itertools
from math import isqrt

from .._framework import Proof, statement
from . import _partition as R


def _count_by_products(zs) -> int:
    """Second algorithm: P works iff prod_P z = sqrt(prod z); count subsets by a product table."""
    N = R.prod_int(zs)
    t = isqrt(N)
    if t * t != N:
        return 0
    table = {1: 1}
    for z in zs:
        nxt = dict(table)
        for v, c in table.items():
            if t % (v * z) == 0:
                nxt[v * z] = nxt.get(v * z, 0) + c
        table = nxt
    return table.get(t, 0)


@statement(
    "Definition 4.5",
    "#INT-PARTITION: given positive integers z_1..z_k, count the P subset [k] with prod_P z_i - prod_notP z_i = 0.",
)
def definition(p: Proof) -> None:
    n = 0
    for k in range(1, 7 if p.full else 6):
        for zs in itertools.combinations_with_replacement(range(1, 7), k):
            a = R.count_int_partition(zs)
            b = _count_by_products(zs)
            n += 1
            if not p.require(a == b and a % 2 == 0, "brute force = product-table count, and even (P <-> complement)",
                             f"Z={zs}: {a} vs {b}"):
                return
    p.instances("count over all P subset [k] = count of subsets with product sqrt(prod z) (a second algorithm); the "
                "count is even since P and its complement both qualify (all multisets of {1..6}, k <= 5)", n, "exhaustive")
    p.note("P ranges over all subsets of [k], including the empty set and [k] (ordered partitions, so each unordered "
           "split is counted twice).")
