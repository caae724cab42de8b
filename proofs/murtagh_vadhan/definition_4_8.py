"""Murtagh-Vadhan Definition 4.8 (#SUM-PARTITION)."""

from __future__ import annotations

from fractions import Fraction as F

from exactdp._backend import arb, fmpq, fmpz, workprec

from .._framework import Proof, statement
from . import _common as C
from . import _partition as R
from .theorem_1_6 import cross_check_certified, rr_hockey_ball


@statement(
    "Definition 4.8",
    "#SUM-PARTITION: given D, w_1..w_k (D-th roots of positive integers in [1, e]) and a real r > 1, find "
    "sum_{P subset [k]} max(prod_P w_i - r prod_notP w_i, 0).",
    library=('exactdp.composed_delta',),
)
def definition(p: Proof) -> None:
    from exactdp import Mechanism, composed_delta

    n_exact = n_cert = 0
    for _ in range(60 if p.full else 25):
        k = p.rng.randint(1, 5)
        ns = [p.rng.randint(1, 6) for _ in range(k)]
        r = 1 + F(p.rng.randint(1, 30), p.rng.randint(1, 6))
        # D = 1, exact: the literal sum against Z times the hockey-stick of Definition 3.1's product (delta_i = 0),
        # the quantity an OptComp oracle answers (the link Theorem 1.6 uses)
        own = C.S_brute([F(x) for x in ns], r)
        P0, P1 = C.product_dist([C.rr(F(x), F(0)) for x in ns])
        Z = C.prod(1 + F(x) for x in ns)
        hs = C.hockey(P0, P1, r)
        n_exact += 1
        if not p.require(own == hs * Z and own >= 0, "SUM-PARTITION = prod(1 + w_i) * max_Q P~0(Q) - r P~1(Q) (D = 1, exact)",
                         f"ns={ns} r={r}: {own} vs {hs * Z}"):
            return
        eng = p.library("exactdp composed_delta (exact)", lambda: composed_delta(
            [Mechanism(exp_eps=x) for x in ns], exp_eps_g=r, engine="exact").exact)
        p.agree(eng, hs, "exactdp composed_delta (exact)", f"ns={ns} r={r}")
        # D = 2, 3: Arb balls of both sides
        D = p.rng.choice([2, 3])
        with workprec(200):
            rb = arb(fmpq(r.numerator, r.denominator))
            ball = R.sum_partition_ball(D, ns, rb)
            Zb = arb(1)
            for x in ns:
                Zb *= 1 + arb(fmpz(x)).root(D)
            diff = ball - rr_hockey_ball(D, ns, rb) * Zb
            ok = diff.overlaps(arb(0)) and diff.rad() < arb(2) ** -150
        n_cert += 1
        if not p.require(ok, "SUM-PARTITION = prod(1 + w_i) * hockey-stick (D > 1, Arb)", f"D={D} ns={ns} r={r}: {diff}"):
            return
        cross_check_certified(p, ns, D, r, Zb, ball, f"D={D} ns={ns} r={r}")
    p.instances("D = 1: the literal sum over all P subset [k] = prod(1 + w_i) times the hockey-stick divergence of "
                "Definition 3.1's product at e^eps_g = r (exactly; the exactdp engine agrees)", n_exact)
    p.instances("D in {2, 3}: the same two quantities agree to 2^-150 (Arb, 200 bits); the exactdp certified engine's "
                "enclosure overlaps", n_cert, "certified")
