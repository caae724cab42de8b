"""The ``exactdp`` command: one module per subcommand, this module dispatches.

Policy lives in the library, presentation here (STYLE.md item 14): a subcommand
parses, calls the library, prints. Bad input of any kind ends with one line on
stderr and exit status 2, never a traceback; nothing is written before
validation. Building the parser imports nothing numeric (``exactdp --help`` is fast).
"""

from __future__ import annotations

import importlib
import sys
from typing import Optional, Sequence

from ..errors import ExactDPError, InvalidArgument
from .common import OneLineParser, one_line

__all__ = ["main", "build_parser", "COMMAND_MODULES"]

#: Modules that add subcommands, in help order.
COMMAND_MODULES = [
    "exactdp.cli.optcomp",
    "exactdp.cli.certify",
    "exactdp.cli.approx",
    "exactdp.cli.reduce",
    "exactdp.cli.proofs",
    "exactdp.cli.interactive",
    "exactdp.cli.gdp",
    "exactdp.cli.account",
    "exactdp.cli.regions",
    "exactdp.cli.corpus",
    "exactdp.cli.batch",
    "exactdp.cli.audit",
]


def build_parser() -> OneLineParser:
    """The argument parser of every subcommand. Guarantee: exact. Raises: nothing."""
    from .. import __version__

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


def _flag_of(e: InvalidArgument, args) -> InvalidArgument:
    """The error naming the option the user typed (``digits`` -> ``--digits``,
    ``eps[2]`` -> ``--eps[2]``, ``eps_g / exp_eps_g`` -> ``--eps-g / --exp-eps-g``) when
    the library's parameter is one of the command's options."""

    def flag(name: str) -> str:
        base = name.split("[", 1)[0]
        if base and hasattr(args, base) and base not in ("func", "command"):
            return ("-k" if base == "k" else "--" + base.replace("_", "-")) + name[len(base):]
        return name

    parts = [p.strip() for p in e.parameter.split("/")]
    new = " / ".join(flag(p) for p in parts)
    return e if new == e.parameter else e.renamed(new)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command; return its exit status (0 done, 1 see the subcommand, 2 bad input or a
    file that could not be read or written, 3 undecided, 130 interrupted). Guarantee: no
    traceback for any input. Raises: nothing."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        rc = int(args.func(args) or 0)
        sys.stdout.flush()  # a full disk shows here, not in the interpreter's last flush
        return rc
    except InvalidArgument as e:
        sys.stderr.write(f"exactdp: error: {one_line(_flag_of(e, args))}\n")
        return 2
    except ExactDPError as e:
        sys.stderr.write(f"exactdp: error: {one_line(e)}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("exactdp: interrupted\n")
        return 130
    except BrokenPipeError:
        # the reader went away (``exactdp ... | head -1``): not an error of ours; point
        # stdout at /dev/null so that the interpreter's final flush stays quiet
        import os

        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):
            pass
        return 0
    except OSError as e:
        # the file system refused a read or a write (stdout on a full disk, ``> /dev/full``; an
        # I/O error): one line, exit status 2; what could not be written is dropped, so that
        # the interpreter's final flush does not fail again
        _drop_stdout()
        where = f": {e.filename}" if getattr(e, "filename", None) else (" (standard output)" if _is_stdout(e) else "")
        sys.stderr.write(f"exactdp: error: cannot {'write' if _is_stdout(e) else 'read or write'}{where}: "
                         f"{one_line(e.strerror or e)}\n")
        return 2


def _is_stdout(e: OSError) -> bool:
    return getattr(e, "filename", None) is None


def _drop_stdout() -> None:
    """Point stdout at /dev/null and forget its buffer (already refused by the file system)."""
    import os

    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
