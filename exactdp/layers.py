"""The layers of exactdp, lowest first, and which may import which (``docs/architecture.md``).

A module may import modules of its own layer's package and of any lower layer;
never a higher one. ``tests/architecture/test_layers.py`` checks every import
statement of the package (function-level imports included) against this table.
"""

from __future__ import annotations

__all__ = ["LAYERS", "layer_of"]

#: (layer name, module prefixes), lowest first.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("foundation", ("exactdp.errors", "exactdp.links", "exactdp._backend", "exactdp.layers")),
    ("numbers", ("exactdp.numbers",)),
    ("long jobs", ("exactdp.jobs",)),
    ("events", ("exactdp.events", "exactdp.noise_events")),
    # the certified privacy-loss-distribution accountant sits beside the engines
    ("engines", ("exactdp.engines", "exactdp.accounting")),
    ("profile, approximation, reductions", ("exactdp.profile", "exactdp.approx", "exactdp.reductions")),
    ("papers' features", ("exactdp.fdp", "exactdp.regions", "exactdp.bounds", "exactdp.gdp",
                          "exactdp.interactive", "exactdp.renyi", "exactdp.experiments", "exactdp.certify")),
    ("ground truth for accountants", ("exactdp.testing", "exactdp.corpus", "exactdp.audit", "exactdp.batch",
                                      "exactdp.integrations")),
    ("command line", ("exactdp.cli", "exactdp.__main__")),
]


def layer_of(module: str) -> int:
    """Index in :data:`LAYERS` of ``module`` (``exactdp`` itself, the lazy facade, is -1).

    Guarantee: exact. Raises: KeyError for a module of exactdp in no layer (a new
    module must be placed in the table).
    """
    if module == "exactdp":
        return -1
    best = None
    for i, (_, prefixes) in enumerate(LAYERS):
        for p in prefixes:
            if module == p or module.startswith(p + "."):
                if best is None or len(p) > best[1]:
                    best = (i, len(p))
    if best is None:
        raise KeyError(f"{module} is in no layer of exactdp.layers.LAYERS")
    return best[0]
