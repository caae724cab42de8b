"""The brute-force kernel: every one of the ``2^k`` subsets, the reference form of
Murtagh-Vadhan Theorem 1.5 (the grouped kernel with one group per mechanism).

Guarantee: exact in the exact field, an enclosure in Arb balls.
"""

from __future__ import annotations

from ..errors import CostTooHigh
from ..numbers import pow2_text
from .costs import EVALS_DELTA, MAX_BRUTE_K, Estimate, current_limits
from .grouped import Grouped, grouped_estimate
from .kernel import Kernel, Request
from .mitm import MITM_KERNEL
from .structure import Structure

__all__ = ["BRUTE"]


class BruteKernel(Kernel):
    """Every subset (explicit requests up to :data:`~.costs.MAX_BRUTE_K` mechanisms)."""

    name = "brute"

    def offered(self, req: Request) -> bool:
        # the grouped kernel is the same sum when some value repeats
        return len(req.groups) == req.k and req.k <= 60

    def check_size(self, req: Request) -> None:
        k = req.k
        if k <= MAX_BRUTE_K:
            return
        bm, em = MITM_KERNEL.estimate(req)
        tm = bm.then(em, EVALS_DELTA)
        sec_lim, mem_lim = current_limits()
        alt = (f"method='mitm' ({tm.text()}) or 'auto'; for compositions too large for every exact method, "
               "the approximation (exactdp approx)" if tm.seconds <= sec_lim and tm.bytes <= mem_lim
               else "method='auto' (lattice or homogeneous for rational eps) or the approximation (exactdp approx)")
        raise CostTooHigh(
            "method",
            f"brute force over 2^{k} = {pow2_text(k)} subsets is refused (limit k <= {MAX_BRUTE_K}); use " + alt,
            estimate=f"2^{k} subsets", limit=f"k <= {MAX_BRUTE_K}", alternative=alt,
        )

    def estimate(self, req: Request, kind: str = "arb", prec: int = 128) -> tuple[Estimate, Estimate]:
        return grouped_estimate([(v, 1) for v, n in req.groups for _ in range(n)], kind, prec)

    def describe(self, req: Request) -> str:
        return f"brute force over 2^{req.k} subsets"

    def build(self, req: Request) -> Structure:
        return Grouped([(v, 1) for v, n in req.groups for _ in range(n)], "brute")


BRUTE = BruteKernel()
