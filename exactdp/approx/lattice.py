"""The rounded composition of Theorem 1.7: ``w_i' = u^(a_i)`` on a lattice, and its OptComp.

:func:`lattice_exponents` rounds each ``e^eps_i`` down or up to a power of ``u``
(decided exactly); :class:`LatticeProblem` is the rounded composition as a problem
for the engines' one inverse (:mod:`exactdp.engines.inverse`), and
:func:`optcomp_lattice` solves it: exactly when ``u`` and the target are
rational, as a certified enclosure otherwise.

References: Murtagh-Vadhan, proof of Theorem 1.7 (``a_i = floor(k eps_i / eta)``).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Optional, Sequence

from ..engines.costs import (
    EVALS_OPTCOMP,
    MAX_EXPONENT,
    check_estimate,
    check_per_mechanism,
    check_poly_cost,
    current_limits,
)
from ..engines.fields import Field
from ..engines.inverse import Inverse, Target, eps_at_W, invert_certified, invert_exact
from ..engines.lattice import Lattice, lattice_build
from ..errors import CostTooHigh, InvalidArgument, NotExact, PrecisionError
from ..events import as_composition
from ..numbers import Enclosure, ExpNum, RatExp, digits_to_bits, log_sign_of_product, parse_choice, parse_rational

__all__ = [
    "LatticeProblem",
    "optcomp_lattice",
    "lattice_exponents",
    "lattice_exponent_groups",
    "exponent",
    "degree_estimate",
    "check_eta",
    "check_base",
    "check_exponents",
    "INFINITE",
]

#: OptComp = +inf (the target delta is below 1 - prod(1 - delta_i)).
INFINITE = Inverse(Enclosure.infinity(), None, None, True)


class LatticeProblem:
    """Mechanisms ``w_i' = u^(a_i)`` (deltas folded into the target) as a problem for the inverse.

    The count polynomial ``prod (1 + z^(a_i))`` is built on first use, after its cost
    is checked (:func:`~exactdp.engines.costs.check_poly_cost`).
    """

    method = "lattice"

    def __init__(self, u: ExpNum, a: Optional[Sequence[int]] = None, *, groups: Optional[Sequence[tuple[int, int]]] = None,
                 P: Fraction = Fraction(1), parameter: str = "eta", hint: str = "use a larger eta (a coarser lattice)"):
        # the exponents are kept as counts {a_i: n}: k = 10^9 mechanisms are a few distinct a_i
        if (a is None) == (groups is None):
            raise InvalidArgument("a / groups", "given, exactly one of the two", None)
        al = [int(x) for x in a] if a is not None else None
        counts: dict = {}
        for x, n in (((x, 1) for x in al) if al is not None else groups):  # type: ignore[union-attr]
            counts[int(x)] = counts.get(int(x), 0) + int(n)
        self.u = u
        self.P = P
        self.A = sum(x * n for x, n in counts.items())
        self.k = sum(counts.values())
        self.uq: Optional[Fraction] = u.exact()
        self.eps0: Optional[Fraction] = u.log_exact()
        self._parameter = parameter
        self._hint = hint
        self._struct: Optional[Lattice] = None
        self._Z: dict = {}
        self._a: Optional[list[int]] = al
        lu = u.flog()
        self.ln_W = self.A * lu
        self._counts = counts
        self.log_Z = math.fsum(n * _log1p_exp(x * lu) for x, n in counts.items())

    @property
    def groups(self) -> list[tuple[int, int]]:
        """The exponents as sorted pairs ``(a_i, count)``."""
        return sorted(self._counts.items())

    @property
    def a(self) -> list[int]:
        """The exponents one per mechanism (the Lemma 5.1 tables need them so).

        Raises:
            CostTooHigh: more than ``MAX_PER_MECHANISM`` mechanisms (before the list is built).
        """
        if self._a is None:
            check_per_mechanism(self.k, self._parameter, "the list of lattice exponents a_i",
                                "the fast form (form='fast') works from the counts")
            self._a = [x for x, n in self.groups for _ in range(n)]
        return self._a

    @property
    def struct(self) -> Lattice:
        if self._struct is None:
            check_poly_cost(self.k, self.A, self._parameter, self._hint)
            check_estimate(lattice_build(sorted(self._counts.items())), self._parameter,
                           f"the lattice count polynomial (degree {self.A}, {self.k} mechanisms)", self._hint)
            self._struct = Lattice.from_groups(self.u, sorted(self._counts.items()))
        return self._struct

    def engine_kind(self, exact_possible: bool, digits: int, evals: int) -> str:
        """``"exact"`` when possible and within the cost limits, else ``"certified"`` (rigorous
        either way: exact rationals of ``A log2 u`` bits can outgrow balls by far).

        Raises:
            CostTooHigh: neither fits (the estimate and the hint).
        """
        struct = self.struct
        if exact_possible:
            b, e = struct.estimate("exact", 0)
            est = b.then(e, evals)
            lim_s, lim_b = current_limits()
            if est.seconds <= lim_s and est.bytes <= lim_b:
                return "exact"
        b, e = struct.estimate("arb", digits_to_bits(digits) + 32)
        check_estimate(b.then(e, evals), self._parameter,
                       f"the lattice problem (degree {self.A}, {self.k} mechanisms) in certified arithmetic", self._hint)
        return "certified"

    def all_exact(self) -> bool:
        return self.uq is not None

    def check_exact(self) -> None:
        """Refuse the exact engine for an irrational base ``u``.

        Raises:
            NotExact: naming the lattice base.
        """
        if self.uq is None:
            raise NotExact("eps0", "a rational lattice base for the exact engine", repr(self.u))

    def W_groups(self) -> list[tuple[ExpNum, int]]:
        return [(self.u, self.A)]

    def Z(self, field: Field):
        """``prod (1 + u^(a_i))``: the count polynomial at ``u``, in ``field`` (cached)."""
        key = (field.name, getattr(field, "prec", None))
        hit = self._Z.get(key)
        if hit is None:
            one = field.rational(Fraction(1))
            u = field.embed(self.u)
            z = one
            for x, n in sorted(self._counts.items()):
                z = z * (one + u**x) ** n
            hit = self._Z[key] = z
        return hit


def _log1p_exp(l: float) -> float:
    return l + math.log1p(math.exp(-l)) if l > 0 else math.log1p(math.exp(l))


def optcomp_lattice(prob: LatticeProblem, target: Target, digits: int) -> Inverse:
    """OptComp of the lattice composition at the target (the fast form of Theorem 1.7).

    Guarantee: exact when ``u`` and tau are rational (``exp_exact`` is ``t*``), else a
    certified enclosure to ``digits``; infinite when tau < 0.

    Raises:
        CostTooHigh: the count polynomial is too large (estimate and the eta that fits).
        PrecisionError: no certificate by ``MAXPREC`` bits.
    """
    s = target.sign()
    if s < 0:
        return INFINITE
    if s == 0:
        return eps_at_W(prob.W_groups(), digits)
    if prob.A == 0:
        return Inverse(Enclosure.point(0), Fraction(1), None, True)
    if prob.engine_kind(prob.all_exact() and target.exact() is not None, digits, EVALS_OPTCOMP) == "exact":
        return invert_exact(prob, target, digits)
    return invert_certified(prob, target, digits, None)


def degree_estimate(ws: Sequence[ExpNum], u: ExpNum) -> float:
    """``sum_i ln w_i / ln u`` in floating point: the lattice degree to within k. Guarantee: approximate."""
    lu = u.flog()
    return math.fsum(max(w.flog(), 0.0) for w in ws) / lu


def check_eta(eta: object) -> Fraction:
    e = parse_rational(eta, "eta", expected="a rational number > 0")
    if e <= 0:
        raise InvalidArgument("eta", "a rational number > 0", eta)
    return e


def check_base(base: object, name: str = "exp_base") -> Fraction:
    b = parse_rational(base, name, expected="a rational number > 1")
    if b <= 1:
        raise InvalidArgument(name, "a rational number > 1", base)
    return b


def check_exponents(a: object) -> list[int]:
    try:
        al = list(a)  # type: ignore[arg-type]
    except TypeError:
        raise InvalidArgument("a", "a list of integers >= 0", a) from None
    for i, x in enumerate(al):
        if isinstance(x, bool) or not isinstance(x, int) or x < 0:
            raise InvalidArgument(f"a[{i}]", "an integer >= 0", x)
    return [int(x) for x in al]



def lattice_exponents(mechanisms, *, eps0: object = None, exp_base: object = None, rounding: str = "down") -> list[int]:
    """``a_i = floor(ln w_i / ln u)`` (``rounding="down"``) or ``ceil`` (``"up"``).

    ``u = e^{eps0}`` (so ``a_i = floor(k eps_i / eta)`` for ``eps0 = eta / k``,
    as in the proof of Theorem 1.7) or ``u = exp_base`` (a rational > 1). Then
    ``u^{a_i} <= w_i`` (down) or ``u^{a_i} >= w_i`` (up).

    Guarantee: exact. Rational eps_i over a rational eps0 is integer
    arithmetic; otherwise each candidate is confirmed by an exact sign decision
    (:func:`~exactdp.numbers.log_sign_of_product`): e.g. for ``exp_eps = 11/10``
    and ``eps0 = 1/100``, ``ln(11/10) / eps0`` is irrational and its floor is
    settled by Arb at rising precision.

    Raises:
        InvalidArgument: not exactly one of eps0 / exp_base, eps0 <= 0,
            exp_base <= 1, an unknown rounding.
        PrecisionError: the floor could not be decided (only for Computable
            inputs that sit on a lattice point).

    Examples:
        >>> from exactdp import mechanisms
        >>> lattice_exponents(mechanisms(eps=["0.25", "0.3"]), eps0="0.1")
        [2, 3]
        >>> lattice_exponents(mechanisms(exp_eps=["11/10"]), eps0="0.01", rounding="up")  # ln 1.1 = 0.0953...
        [10]

    References:
        Murtagh-Vadhan proof of Theorem 1.7 (``a_i = floor(k eps_i / eta)``).
    """
    comp = as_composition(mechanisms)
    rounding = parse_choice(rounding, "rounding", ("down", "up"))
    u = _base(eps0, exp_base)
    # the answer is one integer per mechanism: refused before it is built when too long
    check_per_mechanism(comp.k, "mechanisms", "lattice_exponents' list",
                        "lattice_exponent_groups gives the same exponents as (a_i, count) pairs")
    cache = {m.w: exponent(m.w, u, rounding) for m, _ in comp.groups()}
    return [cache[m.w] for m, n in comp.runs() for _ in range(n)]


def lattice_exponent_groups(mechanisms, *, eps0: object = None, exp_base: object = None,
                            rounding: str = "down") -> list[tuple[int, int]]:
    """The exponents of :func:`lattice_exponents` as sorted pairs ``(a, count)``: the number of
    mechanisms whose ``e^eps_i`` rounds to ``u^a``, computed from the composition's counts
    (``k = 10^9`` copies cost one exponent).

    Guarantee: exact (as :func:`lattice_exponents`).

    Raises:
        InvalidArgument / PrecisionError: as :func:`lattice_exponents`.

    Examples:
        >>> from exactdp import mechanisms
        >>> lattice_exponent_groups(mechanisms(eps=["0.25", "0.3", "0.2"], k=10**9), eps0="0.1")
        [(2, 2000000000), (3, 1000000000)]

    References:
        Murtagh-Vadhan proof of Theorem 1.7 (``a_i = floor(k eps_i / eta)``).
    """
    comp = as_composition(mechanisms)
    rounding = parse_choice(rounding, "rounding", ("down", "up"))
    u = _base(eps0, exp_base)
    counts: dict = {}
    for m, n in comp.groups():
        x = exponent(m.w, u, rounding)
        counts[x] = counts.get(x, 0) + n
    return sorted(counts.items())


def _base(eps0: object, exp_base: object) -> ExpNum:
    if (eps0 is None) == (exp_base is None):
        raise InvalidArgument("eps0 / exp_base", "given, exactly one of the two", None)
    if eps0 is not None:
        e0 = parse_rational(eps0, "eps0", expected="a rational number > 0")
        if e0 <= 0:
            raise InvalidArgument("eps0", "a rational number > 0", eps0)
        return RatExp.from_eps(e0)
    return RatExp.from_exp(check_base(exp_base))


def exponent(w: ExpNum, u: ExpNum, rounding: str) -> int:
    """``floor`` (or ``ceil``) of ``ln w / ln u``, decided exactly (see :func:`lattice_exponents`)."""
    if w.is_one():
        return 0
    if w.flog() / u.flog() > MAX_EXPONENT:
        raise CostTooHigh("eps", f"ln w / ln u = {w.flog() / u.flog():.3g} lattice steps for one mechanism (limit {MAX_EXPONENT:.3g}); use a coarser lattice",
                          estimate=w.flog() / u.flog(), limit=MAX_EXPONENT, alternative="a coarser lattice")
    lw, lu = w.log_exact(), u.log_exact()
    if lw is not None and lu is not None:
        x = lw / lu
        fl = x.numerator // x.denominator
        return fl if (rounding == "down" or fl == x) else fl + 1
    n = int(math.floor(w.flog() / u.flog()))

    def sg(nn: int) -> int:
        s = log_sign_of_product([(w, 1), (u, -nn)])
        if s is None:
            raise PrecisionError(f"cannot decide floor(ln {w!r} / ln {u!r}) near {nn}")
        return s

    s = sg(n)
    while s < 0:
        n -= 1
        s = sg(n)
    while True:
        s1 = sg(n + 1)
        if s1 < 0:
            break
        n += 1
        s = s1
    if rounding == "up" and s != 0:
        n += 1
    return max(n, 0)


