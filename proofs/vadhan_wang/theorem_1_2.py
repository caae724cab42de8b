"""Vadhan-Wang Theorem 1.2 (Advanced Composition [12]), with its O(.) made explicit.

Printed: for all eps >= 0, delta in [0,1], if M_0..M_{k-1} are each (eps, delta)-DP and k < 1/eps^2,
then for all delta' in (0, 1/2) the composition is (O(sqrt(k log(1/delta'))) eps, k delta + delta')-DP.

The constant in O(.) is not printed, so the statement is checked with explicit ones:
eps' = sqrt(2 k ln(1/delta')) eps + k eps (e^eps - 1) (the explicit form of [12]) and
C sqrt(k ln(1/delta')) eps with C = sqrt(2) + (e-1)/sqrt(ln 2) ~ 3.48, which bounds eps' on the stated
range: e^eps - 1 <= (e-1) eps for eps <= 1 (convexity), k eps^2 < 1 gives k eps (e^eps-1) <= (e-1)
sqrt(k) eps, and ln(1/delta') > ln 2. The true privacy of the composition is the optimum of
Theorem 1.3 (attained by randomized response, checked there): 1 - (1-delta)^k (1 - d(eps')),
d(eps') = (1+e^eps)^-k sum_i C(k,i) max(e^{i eps} - e^{eps'} e^{(k-i) eps}, 0); it is checked to be
<= k delta + delta' with Arb balls (certified), at a rational lower bound of eps' (d is
non-increasing, so this is conservative; the sign of each term is then decided in rationals).
The instance grid covers the stated range to its edges: k from 1 to 10^4 (10^5 with --full), eps up to
0.99/sqrt(k), delta' from 0.49 down to 2^-60, delta in {0, 10^-6}.
"""

from __future__ import annotations

from fractions import Fraction as F
from math import isqrt

from flint import arb

from .._framework import Proof, statement
from . import _arb as R


def eps_prime(k: int, eps: F, dp: F) -> arb:
    e = R.A(eps)
    return (2 * k * (1 / R.A(dp)).log()).sqrt() * e + k * e * (e.exp() - 1)


def C_const() -> arb:
    return arb(2).sqrt() + (arb(1).exp() - 1) / arb(2).log().sqrt()


def composed_delta(k: int, eps: F, delta: F, L: F) -> arb:
    """1 - (1-delta)^k (1 - d(L)) with d from Theorem 1.3's homogeneous formula at eps_g = L (rational)."""
    e = R.A(eps)
    lz = k * (1 + e.exp()).log()
    s = arb(0)
    term = (k * e - lz).exp()  # C(k, i) e^{i eps} / (1+e^eps)^k at i = k, then by the recurrence below
    ratio = (R.A(L) - k * e).exp()  # e^{L - (2i - k) eps} at i = k
    e2, em = (2 * e).exp(), (-e).exp()
    for i in range(k, -1, -1):
        g = (2 * i - k) * eps  # e^{i eps} - e^L e^{(k-i) eps} > 0  <=>  (2i - k) eps > L (decided exactly)
        if g <= L:
            break
        s += term * (1 - ratio)
        term = term * i / (k - i + 1) * em
        ratio = ratio * e2
    return 1 - (1 - R.A(delta)) ** k * (1 - s)


def eps_grid(k: int):
    s = isqrt(k)
    s = s if s * s == k else s + 1
    near = F(99, 100 * s)  # k eps^2 <= 0.98 < 1
    return [near, near / 10]


@statement(
    "Theorem 1.2",
    "For all eps >= 0, delta in [0,1]: if M_0..M_{k-1} are each (eps, delta)-DP and k < 1/eps^2, then for all "
    "delta' in (0, 1/2) the composition is (O(sqrt(k log(1/delta'))) eps, k delta + delta')-DP.",
)
def theorem(p: Proof) -> None:
    ks = [1, 2, 3, 10, 100, 1000, 10000] + ([100000] if p.full else [])
    dps = [F(49, 100), F(1, 1000), F(1, 2 ** 60)] + ([F(1, 4), F(1, 10 ** 9)] if p.full else [])
    deltas = [F(0), F(1, 10 ** 6)]
    n = 0
    worst = None
    for k in ks:
        for eps in eps_grid(k):
            if not p.require(k * eps * eps < 1, "hypothesis k < 1/eps^2", f"k={k} eps={eps}"):
                return
            for dp in dps:
                ok_c = R.decide(lambda: (eps_prime(k, eps, dp), C_const() * (k * (1 / R.A(dp)).log()).sqrt() * R.A(eps)))
                if not p.require(ok_c, "eps' <= C sqrt(k ln(1/delta')) eps", f"k={k} eps={eps} delta'={dp}"):
                    return
                L = R.with_prec(128, lambda: R.lower(eps_prime(k, eps, dp)))
                for delta in deltas:
                    if k * delta + dp >= 1:
                        continue
                    ok = R.decide(lambda: (composed_delta(k, eps, delta, L), R.A(k * delta + dp)))
                    n += 1
                    if not p.require(ok, "optimal composition at eps' has delta <= k delta + delta'",
                                     f"k={k} eps={eps} delta={delta} delta'={dp}"):
                        return
                ratio = R.with_prec(64, lambda: eps_prime(k, eps, dp) / ((k * (1 / R.A(dp)).log()).sqrt() * R.A(eps)))
                worst = ratio if worst is None else max(worst, ratio, key=lambda a: float(a.mid()))
    p.instances(f"exact optimal k-fold composition (Theorem 1.3's formula, Arb balls) is (eps', k delta + delta')-DP with "
                f"eps' = sqrt(2k ln(1/delta')) eps + k eps (e^eps - 1) <= C sqrt(k ln(1/delta')) eps, C = sqrt(2) + "
                f"(e-1)/sqrt(ln 2); k in {ks}, eps in {{0.99, 0.099}}/ceil(sqrt k), delta' in "
                f"{[str(x) if x.denominator < 10 ** 6 else '2^-60' if x == F(1, 2 ** 60) else '1e-9' for x in dps]}, "
                "delta in {0, 1e-6}", n, "certified")
    p.note("O(.) instantiated: the paper prints no constant. Largest eps'/(sqrt(k ln(1/delta')) eps) on the grid: "
           f"{float(worst.mid()):.3f} (C = {float(C_const().mid()):.3f}).")
