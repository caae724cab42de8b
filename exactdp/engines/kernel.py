"""The plug-in type of the S(t) kernels: what a kernel says about itself before it is built.

Each kernel module (:mod:`.lattice`, :mod:`.windowed`, :mod:`.balllattice`,
:mod:`.multiwindow`, :mod:`.grouped`, :mod:`.mitm`) defines one :class:`Kernel` per method
next to the :class:`~.structure.Structure` it builds, with the measured constants of its cost
model; :mod:`.registry` lists them; :mod:`.choose` asks them. A kernel answers, for a
:class:`Request` (the composition's groups, their lattice found once):

* :meth:`Kernel.applies`: ``None``, or the :class:`Reason` it does not apply;
* :meth:`Kernel.estimate`: ``(build, one evaluation)`` :class:`~.costs.Estimate` in an
  arithmetic (``"exact"`` rationals, or ``"arb"`` balls at ``prec`` bits);
* :meth:`Kernel.build`: the :class:`~.structure.Structure` itself.

Guarantee: exact (the decisions are on exact numbers; estimates are approximate upper
estimates, see :mod:`.costs`). Raises: as each method says.
"""

from __future__ import annotations

from typing import NamedTuple, Optional

from .costs import Estimate
from .detect import Groups, detect_lattice_groups, merge_exponents
from .structure import Structure

__all__ = ["Kernel", "Reason", "Request", "APPROX_ALTERNATIVE"]

#: The refusals' pointer to what answers when no exact kernel fits.
APPROX_ALTERNATIVE = ("the approximation of Theorem 1.7 (exactdp approx) or the lattice sandwich "
                      "(exactdp.approx.optcomp_bounds)")


class Reason(NamedTuple):
    """Why a kernel does not apply: what it takes (``allowed``) and what it was given
    (``found``), the two texts of :class:`~exactdp.errors.InvalidArgument`."""

    allowed: str
    found: str


class Request:
    """A composition as the kernels see it: ``groups`` (distinct ``w = e^eps`` with counts),
    ``k`` and, computed once on first use, the common ``lattice`` ``(u, a)`` or ``None``.

    Guarantee: exact. Raises: nothing.
    """

    def __init__(self, groups: Groups):
        self.groups = [(v, int(n)) for v, n in groups]
        self.k = sum(n for _, n in self.groups)
        self._lat: Optional[tuple] = None
        self._lat_done = False

    @property
    def lattice(self):
        """``(u, a)`` with ``w_j = u^(a_j)``, or ``None`` (:func:`~.detect.detect_lattice_groups`)."""
        if not self._lat_done:
            self._lat = detect_lattice_groups([v for v, _ in self.groups])
            self._lat_done = True
        return self._lat

    def set_lattice(self, lat) -> None:
        """Use a lattice already found (the caller's ``lat``)."""
        self._lat, self._lat_done = lat, True

    def exponent_groups(self) -> list[tuple[int, int]]:
        """The lattice's exponent groups ``(a_j, count)``, equal exponents merged (lattice only)."""
        u, a = self.lattice
        return merge_exponents(a, self.groups)

    def degree(self) -> int:
        """``A = sum a_i`` over the mechanisms (lattice only)."""
        u, a = self.lattice
        return sum(ai * n for ai, (_, n) in zip(a, self.groups))

    def all_rational(self) -> bool:
        """Is every ``w`` rational (so the exact arithmetic applies)?"""
        return all(v.exact() is not None for v, _ in self.groups)


class Kernel:
    """One S(t) kernel as a plug-in (see the module docstring).

    Class attributes: ``name`` (the ``method`` string), ``exact`` (does it compute in exact
    rationals itself; ``auto`` asks only these for an exact answer), ``alternative`` (the
    option a refusal names), ``locate_evals`` (the evaluations in balls an OptComp's float
    search makes when the kernel has no float model of its own: ``auto`` adds them to its
    ranking).
    """

    name = "abstract"
    exact = True
    alternative = "method='auto'"
    locate_evals = 0

    def applies(self, req: Request) -> Optional[Reason]:
        """``None`` when the kernel computes this composition, else why not.
        Guarantee: exact. Raises: nothing."""
        return None

    def offered(self, req: Request) -> bool:
        """Does ``auto`` consider this kernel for ``req`` (it applies, within its size limits,
        and is not the same computation as another kernel)? Guarantee: exact. Raises: nothing."""
        return self.applies(req) is None

    def check_size(self, req: Request) -> None:
        """Refuse sizes beyond the kernel's hard limits (before any estimate).

        Raises:
            CostTooHigh: naming the size, the limit and the alternative.
        """

    def estimate(self, req: Request, kind: str = "arb", prec: int = 128) -> tuple[Estimate, Estimate]:
        """``(build, one evaluation)`` of the kernel on ``req`` in ``kind`` (``"exact"`` or
        ``"arb"`` at ``prec`` bits), with the kernel's measured constants.
        Guarantee: approximate (upper estimates). Raises: nothing."""
        raise NotImplementedError

    def describe(self, req: Request) -> str:
        """What is being estimated, for a refusal's text."""
        raise NotImplementedError

    def build(self, req: Request) -> Structure:
        """The kernel for ``req`` (after :meth:`applies`, :meth:`check_size` and the estimate).
        Guarantee: exact. Raises: CostTooHigh only as the kernel's own build does."""
        raise NotImplementedError
