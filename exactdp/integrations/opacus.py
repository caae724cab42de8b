"""An Opacus accountant whose epsilon is exactdp's certified one.

:class:`ExactAccountant` implements Opacus's accountant interface (``IAccountant``): the
privacy engine calls ``step(noise_multiplier=..., sample_rate=...)`` after every optimizer
step, and ``get_epsilon(delta)`` answers with the upper end of exactdp's certified enclosure
of the add/remove epsilon of the Poisson-subsampled Gaussian steps taken, rounded up to a float.
The one line a user changes::

    privacy_engine = PrivacyEngine()
    privacy_engine.accountant = ExactAccountant()      # instead of the default PRV accountant

Importing this module registers the accountant under the name ``"exactdp"`` with Opacus, so
``PrivacyEngine(accountant="exactdp")`` works too.

The history is Opacus's: a list of ``(noise_multiplier, sample_rate, num_steps)``, neighbouring
steps with the same parameters merged into one entry; a ``state_dict`` of this accountant
loads into another (and the other way, into exactdp from a state saved by Opacus's own
accountants after replacing its ``mechanism``). Each float of the history is read as the
number it is exactly (``Fraction(x)``). A noise multiplier of 0 is a step without noise:
epsilon is then infinite.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Optional

from ..accounting import Accountant
from ..accounting.accountant import MAX_DIGITS, RELATIONS
from ..errors import InvalidArgument
from ..noise_events import Gaussian, PoissonSampled
from ..numbers import Enclosure, parse_choice, parse_int
from .common import exact_float, float_up, missing

try:  # the integration works only with Opacus installed; importing this module does not need it
    from opacus.accountants import IAccountant as _IAccountant
    from opacus.accountants import register_accountant as _register
except ImportError:  # pragma: no cover - exercised in an environment without opacus
    _IAccountant = None
    _register = None

__all__ = ["ExactAccountant", "EXTRA", "MECHANISM"]

#: The extra that installs Opacus (and torch).
EXTRA = "opacus"

#: The name of this accountant in Opacus's registry (``PrivacyEngine(accountant="exactdp")``).
MECHANISM = "exactdp"


def _require() -> None:
    if _IAccountant is None:
        raise missing("opacus", EXTRA)


class ExactAccountant(_IAccountant or object):  # type: ignore[misc]
    """Opacus's accountant interface over exactdp's certified accountant.

    ``relation``: ``"add_remove"`` (default, Opacus's convention for Poisson sampling),
    ``"remove"`` or ``"add"`` (one direction), ``"replace_one"``. ``digits`` (default 3: the
    upper end within 0.05 % of the optimum): the relative accuracy asked of the enclosure; each
    further digit costs several times the time (1000 steps at q = 1/256: about 1 s at 3 digits,
    8 s at 4, on a 2-core machine).

    ``len(accountant)`` is the number of steps taken, as the interface documents (Opacus's own
    RDP and PRV accountants return the number of history entries instead).

    Guarantee: upper bound (``get_epsilon``: the certified upper end, rounded up to a float: a
    valid epsilon for ``delta``); enclosure (``get_epsilon_enclosure``); exact (the history).

    Raises:
        InvalidArgument: opacus not installed (naming the extra); an unknown relation; digits
            outside [1, MAX_DIGITS]; a step with a negative noise multiplier or a sample rate
            outside [0, 1]; delta outside (0, 1).
        CostTooHigh: a query beyond the accountant's cost model (with the estimate).
    """

    def __init__(self, relation: str = "add_remove", *, digits: int = 3):
        _require()
        super().__init__()
        self.history: list = []
        self.relation = parse_choice(relation, "relation", RELATIONS)
        self.digits = parse_int(digits, "digits", lo=1, hi=MAX_DIGITS)
        self._cache: dict = {}

    def step(self, *, noise_multiplier: float, sample_rate: float) -> None:
        """Record one optimizer step (merged into the last history entry when its parameters are the same).

        Guarantee: exact. Raises: InvalidArgument (noise_multiplier < 0, sample_rate outside [0, 1]).
        """
        _check_step(noise_multiplier, sample_rate, "")
        if self.history and self.history[-1][0] == noise_multiplier and self.history[-1][1] == sample_rate:
            nm, q, n = self.history[-1]
            self.history[-1] = (nm, q, n + 1)
        else:
            self.history.append((noise_multiplier, sample_rate, 1))

    def __len__(self) -> int:
        return sum(int(n) for _, _, n in self.history)

    @classmethod
    def mechanism(cls) -> str:
        """The accountant's name in Opacus (``"exactdp"``). Guarantee: exact. Raises: nothing."""
        return MECHANISM

    def _build(self) -> tuple[Optional[Accountant], bool]:
        """(the exactdp Accountant of the history, or None when no step can leak anything; whether
        a step had no noise). Raises: InvalidArgument (a malformed history)."""
        acc = Accountant(relation=self.relation)
        infinite = False
        for i, entry in enumerate(self.history):
            if not (isinstance(entry, (tuple, list)) and len(entry) == 3):
                raise InvalidArgument(f"history[{i}]", "a (noise_multiplier, sample_rate, num_steps) triple", entry)
            nm, q = _check_step(entry[0], entry[1], f"history[{i}].")
            n = parse_int(entry[2], f"history[{i}].num_steps", lo=0)
            if n == 0 or q == 0:
                continue
            if nm == 0:
                infinite = True
                continue
            g = Gaussian(nm)
            acc.compose(g if q == 1 else PoissonSampled(g, q), n)
        return (acc if acc.steps else None), infinite

    def get_epsilon_enclosure(self, delta: float, digits: Optional[int] = None) -> Enclosure:
        """The certified epsilon at ``delta`` of the steps taken, as an enclosure (0 before any
        step, infinite after a step without noise).

        Guarantee: enclosure. Raises: InvalidArgument (delta outside (0, 1), digits outside
        [1, MAX_DIGITS], a malformed history); CostTooHigh.
        """
        d = exact_float(delta, "delta")
        if not 0 < d < 1:
            raise InvalidArgument("delta", "in (0, 1)", delta)
        digits = self.digits if digits is None else parse_int(digits, "digits", lo=1, hi=MAX_DIGITS)
        key = (tuple(tuple(e) for e in self.history), self.relation, d, digits)
        if key not in self._cache:
            acc, infinite = self._build()
            if infinite:
                value = Enclosure.infinity()
            else:
                value = Enclosure.point(0) if acc is None else acc.epsilon(d, digits)
            self._cache = {key: value}  # the last answer only: the history grows between calls
        return self._cache[key]

    def get_epsilon(self, delta: float, *args, digits: Optional[int] = None, **kwargs) -> float:
        """The certified upper end of epsilon at ``delta``, rounded up to a float (other
        arguments Opacus's accountants take, e.g. ``eps_error``, are ignored).

        Guarantee: upper bound (a valid epsilon). Raises: as :meth:`get_epsilon_enclosure`.
        """
        return float_up(self.get_epsilon_enclosure(delta, digits).upper)

    def state_dict(self, destination=None):
        """Opacus's state: the history and the mechanism name, with this accountant's relation and digits.

        Guarantee: exact. Raises: nothing.
        """
        destination = OrderedDict() if destination is None else destination
        destination["history"] = [tuple(e) for e in self.history]
        destination["mechanism"] = self.mechanism()
        destination["relation"] = self.relation
        destination["digits"] = self.digits
        return destination

    def load_state_dict(self, state_dict) -> None:
        """Load a state saved by :meth:`state_dict` (the relation and digits too, when present).

        Guarantee: exact. Raises: ValueError (Opacus's: empty, no history, another mechanism);
        InvalidArgument (a malformed history, relation or digits).
        """
        super().load_state_dict(state_dict)
        self._build()  # refuse a malformed history now, not at the next query
        if "relation" in state_dict:
            self.relation = parse_choice(state_dict["relation"], "relation", RELATIONS)
        if "digits" in state_dict:
            self.digits = parse_int(state_dict["digits"], "digits", lo=1, hi=MAX_DIGITS)
        self._cache = {}


def _check_step(noise_multiplier: object, sample_rate: object, where: str):
    nm = exact_float(noise_multiplier, f"{where}noise_multiplier")
    if nm < 0:
        raise InvalidArgument(f"{where}noise_multiplier", ">= 0", noise_multiplier)
    q = exact_float(sample_rate, f"{where}sample_rate")
    if not 0 <= q <= 1:
        raise InvalidArgument(f"{where}sample_rate", "in [0, 1]", sample_rate)
    return nm, q


if _register is not None:
    try:
        _register(MECHANISM, ExactAccountant)
    except ValueError:  # pragma: no cover - already registered (a module reloaded)
        pass
