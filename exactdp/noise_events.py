"""Events for what practitioners compose: Gaussian and Laplace noise, randomized response,
Poisson subsampling, and compositions of any events with counts (STYLE.md item 6).

These extend the ``(eps, delta)`` :class:`~exactdp.events.Mechanism` of :mod:`exactdp.events`
into one immutable tree, modelled on dp_accounting's ``DpEvent`` classes:

* :class:`Gaussian` ``(sigma, sensitivity=1)``: adds ``N(0, sigma^2 I)`` to a query whose
  L2 sensitivity (under the neighbouring relation the accountant is asked about) is
  ``sensitivity``;
* :class:`Laplace` ``(b, sensitivity=1)``: adds Laplace noise of scale ``b`` to a query of
  L1 sensitivity ``sensitivity``;
* :class:`RandomizedResponse` ``(noise_parameter, num_buckets=2)``: reports the true value
  with probability ``1 - p``, else a uniformly random one of ``num_buckets`` values;
* :class:`PoissonSampled` ``(event, sample_rate)``: runs ``event`` on a Poisson sample
  (each record kept independently with probability ``sample_rate``);
* :class:`Composed` ``([(event, count), ...])``: the events in order, each ``count`` times
  (``10**6`` steps are one part, never a list).

Every parameter is exact (a float becomes ``Fraction(x)``, its binary value: ``Gaussian(0.1)``
is not ``Gaussian("0.1")``, and a :class:`~exactdp.errors.FloatInputWarning` says so). The JSON form is versioned
(``"exactdp_event": 1``) and shares its ``mechanism`` and ``composition`` objects with
:mod:`exactdp.events`, so any event tree round-trips exactly. The meaning of an event never
changes: what is computed from it (the dominating pair per relation) is stated in
:mod:`exactdp.accounting.laws`.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Iterable, Union

from .errors import InvalidArgument
from .events import JSON_VERSION, Composition, Mechanism, check_version
from .numbers import fraction_str, parse_int, parse_positive, parse_rational, warn_float

__all__ = [
    "Gaussian",
    "Laplace",
    "RandomizedResponse",
    "PoissonSampled",
    "Composed",
    "event_from_json",
    "as_event",
    "MAX_COUNT",
]

#: Largest total count of steps in one composition (beyond it no kernel answers within the cost limits).
MAX_COUNT = 10**12


class _Event:
    """Common behaviour: immutability, equality by fields, repr and JSON."""

    __slots__ = ()
    _type = ""
    _fields: tuple = ()

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def _key(self) -> tuple:
        return tuple(getattr(self, f) for f in self._fields)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._key() == other._key()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((self._type,) + self._key())

    def __repr__(self) -> str:
        args = ", ".join(f"{f}={_text(getattr(self, f))}" for f in self._fields)
        return f"{type(self).__name__}({args})"

    def to_json(self) -> dict:
        """The versioned JSON object of this event. Guarantee: exact (round-trips)."""
        out: dict = {"exactdp_event": JSON_VERSION, "type": self._type}
        for f in self._fields:
            v = getattr(self, f)
            out[f] = _json_value(v)
        return out

    def dumps(self) -> str:
        """:meth:`to_json` as a JSON string. Guarantee: exact."""
        return json.dumps(self.to_json())

    @property
    def count(self) -> int:
        """Number of steps this event stands for (1 for a single mechanism)."""
        return 1


def _text(v: object) -> str:
    if isinstance(v, Fraction):
        return fraction_str(v)
    return repr(v)


def _json_value(v: object):
    if isinstance(v, Fraction):
        return fraction_str(v)
    if isinstance(v, (Mechanism, Composition, _Event)):
        j = v.to_json()
        j.pop("exactdp_event", None)
        return j
    return v


def _set(obj: object, **fields) -> None:
    for k, v in fields.items():
        object.__setattr__(obj, k, v)


class Gaussian(_Event):
    """The Gaussian mechanism: ``f(D) + N(0, sigma^2 I)`` for a query of L2 sensitivity
    ``sensitivity`` under the neighbouring relation asked about.

    Guarantee: exact (fields stored as Fractions).

    Raises:
        InvalidArgument: sigma or sensitivity not a positive rational.

    Examples:
        >>> Gaussian(1.5)
        Gaussian(sigma=3/2, sensitivity=1)
        >>> Gaussian.from_json(Gaussian("0.8").to_json()) == Gaussian("4/5")
        True
    """

    __slots__ = ("sigma", "sensitivity")
    _type = "gaussian"
    _fields = ("sigma", "sensitivity")

    def __init__(self, sigma: object, sensitivity: object = 1):
        warn_float(sigma, "sigma")
        warn_float(sensitivity, "sensitivity")
        _set(self, sigma=parse_positive(sigma, "sigma"), sensitivity=parse_positive(sensitivity, "sensitivity"))

    @classmethod
    def from_json(cls, obj: dict) -> "Gaussian":
        return cls(_req(obj, "sigma"), obj.get("sensitivity", 1))


class Laplace(_Event):
    """The Laplace mechanism: ``f(D) + Lap(b)`` noise for a query of L1 sensitivity ``sensitivity``.

    Guarantee: exact. Raises: InvalidArgument (b or sensitivity not a positive rational).

    Examples:
        >>> Laplace(2)
        Laplace(b=2, sensitivity=1)
    """

    __slots__ = ("b", "sensitivity")
    _type = "laplace"
    _fields = ("b", "sensitivity")

    def __init__(self, b: object, sensitivity: object = 1):
        warn_float(b, "b")
        warn_float(sensitivity, "sensitivity")
        _set(self, b=parse_positive(b, "b"), sensitivity=parse_positive(sensitivity, "sensitivity"))

    @classmethod
    def from_json(cls, obj: dict) -> "Laplace":
        return cls(_req(obj, "b"), obj.get("sensitivity", 1))


class RandomizedResponse(_Event):
    """Randomized response over ``num_buckets`` values: the true value with probability
    ``1 - noise_parameter``, else a value drawn uniformly from all ``num_buckets`` (the true one
    included), as dp_accounting's ``RandomizedResponseDpEvent``. ``noise_parameter = 0`` is not
    private (refused).

    Guarantee: exact. Raises: InvalidArgument (noise_parameter outside (0, 1], num_buckets < 2).

    Examples:
        >>> RandomizedResponse("1/2")
        RandomizedResponse(noise_parameter=1/2, num_buckets=2)
    """

    __slots__ = ("noise_parameter", "num_buckets")
    _type = "randomized_response"
    _fields = ("noise_parameter", "num_buckets")

    def __init__(self, noise_parameter: object, num_buckets: object = 2):
        warn_float(noise_parameter, "noise_parameter")
        p = parse_rational(noise_parameter, "noise_parameter")
        if not (0 < p <= 1):
            raise InvalidArgument("noise_parameter", "in (0, 1]", p)
        _set(self, noise_parameter=p, num_buckets=parse_int(num_buckets, "num_buckets", lo=2, hi=10**18))

    @classmethod
    def from_json(cls, obj: dict) -> "RandomizedResponse":
        return cls(_req(obj, "noise_parameter"), obj.get("num_buckets", 2))


class PoissonSampled(_Event):
    """``event`` run on a Poisson sample of the data set: each record is kept independently with
    probability ``sample_rate`` (DP-SGD's sampling).

    Guarantee: exact. Raises: InvalidArgument (sample_rate outside (0, 1], or an event that is
    not a Gaussian, Laplace, randomized response or (eps, delta) mechanism).

    Examples:
        >>> PoissonSampled(Gaussian(1), "1/256")
        PoissonSampled(event=Gaussian(sigma=1, sensitivity=1), sample_rate=1/256)
    """

    __slots__ = ("event", "sample_rate")
    _type = "poisson_sampled"
    _fields = ("event", "sample_rate")

    def __init__(self, event: object, sample_rate: object):
        if not isinstance(event, (Gaussian, Laplace, RandomizedResponse, Mechanism)):
            raise InvalidArgument("event", "a Gaussian, Laplace, RandomizedResponse or Mechanism to sample", event)
        warn_float(sample_rate, "sample_rate")
        q = parse_rational(sample_rate, "sample_rate")
        if not (0 < q <= 1):
            raise InvalidArgument("sample_rate", "in (0, 1]", q)
        _set(self, event=event, sample_rate=q)

    @classmethod
    def from_json(cls, obj: dict) -> "PoissonSampled":
        return cls(event_from_json(_req(obj, "event"), "event"), _req(obj, "sample_rate"))


#: Any event the accountant composes.
Event = Union[Mechanism, Composition, Gaussian, Laplace, RandomizedResponse, PoissonSampled, "Composed"]

_LEAVES = (Mechanism, Gaussian, Laplace, RandomizedResponse, PoissonSampled)


class Composed(_Event):
    """A composition of any events with counts: ``Composed([(e1, 1000), (e2, 5)])`` is a thousand
    ``e1`` steps then five ``e2``; parts may be compositions themselves. Equal neighbouring parts
    merge into one count. ``count`` is the total number of steps.

    Guarantee: exact. Raises: InvalidArgument (empty, a part that is not an event, a count < 1 or
    a total beyond :data:`MAX_COUNT`).

    Examples:
        >>> c = Composed([(PoissonSampled(Gaussian(1), "0.01"), 10**6)])
        >>> c.count, len(c.parts)
        (1000000, 1)
    """

    __slots__ = ("parts", "_count")
    _type = "composed"
    _fields = ("parts",)

    def __init__(self, parts: Iterable):
        norm: list = []
        for i, part in enumerate(parts):
            if not (isinstance(part, tuple) and len(part) == 2):
                raise InvalidArgument(f"parts[{i}]", "a pair (event, count)", part)
            ev = as_event(part[0], f"parts[{i}]")
            n = parse_int(part[1], f"parts[{i}] count", lo=1, hi=MAX_COUNT)
            if norm and norm[-1][0] == ev:
                norm[-1] = (ev, norm[-1][1] + n)
            else:
                norm.append((ev, n))
        if not norm:
            raise InvalidArgument("parts", "a non-empty list of (event, count)", "an empty list")
        total = sum(n * _steps(e) for e, n in norm)
        if total > MAX_COUNT:
            raise InvalidArgument("count", f"a total number of steps in [1, {MAX_COUNT:.0e}]", total)
        _set(self, parts=tuple(norm), _count=total)

    @property
    def count(self) -> int:
        return self._count

    def leaves(self) -> list:
        """The distinct leaf events with their total counts, in order of first appearance. Guarantee: exact."""
        acc: dict = {}
        for e, n in self.parts:
            for leaf, m in _leaves_of(e):
                acc[leaf] = acc.get(leaf, 0) + n * m
        return list(acc.items())

    def to_json(self) -> dict:
        parts = [{"count": n, "event": _json_value(e)} for e, n in self.parts]
        return {"exactdp_event": JSON_VERSION, "type": self._type, "parts": parts}

    @classmethod
    def from_json(cls, obj: dict) -> "Composed":
        parts = obj.get("parts")
        if not isinstance(parts, list) or not parts:
            raise InvalidArgument("composed.parts", "a non-empty list of {count, event} objects", parts)
        out = []
        for i, p in enumerate(parts):
            if not isinstance(p, dict) or "event" not in p:
                raise InvalidArgument(f"composed.parts[{i}]", "an object with 'event' and 'count'", p)
            out.append((event_from_json(p["event"], f"composed.parts[{i}].event"), p.get("count", 1)))
        return cls(out)

    @classmethod
    def loads(cls, text: str) -> "Composed":
        """Any event tree from a JSON string, as a :class:`Composed`. Guarantee: exact.
        Raises: InvalidArgument (malformed JSON or event)."""
        try:
            obj = json.loads(text)
        except (ValueError, TypeError, RecursionError) as e:
            raise InvalidArgument("events", "valid JSON", str(e)[:80]) from None
        ev = event_from_json(obj, "events")
        return ev if isinstance(ev, Composed) else Composed([(ev, 1)])


def _steps(e) -> int:
    """Steps one event stands for: a Mechanism is one, a Composition its ``k``."""
    if isinstance(e, Composition):
        return e.k
    return 1 if isinstance(e, Mechanism) else e.count


def _leaves_of(e) -> list:
    if isinstance(e, Composed):
        return e.leaves()
    if isinstance(e, Composition):
        return list(e.groups())
    return [(e, 1)]


def _req(obj: dict, key: str):
    if key not in obj:
        raise InvalidArgument(f"{obj.get('type', 'event')}.{key}", "present", "missing")
    return obj[key]


_TYPES = {c._type: c for c in (Gaussian, Laplace, RandomizedResponse, PoissonSampled, Composed)}


def event_from_json(obj: object, name: str = "event"):
    """Any event from its JSON object (the types of this module, ``mechanism`` and ``composition``).

    Guarantee: exact. Raises: InvalidArgument (not an object, unknown type or version, bad fields).
    """
    if not isinstance(obj, dict):
        raise InvalidArgument(name, "a JSON object with a 'type'", type(obj).__name__)
    check_version(obj)
    t = obj.get("type", "mechanism")
    if t == "mechanism" or (t not in _TYPES and t != "composition" and "type" not in obj):
        return Mechanism.from_json(obj)
    if t == "composition":
        return Composition.from_json(obj)
    if t not in _TYPES:
        raise InvalidArgument(f"{name}.type", f"one of {sorted(list(_TYPES) + ['mechanism', 'composition'])}", t)
    return _TYPES[t].from_json(obj)


def as_event(x: object, name: str = "event"):
    """``x`` if it is an event (a :class:`~exactdp.events.Mechanism`, a
    :class:`~exactdp.events.Composition` or an event of this module). Guarantee: exact.
    Raises: InvalidArgument (anything else)."""
    if isinstance(x, _LEAVES + (Composition, Composed)):
        return x
    raise InvalidArgument(name, "an event (Gaussian, Laplace, RandomizedResponse, PoissonSampled, Mechanism, "
                          "Composition or Composed)", x)
