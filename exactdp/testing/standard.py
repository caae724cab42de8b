"""Standard cases for :func:`exactdp.testing.check_accountant`, and the float view of a composition.

Every number in the standard cases is a binary float (``0.1`` is the float 0.1,
``3602879701896397/2^55`` exactly), so an accountant that works in floats receives
exactly the mechanisms and queries it is checked on: nothing is lost in ``float()``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Optional

from ..errors import InvalidArgument
from ..events import Composition, Mechanism, as_composition
from ..numbers import parse_choice
from .case import DIRECTIONS, Case

__all__ = ["standard_cases", "float_groups", "is_float_exact", "GRIDS"]

GRIDS = ("small", "medium")


def is_float_exact(x: Fraction) -> bool:
    """Is the rational ``x`` exactly a (finite) binary64 float? Guarantee: exact decision. Raises: nothing."""
    try:
        f = float(x)
    except OverflowError:
        return False
    return math.isfinite(f) and Fraction(f) == x


def float_groups(composition: object) -> list[tuple[float, float, int]]:
    """The composition as ``(eps, delta, count)`` triples of floats, one per distinct mechanism
    (in order of first appearance), for handing to a float accountant.

    Guarantee: exact (every float *is* the mechanism's eps / delta).

    Raises:
        InvalidArgument: a mechanism whose eps is irrational (given by ``exp_eps``) or whose eps
            or delta is not exactly a binary float (e.g. ``eps="0.1"``, which is 1/10).

    Examples:
        >>> from exactdp import mechanisms
        >>> float_groups(mechanisms(eps=[0.1, 0.25], delta=1e-6, k=3))
        [(0.1, 1e-06, 3), (0.25, 1e-06, 3)]
    """
    out = []
    for i, (m, n) in enumerate(as_composition(composition).groups()):
        e = m.eps
        if e is None:
            raise InvalidArgument(f"mechanisms[{i}]", "a mechanism given by a rational eps (float view)", m)
        if not (is_float_exact(e) and is_float_exact(m.delta)):
            raise InvalidArgument(f"mechanisms[{i}]", "eps and delta that are exactly binary floats "
                                  "(e.g. eps=0.1 the float, not eps='0.1' = 1/10)", m)
        out.append((float(e), float(m.delta), n))
    return out


def _comp(eps: list, delta: object = 0.0, k: int = 1) -> Composition:
    ds = delta if isinstance(delta, list) else [delta] * len(eps)
    return Composition([(Mechanism(eps=e, delta=d), k) for e, d in zip(eps, ds)]) if len(eps) > 1 else \
        Composition([(Mechanism(eps=eps[0], delta=ds[0]), k)])


def standard_cases(direction: str = "epsilon", grid: str = "small", *, max_k: Optional[int] = None) -> list[Case]:
    """The standard cases of a direction: pure and approximate DP, homogeneous and heterogeneous
    (a lattice and an incommensurable mix, some with delta_i > 0), k from 1 to 1000 (``"small"``,
    about 30 cases, a few seconds) or to 10^4 (``"medium"``); cases with an infinite optimum and
    a tie (delta_g = 1 - prod(1 - delta_i)) are included.

    Guarantee: exact (the cases; every number a binary float).

    Raises:
        InvalidArgument: an unknown direction or grid.

    Examples:
        >>> cs = standard_cases("epsilon")
        >>> len(cs) >= 30, all(c.direction == "epsilon" for c in cs)
        (True, True)
    """
    parse_choice(direction, "direction", DIRECTIONS)
    parse_choice(grid, "grid", GRIDS)
    ks = [1, 10, 100, 1000] + ([10_000] if grid == "medium" else [])
    if max_k is not None:
        ks = [k for k in ks if k <= max_k]
    queries = [1e-6, 1e-3] if direction == "epsilon" else [0.5, 2.0]
    out: list[Case] = []

    def add(label: str, comp: Composition, qs: list) -> None:
        for q in qs:
            out.append(Case.of(comp, q, direction, label))

    for eps in (0.1, 1.0):
        for k in ks:
            add("pure, homogeneous", _comp([eps], 0.0, k), queries)
    for k in [k for k in (1, 10, 100) if k in ks or k <= max(ks)]:
        qs = queries if direction == "delta" else [1e-6, 1e-3]  # k = 1, 1e-6: the tie 1 - (1 - delta)
        add("approximate, homogeneous", _comp([0.5], 1e-6, k), qs)
    for k in (1, 10, 30):
        add("pure, heterogeneous lattice", _comp([0.1, 0.2, 0.4], 0.0, k), queries)
    for k in (1, 4):
        qs = [1e-5, 1e-3] if direction == "epsilon" else queries
        add("approximate, heterogeneous", _comp([0.1, 0.3, 0.7], [0.0, 1e-7, 1e-6], k), qs)
    if direction == "delta":
        add("pure, eps_g = 0", _comp([0.1], 0.0, 10), [0.0])
    return out
