"""Murtagh-Vadhan Definition 4.8 (#SUM-PARTITION)."""

from __future__ import annotations

from fractions import Fraction as F

from exactdp._backend import arb, fmpq, fmpz, workprec
from exactdp.numbers import arb_bounds

from .._framework import Proof, statement
from . import _common as C
from . import _partition as R


@statement(
    "Definition 4.8",
    "#SUM-PARTITION: given D, w_1..w_k (D-th roots of positive integers in [1, e]) and a real r > 1, find "
    "sum_{P subset [k]} max(prod_P w_i - r prod_notP w_i, 0).",
)
def definition(p: Proof) -> None:
    from exactdp import Mechanism, Root, composed_delta

    n_exact = n_cert = 0
    for _ in range(60 if p.full else 25):
        k = p.rng.randint(1, 6)
        ns = [p.rng.randint(1, 6) for _ in range(k)]
        r = 1 + F(p.rng.randint(1, 30), p.rng.randint(1, 6))
        # D = 1: exact. Theorem 1.5's S(t) with w_i = n_i, t = r; the engine gives delta_g = S/Z (delta_i = 0)
        own = C.S_brute([F(x) for x in ns], r)
        eng = composed_delta([Mechanism(exp_eps=x) for x in ns], exp_eps_g=r, engine="exact").exact
        Z = C.prod(1 + F(x) for x in ns)
        n_exact += 1
        if not p.require(own == eng * Z, "SUM-PARTITION = delta_g * prod(1 + w_i) (D = 1, exact)", f"ns={ns} r={r}"):
            return
        # D = 2, 3: certified
        D = p.rng.choice([2, 3])
        with workprec(200):
            ball = R.sum_partition_ball(D, ns, arb(fmpq(r.numerator, r.denominator)))
            Zb = arb(1)
            for x in ns:
                Zb *= 1 + arb(fmpz(x)).root(D)
        res = composed_delta([Mechanism(w=Root(F(x), D)) for x in ns], exp_eps_g=r, engine="certified", digits=30)
        with workprec(200):
            eb = arb(fmpq(res.lower.numerator, res.lower.denominator)).union(
                arb(fmpq(res.upper.numerator, res.upper.denominator))) * Zb
            ok = ball.overlaps(eb)
        n_cert += 1
        if not p.require(ok, "SUM-PARTITION ball overlaps delta_g * prod(1 + w_i) (certified)", f"D={D} ns={ns} r={r}"):
            return
    p.instances("D = 1: brute-force SUM-PARTITION = exactdp delta_g(e^eps_g = r) * prod(1 + w_i) exactly", n_exact)
    p.instances("D in {2, 3}: Arb enclosure of the brute-force sum overlaps the certified engine's enclosure", n_cert,
                "certified")
