"""The engines: Murtagh-Vadhan Theorem 1.5 computed exactly, certified or in floating point.

Layout (``docs/architecture.md``):

* :mod:`.fields` the arithmetics (exact rationals, Arb balls, balls with guessed signs).
* :mod:`.structure` the S(t) kernels' interface, :mod:`.kernel` their plug-in type; one
  module per kernel: :mod:`.lattice` (and homogeneous), :mod:`.windowed`,
  :mod:`.balllattice`, :mod:`.multiwindow`, :mod:`.grouped`, :mod:`.brute`, :mod:`.mitm`
  (a package); :mod:`.registry` lists them; :mod:`.detect` finds a composition's lattice;
  :mod:`.choose` picks one; :mod:`.costs` holds the limits and ``Estimate``.
* :mod:`.base` a prepared composition; :mod:`.inverse` the one OptComp inverse and its
  target; :mod:`.family` the engine family (exact, certified, float);
  :mod:`.results` their result types; :mod:`.api` the public functions.
"""

from .api import ENGINES, composed_delta, optcomp, resolve_engine
from .base import Prepared
from .choose import METHODS, choose_structure, detect_lattice
from .family import ENGINE_TIERS, Engine
from .inverse import Target
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
