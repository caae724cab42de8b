"""The four counting problems of Murtagh-Vadhan Section 4, with exact brute-force solvers.

* :class:`IntPartition` (Definition 4.5): positive integers ``z_1..z_k``; count
  ``P subset of [k]`` with ``prod_P z_i = prod_notP z_i``.
* :class:`Partition` (Definition 4.6): ``w_i = n_i^(1/D)`` in ``[1, e]``; count
  ``P`` with ``prod_P w_i = prod_notP w_i``.
* :class:`TPartition` (Definition 4.7): the same ``w_i`` and a real ``T > 0``;
  count ``P`` with ``prod_P w_i - prod_notP w_i = T``.
* :class:`SumPartition` (Definition 4.8): the same ``w_i`` and a real ``r > 1``;
  the value ``sum_P max(prod_P w_i - r prod_notP w_i, 0)``.

Every ``P subset of [k]`` counts, including the empty set and ``[k]`` itself.
Products of D-th roots are compared exactly through their D-th powers
(``prod_P w_i = (prod_P n_i)^(1/D)``, an integer under the root); ``T`` is an
exact :class:`~exactdp.reductions.radicals.RadicalSum`. The brute-force solvers
enumerate all ``2^k`` subsets and are refused (``CostTooHigh``, an
``InvalidArgument``) above :data:`BRUTE_FORCE_MAX_K`.

Guarantee: instances are validated eagerly and immutable; brute-force counts are
exact; the SUM-PARTITION brute force is an enclosure.

References: Murtagh-Vadhan, "The Complexity of Computing the Optimal
Composition of Differential Privacy" (TCC 2016), Definitions 4.5-4.8.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from typing import Callable, Iterable, Optional, Sequence

from .._backend import arb, workprec
from ..engines.costs import Estimate, check_estimate
from ..errors import CostTooHigh, InvalidArgument, PrecisionError
from ..numbers import Computable, ExpNum, RatExp, Root, log_sign_of_product, parse_rational, pow2_text, refine
from .radicals import RadicalSum, as_radical_sum

__all__ = [
    "BRUTE_FORCE_MAX_K",
    "T_PARTITION_MAX_K",
    "SUM_PARTITION_MAX_K",
    "IntPartition",
    "Partition",
    "TPartition",
    "SumPartition",
    "LazyReal",
    "subset_products",
    "sum_brute_force_estimate",
]

#: Brute force over more than 2^BRUTE_FORCE_MAX_K subsets is refused (the
#: integer counts: #INT-PARTITION, #PARTITION; all 2^k products are kept in memory).
BRUTE_FORCE_MAX_K = 22

#: The same bound for the problems whose brute force does Arb work per subset
#: product: #T-PARTITION (a ball test per product) and #SUM-PARTITION (D-th
#: roots at the working precision, and the chain's checks run it up to 8 times).
T_PARTITION_MAX_K = 20
SUM_PARTITION_MAX_K = 18

#: Measured orders of magnitude (subsets per second, 2 shared cores, k = 16,
#: D = 130): integer counts 6.6e6, #T-PARTITION 5.2e5, #SUM-PARTITION at 250
#: bits 3.6e5; rounded down for the estimates printed with a refusal.
SUBSETS_PER_SECOND = 5.0e6
_REAL_SUBSETS_PER_SECOND = 2.5e5
#: #SUM-PARTITION by brute force costs per subset product two D-th roots at the working precision:
#: measured 16, 52, 176 and 415 us per subset at 250, 1000, 2000 and 4000 bits (k = 12 and 14,
#: 60-bit n_i, D = 1430-1670, 2 shared cores); charged 10 us + 0.12 us per bit (40, 130, 250, 490).
SUM_BF_SECONDS = 1e-5
SUM_BF_SECONDS_PER_BIT = 1.2e-7


def sum_brute_force_estimate(k: int, prec: int) -> Estimate:
    """Time and peak memory of :meth:`SumPartition.brute_force` over ``2^k`` subsets at ``prec``
    bits (the subset products held: about 100 bytes each). Guarantee: approximate (measured
    rates, rounded up). Raises: nothing."""
    n = 2.0**k
    return Estimate(n * (SUM_BF_SECONDS + SUM_BF_SECONDS_PER_BIT * prec), n * 100.0 + 2**22)


def _positive_ints(values: object, name: str) -> tuple[int, ...]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise InvalidArgument(name, "a non-empty sequence of positive integers", values)
    out = []
    for v in values:
        q = parse_rational(v, name, expected="a positive integer")
        if q.denominator != 1 or q <= 0:
            raise InvalidArgument(name, "a sequence of positive integers", v)
        out.append(int(q))
    if not out:
        raise InvalidArgument(name, "a non-empty sequence of positive integers", "an empty sequence")
    return tuple(out)


def _positive_D(D: object) -> int:
    if isinstance(D, bool) or not isinstance(D, int) or D < 1:
        raise InvalidArgument("D", "a positive integer (the root index)", D)
    return D


def _root_at_most_e(n: int, D: int) -> bool:
    """``n^(1/D) <= e`` (exact: ``e^D`` is transcendental, so never equal)."""
    if n.bit_length() < D:  # n < 2^D < e^D
        return True
    def step(prec: int) -> Optional[bool]:
        with workprec(prec):
            d = arb(n).log() - D
            return True if d < 0 else False if d > 0 else None

    return refine(step, what=f"whether {n}^(1/{D}) <= e")


def _check_roots(D: int, ns: tuple[int, ...]) -> None:
    for n in ns:
        if not _root_at_most_e(n, D):
            raise InvalidArgument(
                "w",
                "D-th roots of positive integers in [1, e] (Murtagh-Vadhan Definitions 4.6-4.8)",
                f"{n}^(1/{D}) > e",
                hint="use a larger D",
            )


def _check_size(k: int, limit: object, rate: float = SUBSETS_PER_SECOND) -> None:
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
        raise InvalidArgument("limit", "an integer >= 0 (the largest k brute-forced)", limit)
    if k > limit:
        raise CostTooHigh(
            "k",
            f"brute force over 2^{k} = {pow2_text(k)} subsets is refused (limit k <= {limit}; "
            f"estimated {pow2_text(k, 1 / rate)} s at about {rate:.1e} subsets/s)",
        )


def _count_balanced_products(n: Sequence[int]) -> int:
    """Subsets P with ``prod_P n_i = prod_notP n_i``, by enumeration (#INT-PARTITION,
    and #PARTITION with ``w_i = n_i^(1/D)``). Guarantee: exact."""
    prods = subset_products(n)
    full = len(prods) - 1
    return sum(1 for m in range(len(prods)) if prods[m] == prods[full ^ m])


def subset_products(ns: Sequence[int]) -> list[int]:
    """``prods[mask] = prod_{i in mask} ns[i]`` for every ``mask`` in ``[0, 2^k)``.

    Guarantee: exact (integer products). Bit ``i`` of ``mask`` is element ``i``;
    the complement of ``mask`` is ``mask ^ (2^k - 1)``. Memory: ``2^k`` integers
    (callers bound k first).

    Raises:
        Nothing of its own (integers in, integers out).

    Examples:
        >>> subset_products([2, 3])
        [1, 2, 3, 6]

    References: Murtagh-Vadhan Definitions 4.5-4.8 (the brute-force solvers).
    """
    prods = [1]
    for n in ns:
        prods = prods + [p * n for p in prods]
    return prods


class _Instance:
    __slots__ = ()

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is immutable")

    @property
    def k(self) -> int:
        return len(self.n)  # type: ignore[attr-defined]


class IntPartition(_Instance):
    """#INT-PARTITION (Murtagh-Vadhan Definition 4.5): ``Z = (z_1, ..., z_k)`` positive integers.

    The answer is the number of ``P subset of [k]`` with
    ``prod_{i in P} z_i - prod_{i not in P} z_i = 0`` (``P = empty`` and ``P = [k]``
    included; ``Z`` is indexed, so equal values are distinct elements).

    Guarantee: exact (validated, immutable).

    Raises:
        InvalidArgument: an empty sequence or a value that is not a positive integer.

    Examples:
        >>> IntPartition([2, 3, 6]).count_brute_force()   # {3,2} vs {6}: P = {0,1} and P = {2}
        2
        >>> IntPartition([1, 1]).count_brute_force()       # every P: 1 = 1
        4

    References: Murtagh-Vadhan Definition 4.5 (#P-complete: Ehrgott 2000).
    """

    __slots__ = ("n",)
    max_k = BRUTE_FORCE_MAX_K

    def __init__(self, z: Iterable[object]):
        object.__setattr__(self, "n", _positive_ints(z, "Z"))

    @property
    def z(self) -> tuple[int, ...]:
        """The integers ``z_1..z_k``. Guarantee: exact. Raises: nothing."""
        return self.n

    def product(self) -> int:
        """``prod z_i``. Guarantee: exact. Raises: nothing."""
        return math.prod(self.n)

    def count_brute_force(self, *, limit: int = BRUTE_FORCE_MAX_K) -> int:
        """The count, by enumerating all ``2^k`` subsets. Guarantee: exact.

        Raises:
            CostTooHigh: ``k > limit`` (with the estimate).
            InvalidArgument: ``limit`` not an integer >= 0.
        """
        _check_size(self.k, limit)
        return _count_balanced_products(self.n)

    def to_dict(self) -> dict:
        """JSON-serialisable description. Guarantee: exact. Raises: nothing."""
        return {"problem": "#INT-PARTITION", "Z": list(self.n), "k": self.k}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, IntPartition) and self.n == other.n

    def __hash__(self) -> int:
        return hash((IntPartition, self.n))

    def __repr__(self) -> str:
        return f"IntPartition({list(self.n)})"


class _RootInstance(_Instance):
    """Common part: ``w_i = n_i^(1/D)`` in ``[1, e]``."""

    __slots__ = ("D", "n")

    def _init_roots(self, D: object, n: Iterable[object]) -> None:
        D = _positive_D(D)
        ns = _positive_ints(n, "W")
        _check_roots(D, ns)
        object.__setattr__(self, "D", D)
        object.__setattr__(self, "n", ns)

    @property
    def w(self) -> tuple[Root, ...]:
        """The ``w_i`` as exact :class:`~exactdp.numbers.Root` numbers.

        Equal ``n_i`` share one Root object: the engine groups equal ``w_i``
        through dict lookups, which then settle by identity instead of
        ``Root.__eq__`` (it compares ``n^D'`` with ``n'^D``: huge for large
        ``n`` and ``D``).
        """
        roots: dict[int, Root] = {}
        return tuple(roots.setdefault(x, Root(x, self.D)) for x in self.n)

    def product_n(self) -> int:
        """``N = prod n_i``, so that ``prod w_i = N^(1/D)``."""
        return math.prod(self.n)

    def _roots_dict(self) -> dict:
        W = [str(x) if self.D == 1 else f"{x}^(1/{self.D})" for x in self.n]
        return {"D": self.D, "W": W, "n": list(self.n), "k": self.k}


class Partition(_RootInstance):
    """#PARTITION (Murtagh-Vadhan Definition 4.6): ``w_i = n_i^(1/D)`` in ``[1, e]``.

    The answer is the number of ``P subset of [k]`` with
    ``prod_{i in P} w_i = prod_{i not in P} w_i``, decided exactly as
    ``prod_P n_i = prod_notP n_i`` (D-th powers of both sides).

    Guarantee: exact.

    Raises:
        InvalidArgument: ``D`` not a positive integer, an ``n_i`` not a positive
            integer, or ``n_i^(1/D) > e``.

    Examples:
        >>> Partition(4, [2, 3, 6]).count_brute_force()   # 6^(1/4) = 1.565... <= e
        2

    References: Murtagh-Vadhan Definition 4.6.
    """

    __slots__ = ()
    max_k = BRUTE_FORCE_MAX_K

    def __init__(self, D: int, n: Iterable[object]):
        self._init_roots(D, n)

    def count_brute_force(self, *, limit: int = BRUTE_FORCE_MAX_K) -> int:
        """The count over all ``2^k`` subsets. Guarantee: exact.

        Raises:
            CostTooHigh: ``k > limit`` (with the estimate).
            InvalidArgument: ``limit`` not an integer >= 0.
        """
        _check_size(self.k, limit)
        return _count_balanced_products(self.n)

    def to_dict(self) -> dict:
        """JSON-serialisable description. Guarantee: exact. Raises: nothing."""
        return {"problem": "#PARTITION", **self._roots_dict()}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Partition) and (self.D, self.n) == (other.D, other.n)

    def __hash__(self) -> int:
        return hash((Partition, self.D, self.n))

    def __repr__(self) -> str:
        return f"Partition(D={self.D}, n={list(self.n)})"


def gap_value(a: Fraction, N: int, D: int) -> RadicalSum:
    """``a^(1/D) - (N/a)^(1/D)``: the gap of a partition with ``prod_P n_i = a``. Guarantee: exact.

    For ``P subset of [k]`` with ``prod_P n_i = a`` and ``prod n_i = N``,
    ``prod_P w_i - prod_notP w_i = gap_value(a, N, D)`` (Murtagh-Vadhan Lemma
    4.11, the form ``j^(1/D) - prod w_i / j^(1/D)``). It is strictly increasing in ``a``.
    """
    a = Fraction(a)
    return RadicalSum.radical(a, D) - RadicalSum.radical(Fraction(N) / a, D)


class TPartition(_RootInstance):
    """#T-PARTITION (Murtagh-Vadhan Definition 4.7): ``w_i = n_i^(1/D)`` and a real ``T > 0``.

    The answer is the number of ``P subset of [k]`` with
    ``prod_{i in P} w_i - prod_{i not in P} w_i = T``. ``T`` is an exact
    :class:`~exactdp.reductions.radicals.RadicalSum` (or a rational), so the
    equality is decided exactly for each distinct subset product.

    Guarantee: exact.

    Raises:
        InvalidArgument: as :class:`Partition`, or ``T <= 0``.

    Examples:
        >>> from exactdp.reductions.radicals import RadicalSum
        >>> T = RadicalSum.radical(3, 2)                        # sqrt(3) = sqrt(12) - sqrt(3)
        >>> TPartition(2, [2, 3, 6], T).count_brute_force()     # only P = {0, 2}: 2*6 = 12 vs 3
        1

    References: Murtagh-Vadhan Definition 4.7.
    """

    __slots__ = ("T",)

    def __init__(self, D: int, n: Iterable[object], T: object):
        self._init_roots(D, n)
        T = as_radical_sum(T) if not isinstance(T, float) else as_radical_sum(parse_rational(T, "T"))
        if T.sign() <= 0:
            raise InvalidArgument("T", "a real number > 0", str(T))
        object.__setattr__(self, "T", T)

    max_k = T_PARTITION_MAX_K

    def count_brute_force(self, *, limit: int = T_PARTITION_MAX_K) -> int:
        """The count over all ``2^k`` subsets (each distinct product decided exactly). Guarantee: exact.

        Raises:
            CostTooHigh: ``k > limit`` (with the estimate).
            InvalidArgument: ``limit`` not an integer >= 0.
        """
        _check_size(self.k, limit, _REAL_SUBSETS_PER_SECOND)
        prods = subset_products(self.n)
        N = prods[-1]
        counts = Counter(prods)
        total = 0
        D = self.D
        with workprec(96):
            Tb = self.T.arb(96)
            for a, cnt in counts.items():
                # a ball that excludes T settles the candidate rigorously; the
                # few that do not are decided exactly
                g = arb(a).root(D) - arb(N // a).root(D)
                if not (g - Tb).contains(0):
                    continue
                if gap_value(Fraction(a), N, D) == self.T:
                    total += cnt
        return total

    def to_dict(self) -> dict:
        """JSON-serialisable description (``T`` exactly, and as an outward-rounded decimal). Guarantee: exact. Raises: nothing."""
        return {"problem": "#T-PARTITION", **self._roots_dict(), "T": str(self.T), "T_decimal": self.T.decimal()}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TPartition) and (self.D, self.n) == (other.D, other.n) and self.T == other.T

    def __hash__(self) -> int:
        return hash((TPartition, self.D, self.n))

    def __repr__(self) -> str:
        return f"TPartition(D={self.D}, n={list(self.n)}, T={self.T})"


def _as_expnum(r: object, name: str) -> ExpNum:
    if isinstance(r, ExpNum):
        return r
    return RatExp.from_exp(parse_rational(r, name))


def _greater_than_one(r: ExpNum) -> Optional[bool]:
    if not isinstance(r, Computable):
        s = log_sign_of_product([(r, 1)])
        return None if s is None else s > 0
    def step(prec: int) -> Optional[bool]:
        with workprec(prec):
            v = r.arb(prec) - 1
            return True if v > 0 else False if (v < 0 or v.is_zero()) else None

    try:
        return refine(step, maxprec=4096, what="r > 1")
    except PrecisionError:
        return None  # undecided: the caller says so


class SumPartition(_RootInstance):
    """#SUM-PARTITION (Murtagh-Vadhan Definition 4.8): ``w_i = n_i^(1/D)`` and a real ``r > 1``.

    The answer is the real number ``sum_{P subset of [k]} max(prod_P w_i - r prod_notP w_i, 0)``.
    ``r`` is an exp-space number (:class:`~exactdp.numbers.Root`,
    :class:`~exactdp.numbers.RatExp` or a :class:`~exactdp.numbers.Computable`
    such as ``r_z`` of Lemma 4.11) or a rational.

    Guarantee: the brute-force value is an enclosure.

    Raises:
        InvalidArgument: as :class:`Partition`, or ``r`` not (decidably) > 1.

    Examples:
        >>> from flint import arb
        >>> S = SumPartition(2, [2, 3], 2)     # only P = {0, 1} counts: sqrt(6) - 2*1 > 0
        >>> S.brute_force(64).overlaps(arb(6).sqrt() - 2)
        True

    References: Murtagh-Vadhan Definition 4.8.
    """

    __slots__ = ("r",)

    def __init__(self, D: int, n: Iterable[object], r: object):
        self._init_roots(D, n)
        rr = _as_expnum(r, "r")
        ok = _greater_than_one(rr)
        if not ok:
            raise InvalidArgument("r", "a real number > 1" + (" (decidably)" if ok is None else ""), rr)
        object.__setattr__(self, "r", rr)

    max_k = SUM_PARTITION_MAX_K

    def brute_force(self, prec: int, *, limit: int = SUM_PARTITION_MAX_K) -> arb:
        """Enclosure of the value at ``prec`` bits, summing over all ``2^k`` subsets. Guarantee: enclosure.

        A term exactly on the threshold is 0 either way: when ``r`` is a Root or
        RatExp its sign is decided exactly, for a Computable ``r`` the term is
        enclosed as ``max(x, 0)``.

        Raises:
            CostTooHigh: ``k > limit``, or the time estimated at ``prec`` bits
                (:func:`sum_brute_force_estimate`) over the cost limits in force
                (:func:`exactdp.engines.costs.cost_limits`), with the estimate.
            InvalidArgument: ``limit`` not an integer >= 0.
        """
        _check_size(self.k, limit, _REAL_SUBSETS_PER_SECOND)
        check_estimate(sum_brute_force_estimate(self.k, prec), "k",
                       f"#SUM-PARTITION by brute force over 2^{self.k} subsets at {prec} bits", "fewer elements")
        prods = subset_products(self.n)
        N = prods[-1]
        counts = Counter(prods)
        D = self.D
        with workprec(prec):
            r = self.r.arb(prec)
            total = arb(0)
            for a, cnt in counts.items():
                wp = arb(a).root(D) if D > 1 else arb(a)
                wn = arb(N // a).root(D) if D > 1 else arb(N // a)
                d = wp - r * wn
                if d > 0:
                    total += cnt * d
                elif d < 0:
                    continue
                else:
                    s = None
                    if not isinstance(self.r, Computable):
                        s = log_sign_of_product([(Root(a, D), 1), (Root(N // a, D), -1), (self.r, -1)])
                    if s is None:
                        total += cnt * d.nonnegative_part()
                    elif s > 0:
                        total += cnt * d
            return total

    def to_dict(self) -> dict:
        """JSON-serialisable description. Guarantee: exact. Raises: nothing."""
        return {"problem": "#SUM-PARTITION", **self._roots_dict(), "r": repr(self.r)}

    def __repr__(self) -> str:
        return f"SumPartition(D={self.D}, n={list(self.n)}, r={self.r!r})"


class LazyReal:
    """An exact real number known through rigorous enclosures ``fn(prec) -> arb``.

    The answer of an oracle for a real-valued problem (#SUM-PARTITION, OptComp's
    ``delta_g``): one oracle call returns one LazyReal, which can then be read to
    any precision. Each precision is computed once (cached); ``evaluations``
    counts the distinct evaluations.

    Guarantee: enclosure (``arb(prec)`` contains the value, if ``fn`` does).

    Raises:
        Exception: whatever ``fn`` raises (e.g. CostTooHigh from a brute-force oracle).

    Examples:
        >>> from flint import arb
        >>> x = LazyReal(lambda p: arb(2).sqrt(), "sqrt 2")
        >>> x.arb(64).overlaps(arb(2).sqrt()), x.evaluations
        (True, 1)

    References: the real-valued oracles of Murtagh-Vadhan Lemma 4.11 and Theorem 1.6.
    """

    __slots__ = ("fn", "label", "_cache", "on_evaluate")

    def __init__(self, fn: Callable[[int], arb], label: str = "", on_evaluate: Optional[Callable[[], None]] = None):
        self.fn = fn
        self.label = label
        self._cache: dict[int, arb] = {}
        self.on_evaluate = on_evaluate

    def arb(self, prec: int) -> arb:
        """The enclosure at ``prec`` bits (cached). Guarantee: enclosure. Raises: whatever ``fn`` raises."""
        v = self._cache.get(prec)
        if v is None:
            with workprec(prec):
                v = self.fn(prec)
            self._cache[prec] = v
            if self.on_evaluate is not None:
                self.on_evaluate()
        return v

    @property
    def evaluations(self) -> int:
        """Number of distinct precisions evaluated. Guarantee: exact. Raises: nothing."""
        return len(self._cache)

    def __repr__(self) -> str:
        return f"LazyReal({self.label})"
