"""Rigorous decisions on third-party privacy claims.

"These mechanisms compose to (eps, delta)-DP" is true exactly when the least
``delta_g`` at ``eps_g = eps`` (Murtagh-Vadhan Theorem 1.5, the same under
adaptive composition by their Theorem 3.4) is at most ``delta``; equivalently
when ``OptComp(delta) <= eps``. :func:`certify` decides this from an exact value
or from a rigorous enclosure, never from a floating-point estimate: an
enclosure that straddles the claim is refined (more digits), and when even that
cannot decide (a tie that ball arithmetic cannot see, or a cost bound) it
raises :class:`Undecided` instead of guessing.

Use it to check the numbers of other accountants (dp_accounting, prv_accountant,
Opacus' RDP accountant): their ``(eps, delta)`` is a claim about the *optimal*
composition only if it is at least the true value; ``margin`` says by how much.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Optional, Union

from .approx import delta_bounds, optcomp_bounds
from .engines import Prepared, composed_delta, optcomp
from .engines.costs import cost_limits, current_limits, fmt, fmt_bytes
from .errors import CostTooHigh, InvalidArgument, PrecisionError, Undecided
from .events import Composition, as_composition
from .links import implements
from .numbers import (
    Enclosure,
    RatExp,
    fraction_str,
    fraction_to_decimal,
    log_sign_of_product,
    parse_delta,
    parse_eps,
    parse_exp_eps,
    parse_int,
)

__all__ = ["certify", "Certificate", "Undecided"]

#: Estimated seconds the refinement of the reported eps (the lattice sandwich, when the
#: exact engines refuse) may take; the verdict itself gets the full limits.
REPORT_SECONDS = 30.0

#: The S(t) methods with a size limit of their own: with ``refuse_over_limit`` an explicit one
#: over its limit is refused, else the sandwich decides.
SIZE_LIMITED_METHODS = ("brute", "mitm", "grouped")

Number = Union[Fraction, float]


@dataclass(frozen=True, kw_only=True, repr=False)
class Certificate:
    """A rigorous verdict on the claim "the composition is (eps, delta)-DP".

    ``delta`` encloses ``delta_g(claim_eps)`` and ``eps`` encloses
    ``OptComp(claim_delta)`` (infinite when no finite eps achieves it), rigorously;
    ``holds`` is True iff ``delta_g(claim_eps) <= claim_delta``; ``decided_digits`` is the
    number of significant digits of the enclosure that decided it (None when an exact
    value did), the precision at which to print the margins. ``delta_lower``,
    ``delta_upper``, ``eps_lower``, ``eps_upper``, ``eps_exact``, ``eps_infinite``
    read the two enclosures.

    Guarantee: exact decision; enclosures rigorous. Raises: nothing (a frozen record).
    """

    holds: bool
    claim_eps: Optional[Fraction]
    claim_exp_eps: Optional[Fraction]
    claim_delta: Fraction
    delta: Enclosure
    eps: Enclosure
    eps_exp_exact: Optional[Fraction]
    decided_by: str
    engine: str
    method: str
    k: int
    digits: int
    #: Significant digits of the enclosure that decided the verdict (None when an exact value
    #: did); ``delta`` and ``eps`` are given to at least these digits, so print at them.
    decided_digits: Optional[int] = None

    delta_lower = property(lambda self: self.delta.lower)
    delta_upper = property(lambda self: self.delta.upper)
    eps_lower = property(lambda self: self.eps.lower)
    eps_upper = property(lambda self: self.eps.upper)
    eps_exact = property(lambda self: self.eps.exact)
    eps_infinite = property(lambda self: self.eps.infinite)

    def __repr__(self) -> str:
        v = "HOLDS" if self.holds else "FAILS"
        return f"Certificate({v}, delta={self.delta!r}, eps={self.eps!r}, decided_by={self.decided_by!r})"

    @property
    def claim_eps_bounds(self) -> Enclosure:
        """The claimed eps as an enclosure (``ln`` of a claimed ``e^eps``). Guarantee: enclosure. Raises: nothing."""
        if self.claim_eps is not None:
            return Enclosure.point(self.claim_eps)
        return Enclosure.log_of_rational(self.claim_exp_eps, 30)  # type: ignore[arg-type]

    def delta_margin(self) -> Enclosure:
        """``claim_delta - delta_g(claim_eps)``; >= 0 iff the claim holds.

        Guarantee: enclosure (exact when delta_g is). Raises: nothing.
        """
        return self.claim_delta - self.delta

    def eps_margin(self) -> Enclosure:
        """``claim_eps - OptComp(claim_delta)``; >= 0 iff the claim holds.

        Guarantee: enclosure (``-inf`` when OptComp is infinite). Raises: nothing.
        """
        if self.eps.infinite:
            return Enclosure.infinity(-1)
        if self.claim_eps is not None and self.eps.exact is not None:
            return Enclosure.point(self.claim_eps - self.eps.exact)
        if self.claim_exp_eps is not None and self.eps_exp_exact is not None:
            return Enclosure.log_of_rational(self.claim_exp_eps / self.eps_exp_exact, 30)
        return self.claim_eps_bounds - self.eps

    def to_dict(self, digits: int = 30) -> dict:
        """The ``exactdp certify --json`` object (decimals rounded outward). Guarantee: exact / enclosure. Raises: nothing."""

        def enc(e: Enclosure) -> dict:
            return e.to_dict(digits, exact_key=e.exact is not None)

        return {
            "holds": self.holds,
            "claim": {
                "eps": fraction_str(self.claim_eps) if self.claim_eps is not None else None,
                "exp_eps": fraction_str(self.claim_exp_eps) if self.claim_exp_eps is not None else None,
                "delta": fraction_str(self.claim_delta),
            },
            "delta_at_claim_eps": enc(self.delta),
            "optimal_eps": self.eps.to_dict(digits, exact_key=False) if self.eps.infinite else enc(self.eps),
            "margin": {
                "delta": self.delta_margin().to_dict(digits, exact_key=False),
                "eps": self.eps_margin().to_dict(digits, exact_key=False),
            },
            "decided_by": self.decided_by,
            "engine": self.engine,
            "method": self.method,
            "k": self.k,
            "digits": self.digits,
        }


@implements("Murtagh-Vadhan Theorem 1.5", "Murtagh-Vadhan Theorem 3.4")
def certify(
    mechanisms,
    claim_eps: object = None,
    claim_delta: object = 0,
    *,
    claim_exp_eps: object = None,
    method: str = "auto",
    digits: int = 15,
    max_digits: int = 960,
    max_degree: int = 4_000_000,
    refuse_over_limit: bool = False,
) -> Certificate:
    """Decide rigorously whether the composition of ``mechanisms`` is ``(claim_eps, claim_delta)``-DP.

    The decision compares ``delta_g(claim_eps)`` (exact, or a certified
    enclosure) with ``claim_delta``. A straddling enclosure is refined: the
    digits are multiplied by 4 up to ``max_digits``. When the exact engines
    refuse the cost (``CostTooHigh``: many incommensurable eps_i), the lattice
    sandwich of :func:`exactdp.approx.delta_bounds` is used, refined until the
    claim is decided or the lattice degree exceeds ``max_degree``. The optimal
    eps at ``claim_delta`` is reported beside the verdict (to ``digits``).

    Guarantee: exact decision. ``holds`` is never a guess; ties
    (``delta_g(claim_eps) = claim_delta`` exactly) count as holding when they
    can be proved, and raise :class:`Undecided` when they cannot.

    Parameters:
        mechanisms: iterable of :class:`~exactdp.Mechanism`.
        claim_eps: claimed eps (rational >= 0), or
        claim_exp_eps: claimed ``e^eps`` (rational >= 1).
        claim_delta: claimed delta in ``[0, 1)``.
        method: S(t) algorithm for the exact / certified engines.
        digits: significant digits of the reported enclosures.
        max_digits: bound of the refinement.
        max_degree: bound of the lattice sandwich.
        refuse_over_limit: an explicit ``method`` with a size limit (``brute``, ``mitm``,
            ``grouped``) over that limit is refused up front (``CostTooHigh``, with the
            estimate, as ``composed_delta`` refuses it) instead of handing the decision to
            the lattice sandwich (the default). ``exactdp certify`` refuses.

    Raises:
        InvalidArgument: bad mechanisms or claim (named, with the valid range).
        CostTooHigh: up front, with the estimate, when neither the engines (windowed for
            equal eps at any k, ball lattice for a few commensurable groups, ...) nor the
            lattice sandwich fit the cost limits, or (``refuse_over_limit``) an explicit ``method``
            over its size limit.
        Undecided: the enclosure still straddled the claim at the bounds, or could not
            be computed to the digits the decision needed (precision bound).

    Examples:
        >>> from exactdp import mechanisms
        >>> c = certify(mechanisms(exp_eps=[2, 2]), claim_exp_eps=2, claim_delta="2/9")  # delta_g(ln 2) = 2/9 exactly
        >>> c.holds, c.delta_lower == c.delta_upper == Fraction(2, 9)
        (True, True)
        >>> certify(mechanisms(eps=["0.1"], k=100), "5", "1e-6").holds   # OptComp(1e-6) = 4.7745...
        True

    References:
        Murtagh-Vadhan Theorem 1.5 (and 3.4 for adaptive composition).
    """
    ms = as_composition(mechanisms)
    if (claim_eps is None) == (claim_exp_eps is None):
        raise InvalidArgument("claim_eps / claim_exp_eps", "given, exactly one of the two", None)
    E = parse_eps(claim_eps, "claim_eps") if claim_eps is not None else None
    T = parse_exp_eps(claim_exp_eps, "claim_exp_eps") if claim_exp_eps is not None else None
    D = parse_delta(claim_delta, "claim_delta")
    digits = parse_int(digits, "digits", lo=1)
    max_digits = parse_int(max_digits, "max_digits", lo=1)
    max_degree = parse_int(max_degree, "max_degree", lo=1)
    max_digits = max(max_digits, digits)
    if refuse_over_limit and method in SIZE_LIMITED_METHODS:
        Prepared(ms, method)  # raises CostTooHigh over the limit (with the estimate)
    k = ms.k
    kw = {"eps_g": E} if E is not None else {"exp_eps_g": T}

    t_num = RatExp.from_eps(E) if E is not None else RatExp.from_exp(T)  # type: ignore[arg-type]
    P = ms.delta_product
    above_W = log_sign_of_product([(t_num, 1)] + [(m.w, -n) for m, n in ms.groups()])
    if above_W is not None and above_W >= 0:
        # e^eps >= prod w_i: every term of S(t) is <= 0, so delta_g = 1 - prod(1 - delta_i)
        # exactly. With rational eps_i this is the only case in which delta_g is rational
        # (docs/approx.md), hence the only tie that ball arithmetic could not resolve.
        delta = Enclosure.point(1 - P)
        holds: bool = delta.upper <= D
        engine, meth, decided_by = "exact", "S(t) = 0", "exact value (claimed eps >= sum of eps_i)"
        decided_digits: Optional[int] = None
    else:
        holds, delta, engine, meth, decided_by, decided_digits = _decide_delta(ms, kw, D, method, digits, max_digits,
                                                                               max_degree)

    # the optimal eps at the claimed delta, for the report, to the digits that decided the claim
    eexp = None
    rep_digits = min(max(digits, decided_digits or 0), 1000)
    try:
        try:
            o = optcomp(ms, D, engine="auto", method=method, digits=rep_digits)
        except (CostTooHigh, PrecisionError):
            if rep_digits == digits:
                raise
            o = optcomp(ms, D, engine="auto", method=method, digits=digits)
        eps, eexp = o.value, o.exp_exact
    except PrecisionError:
        # the verdict is decided; a report that cannot be refined is replaced by rigorous wide bounds
        eps = _trivial_eps_bounds(ms, E, T, D, P, holds)
    except CostTooHigh:
        # the sandwich converges linearly in eps0: report to ~6 digits, within a bounded cost
        # (the report is a side result: its refinement gets a fraction of the time limit)
        try:
            with cost_limits(seconds=min(current_limits()[0], REPORT_SECONDS)):
                eps = optcomp_bounds(ms, D, width=Fraction(1, 10 ** min(digits, 6)),
                                     max_degree=min(max_degree, 1_000_000), digits=max(digits, 20)).value
        except (CostTooHigh, PrecisionError):
            # wide but rigorous (the verdict above is already decided): OptComp(D) <= sum eps_i
            # when finite, > claim eps when the claim fails, <= claim eps when it holds
            eps = _trivial_eps_bounds(ms, E, T, D, P, holds)
    # both sides must agree (Theorem 1.5: delta_g(E) <= D iff OptComp(D) <= E)
    claim = Enclosure.point(E) if E is not None else Enclosure.log_of_rational(T, 30)  # type: ignore[arg-type]
    if holds and (eps.infinite or eps.lower > claim.upper):  # pragma: no cover - would be a bug
        raise PrecisionError("internal inconsistency: the claim holds but OptComp(claim_delta) exceeds claim_eps")
    if not holds and not eps.infinite and eps.upper < claim.lower:  # pragma: no cover
        raise PrecisionError("internal inconsistency: the claim fails but OptComp(claim_delta) is below claim_eps")
    # Theorem 1.5: delta_g(E) <= D iff OptComp(D) <= E, and delta_g(E) > D iff OptComp(D) > E;
    # the decided verdict bounds the reported eps on the claim's side
    if not eps.infinite and eps.exact is None:
        eps = eps.clamp(hi=claim.upper) if holds else eps.clamp(lo=claim.lower)
    return Certificate(holds=bool(holds), claim_eps=E, claim_exp_eps=T, claim_delta=D, delta=delta, eps=eps, eps_exp_exact=eexp, decided_by=decided_by, engine=engine, method=meth, k=k, digits=digits, decided_digits=decided_digits)


def _trivial_eps_bounds(ms: Composition, E, T, D: Fraction, P: Fraction, holds: bool) -> Enclosure:
    """Rigorous (wide) bounds on OptComp(D) from the decided verdict alone."""
    if D < 1 - P:
        return Enclosure.infinity()
    claim = Enclosure.point(E) if E is not None else Enclosure.log_of_rational(T, 30)
    s_hi = sum((n * (m.eps if m.eps is not None else Enclosure.log_of_rational(m.exp_eps, 30).upper)
                for m, n in ms.groups()), Fraction(0))
    if holds:
        return Enclosure(Fraction(0), min(claim.upper, s_hi))
    return Enclosure(claim.lower, s_hi)


def _engines_text(refused: CostTooHigh) -> str:
    """The engines' refusal in a clause (from its fields: the whole message names alternatives
    the caller has already tried)."""
    est, lim = refused.estimate, refused.limit
    if isinstance(est, dict) and isinstance(lim, dict) and {"seconds", "bytes"} <= set(est) & set(lim):
        return (f"the engines' cheapest kernel is estimated at about {fmt(est['seconds'])} s and "
                f"{fmt_bytes(est['bytes'])}, over the limits ({fmt(lim['seconds'])} s, {fmt_bytes(lim['bytes'])})")
    return f"the engines: {refused.expected}"


def _decide_delta(ms, kw, D, method, digits, max_digits, max_degree):
    """delta_g at the claimed eps against D: exact, or certified with refinement, else the sandwich."""

    holds: Optional[bool] = None
    decided_digits: Optional[int] = None
    try:
        d = digits
        # not numbers.precision.refine: this raises the digits of a public call (each call runs its
        # own refine), and the last one answers "undecided" instead of raising PrecisionError
        while True:
            try:
                r = composed_delta(ms, **kw, engine="auto", method=method, digits=d)  # type: ignore[arg-type]
            except PrecisionError as e:
                raise Undecided(f"claim undecided: delta_g at the claimed eps could not be enclosed to {d} digits ({e})") from None
            if r.upper <= D:
                holds = True
            elif r.lower > D:
                holds = False
            if holds is not None:
                break
            if d >= max_digits:
                raise Undecided(
                    f"claim undecided: delta_g at the claimed eps lies in [{fraction_to_decimal(r.lower, d, 'down')}, "
                    f"{fraction_to_decimal(r.upper, d, 'up')}], which contains the claimed delta {fraction_str(D)} "
                    f"(refined to {d} digits)"
                )
            d = min(4 * d, max_digits)
        delta = r.value
        engine, meth = r.engine, r.method
        decided_by = "exact value" if r.exact is not None else f"certified enclosure ({d} digits)"
        decided_digits = None if r.exact is not None else d
    except CostTooHigh as refused:
        def stop(lo, hi):
            return hi <= D or lo > D

        try:
            b = delta_bounds(ms, **kw, width=Fraction(1, 10**digits), max_degree=max_degree, digits=max(digits, 20), stop=stop)  # type: ignore[arg-type]
        except CostTooHigh as e:
            # both ways refused up front: one error about the user's mechanisms, with both estimates
            raise CostTooHigh(
                "mechanisms",
                f"certifying these {ms.k} mechanisms is refused up front: {_engines_text(refused)}, and the lattice "
                f"sandwich: {e.expected}; use fewer mechanisms or eps on a coarser lattice, or lift the limits "
                "(EXACTDP_MAX_SECONDS / EXACTDP_MAX_MEMORY)",
                estimate={"engines": refused.estimate, "sandwich": e.estimate}, limit=refused.limit,
                alternative=refused.alternative,
            ) from None
        if b.upper <= D:
            holds = True
        elif b.lower > D:
            holds = False
        else:
            raise Undecided(
                f"claim undecided: the lattice sandwich (degree {b.degree}) bounds delta_g at the claimed eps by "
                f"[{fraction_to_decimal(b.lower, 12, 'down')}, {fraction_to_decimal(b.upper, 12, 'up')}], "
                f"which contains the claimed delta {fraction_str(D)}; raise max_degree"
            )
        delta = b.value
        engine, meth = "certified", "lattice sandwich"
        decided_by = f"lattice sandwich (eps0 = {fraction_str(b.eps0)}, degree {b.degree})"  # type: ignore[arg-type]
        decided_digits = max(digits, 20)
    return holds, delta, engine, meth, decided_by, decided_digits
