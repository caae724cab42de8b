"""``exactdp delta`` and ``exactdp epsilon``: the optimal composition, both directions
(Murtagh-Vadhan Theorem 1.5)."""

from __future__ import annotations

from .common import (
    add_engine_args,
    add_mechanism_args,
    check_mechanism_args,
    check_outputs,
    emit_json,
    engine_line,
    mechanisms_from_args,
    positive_int,
    prevalidate,
    screen_numbers,
)


def register(sub) -> None:
    p = sub.add_parser(
        "delta",
        help="delta_g of a composition at eps_g (Murtagh-Vadhan Thm 1.5)",
        description="The least delta_g such that the composition is (eps_g, delta_g)-DP.",
    )
    add_mechanism_args(p)
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--eps-g", metavar="X", help="global eps (rational >= 0)")
    g.add_argument("--exp-eps-g", metavar="T", help="e^eps_g (rational >= 1)")
    add_engine_args(p, prec=True)
    add_dask_args(p)
    p.set_defaults(func=run_delta)

    p = sub.add_parser(
        "epsilon",
        help="OptComp: the least eps_g at delta_g (Murtagh-Vadhan Thm 1.5)",
        description="OptComp: the least eps_g such that the composition is (eps_g, delta_g)-DP.",
    )
    add_mechanism_args(p)
    p.add_argument("--delta-g", metavar="D", required=True, help="global delta, in [0, 1)")
    add_engine_args(p, prec=True)
    add_dask_args(p)
    p.set_defaults(func=run_epsilon)


def add_dask_args(p) -> None:
    """``--scheduler ADDR`` / ``--workers N``: the meet-in-the-middle kernel's work over Dask."""
    g = p.add_mutually_exclusive_group()
    g.add_argument("--scheduler", metavar="ADDR",
                   help="split meet in the middle over an existing Dask cluster (its scheduler's address)")
    g.add_argument("--workers", type=positive_int("--workers", 64), metavar="N",
                   help="split meet in the middle over a local Dask cluster of N worker processes")


def run_delta(args) -> int:
    """Run ``exactdp delta``: the least delta_g at eps_g. Guarantee: as the engine's tier.
    Raises: InvalidArgument / CostTooHigh / PrecisionError (printed as one line by main)."""
    from ..numbers.parse import parse_eps, parse_exp_eps

    check_outputs(args, scheduler=True)
    screen_numbers(args, {"eps_g": "--eps-g", "exp_eps_g": "--exp-eps-g"})
    check_mechanism_args(args)
    prevalidate(args, {"eps_g": parse_eps, "exp_eps_g": parse_exp_eps})
    ms = mechanisms_from_args(args)
    from ..engines import composed_delta

    r = composed_delta(ms, eps_g=args.eps_g, exp_eps_g=args.exp_eps_g, engine=args.engine, method=args.method, digits=args.digits, prec=args.prec,
                       scheduler=args.scheduler, workers=args.workers)
    if args.json:
        d = r.to_dict(args.digits)
        d["eps_g"] = args.eps_g
        d["exp_eps_g"] = args.exp_eps_g
        emit_json(d)
        return 0
    side = f"eps_g = {args.eps_g}" if args.eps_g is not None else f"e^eps_g = {args.exp_eps_g}"
    print(f"composition: {ms.describe()}; {side}")
    from ..numbers import short_fraction

    lo, hi = r.value.decimal(args.digits)
    if r.exact is not None:
        ex = short_fraction(r.exact)
        print(f"delta_g = {lo}" + ("" if lo == hi else f" (to {args.digits} digits)"))
        print(f"exact:    {ex}")
    elif r.guarantee == "approximate":
        print(f"delta_g ~ {lo} (approximate, no error bound)")
    else:
        print(f"delta_g in [{lo}, {hi}]")
    print(engine_line(r))
    return 0


def run_epsilon(args) -> int:
    """Run ``exactdp epsilon``: OptComp, the least eps_g at delta_g. Guarantee: as the engine's tier.
    Raises: InvalidArgument / CostTooHigh / PrecisionError (printed as one line by main)."""
    from ..numbers.parse import parse_delta

    check_outputs(args, scheduler=True)
    screen_numbers(args, {"delta_g": "--delta-g"})
    check_mechanism_args(args)
    prevalidate(args, {"delta_g": parse_delta})
    ms = mechanisms_from_args(args)
    from ..engines import optcomp

    r = optcomp(ms, args.delta_g, engine=args.engine, method=args.method, digits=args.digits, prec=args.prec,
                scheduler=args.scheduler, workers=args.workers)
    if args.json:
        d = r.to_dict(args.digits)
        d["delta_g"] = args.delta_g
        emit_json(d)
        return 0
    print(f"composition: {ms.describe()}; delta_g = {args.delta_g}")
    if r.infinite:
        print("eps_g = inf: delta_g is below 1 - prod(1 - delta_i), so no finite eps_g achieves it")
    else:
        from ..numbers import short_fraction

        lo, hi = r.value.decimal(args.digits)
        if r.exp_exact is not None and r.exp_exact != 1:
            ts = short_fraction(r.exp_exact)
            print(f"eps_g = log({ts})")
            print(f"      in [{lo}, {hi}]")
        elif r.exact is not None:
            print(f"eps_g = {r.exact} (exact)")
        elif r.guarantee == "approximate":
            print(f"eps_g ~ {lo} (approximate, no error bound)")
        else:
            print(f"eps_g in [{lo}, {hi}]")
    print(engine_line(r))
    return 0
