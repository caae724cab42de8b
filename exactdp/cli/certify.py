"""``exactdp certify``: decide rigorously whether a composition is (eps, delta)-DP.

Exit status: 0 when the claim was decided (holding or not; with ``--exit-code`` a
failing claim exits 1); 2 on bad input; 3 when the claim could not be decided
rigorously within the escalation bounds (nothing is guessed).
"""

from __future__ import annotations

import sys

from .common import (
    MAX_DIGITS,
    METHOD_CHOICES,
    add_mechanism_args,
    check_mechanism_args,
    emit_json,
    mechanisms_from_args,
    one_line,
    positive_int,
    prevalidate,
    screen_numbers,
)


def register(sub) -> None:
    """Add the ``certify`` subcommand to ``sub``. Guarantee: exact. Raises: nothing."""
    p = sub.add_parser(
        "certify",
        help="decide rigorously whether a composition is (eps, delta)-DP",
        description=(
            "Decide rigorously whether the composition is (E, D)-DP, i.e. whether its least delta at eps = E "
            "is <= D. Use it to check the output of another accountant. Exit status 0 when decided "
            "(either way; --exit-code makes a failing claim exit 1), 3 when undecided, 2 on bad input."
        ),
    )
    add_mechanism_args(p)
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--claim-eps", metavar="E", help="claimed eps (rational >= 0; a float's decimal digits are taken exactly)")
    g.add_argument("--claim-exp-eps", metavar="T", help="claimed e^eps (rational >= 1)")
    p.add_argument("--claim-delta", metavar="D", required=True, help="claimed delta, in [0, 1)")
    p.add_argument("--method", choices=METHOD_CHOICES, default="auto", help="S(t) algorithm (default: cheapest applicable)")
    p.add_argument("--digits", type=positive_int("--digits", MAX_DIGITS), default=15, metavar="D",
                   help=f"significant digits of the reported enclosures, 1..{MAX_DIGITS} (default 15)")
    p.add_argument("--max-digits", type=positive_int("--max-digits"), default=960, help="refinement bound (default 960 digits)")
    p.add_argument("--exit-code", action="store_true", help="exit 1 when the claim fails (default: 0 for any decided claim)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run_certify)


def run_certify(args) -> int:
    """Run ``exactdp certify``; return the exit status (0 decided, 1 failing with --exit-code, 3 undecided).

    Guarantee: the verdict is a rigorous decision, never a guess.

    Raises:
        InvalidArgument: bad MECHS or claim (named, with the range).
        CostTooHigh: mechanisms whose cost the engines and the lattice sandwich refuse up
            front, or an explicit ``--method`` over its limit.

    Examples:
        ``exactdp certify --exp-eps 2,2 --claim-exp-eps 2 --claim-delta 2/9`` -> HOLDS (a tie, exact).

    References: Murtagh-Vadhan Theorem 1.5; docs/approx.md.
    """
    from ..numbers.parse import parse_delta, parse_eps, parse_exp_eps

    screen_numbers(args, {"claim_eps": "--claim-eps", "claim_exp_eps": "--claim-exp-eps", "claim_delta": "--claim-delta"})
    check_mechanism_args(args)
    prevalidate(args, {"claim_eps": parse_eps, "claim_exp_eps": parse_exp_eps, "claim_delta": parse_delta})
    from ..certify import certify
    from ..errors import Undecided
    from ..numbers.fmt import short_fraction

    ms = mechanisms_from_args(args)
    try:
        c = certify(
            ms,
            args.claim_eps,
            args.claim_delta,
            claim_exp_eps=args.claim_exp_eps,
            method=args.method,
            digits=args.digits,
            max_digits=args.max_digits,
            refuse_over_limit=True,  # an explicit --method over its limit exits 2, as in `exactdp delta`
        )
    except Undecided as e:
        sys.stderr.write(f"exactdp: undecided: {one_line(e)}\n")
        return 3
    fail_status = 1 if (args.exit_code and not c.holds) else 0
    if args.json:
        emit_json(c.to_dict(args.digits))
        return fail_status
    dg = args.digits
    eps_txt = args.claim_eps if args.claim_eps is not None else f"ln({args.claim_exp_eps})"
    print(f"composition: {ms.describe()}")
    print(f"claim:       ({eps_txt}, {args.claim_delta})-DP")
    if c.holds:
        print(f"verdict:     HOLDS  - the composition is ({eps_txt}, {args.claim_delta})-DP (decided rigorously)")
    else:
        print(f"verdict:     FAILS  - the composition is NOT ({eps_txt}, {args.claim_delta})-DP (decided rigorously)")
    rel = "<=" if c.holds else ">"
    print(f"  least delta at eps = {eps_txt}: {c.delta.text(dg)}  {rel} claimed {args.claim_delta}")
    if c.eps_infinite:
        print(f"  least eps at delta = {args.claim_delta}: inf (delta is below 1 - prod(1 - delta_i))")
    else:
        ln = f"ln({short_fraction(c.eps_exp_exact)}) in " if c.eps_exp_exact not in (None, 1) else ""
        print(f"  least eps at delta = {args.claim_delta}: {ln}{c.eps.text(dg)}  {rel} claimed {eps_txt}")
    dml, dmu = c.delta_margin()
    eml, emu = c.eps_margin()
    if c.holds:
        print(f"  slack: delta by {_mag(dml, dg)}, eps by {_mag(eml, dg)} (at least)")
    else:
        print(f"  shortfall: delta exceeds the claim by {_mag(-dmu, dg)}, eps by {_mag(-emu, dg)} (at least)")
    print(f"  decided by: {c.decided_by}; engine: {c.engine}, method: {c.method}")
    return fail_status


def _mag(x, digits: int) -> str:
    from ..numbers import fraction_to_decimal

    if isinstance(x, float):
        return "inf" if x > 0 else "-inf"
    return fraction_to_decimal(x, min(digits, 6), "down")
