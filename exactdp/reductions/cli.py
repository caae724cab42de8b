"""``exactdp reduce``: run the #P reduction chain of Murtagh-Vadhan Section 4.

``exactdp reduce --int-partition Z1,Z2,... [--c C] [--as-printed [STEPS]] [--json]``
counts the #INT-PARTITION instance through Lemmas 4.9-4.11 and Theorem 1.6 with
OptComp oracle calls (the certified engine) and prints the trace, each step
checked against brute force. Exit status: 0 when the chain ran (even if an
as-printed step gave a wrong count: the trace shows it), 1 when an as-printed
step is undefined on the instance, 2 on bad input.
"""

from __future__ import annotations

from ..cli_common import emit_json, positive_int, split_list
from ..errors import InvalidArgument
from .chain import parse_as_printed, render_trace, run_chain
from .problems import BRUTE_FORCE_MAX_K
from .steps import DEFAULT_MAX_PREC, chain_bound


def register(sub) -> None:
    p = sub.add_parser(
        "reduce",
        help="run the #P reduction chain #INT-PARTITION -> ... -> OptComp (Murtagh-Vadhan Sec. 4)",
        description=(
            "Count an #INT-PARTITION instance through the chain of Murtagh-Vadhan Section 4 "
            "(Lemmas 4.9-4.11, Theorem 1.6), using only OptComp oracle calls answered by the "
            "certified engine; every step is checked against brute force."
        ),
    )
    p.add_argument("--int-partition", metavar="Z1,Z2,...", required=True, help="the positive integers z_1..z_k")
    p.add_argument("--c", metavar="C", default="2", help="chain constant, rational in (1, e^2]: sum eps_i <= ln C (default 2)")
    p.add_argument(
        "--as-printed",
        metavar="STEPS",
        nargs="?",
        const="all",
        default=None,
        help="run steps as printed in the paper instead of corrected: all (default when given) or a list of 4.9,4.10,4.11",
    )
    p.add_argument("--no-brute-force", action="store_true", help="skip the brute-force checks")
    p.add_argument(
        "--brute-force-limit",
        type=positive_int("--brute-force-limit"),
        default=BRUTE_FORCE_MAX_K,
        metavar="K",
        help=f"refuse brute force above K elements (default {BRUTE_FORCE_MAX_K}); the chain still runs",
    )
    p.add_argument("--max-prec", type=positive_int("--max-prec"), default=DEFAULT_MAX_PREC, metavar="BITS", help=f"precision bound for the certified count (default {DEFAULT_MAX_PREC})")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def _parse_z(text: str) -> list[int]:
    out = []
    for item in split_list(text, "--int-partition"):
        try:
            v = int(item)
        except ValueError:
            raise InvalidArgument("--int-partition", "a comma-separated list of positive integers", item) from None
        if v < 1:
            raise InvalidArgument("--int-partition", "a comma-separated list of positive integers", item)
        out.append(v)
    return out


def run(args) -> int:
    z = _parse_z(args.int_partition)
    try:
        c = chain_bound(args.c)
    except InvalidArgument as e:
        raise InvalidArgument("--c", e.expected, args.c) from None
    try:
        printed = parse_as_printed(args.as_printed)
    except InvalidArgument as e:
        raise InvalidArgument("--as-printed", e.expected, e.found) from None
    if args.max_prec < 64:
        raise InvalidArgument("--max-prec", "an integer >= 64", args.max_prec)
    r = run_chain(
        z,
        c=c,
        as_printed=printed,
        check=not args.no_brute_force,
        brute_force_limit=args.brute_force_limit,
        max_prec=args.max_prec,
    )
    if args.json:
        emit_json(r.to_dict())
    else:
        print(render_trace(r))
    return 1 if r.failure else 0
