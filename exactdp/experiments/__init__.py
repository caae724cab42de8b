"""Reproductions of the papers' experiments (``exactdp experiment``), exact where the papers used floats."""
