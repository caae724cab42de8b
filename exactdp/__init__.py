"""exactdp: exact and certified optimal composition of differential privacy.

Murtagh-Vadhan, "The Complexity of Computing the Optimal Composition of
Differential Privacy" (TCC 2016), Theorem 1.5, computed exactly in rational
arithmetic or as rigorous Arb enclosures; see ``docs/engines.md``.
"""

from .errors import CostTooHigh, ExactDPError, InvalidArgument, NotExact, PrecisionError
from .mechanisms import Mechanism, mechanisms
from .numbers import Computable, ExpNum, RatExp, Root, parse_rational
from .optcomp import DeltaResult, EpsResult, composed_delta, optcomp

__version__ = "0.1.0"

__all__ = [
    "Mechanism",
    "mechanisms",
    "composed_delta",
    "optcomp",
    "DeltaResult",
    "EpsResult",
    "ExpNum",
    "RatExp",
    "Root",
    "Computable",
    "parse_rational",
    "ExactDPError",
    "InvalidArgument",
    "NotExact",
    "CostTooHigh",
    "PrecisionError",
]
