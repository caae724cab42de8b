"""Privacy regions (Kairouz-Oh-Viswanath): the hypothesis-testing view of composition.

* :mod:`.polygon` :class:`PrivacyRegion`, the region of (eps, delta)-DP and of any composition.
* :mod:`.theorem33` KOV Theorem 3.3 for the homogeneous case, checked against the exact curve.
* :mod:`.mechanisms` the randomized response and the geometric mechanism, which achieve it.

A feature package (``docs/architecture.md``): it imports the layers below it and :mod:`exactdp.fdp`.
"""

from .mechanisms import geometric_pair, geometric_region, randomized_response, randomized_response_region
from .polygon import PrivacyRegion, composition_region, dp_region
from .theorem33 import (
    Theorem33Check,
    check_theorem33,
    homogeneous_tradeoff,
    theorem33_guarantees,
    theorem33_region,
    theorem33_tradeoff,
)

__all__ = [
    "PrivacyRegion",
    "dp_region",
    "composition_region",
    "theorem33_guarantees",
    "theorem33_tradeoff",
    "theorem33_region",
    "homogeneous_tradeoff",
    "check_theorem33",
    "Theorem33Check",
    "randomized_response",
    "randomized_response_region",
    "geometric_pair",
    "geometric_region",
]
