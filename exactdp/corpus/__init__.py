"""The conformance corpus: versioned test vectors of the optimal composition, for other accountants' tests.

A corpus is a folder with ``vectors.jsonl`` (one vector per line) and ``manifest.json``.
A vector is a query and its answer::

    {"exactdp_corpus": 1, "id": "3f2a...", "tags": ["homogeneous", "pure", ...],
     "composition": {"exactdp_event": 1, "type": "composition", "parts": [...]},
     "query": {"kind": "epsilon", "delta_g": "1/1000000"},
     "value": {"exact": null, "exp_exact": null, "lower": "4.7745...", "upper": "4.7745...", "infinite": false},
     "digits": 30, "engine": "certified", "method": "homogeneous", "requested_method": "auto",
     "guarantee": "enclosure", "exactdp_version": "0.1.0"}

* ``query.kind`` is ``"epsilon"`` (OptComp at ``delta_g``: the least eps_g) or ``"delta"``
  (the least delta_g at ``eps_g`` or ``exp_eps_g``), Murtagh-Vadhan Theorem 1.5.
* ``value.lower`` / ``value.upper`` are decimals rounded outward (``lower <= true value
  <= upper``), ``digits`` significant digits; ``value.exact`` is the exact rational when
  the value is rational (delta_g of rational ``e^eps_i``; eps_g = 0 or sum eps_i),
  ``value.exp_exact`` the rational ``e^{eps_g}`` of an exact OptComp; ``infinite`` is true
  when no finite eps_g achieves delta_g. An exact string longer than
  :data:`MAX_EXACT_CHARS` is left out (``null``) and its SHA-256 kept
  (``exact_sha256`` / ``exp_exact_sha256``) so that it is still checked.
* A query the library refuses (a user's grid) gives ``{"id", "query", "error": {...}}``.

:func:`build_corpus` writes a corpus (resumable, atomic, Dask optional; see
:mod:`exactdp.jobs`); :func:`verify_corpus` re-checks one with the current
exactdp; :func:`load_corpus` reads one (by default the curated corpus shipped in the
package, ``exactdp/corpus/data``, built from :func:`~exactdp.corpus.grid.curated_grid`).

The DP-SGD corpus (``suite="dpsgd"``, shipped in ``exactdp/corpus/dpsgd``, grid
:func:`~exactdp.corpus.events.dpsgd_grid`) holds certified enclosures of Gaussian, Laplace and
Poisson-subsampled compositions under each neighbouring relation (:mod:`exactdp.corpus.events`
describes its vectors).
"""

from .build import (  # noqa: F401 (the package's public names)
    CORPUS_VERSION,
    MANIFEST,
    MAX_EXACT_CHARS,
    SUITES,
    VECTORS,
    build_corpus,
    check_vector,
    compute_vector,
    curated_grid,
    load_corpus,
    read_grid,
    shipped_path,
    verify_corpus,
)
from .events import dpsgd_grid  # noqa: F401

__all__ = ["build_corpus", "verify_corpus", "load_corpus", "compute_vector", "check_vector", "read_grid", "curated_grid", "shipped_path", "CORPUS_VERSION", "MAX_EXACT_CHARS", "VECTORS", "MANIFEST", "SUITES", "dpsgd_grid"]
