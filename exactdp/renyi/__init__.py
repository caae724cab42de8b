"""Rényi differential privacy (Vadhan-Zhang Section 5): divergences of finite distributions,
randomized response and compositions, interactive mechanisms against their optimal adversary."""
