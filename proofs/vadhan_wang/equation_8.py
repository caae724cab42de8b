"""Vadhan-Wang Equation (8): T's later answers on RR output 0.

Printed: Pr[T(0, q^(t)) = a_{t-1} | a_0..a_{t-2}] = (e^eps Pr[M-vec(x_0, q^(t)) = (a_0..a_{t-1})] -
Pr[M-vec(x_1, q^(t)) = (a_0..a_{t-1})]) / ((e^eps - 1) Pr[T-vec(0, q^(t-1)) = (a_0..a_{t-2})]).

Checked on random (eps, 0)-DP mechanisms with up to 3 rounds and on 'RR then public' ones: wherever
the denominator is non-zero, (8) is a probability distribution on a_{t-1} (non-negative by
(eps, 0)-DP, summing to 1 as Equation (10) states); where it is 0, the numerator is 0 too (0/0: the
prefix never occurs under T(0); the printed formula is undefined there, harmlessly) - counted.
"""

from __future__ import annotations

from .._framework import Proof, statement
from . import _sim as S
from .theorem_1_5 import instances


def later_rounds(p: Proof, c: int) -> None:
    n = zero = 0
    xa, xb = (0, 1) if c == 0 else (1, 0)
    for m, w in instances(p):
        T, _ = S.thm52_T(m, w)
        for r in range(1, m.rounds):
            for h in m.histories(r):
                den = (w - 1) * T.path(c, h[:-1])
                nums = {a: w * m.path(xa, h + (a,)) - m.path(xb, h + (a,)) for a in m.answers}
                n += 1
                if den == 0:
                    zero += 1
                    if not p.require(all(v == 0 for v in nums.values()), "0/0 only: numerator 0 when denominator 0",
                                     f"{m} e^eps={w} h={h}"):
                        return
                    continue
                d = {a: v / den for a, v in nums.items()}
                if not p.require(all(v >= 0 for v in d.values()) and sum(d.values()) == 1,
                                 f"Equation ({8 + c}) is a distribution", f"{m} e^eps={w} h={h}"):
                    return
    p.instances(f"Equation ({8 + c}) transcribed for every history of rounds >= 2: a distribution on the next answer "
                "(or 0/0 on a prefix T never produces)", n, "exhaustive")
    p.note(f"{zero} histories had denominator 0 (numerator 0 too): the printed formula is 0/0 there, harmlessly.")


@statement(
    "Equation (8)",
    "Pr[T(0, q^(t)) = a_{t-1} | a_0..a_{t-2}] = (e^eps Pr[M-vec(x_0, q^(t)) = (a_0..a_{t-1})] - Pr[M-vec(x_1, q^(t)) = "
    "(a_0..a_{t-1})]) / ((e^eps - 1) Pr[T-vec(0, q^(t-1)) = (a_0..a_{t-2})]).",
)
def equation(p: Proof) -> None:
    later_rounds(p, 0)
