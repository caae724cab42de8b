"""The registry of S(t) kernels: one line per kernel (``docs/architecture.md``, "A new kernel").

The order is the order of :data:`METHODS` (after ``"auto"``), the command line's choices,
and breaks ties between equal estimates. Guarantee: exact. Raises: nothing.
"""

from __future__ import annotations

from .balllattice import LATTICE_BALLS
from .brute import BRUTE
from .contour import LATTICE_CONTOUR
from .grouped import GROUPED
from .kernel import Kernel
from .lattice import HOMOGENEOUS, LATTICE
from .mitm import MITM_KERNEL
from .multiwindow import WINDOWED_GROUPS
from .windowed import WINDOWED

__all__ = ["KERNELS", "METHODS", "kernel"]

#: Every kernel, by name.
KERNELS: dict[str, Kernel] = {k.name: k for k in (
    HOMOGENEOUS,
    WINDOWED,
    LATTICE,
    LATTICE_BALLS,
    LATTICE_CONTOUR,
    WINDOWED_GROUPS,
    GROUPED,
    MITM_KERNEL,
    BRUTE,
)}

#: The values of ``method``: ``"auto"`` and every kernel's name.
METHODS = ("auto", *KERNELS)


def kernel(name: str) -> Kernel:
    """The kernel called ``name``. Guarantee: exact. Raises: KeyError for an unknown name."""
    return KERNELS[name]
