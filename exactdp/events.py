"""Privacy events, described then computed (STYLE.md item 6).

A :class:`Mechanism` is an ``(eps, delta)``-DP mechanism; a :class:`Composition`
is a composition of mechanisms (and of compositions) with counts: ``k`` copies are
kept as one part with count ``k``, never as a list of ``k`` objects. Both are
immutable values with exact fields; engines are functions of them (``optcomp``,
``composed_delta``, :class:`~exactdp.profile.PrivacyProfile`), and the command
line, ``certify``, the tests and the JSON form speak of these same objects.

The JSON form is versioned (``"exactdp_event": 1``) and round-trips exactly:
every number is written as an exact rational string (``"1/10"``).

The meaning of an event never changes: a ``Mechanism(eps="0.1")`` is the
mechanism whose privacy loss is exactly ``eps = 1/10`` (``e^eps`` transcendental);
``Mechanism(exp_eps="11/10")`` the one with ``e^eps = 11/10`` exactly.
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from typing import Iterable, Iterator, Optional, Sequence, Union

from .errors import CostTooHigh, InvalidArgument
from .numbers import ExpNum, RatExp, Root, fraction_str, parse_delta, parse_eps, parse_exp_eps, parse_int, parse_list
from .numbers.parse import coprime_fraction, parse_rational, warn_float

__all__ = [
    "Mechanism",
    "Composition",
    "mechanisms",
    "as_composition",
    "MAX_MECHANISMS",
    "JSON_VERSION",
    "parse_eps",
    "parse_exp_eps",
    "parse_delta",
]

#: Version of the JSON form written by :meth:`Mechanism.to_json` / :meth:`Composition.to_json`.
JSON_VERSION = 1

#: Largest composition :func:`mechanisms` builds (``len(eps) * k``). The composition is
#: kept as counts at any size; beyond 10^12 even the windowed homogeneous kernel is over the
#: default cost limits (estimated 63 s and 3.7 GiB at 10^12), so every request would be refused.
MAX_MECHANISMS = 10**12

#: Largest exact ``prod (1 - delta_i)`` built, in bits (GMP takes about 4 s there); larger is
#: refused up front (:attr:`Composition.delta_product`).
MAX_DELTA_PRODUCT_BITS = 2**26


def _frac_text(x: Fraction) -> str:
    return fraction_str(x)


class Mechanism:
    """An ``(eps, delta)``-differentially private mechanism, immutable.

    Give exactly one of ``eps`` (a rational eps; ``e^eps`` is then
    transcendental unless eps = 0), ``exp_eps`` (the rational number ``e^eps >= 1``)
    or ``w`` (any :class:`~exactdp.numbers.ExpNum` >= 1, e.g. a D-th root of an
    integer as in Murtagh-Vadhan Definition 4.6).

    Guarantee: exact (fields are stored exactly; floats are converted with
    ``Fraction(x)``). A float is its binary value: ``Mechanism(eps=0.05)`` is not
    ``Mechanism(eps="0.05")`` (a :class:`~exactdp.errors.FloatInputWarning` says so when
    the two differ); pass decimals as strings.

    Raises:
        InvalidArgument: eps < 0, exp_eps < 1, delta outside [0, 1), malformed
            numbers, or not exactly one of eps / exp_eps / w.

    Examples:
        >>> Mechanism(eps="0.1", delta="1e-6")
        Mechanism(eps=1/10, delta=1/1000000)
        >>> Mechanism(exp_eps="11/10")
        Mechanism(exp_eps=11/10, delta=0)
        >>> Mechanism.from_json(Mechanism(eps="0.1").to_json()) == Mechanism(eps="0.1")
        True
    """

    __slots__ = ("_w", "_delta")

    def __init__(self, eps: object = None, delta: object = 0, *, exp_eps: object = None, w: Optional[ExpNum] = None):
        for v, n in ((eps, "eps"), (exp_eps, "exp_eps"), (delta, "delta")):
            warn_float(v, n)
        given = sum(x is not None for x in (eps, exp_eps, w))
        if given != 1:
            raise InvalidArgument("eps / exp_eps", "given exactly once per mechanism", f"{given} of them")
        if eps is not None:
            ww: ExpNum = RatExp.from_eps(parse_eps(eps))
        elif exp_eps is not None:
            ww = RatExp.from_exp(parse_exp_eps(exp_eps))
        else:
            if not isinstance(w, ExpNum):
                raise InvalidArgument("w", "an exactdp.numbers.ExpNum", w)
            if w.flog() < -1e-12:
                raise InvalidArgument("w", "a real number >= 1 (it is e^eps, eps >= 0)", w)
            ww = w
        object.__setattr__(self, "_w", ww)
        object.__setattr__(self, "_delta", parse_delta(delta))

    def __setattr__(self, name, value):  # immutability
        raise AttributeError("Mechanism is immutable")

    @property
    def w(self) -> ExpNum:
        """``e^eps`` as an exact exp-space number."""
        return self._w

    @property
    def delta(self) -> Fraction:
        return self._delta

    @property
    def eps(self) -> Optional[Fraction]:
        """eps as a Fraction when it is rational (``None`` when only ``e^eps`` is)."""
        le = self._w.log_exact()
        if le is not None:
            return le
        return Fraction(0) if self._w.is_one() else None

    @property
    def exp_eps(self) -> Optional[Fraction]:
        """``e^eps`` as a Fraction when it is rational, else ``None``."""
        return self._w.exact()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mechanism) and self._w == other._w and self._delta == other._delta

    def __hash__(self) -> int:
        return hash((self._w, self._delta))

    def __repr__(self) -> str:
        ds = _frac_text(self._delta)
        if isinstance(self._w, RatExp) and self._w.q == 1:
            return f"Mechanism(eps={_short(self._w.r)}, delta={_short_s(ds)})"
        if isinstance(self._w, RatExp) and self._w.r == 0:
            return f"Mechanism(exp_eps={_short(self._w.q)}, delta={_short_s(ds)})"
        return f"Mechanism(w={self._w!r}, delta={_short_s(ds)})"

    # -- JSON ------------------------------------------------------------
    def to_json(self) -> dict:
        """The versioned JSON object of this mechanism (exact rational strings).

        Guarantee: exact (``Mechanism.from_json(m.to_json()) == m``).

        Raises:
            InvalidArgument: ``w`` is a :class:`~exactdp.numbers.Computable` (no finite description).
        """
        d: dict = {"exactdp_event": JSON_VERSION, "type": "mechanism"}
        w = self._w
        if isinstance(w, RatExp) and w.q == 1:
            d["eps"] = _frac_text(w.r)
        elif isinstance(w, RatExp) and w.r == 0:
            d["exp_eps"] = _frac_text(w.q)
        elif isinstance(w, RatExp):
            d["w"] = {"q": _frac_text(w.q), "r": _frac_text(w.r)}
        elif isinstance(w, Root):
            d["w"] = {"root": _frac_text(w.n), "D": w.D}
        else:
            raise InvalidArgument("mechanism", "a mechanism with a finite description for JSON", w)
        d["delta"] = _frac_text(self._delta)
        return d

    @classmethod
    def from_json(cls, obj: object) -> "Mechanism":
        """A mechanism from its JSON object (as written by :meth:`to_json`). Guarantee: exact.

        Raises:
            InvalidArgument: malformed object, unknown version, bad numbers.
        """
        if not isinstance(obj, dict):
            raise InvalidArgument("mechanism", "a JSON object", type(obj).__name__)
        check_version(obj)
        keys = set(obj) - {"exactdp_event", "type", "delta"}
        if keys == {"eps"}:
            return cls(eps=obj["eps"], delta=obj.get("delta", 0))
        if keys == {"exp_eps"}:
            return cls(exp_eps=obj["exp_eps"], delta=obj.get("delta", 0))
        if keys == {"w"} and isinstance(obj["w"], dict):
            w = obj["w"]
            if set(w) == {"q", "r"}:
                return cls(w=RatExp(parse_rational(w["q"], "w.q"), parse_rational(w["r"], "w.r")), delta=obj.get("delta", 0))
            if set(w) == {"root", "D"}:
                return cls(w=Root(parse_rational(w["root"], "w.root"), parse_int(w["D"], "w.D", lo=1)), delta=obj.get("delta", 0))
        raise InvalidArgument("mechanism", 'an object with one of "eps", "exp_eps" or "w", and "delta"', sorted(obj))


def _short(x: Fraction) -> str:
    return _short_s(_frac_text(x))


def _short_s(s: str) -> str:
    return s if len(s) <= 60 else s[:24] + f"...({len(s)} chars)"


def check_version(obj: dict) -> None:
    """Refuse an event JSON object of another version. Guarantee: exact. Raises: InvalidArgument."""
    v = obj.get("exactdp_event", JSON_VERSION)
    if v != JSON_VERSION:
        raise InvalidArgument("exactdp_event", f"version {JSON_VERSION}", v)


Part = tuple[Union[Mechanism, "Composition"], int]


class Composition:
    """An immutable composition of mechanisms, with counts.

    ``Composition([(m, 10), (m2, 1)])`` is ten copies of ``m`` then ``m2``;
    parts may themselves be compositions (``Composition([(c, 5)])`` is five copies
    of ``c``). The order of the parts is kept (it is how the composition was
    described; OptComp does not depend on it). A composition is also a read-only
    sequence of mechanisms (``len``, iteration, indexing, ``+``, ``*``), and
    compares equal to a tuple or list of the same mechanisms in the same order,
    but it never materialises its ``k`` mechanisms to answer ``k``, ``groups()``
    or ``len``.

    Guarantee: exact.

    Raises:
        InvalidArgument: a part that is not a Mechanism / Composition, a count < 1,
            or an empty composition.

    Examples:
        >>> c = Composition([(Mechanism(eps="0.1"), 10**9)])
        >>> c.k, c.groups()
        (1000000000, ((Mechanism(eps=1/10, delta=0), 1000000000),))
        >>> Composition.loads(c.dumps()) == c
        True
    """

    __slots__ = ("_parts", "_k", "_groups", "_P")

    def __init__(self, parts: Iterable[Part]):
        norm: list[Part] = []
        for i, part in enumerate(parts):
            if not (isinstance(part, tuple) and len(part) == 2):
                raise InvalidArgument(f"parts[{i}]", "a pair (Mechanism or Composition, count)", part)
            ev, n = part
            if not isinstance(ev, (Mechanism, Composition)):
                raise InvalidArgument(f"parts[{i}]", "a Mechanism or a Composition", ev)
            n = parse_int(n, f"parts[{i}] count", lo=1)
            if norm and norm[-1][0] == ev and isinstance(ev, Mechanism):
                norm[-1] = (ev, norm[-1][1] + n)
            else:
                norm.append((ev, n))
        if not norm:
            raise InvalidArgument("mechanisms", "a non-empty list", "an empty list")
        object.__setattr__(self, "_parts", tuple(norm))
        object.__setattr__(self, "_k", sum(n * (1 if isinstance(e, Mechanism) else e.k) for e, n in norm))
        object.__setattr__(self, "_groups", None)

    def __setattr__(self, name, value):
        raise AttributeError("Composition is immutable")

    # -- constructors ----------------------------------------------------
    @classmethod
    def of(cls, events: Iterable[Union[Mechanism, "Composition"]]) -> "Composition":
        """The composition of ``events`` in order, each once (equal neighbours merged into a count).

        Guarantee: exact. Raises: InvalidArgument (empty, or not events).
        """
        return cls((e, 1) for e in events)

    def repeat(self, k: int) -> "Composition":
        """``k`` copies of this composition, as one part with count ``k``. Guarantee: exact."""
        k = parse_int(k, "k", lo=1)
        if k == 1:
            return self
        if len(self._parts) == 1:
            e, n = self._parts[0]
            return Composition([(e, n * k)])
        return Composition([(self, k)])

    # -- the composition as a multiset -----------------------------------
    @property
    def parts(self) -> tuple[Part, ...]:
        return self._parts

    @property
    def k(self) -> int:
        """Number of mechanisms composed."""
        return self._k

    def groups(self) -> tuple[tuple[Mechanism, int], ...]:
        """Distinct mechanisms with their total counts, in order of first appearance.

        Guarantee: exact. Raises: nothing.
        """
        if self._groups is None:
            acc: dict = {}
            for m, n in self._flat_runs():
                acc[m] = acc.get(m, 0) + n
            object.__setattr__(self, "_groups", tuple(acc.items()))
        return self._groups  # type: ignore[return-value]

    def _flat_runs(self, mult: int = 1) -> Iterator[tuple[Mechanism, int]]:
        for e, n in self._parts:
            if isinstance(e, Mechanism):
                yield e, n * mult
            else:
                yield from e._flat_runs(n * mult)

    def runs(self) -> Iterator[tuple[Mechanism, int]]:
        """The composition in order as runs ``(mechanism, count)``: one run per
        consecutive block of equal mechanisms. Nested repeats are expanded run by run."""
        last: Optional[Mechanism] = None
        cnt = 0
        for m, n in self._ordered_runs():
            if m == last:
                cnt += n
                continue
            if last is not None:
                yield last, cnt
            last, cnt = m, n
        if last is not None:
            yield last, cnt

    def _ordered_runs(self) -> Iterator[tuple[Mechanism, int]]:
        for e, n in self._parts:
            if isinstance(e, Mechanism):
                yield e, n
            else:
                for _ in range(n):
                    yield from e._ordered_runs()

    @property
    def delta_product(self) -> Fraction:
        """``prod (1 - delta_i)``, computed from the counts: ``(1 - delta)^n`` per distinct delta,
        in GMP rationals, cached.

        Guarantee: exact.

        Raises:
            CostTooHigh: the exact product would have more than ``MAX_DELTA_PRODUCT_BITS``
                bits (about ``k`` times twice the bits of delta's denominator), estimated
                before any work.
        """
        try:
            return self._P  # type: ignore[return-value]
        except AttributeError:
            pass
        by_delta: dict = {}
        for m, n in self.groups():
            if m.delta:
                by_delta[m.delta] = by_delta.get(m.delta, 0) + n
        bits = sum(n * 2 * d.denominator.bit_length() for d, n in by_delta.items())
        if bits > MAX_DELTA_PRODUCT_BITS:
            raise CostTooHigh(
                "delta",
                f"the exact product prod(1 - delta_i) of these {self._k} mechanisms would have about {bits:.3g} bits "
                f"(limit {MAX_DELTA_PRODUCT_BITS:.3g}, about 4 s); give the deltas with smaller denominators "
                "(1e-6 is a 20-bit one), or fewer mechanisms with delta > 0",
                estimate=bits, limit=MAX_DELTA_PRODUCT_BITS, alternative="deltas with smaller denominators")
        if not by_delta:
            P = Fraction(1)
        else:
            from ._backend import mpq

            acc = mpq(1)
            for d, n in by_delta.items():
                acc *= (1 - mpq(d.numerator, d.denominator)) ** n
            # GMP keeps the rational in lowest terms: no second gcd (Fraction's costs minutes at 10^7 bits)
            P = coprime_fraction(int(acc.numerator), int(acc.denominator))
        object.__setattr__(self, "_P", P)
        return P

    def delta_product_balls(self, prec: int) -> tuple:
        """``(P, 1 - P)`` as Arb balls, ``P = prod (1 - delta_i)``, each with about ``prec``
        bits of relative accuracy, at any number of mechanisms: from
        ``L = sum_d n_d log1p(-d)`` (one ``log1p`` per distinct delta, times its count, at
        ``prec + log2 k + 32`` bits), ``P = exp(L)`` and ``1 - P = -expm1(L)`` (no cancellation
        when ``P`` is near 1). 10^9 mechanisms of delta = 1e-8, whose exact product would have
        5.4e10 bits, take microseconds.

        Guarantee: enclosure (both balls contain the exact values). Raises: nothing.

        Examples:
            >>> import math
            >>> p, q = mechanisms(eps="0.1", delta="1e-8", k=10**9).delta_product_balls(64)
            >>> P = math.exp(10**9 * math.log1p(-1e-8))   # (1 - 1e-8)^(10^9), about e^-10
            >>> abs(float(p.mid()) / P - 1) < 1e-12, abs(float(q.mid()) - (1 - P)) < 1e-15
            (True, True)
        """
        from ._backend import arb, workprec
        from .numbers import arb_of_fraction

        by_delta: dict = {}
        for m, n in self.groups():
            if m.delta:
                by_delta[m.delta] = by_delta.get(m.delta, 0) + n
        if any(d == 1 for d in by_delta):
            return arb(0), arb(1)
        wp = int(prec) + self._k.bit_length() + 32
        with workprec(wp):
            L = arb(0)
            for d, n in by_delta.items():
                L += n * (-arb_of_fraction(d)).log1p()
            return L.exp(), -L.expm1()

    def describe(self) -> str:
        """A short human description (``"10 x Mechanism(eps=1/10, delta=0)"``). Raises: nothing."""
        gs = self.groups()
        if len(gs) == 1:
            m, n = gs[0]
            return f"{n} x {m!r}"
        if len(gs) <= 4:
            return " + ".join(f"{n} x {m!r}" for m, n in gs)
        return f"{self._k} mechanisms ({len(gs)} distinct)"

    # -- sequence behaviour ----------------------------------------------
    def __len__(self) -> int:
        return self._k

    def __iter__(self) -> Iterator[Mechanism]:
        for m, n in self._ordered_runs():
            for _ in range(n):
                yield m

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop, step = index.indices(self._k)
            return tuple(self[i] for i in range(start, stop, step))
        i = parse_int(index, "index")
        if i < 0:
            i += self._k
        if not 0 <= i < self._k:
            raise IndexError("composition index out of range")
        for m, n in self._ordered_runs():
            if i < n:
                return m
            i -= n
        raise IndexError("composition index out of range")  # pragma: no cover

    def __add__(self, other: object) -> "Composition":
        if isinstance(other, (Composition, Mechanism)):
            return Composition([(self, 1), (other, 1)])
        if isinstance(other, (tuple, list)):
            return Composition([(self, 1), (Composition.of(other), 1)]) if other else self
        return NotImplemented

    def __radd__(self, other: object) -> "Composition":
        if isinstance(other, (tuple, list)):
            return Composition([(Composition.of(other), 1), (self, 1)]) if other else self
        return NotImplemented

    def __mul__(self, k: object) -> "Composition":
        if isinstance(k, bool) or not isinstance(k, int):
            return NotImplemented
        return self.repeat(k)

    __rmul__ = __mul__

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Composition):
            # cheap answers first: 3 values x 1e9 repeats are 3e9 runs to walk
            if self._k != other._k:
                return False
            if self._parts == other._parts:
                return True
            if self.groups() != other.groups():
                return False
            return all(a == b for a, b in itertools.zip_longest(self.runs(), other.runs()))
        if isinstance(other, (tuple, list)):
            return self._k == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __hash__(self) -> int:
        # equal compositions have equal runs, hence equal k and groups (in first-appearance order)
        return hash((Composition, self._k, self.groups()))

    def __repr__(self) -> str:
        return f"Composition({self.describe()})"

    # -- JSON ------------------------------------------------------------
    def to_json(self) -> dict:
        """The versioned JSON object: ``{"exactdp_event": 1, "type": "composition",
        "parts": [{"count": n, "event": {...}}, ...]}``. Guarantee: exact (round-trips).

        Raises:
            InvalidArgument: a mechanism with no finite description.
        """
        parts = []
        for e, n in self._parts:
            ej = e.to_json()
            ej.pop("exactdp_event", None)
            parts.append({"count": n, "event": ej})
        return {"exactdp_event": JSON_VERSION, "type": "composition", "parts": parts}

    @classmethod
    def from_json(cls, obj: object) -> "Composition":
        """A composition from its JSON object; a mechanism object gives a one-part composition.

        Guarantee: exact.

        Raises:
            InvalidArgument: malformed object (named by its path), unknown version.
        """
        if not isinstance(obj, dict):
            raise InvalidArgument("composition", "a JSON object", type(obj).__name__)
        check_version(obj)
        if obj.get("type", "composition") == "mechanism":
            return cls([(Mechanism.from_json(obj), 1)])
        parts = obj.get("parts")
        if not isinstance(parts, list) or not parts:
            raise InvalidArgument("composition.parts", "a non-empty list of {count, event} objects", parts)
        out: list[Part] = []
        for i, p in enumerate(parts):
            if not isinstance(p, dict) or "event" not in p:
                raise InvalidArgument(f"composition.parts[{i}]", "an object with 'event' and 'count'", p)
            ev = p["event"]
            n = parse_int(p.get("count", 1), f"composition.parts[{i}].count", lo=1)
            if isinstance(ev, dict) and ev.get("type") == "composition":
                out.append((cls.from_json(ev), n))
            else:
                out.append((Mechanism.from_json(ev), n))
        return cls(out)

    def dumps(self) -> str:
        """:meth:`to_json` as a JSON string. Guarantee: exact. Raises: as :meth:`to_json`."""
        return json.dumps(self.to_json())

    @classmethod
    def loads(cls, text: str) -> "Composition":
        """A composition from a JSON string. Guarantee: exact.

        Raises:
            InvalidArgument: malformed JSON (with the position) or object.
        """
        from .numbers.parse import parse_json

        return cls.from_json(parse_json(text, "composition", expected="valid JSON"))


def as_composition(events: object) -> Composition:
    """``events`` as a :class:`Composition`: a Composition, one Mechanism, or a non-empty
    iterable of Mechanisms and Compositions.

    Guarantee: exact (same mechanisms, same order).

    Raises:
        InvalidArgument: empty, or an element that is not a Mechanism.
    """
    if isinstance(events, Composition):
        return events
    if isinstance(events, Mechanism):
        return Composition([(events, 1)])
    if isinstance(events, (str, bytes)) or not hasattr(events, "__iter__"):
        raise InvalidArgument("mechanisms", "an iterable of Mechanism", events)
    try:
        items = list(events)  # type: ignore[call-overload]
    except Exception:
        raise InvalidArgument("mechanisms", "an iterable of Mechanism", events) from None
    if not items:
        raise InvalidArgument("mechanisms", "a non-empty list", "an empty list")
    for i, m in enumerate(items):
        if not isinstance(m, (Mechanism, Composition)):
            raise InvalidArgument(f"mechanisms[{i}]", "a Mechanism", m)
    return Composition.of(items)


def mechanisms(
    eps: Optional[Sequence[object]] = None,
    delta: object = 0,
    *,
    exp_eps: Optional[Sequence[object]] = None,
    k: int = 1,
) -> Composition:
    """Build a composition from parallel lists.

    ``eps`` / ``exp_eps`` is one number or a list; ``delta`` is one value
    or a list as long as the eps list (a single value on either side is
    broadcast to the other's length); the whole list is repeated
    ``k`` times (``k`` copies of a homogeneous mechanism:
    ``mechanisms(eps="0.1", k=100)``), kept as a count.

    Guarantee: exact.

    Raises:
        InvalidArgument: empty lists, both or neither of eps / exp_eps, a delta
            list of the wrong length, k < 1, or any bad number (named by its
            position, e.g. ``eps[2]``).
        CostTooHigh: more than ``MAX_MECHANISMS`` mechanisms in all.

    Examples:
        >>> mechanisms(eps="0.1", k=3) == (Mechanism(eps="0.1"),) * 3
        True
        >>> mechanisms(exp_eps=["11/10", 2], delta="1e-6").k
        2
    """
    if (eps is None) == (exp_eps is None):
        raise InvalidArgument("eps / exp_eps", "given, exactly one of the two", None)
    k = parse_int(k, "k", lo=1)
    name = "eps" if eps is not None else "exp_eps"
    vals = parse_list(eps if eps is not None else exp_eps, name)
    if isinstance(delta, (list, tuple)) or ((type(delta).__module__ or "").startswith("numpy") and getattr(delta, "ndim", 0) == 1):
        deltas = parse_list(delta, "delta")
        if len(deltas) == 1:
            deltas = deltas * len(vals)
        elif len(vals) == 1:
            vals = vals * len(deltas)
        if len(deltas) != len(vals):
            raise InvalidArgument("delta", f"one value or a list of {len(vals)} values (one per eps)", f"{len(deltas)} values")
    else:
        deltas = [delta] * len(vals)
    total = len(vals) * k
    if total > MAX_MECHANISMS:
        raise CostTooHigh("k", f"{len(vals)} x {k} = {total:.3g} mechanisms is refused (len(eps) * k must be in "
                          f"[1, {MAX_MECHANISMS:.0e}]): no kernel answers beyond it within the cost limits (the "
                          "windowed homogeneous one, the fastest, is over them at 1e+12)",
                          estimate=total, limit=MAX_MECHANISMS, alternative="fewer mechanisms")
    out = []
    for i, (v, d) in enumerate(zip(vals, deltas)):
        dd = parse_delta(d, f"delta[{i}]")
        if eps is not None:
            out.append(Mechanism(eps=parse_eps(v, f"eps[{i}]"), delta=dd))
        else:
            out.append(Mechanism(exp_eps=parse_exp_eps(v, f"exp_eps[{i}]"), delta=dd))
    return Composition.of(out).repeat(k)
