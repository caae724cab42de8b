"""Proof links: library functions name the published statements they implement (STYLE.md item 8).

``@implements("Murtagh-Vadhan Theorem 1.5")`` on a function records, in a registry,
that the function computes what that numbered statement says. The statement is
named as ``"<Paper> <Kind> <number>"`` with the paper one of :data:`PAPERS`; its
check lives in ``proofs/<paper>/`` (the package ``exactdp_proofs``). A test fails
when a linked statement has no settled check there, and ``exactdp proofs`` lists,
per statement, the functions that implement it.

This module imports nothing from exactdp (the bottom layer), so every layer may use it.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from typing import Callable, TypeVar

__all__ = ["PAPERS", "implements", "links", "statement_of", "parse_link"]

#: Paper names used in links -> the proofs/ subpackage holding their checks.
PAPERS = {
    "Murtagh-Vadhan": "murtagh_vadhan",
    "Kairouz-Oh-Viswanath": "kairouz_oh_viswanath",
    "Vadhan-Wang": "vadhan_wang",
    "Vadhan-Zhang": "vadhan_zhang",
    "Smith-Thakurta": "smith_thakurta",
    "Accounting": "accounting",
}

_LINK = re.compile(r"^(" + "|".join(map(re.escape, PAPERS)) + r") (.+)$")

_REGISTRY: dict[str, list[str]] = {}

F = TypeVar("F", bound=Callable)


def parse_link(text: str) -> tuple[str, str]:
    """``"Murtagh-Vadhan Theorem 1.5"`` -> ``("murtagh_vadhan", "Theorem 1.5")``.

    Guarantee: exact. Raises: ValueError for an unknown paper (a programming error,
    caught by the tests).
    """
    m = _LINK.match(text)
    if m is None:
        raise ValueError(f"proof link {text!r}: expected '<paper> <statement>' with the paper one of {sorted(PAPERS)}")
    return PAPERS[m.group(1)], m.group(2)


def implements(*statements: str) -> Callable[[F], F]:
    """Decorator: the function implements the numbered ``statements`` (see the module docstring).

    Guarantee: exact (records the link; the function is returned unchanged, with
    ``__implements__`` set). Raises: ValueError for a malformed statement name.
    """
    for s in statements:
        parse_link(s)

    def deco(fn: F) -> F:
        name = f"{fn.__module__}.{fn.__qualname__}"
        for s in statements:
            lst = _REGISTRY.setdefault(s, [])
            if name not in lst:
                lst.append(name)
        fn.__implements__ = tuple(statements)  # type: ignore[attr-defined]
        return fn

    return deco


def links(*, load: bool = True) -> dict[str, list[str]]:
    """Every link: statement -> the dotted names of the functions implementing it.

    ``load`` imports every module of exactdp first (so every decorator has run).
    Guarantee: exact. Raises: nothing (a module that fails to import raises its own error).
    """
    if load:
        import exactdp

        for info in pkgutil.walk_packages(exactdp.__path__, "exactdp."):
            if ".cli" in info.name or info.name.endswith("__main__"):
                continue
            importlib.import_module(info.name)
    return {k: sorted(v) for k, v in sorted(_REGISTRY.items())}


def statement_of(fn: Callable) -> tuple[str, ...]:
    """The statements ``fn`` is linked to (empty when none). Guarantee: exact. Raises: nothing."""
    return tuple(getattr(fn, "__implements__", ()))
