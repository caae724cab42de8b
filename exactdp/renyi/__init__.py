"""Rényi differential privacy (Vadhan-Zhang Section 5): divergences of finite distributions,
randomized response and compositions, interactive mechanisms against their optimal adversary."""

from .divergence import RenyiResult, rdp_composition, rdp_randomized_response, renyi_chain, renyi_divergence
from .interactive import renyi_concurrent, renyi_interactive

__all__ = ["RenyiResult", "renyi_divergence", "rdp_randomized_response", "rdp_composition", "renyi_chain",
           "renyi_interactive", "renyi_concurrent"]
