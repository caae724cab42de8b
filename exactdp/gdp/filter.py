"""A GDP privacy filter: fully adaptive composition of Gaussian queries (Smith-Thakurta Theorem 1).

An analyst asks queries one at a time and picks each query and its budget mu_i after
seeing the earlier answers. The filter answers while ``sum mu_i^2 <= mu_0^2`` and refuses
(without spending anything) a query that would push the sum over; by Smith-Thakurta
Theorem 1 the whole interaction is then mu_0-GDP, with the same parameter as if the mu_i
had been fixed in advance (Dong-Roth-Su Corollary 3.3). The refusal depends only on the
mu_i, which the analyst knows, so it reveals nothing about the data.

The ledger is exact: each charge ``mu_i^2`` is a rational (``mu_i`` rational, or
``(sensitivity / sigma)^2`` with rational sensitivity^2 and sigma); a mu_i known only as
an enclosure (e.g. from :func:`~exactdp.gdp.gdp_mu`) is charged the square of its upper
end, and a budget mu_0 known only as an enclosure is taken at its lower end, so the filter
never spends more than the true budget. Decisions are exact rational comparisons.

The noise is drawn in double precision with NumPy's Gaussian sampler, at a standard
deviation rounded *up* to a double (so the mechanism run is at most as revealing as the
one charged). The guarantee is that of the ideal real-valued Gaussian mechanism: a
floating-point sampler can leak through the low bits of its output (Mironov, CCS 2012),
which this module does not address.

A filter certifies mu_0-GDP for the whole interaction, whatever was spent: the sum
actually spent is itself adaptive and is not a privacy guarantee (that would be a
privacy odometer, Rogers-Roth-Ullman-Vadhan 2016, which costs more).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Optional, Union

from ..errors import ExactDPError, InvalidArgument
from ..links import implements
from ..numbers import Enclosure, fraction_str, fraction_to_decimal, parse_rational
from .conversions import GDP, gdp_delta, gdp_epsilon, gdp_mu, sqrt_enclosure

__all__ = ["GDPFilter", "FilterEntry", "BudgetExceeded"]


class BudgetExceeded(ExactDPError):
    """A query refused by a :class:`GDPFilter`: its ``mu^2`` exceeds what is left. Nothing was spent.

    Fields: ``requested`` (the charge ``mu^2`` asked, a Fraction), ``remaining`` (the
    budget left, a Fraction), ``label`` (the query's label).
    """

    def __init__(self, requested: Fraction, remaining: Fraction, label: str = ""):
        self.requested = requested
        self.remaining = remaining
        self.label = label
        what = f"query {label!r}" if label else "query"
        super().__init__(
            f"{what} refused: mu^2 = {_dec(requested)} exceeds the remaining budget {_dec(remaining)} "
            f"(sum mu_i^2 <= mu_0^2); nothing was spent"
        )


def _dec(x: Fraction, digits: int = 6) -> str:
    return fraction_to_decimal(x, digits, "up") if x else "0"


@dataclass(frozen=True, kw_only=True)
class FilterEntry:
    """One line of a filter's log.

    ``index`` (1, 2, ... in the order asked, refusals included), ``label``, ``accepted``,
    ``mu_sq`` (the charge: exact, or a certified upper bound when ``charge`` says so; for a
    refusal, what was asked), ``charge`` (``"exact"`` or ``"upper bound"``), ``sigma`` (the
    noise standard deviation used, a double; None for a refusal or an accountant-only
    charge), ``sensitivity_sq`` (the query's squared L2 sensitivity, None when not given)
    and ``spent`` (the total charged after this entry, exact).
    """

    index: int
    label: str
    accepted: bool
    mu_sq: Fraction
    charge: str
    sigma: Optional[float]
    sensitivity_sq: Optional[Fraction]
    spent: Fraction

    def to_dict(self) -> dict:
        """The entry with exact rationals as ``"p/q"`` strings. Guarantee: exact. Raises: nothing."""
        return {
            "index": self.index,
            "label": self.label,
            "accepted": self.accepted,
            "mu_sq": fraction_str(self.mu_sq),
            "charge": self.charge,
            "sigma": self.sigma,
            "sensitivity_sq": None if self.sensitivity_sq is None else fraction_str(self.sensitivity_sq),
            "spent": fraction_str(self.spent),
        }


def _noise_sigma(sens_sq: Fraction, mu_sq: Fraction) -> float:
    """The least double ``s`` with ``s^2 >= sens_sq / mu_sq`` (exact check): noise at least as
    large as the charge assumes."""
    target = sens_sq / mu_sq
    if not Fraction(1, 10**300) <= target <= Fraction(10**300):
        raise InvalidArgument("mu", "a value with sensitivity / mu between 1e-150 and 1e150 (a double noise scale)",
                              fraction_to_decimal(target, 6, "up"))
    s = math.sqrt(float(target))
    while Fraction(s) ** 2 < target:
        s = math.nextafter(s, math.inf)
    while s > 0 and Fraction(math.nextafter(s, 0.0)) ** 2 >= target:
        s = math.nextafter(s, 0.0)
    return s


def _positive(value: object, name: str) -> Fraction:
    x = parse_rational(value, name, expected="a rational number > 0")
    if x <= 0:
        raise InvalidArgument(name, "a rational number > 0", value)
    return x


class GDPFilter:
    """A privacy filter for mu-GDP: answers adaptively chosen Gaussian queries while
    ``sum mu_i^2 <= mu_0^2`` (see the module docstring).

    Guarantee: exact ledger (rational charges, exact comparisons; enclosures are charged
    their upper end and a budget enclosure is taken at its lower end). The interaction is
    mu_0-GDP (Smith-Thakurta Theorem 1) for the ideal Gaussian mechanism.

    Parameters:
        mu_0: the budget: a rational > 0 (a float is taken exactly), a :class:`GDP`, or an
            :class:`~exactdp.numbers.Enclosure` (its lower end is used).
        data: the data set the callable queries are applied to (any object).
        seed: seed of the NumPy generator of the noise (or pass ``rng``, a ``numpy.random.Generator``).

    Raises:
        InvalidArgument: a budget that is not a non-negative number.

    Examples:
        >>> f = GDPFilter(1, data=[3, 1, 4, 1, 5], seed=7)
        >>> a = f.gaussian(lambda d: sum(d), sensitivity=5, mu=Fraction(3, 5), label="sum")
        >>> f.spent, f.remaining                                    # exact: 1 - 9/25
        (Fraction(9, 25), Fraction(16, 25))
        >>> f.can_afford(mu=Fraction(4, 5)), f.can_afford(mu="0.81")
        (True, False)
        >>> f.charge(mu=Fraction(4, 5), label="a 4/5-GDP mechanism run elsewhere").spent
        Fraction(1, 1)
        >>> f.epsilon("1e-5", digits=8).text(8)                     # what the filter certifies: mu_0 = 1
        '[4.3771780, 4.3771781]'

    References: Smith-Thakurta Theorem 1 (the filter), Claim 2 (any mu_i-GDP mechanism,
    not only Gaussian noise); Dong-Roth-Su Theorem 2.7 (the Gaussian mechanism).
    """

    def __init__(self, mu_0: object, *, data: Any = None, seed: Optional[int] = None, rng: Any = None):
        self._budget = _budget_sq(mu_0)
        self._spent = Fraction(0)
        self._log: list[FilterEntry] = []
        self.data = data
        if rng is None:
            import numpy as np

            rng = np.random.default_rng(seed)
        self._rng = rng

    @classmethod
    def for_target(cls, eps: object, delta: object, **kwargs: Any) -> "GDPFilter":
        """A filter whose whole interaction is (eps, delta)-DP: budget the lower end of
        :func:`~exactdp.gdp.gdp_mu` (30 digits), so the target certainly holds.

        Guarantee: exact budget (a rational <= the largest admissible mu). Raises: as gdp_mu.
        """
        return cls(gdp_mu(eps, delta, digits=30), **kwargs)

    # -- the ledger ------------------------------------------------------
    @property
    def budget(self) -> Fraction:
        """``mu_0^2``, exact."""
        return self._budget

    @property
    def spent(self) -> Fraction:
        """``sum mu_i^2`` over the accepted queries, exact."""
        return self._spent

    @property
    def remaining(self) -> Fraction:
        """``mu_0^2 - sum mu_i^2``, exact (>= 0)."""
        return self._budget - self._spent

    def remaining_mu(self, digits: int = 30) -> Enclosure:
        """``sqrt(remaining)``: the largest mu a next query may have.

        Guarantee: exact when rational, else an enclosure to ``digits``. Raises: InvalidArgument (digits).
        """
        return sqrt_enclosure(self.remaining, digits)

    @property
    def log(self) -> tuple[FilterEntry, ...]:
        """Every query asked, accepted or refused, in order."""
        return tuple(self._log)

    @implements("Smith-Thakurta Theorem 1")
    def guarantee(self) -> GDP:
        """The guarantee of the whole interaction: mu_0-GDP, whatever the analyst does.

        Guarantee: exact (Smith-Thakurta Theorem 1). Raises: nothing.
        """
        return GDP(mu_sq=self._budget)

    def epsilon(self, delta: object, *, digits: int = 30) -> Enclosure:
        """The least eps such that the interaction is (eps, delta)-DP (of mu_0-GDP).

        Guarantee and Raises: as :func:`~exactdp.gdp.gdp_epsilon`. References: Smith-Thakurta Theorem 1.
        """
        return gdp_epsilon(self.guarantee(), delta, digits=digits)

    def delta(self, eps: object = None, *, exp_eps: object = None, digits: int = 30) -> Enclosure:
        """The least delta such that the interaction is (eps, delta)-DP (of mu_0-GDP).

        Guarantee and Raises: as :func:`~exactdp.gdp.gdp_delta`. References: Smith-Thakurta Theorem 1.
        """
        return gdp_delta(self.guarantee(), eps, exp_eps=exp_eps, digits=digits)

    # -- queries ---------------------------------------------------------
    def can_afford(self, *, mu: object = None, mu_sq: object = None, sigma: object = None, sensitivity: object = None,
                   sensitivity_sq: object = None) -> bool:
        """Would a query with these parameters be answered? (The analyst can always predict a
        refusal: it depends on the mu_i only.) Guarantee: exact decision. Raises: InvalidArgument."""
        charge, _, _, _ = _charge_of(mu, mu_sq, sigma, sensitivity, sensitivity_sq, need_noise=False)
        return self._spent + charge <= self._budget

    @implements("Smith-Thakurta Theorem 1")
    def gaussian(
        self,
        query: Union[Callable[[Any], Any], Any],
        *,
        sensitivity: object = None,
        sensitivity_sq: object = None,
        mu: object = None,
        mu_sq: object = None,
        sigma: object = None,
        label: str = "",
    ) -> Any:
        """Answer ``query`` with Gaussian noise, charging ``mu^2``; refuse when it does not fit.

        Guarantee: exact ledger; the answer is ``query(data) + N(0, s^2 I)`` with ``s`` a
        double >= ``sensitivity / mu`` (so the mechanism is at most mu-GDP as charged).

        Parameters:
            query: a callable applied to the filter's ``data`` (returning a number or an
                array), or the true value itself.
            sensitivity: the query's L2 sensitivity (a rational > 0); or ``sensitivity_sq``,
                its square (e.g. 2 for a histogram under replacement of one record).
            mu: this query's budget (rational > 0, or an Enclosure: charged its upper end);
                or ``mu_sq``, its square (a rational > 0: ``mu_sq=f.remaining`` spends
                the rest exactly); or ``sigma``, the noise standard deviation (rational > 0),
                charged ``(sensitivity / sigma)^2``.
            label: a name for the log.

        Raises:
            BudgetExceeded: the charge exceeds the remaining budget (logged; nothing spent,
                the query is not evaluated).
            InvalidArgument: bad or missing parameters, or a query value that is not finite.

        References: Smith-Thakurta Theorem 1; Dong-Roth-Su Theorem 2.7.
        """
        import numpy as np

        charge, kind, s, sens_sq = _charge_of(mu, mu_sq, sigma, sensitivity, sensitivity_sq, need_noise=True)
        self._admit(charge, kind, s, sens_sq, label, commit=False)
        value = query(self.data) if callable(query) else query
        try:
            arr = np.asarray(value, dtype=float)
        except (TypeError, ValueError):
            raise InvalidArgument("query", "a number or an array of numbers", f"a value of type {type(value).__name__}") from None
        if not np.all(np.isfinite(arr)):
            raise InvalidArgument("query", "a finite number or array of finite numbers", "a value with NaN or inf")
        noisy = arr + s * self._rng.standard_normal(arr.shape)
        self._admit(charge, kind, s, sens_sq, label, commit=True)
        return float(noisy) if noisy.shape == () else noisy

    @implements("Smith-Thakurta Theorem 1", "Smith-Thakurta Claim 2")
    def charge(self, *, mu: object = None, mu_sq: object = None, sigma: object = None, sensitivity: object = None,
               sensitivity_sq: object = None, label: str = "") -> FilterEntry:
        """Charge a mu-GDP mechanism run elsewhere (any mechanism, not only Gaussian noise:
        Smith-Thakurta Claim 2); refuse when it does not fit.

        Guarantee: exact ledger. Raises: BudgetExceeded (logged, nothing spent), InvalidArgument.
        """
        charge, kind, _, sens_sq = _charge_of(mu, mu_sq, sigma, sensitivity, sensitivity_sq, need_noise=False)
        return self._admit(charge, kind, None, sens_sq, label, commit=True)

    def _admit(self, mu_sq: Fraction, kind: str, sigma: Optional[float], sens_sq: Optional[Fraction], label: str,
               *, commit: bool) -> FilterEntry:
        label = str(label)
        if self._spent + mu_sq > self._budget:
            self._log.append(FilterEntry(index=len(self._log) + 1, label=label, accepted=False, mu_sq=mu_sq, charge=kind, sigma=None, sensitivity_sq=sens_sq, spent=self._spent))
            raise BudgetExceeded(mu_sq, self.remaining, label)
        entry = FilterEntry(index=len(self._log) + 1, label=label, accepted=True, mu_sq=mu_sq, charge=kind, sigma=sigma, sensitivity_sq=sens_sq, spent=self._spent + mu_sq)
        if commit:
            self._spent += mu_sq
            self._log.append(entry)
        return entry

    # -- reports ---------------------------------------------------------
    def report(self, *, eps: object = None, delta: object = None, digits: int = 6) -> str:
        """The log as text, then the budget, what was spent and is left, and the (eps, delta)
        the filter certifies (for ``eps`` and/or ``delta`` when given).

        Guarantee: exact ledger figures (rounded up for display, exact fractions beside);
        the (eps, delta) figures are enclosures. Raises: InvalidArgument, as gdp_delta / gdp_epsilon.
        """
        lines = [f"GDP filter: budget mu_0^2 = {fraction_str(self._budget)} (mu_0 = {self.guarantee().mu.text(digits)})"]
        lines.append(f"{'#':>3}  {'query':<28} {'mu_i^2':>12}  {'sigma':>12}  {'spent':>12}  status")
        for e in self._log:
            sig = f"{e.sigma:.6g}" if e.sigma is not None else "-"
            status = "answered" if e.accepted else "REFUSED (nothing spent)"
            if e.accepted and e.charge != "exact":
                status += f" ({e.charge})"
            if e.accepted and e.sigma is None:
                status = "charged" + status[len("answered"):]
            lines.append(f"{e.index:>3}  {e.label[:28]:<28} {_dec(e.mu_sq):>12}  {sig:>12}  {_dec(e.spent):>12}  {status}")
        lines.append(f"spent sum mu_i^2 = {fraction_str(self._spent)} = {_dec(self._spent, digits)}; "
                     f"left {fraction_str(self.remaining)} = {_dec(self.remaining, digits)}")
        g = self.guarantee()
        if delta is not None:
            lines.append(f"certified: mu_0-GDP => (eps, {delta})-DP with eps = {gdp_epsilon(g, delta, digits=digits).text(digits)}")
        if eps is not None:
            lines.append(f"certified: mu_0-GDP => ({eps}, delta)-DP with delta = {gdp_delta(g, eps, digits=digits).text(digits)}")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        """The ledger as JSON-ready data (exact rationals as ``"p/q"``). Guarantee: exact. Raises: nothing."""
        return {
            "budget_mu_sq": fraction_str(self._budget),
            "spent": fraction_str(self._spent),
            "remaining": fraction_str(self.remaining),
            "log": [e.to_dict() for e in self._log],
        }

    def __repr__(self) -> str:
        return (f"GDPFilter(budget mu_0^2={fraction_str(self._budget)}, spent={fraction_str(self._spent)}, "
                f"queries={sum(e.accepted for e in self._log)} answered / {len(self._log)} asked)")


def _budget_sq(mu_0: object) -> Fraction:
    """``mu_0^2`` from a rational, a GDP, or an Enclosure (its lower end: never above the truth)."""
    if isinstance(mu_0, GDP):
        return mu_0.mu_sq
    if isinstance(mu_0, Enclosure):
        if mu_0.infinite or mu_0.lower < 0:
            raise InvalidArgument("mu_0", "a finite enclosure of a number >= 0", mu_0)
        return mu_0.lower ** 2  # type: ignore[operator]
    x = parse_rational(mu_0, "mu_0", expected="a rational number >= 0")
    if x < 0:
        raise InvalidArgument("mu_0", "a rational number >= 0", mu_0)
    return x * x


def _charge_of(mu: object, mu_sq: object, sigma: object, sensitivity: object, sensitivity_sq: object, *,
               need_noise: bool) -> tuple[Fraction, str, Optional[float], Optional[Fraction]]:
    """``(mu^2 charged, "exact" | "upper bound", noise sigma (a double) or None, sensitivity^2 or None)``."""
    if sum(x is not None for x in (mu, mu_sq, sigma)) != 1:
        raise InvalidArgument("mu / mu_sq / sigma", "given, exactly one of the three", None)
    if sensitivity is not None and sensitivity_sq is not None:
        raise InvalidArgument("sensitivity / sensitivity_sq", "given, at most one of the two", None)
    sens_sq: Optional[Fraction] = None
    if sensitivity is not None:
        sens_sq = _positive(sensitivity, "sensitivity") ** 2
    elif sensitivity_sq is not None:
        sens_sq = _positive(sensitivity_sq, "sensitivity_sq")
    if sens_sq is None and (need_noise or sigma is not None):
        raise InvalidArgument("sensitivity", "given (a rational > 0), or sensitivity_sq", None)
    kind = "exact"
    if sigma is not None:
        sg = _positive(sigma, "sigma")
        mu_sq = sens_sq / (sg * sg)  # type: ignore[operator]
        s: Optional[float] = None
        if need_noise:
            if not Fraction(1, 10**150) <= sg <= Fraction(10**150):
                raise InvalidArgument("sigma", "a rational between 1e-150 and 1e150 (a double noise scale)", sigma)
            s = float(sg)
            while Fraction(s) < sg:  # a double >= sigma: never less noise than charged
                s = math.nextafter(s, math.inf)
        return mu_sq, kind, s, sens_sq
    if mu_sq is not None:
        mu_sq = _positive(mu_sq, "mu_sq")
    elif isinstance(mu, GDP):
        mu_sq = mu.mu_sq
    elif isinstance(mu, Enclosure):
        if mu.infinite or mu.lower < 0:
            raise InvalidArgument("mu", "a finite enclosure of a number > 0", mu)
        mu_sq = mu.upper ** 2  # type: ignore[operator]
        kind = "exact" if mu.exact is not None else "upper bound"
    else:
        mu_sq = _positive(mu, "mu") ** 2
    if mu_sq <= 0:
        raise InvalidArgument("mu", "> 0 (mu = 0 would need infinite noise)", mu)
    s = _noise_sigma(sens_sq, mu_sq) if need_noise else None  # type: ignore[arg-type]
    return mu_sq, kind, s, sens_sq
