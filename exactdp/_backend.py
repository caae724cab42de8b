"""The one module that talks to the arithmetic backends (STYLE.md item 5).

FLINT (python-flint) provides exact integer polynomials (``fmpz_poly``), exact
rationals (``fmpq``) and Arb ball arithmetic (``arb``); gmpy2 provides fast
exact rationals (``mpq``). Kernels import them from here only.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

import flint
from flint import arb, arb_poly, fmpq, fmpz, fmpz_poly
from gmpy2 import mpq, mpz

__all__ = ["arb", "arb_poly", "fmpq", "fmpz", "fmpz_poly", "mpq", "mpz", "workprec", "current_prec", "FLINT_VERSION"]

FLINT_VERSION = flint.__version__


def current_prec() -> int:
    """The Arb working precision in bits."""
    return int(flint.ctx.prec)


@contextmanager
def workprec(prec: int) -> Iterator[None]:
    """Run a block at Arb working precision ``prec`` bits, restoring the old one."""
    old = flint.ctx.prec
    flint.ctx.prec = int(prec)
    try:
        yield
    finally:
        flint.ctx.prec = old
