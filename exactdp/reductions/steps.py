"""The reductions of Murtagh-Vadhan Section 4, each as a function of an instance and an oracle.

::

    #INT-PARTITION  --Lemma 4.9-->  #PARTITION  --Lemma 4.10-->  #T-PARTITION
                    --Lemma 4.11-->  #SUM-PARTITION  --Theorem 1.6-->  OptComp

Each ``solve_*`` function solves its problem with the oracle calls its proof
makes: one #PARTITION call (Lemma 4.9), one #T-PARTITION call (Lemma 4.10; none
when every ``w_i = 1``), four #SUM-PARTITION calls (Lemma 4.11) and one OptComp
call (Theorem 1.6). Oracles for counting problems return ints; oracles for real
problems return a :class:`~exactdp.reductions.problems.LazyReal` (a real known
through rigorous enclosures at any precision).

Where a step as printed fails, the function takes ``as_printed=True`` to run
the printed step, and by default runs the corrected one (``docs/errata.md``,
section "Murtagh-Vadhan Section 4"):

* Lemma 4.9: ``D = ceil(log_c prod z_i)`` is 0 when every ``z_i = 1``; the
  corrected step takes ``D = max(1, ...)``.
* Lemma 4.10: with every ``w_i = 1`` the #PARTITION count is ``2^k`` (every
  ``P``, including the empty set and ``[k]``), not the printed ``2^k - 2``.
* Lemma 4.11: ``z''`` must be taken just *below* ``z`` (in
  ``(max(z_prev, 0), z)``), not above it: above, ``P^{z''}`` loses exactly the
  solutions and the printed step always returns 0.

Integer decisions are exact: ``D`` by integer powers; ``floor(j)`` of Lemma
4.11 by an Arb enclosure and, when it contains an integer ``m``, the exact sign
of ``gap(m) - z`` (:class:`~exactdp.reductions.radicals.RadicalSum`). The count
recovered from real-valued oracle answers is certified: an enclosure of width
< 1 containing one integer, at rising precision up to ``max_prec`` (else
:class:`~exactdp.errors.PrecisionError`).

References: Murtagh-Vadhan (TCC 2016), Lemmas 4.9-4.11 and the proof of Theorem 1.6.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Callable, Iterable, Optional, Sequence, Union

from .._backend import arb, fmpq, workprec
from ..errors import InvalidArgument, PrecisionError, ReductionFailure
from ..events import Mechanism
from ..links import implements
from ..numbers import MAXPREC, Computable, ExpNum, Root, arb_bounds, fraction_to_decimal, parse_rational, refine
from .problems import IntPartition, LazyReal, Partition, SumPartition, TPartition, gap_value
from .radicals import RadicalSum

__all__ = [
    "ReductionFailure",
    "STEPS",
    "Trace",
    "solve_int_partition",
    "solve_partition",
    "solve_t_partition",
    "solve_sum_partition",
    "optcomp_oracle",
    "chain_bound",
    "DEFAULT_MAX_PREC",
]

#: Step names accepted by ``as_printed`` (a bool applies to every step).
STEPS = ("4.9", "4.10", "4.11")

#: Default bound on the working precision of Lemma 4.11's certified count.
DEFAULT_MAX_PREC = 1 << 14


class Trace:
    """Collects one dict per step (JSON-serialisable) in the order the steps start.

    ``records`` is a list of dicts; ``objects`` keeps, per record, the instance
    objects (not serialised) so a checker can brute-force them afterwards.

    Guarantee: exact record of what the steps did. Raises: nothing.
    """

    def __init__(self) -> None:
        self.records: list[dict] = []
        self.objects: list[dict] = []

    def start(self, record: dict, **objects) -> tuple[dict, dict]:
        """Append ``record``; return it and its (mutable) dict of objects. Guarantee: exact. Raises: nothing."""
        self.records.append(record)
        self.objects.append(objects)
        return record, objects


def _printed(as_printed: Union[bool, Iterable[str]], step: str) -> bool:
    if isinstance(as_printed, bool):
        return as_printed
    return step in set(as_printed)


def _dec(x: Fraction, digits: int = 12, rounding: str = "down") -> str:
    return fraction_to_decimal(x, digits, rounding)


def _bounds(b: arb) -> tuple[Fraction, Fraction]:
    """Endpoints of ``b`` (``arb_bounds`` rounds to the context precision, so widen it)."""
    with workprec(max(b.mid().man_exp()[0].bit_length() if b.is_finite() else 0, 0) + 256):
        return arb_bounds(b)


def ball_str(b: arb, digits: int = 15) -> str:
    lo, hi = _bounds(b)
    a, c = _dec(lo, digits, "down"), _dec(hi, digits, "up")
    return a if a == c else f"[{a}, {c}]"


# --------------------------------------------------------------------------
# constants


def _parse_bound(c: object) -> tuple[Fraction, int]:
    """``c`` as ``(base, m)`` meaning the bound ``base^(1/m)`` (a rational or a Root)."""
    if isinstance(c, Root):
        base, m = c.n, c.D
    else:
        base, m = parse_rational(c, "c"), 1
    if base <= 1:
        raise InvalidArgument("c", "a real number > 1", c if isinstance(c, Root) else base)
    # base^(1/m) <= e  <=>  ln(base) <= m; never equal (e^m is transcendental)
    def step(prec: int) -> Optional[bool]:
        with workprec(prec):
            d = arb(fmpq(base.numerator, base.denominator)).log() - m
            return True if d < 0 else False if d > 0 else None

    if not refine(step, what="whether c <= e"):
        raise InvalidArgument(
            "c",
            "a bound in (1, e] here, so that every w_i lies in [1, e] (Murtagh-Vadhan Definition 4.6)",
            c if isinstance(c, Root) else base,
        )
    return base, m


def chain_bound(c: object) -> Fraction:
    """Validate the chain's constant ``c`` (products of the final ``w_i`` are ``<= c``).

    Guarantee: exact. The chain needs ``1 < c <= e^2``: Lemma 4.10 works on
    #PARTITION instances with ``prod w_i <= sqrt(c)``, and ``w_{k+1} = prod w_i``
    must lie in ``[1, e]``.

    Raises:
        InvalidArgument: ``c`` not a rational, ``c <= 1`` or ``c > e^2``.
    """
    q = parse_rational(c, "c")
    if q <= 1:
        raise InvalidArgument("c", "a rational number > 1", q)
    try:
        _parse_bound(Root(q, 2))
    except InvalidArgument:
        raise InvalidArgument("c", "a rational in (1, e^2] (so that sqrt(c) <= e and every w_i lies in [1, e])", q) from None
    return q


#: Largest root index D of Lemma 4.9 accepted: the chain's exact radical arithmetic
#: grows with D (measured on 2 cores: [2, 3, 6] takes 3.4 s at D = 3.6e4 with c = 1.0001,
#: 141 s at D = 3.6e5 with c = 1.00001; about D^1.6).
MAX_CHAIN_D = 100_000
_CHAIN_SECONDS_AT_36K = 3.4


def _least_D(Z: int, base: Fraction, m: int) -> int:
    """Least integer ``D >= 0`` with ``Z <= base^(D/m)``, i.e. ``ceil(m log_base Z)``. Guarantee: exact.

    Raises:
        InvalidArgument: ``D`` above :data:`MAX_CHAIN_D` (a constant ``c`` too close to 1 for
            these ``z_i``: a size too large for the method; the message gives the least ``c``
            that fits and the estimated time; decided in floating point before any power is built).
    """
    p, q = base.numerator, base.denominator
    lb = math.log(p) - math.log(q)
    est = m * math.log(Z) / lb if Z > 1 else 0.0
    if est > MAX_CHAIN_D:
        need = math.exp(m * math.log(Z) / MAX_CHAIN_D)  # the base (the chain's c) that meets the limit
        sec = _CHAIN_SECONDS_AT_36K * (est / 3.6e4) ** 1.6
        alt = f"a constant c >= {need:.6g} (c = 2, the default, gives D = {math.ceil(m * math.log(Z) / math.log(2))})"
        raise InvalidArgument(
            "c",
            f"at least {need:.6g} for these z_i: Lemma 4.9 takes w_i = z_i^(1/D) with D = ceil(log_c prod z_i), "
            f"here about {est:.3g} (limit {MAX_CHAIN_D}; the exact radicals would take about {sec:.3g} s); use {alt}",
            str(base),
        )
    Zm = Z ** m

    def ok(D: int) -> bool:  # Z^m <= (p/q)^D  <=>  Z^m q^D <= p^D
        return Zm * q ** D <= p ** D

    est = m * math.log(Z) / math.log(p / q) if Z > 1 else 0.0
    D = max(0, int(est) - 2)
    while D > 0 and ok(D - 1):
        D -= 1
    while not ok(D):
        D += 1
    return D


# --------------------------------------------------------------------------
# Lemma 4.9


@implements("Murtagh-Vadhan Lemma 4.9")
def solve_int_partition(
    instance: IntPartition,
    partition_oracle: Callable[[Partition], int],
    *,
    c: object = 2,
    as_printed: Union[bool, Iterable[str]] = False,
    trace: Optional[Trace] = None,
) -> int:
    """Solve #INT-PARTITION with one #PARTITION oracle call (Murtagh-Vadhan Lemma 4.9).

    ``D = ceil(log_c prod z_i)`` (the least ``D`` with ``prod z_i <= c^D``,
    decided with integers) and ``w_i = z_i^(1/D)``, so ``prod w_i <= c``; since
    ``prod_P w_i = prod_notP w_i`` iff ``prod_P z_i = prod_notP z_i`` (raise both
    sides to the ``D``-th power), the #PARTITION count of ``W`` is the answer.

    Guarantee: exact, if the oracle is.

    Parameters:
        instance: the #INT-PARTITION instance.
        partition_oracle: ``Partition -> int``.
        c: the constant, a rational or a :class:`~exactdp.numbers.Root` (the chain
            passes ``Root(c, 2) = sqrt(c)``); must lie in ``(1, e]``.
        as_printed: ``True`` (or a collection containing ``"4.9"``) runs the
            printed step: ``D = 0`` when every ``z_i = 1`` (then
            :class:`ReductionFailure`). Default: ``D = max(1, ceil(log_c prod z_i))``.
        trace: optional :class:`Trace`.

    Raises:
        InvalidArgument: ``c`` not in ``(1, e]``.
        ReductionFailure: as printed, with ``prod z_i = 1``.

    Examples:
        >>> solve_int_partition(IntPartition([2, 3, 6]), lambda W: W.count_brute_force())
        2

    References: Murtagh-Vadhan Lemma 4.9; erratum in docs/errata.md.
    """
    base, m = _parse_bound(c)
    Z = instance.product()
    D_printed = _least_D(Z, base, m)
    printed = _printed(as_printed, "4.9")
    rec = objs = None
    if trace is not None:
        cs = str(base) if m == 1 else f"{base}^(1/{m})"
        rec, objs = trace.start(
            {
                "step": "Lemma 4.9",
                "from": "#INT-PARTITION",
                "to": "#PARTITION",
                "as_printed": printed,
                "instance": instance.to_dict(),
                "c": cs,
                "prod_z": Z,
                "D_printed": D_printed,
            },
            instance=instance,
        )
    if D_printed == 0:
        if printed:
            msg = (
                "Lemma 4.9 as printed: D = ceil(log_c(prod z_i)) = ceil(log_c 1) = 0, "
                "so w_i = z_i^(1/D) is undefined (erratum: take D = max(1, ...))"
            )
            if rec is not None:
                rec["failure"] = msg
            raise ReductionFailure(msg)
        D = 1
    else:
        D = D_printed
    W = Partition(D, instance.z)
    if rec is not None:
        rec["D"] = D
        rec["oracle_instance"] = W.to_dict()
        rec["prod_w"] = f"{Z}^(1/{D})"
        rec["oracle_calls"] = 1
        objs["oracle_instance"] = W  # type: ignore[index]
    ans = int(partition_oracle(W))
    if rec is not None:
        rec["oracle_answer"] = ans
        rec["answer"] = ans
    return ans


# --------------------------------------------------------------------------
# Lemma 4.10


@implements("Murtagh-Vadhan Lemma 4.10")
def solve_partition(
    instance: Partition,
    t_partition_oracle: Callable[[TPartition], int],
    *,
    c: object = 2,
    as_printed: Union[bool, Iterable[str]] = False,
    trace: Optional[Trace] = None,
) -> int:
    """Solve #PARTITION with one #T-PARTITION oracle call (Murtagh-Vadhan Lemma 4.10).

    ``W' = W + (w_{k+1})`` with ``w_{k+1} = prod w_i`` and
    ``T = sqrt(w_{k+1}) (w_{k+1} - 1)`` (an exact RadicalSum): the partitions
    ``Q`` of ``W'`` with gap ``T`` are exactly ``Q = P + {k+1}`` for the
    partitions ``P`` of ``W`` with equal products. When every ``w_i = 1`` (``T``
    would be 0) no oracle call is made: every one of the ``2^k`` sets ``P`` is a
    solution.

    Guarantee: exact, if the oracle is.

    Parameters:
        instance: the #PARTITION instance, with ``prod w_i <= sqrt(c)``.
        t_partition_oracle: ``TPartition -> int``.
        c: the constant (rational, ``1 < c``); ``W'`` has ``prod <= c``.
        as_printed: ``True`` (or containing ``"4.10"``): the printed all-ones
            answer ``2^k - 2``. Default: ``2^k``.
        trace: optional :class:`Trace`.

    Raises:
        InvalidArgument: ``prod w_i > sqrt(c)`` or ``c <= 1``.

    Examples:
        >>> solve_partition(Partition(11, [2, 3, 6]), lambda W: W.count_brute_force())
        2
        >>> solve_partition(Partition(1, [1, 1, 1]), lambda W: 0)   # all ones: 2^3, no oracle call
        8

    References: Murtagh-Vadhan Lemma 4.10; erratum in docs/errata.md.
    """
    cq = parse_rational(c, "c")
    if cq <= 1:
        raise InvalidArgument("c", "a rational number > 1", cq)
    D, ns = instance.D, instance.n
    N = instance.product_n()
    # prod w_i = N^(1/D) <= sqrt(c)  <=>  N^2 <= c^D
    if N * N * cq.denominator ** D > cq.numerator ** D:
        raise InvalidArgument("W", f"a #PARTITION instance with prod w_i <= sqrt(c) = sqrt({cq}) (Lemma 4.10)", f"prod w_i = {N}^(1/{D})")
    printed = _printed(as_printed, "4.10")
    k = instance.k
    rec = objs = None
    if trace is not None:
        rec, objs = trace.start(
            {"step": "Lemma 4.10", "from": "#PARTITION", "to": "#T-PARTITION", "as_printed": printed, "instance": instance.to_dict()},
            instance=instance,
        )
    if N == 1:
        ans = 2 ** k - 2 if printed else 2 ** k
        if rec is not None:
            rec["all_ones"] = True
            rec["oracle_calls"] = 0
            rec["answer"] = ans
            rec["note"] = "printed answer 2^k - 2" if printed else "every P (2^k of them, empty set and [k] included) has equal products"
        return ans
    w_next = RadicalSum.radical(N, D)  # w_{k+1} = prod w_i = N^(1/D)
    T = RadicalSum.radical(N, 2 * D) * (w_next - 1)  # sqrt(w_{k+1}) (w_{k+1} - 1)
    Wp = TPartition(D, ns + (N,), T)
    if rec is not None:
        rec["w_k+1"] = f"{N}^(1/{D})"
        rec["T"] = str(T)
        rec["T_decimal"] = T.decimal()
        rec["oracle_instance"] = Wp.to_dict()
        rec["oracle_calls"] = 1
        objs["oracle_instance"] = Wp  # type: ignore[index]
    ans = int(t_partition_oracle(Wp))
    if rec is not None:
        rec["oracle_answer"] = ans
        rec["answer"] = ans
    return ans


# --------------------------------------------------------------------------
# Lemma 4.11


def _locate_j(z: RadicalSum, N: int, D: int) -> tuple[int, bool, int]:
    """``(floor(j), j is an integer, bits)`` for the real ``j`` with ``gap(j) = z``.

    ``j^(1/D) = (z + sqrt(z^2 + 4 prod w_i)) / 2`` (the quadratic of Lemma 4.11);
    the floor is read from an Arb enclosure, and when the enclosure contains an
    integer ``m`` it is decided by the exact sign of ``gap(m) - z``.
    Guarantee: exact.
    """
    def step(prec: int):
        with workprec(prec):
            zz = z.arb(prec)
            M = Root(N, D).arb(prec)
            u = (zz + (zz * zz + 4 * M).sqrt()) / 2
            j = u ** D
            if not j.is_finite():
                return None
            lo, hi = arb_bounds(j)
            if hi - lo >= 1:
                return None
            m_lo = -((-lo.numerator) // lo.denominator)  # ceil(lo)
            m_hi = hi.numerator // hi.denominator  # floor(hi)
            if m_lo > m_hi:  # no integer inside
                return m_hi, False, prec
            m = m_lo  # the only integer inside
            s = (gap_value(Fraction(m), N, D) - z).sign()
            if s == 0:
                return m, True, prec
            return (m, False, prec) if s < 0 else (m - 1, False, prec)

    return refine(step, extra=2 * N.bit_length(), what="floor(j)")


def _r_computable(z: RadicalSum, N: int, D: int, label: str) -> Computable:
    """``r_z = 4 prod w_i / (sqrt(z^2 + 4 prod w_i) - z)^2`` (Lemma 4.11) as a Computable."""

    def fn(prec: int) -> arb:
        with workprec(prec + 16):
            zz = z.arb(prec + 16)
            M = Root(N, D).arb(prec + 16)
            v = 4 * M / ((zz * zz + 4 * M).sqrt() - zz) ** 2
        return v

    return Computable(fn, label)


def _r_of(z: RadicalSum, j_floor: int, j_exact: bool, N: int, D: int, label: str, r_form: str) -> ExpNum:
    if j_exact and r_form == "auto":
        # r_z = u^2 / prod w_i with u = j^(1/D) (u solves u^2 - z u - prod w_i = 0),
        # i.e. r_z = (j^2 / N)^(1/D): the same number, exactly
        return Root(Fraction(j_floor * j_floor, N), D)
    return _r_computable(z, N, D, label)


@implements("Murtagh-Vadhan Lemma 4.11")
def solve_t_partition(
    instance: TPartition,
    sum_partition_oracle: Callable[[SumPartition], LazyReal],
    *,
    as_printed: Union[bool, Iterable[str]] = False,
    prec: Optional[int] = None,
    max_prec: int = DEFAULT_MAX_PREC,
    r_form: str = "auto",
    trace: Optional[Trace] = None,
) -> int:
    """Solve #T-PARTITION with four #SUM-PARTITION oracle calls (Murtagh-Vadhan Lemma 4.11).

    With ``N = prod n_i``, every gap is ``gap(a) = a^(1/D) - (N/a)^(1/D)`` for an
    integer ``a = prod_P n_i``; ``gap`` increases with ``a``. For ``z > 0`` let
    ``j`` solve ``gap(j) = z`` and ``P^z = {P : gap(P) >= z} = {P : a_P >= j}``.
    ``r_z = 4 prod w / (sqrt(z^2 + 4 prod w) - z)^2`` makes
    ``W_P - r_z W_notP >= 0`` iff ``P in P^z``, so the oracle at ``r_z`` returns
    ``A_z - r_z B_z`` (``A_z = sum_{P^z} W_P``, ``B_z = sum_{P^z} W_notP``). A
    second call at ``r_{z''}`` with ``P^{z''} = P^z`` gives a second equation;
    ``sum_{P^z} gap = A_z - B_z``. Doing this at ``z = T`` and at
    ``c = (T + T')/2`` (``T' = gap(floor(j_T + 1))``) gives the count
    ``(sum_{P^T} gap - sum_{P^c} gap) / T``.

    ``z''``: default (corrected) the midpoint of ``(max(z_prev, 0), z)``, with
    ``z_prev = gap(ceil(j) - 1)``; as printed, the midpoint of ``(z, z')``,
    ``z' = gap(floor(j + 1))``, which drops the solutions from ``P^{z''}``.

    Guarantee: exact (the count comes from an enclosure of width < 1 around one
    integer; ``floor(j)`` is decided exactly), if the oracle's enclosures are.

    Parameters:
        instance: the #T-PARTITION instance.
        sum_partition_oracle: ``SumPartition -> LazyReal``.
        as_printed: ``True`` (or containing ``"4.11"``): ``z''`` above ``z`` as printed.
        prec: starting precision in bits (default from the instance size).
        max_prec: the bound on the precision (then PrecisionError).
        r_form: ``"auto"``: pass ``r_z`` as the exact Root ``(j^2/N)^(1/D)`` when
            ``j`` is an (exactly decided) integer, else as a Computable of the
            printed formula; ``"computable"``: always the Computable.
        trace: optional :class:`Trace`.

    Raises:
        InvalidArgument: ``r_form`` or ``max_prec`` out of range.
        PrecisionError: no certified integer by ``max_prec`` bits.
        ReductionFailure: the enclosure excludes every integer (the identity failed).

    Examples:
        >>> from exactdp.reductions.radicals import RadicalSum
        >>> inst = TPartition(2, [2, 3, 6], RadicalSum.radical(3, 2))   # sqrt(12) - sqrt(3)
        >>> solve_t_partition(inst, lambda S: LazyReal(S.brute_force))  # exact oracle
        1
        >>> solve_t_partition(inst, lambda S: LazyReal(S.brute_force), as_printed=True)
        0

    References: Murtagh-Vadhan Lemma 4.11; erratum in docs/errata.md.
    """
    if r_form not in ("auto", "computable"):
        raise InvalidArgument("r_form", "'auto' or 'computable'", r_form)
    if isinstance(max_prec, bool) or not isinstance(max_prec, int) or not (64 <= max_prec <= MAXPREC):
        raise InvalidArgument("max_prec", f"an integer in [64, {MAXPREC}]", max_prec)
    printed = _printed(as_printed, "4.11")
    D, ns, T = instance.D, instance.n, instance.T
    N = instance.product_n()
    rec = objs = None
    if trace is not None:
        rec, objs = trace.start(
            {"step": "Lemma 4.11", "from": "#T-PARTITION", "to": "#SUM-PARTITION", "as_printed": printed, "instance": instance.to_dict()},
            instance=instance,
        )

    def gap(a: int) -> RadicalSum:
        return gap_value(Fraction(a), N, D)

    jT, jT_exact, _ = _locate_j(T, N, D)
    jTp = jT + 1  # j' = floor(j + 1)
    Tp = gap(jTp)
    zc = (T + Tp) / 2  # a point of (T, T')
    jc, jc_exact, _ = _locate_j(zc, N, D)
    if jc_exact or jc != jT:  # c lies strictly between T and T', so j_T < j_c < floor(j_T) + 1
        raise ReductionFailure(f"Lemma 4.11: floor(j_c) = {jc} != floor(j_T) = {jT}")  # pragma: no cover

    def z_second(z: RadicalSum, jf: int, jex: bool) -> tuple[RadicalSum, dict]:
        if printed:
            zp = gap(jf + 1)
            return (z + zp) / 2, {"z'": str(zp), "z'_decimal": zp.decimal(), "interval": "(z, z')"}
        j_prev = jf - 1 if jex else jf  # the largest integer < j
        if j_prev >= 1 and j_prev * j_prev > N:  # gap(j_prev) > 0
            lower = gap(j_prev)
            info = {"j_prev": j_prev, "z_prev": str(lower), "z_prev_decimal": lower.decimal()}
        else:
            lower = RadicalSum.rational(0)
            info = {"j_prev": j_prev, "z_prev": "<= 0 (use 0)"}
        info["interval"] = "(max(z_prev, 0), z)"
        return (lower + z) / 2, info

    zTs, infoT = z_second(T, jT, jT_exact)
    zcs, infoc = z_second(zc, jc, False)
    jTs, jTs_exact, _ = _locate_j(zTs, N, D)
    jcs, jcs_exact, _ = _locate_j(zcs, N, D)

    rT = _r_of(T, jT, jT_exact, N, D, "r_T", r_form)
    rTs = _r_of(zTs, jTs, jTs_exact, N, D, "r_T''", r_form)
    rc = _r_of(zc, jc, False, N, D, "r_c", r_form)
    rcs = _r_of(zcs, jcs, jcs_exact, N, D, "r_c''", r_form)
    queries = [SumPartition(D, ns, r) for r in (rT, rTs, rc, rcs)]
    if rec is not None:
        rec.update(
            {
                "N": N,
                "T": str(T),
                "T_decimal": T.decimal(),
                "j_T": {"floor": jT, "integer": jT_exact},
                "T'": str(Tp),
                "T'_decimal": Tp.decimal(),
                "c": "(T + T')/2",
                "c_decimal": zc.decimal(),
                "z''_T": {"value_decimal": zTs.decimal(), **infoT},
                "z''_c": {"value_decimal": zcs.decimal(), **infoc},
                "r": {},
                "oracle_calls": 4,
                "oracle_instances": [q.to_dict() for q in queries],
            }
        )
        objs["oracle_instances"] = queries  # type: ignore[index]
    answers = [sum_partition_oracle(q) for q in queries]

    p = prec if prec is not None else max(96, 64 + N.bit_length() + 4 * instance.k)
    p = min(p, max_prec)
    rounds = 0
    while True:
        rounds += 1
        with workprec(p):
            S = [a.arb(p) for a in answers]
            R = [r.arb(p) for r in (rT, rTs, rc, rcs)]

            def solve2(S1, S2, r1, r2):
                B = (S1 - S2) / (r2 - r1)
                A = S1 + r1 * B
                return A - B, A, B

            sigT, _, _ = solve2(S[0], S[1], R[0], R[1])
            sigc, _, _ = solve2(S[2], S[3], R[2], R[3])
            cnt = (sigT - sigc) / T.arb(p)
            done = False
            if cnt.is_finite():
                lo, hi = arb_bounds(cnt)
                if hi - lo < 1:
                    m_lo = -((-lo.numerator) // lo.denominator)
                    m_hi = hi.numerator // hi.denominator
                    if m_lo > m_hi:
                        msg = f"Lemma 4.11: the recovered count {ball_str(cnt)} contains no integer"
                        if rec is not None:
                            rec["failure"] = msg
                        raise ReductionFailure(msg)
                    count = m_lo
                    done = True
            if done:
                if rec is not None:
                    rec["r"] = {name: ball_str(x) for name, x in zip(("r_T", "r_T''", "r_c", "r_c''"), R)}
                    rec["r_forms"] = {name: repr(x) for name, x in zip(("r_T", "r_T''", "r_c", "r_c''"), (rT, rTs, rc, rcs))}
                    rec["oracle_answers"] = [ball_str(s) for s in S]
                    rec["sum_gap_P^T"] = ball_str(sigT)
                    rec["sum_gap_P^c"] = ball_str(sigc)
                    rec["count_enclosure"] = ball_str(cnt)
                    rec["precision_bits"] = p
                    rec["precision_rounds"] = rounds
                    rec["answer"] = count
                return count
        if p >= max_prec:
            raise PrecisionError(f"Lemma 4.11: count not certified at max_prec={max_prec} bits (enclosure {ball_str(cnt)})")
        p = min(2 * p, max_prec)


# --------------------------------------------------------------------------
# Theorem 1.6


def optcomp_oracle(mechanisms: Sequence[Mechanism], exp_eps_g: ExpNum, *, on_evaluate: Optional[Callable[[], None]] = None) -> LazyReal:
    """The OptComp oracle in its ``delta_g(eps_g)`` form: the library's certified engine.

    Returns ``delta_g`` as a :class:`~exactdp.reductions.problems.LazyReal`:
    reading it at ``prec`` bits runs
    ``composed_delta(mechanisms, exp_eps_g=exp_eps_g, engine="certified", prec=prec)``
    and turns ``[lower, upper]`` into a ball.

    Guarantee: enclosure.

    Raises:
        InvalidArgument / CostTooHigh: from the engine, when the LazyReal is
            read (bad mechanisms, or an instance too large for the engine).

    Examples:
        >>> from exactdp import Mechanism, Root
        >>> d = optcomp_oracle([Mechanism(exp_eps=2), Mechanism(exp_eps=2)], Root(2, 1))
        >>> lo, hi = arb_bounds(d.arb(64)); lo <= Fraction(2, 9) <= hi   # delta_g(ln 2) = 2/9
        True

    References: Murtagh-Vadhan Theorem 1.5 (the engine), proof of Theorem 1.6 (its use).
    """
    from ..engines import composed_delta

    ms = tuple(mechanisms)

    def fn(prec: int) -> arb:
        r = composed_delta(ms, exp_eps_g=exp_eps_g, engine="certified", prec=int(min(prec, MAXPREC)))
        with workprec(prec):
            a = arb(fmpq(r.lower.numerator, r.lower.denominator))
            b = arb(fmpq(r.upper.numerator, r.upper.denominator))
            return a.union(b)

    return LazyReal(fn, f"delta_g(k={len(ms)}, e^eps_g={exp_eps_g!r})", on_evaluate)


@implements("Murtagh-Vadhan Theorem 1.6")
def solve_sum_partition(
    instance: SumPartition,
    optcomp: Callable[[Sequence[Mechanism], ExpNum], LazyReal] = optcomp_oracle,
    *,
    trace: Optional[Trace] = None,
) -> LazyReal:
    """Solve #SUM-PARTITION with one OptComp call (proof of Murtagh-Vadhan Theorem 1.6).

    ``eps_i = ln w_i`` (mechanisms with ``w = n_i^(1/D)``), ``delta_i = 0`` and
    ``eps_g = ln r``; by Theorem 1.5 with every ``delta_i = 0``,
    ``delta_g * prod (1 + w_i)`` is the #SUM-PARTITION value. Note
    ``sum eps_i = ln prod w_i`` (``<= ln c`` on the chain's instances).

    Guarantee: enclosure (the returned LazyReal), if the oracle's is.

    Parameters:
        instance: the #SUM-PARTITION instance.
        optcomp: ``(mechanisms, e^eps_g) -> LazyReal`` for ``delta_g``
            (default :func:`optcomp_oracle`).
        trace: optional :class:`Trace`.

    Raises:
        Exception: whatever the oracle raises (with the default oracle: CostTooHigh
            when the engine refuses the instance, on reading the answer).

    Examples:
        >>> from flint import arb
        >>> v = solve_sum_partition(SumPartition(2, [2, 3], 2))
        >>> v.arb(64).overlaps(arb(6).sqrt() - 2)     # brute force: sqrt(6) - 2*1
        True

    References: Murtagh-Vadhan proof of Theorem 1.6 (with Theorem 1.5).
    """
    ws = instance.w
    mechs = [Mechanism(w=w) for w in ws]
    delta = optcomp(mechs, instance.r)
    N = instance.product_n()
    rec = objs = None
    if trace is not None:
        with workprec(64):
            lo, hi = arb_bounds(arb(N).log() / instance.D)
        rec, objs = trace.start(
            {
                "step": "Theorem 1.6",
                "from": "#SUM-PARTITION",
                "to": "OptComp",
                "instance": instance.to_dict(),
                "oracle_call": {"eps_i": f"ln(n_i^(1/{instance.D}))", "delta_i": 0, "e^eps_g": repr(instance.r)},
                "sum_eps": f"ln({N})/{instance.D}",
                "sum_eps_decimal": f"[{_dec(lo, 12, 'down')}, {_dec(hi, 12, 'up')}]",
                "oracle_calls": 1,
            },
            instance=instance,
            delta=delta,
        )

    def fn(prec: int) -> arb:
        with workprec(prec):
            z = arb(1)
            for w in ws:
                z *= 1 + w.arb(prec)
            return delta.arb(prec) * z

    answer = LazyReal(fn, f"SUM-PARTITION(k={instance.k})")
    if objs is not None:
        objs["answer"] = answer
    return answer
