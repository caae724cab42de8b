"""Numbers: parsing and validation, the exp-space model, enclosures, precision, formatting.

The bottom layer of exactdp (``docs/architecture.md``); it imports only
:mod:`exactdp.errors` and :mod:`exactdp._backend`.

* :mod:`.parse` every user number is parsed or refused here (exact: ``Fraction(x)``).
* :mod:`.expnum` positive reals in exp-space (``w = e^eps``) known exactly:
  :class:`RatExp` ``q e^r``, :class:`Root` ``n^(1/D)``, :class:`Computable`; exact sign decisions.
* :mod:`.enclosure` :class:`Enclosure`, the value type of every result.
* :mod:`.precision` one digits-to-bits rule, one refinement loop, ``MAXPREC``.
* :mod:`.fmt` exact ball endpoints and outward-rounded decimals.
"""

from .enclosure import Enclosure
from .expnum import Computable, ExpNum, RatExp, Root, log_sign_of_product
from .fmt import arb_bounds, fraction_str, fraction_to_decimal, short_fraction
from .parse import (
    MAX_DECIMAL_EXPONENT,
    MAX_NUMBER_DIGITS,
    as_scalar,
    parse_choice,
    parse_delta,
    parse_eps,
    parse_exp_eps,
    parse_int,
    parse_list,
    parse_positive,
    parse_rational,
    screen_text,
)
from .precision import GUARD_BITS, MAXPREC, accurate, digits_to_bits, refine

__all__ = [
    "Enclosure",
    "ExpNum",
    "RatExp",
    "Root",
    "Computable",
    "log_sign_of_product",
    "arb_bounds",
    "fraction_str",
    "fraction_to_decimal",
    "short_fraction",
    "parse_rational",
    "parse_eps",
    "parse_exp_eps",
    "parse_delta",
    "parse_positive",
    "parse_int",
    "parse_choice",
    "parse_list",
    "as_scalar",
    "screen_text",
    "MAX_DECIMAL_EXPONENT",
    "MAX_NUMBER_DIGITS",
    "MAXPREC",
    "GUARD_BITS",
    "digits_to_bits",
    "refine",
    "accurate",
]
