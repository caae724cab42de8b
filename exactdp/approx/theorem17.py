"""Murtagh-Vadhan Theorem 1.7: approximating OptComp with a certified guarantee.

The text we have stops in the middle of the proof of Theorem 1.7; what the
proof prints (round every eps_i *down* to the lattice ``eps_0 = eta/k`` and
output ``OptComp(eps', delta_g)``) does **not** satisfy the theorem's lower
inequality, nor does ``OptComp(eps', delta_g) + eta`` (``docs/errata.md``,
section "Murtagh-Vadhan Theorem 1.7"). Two outputs that do, both implemented:

``variant="up"`` (default)
    ``eps* = OptComp(eps+, delta_g)`` with ``eps+_i = eps_0 ceil(eps_i / eps_0)``.
    Monotonicity gives ``eps* >= OptComp(eps, delta_g)``; ``eps+ <= eps + eps_0``
    and Lemma 5.3 (shift ``c = eps_0``) give
    ``eps* <= OptComp(eps, e^{-eta/2} delta_g) + eta``.
``variant="completion"``
    ``eps* = OptComp(eps', e^{-eta/2} delta_g) + eta`` with the printed
    ``eps'_i = eps_0 floor(eps_i / eps_0)``: Lemma 5.3 applied to ``eps'`` with
    shift ``eps_0`` gives the lower inequality, monotonicity the upper one.
    Never smaller than ``"up"`` (and infinite more often).

Each is computed in two forms that return the same number: ``form="proof"``, as
the proof describes (:mod:`.decision`: Lemma 5.2 inside a binary search), and
``form="fast"``, the count polynomial once and the engines' one inverse
(:func:`~exactdp.approx.lattice.optcomp_lattice`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Optional

from ..engines.api import check_digits
from ..engines.costs import (
    MAX_DEGREE,
    MAX_POLY_BITS,
    MAX_PROOF_SECONDS,
    PROOF_SECONDS_PER_CELL,
    check_poly_cost,
    poly_cost,
)
from ..engines.inverse import Target
from ..engines.results import EnclosedResult
from ..errors import CostTooHigh, InvalidArgument
from ..events import as_composition
from ..links import implements
from ..numbers import Enclosure, ExpNum, Guarantee, RatExp, Root, fraction_str, parse_choice, parse_delta
from .decision import optcomp_proof
from .lattice import LatticeProblem, check_base, check_eta, exponent, optcomp_lattice

__all__ = ["theorem17", "ApproxResult", "VARIANTS", "FORMS"]

#: Theorem 1.7 outputs. The last two are the printed ones, kept for the
#: errata checks; they do not satisfy the theorem (docs/errata.md).
VARIANTS = ("up", "completion", "printed", "printed+eta")
FORMS = ("fast", "proof")


#: Largest sum of the rounded eps_i, A ln u, whose OptComp is searched: the search points are
#: binary rationals of about 1.44 A ln u bits (t = e^{1e8}: 18 MB a number).
MAX_ROUNDED_SUM = 1e8


@dataclass(frozen=True, kw_only=True, repr=False)
class ApproxResult(EnclosedResult):
    """The output eps* of Theorem 1.7 (as an enclosure) and how it was obtained.

    ``lower <= eps* <= upper`` rigorously; for ``variant`` ``"up"`` or
    ``"completion"``, ``OptComp(delta_g) <= eps* <= OptComp(e^{-eta/2} delta_g) + eta``.

    Guarantee: enclosure of eps*. ``guarantee`` is the tier of eps* as a bound on
    ``OptComp(delta_g)`` (upper bound for ``"up"`` and ``"completion"``, lower bound for
    ``"printed"``, approximate for ``"printed+eta"``); ``meaning`` says it in full (the JSON
    ``"guarantee"``).
    Raises: nothing (a frozen record).
    """

    value: Enclosure
    eta: Optional[Fraction]
    exp_base: Optional[Fraction]
    eps0: Optional[Fraction]
    variant: str
    form: str
    k: int
    degree: int
    delta_g: Fraction
    guarantee: Guarantee
    meaning: str
    prec: Optional[int]
    exp_exact: Optional[Fraction] = None
    tables: Optional[int] = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "guarantee", Guarantee(self.guarantee))  # a checked tier

    def to_dict(self, digits: int = 30) -> dict:
        """The ``exactdp approx --json`` object (decimals rounded outward). Guarantee: enclosure. Raises: nothing."""
        return {
            "eps_star": self.value.to_dict(digits),
            "infinite": self.infinite,
            "eta": fraction_str(self.eta) if self.eta is not None else None,
            "exp_base": fraction_str(self.exp_base) if self.exp_base is not None else None,
            "eps0": fraction_str(self.eps0) if self.eps0 is not None else None,
            "k": self.k,
            "lattice_degree": self.degree,
            "variant": self.variant,
            "form": self.form,
            "delta_g": fraction_str(self.delta_g),
            "guarantee": self.meaning,
            "precision_bits": self.prec,
            "digits": digits,
        }


#: the tier of eps* as a bound on OptComp(delta_g), per variant
_TIER = {"up": Guarantee.UPPER, "completion": Guarantee.UPPER, "printed": Guarantee.LOWER, "printed+eta": Guarantee.APPROXIMATE}

_GUARANTEE = {
    "up": "OptComp(delta_g) <= eps_star <= OptComp(exp(-eta/2)*delta_g) + eta "
    "(Murtagh-Vadhan Thm 1.7; eps_star = OptComp of eps rounded up to multiples of eta/k; enclosure of eps_star)",
    "completion": "OptComp(delta_g) <= eps_star <= OptComp(exp(-eta/2)*delta_g) + eta "
    "(Murtagh-Vadhan Thm 1.7; eps_star = OptComp(eps rounded down, exp(-eta/2)*delta_g) + eta; enclosure of eps_star)",
    "printed": "lower bound on OptComp(delta_g) only: the output printed in the proof of Thm 1.7 "
    "fails the theorem's lower inequality (docs/errata.md)",
    "printed+eta": "none: OptComp(eps rounded down, delta_g) + eta fails Thm 1.7's lower inequality "
    "on some inputs (docs/errata.md)",
}



@implements("Murtagh-Vadhan Theorem 1.7")
def theorem17(
    mechanisms,
    delta_g: object,
    eta: object = None,
    *,
    exp_base: object = None,
    variant: str = "up",
    form: str = "fast",
    digits: int = 20,
    max_proof_seconds: float = MAX_PROOF_SECONDS,
) -> ApproxResult:
    """Theorem 1.7: ``eps*`` with ``OptComp(delta_g) <= eps* <= OptComp(e^{-eta/2} delta_g) + eta``.

    Discretize on the lattice ``eps_0 = eta / k`` (``a_i = floor`` or ``ceil`` of
    ``k eps_i / eta``, decided exactly), then compute OptComp of the rounded
    mechanisms exactly (as a rigorous enclosure). ``variant`` chooses the
    output (module docstring; ``"up"`` is the tightest), ``form`` the algorithm:
    ``"proof"`` = binary search over Lemma 5.2 decisions, as the proof
    describes; ``"fast"`` = the count polynomial once and the exact inverse.
    Both forms return the same eps* (up to the enclosure width).

    ``exp_base = u`` (a rational > 1) replaces ``eta``: the lattice is
    ``u^{a_i}`` in exp-space, ``eta = k ln u``, and the rounded problem is solved
    in exact rational arithmetic (``exp_exact`` holds ``e^{eps*}`` when it is
    rational).

    Guarantee: enclosure ``lower <= eps* <= upper`` of relative width about
    ``10^-digits``; for variants ``"up"`` and ``"completion"`` the theorem's
    inequality holds for eps*, hence ``upper`` is a rigorous upper bound on
    ``OptComp(delta_g)``. ``"printed"`` and ``"printed+eta"`` are the outputs
    read off the printed proof: not guaranteed (docs/errata.md).

    Parameters:
        mechanisms: iterable of :class:`~exactdp.Mechanism`.
        delta_g: rational in ``[0, 1)``.
        eta: additive error parameter, rational > 0 (or ``exp_base``).
        variant: ``up | completion | printed | printed+eta``.
        form: ``fast | proof``.
        digits: significant digits of the enclosure.
        max_proof_seconds: refuse ``form="proof"`` above this estimated time
            (default ``MAX_PROOF_SECONDS``; ``math.inf`` to run it anyway).

    Raises:
        InvalidArgument: bad mechanisms or delta_g, ``eta <= 0``,
            ``exp_base <= 1``, unknown variant / form.
        CostTooHigh: the lattice degree ``A = sum a_i`` exceeds ``MAX_DEGREE``,
            or ``k A`` exceeds ``MAX_POLY_BITS`` (memory of the count
            polynomial), or (``form="proof"``) the estimated time of the
            proof's form exceeds ``MAX_PROOF_SECONDS``; the message gives the
            estimate and the eta (or form) that fits.
        PrecisionError: no rigorous answer by ``MAXPREC`` bits.

    Examples:
        >>> from exactdp import mechanisms
        >>> r = theorem17(mechanisms(eps=["0.105"], k=10), "1e-6", "0.1")
        >>> float(r.lower) > 0 and r.upper - r.lower < 1e-15
        True
        >>> r.eps0   # eta / k
        Fraction(1, 100)
        >>> theorem17(mechanisms(exp_eps=[2, 3]), "1/10", exp_base=2).exp_exact   # 3 rounded up to 4: exact
        Fraction(13, 2)

    References:
        Murtagh-Vadhan Theorem 1.7 (proof completed and corrected:
        docs/errata.md), Lemmas 5.1-5.3.
    """
    comp = as_composition(mechanisms)
    dg = parse_delta(delta_g, "delta_g")
    digits = check_digits(digits)
    variant = parse_choice(variant, "variant", VARIANTS)
    form = parse_choice(form, "form", FORMS)
    ws = [(m.w, n) for m, n in comp.groups()]
    k = comp.k
    if (eta is None) == (exp_base is None):
        raise InvalidArgument("eta / exp_base", "given, exactly one of the two", None)
    if eta is not None:
        et: Optional[Fraction] = check_eta(eta)
        e0: Optional[Fraction] = et / k  # type: ignore[operator]
        u: ExpNum = RatExp.from_eps(e0)  # type: ignore[arg-type]
        ub = None
    else:
        ub = check_base(exp_base)
        et, e0 = None, None
        u = RatExp.from_exp(ub)
    rounding = "up" if variant == "up" else "down"
    pname = "eta" if eta is not None else "exp_base"
    total = math.fsum(n * max(w.flog(), 0.0) for w, n in ws)
    kn = sum(n for w, n in ws if not w.is_one())  # mechanisms with eps > 0

    def hint() -> str:
        if not math.isfinite(total):
            return "no lattice fits: sum eps_i is beyond the floating-point range; use smaller eps"
        # rounded up, every mechanism with eps > 0 keeps at least one lattice step: A >= kn
        floor_A = kn if rounding == "up" else 0
        if floor_A > MAX_DEGREE or k * floor_A > MAX_POLY_BITS:
            return (f"no eta fits: with the eps_i rounded up, A >= {floor_A} and k * A >= {k * floor_A:.3g} > "
                    f"{MAX_POLY_BITS:.3g} whatever the lattice; use fewer mechanisms (k <= {math.isqrt(MAX_POLY_BITS)}) "
                    "or variant='completion'")
        # the least eta (k ln u) that meets both limits: A <= k total / eta + floor_A
        need = max(k * total / max(MAX_DEGREE - floor_A, 1), k * k * total / max(MAX_POLY_BITS - k * floor_A, 1))
        if eta is not None:
            return f"use eta >= {need:.3g}"
        x = need / k  # ln u
        return f"use exp_base >= 1 + {math.expm1(x):.3g}" if x < 1 else f"use exp_base >= e^{x:.3g}"

    lu = u.flog()
    A_est = total / lu if lu > 0 else math.inf  # eta = 1e-400 underflows ln u to 0
    if not (A_est <= 2 * MAX_DEGREE and k * A_est <= 2 * MAX_POLY_BITS):  # before any exact work (k more at most)
        check_poly_cost(k, A_est, pname, hint())
    # the rounded exponents as counts (a huge eta rounds 10^9 mechanisms to a_i = 0: one pair)
    expo: dict = {}
    for w, n in ws:
        x = exponent(w, u, rounding)
        expo[x] = expo.get(x, 0) + n
    lat = LatticeProblem(u, groups=sorted(expo.items()), parameter=pname, hint=hint())
    check_poly_cost(k, lat.A, pname, hint())
    # the rounded eps_i sum to A ln u: OptComp of the rounded problem searches t up to e^{A ln u}
    # (a huge eta rounds every eps_i up to eta / k); its points are binary rationals of about
    # 1.44 A ln u bits, refused beyond MAX_ROUNDED_SUM (t = e^{1e8}: 18 MB a number)
    rounded_sum = lat.A * lu if lat.A else 0.0
    if not rounded_sum <= MAX_ROUNDED_SUM:
        fits = (MAX_ROUNDED_SUM - total) / max(lat.A, 1)  # ln u that keeps A ln u within the limit
        alt = (f"use {pname} <= {fits * k:.3g}" if eta is not None else f"use exp_base <= e^{fits:.3g}") \
            if fits > 0 else "use smaller eps"
        raise CostTooHigh(
            pname,
            f"the rounded eps_i sum to A ln u = {rounded_sum:.3g}, over the limit {MAX_ROUNDED_SUM:.0e} of the "
            f"search for OptComp of the rounded problem; {alt}",
            estimate={"sum_eps": rounded_sum}, limit={"sum_eps": MAX_ROUNDED_SUM}, alternative=alt,
        )
    if form == "proof":
        cells = 2 * (lat.A.bit_length() + 2) * k * (lat.A // 2 + 1)
        sec = cells * PROOF_SECONDS_PER_CELL
        if sec > max_proof_seconds:
            _, fast_sec = poly_cost(k, lat.A)
            alt = f"form='fast' gives the same eps* (estimated {max(fast_sec, 0.01):.2g} s)"
            raise CostTooHigh(
                "form",
                f"the proof's form would fill about {cells:.3g} Lemma 5.1 table cells (estimated {sec:.3g} s, limit "
                f"{max_proof_seconds:.0f} s); " + alt,
                estimate={"cells": cells, "seconds": sec}, limit={"seconds": max_proof_seconds}, alternative=alt,
            )
    half_eta_scale: Optional[ExpNum] = None
    if variant == "completion":
        # e^{-eta/2}: exact for a rational exp_base (u^{-k/2}), built only now that the lattice fits
        half_eta_scale = (RatExp.from_eps(-et / 2) if et is not None  # type: ignore[operator]
                          else RatExp.from_exp(1 / ub ** (k // 2)) if k % 2 == 0 else Root(1 / ub**k, 2))  # type: ignore[operator]
    tau = Target(comp.delta_product, dg, half_eta_scale)
    stats: dict = {}
    res = optcomp_lattice(lat, tau, digits + 2) if form == "fast" else optcomp_proof(lat, tau, digits + 2, stats=stats)
    if res.value.infinite:
        return ApproxResult(value=res.value, eta=et, exp_base=ub, eps0=e0, variant=variant, form=form, k=k, degree=lat.A, delta_g=dg, guarantee=_TIER[variant], meaning=_GUARANTEE[variant], prec=None, exp_exact=None, tables=stats.get("tables"))
    value, ex_t = res.value, res.exp_exact
    if variant in ("completion", "printed+eta"):
        if et is not None:
            value = value + et
            ex_t = None  # e^{eta} is irrational
        else:
            value = value + Enclosure.log_of_rational(ub**k, digits + 4)  # type: ignore[operator]
            ex_t = ex_t * ub**k if ex_t is not None else None  # type: ignore[operator]
    return ApproxResult(value=value, eta=et, exp_base=ub, eps0=e0, variant=variant, form=form, k=k, degree=lat.A, delta_g=dg, guarantee=_TIER[variant], meaning=_GUARANTEE[variant], prec=res.prec, exp_exact=ex_t, tables=stats.get("tables"))


