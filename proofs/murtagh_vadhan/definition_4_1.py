"""Murtagh-Vadhan Definition 4.1 (#P)."""

from __future__ import annotations

import itertools

from .._framework import Proof, statement
from . import _partition as R


@statement(
    "Definition 4.1",
    "f: {0,1}* -> N is in #P if there are a polynomial p and a polynomial-time M with f(x) = |{y in {0,1}^p(|x|) : M(x,y) = 1}|.",
)
def definition(p: Proof) -> None:
    p.not_checkable("a definition of a complexity class (quantifies over all polynomial-time machines)")
    n = 0
    for k in range(1, 5):
        for zs in itertools.combinations_with_replacement(range(1, 6), k):
            # #INT-PARTITION in the witness form: y in {0,1}^k encodes P, M(x, y) compares two products
            witnesses = sum(1 for y in itertools.product((0, 1), repeat=k)
                            if R.prod_int(z for z, b in zip(zs, y) if b) == R.prod_int(z for z, b in zip(zs, y) if not b))
            n += 1
            if not p.require(witnesses == R.count_int_partition(zs), "witness form", f"Z={zs}"):
                return
    p.instances("illustration: #INT-PARTITION written as |{y in {0,1}^k : M(Z, y) = 1}| equals Definition 4.5's count", n,
                "exhaustive")
