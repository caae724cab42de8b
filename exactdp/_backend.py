"""The one door to the arithmetic backends (STYLE.md item 5; mpmath's ``libmp/backend.py``).

FLINT (python-flint) provides exact integers, rationals and polynomials (``fmpz``,
``fmpq``, ``fmpz_poly``, ``fmpq_poly``, ``fmpq_mat``) and Arb ball arithmetic (``arb``,
``arb_poly``, complex ``acb`` and ``acb_poly``); gmpy2 provides fast exact integers and rationals (``mpz``, ``mpq``) and
integer roots (``iroot``, ``isqrt``, ``is_square``). No other module of the library
imports ``flint`` or ``gmpy2``: they import the names from here.

Nothing is loaded when this module is imported: each name loads its backend on first
use (PEP 562), so that a command whose kernel needs only rationals never pays for FLINT,
and ``exactdp --help`` pays for neither. NumPy, which only some kernels use (the float
searches of the windowed kernels, meet in the middle's vectors), is the object ``np``
here: a stand-in that imports NumPy at its first attribute (``np.zeros``), so that a
kernel module imports it at the top as usual and a computation that never reaches NumPy
never loads it.

Guarantee: exact (the names are the backends' own objects). Raises: ImportError when a
backend is missing, at the first use of one of its names.
"""

from __future__ import annotations

import importlib
from contextlib import contextmanager
from typing import Any, Iterator

#: public name -> the backend module that provides it
_SOURCE = {
    **{n: "flint" for n in ("acb", "acb_poly", "arb", "arb_poly", "fmpq", "fmpq_mat", "fmpq_poly", "fmpz", "fmpz_poly")},
    **{n: "gmpy2" for n in ("mpq", "mpz", "iroot", "isqrt", "is_square")},
}

__all__ = [*_SOURCE, "FLINT_VERSION", "workprec", "current_prec", "np"]  # noqa: F822 (loaded by __getattr__)


class LazyModule:
    """A module imported at the first use of one of its attributes, then bound to it.

    Each attribute read is copied onto the stand-in, so that later reads are plain
    attribute lookups (no call into the import system in a kernel's inner loop).

    Guarantee: exact (the attributes are the module's own objects). Raises: ImportError
    when the module is missing, at the first attribute read.
    """

    def __init__(self, name: str) -> None:
        self.__dict__["_lazy_name"] = name

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__"):
            raise AttributeError(attr)
        value = getattr(importlib.import_module(self._lazy_name), attr)
        self.__dict__[attr] = value
        return value

    def __repr__(self) -> str:
        return f"<lazy module {self._lazy_name!r}>"


#: NumPy, loaded at its first attribute read
np = LazyModule("numpy")


def __getattr__(name: str) -> Any:
    if name == "FLINT_VERSION":
        value = _flint().__version__
    elif name in _SOURCE:
        value = getattr(importlib.import_module(_SOURCE[name]), name)
    else:
        raise AttributeError(f"module 'exactdp._backend' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


def _flint() -> Any:
    return importlib.import_module("flint")


def current_prec() -> int:
    """The Arb working precision in bits. Guarantee: exact. Raises: nothing."""
    return int(_flint().ctx.prec)


@contextmanager
def workprec(prec: int) -> Iterator[None]:
    """Run a block at Arb working precision ``prec`` bits, restoring the old one.

    Guarantee: exact (sets and restores FLINT's context). Raises: nothing of its own.
    """
    ctx = _flint().ctx
    old = ctx.prec
    ctx.prec = int(prec)
    try:
        yield
    finally:
        ctx.prec = old
