"""``exactdp plot bounds`` for a pure-DP composition drew the delta_g axis with no tick
label (matplotlib 3.11, delta_g from 1e-9 to 1/2: nine decades of 1, 2, 5 ticks) (issue 26)."""

from __future__ import annotations

import pytest

from exactdp import mechanisms

pytest.importorskip("matplotlib")


@pytest.mark.parametrize("comp", [mechanisms(eps=["0.1"], k=10), mechanisms(eps=["0.1"], delta="1e-3", k=10)],
                         ids=["pure", "approximate"])
def test_the_delta_axis_has_labels(monkeypatch, tmp_path, comp):
    import exactdp.regions.plots as plots

    figs = []
    monkeypatch.setattr(plots, "_save", lambda fig, path: figs.append(fig))
    plots.plot_bounds(comp, str(tmp_path / "b.png"))
    fig = figs[0]
    fig.canvas.draw()
    ax = fig.axes[1]
    lo, hi = ax.get_xlim()
    shown = [t.get_text() for t, x in zip(ax.get_xticklabels(), ax.get_xticks()) if lo <= x <= hi and t.get_text()]
    assert len(shown) >= 3, shown
