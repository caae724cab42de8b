"""``exactdp reduce``: run the #P reduction chain of Murtagh-Vadhan Section 4 (:mod:`exactdp.reductions`).

``exactdp reduce --int-partition Z1,Z2,... [--c C] [--as-printed [STEPS]] [--json]``
counts the #INT-PARTITION instance through Lemmas 4.9-4.11 and Theorem 1.6 with
OptComp oracle calls (the certified engine) and prints the trace, each step
checked against brute force. Exit status: 0 when the chain ran (even if an
as-printed step gave a wrong count: the trace shows it), 1 when an as-printed
step is undefined on the instance, 2 on bad input.
"""

from __future__ import annotations

from ..errors import InvalidArgument
from .common import emit_json, positive_int, screen_numbers, split_list

#: The library's limits (exactdp.reductions: BRUTE_FORCE_MAX_K, DEFAULT_MAX_PREC,
#: MAX_PRODUCT_BITS; exactdp.numbers.MAXPREC), written here so that building the
#: parser imports nothing numeric; a test checks they agree.
BRUTE_FORCE_MAX_K = 22
DEFAULT_MAX_PREC = 1 << 14
MAX_PRODUCT_BITS = 4096
MAXPREC = 1 << 17

#: The library's parameter names -> the flags of this command (errors name the flag).
_FLAGS = {"Z": "--int-partition", "c": "--c", "as_printed": "--as-printed", "max_prec": "--max-prec",
          "brute_force_limit": "--brute-force-limit"}

#: Longest decimal item accepted by --int-partition (the product is bounded anyway).
_MAX_ITEM_DIGITS = MAX_PRODUCT_BITS * 3 // 10 + 2


def register(sub) -> None:
    """Add the ``reduce`` subcommand to ``sub`` (argparse subparsers). Guarantee: exact. Raises: nothing."""
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
        help=f"refuse brute force above K elements (at most and default {BRUTE_FORCE_MAX_K}; #T-PARTITION and "
        "#SUM-PARTITION checks stop earlier, at 20 and 18); the chain still runs",
    )
    p.add_argument("--max-prec", type=positive_int("--max-prec"), default=DEFAULT_MAX_PREC, metavar="BITS", help=f"precision bound for the certified count (default {DEFAULT_MAX_PREC})")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def _parse_z(text: str) -> list[int]:
    out = []
    for item in split_list(text, "--int-partition"):
        if len(item) > _MAX_ITEM_DIGITS:
            raise InvalidArgument(
                "--int-partition",
                f"positive integers with a product below 2^{MAX_PRODUCT_BITS}",
                f"an item of {len(item)} characters",
            )
        if not (item.isascii() and item.lstrip("+").isdigit()):  # int() takes "١" and "1_0"; other options refuse them
            raise InvalidArgument("--int-partition", "a comma-separated list of positive integers in ASCII digits", item)
        v = int(item)
        if v < 1:
            raise InvalidArgument("--int-partition", "a comma-separated list of positive integers", item)
        out.append(v)
    return out


def run(args) -> int:
    """Run ``exactdp reduce``: print the trace (or JSON); return the exit status.

    Guarantee: the printed count is certified (see :func:`run_chain`).

    Raises:
        InvalidArgument: bad ``--int-partition`` / ``--c`` / ``--as-printed`` /
            ``--max-prec`` (the caller prints one line and exits 2).
        CostTooHigh: ``--brute-force-limit`` above 22, or an instance whose
            OptComp oracle calls the engine refuses (with the estimate).
        PrecisionError: no certified count by ``--max-prec`` bits.

    Examples:
        ``exactdp reduce --int-partition 2,3,6 --json`` prints ``{"count": 2, ...}``.

    References: Murtagh-Vadhan Section 4; docs/reductions.md.
    """
    from ..reductions.chain import render_trace, run_chain
    from ..reductions.steps import chain_bound

    screen_numbers(args, {"c": "--c"})
    z = _parse_z(args.int_partition)
    try:
        c = chain_bound(args.c)
    except InvalidArgument as e:
        raise InvalidArgument("--c", e.expected, args.c) from None  # echo the text as typed
    try:
        r = run_chain(
            z,
            c=c,
            as_printed=args.as_printed,
            check=not args.no_brute_force,
            brute_force_limit=args.brute_force_limit,
            max_prec=args.max_prec,
        )
    except InvalidArgument as e:
        if e.parameter not in _FLAGS:
            raise
        raise e.renamed(_FLAGS[e.parameter]) from None
    if args.json:
        emit_json(r.to_dict())
    else:
        print(render_trace(r))
    return 1 if r.failure else 0
