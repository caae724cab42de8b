"""The privacy curve of an accountant's composition: delta(eps) on a grid of eps, each point a
certified enclosure, all from one composed lattice (:meth:`Accountant.curve`)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..errors import InvalidArgument
from ..numbers import Enclosure

__all__ = ["PrivacyCurve"]


@dataclass(frozen=True, kw_only=True)
class PrivacyCurve:
    """delta(eps) of a composition on a grid: ``eps[i]`` (exact rationals) and an enclosure
    ``[delta_lower[i], delta_upper[i]]`` of the optimal delta there.

    Guarantee: enclosure at every point (certified; the upper ends are valid deltas). The
    width is that of one lattice (``h``), chosen for ``digits`` at ``delta_ref``; points far
    from it may be wider (never invalid).
    """

    eps: tuple
    delta_lower: tuple
    delta_upper: tuple
    relation: str
    h: Fraction
    digits: int

    def __len__(self) -> int:
        return len(self.eps)

    def __getitem__(self, i: int) -> tuple:
        """``(eps, Enclosure of delta)`` at grid point ``i``. Guarantee: enclosure. Raises: IndexError."""
        return self.eps[i], Enclosure(self.delta_lower[i], self.delta_upper[i])

    def arrays(self):
        """``(eps, delta_lower, delta_upper)`` as NumPy float arrays: eps to nearest, the lower
        ends rounded down and the upper ends rounded up (so each float pair still encloses delta).

        Guarantee: enclosure (outward-rounded floats). Raises: nothing.
        """
        import math

        import numpy as np

        def down(x: Fraction) -> float:
            f = float(x)
            return math.nextafter(f, -math.inf) if Fraction(f) > x else f

        def up(x: Fraction) -> float:
            f = float(x)
            return math.nextafter(f, math.inf) if Fraction(f) < x else f

        return (np.array([float(e) for e in self.eps]), np.array([down(x) for x in self.delta_lower]),
                np.array([up(x) for x in self.delta_upper]))

    def plot(self, ax=None):
        """Draw the curve: the band between the lower and upper ends, delta on a log axis.
        Returns the matplotlib figure (of ``ax`` when given).

        Guarantee: a figure of the certified ends. Raises: InvalidArgument when matplotlib is not
        installed (``pip install 'exactdp[plot]'``).
        """
        try:
            import matplotlib

            if ax is None:
                matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:  # pragma: no cover - depends on the installation
            raise InvalidArgument("plot", "available: it needs matplotlib", "not installed",
                                  hint="pip install 'exactdp[plot]'") from None
        eps, lo, hi = self.arrays()
        if ax is None:
            fig, ax = plt.subplots(figsize=(5, 3.5))
        else:
            fig = ax.figure
        pos = hi > 0
        ax.fill_between(eps[pos], lo[pos].clip(min=hi[pos].min() * 1e-3), hi[pos], alpha=0.3, label="certified enclosure")
        ax.plot(eps[pos], hi[pos], lw=1, label="upper end (a valid delta)")
        ax.set_yscale("log")
        ax.set_xlabel("epsilon")
        ax.set_ylabel("delta(epsilon)")
        ax.set_title(f"privacy curve ({self.relation})")
        ax.legend()
        return fig
