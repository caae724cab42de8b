"""Numbers: parsing and validation, the exp-space model, enclosures, precision, formatting.

The bottom layer of exactdp (``docs/architecture.md``); it imports only
:mod:`exactdp.errors` and :mod:`exactdp._backend`.

* :mod:`.parse` every user number is parsed or refused here (exact: ``Fraction(x)``).
* :mod:`.expnum` positive reals in exp-space (``w = e^eps``) known exactly:
  :class:`RatExp` ``q e^r``, :class:`Root` ``n^(1/D)``, :class:`Computable`; exact sign decisions.
* :mod:`.enclosure` :class:`Enclosure`, the value type of every result.
* :mod:`.guarantee` :class:`Guarantee`, the checked tier of every result.
* :mod:`.precision` one digits-to-bits rule, one start rule, one refinement loop, ``decide_sign``, ``MAXPREC``.
* :mod:`.fmt` exact ball endpoints and outward-rounded decimals.
"""

from __future__ import annotations

import importlib
from typing import Any

#: public name -> submodule (loaded on first use, so that :mod:`.parse` stays light)
_EXPORTS = {
    "Enclosure": "enclosure", "Guarantee": "guarantee", "TIERS": "guarantee",
    "ExpNum": "expnum", "RatExp": "expnum", "Root": "expnum", "Computable": "expnum", "log_sign_of_product": "expnum",
    "arb_bounds": "fmt", "arb_of_fraction": "fmt", "fraction_str": "fmt", "fraction_to_decimal": "fmt", "short_fraction": "fmt", "pow2_text": "fmt",
    "MAX_DECIMAL_EXPONENT": "parse", "MAX_NUMBER_DIGITS": "parse", "as_scalar": "parse", "parse_choice": "parse",
    "parse_delta": "parse", "parse_eps": "parse", "parse_exp_eps": "parse", "parse_int": "parse", "parse_list": "parse",
    "parse_positive": "parse", "parse_unit": "parse", "parse_json": "parse", "parse_rational": "parse", "warn_float": "parse", "screen_text": "parse", "coprime_fraction": "parse",
    "GUARD_BITS": "precision", "MAXPREC": "precision", "accurate": "precision", "digits_to_bits": "precision",
    "refine": "precision", "start_prec": "precision", "decide_sign": "precision", "START_GUARD": "precision",
    "DECISION_START": "precision",
}

__all__ = [
    "Enclosure",
    "Guarantee",
    "TIERS",
    "ExpNum",
    "RatExp",
    "Root",
    "Computable",
    "log_sign_of_product",
    "arb_bounds",
    "arb_of_fraction",
    "fraction_str",
    "fraction_to_decimal",
    "short_fraction",
    "pow2_text",
    "parse_rational",
    "warn_float",
    "parse_unit",
    "parse_json",
    "parse_eps",
    "parse_exp_eps",
    "parse_delta",
    "parse_positive",
    "parse_int",
    "parse_choice",
    "parse_list",
    "as_scalar",
    "screen_text",
    "coprime_fraction",
    "MAX_DECIMAL_EXPONENT",
    "MAX_NUMBER_DIGITS",
    "MAXPREC",
    "GUARD_BITS",
    "digits_to_bits",
    "refine",
    "start_prec",
    "decide_sign",
    "START_GUARD",
    "DECISION_START",
    "accurate",
]


def __getattr__(name: str) -> Any:
    sub = _EXPORTS.get(name)
    if sub is None:
        raise AttributeError(f"module 'exactdp.numbers' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{sub}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
