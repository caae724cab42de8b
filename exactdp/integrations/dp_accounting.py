"""dp_accounting's events and accountant interface over exactdp's certified accountant.

* :func:`from_dp_event` turns a dp_accounting ``DpEvent`` tree into exactdp's events
  (:mod:`exactdp.noise_events`), :func:`to_dp_event` turns them back;
* :class:`ExactPrivacyAccountant` is a dp_accounting ``PrivacyAccountant``: a program written
  for ``PLDAccountant`` or ``RdpAccountant`` gets certified answers by changing the one line
  that builds the accountant.

The events both sides have:

==========================================  ==================================================
dp_accounting                               exactdp
==========================================  ==================================================
``GaussianDpEvent(noise_multiplier)``       ``Gaussian(sigma=noise_multiplier)`` (sensitivity 1)
``LaplaceDpEvent(noise_multiplier)``        ``Laplace(b=noise_multiplier)`` (sensitivity 1)
``RandomizedResponseDpEvent(p, k)``         ``RandomizedResponse(p, k)``
``PoissonSampledDpEvent(q, event)``         ``PoissonSampled(event, q)``
``SelfComposedDpEvent(event, n)``           ``Composed([(event, n)])``
``ComposedDpEvent([e1, e2, ...])``          ``Composed([(e1, 1), (e2, 1), ...])``
``NoOpDpEvent()``                           ``Mechanism(eps=0, delta=0)`` (no privacy loss)
==========================================  ==================================================

Round trips are lossless. dp_accounting holds floats: a float becomes ``Fraction(x)``, the
number it is exactly, and goes back as the same float, bit for bit. Any exactdp event tree
whose numbers are floats (and whose sensitivities are 1) comes back equal from
``from_dp_event(to_dp_event(e))``. The other way, ``to_dp_event(from_dp_event(d))`` is ``d``
in a normal form with the same events and counts: neighbouring equal parts of a composition
are merged into one count, a ``ComposedDpEvent`` of one event becomes a ``SelfComposedDpEvent``
of count 1, and the events that do nothing (``NoOpDpEvent``, an empty ``ComposedDpEvent``, a
count of 0, a sampling probability of 0, randomized response over one bucket) become
``NoOpDpEvent()``. dp_accounting's events carry the ratio ``noise_multiplier = sigma /
sensitivity`` only: ``Gaussian(3, sensitivity=2)`` goes as ``GaussianDpEvent(1.5)`` and comes
back as ``Gaussian(1.5)``, the same mechanism (its privacy loss depends on the ratio alone).

An event dp_accounting has and exactdp does not (``NonPrivateDpEvent``,
``UnsupportedDpEvent``, ``SampledWithReplacementDpEvent``,
``SampledWithoutReplacementDpEvent``, ``SingleEpochTreeAggregationDpEvent``,
``DiscreteLaplaceDpEvent``, ``RepeatAndSelectDpEvent``, ``MixtureOfGaussiansDpEvent``,
``ZCDpEvent``, ``TruncatedSubsampledGaussianDpEvent``, Poisson sampling of anything but one
Gaussian, Laplace or randomized-response step) is refused by name, with its place in the tree.
dp_accounting has no ``(eps, delta)`` event: an exactdp :class:`~exactdp.events.Mechanism`
other than the no-op is refused by :func:`to_dp_event`.

Sensitivities and neighbouring relations follow dp_accounting: ``ADD_OR_REMOVE_ONE`` is
exactdp's ``add_remove`` (the larger of the remove and add directions), ``REPLACE_ONE`` its
``replace_one`` (an unsampled Gaussian or Laplace step moves by twice its add/remove
sensitivity). ``REPLACE_SPECIAL`` is refused.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Optional

from ..accounting import Accountant
from ..accounting.accountant import MAX_DIGITS
from ..accounting.laws import law_of
from ..errors import InvalidArgument, NotExact
from ..events import Composition, Mechanism
from ..noise_events import Composed, Gaussian, Laplace, PoissonSampled, RandomizedResponse, as_event
from ..numbers import Enclosure, parse_choice, parse_int
from .common import exact_float, float_down, float_up, missing

try:  # the integration works only with dp_accounting installed; importing this module does not need it
    import dp_accounting as _dpa
    from dp_accounting import dp_event as _ev
except ImportError:  # pragma: no cover - exercised in an environment without dp_accounting
    _dpa = None
    _ev = None

__all__ = ["from_dp_event", "to_dp_event", "ExactPrivacyAccountant", "EXTRA"]

#: The extra that installs dp_accounting.
EXTRA = "dp-accounting"

#: The no-op: a mechanism whose output does not depend on the data.
_NOOP = Mechanism(eps=0, delta=0)

_SUPPORTED = ("GaussianDpEvent, LaplaceDpEvent, RandomizedResponseDpEvent, PoissonSampledDpEvent, "
              "SelfComposedDpEvent, ComposedDpEvent or NoOpDpEvent")


def _require() -> None:
    if _ev is None:
        raise missing("dp_accounting", EXTRA)


def _refused(path: str, expected: str, found: object, event: object, hint: str = "") -> InvalidArgument:
    """The refusal of a dp_accounting event exactdp does not have; ``.event`` is the offending subevent."""
    err = InvalidArgument(path, expected, found, hint=hint)
    err.event = event  # type: ignore[attr-defined]
    return err


def _is_noop(e) -> bool:
    return e == _NOOP or (isinstance(e, PoissonSampled) and e.event == _NOOP)


# -- dp_accounting -> exactdp ------------------------------------------------------------------

def from_dp_event(event: object) -> object:
    """The exactdp event of a dp_accounting ``DpEvent`` tree (table in the module docstring).

    Guarantee: exact (every float becomes the Fraction it is; counts are kept, never expanded).

    Raises:
        InvalidArgument: dp_accounting not installed (naming the extra); an event exactdp does not
            have, or a parameter outside exactdp's range (a noise multiplier of 0, which
            dp_accounting treats as non-private), naming the event's place in the tree, e.g.
            ``event.events[2] must be ...: found SampledWithoutReplacementDpEvent (exactdp has no ...)``.

    Examples:
        >>> from dp_accounting import dp_event
        >>> from_dp_event(dp_event.SelfComposedDpEvent(
        ...     dp_event.PoissonSampledDpEvent(0.00390625, dp_event.GaussianDpEvent(1.5)), 1000))
        Composed(parts=((PoissonSampled(event=Gaussian(sigma=3/2, sensitivity=1), sample_rate=1/256), 1000),))
        >>> from_dp_event(dp_event.GaussianDpEvent(0.1)).sigma     # the float 0.1, exactly
        Fraction(3602879701896397, 36028797018963968)
    """
    _require()
    return _from(event, "event", None)


def _from(e, path: str, non_private: Optional[list]):
    """``non_private``: when a list, non-private events are recorded there and read as no-ops."""
    if isinstance(e, _ev.SelfComposedDpEvent):
        n = parse_int(e.count, f"{path}.count", lo=0)
        inner = _from(e.event, f"{path}.event", non_private)
        return _NOOP if n == 0 else Composed([(inner, n)])
    if isinstance(e, _ev.ComposedDpEvent):
        parts = []
        for i, child in enumerate(e.events):
            where = f"{path}.events[{i}]"
            if isinstance(child, _ev.SelfComposedDpEvent):
                n = parse_int(child.count, f"{where}.count", lo=0)
                if n:
                    parts.append((_from(child.event, f"{where}.event", non_private), n))
            else:
                parts.append((_from(child, where, non_private), 1))
        return Composed(parts) if parts else _NOOP
    if isinstance(e, _ev.PoissonSampledDpEvent):
        q = exact_float(e.sampling_probability, f"{path}.sampling_probability")
        if not 0 <= q <= 1:
            raise InvalidArgument(f"{path}.sampling_probability", "in [0, 1]", e.sampling_probability)
        inner = _from(e.event, f"{path}.event", non_private)
        if isinstance(inner, Composed):
            raise _refused(f"{path}.event", "one Gaussian, Laplace or randomized-response step (exactdp samples "
                           "single steps: compose the sampled step instead)", type(e.event).__name__, e)
        return _NOOP if q == 0 else PoissonSampled(inner, q)
    return _leaf(e, path, non_private)


def _leaf(e, path: str, non_private: Optional[list]):
    if isinstance(e, _ev.NoOpDpEvent):
        return _NOOP
    if isinstance(e, (_ev.GaussianDpEvent, _ev.LaplaceDpEvent)):
        nm = exact_float(e.noise_multiplier, f"{path}.noise_multiplier")
        if nm <= 0:
            if nm == 0 and non_private is not None:
                non_private.append(e)
                return _NOOP
            raise _refused(f"{path}.noise_multiplier", "a float > 0 (0 is dp_accounting's non-private step)",
                           e.noise_multiplier, e)
        return Gaussian(nm) if isinstance(e, _ev.GaussianDpEvent) else Laplace(nm)
    if isinstance(e, _ev.RandomizedResponseDpEvent):
        k = parse_int(e.num_buckets, f"{path}.num_buckets", lo=1)
        p = exact_float(e.noise_parameter, f"{path}.noise_parameter")
        if not 0 <= p <= 1:
            raise InvalidArgument(f"{path}.noise_parameter", "in [0, 1]", e.noise_parameter)
        if k == 1:  # one bucket: the output never depends on the input
            return _NOOP
        if p == 0:
            if non_private is not None:
                non_private.append(e)
                return _NOOP
            raise _refused(f"{path}.noise_parameter", "> 0 (0 is dp_accounting's non-private randomized response)",
                           e.noise_parameter, e)
        return RandomizedResponse(p, k)
    if non_private is not None and isinstance(e, _ev.NonPrivateDpEvent):
        non_private.append(e)
        return _NOOP
    name = type(e).__name__
    raise _refused(path, f"a dp_accounting event that exactdp has ({_SUPPORTED})", name, e,
                   hint=f"exactdp has no {name}" if isinstance(e, _ev.DpEvent) else "not a dp_accounting DpEvent")


# -- exactdp -> dp_accounting ------------------------------------------------------------------

def to_dp_event(event: object, *, rounding: str = "exact") -> object:
    """The dp_accounting ``DpEvent`` of an exactdp event (table in the module docstring).

    ``rounding="exact"`` (default) refuses a number that is not a float exactly (``1/3``, or
    ``sigma / sensitivity`` of ``Gaussian(1, 3)``); ``rounding="conservative"`` rounds it to the
    nearest float on the pessimistic side instead: noise multipliers and noise parameters down,
    sampling probabilities up (the event it returns is then at least as private as dp_accounting
    will account it).

    Guarantee: exact with ``rounding="exact"`` (``from_dp_event`` gives the event back, up to
    the sensitivity, see the module docstring); an upper bound on the privacy loss with
    ``"conservative"``.

    Raises:
        InvalidArgument: dp_accounting not installed; not an exactdp event; an ``(eps, delta)``
            mechanism other than the no-op (dp_accounting has no such event); ``rounding`` not one
            of ``exact``, ``conservative``.
        NotExact: with ``rounding="exact"``, a number that is not a float exactly.

    Examples:
        >>> from exactdp import Gaussian, PoissonSampled
        >>> to_dp_event(PoissonSampled(Gaussian(1.1), 0.01))
        PoissonSampledDpEvent(sampling_probability=0.01, event=GaussianDpEvent(noise_multiplier=1.1))
        >>> to_dp_event(Gaussian("1/3"), rounding="conservative")
        GaussianDpEvent(noise_multiplier=0.3333333333333333)
    """
    _require()
    rounding = parse_choice(rounding, "rounding", ("exact", "conservative"))
    return _to(as_event(event), "event", rounding == "conservative")


def _float(x: Fraction, path: str, conservative: bool, up: bool) -> float:
    f = float_up(x) if up else float_down(x)
    if Fraction(f) != x and not conservative:
        raise NotExact(path, "a float exactly: dp_accounting holds floats (rounding='conservative' rounds it "
                       "to the pessimistic side)", x)
    return f


def _to(e, path: str, cons: bool):
    if isinstance(e, (Composed, Composition)):
        parts = list(e.parts)
        if len(parts) == 1:
            (inner, n), = parts
            return _ev.SelfComposedDpEvent(_to(inner, f"{path}.parts[0]", cons), n)
        children = []
        for i, (inner, n) in enumerate(parts):
            d = _to(inner, f"{path}.parts[{i}]", cons)
            # a composed part of count 1 stays a SelfComposedDpEvent, so that it comes back as a part
            nested = isinstance(inner, (Composed, Composition))
            children.append(_ev.SelfComposedDpEvent(d, n) if n > 1 or nested else d)
        return _ev.ComposedDpEvent(children)
    if isinstance(e, PoissonSampled):
        q = _float(e.sample_rate, f"{path}.sample_rate", cons, up=True)
        return _ev.PoissonSampledDpEvent(q, _to(e.event, f"{path}.event", cons))
    if isinstance(e, Gaussian):
        return _ev.GaussianDpEvent(_float(e.sigma / e.sensitivity, f"{path}.sigma", cons, up=False))
    if isinstance(e, Laplace):
        return _ev.LaplaceDpEvent(_float(e.b / e.sensitivity, f"{path}.b", cons, up=False))
    if isinstance(e, RandomizedResponse):
        return _ev.RandomizedResponseDpEvent(_float(e.noise_parameter, f"{path}.noise_parameter", cons, up=False),
                                             e.num_buckets)
    if e == _NOOP:
        return _ev.NoOpDpEvent()
    raise InvalidArgument(path, "an event dp_accounting has (it has no (eps, delta) event; only "
                          "Mechanism(eps=0, delta=0), the no-op, goes across)", e)


# -- the accountant ----------------------------------------------------------------------------

_Base = _dpa.PrivacyAccountant if _dpa is not None else object


def _relation(neighboring_relation) -> str:
    rel = _dpa.NeighboringRelation
    table = {rel.ADD_OR_REMOVE_ONE: "add_remove", rel.REPLACE_ONE: "replace_one"}
    if neighboring_relation not in table:
        raise InvalidArgument("neighboring_relation", "NeighboringRelation.ADD_OR_REMOVE_ONE or REPLACE_ONE",
                              neighboring_relation)
    return table[neighboring_relation]


class ExactPrivacyAccountant(_Base):  # type: ignore[misc,valid-type]
    """A dp_accounting ``PrivacyAccountant`` whose answers are exactdp's certified ones.

    ``get_epsilon(target_delta)`` and ``get_delta(target_epsilon)`` return the upper end of
    the certified enclosure, rounded up to a float (so the float returned is a valid epsilon or
    delta); :meth:`epsilon_enclosure` and :meth:`delta_enclosure` return the whole
    :class:`~exactdp.numbers.Enclosure`, whose lower end tells how tight the guarantee is.
    ``digits`` (default 3: the upper end within 0.05 % of the optimum) is the relative accuracy
    asked of the enclosure; each further digit costs several times the time (a DP-SGD run of
    1000 steps at q = 1/256: about 1 s at 3 digits, 8 s at 4, on a 2-core machine).

    As dp_accounting asks of every accountant, a ``NonPrivateDpEvent`` (or a noise multiplier
    of 0) makes epsilon infinite and delta 1, and an accountant that composed nothing answers 0.

    Guarantee: upper bound (``get_epsilon``, ``get_delta``: the certified upper end rounded up);
    enclosure (``epsilon_enclosure``, ``delta_enclosure``).

    Raises:
        InvalidArgument: dp_accounting not installed (naming the extra); ``REPLACE_SPECIAL``;
            ``digits`` outside [1, MAX_DIGITS]; a target outside its range (from the queries).
        CostTooHigh: a query beyond the accountant's cost model (with the estimate).
        dp_accounting.UnsupportedEventError: ``compose`` of an event exactdp does not have
            (dp_accounting's own error, carrying exactdp's one-line reason).

    Examples:
        >>> from dp_accounting import dp_event
        >>> acc = ExactPrivacyAccountant()
        >>> _ = acc.compose(dp_event.GaussianDpEvent(2.0), count=10)
        >>> eps = acc.get_epsilon(1e-5)       # the certified upper end, a float rounded up
        >>> round(eps, 3)
        7.511
        >>> e = acc.epsilon_enclosure(1e-5)   # the whole enclosure: the optimum lies in it
        >>> bool(e.lower < e.upper <= eps)
        True
    """

    def __init__(self, neighboring_relation=None, *, digits: int = 3):
        _require()
        if neighboring_relation is None:
            neighboring_relation = _dpa.NeighboringRelation.ADD_OR_REMOVE_ONE
        relation = _relation(neighboring_relation)
        super().__init__(neighboring_relation)
        self.digits = parse_int(digits, "digits", lo=1, hi=MAX_DIGITS)
        self._accountant = Accountant(relation=relation)
        self._directions = ("replace_one",) if relation == "replace_one" else ("remove", "add")
        self._non_private = False

    @property
    def accountant(self) -> Accountant:
        """The exactdp :class:`~exactdp.accounting.Accountant` holding what was composed (its
        ``last`` query reports the lattice, the precision and the time)."""
        return self._accountant

    def _maybe_compose(self, event, count: int, do_compose: bool):
        details = _dpa.PrivacyAccountant.CompositionErrorDetails
        non_private: list = []
        try:
            count = parse_int(count, "count", lo=0)
            converted = _from(event, "event", non_private)
            leaves = converted.leaves() if isinstance(converted, Composed) else [(converted, 1)]
            leaves = [(leaf, n) for leaf, n in leaves if not _is_noop(leaf)]
            for leaf, _ in leaves:
                for direction in self._directions:
                    law_of(leaf, direction)  # refuses a pair this relation does not have
        except InvalidArgument as err:
            return details(invalid_event=getattr(err, "event", event), error_message=str(err))
        if do_compose and count:
            self._non_private = self._non_private or bool(non_private)
            for leaf, n in leaves:
                self._accountant.compose(leaf, n * count)
        return None

    def epsilon_enclosure(self, target_delta: float, digits: Optional[int] = None) -> Enclosure:
        """The certified epsilon at ``target_delta`` of everything composed, as an enclosure.

        Guarantee: enclosure. Raises: InvalidArgument (target_delta outside (0, 1), digits outside
        [1, MAX_DIGITS]); CostTooHigh.
        """
        if self._non_private:
            return Enclosure.infinity()
        if not self._accountant.steps:
            return Enclosure.point(0)
        d = exact_float(target_delta, "target_delta")
        return self._accountant.epsilon(d, self.digits if digits is None else digits)

    def delta_enclosure(self, target_epsilon: float, digits: Optional[int] = None) -> Enclosure:
        """The certified delta at ``target_epsilon`` of everything composed, as an enclosure.

        Guarantee: enclosure. Raises: InvalidArgument (target_epsilon < 0, digits outside
        [1, MAX_DIGITS]); CostTooHigh.
        """
        if self._non_private:
            return Enclosure.point(1)
        if not self._accountant.steps:
            return Enclosure.point(0)
        e = exact_float(target_epsilon, "target_epsilon")
        return self._accountant.delta(e, self.digits if digits is None else digits)

    def get_epsilon(self, target_delta: float) -> float:
        """The certified upper end of epsilon at ``target_delta``, rounded up to a float.

        Guarantee: upper bound (a valid epsilon). Raises: as :meth:`epsilon_enclosure`.
        """
        return float_up(self.epsilon_enclosure(target_delta).upper)

    def get_delta(self, target_epsilon: float) -> float:
        """The certified upper end of delta at ``target_epsilon``, rounded up to a float.

        Guarantee: upper bound (a valid delta). Raises: as :meth:`delta_enclosure`.
        """
        return min(1.0, float_up(self.delta_enclosure(target_epsilon).upper))

