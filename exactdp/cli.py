"""The ``exactdp`` command.

Subcommands live in their own modules (``COMMAND_MODULES``); each exposes
``register(subparsers)``. Bad input of any kind ends with one line on stderr
and exit status 2, never a traceback; nothing is written before validation.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Optional, Sequence

from .cli_common import (
    OneLineParser,
    add_engine_args,
    add_mechanism_args,
    describe_mechs,
    emit_json,
    mechanisms_from_args,
)
from .errors import ExactDPError
from .numbers import fraction_str, fraction_to_decimal

#: Modules that add subcommands, in help order.
COMMAND_MODULES = [
    "exactdp.cli",
    "exactdp.reductions.cli",
    "exactdp.approx_cli",
    "proofs.cli",
]


# --------------------------------------------------------------------------
# core subcommands: delta, epsilon


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
    p.set_defaults(func=run_delta)

    p = sub.add_parser(
        "epsilon",
        help="OptComp: the least eps_g at delta_g (Murtagh-Vadhan Thm 1.5)",
        description="OptComp: the least eps_g such that the composition is (eps_g, delta_g)-DP.",
    )
    add_mechanism_args(p)
    p.add_argument("--delta-g", metavar="D", required=True, help="global delta, in [0, 1)")
    add_engine_args(p, prec=True)
    p.set_defaults(func=run_epsilon)


def run_delta(args) -> int:
    from .optcomp import composed_delta

    ms = mechanisms_from_args(args)
    r = composed_delta(ms, eps_g=args.eps_g, exp_eps_g=args.exp_eps_g, engine=args.engine, method=args.method, digits=args.digits, prec=args.prec)
    if args.json:
        d = r.to_dict(args.digits)
        d["eps_g"] = args.eps_g
        d["exp_eps_g"] = args.exp_eps_g
        emit_json(d)
        return 0
    side = f"eps_g = {args.eps_g}" if args.eps_g is not None else f"e^eps_g = {args.exp_eps_g}"
    print(f"composition: {describe_mechs(ms)}; {side}")
    lo = fraction_to_decimal(r.lower, args.digits, "down")
    hi = fraction_to_decimal(r.upper, args.digits, "up")
    if r.exact is not None:
        ex = _short_fraction(r.exact)
        print(f"delta_g = {lo}" + ("" if lo == hi else f" (to {args.digits} digits)"))
        print(f"exact:    {ex}")
    elif r.guarantee == "approximate":
        print(f"delta_g ~ {lo} (approximate, no error bound)")
    else:
        print(f"delta_g in [{lo}, {hi}]")
    print(_engine_line(r))
    return 0


def _engine_line(r) -> str:
    return f"engine: {r.engine}, method: {r.method}" + (f", precision: {r.prec} bits" if r.prec else "")


def _short_fraction(x) -> str:
    """``p/q`` (or ``p``), elided in the middle when longer than 120 characters."""
    s = fraction_str(x)
    return s if len(s) <= 120 else s[:50] + f"...({len(s)} chars)"


def run_epsilon(args) -> int:
    from .optcomp import optcomp

    ms = mechanisms_from_args(args)
    r = optcomp(ms, args.delta_g, engine=args.engine, method=args.method, digits=args.digits, prec=args.prec)
    if args.json:
        d = r.to_dict(args.digits)
        d["delta_g"] = args.delta_g
        emit_json(d)
        return 0
    print(f"composition: {describe_mechs(ms)}; delta_g = {args.delta_g}")
    if r.infinite:
        print("eps_g = inf: delta_g is below 1 - prod(1 - delta_i), so no finite eps_g achieves it")
    else:
        lo = fraction_to_decimal(r.lower, args.digits, "down")  # type: ignore[arg-type]
        hi = fraction_to_decimal(r.upper, args.digits, "up")  # type: ignore[arg-type]
        if r.exp_exact is not None and r.exp_exact != 1:
            ts = _short_fraction(r.exp_exact)
            print(f"eps_g = log({ts})")
            print(f"      in [{lo}, {hi}]")
        elif r.exact is not None:
            print(f"eps_g = {r.exact} (exact)")
        elif r.guarantee == "approximate":
            print(f"eps_g ~ {lo} (approximate, no error bound)")
        else:
            print(f"eps_g in [{lo}, {hi}]")
    print(_engine_line(r))
    return 0


# --------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    from . import __version__

    p = OneLineParser(
        prog="exactdp",
        description="Exact and certified optimal composition of differential privacy.",
    )
    p.add_argument("--version", action="version", version=f"exactdp {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    sub.required = True
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except ExactDPError as e:
        sys.stderr.write(f"exactdp: error: {e}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("exactdp: interrupted\n")
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
