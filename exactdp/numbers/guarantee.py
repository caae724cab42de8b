"""The guarantee tier of a result (STYLE.md item 1): :class:`Guarantee`.

A result says what its value is: ``exact`` (the value itself), ``enclosure`` (an interval
that contains the true value), ``upper bound`` / ``lower bound`` (of the quantity the
result is about), or ``approximate`` (no rigorous claim; the result says how good).
"""

from __future__ import annotations

from ..errors import InvalidArgument

__all__ = ["Guarantee", "TIERS"]

#: The tiers, strongest first.
TIERS = ("exact", "enclosure", "upper bound", "lower bound", "approximate")


class Guarantee(str):
    """A guarantee tier: one of :data:`TIERS`, checked when made.

    A ``str`` (it compares, prints and serialises as its word, so ``r.guarantee == "exact"``
    and JSON output are as before); the constants ``Guarantee.EXACT``, ``ENCLOSURE``,
    ``UPPER``, ``LOWER``, ``APPROXIMATE`` name the tiers.

    Guarantee: exact (a checked word). Raises: InvalidArgument for a word that is not a tier.

    Examples:
        >>> Guarantee("enclosure") == "enclosure", Guarantee.UPPER
        (True, 'upper bound')
        >>> Guarantee("certain")
        Traceback (most recent call last):
        ...
        exactdp.errors.InvalidArgument: guarantee must be one of exact, enclosure, upper bound, lower bound, approximate: found certain
    """

    __slots__ = ()

    EXACT: "Guarantee"
    ENCLOSURE: "Guarantee"
    UPPER: "Guarantee"
    LOWER: "Guarantee"
    APPROXIMATE: "Guarantee"

    def __new__(cls, tier: object) -> "Guarantee":
        if isinstance(tier, Guarantee):
            return tier
        if not isinstance(tier, str) or tier not in TIERS:
            raise InvalidArgument("guarantee", "one of " + ", ".join(TIERS), tier)
        return super().__new__(cls, tier)


Guarantee.EXACT, Guarantee.ENCLOSURE, Guarantee.UPPER, Guarantee.LOWER, Guarantee.APPROXIMATE = (Guarantee(t) for t in TIERS)
