"""``exactdp approx`` (Murtagh-Vadhan Theorem 1.7) and ``exactdp certify``.

Exit status: 0 when the answer was computed (for ``certify``: the claim was
decided, holding or not; with ``--exit-code`` a failing claim exits 1);
2 on bad input; 3 when ``certify`` could not decide the claim rigorously
within its escalation bounds (nothing is guessed).
"""

from __future__ import annotations

import re
import sys

from .cli_common import add_mechanism_args, describe_mechs, emit_json, mechanisms_from_args, positive_int, split_list
from .errors import CostTooHigh, InvalidArgument
from .mechanisms import MAX_MECHANISMS
from .numbers import fraction_str, fraction_to_decimal

#: Longest number accepted on the command line, in decimal digits (numerator or
#: denominator, exponent included): ``1e-99999999`` would otherwise build a
#: 10^8-digit integer before any check, and numbers past 4300 digits cannot be
#: printed (Python's integer-string limit) in the reports.
MAX_NUMBER_DIGITS = 1000

_NUM = re.compile(r"^\s*[+-]?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$")


def screen_numbers(args, names: dict) -> None:
    """Refuse oversized numbers in ``args`` before parsing them exactly.

    ``names`` maps attribute names to option names (``{"delta_g": "--delta-g"}``);
    list options are split on commas. Anything not shaped like a decimal or
    ``p/q`` is left to the exact parser (which names it).

    Guarantee: exact (digit counts of the text).

    Raises:
        InvalidArgument: a number with more than ``MAX_NUMBER_DIGITS`` digits.
    """
    for attr, opt in names.items():
        text = getattr(args, attr, None)
        if text is None:
            continue
        for item in str(text).split(","):
            for part in item.split("/"):
                m = _NUM.match(part)
                if m is None:
                    size = len(part)
                else:
                    ip, fp, ex = m.group(1) or "", m.group(2) or "", m.group(3)
                    e = abs(int(ex)) if ex and len(ex) < 12 else (10**12 if ex else 0)
                    size = len(ip) + len(fp) + e
                if size > MAX_NUMBER_DIGITS:
                    shown = part.strip() if len(part.strip()) <= 40 else part.strip()[:37] + "..."
                    raise InvalidArgument(opt, f"a number of at most {MAX_NUMBER_DIGITS} decimal digits (exponent included)", shown)


#: Largest number of mechanisms ``exactdp approx`` builds (a tuple of k objects;
#: at k = 10^11 Python runs out of memory before any check could run).
MAX_CLI_MECHANISMS = MAX_MECHANISMS  # the library's own bound, checked here before parsing


_MECH_OPTS = {"eps": "--eps", "exp_eps": "--exp-eps", "delta": "--delta"}


def _mechanisms(args, limit: int = MAX_CLI_MECHANISMS, why: str = "the mechanism list alone would not fit in memory"):
    """MECHS from the command line, refusing a huge ``-k`` before building anything."""
    items = split_list(args.eps if args.eps is not None else args.exp_eps, "--eps" if args.eps is not None else "--exp-eps")
    n = len(items) * args.k
    if n > limit:
        raise CostTooHigh("-k", f"{len(items)} x {args.k} = {n:.3g} mechanisms is refused (limit {limit:.3g}): {why}")
    return mechanisms_from_args(args)


def register(sub) -> None:
    """Add the ``approx`` and ``certify`` subcommands to ``sub``. Guarantee: exact. Raises: nothing."""
    from .approx import FORMS

    p = sub.add_parser(
        "approx",
        help="approximate OptComp with a certified guarantee (Murtagh-Vadhan Thm 1.7)",
        description=(
            "Theorem 1.7: eps* with OptComp(delta_g) <= eps* <= OptComp(e^(-eta/2) delta_g) + eta, "
            "from the eps_i rounded to multiples of eta/k; eps* is printed as a rigorous enclosure, "
            "beside rigorous bounds on the true OptComp(delta_g)."
        ),
    )
    add_mechanism_args(p)
    p.add_argument("--delta-g", metavar="D", required=True, help="global delta, in [0, 1)")
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--eta", metavar="H", help="additive error parameter eta > 0 (lattice eps0 = eta/k)")
    g.add_argument("--exp-base", metavar="U", help="exp-space lattice base u > 1 (rational; eta = k ln u, exact arithmetic)")
    p.add_argument(
        "--variant",
        choices=["up", "completion"],
        default="up",
        help="up: OptComp of the eps_i rounded up (default, tightest); completion: "
        "OptComp(rounded down, e^(-eta/2) delta_g) + eta (see docs/errata.md)",
    )
    p.add_argument("--form", choices=FORMS, default="fast", help="fast: count polynomial + exact inverse (default); proof: binary search over Lemma 5.2 decisions")
    p.add_argument("--no-bounds", action="store_true", help="skip the rigorous bounds on the true OptComp (saves one lattice computation)")
    p.add_argument(
        "--width",
        metavar="W",
        default=None,
        help="also refine the certified sandwich on the true OptComp(delta_g) (eps_i rounded down and up to "
        "ever finer lattices) until its width is <= W (rational > 0)",
    )
    p.add_argument("--digits", type=positive_int("--digits"), default=20, help="significant digits (default 20)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run_approx)

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
    from .optcomp import METHODS

    p.add_argument("--method", choices=METHODS, default="auto", help="S(t) algorithm (default: cheapest applicable)")
    p.add_argument("--digits", type=positive_int("--digits"), default=15, help="significant digits of the reported enclosures (default 15)")
    p.add_argument("--max-digits", type=positive_int("--max-digits"), default=960, help="refinement bound (default 960 digits)")
    p.add_argument("--exit-code", action="store_true", help="exit 1 when the claim fails (default: 0 for any decided claim)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run_certify)


# --------------------------------------------------------------------------


def _enc(lo, hi, digits: int) -> str:
    """An enclosure as text; an exact rational is printed exactly (and in decimal)."""
    if lo == hi and not isinstance(lo, float):
        dec = fraction_to_decimal(lo, digits, "down")
        exact_dec = dec == fraction_to_decimal(lo, digits, "up")
        s = fraction_str(lo)
        if exact_dec:
            return f"{dec} (exact)"
        return f"{s if len(s) <= 60 else s[:40] + '...'} = {dec}... (exact)"
    a = fraction_to_decimal(lo, digits, "down")
    b = fraction_to_decimal(hi, digits, "up")
    return f"[{a}, {b}]"


def run_approx(args) -> int:
    """Run ``exactdp approx``; return the exit status.

    Guarantee: ``eps_star`` is a rigorous enclosure of Theorem 1.7's eps*;
    ``optcomp`` (and ``sandwich`` with ``--width``) rigorous bounds on the true OptComp.

    Raises:
        InvalidArgument: bad MECHS, ``--delta-g``, ``--eta``, ``--exp-base``, ``--width``.
        CostTooHigh: ``-k`` too large, or a lattice too fine (estimate and the eta that fits).
        PrecisionError: no rigorous answer by the precision bound.

    Examples:
        ``exactdp approx --eps 0.1 -k 10 --delta-g 1e-6 --eta 0.01 --json``.

    References: Murtagh-Vadhan Theorem 1.7, Lemmas 5.1-5.3; docs/approx.md.
    """
    from .approx import optcomp_bounds, theorem17
    from .numbers import parse_rational

    screen_numbers(args, {**_MECH_OPTS, "delta_g": "--delta-g", "eta": "--eta", "exp_base": "--exp-base", "width": "--width"})
    ms = _mechanisms(args)
    width = None
    if args.width is not None:
        width = parse_rational(args.width, "--width", expected="a rational number > 0")
        if width <= 0:
            from .errors import InvalidArgument

            raise InvalidArgument("--width", "a rational number > 0", args.width)
    kw = {"eta": args.eta} if args.eta is not None else {"exp_base": args.exp_base}
    r = theorem17(ms, args.delta_g, variant=args.variant, form=args.form, digits=args.digits, **kw)
    low = None
    if not args.no_bounds:
        low = theorem17(ms, args.delta_g, variant="printed", form="fast", digits=args.digits, **kw)
    sw = optcomp_bounds(ms, args.delta_g, width=width, digits=max(args.digits, 20)) if width is not None else None
    if args.json:
        d = r.to_dict(args.digits)
        if sw is not None:
            d["sandwich"] = sw.to_dict(args.digits)
        if low is not None:
            if low.infinite:
                d["optcomp"] = {"lower": "inf", "upper": "inf", "infinite": True}
            else:
                d["optcomp"] = {
                    "lower": fraction_to_decimal(low.lower, args.digits, "down"),
                    "upper": "inf" if r.infinite else fraction_to_decimal(r.upper, args.digits, "up"),
                    "infinite": False,
                }
        emit_json(d)
        return 0
    print(f"composition: {describe_mechs(ms)}; delta_g = {args.delta_g}")
    if r.eta is not None:
        lat = f"eta = {args.eta}, lattice eps0 = eta/k = {fraction_str(r.eps0)}"  # type: ignore[arg-type]
    else:
        lat = f"exp-space lattice u = {args.exp_base} (eta = k ln u)"
    rnd = "eps_i rounded up" if r.variant == "up" else "eps_i rounded down, delta_g scaled by e^(-eta/2), plus eta"
    print(f"Theorem 1.7 (Murtagh-Vadhan): {lat}; variant {r.variant} ({rnd}); {r.form} form; lattice degree {r.degree}")
    if r.infinite:
        print("eps* = inf (the target delta is below 1 - prod(1 - delta_i))")
    else:
        if r.exact is not None and r.lower == r.upper == r.exact:
            print(f"eps* = {_enc(r.lower, r.upper, args.digits)}")
        else:
            ex = f" = {fraction_str(r.exact)}" if r.exact is not None else ""
            if not ex and r.exp_exact is not None:
                ex = f" = ln({fraction_str(r.exp_exact)})"
            print(f"eps*{ex} in {_enc(r.lower, r.upper, args.digits)}")
    print("guarantee: OptComp(delta_g) <= eps* <= OptComp(e^(-eta/2) delta_g) + eta")
    if low is not None:
        if low.infinite:
            print("true OptComp(delta_g) = inf")
        else:
            hi = "inf" if r.infinite else fraction_to_decimal(r.upper, args.digits, "up")
            print(f"true OptComp(delta_g) in [{fraction_to_decimal(low.lower, args.digits, 'down')}, {hi}]  (rigorous: eps_i rounded down / eps*)")
    if sw is not None:
        if sw.infinite:
            print("sandwich: true OptComp(delta_g) = inf")
        else:
            lat = f"eps0 = {fraction_str(sw.eps0)}" if sw.eps0 is not None else f"u = {fraction_str(sw.exp_base)}"
            ok = "width reached" if sw.width_reached else f"width NOT reached (max degree); best bounds"
            print(
                f"sandwich: true OptComp(delta_g) in [{fraction_to_decimal(sw.lower, args.digits, 'down')}, "
                f"{fraction_to_decimal(sw.upper, args.digits, 'up')}]  ({ok}; lattice {lat}, degree {sw.degree}, {sw.levels} levels)"
            )
    return 0


def run_certify(args) -> int:
    """Run ``exactdp certify``; return the exit status (0 decided, 1 failing with --exit-code, 3 undecided).

    Guarantee: the verdict is a rigorous decision, never a guess.

    Raises:
        InvalidArgument: bad MECHS or claim (named, with the range).
        CostTooHigh: too many mechanisms, or an explicit ``--method`` over its limit.

    Examples:
        ``exactdp certify --exp-eps 2,2 --claim-exp-eps 2 --claim-delta 2/9`` -> HOLDS (a tie, exact).

    References: Murtagh-Vadhan Theorem 1.5; docs/approx.md.
    """
    from .certify import CERTIFY_MAX_K, _SECONDS_PER_MECHANISM, Undecided, certify

    screen_numbers(args, {**_MECH_OPTS, "claim_eps": "--claim-eps", "claim_exp_eps": "--claim-exp-eps", "claim_delta": "--claim-delta"})

    ms = _mechanisms(
        args,
        CERTIFY_MAX_K,
        f"the exact engines take about {_SECONDS_PER_MECHANISM:.1e} s per mechanism and call (measured: "
        "homogeneous delta_g at k = 10^6 in 55 s); there is no faster rigorous option",
    )
    if args.method in ("brute", "mitm", "grouped"):
        # An explicit method over its size limit is refused (CostTooHigh: exit 2, with the
        # estimate), as in `exactdp delta`; certify() would silently switch to the sandwich.
        from .optcomp.structures import choose_structure

        choose_structure([m.w for m in ms], args.method)
    try:
        c = certify(
            ms,
            args.claim_eps,
            args.claim_delta,
            claim_exp_eps=args.claim_exp_eps,
            method=args.method,
            digits=args.digits,
            max_digits=args.max_digits,
        )
    except Undecided as e:
        sys.stderr.write(f"exactdp: undecided: {e}\n")
        return 3
    fail_status = 1 if (args.exit_code and not c.holds) else 0
    if args.json:
        emit_json(c.to_dict(args.digits))
        return fail_status
    dg = args.digits
    eps_txt = args.claim_eps if args.claim_eps is not None else f"ln({args.claim_exp_eps})"
    print(f"composition: {describe_mechs(ms)}")
    print(f"claim:       ({eps_txt}, {args.claim_delta})-DP")
    if c.holds:
        print(f"verdict:     HOLDS  - the composition is ({eps_txt}, {args.claim_delta})-DP (decided rigorously)")
    else:
        print(f"verdict:     FAILS  - the composition is NOT ({eps_txt}, {args.claim_delta})-DP (decided rigorously)")
    rel = "<=" if c.holds else ">"
    print(f"  least delta at eps = {eps_txt}: {_enc(c.delta_lower, c.delta_upper, dg)}  {rel} claimed {args.claim_delta}")
    if c.eps_infinite:
        print(f"  least eps at delta = {args.claim_delta}: inf (delta is below 1 - prod(1 - delta_i))")
    else:
        ln = f"ln({fraction_str(c.eps_exp_exact)}) in " if c.eps_exp_exact not in (None, 1) else ""
        print(f"  least eps at delta = {args.claim_delta}: {ln}{_enc(c.eps_lower, c.eps_upper, dg)}  {rel} claimed {eps_txt}")
    dml, dmu = c.delta_margin()
    eml, emu = c.eps_margin()
    if c.holds:
        print(f"  slack: delta by {_mag(dml, dg)}, eps by {_mag(eml, dg)} (at least)")
    else:
        print(f"  shortfall: delta exceeds the claim by {_mag(-dmu, dg)}, eps by {_mag(-emu, dg)} (at least)")
    print(f"  decided by: {c.decided_by}; engine: {c.engine}, method: {c.method}")
    return fail_status


def _mag(x, digits: int) -> str:
    if isinstance(x, float):
        return "inf" if x > 0 else "-inf"
    return fraction_to_decimal(x, min(digits, 6), "down")
