"""Two-sided verdicts on accountants of Gaussian, Laplace, randomized-response and
Poisson-subsampled compositions (DP-SGD): :func:`check_events`, :class:`EventCase`,
:func:`reference`.

A DP-SGD accountant may claim three kinds of answer, and each is judged for what it
claims against a certified enclosure ``[L, U]`` of the true optimal epsilon(delta) (or
delta(eps)) of the composition under the neighbouring relation asked about:

* ``"upper"`` (a privacy guarantee): *unsound* when below ``L`` (a privacy violation),
  *sound* when at least ``U``;
* ``"lower"`` (e.g. prv_accountant's first value): *invalid* when above ``U``, *sound*
  when at most ``L``;
* ``"estimate"``: its signed error ``answer - true`` is reported (an enclosure, exact ends);
  when the estimate states an error bar ``e`` (``|answer - true| <= e``), the verdict says
  whether the bar holds (*sound*) or not (*bar-violated*); without a bar it is *reported*.

Every comparison is exact (the answer as the binary number it is, the enclosure's ends as
Fractions). An enclosure that contains the answer is refined (more digits: the accountant's
lattice is made finer) only as far as needed, and *undecided* remains only when the
enclosure at ``max_digits``, or at the cost limit of :class:`exactdp.Accountant`, still
contains it. The reference is the certified accountant (:class:`exactdp.Accountant`), and
for compositions of unsampled Gaussians the closed form of their mu-GDP privacy profile
(Dong, Roth and Su, Corollaries 2.13 and 3.3: k Gaussian steps of sensitivities ``c_i`` and
noise ``sigma_i`` are exactly ``mu``-GDP with ``mu^2 = sum (c_i / sigma_i)^2``), certified to
12 digits in milliseconds.
"""

from __future__ import annotations

import math
import time
from dataclasses import KW_ONLY, dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Callable, Iterable, Optional, Union

from ..errors import CostTooHigh, ExactDPError, InvalidArgument
from ..noise_events import Composed, Gaussian, PoissonSampled, as_event
from ..numbers import Enclosure, fraction_to_decimal, parse_choice, parse_delta, parse_eps, parse_int
from .case import DIRECTIONS, StatusLists, exact_answer, show

__all__ = ["EventCase", "EventVerdict", "EventReport", "check_events", "decide_event", "reference", "CLAIMS",
           "EVENT_STATUSES", "RELATIONS", "FLOAT_LEVEL", "dpsgd_params", "MAX_EVENT_DIGITS",
           "assert_events_sound", "corpus_cases", "case_of_vector", "read_vectors", "shipped_dpsgd_path", "reference_method"]

#: What an answer claims to be.
CLAIMS = ("upper", "lower", "estimate")

#: Verdicts on one answer: the claim holds (``sound``), an upper bound below the optimum
#: (``unsound``), a lower bound above it (``invalid``), an estimate outside its own error bar
#: (``bar-violated``), an estimate without a bar (``reported``), ``undecided``, ``error``, and
#: ``unsupported`` (the accountant raised NotImplementedError: a case it does not answer).
EVENT_STATUSES = ("sound", "unsound", "invalid", "bar-violated", "reported", "undecided", "error", "unsupported")

#: The neighbouring relations of :class:`exactdp.Accountant`.
RELATIONS = ("add_remove", "remove", "add", "replace_one")

#: A failed claim whose relative distance to the certified optimum is below this is float-level
#: rounding, not a material error (the severity split of reports and audits).
FLOAT_LEVEL = 1e-9

#: Most digits asked of the certified accountant (its MAX_DIGITS).
MAX_EVENT_DIGITS = 12


def _composed(event: object) -> Composed:
    ev = as_event(event)
    return ev if isinstance(ev, Composed) else Composed([(ev, 1)])


@dataclass(frozen=True)
class EventCase:
    """One question put to an accountant of events: an event tree, a neighbouring relation and
    the query (``delta`` when ``direction="epsilon"``: the accountant returns epsilon; ``eps``
    when ``"delta"``), all exact. ``certified`` is a known enclosure of the answer (a corpus
    vector's), used instead of computing one; ``digits`` the digits it holds.

    Guarantee: exact. Raises: InvalidArgument (see :meth:`of`).
    """

    event: Composed
    query: Fraction
    _: KW_ONLY
    direction: str = "epsilon"
    relation: str = "add_remove"
    label: str = ""
    certified: Optional[Enclosure] = field(default=None, compare=False)
    digits: int = field(default=0, compare=False)

    @classmethod
    def of(cls, event: object, query: object, direction: str = "epsilon", relation: str = "add_remove",
           label: str = "") -> "EventCase":
        """A case from an event (any event of :mod:`exactdp.noise_events`, made a
        :class:`~exactdp.noise_events.Composed`) and a query converted exactly.

        Guarantee: exact.

        Raises:
            InvalidArgument: not an event; a delta outside (0, 1); an eps < 0; a bad direction or relation.

        Examples:
            >>> from exactdp import Gaussian, PoissonSampled
            >>> c = EventCase.of(PoissonSampled(Gaussian(1), "1/256"), "1e-5")
            >>> c.query, c.relation, c.event.count
            (Fraction(1, 100000), 'add_remove', 1)
        """
        parse_choice(direction, "direction", DIRECTIONS)
        parse_choice(relation, "relation", RELATIONS)
        if direction == "epsilon":
            q = parse_delta(query, "delta")
            if q <= 0:
                raise InvalidArgument("delta", "in (0, 1)", q)
        else:
            q = parse_eps(query, "eps")
        return cls(_composed(event), q, direction=direction, relation=relation, label=label)

    def describe(self) -> str:
        """``"10000 x PoissonSampled(Gaussian(sigma=1), q=1/256), add_remove, delta = 1e-05"``. Raises: nothing."""
        parts = []
        for e, n in self.event.parts[:3]:
            parts.append(f"{n} x {_short(e)}")
        if len(self.event.parts) > 3:
            parts.append(f"... ({len(self.event.parts)} parts)")
        name = "delta" if self.direction == "epsilon" else "eps"
        return (f"{self.label + ': ' if self.label else ''}{' + '.join(parts)}, {self.relation}, "
                f"{name} = {show(self.query)}")

    def to_json(self) -> dict:
        """``{"events", "relation", "delta" | "eps"}`` (exact strings). Guarantee: exact. Raises: nothing."""
        from ..numbers import fraction_str

        return {"events": self.event.to_json(), "relation": self.relation,
                ("delta" if self.direction == "epsilon" else "eps"): fraction_str(self.query)}


def _short(e) -> str:
    if isinstance(e, PoissonSampled):
        return f"PoissonSampled({_short(e.event)}, q={show(e.sample_rate)})"
    if isinstance(e, Gaussian):
        s = f"Gaussian(sigma={show(e.sigma)}"
        return s + (f", sensitivity={show(e.sensitivity)})" if e.sensitivity != 1 else ")")
    return repr(e)


def dpsgd_params(event: object) -> tuple[Fraction, Fraction, int]:
    """``(sigma, q, steps)`` of a DP-SGD event: ``steps`` copies of ``PoissonSampled(Gaussian(sigma), q)``
    (``q = 1`` for an unsampled Gaussian), sensitivity 1, as most accountants take it.

    Guarantee: exact.

    Raises:
        InvalidArgument: any other event (a schedule, Laplace, a sensitivity other than 1).

    Examples:
        >>> from exactdp import Gaussian, PoissonSampled
        >>> from exactdp.noise_events import Composed
        >>> dpsgd_params(Composed([(PoissonSampled(Gaussian(2), "0.01"), 3000)]))
        (Fraction(2, 1), Fraction(1, 100), 3000)
    """
    ev = _composed(event)
    leaves = ev.leaves()
    if len(leaves) == 1:
        leaf, n = leaves[0]
        inner, q = (leaf.event, leaf.sample_rate) if isinstance(leaf, PoissonSampled) else (leaf, Fraction(1))
        if isinstance(inner, Gaussian) and inner.sensitivity == 1:
            return inner.sigma, q, n
    raise InvalidArgument("event", "k steps of one PoissonSampled(Gaussian(sigma), q) (or Gaussian(sigma)) of "
                          "sensitivity 1", ev)


# --------------------------------------------------------------------------
# the reference


def _gdp_mu_sq(event: Composed, relation: str) -> Optional[Fraction]:
    """``mu^2`` of a composition of unsampled Gaussians (None when some leaf is not one). Under
    replace-one a step moves by twice its (add/remove) sensitivity, as in :mod:`exactdp.accounting.laws`."""
    c = 2 if relation == "replace_one" else 1
    total = Fraction(0)
    for leaf, n in event.leaves():
        if not isinstance(leaf, Gaussian):
            return None
        total += n * (c * leaf.sensitivity / leaf.sigma) ** 2
    return total


def reference_method(case: EventCase) -> str:
    """``"gdp-closed-form"`` for compositions of unsampled Gaussians, ``"subsampled-closed-form"``
    for one Poisson-subsampled Gaussian step (the accountant answers it in closed form), else
    ``"accountant"`` (its certified lattice). Guarantee: exact. Raises: nothing."""
    from ..accounting.subsampled import one_subsampled_gaussian

    if _gdp_mu_sq(case.event, case.relation) is not None:
        return "gdp-closed-form"
    return "subsampled-closed-form" if one_subsampled_gaussian(case.event.leaves()) is not None else "accountant"


@lru_cache(maxsize=512)
def _reference(event: Composed, relation: str, direction: str, query: Fraction, digits: int,
               method: str) -> tuple[Enclosure, str]:
    mu_sq = _gdp_mu_sq(event, relation) if method in ("auto", "gdp-closed-form") else None
    if mu_sq is not None:
        from ..gdp.conversions import GDP

        g = GDP(mu_sq=mu_sq)
        return (g.epsilon(query, digits=digits) if direction == "epsilon" else g.delta(query, digits=digits)), \
            "gdp-closed-form"
    from ..accounting.accountant import Accountant

    acc = Accountant(relation).compose(event)
    value = acc.epsilon(query, digits=digits) if direction == "epsilon" else acc.delta(query, digits=digits)
    return value, "accountant"


def reference(case: EventCase, digits: int = 4, *, method: str = "auto") -> Enclosure:
    """A certified enclosure of the case's true optimal epsilon(delta) or delta(eps), to ``digits``
    significant digits: the closed form of mu-GDP for unsampled Gaussians (``method="auto"``),
    else :class:`exactdp.Accountant` (``method="accountant"`` always uses it). Cached.

    Guarantee: enclosure.

    Raises:
        InvalidArgument: digits outside [1, 12], a bad method.
        CostTooHigh: the accountant's lattice would exceed its limit at these digits.

    Examples:
        >>> from exactdp import Gaussian
        >>> reference(EventCase.of(Gaussian(1), "1e-5"), 12).text(12)     # 1-GDP at delta 1e-5
        '[4.37717809568, 4.37717809569]'
    """
    digits = parse_int(digits, "digits", lo=1, hi=MAX_EVENT_DIGITS)
    parse_choice(method, "method", ("auto", "accountant", "gdp-closed-form"))
    if method == "gdp-closed-form" and _gdp_mu_sq(case.event, case.relation) is None:
        raise InvalidArgument("method", "gdp-closed-form only for compositions of unsampled Gaussians", case.describe())
    return _reference(case.event, case.relation, case.direction, case.query, digits, method)[0]


# --------------------------------------------------------------------------
# verdicts


@dataclass(frozen=True, kw_only=True)
class EventVerdict:
    """The verdict on one answer of one claim (see the module docstring for the statuses).

    ``error`` encloses ``answer - true`` (exact ends; negative below the optimum);
    ``relative`` is ``(answer - true) / true`` at the enclosure's midpoint (a float, approximate);
    ``severity`` is ``"float-level"`` when a failed claim's ``|relative|`` is below
    :data:`FLOAT_LEVEL`, else ``"material"`` (``""`` when the claim holds).

    Guarantee: the status is an exact decision; ``error`` an enclosure. Raises: nothing.
    """

    case: EventCase
    claim: str
    status: str
    answer: object
    answer_exact: Optional[Union[Fraction, float]]
    certified: Optional[Enclosure]
    error: Optional[Enclosure]
    relative: Optional[float]
    bar: Optional[Fraction]
    digits: int
    seconds: float
    reason: str = ""

    @property
    def severity(self) -> str:
        if self.status not in ("unsound", "invalid", "bar-violated"):
            return ""
        r = self.relative
        return "float-level" if r is not None and math.isfinite(r) and abs(r) < FLOAT_LEVEL else "material"

    def to_dict(self, digits: int = 17) -> dict:
        """JSON form: the case, the claim, the answer (as given and exactly), the status, the
        certified enclosure, the signed error, the relative error, the severity.

        Guarantee: enclosures rounded outward. Raises: nothing.
        """
        ae = self.answer_exact
        from ..numbers import fraction_str

        return {"case": self.case.to_json(), "label": self.case.label, "claim": self.claim, "status": self.status,
                "answer": self.answer if isinstance(self.answer, (int, float, str)) else repr(self.answer),
                "answer_exact": None if ae is None else (str(ae) if isinstance(ae, float) else fraction_str(ae)),
                "certified": None if self.certified is None else self.certified.to_dict(digits, exact_key=False),
                "error": None if self.error is None else self.error.to_dict(digits, exact_key=False),
                "relative": _json_float(self.relative), "bar": None if self.bar is None else fraction_str(self.bar),
                "severity": self.severity, "digits": self.digits, "seconds": self.seconds, "reason": self.reason}


def _json_float(x: Optional[float]):
    if x is None or math.isfinite(x):
        return x
    return str(x)


def _exact(value: object):
    return exact_answer(value)


def _judge(claim: str, a, enc: Enclosure, bar: Optional[Fraction]) -> Optional[str]:
    """The decided status of answer ``a`` claimed as ``claim`` against ``enc``, or None (undecided)."""
    lo, hi = enc.lower, enc.upper
    if claim == "upper":
        if a == math.inf or a >= hi:
            return "sound"
        return "unsound" if a < lo else None
    if claim == "lower":
        if a == -math.inf or a <= lo:
            return "sound"
        return "invalid" if a > hi else None
    if bar is None:
        return "reported"
    if isinstance(a, float):  # an infinite estimate
        return "sound" if enc.infinite and a == hi else "bar-violated"
    if enc.infinite:
        return "bar-violated"
    if a - bar <= lo and hi <= a + bar:
        return "sound"
    if hi < a - bar or lo > a + bar:
        return "bar-violated"
    return None


def _error(a, enc: Enclosure) -> Enclosure:
    if enc.infinite or isinstance(a, float):
        if a == enc.lower:  # both the same infinity
            return Enclosure.point(0)
        return Enclosure.infinity(1 if (a if isinstance(a, float) else 0) > enc.lower else -1)
    return Enclosure.point(a) - enc


def _relative(a, enc: Enclosure) -> Optional[float]:
    if enc.infinite or isinstance(a, float):
        if a == enc.lower:
            return 0.0
        return math.inf if (a if isinstance(a, float) else 0) > enc.lower else -math.inf
    mid = (enc.lower + enc.upper) / 2
    if mid == 0:
        return 0.0 if a == 0 else (math.inf if a > 0 else -math.inf)
    try:
        return float((a - mid) / mid)
    except OverflowError:
        return math.inf if a > mid else -math.inf


def _ladder(start: int, stop: int) -> list[int]:
    out, d = [], start
    while d < stop:
        out.append(d)
        d += 2
    return out + [stop]


def decide_event(case: EventCase, answers: dict, *, digits: int = 2, max_digits: int = 6,
                 seconds: float = 0.0, method: str = "auto") -> list[EventVerdict]:
    """The verdicts on one case's answers ``{claim: value}`` (``claim`` in :data:`CLAIMS`;
    ``"error"``: the absolute error bar of the ``"estimate"``). The reference is refined from
    ``digits`` by two digits at a time up to ``max_digits``, only while some answer is undecided;
    a case with a stored ``certified`` enclosure is judged against it alone.

    Guarantee: each status an exact decision; ``undecided`` only when the enclosure at
    ``max_digits`` (or at the accountant's cost limit) still contains the answer.

    Raises:
        InvalidArgument: an unknown claim, digits outside [1, 12].

    Examples:
        >>> from exactdp import Gaussian
        >>> c = EventCase.of(Gaussian(1), "1e-5")          # eps = 4.3771780956...
        >>> [v.status for v in decide_event(c, {"upper": 4.0, "lower": 4.0, "estimate": 4.4, "error": 0.1})]
        ['unsound', 'sound', 'sound']
    """
    digits = parse_int(digits, "digits", lo=1, hi=MAX_EVENT_DIGITS)
    max_digits = max(parse_int(max_digits, "max_digits", lo=1, hi=MAX_EVENT_DIGITS), digits)
    bar_raw = answers.get("error")
    out: list[EventVerdict] = []
    todo = []
    bar: Optional[Fraction] = None
    if bar_raw is not None:
        try:
            b = _exact(bar_raw)
            bar = b if isinstance(b, Fraction) and b >= 0 else None
        except InvalidArgument:
            bar = None
    for claim, value in answers.items():
        if claim == "error":
            continue
        parse_choice(claim, "claim", CLAIMS)
        try:
            a = _exact(value)
        except InvalidArgument as e:
            out.append(EventVerdict(case=case, claim=claim, status="error", answer=value, answer_exact=None,
                                    certified=None, error=None, relative=None, bar=None, digits=0, seconds=seconds,
                                    reason=f"not a number: {e}"))
            continue
        todo.append((claim, value, a))
    if not todo:
        return out
    encl: Optional[Enclosure] = None
    d_used = 0
    reason = ""
    status: dict = {}
    steps = [case.digits] if case.certified is not None else _ladder(digits, max_digits)
    for d in steps:
        if case.certified is not None:
            encl = case.certified
        else:
            try:
                encl = reference(case, d, method=method)
            except CostTooHigh as e:
                reason = f"the certified enclosure at {d} digits is beyond the cost limit: {str(e)[:160]}"
                break
            except (ExactDPError, ArithmeticError) as e:
                reason = f"the certified enclosure could not be computed: {type(e).__name__}: {str(e)[:160]}"
                break
        d_used = d
        status = {c: _judge(c, a, encl, bar if c == "estimate" else None) for c, _, a in todo}
        if all(s is not None for s in status.values()):
            break
    for claim, value, a in todo:
        s = status.get(claim)
        why = ""
        if s is None:
            s = "undecided"
            why = reason or (f"the answer lies inside the certified enclosure at {d_used} digits" if encl is not None
                             else "no enclosure")
        out.append(EventVerdict(case=case, claim=claim, status=s, answer=value, answer_exact=a, certified=encl,
                                error=None if encl is None else _error(a, encl),
                                relative=None if encl is None else _relative(a, encl),
                                bar=bar if claim == "estimate" else None, digits=d_used, seconds=seconds, reason=why))
    return out


# --------------------------------------------------------------------------
# the report


@dataclass(frozen=True, kw_only=True)
class EventReport(StatusLists):
    """The verdicts of :func:`check_events`: lists by status, counts, a table.

    ``ok``: no unsound, invalid or bar-violated answer and no error.
    Guarantee: as :class:`EventVerdict`. Raises: nothing.
    """

    verdicts: list = field(default_factory=list)
    name: str = "accountant"

    @property
    def unsound(self) -> list:
        return self._worst("unsound", lambda v: v.relative)

    @property
    def invalid(self) -> list:
        return self._worst("invalid", lambda v: -(v.relative or 0.0))

    @property
    def bar_violated(self) -> list:
        return self._with("bar-violated")

    @property
    def ok(self) -> bool:
        return not (self.unsound or self.invalid or self.bar_violated or self.errors)

    def counts(self) -> dict:
        return {s: len(self._with(s)) for s in EVENT_STATUSES}

    def to_dict(self, digits: int = 17) -> dict:
        """JSON form: counts and every verdict. Guarantee: as :class:`EventVerdict`. Raises: nothing."""
        return {"accountant": self.name, "cases": len({id(v.case) for v in self.verdicts}), "counts": self.counts(),
                "verdicts": [v.to_dict(digits) for v in self.verdicts]}

    def table(self, which: Optional[Iterable[str]] = None, digits: int = 10) -> str:
        """A readable table of the verdicts of the given statuses (default all). Raises: nothing."""
        which = None if which is None else set(which)
        head = ["status", "claim", "case", "answer", "certified", "answer - true"]
        body = []
        for v in self.verdicts:
            if which is not None and v.status not in which:
                continue
            st = v.status.upper() if v.status in ("unsound", "invalid", "bar-violated") else v.status
            if v.severity == "float-level":
                st += " (float-level)"
            body.append([st, v.claim, v.case.describe(), _answer_text(v),
                         v.certified.text(digits) if v.certified is not None else "-",
                         _error_text(v) + (f"  ({v.reason})" if v.reason else "")])
        widths = [max(len(r[i]) for r in [head] + body) for i in range(len(head) - 1)]
        return "\n".join("  ".join(c.ljust(w) for c, w in zip(r[:-1], widths)) + "  " + r[-1] for r in [head] + body)

    def __str__(self) -> str:
        c = self.counts()
        return (f"{self.name}: {len(self.verdicts)} answers: {c['sound']} sound, {c['unsound']} unsound, "
                f"{c['invalid']} invalid, {c['bar-violated']} outside their error bar, {c['reported']} estimates, "
                f"{c['undecided']} undecided, {c['error']} errors" + (f", {c['unsupported']} not answered"
                                                                      if c["unsupported"] else ""))


def _answer_text(v: EventVerdict) -> str:
    if v.answer_exact is None:
        return repr(v.answer)[:40]
    s = show(v.answer if isinstance(v.answer, float) else v.answer_exact)
    return s + (f" +- {show(v.bar)}" if v.bar is not None else "")


def _error_text(v: EventVerdict) -> str:
    m = v.error
    if m is None:
        return "-"
    if m.infinite:
        return "inf" if m.lower > 0 else "-inf"
    rel = f" ({v.relative:+.2e} relative)" if v.relative is not None and math.isfinite(v.relative) else ""
    if m.upper < 0:
        return f"<= {fraction_to_decimal(m.upper, 4, 'up')}{rel}"
    if m.lower > 0:
        return f">= {fraction_to_decimal(m.lower, 4, 'down')}{rel}"
    return f"in [{fraction_to_decimal(m.lower, 3, 'down')}, {fraction_to_decimal(m.upper, 3, 'up')}]{rel}"


# --------------------------------------------------------------------------
# the entry point


def _as_case(c, i: int, direction: str) -> EventCase:
    if isinstance(c, EventCase):
        if c.direction != direction:
            raise InvalidArgument(f"cases[{i}]", f"a case of direction {direction!r}", c.direction)
        return c
    if isinstance(c, tuple) and len(c) in (2, 3, 4):
        return EventCase.of(c[0], c[1], direction, *c[2:])
    raise InvalidArgument(f"cases[{i}]", "an EventCase or a tuple (event, query[, relation[, label]])", c)


def _answers_of(ans: object, claim: str) -> dict:
    if isinstance(ans, dict):
        bad = [k for k in ans if k not in CLAIMS + ("error",)]
        if bad:
            raise InvalidArgument("answer", "a number or a dict with keys among upper, lower, estimate, error", bad)
        return dict(ans)
    return {claim: ans}


def check_events(accountant: Callable, cases: Union[Iterable, str] = "dpsgd", *, direction: str = "epsilon",
                 claim: str = "upper", digits: int = 2, max_digits: int = 6, name: Optional[str] = None,
                 method: str = "auto") -> EventReport:
    """Check an accountant of events against certified enclosures; return the verdicts.

    ``accountant(event, query, relation)`` is called once per case with the event tree (a
    :class:`~exactdp.noise_events.Composed`; :func:`dpsgd_params` gives ``(sigma, q, steps)``), the
    exact query (a delta when ``direction="epsilon"``, an eps when ``"delta"``) and the
    relation (``"add_remove"``, ``"remove"``, ``"add"``, ``"replace_one"``); it raises
    ``NotImplementedError`` for a case it does not answer (verdict ``unsupported``, not a failure).
    It returns a number,
    which claims to be ``claim`` (default an upper bound), or a dict of several claims, e.g.
    ``{"lower": lo, "estimate": est, "upper": hi}`` (prv_accountant) or
    ``{"estimate": est, "error": bar}`` (an estimate with its stated absolute error bar).

    ``cases``: :class:`EventCase` objects or tuples ``(event, query[, relation[, label]])``, or
    ``"dpsgd"`` (default): the DP-SGD corpus shipped with exactdp, judged against its stored
    certified enclosures (no recomputation; ``max_digits`` is then the digits stored).

    Guarantee: each verdict an exact decision (module docstring); ``undecided`` when the
    enclosure at ``max_digits`` or at the cost limit still contains the answer.

    Raises:
        InvalidArgument: a bad case, direction, claim or digits; an answer dict with unknown keys.

    Examples:
        >>> from exactdp import Gaussian
        >>> cases = [(Gaussian(1), "1e-5")]                  # 1-GDP: eps(1e-5) = 4.37717809568...
        >>> r = check_events(lambda ev, delta, rel: 4.3, cases)
        >>> r.ok, r.unsound[0].status, float(r.unsound[0].error.upper) < -0.07
        (False, 'unsound', True)
        >>> check_events(lambda ev, delta, rel: {"lower": 4.3, "upper": 4.5}, cases).ok
        True
    """
    parse_choice(direction, "direction", DIRECTIONS)
    parse_choice(claim, "claim", CLAIMS)
    if isinstance(cases, str):
        case_list = [c for c in corpus_cases(cases) if c.direction == direction]
    else:
        case_list = [_as_case(c, i, direction) for i, c in enumerate(cases)]
    report = EventReport(name=name or getattr(accountant, "__name__", None) or type(accountant).__name__)
    for case in case_list:
        t0 = time.perf_counter()
        try:
            ans = accountant(case.event, case.query, case.relation)
        except NotImplementedError as e:  # a case the accountant says it does not answer
            report.verdicts.append(EventVerdict(case=case, claim=claim, status="unsupported", answer=None,
                                                answer_exact=None, certified=None, error=None, relative=None, bar=None,
                                                digits=0, seconds=time.perf_counter() - t0,
                                                reason=f"not answered: {str(e)[:200]}"))
            continue
        except Exception as e:  # the accountant's failure is a finding
            report.verdicts.append(EventVerdict(case=case, claim=claim, status="error", answer=None, answer_exact=None,
                                                certified=None, error=None, relative=None, bar=None, digits=0,
                                                seconds=time.perf_counter() - t0,
                                                reason=f"the accountant raised {type(e).__name__}: {str(e)[:200]}"))
            continue
        dt = time.perf_counter() - t0
        report.verdicts.extend(decide_event(case, _answers_of(ans, claim), digits=digits, max_digits=max_digits,
                                            seconds=dt, method=method))
    return report


def assert_events_sound(accountant: Union[Callable, EventReport], cases: Union[Iterable, str] = "dpsgd", *,
                        allow_undecided: bool = True, allow_errors: bool = False, **kw) -> EventReport:
    """Fail (``AssertionError`` with the table) on an unsound, invalid or bar-violated answer
    (or an error, or an undecided answer when ``allow_undecided=False``); return the report.

    Guarantee: as :func:`check_events`. Raises: AssertionError.
    """
    rep = accountant if isinstance(accountant, EventReport) else check_events(accountant, cases, **kw)
    problems, bad = [], []
    for st, what in (("unsound", "upper bounds below the certified optimum: a privacy violation"),
                     ("invalid", "lower bounds above the certified optimum"),
                     ("bar-violated", "estimates outside their own error bar")):
        n = rep.counts()[st]
        if n:
            problems.append(f"{n} {st} ({what})")
            bad.append(st)
    if rep.errors and not allow_errors:
        problems.append(f"{len(rep.errors)} errors")
        bad.append("error")
    if rep.undecided and not allow_undecided:
        problems.append(f"{len(rep.undecided)} undecided")
        bad.append("undecided")
    if not problems:
        return rep
    raise AssertionError(f"{rep.name}: " + "; ".join(problems) + "\n" + rep.table(bad))


# --------------------------------------------------------------------------
# cases from corpus vectors (the DP-SGD corpus of exactdp.corpus; read here as data, so that
# the corpus may build on this module)


def shipped_dpsgd_path() -> str:
    """The folder of the curated DP-SGD corpus shipped in the package. Guarantee: exact. Raises: nothing."""
    import os

    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "corpus", "dpsgd")


def read_vectors(path: str) -> list[dict]:
    """The vectors of a corpus folder or ``vectors.jsonl`` (JSON lines). Guarantee: exact.
    Raises: InvalidArgument (no such file, a line that is not a JSON object)."""
    import json
    import os

    p = os.path.join(path, "vectors.jsonl") if os.path.isdir(path) else path
    if not os.path.isfile(p):
        raise InvalidArgument("corpus", "a corpus folder (with vectors.jsonl) or a vectors file", path)
    out = []
    with open(p, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.strip():
                try:
                    v = json.loads(line)
                except ValueError:
                    raise InvalidArgument(f"{os.path.basename(p)} line {n}", "a JSON vector", line[:80]) from None
                if not isinstance(v, dict):
                    raise InvalidArgument(f"{os.path.basename(p)} line {n}", "a JSON object", line[:80])
                out.append(v)
    return out


def case_of_vector(v: dict) -> Optional[EventCase]:
    """The :class:`EventCase` of an event vector, carrying its stored enclosure; None for a vector
    of another kind or a refused query (an ``"error"`` record).

    Guarantee: exact (the stored decimal ends are exact rationals that enclose the value).
    Raises: InvalidArgument (a malformed event vector).
    """
    if "events" not in v or "value" not in v:
        return None
    from ..noise_events import event_from_json
    from ..numbers import parse_rational

    q = v["query"]
    direction = q.get("kind", "epsilon")
    query = q["delta"] if direction == "epsilon" else q["eps"]
    c = EventCase.of(event_from_json(v["events"], "events"), query, direction, v.get("relation", "add_remove"),
                     v.get("id", ""))
    val = v["value"]
    enc = (Enclosure.infinity() if val.get("infinite") else
           Enclosure(parse_rational(val["lower"], "value.lower"), parse_rational(val["upper"], "value.upper")))
    return EventCase(c.event, c.query, direction=c.direction, relation=c.relation, label=c.label, certified=enc, digits=int(v.get("digits", 0)))


def corpus_cases(which: str = "dpsgd") -> list[EventCase]:
    """The cases (with their stored enclosures) of the shipped DP-SGD corpus (``"dpsgd"``) or of a
    corpus folder or vectors file. Guarantee: exact. Raises: InvalidArgument (no such corpus)."""
    path = shipped_dpsgd_path() if which == "dpsgd" else which
    return [c for c in (case_of_vector(v) for v in read_vectors(path)) if c is not None]
