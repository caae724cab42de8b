"""Shared pieces of the ``exactdp`` command: argument parsing and output.

Every subcommand module exposes ``register(subparsers)``; the parser it adds
calls ``set_defaults(func=run)`` where ``run(args) -> int`` prints its answer
and returns the exit status. Errors are raised as
:class:`~exactdp.errors.InvalidArgument` (or another ExactDPError) and turned
into one line on stderr with exit status 2 by :func:`exactdp.cli.main`.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Optional, Sequence

from .errors import InvalidArgument
from .mechanisms import Mechanism, mechanisms

__all__ = [
    "OneLineParser",
    "add_mechanism_args",
    "mechanisms_from_args",
    "add_engine_args",
    "emit_json",
    "split_list",
    "positive_int",
]


class OneLineParser(argparse.ArgumentParser):
    """ArgumentParser whose errors are one line and exit status 2."""

    def error(self, message: str):  # type: ignore[override]
        sys.stderr.write(f"exactdp: error: {message}\n")
        raise SystemExit(2)


def split_list(text: str, name: str) -> list[str]:
    """Split a comma-separated list; empty items are refused."""
    items = [s.strip() for s in text.split(",")]
    if not text.strip() or any(not s for s in items):
        raise InvalidArgument(name, "a comma-separated list of numbers with no empty items", repr(text))
    return items


def positive_int(name: str):
    def conv(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be an integer >= 1: found {text!r}") from None
        if v < 1:
            raise argparse.ArgumentTypeError(f"{name} must be an integer >= 1: found {v}")
        return v

    return conv


def add_mechanism_args(p: argparse.ArgumentParser) -> None:
    """MECHS: ``--eps E1,E2,...`` or ``--exp-eps W1,W2,...``, ``--delta``, ``-k``."""
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--eps", metavar="E1,E2,...", help="eps of each mechanism (rationals >= 0: 0.1, 1/3)")
    g.add_argument("--exp-eps", metavar="W1,W2,...", help="e^eps of each mechanism (rationals >= 1: 11/10)")
    p.add_argument("--delta", metavar="D1,D2,...", default="0", help="delta of each mechanism, in [0, 1) (one value broadcasts; default 0)")
    p.add_argument("-k", type=positive_int("-k"), default=1, metavar="N", help="repeat the mechanism list N times (default 1)")


def mechanisms_from_args(args: argparse.Namespace) -> tuple[Mechanism, ...]:
    """Build the composition described by the MECHS arguments. Raises InvalidArgument."""
    deltas = split_list(args.delta, "--delta")
    if args.eps is not None:
        return mechanisms(eps=split_list(args.eps, "--eps"), delta=deltas, k=args.k)
    return mechanisms(exp_eps=split_list(args.exp_eps, "--exp-eps"), delta=deltas, k=args.k)


def add_engine_args(p: argparse.ArgumentParser, *, method: bool = True, prec: bool = False) -> None:
    from .optcomp import ENGINES, METHODS

    p.add_argument("--engine", choices=ENGINES, default="auto", help="exact | certified | float | auto (default: exact when possible)")
    if method:
        p.add_argument("--method", choices=METHODS, default="auto", help="S(t) algorithm (default: cheapest applicable)")
    p.add_argument("--digits", type=positive_int("--digits"), default=30, help="significant digits of decimal output (default 30)")
    if prec:
        p.add_argument("--prec", type=positive_int("--prec"), default=None, metavar="BITS",
                       help="fixed working precision in bits (float: the mpmath precision; certified: one "
                            "evaluation at BITS, no escalation, an enclosure of whatever width it gives)")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def emit_json(obj: dict) -> None:
    sys.stdout.write(json.dumps(obj, indent=None, sort_keys=False) + "\n")


def describe_mechs(ms: Sequence[Mechanism]) -> str:
    distinct: dict = {}
    for m in ms:
        distinct[m] = distinct.get(m, 0) + 1
    if len(distinct) == 1:
        (m, n), = distinct.items()
        return f"{n} x {m!r}"
    if len(distinct) <= 4:
        return " + ".join(f"{n} x {m!r}" for m, n in distinct.items())
    return f"{len(ms)} mechanisms ({len(distinct)} distinct)"
