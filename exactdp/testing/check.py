"""Checking another accountant against the certified optimum: :func:`check_accountant`, :func:`assert_sound`.

An accountant answers "the composition is (eps_g, delta_g)-DP". Its answer is
*sound* when the claim is true, which (Murtagh-Vadhan Theorem 1.5; their Theorem
3.4 for adaptive composition) is exactly when it is at least the optimum:

* direction ``"epsilon"`` (the accountant returns eps_g for a delta_g): sound iff
  ``eps_g >= OptComp(delta_g)``, the least eps at which the composition is
  ``(eps, delta_g)``-DP (``delta_g(eps)`` is continuous and non-increasing, so the
  claim ``delta_g(eps_g) <= delta_g`` holds exactly from OptComp on);
* direction ``"delta"`` (the accountant returns delta_g for an eps_g): sound iff
  ``delta_g >= delta_opt(eps_g)``, the least delta.

An answer below the optimum is a privacy violation (*unsound*). The decision is
rigorous: the answer is converted exactly (a float as the binary number it is,
a Decimal or string digit for digit) and compared with exact rational ends of the
optimum's enclosure (:func:`exactdp.optcomp` / :func:`exactdp.composed_delta`,
exact or certified); an enclosure that straddles the answer is refined (4 times
the digits, up to ``max_digits``) and an answer still inside it is reported
*undecided*, never guessed. An eps below 0 is below every optimum (which is
``>= 0``), hence unsound; ``+inf`` is sound.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Callable, Iterable, Optional, Sequence, Union

from ..errors import ExactDPError, InvalidArgument
from ..events import Composition
from ..numbers import Enclosure, fraction_str, fraction_to_decimal, parse_choice, parse_int
from .case import DIRECTIONS, Case, StatusLists, exact_answer, show

__all__ = ["Case", "Verdict", "AccountantReport", "check_accountant", "assert_sound", "optimum", "exact_answer",
           "DIRECTIONS", "STATUSES"]

STATUSES = ("sound", "unsound", "undecided", "error")

End = Union[Fraction, float]


# --------------------------------------------------------------------------
# the optimum, computed once per case and precision


#: The exact engine is used when every rational ``e^eps_i`` has numerator and denominator below
#: 2^EXACT_BITS; beyond, its rationals grow with k times their size (a float's ``p/(1 - p)`` has
#: 53-bit parts: k = 1000 takes minutes exactly, milliseconds certified), so the certified engine.
EXACT_BITS = 24


def _engine_for(comp: Composition) -> str:
    for m, _ in comp.groups():
        w = m.exp_eps
        if w is not None and max(w.numerator.bit_length(), w.denominator.bit_length()) > EXACT_BITS:
            return "certified"
    return "auto"


def _optimum(comp: Composition, direction: str, query: Fraction, digits: int) -> Enclosure:
    # cached by the groups (the optimum depends on the multiset only): hashing the composition
    # itself walks its runs, 3 x 10^9 of them for mechanisms(eps=[a, b, c], k=10**9)
    return _optimum_of_groups(comp.groups(), direction, query, digits)


@lru_cache(maxsize=4096)
def _optimum_of_groups(groups: tuple, direction: str, query: Fraction, digits: int) -> Enclosure:
    from ..engines import composed_delta, optcomp

    comp = Composition(list(groups))
    engine = _engine_for(comp)
    if direction == "epsilon":
        return optcomp(comp, query, digits=digits, engine=engine).value
    return composed_delta(comp, eps_g=query, digits=digits, engine=engine).value


def optimum(case: Case, digits: int = 20) -> Enclosure:
    """The optimum of ``case``: an enclosure of OptComp(delta_g) (``+inf`` when no finite eps
    achieves delta_g) or of the least delta_g at eps_g. Cached per (case, digits). The engine
    is exactdp's ``auto`` (exact for rational ``e^eps_i``), except for rationals of more than
    :data:`EXACT_BITS` bits, which take the certified engine.

    Guarantee: enclosure (exact when the engine is exact and the value rational).

    Raises:
        CostTooHigh / PrecisionError: as :func:`exactdp.optcomp` / :func:`exactdp.composed_delta`.

    Examples:
        >>> from exactdp import mechanisms
        >>> optimum(Case.of(mechanisms(exp_eps=[2], k=2), 0, direction="delta"))   # (4 - 1)/(1 + 2)^2
        Enclosure.point(1/3)
    """
    return _optimum(case.composition, case.direction, case.query, digits)


# --------------------------------------------------------------------------
# verdicts


@dataclass(frozen=True, kw_only=True)
class Verdict:
    """The verdict on one answer.

    ``status``: ``"sound"`` (answer >= optimum, decided), ``"unsound"`` (answer < optimum,
    decided: a privacy violation), ``"undecided"`` (the enclosure still contained the answer
    at ``max_digits``, or the optimum could not be computed), ``"error"`` (the accountant
    raised, or returned something that is not a number, e.g. NaN).
    ``margin`` encloses ``answer - optimum`` (rigorous; negative when unsound);
    ``excess`` is the relative excess ``(answer - optimum) / optimum`` (approximate, a
    float; ``inf`` when the optimum is 0 and the answer is not).

    Guarantee: the status is an exact decision; ``margin`` an enclosure. Raises: nothing.
    """

    case: Case
    status: str
    answer: object
    answer_exact: Optional[End]
    optimum: Optional[Enclosure]
    margin: Optional[Enclosure]
    excess: Optional[float]
    digits: int
    seconds: float
    reason: str = ""

    def reproduction(self) -> str:
        """An ``exactdp certify`` command deciding this answer exactly as it was given (the
        float's exact decimal expansion), for a composition given as eps / exp_eps lists.

        Guarantee: exact (every number printed exactly). Raises: nothing (an empty string when
        the composition or answer has no command-line form).
        """
        return reproduction(self.case, self.answer_exact)

    def to_dict(self, digits: int = 20) -> dict:
        """JSON form: case, answer (as given and exactly), status, optimum, margin, excess.

        Guarantee: enclosures rounded outward. Raises: nothing.
        """
        ae = self.answer_exact
        return {
            "case": {"composition": _comp_json(self.case.composition), "direction": self.case.direction,
                     ("delta_g" if self.case.direction == "epsilon" else "eps_g"): fraction_str(self.case.query),
                     "label": self.case.label},
            "answer": repr(self.answer) if not isinstance(self.answer, (str, int)) else self.answer,
            "answer_exact": None if ae is None else (str(ae) if isinstance(ae, float) else fraction_str(ae)),
            "status": self.status,
            "optimum": None if self.optimum is None else self.optimum.to_dict(digits),
            "margin": None if self.margin is None else self.margin.to_dict(digits, exact_key=False),
            "excess": None if self.excess is None else (self.excess if math.isfinite(self.excess) else str(self.excess)),
            "digits": self.digits,
            "seconds": self.seconds,
            "reason": self.reason,
            "reproduce": self.reproduction(),
        }


def _comp_json(c: Composition) -> object:
    try:
        return c.to_json()
    except InvalidArgument:
        return repr(c)


def _exact_decimal(x: Fraction) -> str:
    """The exact decimal expansion of a dyadic rational (a float's value), else ``p/q``."""
    d = x.denominator
    if d & (d - 1) == 0:
        n = d.bit_length() - 1
        s = str(abs(x.numerator) * 5**n)
        if n:
            s = s.rjust(n + 1, "0")
            s = (s[:-n] + "." + s[-n:]).rstrip("0").rstrip(".")
        return ("-" if x < 0 else "") + s
    return fraction_str(x)


def reproduction(case: Case, answer: Optional[End]) -> str:
    """``exactdp certify ...`` deciding ``answer`` for ``case`` (see :meth:`Verdict.reproduction`).

    Guarantee: exact. Raises: nothing.
    """
    if answer is None or isinstance(answer, float) or answer < 0:
        return ""
    groups = case.composition.groups()
    eps, exp_eps, deltas, counts = [], [], [], []
    for m, n in groups:
        if m.eps is not None and m.exp_eps is None or (m.eps == 0):
            eps.append(_exact_decimal(m.eps))  # type: ignore[arg-type]
        elif m.exp_eps is not None:
            exp_eps.append(_exact_decimal(m.exp_eps))
        else:
            return ""
        deltas.append(_exact_decimal(m.delta))
        counts.append(n)
    if eps and exp_eps:
        return ""
    if len(set(counts)) != 1:  # the command line repeats one list k times: spell the list out
        if sum(counts) > 200:
            return ""
        vals = eps or exp_eps
        vals = [v for v, n in zip(vals, counts) for _ in range(n)]
        deltas = [d for d, n in zip(deltas, counts) for _ in range(n)]
        k = 1
    else:
        vals, k = (eps or exp_eps), counts[0]
    mech = f"--{'eps' if eps else 'exp-eps'} {','.join(vals)} --delta {','.join(deltas)} -k {k}"
    if case.direction == "epsilon":
        return f"exactdp certify {mech} --claim-eps {_exact_decimal(answer)} --claim-delta {_exact_decimal(case.query)}"
    return f"exactdp certify {mech} --claim-eps {_exact_decimal(case.query)} --claim-delta {_exact_decimal(answer)}"


def decide(case: Case, answer: object, *, digits: int = 20, max_digits: int = 320, seconds: float = 0.0) -> Verdict:
    """The verdict on ``answer`` for ``case`` (see :class:`Verdict`).

    Guarantee: exact decision (refining the optimum's enclosure, never guessing).

    Raises: nothing (a failure to compute the optimum gives ``"undecided"`` with the reason).

    Examples:
        >>> from exactdp import mechanisms
        >>> c = Case.of(mechanisms(exp_eps=[2], k=2), 0, direction="delta")   # optimum 1/3
        >>> decide(c, 0.3).status, decide(c, "1/3").status, decide(c, 0.34).status
        ('unsound', 'sound', 'sound')
    """
    try:
        a = exact_answer(answer)
    except InvalidArgument as e:
        return Verdict(case=case, status="error", answer=answer, answer_exact=None, optimum=None, margin=None, excess=None, digits=digits, seconds=seconds, reason=f"not a number: {e}")
    d = digits
    # not numbers.precision.refine: the digits of the optimum's public call rise (each call runs its
    # own refine), and the last one reports "undecided" instead of raising PrecisionError
    while True:
        try:
            opt = optimum(case, d)
        except (ExactDPError, ArithmeticError) as e:
            return Verdict(case=case, status="undecided", answer=answer, answer_exact=a, optimum=None, margin=None, excess=None, digits=d, seconds=seconds,
                           reason=f"the optimum could not be computed: {type(e).__name__}: {e}")
        status = _compare(a, opt)
        if status is not None or d >= max_digits:
            break
        d = min(4 * d, max_digits)
    margin = _margin(a, opt)
    reason = ""
    if status is None:
        status = "undecided"
        reason = f"the answer lies inside the optimum's enclosure at {d} digits"
    return Verdict(case=case, status=status, answer=answer, answer_exact=a, optimum=opt, margin=margin, excess=_excess(a, opt), digits=d, seconds=seconds, reason=reason)


def _compare(a: End, opt: Enclosure) -> Optional[str]:
    if opt.infinite:
        return "sound" if a == math.inf else "unsound"
    if a == math.inf:
        return "sound"
    if a == -math.inf or a < opt.lower:
        return "unsound"
    if a >= opt.upper:
        return "sound"
    return None


def _margin(a: End, opt: Enclosure) -> Enclosure:
    if opt.infinite:
        return Enclosure.point(0) if a == math.inf else Enclosure.infinity(-1)
    if isinstance(a, float):
        return Enclosure.infinity(1 if a > 0 else -1)
    return Enclosure.point(a) - opt


def _excess(a: End, opt: Enclosure) -> Optional[float]:
    if opt.infinite:
        return 0.0 if a == math.inf else -math.inf
    if isinstance(a, float):
        return a
    mid = (opt.lower + opt.upper) / 2
    if mid == 0:
        return 0.0 if a == 0 else (math.inf if a > 0 else -math.inf)
    x = (a - mid) / mid
    try:
        return float(x)
    except OverflowError:  # an answer of 10^400 against an optimum near 1: beyond a float
        return math.inf if x > 0 else -math.inf


# --------------------------------------------------------------------------
# the report


@dataclass(frozen=True, kw_only=True)
class AccountantReport(StatusLists):
    """The verdicts of :func:`check_accountant`, with the lists a test needs.

    ``unsound``: answers below the certified optimum (privacy violations), worst first;
    ``loose``: sound answers above the optimum, loosest first (``.excess``);
    ``undecided`` and ``errors``; ``sound``: every sound answer (tight ones included).

    Guarantee: as :class:`Verdict`. Raises: nothing.
    """

    direction: str
    verdicts: list = field(default_factory=list)
    name: str = "accountant"

    @property
    def unsound(self) -> list:
        return self._worst("unsound", lambda v: v.excess)

    @property
    def loose(self) -> list:
        out = [v for v in self.sound if v.excess is not None and v.excess > 0]
        return sorted(out, key=lambda v: -v.excess)

    @property
    def ok(self) -> bool:
        """No unsound answer and no error."""
        return not self.unsound and not self.errors

    @property
    def max_excess(self) -> Optional[float]:
        """Largest relative excess of a sound answer (None when there is none)."""
        ex = [v.excess for v in self.sound if v.excess is not None]
        return max(ex) if ex else None

    def counts(self) -> dict:
        return {s: len(self._with(s)) for s in STATUSES}

    def to_dict(self, digits: int = 20) -> dict:
        """JSON form: direction, counts, largest excess, every verdict. Guarantee: as :class:`Verdict`."""
        mx = self.max_excess
        return {"accountant": self.name, "direction": self.direction, "cases": len(self.verdicts),
                "counts": self.counts(), "max_excess": mx if mx is None or math.isfinite(mx) else str(mx),
                "verdicts": [v.to_dict(digits) for v in self.verdicts]}

    def table(self, which: Optional[Sequence[str]] = None, digits: int = 12) -> str:
        """A readable table of the verdicts of the given statuses (default: all). Raises: nothing."""
        rows = [v for v in self.verdicts if which is None or v.status in which]
        name = "eps_g" if self.direction == "epsilon" else "delta_g"
        head = ["status", "case", f"answer {name}", "optimum (certified)", "margin (answer - optimum)"]
        body = []
        for v in rows:
            opt = v.optimum.text(digits) if v.optimum is not None else "-"
            mar = _margin_text(v.margin, digits)
            body.append([v.status.upper() if v.status == "unsound" else v.status, v.case.describe(), _answer_text(v),
                         opt, mar + (f"  ({v.reason})" if v.reason else "")])
        widths = [max(len(r[i]) for r in [head] + body) for i in range(len(head) - 1)]
        lines = ["  ".join(c.ljust(w) for c, w in zip(r[:-1], widths)) + "  " + r[-1] for r in [head] + body]
        return "\n".join(lines)

    def __str__(self) -> str:
        c = self.counts()
        return (f"{self.name}: {len(self.verdicts)} cases ({self.direction}): {c['sound']} sound, {c['unsound']} unsound, "
                f"{c['undecided']} undecided, {c['error']} errors")


def _answer_text(v: Verdict) -> str:
    if v.answer_exact is None:
        return repr(v.answer)[:40]
    return show(v.answer if isinstance(v.answer, float) else v.answer_exact)


def _margin_text(m: Optional[Enclosure], digits: int) -> str:
    if m is None:
        return "-"
    if m.infinite:
        return "inf" if m.lower > 0 else "-inf"
    if m.exact is not None:
        return f"{float(m.exact):+.3e} (exact)"
    lo, hi = m.lower, m.upper
    if hi < 0:
        return f"<= {fraction_to_decimal(hi, 4, 'up')}"
    if lo >= 0:
        return f">= {fraction_to_decimal(lo, 4, 'down')}"
    return f"in [{fraction_to_decimal(lo, 3, 'down')}, {fraction_to_decimal(hi, 3, 'up')}]"


# --------------------------------------------------------------------------
# the public entry points


def _event_cases(cases) -> bool:
    """Are ``cases`` questions about events of :mod:`exactdp.noise_events` (the two-sided path)?"""
    if isinstance(cases, str):
        return True
    if not cases:
        return False
    from ..noise_events import Composed, Gaussian, Laplace, PoissonSampled, RandomizedResponse
    from .dpsgd import EventCase

    c = cases[0]
    first = c[0] if isinstance(c, tuple) and c else c
    return isinstance(c, EventCase) or isinstance(first, (Composed, Gaussian, Laplace, PoissonSampled, RandomizedResponse))


def check_accountant(accountant: Callable, cases: Optional[Union[Iterable, str]] = None, *,
                     direction: str = "epsilon", digits: Optional[int] = None, max_digits: Optional[int] = None,
                     name: Optional[str] = None, claim: str = "upper"):
    """Check an accountant against the certified optimum on ``cases``; return the verdicts.

    Cases about Gaussian, Laplace, randomized-response or Poisson-subsampled events
    (:class:`exactdp.testing.EventCase`, tuples ``(event, query[, relation])``, or ``"dpsgd"``:
    the shipped DP-SGD corpus) are judged two-sided by :func:`exactdp.testing.check_events`
    (``accountant(event, query, relation)``; ``claim``: what a plain number claims, ``"upper"``,
    ``"lower"`` or ``"estimate"``; digits from 2 up to 6 by default) and give an
    :class:`exactdp.testing.EventReport`. The rest of this docstring is about compositions of
    ``(eps, delta)`` mechanisms, whose answers claim upper bounds.

    ``accountant(composition, query)`` is called once per case: with ``direction="epsilon"``
    it receives a delta_g and returns eps_g; with ``"delta"`` it receives an eps_g and returns
    delta_g. The query is an exact ``Fraction``; in the standard cases and the strategies'
    cases every number (mechanisms and query) is a binary float, so ``float(query)`` and
    :func:`exactdp.testing.float_groups` lose nothing. The answer may be a float, Decimal,
    Fraction, int or numeric string (``"inf"`` too); NaN, None or an exception make an
    ``"error"`` verdict.

    Guarantee: each verdict an exact decision (see the module docstring); ``undecided`` when
    an enclosure refined to ``max_digits`` still contains the answer.

    Parameters:
        accountant: the callable under test.
        cases: :class:`Case` objects, or pairs ``(composition, query)``; default
            :func:`exactdp.testing.standard_cases` of the direction.
        direction: ``"epsilon"`` or ``"delta"``.
        digits: digits of the first enclosure of the optimum; ``max_digits``: the refinement bound.
        name: the accountant's name in the report (default: its ``__name__``).

    Raises:
        InvalidArgument: a bad direction, case, or digits.

    Examples:
        >>> from exactdp import mechanisms
        >>> cases = [(mechanisms(exp_eps=[2], k=2), 0)]        # the least delta_g at eps_g = 0 is 1/3
        >>> r = check_accountant(lambda comp, eps_g: 0.3, cases, direction="delta")
        >>> r.ok, len(r.unsound), r.unsound[0].margin == Fraction(0.3) - Fraction(1, 3)   # exact margin
        (False, 1, True)
        >>> check_accountant(lambda comp, eps_g: "1/3", cases, direction="delta").ok
        True
    """
    parse_choice(direction, "direction", DIRECTIONS)
    if cases is not None and not isinstance(cases, str):
        cases = list(cases)
    if _event_cases(cases):
        from .dpsgd import check_events

        return check_events(accountant, cases, direction=direction, claim=claim, name=name,  # type: ignore[arg-type]
                            digits=2 if digits is None else digits, max_digits=6 if max_digits is None else max_digits)
    if claim != "upper":
        raise InvalidArgument("claim", "upper for compositions of (eps, delta) mechanisms", claim)
    digits = parse_int(20 if digits is None else digits, "digits", lo=1, hi=10_000)
    max_digits = max(parse_int(320 if max_digits is None else max_digits, "max_digits", lo=1, hi=10_000), digits)
    if cases is None:
        from .standard import standard_cases

        cases = standard_cases(direction)
    report = AccountantReport(direction=direction, name=name or getattr(accountant, "__name__", None) or type(accountant).__name__)
    for i, c in enumerate(cases):
        if isinstance(c, Case):
            if c.direction != direction:
                raise InvalidArgument(f"cases[{i}]", f"a case of direction {direction!r}", c.direction)
            case = c
        elif isinstance(c, tuple) and len(c) in (2, 3):
            case = Case.of(c[0], c[1], direction, c[2] if len(c) == 3 else "")
        else:
            raise InvalidArgument(f"cases[{i}]", "a Case or a pair (composition, query)", c)
        t0 = time.perf_counter()
        try:
            ans = accountant(case.composition, case.query)
        except Exception as e:  # the peer's failure is a finding, not ours
            dt = time.perf_counter() - t0
            report.verdicts.append(Verdict(case=case, status="error", answer=None, answer_exact=None, optimum=None, margin=None, excess=None, digits=digits, seconds=dt,
                                           reason=f"the accountant raised {type(e).__name__}: {str(e)[:200]}"))
            continue
        dt = time.perf_counter() - t0
        report.verdicts.append(decide(case, ans, digits=digits, max_digits=max_digits, seconds=dt))
    return report


def assert_sound(accountant: Union[Callable, AccountantReport], cases: Optional[Iterable] = None, *,
                 direction: str = "epsilon", allow_undecided: bool = True, allow_errors: bool = False,
                 max_excess: Optional[float] = None, **kw) -> AccountantReport:
    """Fail (``AssertionError`` with a readable table) unless every answer is sound; for use in pytest.

    On event cases (see :func:`check_accountant`) it fails on unsound, invalid and
    bar-violated answers (:func:`exactdp.testing.dpsgd.assert_events_sound`).

    ``accountant`` is an accountant (checked with :func:`check_accountant` on ``cases``) or a
    report. ``max_excess`` also fails answers more than that relative excess above the optimum
    (a tightness test). Errors fail unless ``allow_errors``; undecided answers pass unless
    ``allow_undecided=False``.

    Guarantee: as :func:`check_accountant`; returns the report when it passes.

    Raises:
        AssertionError: an unsound answer (or an error, an undecided or a too loose answer, as set).

    Examples:
        >>> from exactdp import mechanisms
        >>> cases = [(mechanisms(exp_eps=[2], k=2), 0)]
        >>> assert_sound(lambda comp, eps_g: 0.5, cases, direction="delta").counts()["sound"]
        1
        >>> assert_sound(lambda comp, eps_g: 0.25, cases, direction="delta")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        AssertionError: <lambda>: 1 unsound answer (below the certified optimum: a privacy violation)
        ...
    """
    from .dpsgd import EventReport, assert_events_sound

    if isinstance(accountant, EventReport) or (not isinstance(accountant, AccountantReport) and _event_cases(
            cases if cases is None or isinstance(cases, str) else (cases := list(cases)))):
        return assert_events_sound(check_accountant(accountant, cases, direction=direction, **kw)
                                   if not isinstance(accountant, EventReport) else accountant,
                                   allow_undecided=allow_undecided, allow_errors=allow_errors)
    rep = accountant if isinstance(accountant, AccountantReport) else check_accountant(accountant, cases,
                                                                                        direction=direction, **kw)
    bad: list[str] = []
    problems = []
    if rep.unsound:
        n = len(rep.unsound)
        problems.append(f"{n} unsound answer{'s' if n > 1 else ''} (below the certified optimum: a privacy violation)")
        bad.append("unsound")
    if rep.errors and not allow_errors:
        problems.append(f"{len(rep.errors)} error{'s' if len(rep.errors) > 1 else ''}")
        bad.append("error")
    if rep.undecided and not allow_undecided:
        problems.append(f"{len(rep.undecided)} undecided")
        bad.append("undecided")
    too_loose = [v for v in rep.loose if max_excess is not None and v.excess > max_excess]
    if too_loose:
        problems.append(f"{len(too_loose)} answers more than {max_excess:g} above the optimum (relative)")
    if not problems:
        return rep
    lines = [f"{rep.name}: " + "; ".join(problems), rep.table(bad)] if bad else [f"{rep.name}: " + "; ".join(problems)]
    if too_loose:
        loose_rep = AccountantReport(direction=rep.direction, verdicts=too_loose, name=rep.name)
        lines.append(loose_rep.table())
    repro = [v.reproduction() for v in rep.unsound if v.reproduction()]
    if repro:
        lines.append("reproduce (exact):")
        lines += ["  " + r for r in repro[:10]]
    raise AssertionError("\n".join(lines))
