"""docs/figures/accounting-peers.png (docs/guides/dpsgd.md): exactdp's certified epsilon
enclosure beside the float accountants' answers as the number of DP-SGD steps grows,
drawn from the timings and answers benchmarks/bench_accounting.py last wrote to
docs/figures/accounting-peers.json (rerun it to re-measure).

    python docs/figures/make_accounting.py [--data JSON] [--out PNG]
"""

from __future__ import annotations

import argparse
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=os.path.join(HERE, "accounting-peers.json"))
    ap.add_argument("--out", default=os.path.join(HERE, "accounting-peers.png"))
    args = ap.parse_args()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with open(args.data) as f:
        data = json.load(f)
    g = data["growth"]
    ks = [r["k"] for r in g]
    fig, ax = plt.subplots(figsize=(9.5, 4.2), dpi=120)
    # epsilon relative to the midpoint of the certified enclosure, so that every k shows on one scale
    mids = [(r["lower"] + r["upper"]) / 2 for r in g]
    lo = [r["lower"] / m - 1 for r, m in zip(g, mids)]
    hi = [r["upper"] / m - 1 for r, m in zip(g, mids)]
    ax.fill_between(ks, lo, hi, color="tab:green", alpha=0.35, label="exactdp: certified enclosure")
    markers = {"dp_accounting PLD pessimistic 0.0001": ("tab:blue", "^"),
               "dp_accounting PLD optimistic 0.0001": ("tab:blue", "v"),
               "dp_accounting RDP": ("tab:red", "s"),
               "prv_accountant 0.01 lower": ("tab:purple", "1"),
               "prv_accountant 0.01 estimate": ("tab:purple", "o"),
               "prv_accountant 0.01 upper": ("tab:purple", "2")}
    for name, (color, m) in markers.items():
        pts = [(r["k"], r["peers"][name][0] / mid - 1) for r, mid in zip(g, mids) if name in r["peers"]]
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=m, color=color, linestyle="none", label=name,
                    markersize=8)
    ax.set_xscale("log")
    ax.set_yscale("symlog", linthresh=1e-4)
    ax.axhline(0, color="0.6", lw=0.6)
    ax.set_xlabel("DP-SGD steps k (sigma = 1, q = 1/256, delta = 1e-5, add/remove)")
    ax.set_ylabel("epsilon / (midpoint of the enclosure) - 1")
    ax.set_title("Certified epsilon against the float accountants")
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    fig.tight_layout()
    fig.savefig(args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
