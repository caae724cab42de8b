"""Optimal composition engines and S(t) kernels (Murtagh-Vadhan Theorem 1.5)."""

from .engine import ENGINES, DeltaResult, EpsResult, composed_delta, optcomp
from .structures import METHODS, choose_structure, detect_lattice

__all__ = ["composed_delta", "optcomp", "DeltaResult", "EpsResult", "ENGINES", "METHODS", "choose_structure", "detect_lattice"]
