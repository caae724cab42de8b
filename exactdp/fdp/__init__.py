"""f-DP: trade-off functions as exact objects (Vadhan-Zhang Sections 1-3; Dong-Roth-Su).

* :mod:`.tradeoff` piecewise-linear trade-off functions: ``f_{eps,delta}``, Definition 1.6,
  Proposition 1.7, tensor products (composition), Lemma 2.4 (supremum), the chain rule
  (Claim 3.4), the f-DP order, conversions between (eps, delta) profiles and trade-off
  functions. The one implementation of trade-off functions: :mod:`exactdp.interactive`,
  :mod:`exactdp.regions` and :mod:`exactdp.renyi` build on it.
* :mod:`.gaussian` the Gaussian trade-off function ``G_mu`` and its (eps, delta) profile, certified.
* :mod:`.geometry` exact plane geometry (envelopes, hulls, Neyman-Pearson);
  :mod:`.vertices` what curves and regions with exact vertices share.
* :mod:`.symbolic` exact arithmetic in ``Q(e^eps)`` for rational eps.

A feature package (``docs/architecture.md``): it imports the layers below it only.
"""

from .gaussian import GaussianTradeOff
from .symbolic import QW
from .tradeoff import (
    TradeOff,
    chain_rule,
    composition_tradeoff,
    distribution_pair,
    f_eps_delta,
    is_tradeoff_function,
    tensor,
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
    "tensor",
    "chain_rule",
    "distribution_pair",
    "tradeoff_from_guarantees",
    "composition_tradeoff",
    "GaussianTradeOff",
    "QW",
]
