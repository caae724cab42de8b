"""Figures of docs/interactive.md (``make figures-interactive``): exact values from exactdp, drawn by matplotlib.

1. interactive_tradeoff.png: the exact trade-off function of ConComp(M1, M2) for two 2-round mechanisms
   against the tensor f1 (x) f2 of their own trade-off functions (Vadhan-Zhang Theorem 1.4: it stays above).
2. interactive_vw_order.png: Vadhan-Wang Theorem 4.1's delta in a random order, in the best order, and the
   optimal delta at the same eps_g, for k random (eps_i, delta_i).
"""

from __future__ import annotations

import os
import random
from fractions import Fraction as F

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from exactdp.events import mechanisms  # noqa: E402
from exactdp.interactive import concurrent, mechanism_tradeoff, tensor, two_round_bits, vw_bound  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

P1 = ["5/8", "7/8", "7/8", "5/8", "1/4", "1/8", "1/2", "7/8", "7/8", "1/2"]
P2 = ["1/8", "5/8", "1/8", "1/4", "3/4", "1/2", "1/8", "1/2", "1/4", "7/8"]


def xy(f):
    v = f.exact_vertices()
    return [float(a) for a, _ in v], [float(b) for _, b in v]


def tradeoff_figure() -> None:
    m1, m2 = two_round_bits(P1), two_round_bits(P2)
    f1, f2 = mechanism_tradeoff(m1), mechanism_tradeoff(m2)
    fcc = mechanism_tradeoff(concurrent(m1, m2))
    ft = tensor(f1, f2)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.8))
    for ax, lim in zip(axes, (1.0, 0.02)):
        ax.plot([0, 1], [1, 0], color="0.75", lw=1, label="1 - alpha (no privacy loss)")
        ax.plot(*xy(f1), color="tab:green", lw=1.2, label="f1 = T(M1) (best adversary)")
        ax.plot(*xy(f2), color="tab:olive", lw=1.2, label="f2 = T(M2)")
        ax.plot(*xy(fcc), color="tab:blue", lw=2.2, marker="o", ms=3, label="ConComp(M1, M2), exact")
        ax.plot(*xy(ft), color="tab:red", lw=1.4, ls="--", marker="x", ms=4, label="f1 (x) f2 (Vadhan-Zhang Thm 1.4)")
        ax.set_xlim(0, lim)
        ax.set_ylim(0.6 if lim < 1 else 0, 1.0)
        ax.set_xlabel("type I error alpha")
        ax.set_ylabel("type II error beta")
        ax.grid(alpha=0.3)
    axes[0].set_title("trade-off functions (exact vertices)")
    axes[1].set_title("zoom: alpha <= 0.02 (gap 5/256 at alpha = 27/4096)")
    axes[0].legend(fontsize=8, loc="upper right")
    fig.tight_layout()
    fig.savefig(os.path.join(HERE, "interactive_tradeoff.png"), dpi=110)
    plt.close(fig)


def order_figure() -> None:
    rng = random.Random(3)
    W = [F(rng.randint(11, 30), 10) for _ in range(30)]
    D = [F(rng.randint(1, 100), 10**5) for _ in range(30)]
    ks, given, best, opt = [], [], [], []
    for k in range(1, 31):  # the first k mechanisms of one random list
        b = vw_bound(mechanisms(exp_eps=W[:k], delta=D[:k]))
        ks.append(k)
        given.append(float(b.given_order.exact))
        best.append(float(b.best_order.exact))
        opt.append(float(b.optimal))
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.semilogy(ks, given, "o-", color="tab:red", ms=3, label="Vadhan-Wang Thm 4.1, given (random) order")
    ax.semilogy(ks, best, "s-", color="tab:blue", ms=3, label="Thm 4.1, best order (delta/(e^eps - 1) decreasing)")
    ax.semilogy(ks, opt, "^-", color="tab:green", ms=3, label="optimal: 1 - prod(1 - delta_i) (Vadhan-Zhang Thm 1.3)")
    ax.axhline(1, color="0.4", lw=1, ls=":")
    ax.text(1, 1.3, "delta_g >= 1: no guarantee", fontsize=8, color="0.3")
    ax.set_xlabel("first k of 30 random mechanisms (e^eps_i in [1.1, 3], delta_i in [1e-5, 1e-3])")
    ax.set_ylabel("delta_g at eps_g = sum eps_i")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(HERE, "interactive_vw_order.png"), dpi=110)
    plt.close(fig)


if __name__ == "__main__":
    tradeoff_figure()
    order_figure()
    print("wrote docs/figures/interactive_tradeoff.png, docs/figures/interactive_vw_order.png")
