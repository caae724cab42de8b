"""``exactdp concurrent``: Vadhan-Wang Theorem 4.1 for (eps_i, delta_i)-DP interactive mechanisms,
in the given and in the best order, beside the optimal delta at the same eps_g (Vadhan-Zhang
Theorem 1.3)."""

from __future__ import annotations

from .common import add_mechanism_args, emit_json, mechanisms_from_args, positive_int

#: The library's MAX_VW_MECHANISMS (kept here so that building the parser imports nothing numeric).
MAX_MECHANISMS = 20_000


def register(sub) -> None:
    p = sub.add_parser(
        "concurrent",
        help="concurrent composition of interactive mechanisms: Vadhan-Wang Thm 4.1 and its best order",
        description="delta_g of the concurrent composition of (eps_i, delta_i)-DP interactive mechanisms at "
                    "eps_g = sum eps_i: Vadhan-Wang Theorem 4.1 in the given order and in the order that minimises "
                    "it (sorted by delta_i / (e^eps_i - 1), largest first), and the optimal delta_g = "
                    "1 - prod(1 - delta_i) (Vadhan-Zhang Theorem 1.3).",
    )
    add_mechanism_args(p)
    p.add_argument("--digits", type=positive_int("--digits", 10_000), default=30, metavar="D",
                   help="significant digits of decimal output (default 30)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def run(args) -> int:
    """Run ``exactdp concurrent``. Guarantee: exact, or enclosures when some e^eps_i is irrational.
    Raises: InvalidArgument / CostTooHigh (printed as one line by main)."""
    from ..interactive.vw import vw_bound

    ms = mechanisms_from_args(args, limit=MAX_MECHANISMS, why="Theorem 4.1's order lists every mechanism")
    b = vw_bound(ms, digits=args.digits)
    d = b.to_dict(args.digits)
    if args.json:
        emit_json(d)
        return 0

    def show(v) -> str:
        return v if isinstance(v, str) else f"[{v['lower']}, {v['upper']}]"

    eps = d["eps_g"] if isinstance(d["eps_g"], str) else (d["eps_g"]["exact"] or show(d["eps_g"]))
    print(f"composition: {ms.describe()}; eps_g = sum eps_i = {eps}")
    print(f"Vadhan-Wang Thm 4.1, given order:  delta_g = {show(d['vw_bound']['given_order'])}")
    order = d["vw_bound"]["order"]
    shown = order if len(order) <= 20 else order[:20] + ["..."]
    print(f"Vadhan-Wang Thm 4.1, best order:   delta_g = {show(d['vw_bound']['best_order'])}  (order {shown})")
    print(f"optimal (Vadhan-Zhang Thm 1.3):    delta_g = 1 - prod(1 - delta_i) = {d['optimal']}")
    return 0
