"""The engines: Murtagh-Vadhan Theorem 1.5 computed exactly, certified or in floating point.

Layout (``docs/architecture.md``):

* :mod:`.fields` the arithmetics (exact rationals, Arb balls, mpmath floats).
* :mod:`.structure` the S(t) kernels' interface; one module per kernel:
  :mod:`.lattice` (and homogeneous), :mod:`.grouped` (and brute force), :mod:`.mitm`;
  :mod:`.choose` picks one; :mod:`.costs` holds every limit and estimate.
* :mod:`.base` a prepared composition and the inverse's target; :mod:`.inverse` the
  one OptComp inverse; :mod:`.family` the engine family (exact, certified, float);
  :mod:`.results` their result types; :mod:`.api` the public functions.
"""

from .api import ENGINES, composed_delta, optcomp, resolve_engine
from .base import Prepared, Target
from .choose import METHODS, choose_structure, detect_lattice
from .family import ENGINE_TIERS, Engine
from .lattice import Lattice
from .results import DeltaResult, EnclosedResult, EpsResult

__all__ = [
    "composed_delta",
    "optcomp",
    "DeltaResult",
    "EpsResult",
    "EnclosedResult",
    "ENGINES",
    "ENGINE_TIERS",
    "Engine",
    "METHODS",
    "Prepared",
    "Target",
    "Lattice",
    "choose_structure",
    "detect_lattice",
    "resolve_engine",
]
