"""``exactdp reduce``: run the #P reduction chain of Murtagh-Vadhan Section 4 (:mod:`exactdp.reductions`).

``exactdp reduce --int-partition Z1,Z2,... [--c C] [--as-printed [STEPS]] [--json]``
counts the #INT-PARTITION instance through Lemmas 4.9-4.11 and Theorem 1.6 with
OptComp oracle calls (the certified engine) and prints the trace, each step
checked against brute force. Exit status: 0 when the chain ran (even if an
as-printed step gave a wrong count: the trace shows it), 1 when an as-printed
step is undefined on the instance, 2 on bad input.
"""

from __future__ import annotations

from ..errors import CostTooHigh, InvalidArgument
from .common import emit_json, positive_int, screen_numbers, split_list

#: The library's limits (exactdp.reductions: BRUTE_FORCE_MAX_K, DEFAULT_MAX_PREC,
#: MAX_PRODUCT_BITS; exactdp.numbers.MAXPREC), written here so that building the
#: parser imports nothing numeric; a test checks they agree.
BRUTE_FORCE_MAX_K = 22
DEFAULT_MAX_PREC = 1 << 14
MAX_PRODUCT_BITS = 4096
MAXPREC = 1 << 17

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
    from ..numbers import pow2_text
    from ..reductions.chain import parse_as_printed, render_trace, run_chain
    from ..reductions.problems import _SUBSETS_PER_SECOND
    from ..reductions.steps import chain_bound

    screen_numbers(args, {"c": "--c"})
    z = _parse_z(args.int_partition)
    try:
        c = chain_bound(args.c)
    except InvalidArgument as e:
        raise InvalidArgument("--c", e.expected, args.c) from None
    try:
        printed = parse_as_printed(args.as_printed)
    except InvalidArgument as e:
        raise InvalidArgument("--as-printed", e.expected, e.found) from None
    if not 64 <= args.max_prec <= MAXPREC:
        raise InvalidArgument("--max-prec", f"an integer in [64, {MAXPREC}]", args.max_prec)
    if args.brute_force_limit > BRUTE_FORCE_MAX_K:
        k = args.brute_force_limit
        subsets, secs = pow2_text(k), pow2_text(k, 1 / _SUBSETS_PER_SECOND)
        raise CostTooHigh(
            "--brute-force-limit",
            f"brute force up to k = {k} is refused (range [1, {BRUTE_FORCE_MAX_K}]): 2^{k} = {subsets} subset "
            f"products held in memory, about {secs} s per count; the chain itself "
            "needs no brute force (--no-brute-force)",
            estimate={"subsets": f"2^{k}", "seconds": secs}, limit=BRUTE_FORCE_MAX_K,
            alternative="--no-brute-force",
        )
    bits = 1
    for x in z:
        bits += x.bit_length()  # >= bit length of the product
    if bits > MAX_PRODUCT_BITS + len(z):
        pz = 1
        for x in z:
            pz *= x
        if pz.bit_length() > MAX_PRODUCT_BITS:
            raise InvalidArgument(
                "--int-partition",
                f"positive integers with prod z_i < 2^{MAX_PRODUCT_BITS} (the trace writes radicals of (prod z_i)^3 exactly)",
                f"prod z_i of {pz.bit_length()} bits",
            )
    try:
        r = run_chain(
            z,
            c=c,
            as_printed=printed,
            check=not args.no_brute_force,
            brute_force_limit=args.brute_force_limit,
            max_prec=args.max_prec,
        )
    except CostTooHigh as e:
        # the OptComp engine refused the chain's oracle instance (k + 1 mechanisms)
        est = f"{e.estimate} per call" if e.estimate is not None else str(e)
        raise CostTooHigh(
            "--int-partition",
            f"k = {len(z)} is refused: the OptComp oracle calls on k + 1 = {len(z) + 1} mechanisms would cost {est} "
            "(OptComp is #P-hard, Murtagh-Vadhan Thm 1.6: that is the point of the chain); use fewer z_i "
            "(docs/benchmarks.md: k <= 28 within about a minute)",
            estimate=est, limit=e.limit, alternative="fewer z_i",
        ) from None
    if args.json:
        emit_json(r.to_dict())
    else:
        print(render_trace(r))
    return 1 if r.failure else 0
