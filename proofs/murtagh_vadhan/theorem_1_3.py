"""Murtagh-Vadhan Theorem 1.3 (advanced composition, Dwork-Rothblum-Vadhan).

Printed: for eps > 0, delta, delta' > 0, k in N and (eps,delta)-DP M_1..M_k the
composition is (eps_g, k delta + delta')-DP with
eps_g = sqrt(2k ln(1/delta')) eps + k eps (e^eps - 1).

Checked with certified arithmetic: for a grid of (eps, delta, delta', k) with
rational eps (so e^eps is transcendental), e^{eps_g} is enclosed by an Arb ball
and the certified engine's enclosure of delta_g(eps_g) (Theorem 1.5) is shown to
lie below k delta + delta' (exact rational comparison of the enclosure's upper end).
"""

from __future__ import annotations

from fractions import Fraction as F

from .._framework import Proof, statement


def _eps_g_ball(eps: F, k: int, dprime: F):
    from flint import arb, fmpq

    e = arb(fmpq(eps.numerator, eps.denominator))
    ld = arb(fmpq(dprime.denominator, dprime.numerator)).log()
    return (2 * k * ld).sqrt() * e + k * e * (e.exp() - 1)


@statement(
    "Theorem 1.3",
    "For eps > 0, delta, delta' > 0 and (eps,delta)-DP M_1..M_k, the composition is (eps_g, k delta + delta')-DP with "
    "eps_g = sqrt(2k ln(1/delta')) eps + k eps (e^eps - 1).",
)
def theorem(p: Proof) -> None:
    from exactdp import Computable, Mechanism, composed_delta, optcomp

    n = 0
    ks = (1, 2, 5, 10, 30, 100) if p.full else (1, 3, 10, 40)
    epss = (F(1, 100), F(1, 10), F(1, 2), F(1), F(2)) if p.full else (F(1, 20), F(1, 2), F(3, 2))
    dprimes = (F(1, 2), F(1, 10), F(1, 1000), F(1, 10 ** 9)) if p.full else (F(1, 3), F(1, 1000), F(1, 10 ** 9))
    worst = None
    for eps in epss:
        for k in ks:
            for delta in (F(0), F(1, 1000)):
                for dp in dprimes:
                    fn = (lambda prec, eps=eps, k=k, dp=dp: _eps_g_ball(eps, k, dp).exp())
                    r = composed_delta([Mechanism(eps=eps, delta=delta)] * k, exp_eps_g=Computable(fn, "e^eps_g"),
                                       engine="certified", digits=12)
                    bound = k * delta + dp
                    n += 1
                    if not p.require(r.upper <= bound, "certified delta_g(eps_g) <= k delta + delta'",
                                     f"eps={eps} k={k} delta={delta} delta'={dp}: delta_g in [{float(r.lower):.6g}, "
                                     f"{float(r.upper):.6g}] > {float(bound):.6g}"):
                        return
                    # how much of delta' the pure part uses: (delta_g - (1 - (1-delta)^k)) / delta'
                    ratio = float(r.upper - (1 - (1 - delta) ** k)) / float(dp)
                    if worst is None or ratio > worst[0]:
                        worst = (ratio, eps, k, delta, dp)
    p.instances("certified enclosure of delta_g at the printed eps_g lies below k delta + delta' (rational eps, "
                f"k in {ks}, delta in {{0, 1/1000}}, delta' in {tuple(str(x) for x in dprimes)})", n, "certified")
    if worst:
        p.note(f"Tightest case: (delta_g(eps_g) - (1 - (1-delta)^k)) / delta' <= {worst[0]:.4g} at eps={worst[1]}, k={worst[2]}, "
               f"delta={worst[3]}, delta'={worst[4]}.")
    r = optcomp([Mechanism(eps=F(1, 10))] * 10, F(1, 1000), engine="certified", digits=8)
    eg = float(_eps_g_ball(F(1, 10), 10, F(1, 1000)).mid())
    p.note(f"Example of the slack: eps = 0.1, k = 10, delta = 0, delta' = 10^-3: printed eps_g = {eg:.6f}, "
           f"OptComp = {float(r.lower):.6f}..{float(r.upper):.6f}.")
