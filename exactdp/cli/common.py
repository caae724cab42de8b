"""Shared pieces of the ``exactdp`` command: argument parsing and output.

Every subcommand module exposes ``register(subparsers)``; the parser it adds
calls ``set_defaults(func=run)`` where ``run(args) -> int`` prints its answer
and returns the exit status. Errors are raised as
:class:`~exactdp.errors.InvalidArgument` (or another ExactDPError) and turned
into one line on stderr with exit status 2 by :func:`exactdp.cli.main`.

This module and every ``register`` import nothing numeric: ``exactdp --help``
and argument errors never load FLINT, gmpy2, mpmath or NumPy. The library is
imported inside the ``run`` functions.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Optional, Sequence

from ..errors import CostTooHigh, InvalidArgument

__all__ = [
    "OneLineParser",
    "ENGINE_CHOICES",
    "METHOD_CHOICES",
    "MAX_DIGITS",
    "MAX_CLI_MECHANISMS",
    "add_mechanism_args",
    "mechanisms_from_args",
    "check_mechanism_args",
    "add_engine_args",
    "emit_json",
    "split_list",
    "positive_int",
    "screen_numbers",
    "renamed",
    "engine_line",
    "prevalidate",
    "check_outputs",
]

#: The choices of ``--engine`` and ``--method`` (the library's ENGINES and METHODS;
#: kept here so that building the parser imports nothing numeric; a test checks
#: they are the same).
ENGINE_CHOICES = ("auto", "exact", "certified", "float")
METHOD_CHOICES = ("auto", "homogeneous", "windowed", "lattice", "lattice-balls", "lattice-contour",
                  "windowed-groups", "grouped", "mitm", "brute")

#: Range of ``--digits`` (the library's MAX_DIGITS).
MAX_DIGITS = 10_000

#: Largest number of mechanisms the command line builds (the library's MAX_MECHANISMS;
#: refused before anything is built; compositions are kept as counts, never as lists).
MAX_CLI_MECHANISMS = 10**12

#: Why MAX_CLI_MECHANISMS (the default reason of a refusal by check_mechanism_args).
_WHY_MAX = "no kernel answers beyond it within the cost limits (the windowed homogeneous one is over them at 1e+12)"

#: Longest number the command line accepts, in decimal digits (exponent included).
MAX_NUMBER_DIGITS = 1000


def one_line(message: object) -> str:
    """``message`` on one line: line breaks and other control characters a user typed into a
    value (and that a message echoes) are shown escaped, as ``\\n``, ``\\t``, ``\\x1b``."""
    text = str(message)
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


class OneLineParser(argparse.ArgumentParser):
    """ArgumentParser whose errors are one line and exit status 2."""

    def error(self, message: str):  # type: ignore[override]
        # argparse echoes every unrecognized argument: a pasted list of 10^5 digits stays one short line
        sys.stderr.write(f"exactdp: error: {_short(one_line(message), 300)}\n")
        raise SystemExit(2)


def split_list(text: str, name: str) -> list[str]:
    """Split a comma-separated list; empty items are refused.

    Raises:
        InvalidArgument: an empty list or an empty item.
    """
    items = [s.strip() for s in text.split(",")]
    if not text.strip() or any(not s for s in items):
        raise InvalidArgument(name, "a comma-separated list of numbers with no empty items", repr(text))
    return items


def positive_int(name: str, hi: Optional[int] = None):
    """An argparse type: an integer in ``[1, hi]`` written in ASCII digits (``-k ٣`` is refused)."""

    def conv(text: str) -> int:
        rng = f"an integer in [1, {hi}]" if hi is not None else "an integer >= 1"
        s = text.strip()
        if not s.isascii() or not s.lstrip("+").isdigit() or len(s) > 30:
            raise argparse.ArgumentTypeError(f"{name} must be {rng}: found {_short(text)!r}")
        v = int(s)
        if v < 1 or (hi is not None and v > hi):
            raise argparse.ArgumentTypeError(f"{name} must be {rng}: found {v}")
        return v

    return conv


def _short(text: str, limit: int = 60) -> str:
    from ..errors import shorten

    return shorten(text, limit)


def screen_numbers(args: argparse.Namespace, names: dict) -> None:
    """Refuse oversized numbers in ``args`` before parsing them exactly.

    ``names`` maps attribute names to option names (``{"delta_g": "--delta-g"}``);
    list options are split on commas. Anything not shaped like a decimal or
    ``p/q`` is left to the exact parser (which names it).

    Guarantee: exact (digit counts of the text).

    Raises:
        InvalidArgument: a number with more than ``MAX_NUMBER_DIGITS`` digits.
    """
    from ..numbers.parse import screen_text

    for attr, opt in names.items():
        text = getattr(args, attr, None)
        if text is None:
            continue
        for item in str(text).split(","):
            screen_text(item, opt, MAX_NUMBER_DIGITS)


#: library parameter -> option, for errors raised while building from MECHS arguments
_MECH_OPTS = {"eps": "--eps", "exp_eps": "--exp-eps", "delta": "--delta", "k": "-k"}


def renamed(e: InvalidArgument, table: dict) -> InvalidArgument:
    """``e`` naming the user's flag instead of the library's parameter (``eps[2]`` -> ``--eps[2]``).

    Guarantee: exact. Raises: nothing.
    """
    p = e.parameter
    base = p.split("[", 1)[0]
    if base in table:
        return e.renamed(table[base] + p[len(base):])
    return e


def add_mechanism_args(p: argparse.ArgumentParser) -> None:
    """MECHS: ``--eps E1,E2,...`` or ``--exp-eps W1,W2,...``, ``--delta``, ``-k``."""
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--eps", metavar="E1,E2,...", help="eps of each mechanism (rationals >= 0: 0.1, 1/3)")
    g.add_argument("--exp-eps", metavar="W1,W2,...", help="e^eps of each mechanism (rationals >= 1: 11/10)")
    p.add_argument("--delta", metavar="D1,D2,...", default="0", help="delta of each mechanism, in [0, 1) (one value broadcasts; default 0)")
    p.add_argument("-k", type=positive_int("-k"), default=1, metavar="N", help="repeat the mechanism list N times (default 1)")


def check_mechanism_args(args: argparse.Namespace, limit: int = MAX_CLI_MECHANISMS, why: str = _WHY_MAX) -> None:
    """Validate the MECHS arguments without loading anything numeric: oversized numbers,
    a huge ``-k`` (before anything is built), and every eps / delta (the library's parsers,
    the library's parameter names and order).

    Raises:
        InvalidArgument: a bad number.
        CostTooHigh: more than ``limit`` mechanisms.
    """
    screen_numbers(args, {"eps": "--eps", "exp_eps": "--exp-eps", "delta": "--delta"})
    items = split_list(args.eps if args.eps is not None else args.exp_eps, "--eps" if args.eps is not None else "--exp-eps")
    n = len(items) * args.k
    if n > limit:
        raise CostTooHigh("-k", f"{len(items)} x {args.k} = {n:.3g} mechanisms is refused (the number of values times "
                          f"-k must be in [1, {limit:.3g}]): {why}",
                          estimate=n, limit=limit, alternative=None)
    deltas = split_list(args.delta, "--delta")
    from ..numbers.parse import parse_delta, parse_eps, parse_exp_eps

    parse_one = parse_eps if args.eps is not None else parse_exp_eps
    name = "eps" if args.eps is not None else "exp_eps"
    vs, ds = items, deltas
    if len(deltas) == 1:
        ds = deltas * len(items)
    elif len(items) == 1:
        vs = items * len(deltas)
    if len(vs) == len(ds):  # otherwise the library names the length mismatch
        for i, (v, d) in enumerate(zip(vs, ds)):
            parse_delta(d, f"delta[{i}]")
            parse_one(v, f"{name}[{i}]")


def mechanisms_from_args(args: argparse.Namespace, limit: int = MAX_CLI_MECHANISMS, why: str = _WHY_MAX):
    """The composition described by the MECHS arguments (checked first by :func:`check_mechanism_args`).

    Raises:
        InvalidArgument: bad numbers.
        CostTooHigh: more than ``limit`` mechanisms.
    """
    check_mechanism_args(args, limit, why)
    from ..events import mechanisms

    items = split_list(args.eps if args.eps is not None else args.exp_eps, "--eps")
    deltas = split_list(args.delta, "--delta")
    if args.eps is not None:
        return mechanisms(eps=items, delta=deltas, k=args.k)
    return mechanisms(exp_eps=items, delta=deltas, k=args.k)


def add_engine_args(p: argparse.ArgumentParser, *, method: bool = True, prec: bool = False) -> None:
    p.add_argument("--engine", choices=ENGINE_CHOICES, default="auto", help="exact | certified | float | auto (default: exact when possible)")
    if method:
        p.add_argument("--method", choices=METHOD_CHOICES, default="auto", help="S(t) algorithm (default: cheapest applicable)")
    p.add_argument("--digits", type=positive_int("--digits", MAX_DIGITS), default=30, metavar="D",
                   help=f"significant digits of decimal output, 1..{MAX_DIGITS} (default 30)")
    if prec:
        p.add_argument("--prec", type=positive_int("--prec", 1 << 17), default=None, metavar="BITS",
                       help="fixed working precision in bits, 8..131072 (float: the mpmath precision; certified: one "
                            "evaluation at BITS, no escalation, an enclosure of whatever width it gives)")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def emit_json(obj: dict) -> None:
    sys.stdout.write(json.dumps(obj, indent=None, sort_keys=False) + "\n")


def prevalidate(args: argparse.Namespace, parsers: dict) -> None:
    """Validate scalar options with the library's own parsers before anything numeric is
    imported (``{"eps_g": parse_eps, ...}``: attribute -> parser; None values are skipped).

    Raises:
        InvalidArgument: as the library would, naming the same parameter.
    """
    for attr, parse in parsers.items():
        v = getattr(args, attr, None)
        if v is not None:
            parse(v, attr)


def check_outputs(args: argparse.Namespace, *, files: Sequence[str] = (), dirs: Sequence[str] = (),
                  scheduler: bool = False) -> None:
    """Check, before any work, the output paths of ``args`` (attribute names: ``files`` name a
    file, ``dirs`` a folder; None values are skipped) and its ``--scheduler`` address.

    A symbolic link is followed to its target; a folder, a device (``/dev/full``), an empty
    path or a missing folder is refused (:func:`exactdp.jobs.output_file`).

    Raises:
        InvalidArgument: naming the option (``--out``, ``--report``, ...).
    """
    from ..jobs import check_scheduler, output_dir, output_file

    def flag(attr: str) -> str:
        return {"output": "-o"}.get(attr, "--" + attr.replace("_", "-"))

    for attr in files:
        v = getattr(args, attr, None)
        if v is not None:
            output_file(v, flag(attr))
    for attr in dirs:
        v = getattr(args, attr, None)
        if v is not None:
            output_dir(v, flag(attr))
    if scheduler and getattr(args, "scheduler", None) is not None:
        check_scheduler(args.scheduler)


def engine_line(r) -> str:
    """``engine: certified, method: homogeneous, precision: 136 bits``."""
    return f"engine: {r.engine}, method: {r.method}" + (f", precision: {r.prec} bits" if r.prec else "")


def describe_mechs(ms: Sequence) -> str:
    """A short description of a composition (see :meth:`exactdp.Composition.describe`)."""
    from ..events import as_composition

    return as_composition(ms).describe()


class LatticeTicker:
    """The progress callback of the certified accountant on the terminal: a line counting the
    lattice products once a run passes 2 s (stderr, only when it is a terminal and progress is
    not turned off); :meth:`close` ends the line."""

    def __init__(self, name: str, enabled: bool):
        import time

        self.name, self.show, self.t0, self.ticks = name, enabled and sys.stderr.isatty(), time.monotonic(), 0

    def _elapsed(self) -> float:
        import time

        return time.monotonic() - self.t0

    def __call__(self) -> None:
        self.ticks += 1
        if self.show and self._elapsed() > 2:
            sys.stderr.write(f"\r{self.name}: {self.ticks} lattice products, {self._elapsed():.0f} s ")
            sys.stderr.flush()

    def close(self) -> None:
        if self.show and self._elapsed() > 2:
            sys.stderr.write("\n")
