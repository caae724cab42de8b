"""The figure of docs/gdp.md: the filter budget's trade-off curve and the (eps, delta) curve it implies.

Left: the trade-off function G_{mu_0} of the worked example's filter budget mu_0 = 1/2 (the
whole adaptive interaction is at least this hard to test), with the trade-off functions
f_{eps, delta} of the (eps, delta_{mu_0}(eps))-DP guarantees it implies at a few eps:
each is a tangent polygon below G_{mu_0}, and their envelope is G_{mu_0} (the duality of
DRS Proposition 2.12). Right: the implied privacy profile delta_{mu_0}(eps), with the two
points the example certifies, against the profiles of its individual queries (mu_i^2 =
1/25, 1/16, 9/200): composition adds the mu_i^2.

Every plotted value is a certified enclosure (15 digits, its midpoint drawn).
Run: ``make figures-gdp`` (``python docs/figures/gdp_figures.py``; needs ``exactdp[plot]``).
"""

from __future__ import annotations

import os
from fractions import Fraction as F

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from exactdp.gdp import GDP, gdp_delta, gdp_epsilon, gdp_tradeoff  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "gdp-tradeoff.png")

MU0 = F(1, 2)
DIGITS = 15


def mid(e) -> float:
    return float((e.lower + e.upper) / 2)


def f_eps_delta(eps: float, delta: float, alpha: float) -> float:
    """The trade-off function of (eps, delta)-DP (Kairouz-Oh-Viswanath; DRS eq. (2.3))."""
    import math

    w = math.exp(eps)
    return max(0.0, 1 - delta - w * alpha, (1 - delta - alpha) / w)


def main() -> str:
    g = GDP(MU0)
    alphas = [F(i, 400) for i in range(1, 400)]
    G = [1.0] + [mid(gdp_tradeoff(g, a, digits=DIGITS)) for a in alphas] + [0.0]
    A = [0.0] + [float(a) for a in alphas] + [1.0]

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 5.2))
    ax1.plot(A, [1 - a for a in A], color="0.75", lw=1, ls=":", label=r"perfect privacy: $1 - \alpha$")
    colors = ["tab:orange", "tab:green", "tab:purple"]
    for eps, c in zip((F(1, 4), F(1), F(2)), colors):
        dl = mid(gdp_delta(g, eps, digits=DIGITS))
        ax1.plot(A, [f_eps_delta(float(eps), dl, a) for a in A], color=c, lw=1.2, ls="--",
                 label=f"({float(eps):g}, {dl:.3g})-DP, implied")
    ax1.plot(A, G, color="tab:blue", lw=2.2, label=r"$G_{\mu_0}$, $\mu_0 = 1/2$ (the filter budget)")
    ax1.set_xlim(0, 1)
    ax1.set_ylim(0, 1)
    ax1.set_aspect("equal")
    ax1.set_xlabel(r"type I error $\alpha$")
    ax1.set_ylabel(r"least type II error $\beta$")
    ax1.set_title("Trade-off of the whole adaptive interaction")
    ax1.legend(loc="upper right", fontsize=9, framealpha=0.95)

    eps_grid = [F(i, 20) for i in range(0, 101)]
    for mu_sq, ls, lab in ((F(1, 25), ":", r"$\mu_i = 1/5$ (queries 1, 2)"), (F(1, 16), "-.", r"$\mu_i = 1/4$ (queries 3, 4)"),
                           (F(9, 200), "--", r"$\mu_i^2 = 9/200$ (query 6)")):
        gi = GDP(mu_sq=mu_sq)
        pts = [(float(e), mid(gdp_delta(gi, e, digits=DIGITS))) for e in eps_grid]
        ax2.semilogy([p[0] for p in pts], [p[1] for p in pts], color="0.45", ls=ls, lw=1.3, label=lab)
    pts = [(float(e), mid(gdp_delta(g, e, digits=DIGITS))) for e in eps_grid]
    ax2.semilogy([p[0] for p in pts], [p[1] for p in pts], color="tab:blue", lw=2.2,
                 label=r"composed budget $\mu_0^2 = \sum \mu_i^2 = 1/4$")
    e1 = mid(gdp_epsilon(g, F(1, 10**5), digits=DIGITS))
    d1 = mid(gdp_delta(g, 1, digits=DIGITS))
    ax2.plot([e1], [1e-5], "o", color="tab:red", ms=7, label=f"certified ({e1:.4f}, 1e-5)")
    ax2.plot([1.0], [d1], "s", color="tab:red", ms=7, label=f"certified (1, {d1:.4g})")
    ax2.set_xlim(0, 5)
    ax2.set_ylim(1e-12, 1)
    ax2.set_xlabel(r"$\varepsilon$")
    ax2.set_ylabel(r"least $\delta$")
    ax2.set_title(r"Implied privacy profile $\delta_{\mu}(\varepsilon)$")
    ax2.grid(True, which="major", color="0.9")
    ax2.legend(loc="lower left", fontsize=9, framealpha=0.95)
    fig.tight_layout()
    fig.savefig(OUT, dpi=110)
    return OUT


if __name__ == "__main__":
    print(main())
