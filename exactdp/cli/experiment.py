"""``exactdp experiment vw-section6``: Vadhan-Wang Section 6 reproduced with exact verification."""

from __future__ import annotations

import sys

from .common import emit_json, positive_int


def register(sub) -> None:
    p = sub.add_parser(
        "experiment",
        help="reproduce a paper's experiment (vw-section6: Vadhan-Wang Section 6)",
        description="vw-section6: random 2-round mechanisms with 1-bit messages; PrivLoss by enumerating "
                    "adversaries; an interactive post-processing of RR_(eps, delta) searched by LP (HiGHS) and "
                    "verified exactly; the LP just below the tight eps proved infeasible by an exact Farkas "
                    "certificate. Resumable (--state), distributable (--scheduler).",
    )
    p.add_argument("name", choices=["vw-section6"], help="the experiment")
    p.add_argument("--trials", type=positive_int("--trials", 1_000_000), required=True, metavar="N")
    p.add_argument("--seed", type=positive_int("--seed"), default=1, metavar="S", help="seed (default 1)")
    p.add_argument("--delta", default="1/100", metavar="D", help="delta of PrivLoss and RR (default 1/100)")
    p.add_argument("--denominator", type=positive_int("--denominator", 10**6), default=100, metavar="D",
                   help="parameters drawn from {1/D, ..., (D-1)/D} (default 100)")
    p.add_argument("--state", metavar="FILE", help="JSON-lines state file: resume from it, append to it")
    p.add_argument("--scheduler", metavar="ADDR",
                   help="distribute over Dask: 'local', 'local:N' (a LocalCluster of N workers) or a scheduler address")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--progress", dest="progress", action="store_true", default=None, help="progress bar on stderr")
    g.add_argument("--no-progress", dest="progress", action="store_false", help="no progress bar")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def run(args) -> int:
    """Run ``exactdp experiment``. Guarantee: exact counts (see the library). Raises: InvalidArgument."""
    from .common import check_outputs, screen_numbers

    local = args.scheduler is not None and (args.scheduler == "local" or args.scheduler.startswith("local:"))
    check_outputs(args, files=["state"], scheduler=not local)  # before any trial runs
    screen_numbers(args, {"delta": "--delta"})
    from ..experiments.vw_section6 import run_experiment

    progress = sys.stderr.isatty() if args.progress is None else args.progress
    s = run_experiment(args.trials, args.seed, args.delta, denominator=args.denominator, state=args.state,
                       scheduler=args.scheduler, progress=progress)
    if args.json:
        emit_json(s)
        return 0
    print(f"Vadhan-Wang Section 6: {s['trials']} random 2-round mechanisms (seed {s['seed']}, delta = {s['delta']})")
    print(f"PrivLoss finite: {s['finite_privloss']}; enumeration = dynamic programme: {s['privloss_methods_agree']}")
    print(f"LP feasible at the tight eps (HiGHS): {s['feasible']}; T verified exactly: {s['verified_exact']}")
    b = s["below_tight"]
    print(f"just below the tight eps ({b['below']}): LP infeasible (HiGHS) {b['infeasible_float']}, "
          f"proved infeasible (exact Farkas certificate) {b['infeasible_exact']} of {b['tested']}")
    print(f"paper: {s['paper']['trials']} trials, feasible: {s['paper']['feasible']}")
    return 0
