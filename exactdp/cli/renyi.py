"""``exactdp renyi``: the Rényi DP of a composition of randomized responses (Vadhan-Zhang Section 5)."""

from __future__ import annotations

from .common import add_mechanism_args, emit_json, mechanisms_from_args, positive_int, screen_numbers


def register(sub) -> None:
    p = sub.add_parser(
        "renyi",
        help="Renyi DP of the k-fold composition of eps-randomized response",
        description="D_alpha of the composition of randomized responses RR_eps_i (the tight Renyi-DP bound of "
                    "(eps_i, 0)-DP mechanisms; infinite when some delta_i > 0): exact when e^eps and the powers "
                    "are rational, else a certified enclosure.",
    )
    add_mechanism_args(p)
    p.add_argument("--alpha", required=True, metavar="A", help="the order, a rational > 1")
    p.add_argument("--digits", type=positive_int("--digits", 10_000), default=30, metavar="D",
                   help="significant digits of decimal output (default 30)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def run(args) -> int:
    """Run ``exactdp renyi``. Guarantee: exact or enclosure (as stated in the output).
    Raises: InvalidArgument (printed as one line by main)."""
    from ..renyi.divergence import rdp_composition

    screen_numbers(args, {"alpha": "--alpha"})
    ms = mechanisms_from_args(args)  # the Renyi sum is taken over groups of equal mechanisms: any k
    from ..errors import InvalidArgument
    from .common import renamed

    try:
        r = rdp_composition(ms, args.alpha, digits=args.digits)
    except InvalidArgument as e:
        raise renamed(e, {"alpha": "--alpha"}) from None
    if args.json:
        emit_json({"rdp": r.to_dict(args.digits), "alpha": args.alpha, "k": ms.k, "guarantee": r.guarantee})
        return 0
    print(f"composition: {ms.describe()}; alpha = {args.alpha}")
    if r.infinite:
        print("rdp = inf (a delta_i > 0: RR_(eps, delta) has an answer that only one input gives)")
    elif r.exp_exact is not None:
        print(f"rdp = log({r.exp_exact}) / ({r.alpha - 1})")
        print(f"    = {r.value.text(args.digits)}")
    else:
        print(f"rdp in {r.value.text(args.digits)}")
    return 0
