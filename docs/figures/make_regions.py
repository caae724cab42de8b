"""Regenerate the figures of docs/regions.md (``make figures-regions``).

* ``kov-figure2-regions.png`` Kairouz-Oh-Viswanath Figure 2's setting: the privacy regions of
  the k-fold composition of (0.4, delta)-DP mechanisms, k = 1..5, delta = 0 and 0.1.
* ``kov-figure3-bounds.png`` Figure 3's setting: 30-fold composition of (0.1, 0.001)-DP
  mechanisms; the regions guaranteed by basic, advanced and KOV 3.4, against the optimal one,
  and eps_g against delta_g for each.
* ``tradeoff-gaussian-limit.png`` trade-off functions of k-fold (1/sqrt(k), 0)-DP compositions,
  k = 1, 4, 16, 64, approaching the Gaussian G_1 (the f-DP central limit theorem, Dong-Roth-Su).

Every region and curve is exact or certified (exactdp.regions / exactdp.fdp); only the
drawing uses floats.
"""

from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))

from exactdp import mechanisms  # noqa: E402
from exactdp.fdp import GaussianTradeOff, composition_tradeoff  # noqa: E402
from exactdp.regions import composition_region  # noqa: E402
from exactdp.regions.plots import plot_bounds, plot_regions, plot_tradeoffs  # noqa: E402


def main() -> None:
    panels = []
    for delta in ("0", "0.1"):
        regions = [(f"k = {k}", composition_region(mechanisms(eps="0.4", delta=delta, k=k), digits=12)) for k in range(1, 6)]
        panels.append((f"eps = 0.4, delta = {delta}", regions))
    print(plot_regions(panels, os.path.join(HERE, "kov-figure2-regions.png"),
                       title="Privacy regions of the k-fold optimal composition (KOV Figure 2 setting)"))
    print(plot_bounds(mechanisms(eps="0.1", delta="0.001", k=30), os.path.join(HERE, "kov-figure3-bounds.png"),
                      title="30-fold composition of (0.1, 0.001)-DP mechanisms (KOV Figure 3 setting)"))
    curves = [(f"k = {k}: {k} x (eps = 1/{int(k ** 0.5)}, 0)", composition_tradeoff(mechanisms(eps=f"1/{int(k ** 0.5)}", k=k), digits=12))
              for k in (1, 4, 16, 64)]
    curves.append(("Gaussian G_1 (the limit)", GaussianTradeOff(1)))
    print(plot_tradeoffs(curves, os.path.join(HERE, "tradeoff-gaussian-limit.png"),
                         title="k-fold (1/sqrt(k), 0)-DP tends to 1-GDP"))


if __name__ == "__main__":
    main()
