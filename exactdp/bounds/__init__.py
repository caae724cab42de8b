"""Composition bounds and noise calibration (Kairouz-Oh-Viswanath Sections 3.2-4.1; Murtagh-Vadhan Section 1).

* :mod:`.composition` basic, advanced (Murtagh-Vadhan Theorem 1.3), KOV Theorems 3.4 and 3.5,
  each a certified upper bound, beside the exact optimum.
* :mod:`.calibrate` the largest per-query (eps0, delta0) for k queries (the exact inverse of
  OptComp), Laplace / geometric / randomized-response parameters, the least Gaussian sigma
  (certified through Gaussian DP), and the paper's variance statements beside them.

A feature package (``docs/architecture.md``): it imports the layers below it and :mod:`exactdp.fdp`.
"""

from .calibrate import Calibration, calibrate, largest_eps0
from .composition import (
    BOUND_NAMES,
    Bound,
    BoundsResult,
    advanced_bound,
    basic_bound,
    composition_bounds,
    kov34_bound,
    kov35_bound,
)

__all__ = [
    "Bound",
    "BoundsResult",
    "BOUND_NAMES",
    "composition_bounds",
    "basic_bound",
    "advanced_bound",
    "kov34_bound",
    "kov35_bound",
    "Calibration",
    "calibrate",
    "largest_eps0",
]
