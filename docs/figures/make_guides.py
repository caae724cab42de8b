"""Regenerate the figures of the guides (``make figures-guides``).

* ``guide-profile.png`` (guides/optcomp.md): the optimal delta_g(eps_g) of 50 mechanisms
  with eps = 0.1, beside the eps_g that the advanced composition theorem and KOV Theorem 3.4
  guarantee at each delta_g, and basic composition.
* ``guide-calibrate.png`` (guides/calibrate.md): the largest per-query eps0 for k queries
  under the budget (eps_g, delta_g) = (1, 1e-6), exact (the inverse of OptComp), against
  what basic and advanced composition allow.

The optimal values and the published bounds are certified (exactdp.profile, exactdp.bounds,
exactdp.calibrate); the inverse of the advanced composition theorem, drawn for comparison
only, is solved by bisection in 50-digit mpmath. Only the drawing uses floats.
"""

from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import mpmath  # noqa: E402

from exactdp import PrivacyProfile, calibrate, composition_bounds, mechanisms  # noqa: E402


def profile_figure(path: str) -> str:
    k, eps = 50, "0.1"
    comp = mechanisms(eps=[eps], k=k)
    prof = PrivacyProfile(comp)
    grid = [i / 40 for i in range(1, 201)]  # eps_g from 0.025 to 5
    opt = [(g, float(prof.delta(eps_g=str(g), digits=8).upper)) for g in grid]
    opt = [(g, d) for g, d in opt if d > 1e-14]
    deltas = [10.0 ** -e for e in (1, 1.5, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14)]
    adv, kov = [], []
    for d in deltas:
        bs = composition_bounds(comp, repr(d), digits=8).bounds
        if bs["advanced"].applies:
            adv.append((float(bs["advanced"].value.upper), d))
        if bs["kov_3_4"].applies:
            kov.append((float(bs["kov_3_4"].value.upper), d))
    fig, ax = plt.subplots(figsize=(7.5, 4.6), dpi=130)
    ax.semilogy(*zip(*opt), color="#1f5fa8", lw=2.2, label="optimal delta_g(eps_g) (Murtagh-Vadhan Thm 1.5, certified)")
    ax.semilogy(*zip(*kov), "s--", color="#7a4fb0", ms=4, label="KOV Theorem 3.4 (certified upper bound on eps_g)")
    ax.semilogy(*zip(*adv), "o--", color="#a35c00", ms=4, label="advanced composition (certified upper bound on eps_g)")
    ax.axvline(0.1 * k, color="#555555", ls=":", lw=1.5, label="basic composition: eps_g = k eps = 5, delta_g = 0")
    ax.set_xlabel("eps_g")
    ax.set_ylabel("delta_g (log scale)")
    ax.set_xlim(0, 7)
    ax.set_ylim(1e-14, 1)
    ax.set_title("50 mechanisms with eps = 0.1: the (eps_g, delta_g) each method guarantees", fontsize=10)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def _advanced_eps0(eps_g: float, delta_g: float, k: int) -> float:
    """The largest eps0 with sqrt(2k ln(1/delta_g)) eps0 + k eps0 (e^eps0 - 1) <= eps_g (bisection)."""
    mpmath.mp.dps = 50
    f = lambda e: mpmath.sqrt(2 * k * mpmath.log(1 / mpmath.mpf(delta_g))) * e + k * e * mpmath.expm1(e) - eps_g  # noqa: E731
    lo, hi = mpmath.mpf(0), mpmath.mpf(eps_g)
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if f(mid) <= 0 else (lo, mid)
    return float(lo)


def calibrate_figure(path: str) -> str:
    eps_g, delta_g = 1, "1e-6"
    ks = [1, 2, 3, 5, 8, 13, 20, 32, 50, 80, 130, 200, 320, 500, 800, 1300, 2000]
    opt = [float(calibrate(eps_g, delta_g, k=k, digits=6).eps0.lower) for k in ks]
    adv = [_advanced_eps0(eps_g, 1e-6, k) for k in ks]
    basic = [eps_g / k for k in ks]
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(10, 4.2), dpi=130)
    ax.loglog(ks, opt, "o-", color="#1f5fa8", ms=4, lw=2, label="optimal (exact inverse of OptComp, certified)")
    ax.loglog(ks, adv, "s--", color="#a35c00", ms=4, label="advanced composition")
    ax.loglog(ks, basic, ":", color="#555555", lw=1.8, label="basic composition: eps_g / k")
    ax.set_xlabel("k (number of queries)")
    ax.set_ylabel("largest per-query eps0")
    ax.set_title("Per-query eps0 under (eps_g, delta_g) = (1, 1e-6)", fontsize=10)
    ax.grid(True, which="both", alpha=0.25)
    ax.legend(fontsize=8)
    ax2.semilogx(ks, [o / b for o, b in zip(opt, basic)], "o-", color="#1f5fa8", ms=4, label="optimal / basic")
    ax2.semilogx(ks, [o / a for o, a in zip(opt, adv)], "s--", color="#a35c00", ms=4, label="optimal / advanced")
    ax2.axhline(1, color="#555555", lw=0.8)
    ax2.set_xlabel("k (number of queries)")
    ax2.set_ylabel("ratio of per-query eps0 (= ratio of Laplace scales)")
    ax2.set_title("How much less noise the optimum needs", fontsize=10)
    ax2.grid(True, which="both", alpha=0.25)
    ax2.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def main() -> None:
    print(profile_figure(os.path.join(HERE, "guide-profile.png")))
    print(calibrate_figure(os.path.join(HERE, "guide-calibrate.png")))


if __name__ == "__main__":
    main()
