"""f-DP: trade-off functions as exact objects (Vadhan-Zhang Sections 1-3; Dong-Roth-Su).

* :mod:`.tradeoff` piecewise-linear trade-off functions: ``f_{eps,delta}``, Definition 1.6,
  Proposition 1.7, tensor products (composition), Lemma 2.4 (supremum), conversions
  between (eps, delta) profiles and trade-off functions.
* :mod:`.gaussian` the Gaussian trade-off function ``G_mu`` and its (eps, delta) profile, certified.
* :mod:`.geometry` exact plane geometry (envelopes, hulls, Neyman-Pearson).
* :mod:`.symbolic` exact arithmetic in ``Q(e^eps)`` for rational eps.

A feature package (``docs/architecture.md``): it imports the layers below it only.
"""

from .gaussian import GaussianTradeOff
from .symbolic import QW
from .tradeoff import (
    TradeOff,
    composition_tradeoff,
    f_eps_delta,
    is_tradeoff_function,
    tradeoff_from_guarantees,
    tradeoff_inf,
    tradeoff_of,
    tradeoff_sup,
)

__all__ = [
    "TradeOff",
    "f_eps_delta",
    "tradeoff_of",
    "is_tradeoff_function",
    "tradeoff_sup",
    "tradeoff_inf",
    "tradeoff_from_guarantees",
    "composition_tradeoff",
    "GaussianTradeOff",
    "QW",
]
