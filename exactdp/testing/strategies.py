"""Hypothesis strategies for compositions and queries, to test an accountant against exactdp.

Every number drawn is a binary float (eps, delta, the query) or a dyadic rational that
is one (the lattice's eps_i = a_i * j / 2^m), so ``float()`` hands an accountant exactly
the composition it is checked on (:func:`exactdp.testing.float_groups`). Sizes are
bounded so that the optimum of any drawn case is computed in well under a second.

Use::

    from hypothesis import given
    from exactdp.testing import cases, assert_sound

    @given(cases("epsilon"))
    def test_my_accountant_is_sound(case):
        assert_sound(my_accountant, [case])

Needs ``hypothesis`` (``pip install hypothesis``; exactdp's ``test`` extra has it).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Optional, Sequence

try:
    from hypothesis import strategies as st
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError("exactdp.testing's strategies need Hypothesis: pip install hypothesis") from e

from ..events import Composition, Mechanism
from ..numbers import parse_choice
from .check import DIRECTIONS, Case

__all__ = ["eps_values", "delta_values", "mechanisms_st", "homogeneous", "heterogeneous", "lattice", "compositions",
           "mechanism_lists", "delta_g_values", "eps_g_values", "cases", "KINDS"]

KINDS = ("homogeneous", "heterogeneous", "lattice")


def eps_values(min_value: float = 0.0, max_value: float = 2.0) -> st.SearchStrategy[float]:
    """Floats in ``[min_value, max_value]`` for an eps_i. Guarantee: exact (floats). Raises: nothing."""
    return st.floats(min_value=min_value, max_value=max_value, allow_nan=False, allow_infinity=False)


def delta_values(max_value: float = 1e-3, *, allow_zero: bool = True) -> st.SearchStrategy[float]:
    """Floats in ``(0, max_value]`` (or 0) for a delta_i. Guarantee: exact (floats). Raises: nothing."""
    pos = st.floats(min_value=1e-12, max_value=max_value, allow_nan=False)
    return st.one_of(st.just(0.0), pos) if allow_zero else pos


def _deltas(with_delta: Optional[bool]) -> st.SearchStrategy[float]:
    if with_delta is False:
        return st.just(0.0)
    return delta_values(allow_zero=with_delta is None)


def mechanisms_st(eps: Optional[st.SearchStrategy] = None, *, with_delta: Optional[bool] = False) -> st.SearchStrategy[Mechanism]:
    """One :class:`~exactdp.Mechanism` (eps from ``eps``, delta as ``with_delta``: False 0, True > 0,
    None either). Guarantee: exact. Raises: nothing.

    Examples:
        >>> from hypothesis import find
        >>> find(mechanisms_st(with_delta=True), lambda m: True).delta > 0
        True
    """
    return st.builds(lambda e, d: Mechanism(eps=e, delta=d), eps if eps is not None else eps_values(), _deltas(with_delta))


def homogeneous(*, max_k: int = 1000, with_delta: Optional[bool] = False,
                eps: Optional[st.SearchStrategy] = None) -> st.SearchStrategy[Composition]:
    """``k`` copies of one mechanism, ``1 <= k <= max_k``. Guarantee: exact. Raises: nothing."""
    return st.builds(lambda m, k: Composition([(m, k)]), mechanisms_st(eps if eps is not None else eps_values(0.0, 1.0),
                                                                        with_delta=with_delta),
                     st.integers(min_value=1, max_value=max_k))


def lattice(*, max_distinct: int = 3, max_count: int = 20, max_multiple: int = 8,
            with_delta: Optional[bool] = False) -> st.SearchStrategy[Composition]:
    """Mechanisms with ``eps_i = a_i * j / 64`` (a common base ``j/64``, ``a_i <= max_multiple``):
    the lattice kernel's case; every eps_i is a float. Guarantee: exact. Raises: nothing."""

    @st.composite
    def build(draw) -> Composition:
        j = draw(st.integers(min_value=1, max_value=32))
        n = draw(st.integers(min_value=1, max_value=max_distinct))
        parts = []
        for _ in range(n):
            a = draw(st.integers(min_value=1, max_value=max_multiple))
            d = draw(_deltas(with_delta))
            parts.append((Mechanism(eps=Fraction(a * j, 64), delta=d), draw(st.integers(min_value=1, max_value=max_count))))
        return Composition(parts)

    return build()


def heterogeneous(*, max_distinct: int = 4, max_k: int = 12, with_delta: Optional[bool] = False) -> st.SearchStrategy[Composition]:
    """Mechanisms with arbitrary (generally incommensurable) float eps_i, ``k <= max_k`` in all.
    Guarantee: exact. Raises: nothing."""

    @st.composite
    def build(draw) -> Composition:
        k = draw(st.integers(min_value=1, max_value=max_k))
        n = draw(st.integers(min_value=1, max_value=min(max_distinct, k)))
        ms = [draw(mechanisms_st(eps_values(0.0, 1.5), with_delta=with_delta)) for _ in range(n)]
        cuts = sorted(draw(st.lists(st.integers(min_value=1, max_value=k - 1), min_size=n - 1, max_size=n - 1,
                                    unique=True))) if n > 1 else []
        counts = [b - a for a, b in zip([0] + cuts, cuts + [k])]
        return Composition(list(zip(ms, counts)))

    return build()


def compositions(*, kinds: Sequence[str] = KINDS, with_delta: Optional[bool] = None) -> st.SearchStrategy[Composition]:
    """Any of the ``kinds`` (``homogeneous``, ``heterogeneous``, ``lattice``). Guarantee: exact.

    Raises:
        InvalidArgument: an unknown kind (when the strategy is built).
    """
    table = {"homogeneous": lambda: homogeneous(with_delta=with_delta),
             "heterogeneous": lambda: heterogeneous(with_delta=with_delta),
             "lattice": lambda: lattice(with_delta=with_delta)}
    for k in kinds:
        parse_choice(k, "kinds", KINDS)
    return st.one_of([table[k]() for k in kinds])


def mechanism_lists(**kw) -> st.SearchStrategy[list]:
    """:func:`compositions` as plain lists of :class:`~exactdp.Mechanism` (k at most 200).
    Guarantee: exact. Raises: nothing."""
    return compositions(**kw).filter(lambda c: c.k <= 200).map(list)


def delta_g_values(min_value: float = 1e-10, max_value: float = 0.5) -> st.SearchStrategy[float]:
    """Floats for a global delta. Guarantee: exact (floats). Raises: nothing."""
    return st.floats(min_value=min_value, max_value=max_value, allow_nan=False)


def eps_g_values(min_value: float = 0.0, max_value: float = 10.0) -> st.SearchStrategy[float]:
    """Floats for a global eps. Guarantee: exact (floats). Raises: nothing."""
    return st.floats(min_value=min_value, max_value=max_value, allow_nan=False)


def cases(direction: str = "epsilon", composition: Optional[st.SearchStrategy] = None,
          query: Optional[st.SearchStrategy] = None) -> st.SearchStrategy[Case]:
    """:class:`~exactdp.testing.Case` objects of a direction (composition and query drawn).

    Guarantee: exact. Raises: InvalidArgument (bad direction, when built).

    Examples:
        >>> from hypothesis import find
        >>> c = find(cases("delta"), lambda c: c.composition.k > 1)
        >>> c.direction, c.composition.k
        ('delta', 2)
    """
    parse_choice(direction, "direction", DIRECTIONS)
    comp = composition if composition is not None else compositions()
    q = query if query is not None else (delta_g_values() if direction == "epsilon" else eps_g_values())
    return st.builds(lambda c, v: Case.of(c, v, direction), comp, q)
