"""``exactdp approx``: Murtagh-Vadhan Theorem 1.7, the approximation with a certified guarantee.

Exit status: 0 when the answer was computed; 2 on bad input.
"""

from __future__ import annotations

from .common import (
    MAX_DIGITS,
    add_mechanism_args,
    check_mechanism_args,
    emit_json,
    mechanisms_from_args,
    positive_int,
    prevalidate,
    screen_numbers,
)

#: Theorem 1.7's forms (the library's exactdp.approx.FORMS; a test checks they agree).
FORMS = ("fast", "proof")


def register(sub) -> None:
    """Add the ``approx`` subcommand to ``sub``. Guarantee: exact. Raises: nothing."""
    p = sub.add_parser(
        "approx",
        help="approximate OptComp with a certified guarantee (Murtagh-Vadhan Thm 1.7)",
        description=(
            "Theorem 1.7: eps* with OptComp(delta_g) <= eps* <= OptComp(e^(-eta/2) delta_g) + eta, "
            "from the eps_i rounded to multiples of eta/k; eps* is printed as a rigorous enclosure, "
            "beside rigorous bounds on the true OptComp(delta_g)."
        ),
    )
    add_mechanism_args(p)
    p.add_argument("--delta-g", metavar="D", required=True, help="global delta, in [0, 1)")
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--eta", metavar="H", help="additive error parameter eta > 0 (lattice eps0 = eta/k)")
    g.add_argument("--exp-base", metavar="U", help="exp-space lattice base u > 1 (rational; eta = k ln u, exact arithmetic)")
    p.add_argument(
        "--variant",
        choices=["up", "completion"],
        default="up",
        help="up: OptComp of the eps_i rounded up (default, tightest); completion: "
        "OptComp(rounded down, e^(-eta/2) delta_g) + eta (see docs/errata.md)",
    )
    p.add_argument("--form", choices=FORMS, default="fast", help="fast: count polynomial + exact inverse (default); proof: binary search over Lemma 5.2 decisions")
    p.add_argument("--no-bounds", action="store_true", help="skip the rigorous bounds on the true OptComp (saves one lattice computation)")
    p.add_argument(
        "--width",
        metavar="W",
        default=None,
        help="also refine the certified sandwich on the true OptComp(delta_g) (eps_i rounded down and up to "
        "ever finer lattices) until its width is <= W (rational > 0)",
    )
    p.add_argument("--digits", type=positive_int("--digits", MAX_DIGITS), default=20, metavar="D",
                   help=f"significant digits, 1..{MAX_DIGITS} (default 20)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run_approx)


def run_approx(args) -> int:
    """Run ``exactdp approx``; return the exit status.

    Guarantee: ``eps_star`` is a rigorous enclosure of Theorem 1.7's eps*;
    ``optcomp`` (and ``sandwich`` with ``--width``) rigorous bounds on the true OptComp.

    Raises:
        InvalidArgument: bad MECHS, ``--delta-g``, ``--eta``, ``--exp-base``, ``--width``.
        CostTooHigh: ``-k`` too large, or a lattice too fine (estimate and the eta that fits).
        PrecisionError: no rigorous answer by the precision bound.

    Examples:
        ``exactdp approx --eps 0.1 -k 10 --delta-g 1e-6 --eta 0.01 --json``.

    References: Murtagh-Vadhan Theorem 1.7, Lemmas 5.1-5.3; docs/approx.md.
    """
    from ..numbers.parse import parse_delta, parse_positive

    screen_numbers(args, {"delta_g": "--delta-g", "eta": "--eta", "exp_base": "--exp-base", "width": "--width"})
    check_mechanism_args(args)
    prevalidate(args, {"delta_g": parse_delta, "eta": parse_positive,
                       "exp_base": lambda v, name: parse_positive(v, name, above=1)})
    from ..approx import optcomp_bounds, theorem17
    from ..numbers import fraction_to_decimal, short_fraction

    ms = mechanisms_from_args(args)
    width = parse_positive(args.width, "--width") if args.width is not None else None
    kw = {"eta": args.eta} if args.eta is not None else {"exp_base": args.exp_base}
    r = theorem17(ms, args.delta_g, variant=args.variant, form=args.form, digits=args.digits, **kw)
    low = None
    if not args.no_bounds:
        low = theorem17(ms, args.delta_g, variant="printed", form="fast", digits=args.digits, **kw)
    sw = optcomp_bounds(ms, args.delta_g, width=width, digits=max(args.digits, 20)) if width is not None else None
    if args.json:
        d = r.to_dict(args.digits)
        if sw is not None:
            d["sandwich"] = sw.to_dict(args.digits)
        if low is not None:
            if low.infinite:
                d["optcomp"] = {"lower": "inf", "upper": "inf", "infinite": True}
            else:
                d["optcomp"] = {
                    "lower": fraction_to_decimal(low.lower, args.digits, "down"),
                    "upper": "inf" if r.infinite else fraction_to_decimal(r.upper, args.digits, "up"),
                    "infinite": False,
                }
        emit_json(d)
        return 0
    print(f"composition: {ms.describe()}; delta_g = {args.delta_g}")
    if r.eta is not None:
        lat = f"eta = {args.eta}, lattice eps0 = eta/k = {short_fraction(r.eps0)}"  # type: ignore[arg-type]
    else:
        lat = f"exp-space lattice u = {args.exp_base} (eta = k ln u)"
    rnd = "eps_i rounded up" if r.variant == "up" else "eps_i rounded down, delta_g scaled by e^(-eta/2), plus eta"
    print(f"Theorem 1.7 (Murtagh-Vadhan): {lat}; variant {r.variant} ({rnd}); {r.form} form; lattice degree {r.degree}")
    if r.infinite:
        print("eps* = inf (the target delta is below 1 - prod(1 - delta_i))")
    else:
        if r.exact is not None and r.lower == r.upper == r.exact:
            print(f"eps* = {r.value.text(args.digits)}")
        else:
            ex = f" = {short_fraction(r.exact)}" if r.exact is not None else ""
            if not ex and r.exp_exact is not None:
                ex = f" = ln({short_fraction(r.exp_exact)})"
            print(f"eps*{ex} in {r.value.text(args.digits)}")
    print("guarantee: OptComp(delta_g) <= eps* <= OptComp(e^(-eta/2) delta_g) + eta")
    if low is not None:
        if low.infinite:
            print("true OptComp(delta_g) = inf")
        else:
            hi = "inf" if r.infinite else fraction_to_decimal(r.upper, args.digits, "up")
            print(f"true OptComp(delta_g) in [{fraction_to_decimal(low.lower, args.digits, 'down')}, {hi}]  (rigorous: eps_i rounded down / eps*)")
    if sw is not None:
        if sw.infinite:
            print("sandwich: true OptComp(delta_g) = inf")
        else:
            lat = f"eps0 = {short_fraction(sw.eps0)}" if sw.eps0 is not None else f"u = {short_fraction(sw.exp_base)}"
            ok = "width reached" if sw.width_reached else "width NOT reached (max degree); best bounds"
            print(
                f"sandwich: true OptComp(delta_g) in [{fraction_to_decimal(sw.lower, args.digits, 'down')}, "
                f"{fraction_to_decimal(sw.upper, args.digits, 'up')}]  ({ok}; lattice {lat}, degree {sw.degree}, {sw.levels} levels)"
            )
    return 0
