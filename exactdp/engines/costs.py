"""Cost limits and estimates of the exact kernels, in one place.

Every refusal of an exact computation (:class:`~exactdp.errors.CostTooHigh`) is
decided here or from these constants, before any work, with the estimate, the
limit and the faster option as fields. The estimates were measured on the
project's 2-core machine (``benchmarks/``); see ``docs/engines.md``.
"""

from __future__ import annotations

from typing import Optional

from ..errors import CostTooHigh

__all__ = [
    "MAX_BRUTE_K",
    "MAX_MITM_K",
    "MAX_LATTICE_A",
    "MAX_AUTO_COST",
    "MAX_LATTICE_BITS",
    "MAX_SUM_EPS",
    "MAX_DEGREE",
    "MAX_POLY_BITS",
    "MAX_PROOF_SECONDS",
    "MAX_EXPONENT",
    "lattice_bits",
    "lattice_refusal",
    "poly_cost",
    "check_poly_cost",
    "fmt",
]

#: Explicit requests above these sizes are refused (CostTooHigh) with the estimate.
MAX_BRUTE_K = 26
MAX_MITM_K = 50
MAX_LATTICE_A = 20_000_000
#: auto never picks a method whose estimated cost per evaluation exceeds this.
MAX_AUTO_COST = 2**31
#: The exact count polynomial's coefficients (A + 1 integers of up to about k bits
#: each: binomials for the homogeneous case) are refused beyond this many bits (2 GiB).
MAX_LATTICE_BITS = 2**34
#: OptComp refuses sum(eps_i) above this (its search is over t = e^eps_g as a rational).
MAX_SUM_EPS = 100_000

#: Theorem 1.7 and the sandwich: largest lattice degree A = sum a_i accepted.
MAX_DEGREE = 20_000_000
#: Largest ``k * A`` accepted for the approximation's count polynomial ``prod (1 + z^{a_i})``:
#: A + 1 coefficients of up to k bits each, and the product tree holds several such
#: polynomials. Measured (benchmarks/bench_approx.py, 2 cores): k = 1000,
#: A = 977,594 took 6.3 s and 1.0 GB; k = 1000, A ~ 10^7 about 90 s and 10 GB.
MAX_POLY_BITS = 2_000_000_000
POLY_BYTES_PER_BIT = 1.0  # measured: ~1 byte of peak memory per coefficient bit (k * A)
POLY_SECONDS_PER_BIT = 7e-9  # measured: 6.3 s / (1000 * 977,594)
#: The proof's form of Theorem 1.7 (Lemma 5.2 tables inside a binary search) is refused
#: when its estimated time exceeds this many seconds; the fast form gives the same eps*.
MAX_PROOF_SECONDS = 600.0
PROOF_SECONDS_PER_CELL = 5e-8  # measured: 14.6 min / 1.72e10 cells at k = 1000 (bench_approx)
#: Largest single lattice exponent a_i considered (beyond it the exact floor decision
#: itself would explode: it compares u^{a_i} with w_i).
MAX_EXPONENT = 2**62


def fmt(n: float) -> str:
    """A cost in three significant digits. Guarantee: approximate. Raises: nothing."""
    return f"{n:.3g}"


def lattice_bits(A: int, nonzero: int) -> float:
    """Estimated size in bits of the coefficients of ``prod (1 + z^{a_i})``: at most
    ``A + 1`` coefficients, each at most ``2^nonzero`` (``nonzero`` = number of ``a_i > 0``).
    Guarantee: approximate (an upper estimate). Raises: nothing."""
    return float(A + 1) * max(1, nonzero)


def lattice_refusal(A: int, nonzero: int) -> Optional[str]:
    """Why the exact count polynomial is refused (its size), or None when it fits.
    Guarantee: exact decision on the estimate. Raises: nothing."""
    bits = lattice_bits(A, nonzero)
    if bits <= MAX_LATTICE_BITS:
        return None
    return (f"the exact count polynomial would hold {A + 1} coefficients of up to {nonzero} bits "
            f"(about {fmt(bits / 8 / 2 ** 30)} GiB; limit {MAX_LATTICE_BITS // 8 // 2 ** 30} GiB)")


def poly_cost(k: int, A: int) -> tuple[float, float]:
    """Estimated (bytes, seconds) of the approximation's count polynomial of degree A over k
    mechanisms. Guarantee: approximate (measured rates). Raises: nothing."""
    bits = float(k) * float(A)
    return bits * POLY_BYTES_PER_BIT, bits * POLY_SECONDS_PER_BIT


def check_poly_cost(k: int, A: float, parameter: str, hint: str = "use a larger eta (a coarser lattice)") -> None:
    """Refuse a count polynomial over the degree or size limits, with the estimate.

    Guarantee: exact decision on the estimate.

    Raises:
        CostTooHigh: ``A > MAX_DEGREE`` or ``k * A > MAX_POLY_BITS``.
    """
    mem, sec = poly_cost(k, int(A))
    if A > MAX_DEGREE or k * A > MAX_POLY_BITS:
        raise CostTooHigh(
            parameter,
            f"the lattice count polynomial would have degree A = sum a_i = {A:.3g} with coefficients of up to k = {k} bits "
            f"(limits: A <= {MAX_DEGREE:.3g}, k*A <= {MAX_POLY_BITS:.3g}); estimated {mem / 1e9:.3g} GB and {sec:.3g} s; {hint}",
            estimate={"bytes": mem, "seconds": sec, "degree": A}, limit={"degree": MAX_DEGREE, "k*A": MAX_POLY_BITS},
            alternative=hint,
        )
