"""``exactdp audit --peer NAME``: run another accountant on a standard grid and decide every answer."""

from __future__ import annotations

from .common import check_outputs, emit_json
from .corpus import add_scale_args, progress_of

#: the library's peers (exactdp.audit.peers.PEERS), here so that building the parser loads nothing
#: and the DP-SGD suite's (exactdp.audit.dpsgd.DPSGD_PEERS)
PEER_CHOICES = ("dp_accounting", "prv_accountant", "autodp", "opendp", "exactdp-float", "opacus", "fourier_accountant",
                "PLD_accounting")


def register(sub) -> None:
    """Add the ``audit`` subcommand to ``sub``. Guarantee: exact. Raises: nothing."""
    p = sub.add_parser(
        "audit",
        help="audit another accountant (dp_accounting, prv_accountant, autodp, opendp, opacus, fourier_accountant, "
             "PLD_accounting) against the optimum",
        description="Run the peer as its users do on a standard grid (pure and approximate DP, homogeneous and "
                    "heterogeneous, k from 1 to 10^5, several delta_g and eps_g, its accuracy knobs at default and "
                    "tighter) and decide every answer rigorously against the certified optimum of the composition "
                    "the peer was given. Unsound answers (below the optimum: privacy violations) are listed with an "
                    "exact reproduction. With --suite dpsgd the peer's DP-SGD accountants run over the certified DP-SGD "
                    "corpus and each answer is judged for what it claims (upper bound: unsound below the certified "
                    "enclosure; lower bound: invalid above it; estimate: signed error, and its own error bar). "
                    "Peers: pip install 'exactdp[peers]'. Exit 1 when an answer is unsound or invalid.",
    )
    p.add_argument("--peer", action="append", choices=PEER_CHOICES, required=True, help="the accountant (repeatable)")
    p.add_argument("--knob", action="append", metavar="KNOB", help="only these knobs (default: all of the peer's)")
    p.add_argument("--suite", choices=("optcomp", "dpsgd"), default="optcomp",
                   help="optcomp: compositions of (eps, delta) mechanisms (default); dpsgd: Gaussian and "
                        "Poisson-subsampled Gaussian compositions over the certified DP-SGD corpus")
    p.add_argument("--corpus", metavar="DIR", help="with --suite dpsgd: a DP-SGD corpus (default: the shipped one)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--quick", dest="grid", action="store_const", const="quick", default="full",
                   help="a small grid (seconds), for tests")
    g.add_argument("--full", dest="grid", action="store_const", const="full", help="the standard grid (default)")
    p.add_argument("--out", metavar="FILE", help="every record as JSON lines (resumable: OUT.partial)")
    p.add_argument("--markdown", metavar="FILE", help="write the summary table and the unsound answers as Markdown")
    add_scale_args(p)
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object (with --suite dpsgd: "
                   "{\"findings\": [...], \"summary\": [...]}, one finding per answer)")
    p.set_defaults(func=run)


def run(args) -> int:
    """Run ``exactdp audit``; exit 1 when an answer is unsound. Raises: InvalidArgument (missing peer...)."""
    check_outputs(args, files=["out", "markdown"], scheduler=True)  # before any peer runs
    if args.suite == "dpsgd":
        return run_dpsgd(args)
    from ..errors import InvalidArgument

    if args.corpus:
        raise InvalidArgument("--corpus", "only with --suite dpsgd", args.corpus)
    from ..audit.peers import PEERS

    for name in args.peer:  # the DP-SGD suite's own peers, named before any grid is built
        if name not in PEERS:
            raise InvalidArgument("--peer", f"one of {', '.join(PEERS)} with --suite optcomp ({name} audits with "
                                  "--suite dpsgd)", name)
    from ..audit import markdown, run_audit, summarize

    recs = run_audit(args.peer, args.grid, out=args.out, scheduler=args.scheduler, workers=args.workers,
                     progress=progress_of(args), knobs=args.knob)
    md = markdown(recs)
    if args.markdown:
        from ..jobs import write_atomic

        write_atomic(args.markdown, md.splitlines(), "--markdown")
    unsound = sum(1 for r in recs if r["status"] == "unsound")
    if args.json:
        emit_json({"grid": args.grid, "records": len(recs), "unsound": unsound, "summary": summarize(recs)})
    else:
        print(md)
    return 1 if unsound else 0


def run_dpsgd(args) -> int:
    """``exactdp audit --suite dpsgd``: exit 1 when an upper bound is unsound or a lower bound invalid."""
    import resource
    import time

    from ..audit.dpsgd import dpsgd_markdown, findings, run_dpsgd_audit, summarize_dpsgd

    t0 = time.perf_counter()
    recs = run_dpsgd_audit(args.peer, args.corpus, knobs=args.knob, out=args.out, scheduler=args.scheduler,
                           workers=args.workers, progress=progress_of(args), quick=args.grid == "quick")
    md = dpsgd_markdown(recs)
    if args.markdown:
        from ..jobs import write_atomic

        write_atomic(args.markdown, md.splitlines(), "--markdown")
    bad = sum(1 for r in recs if r["verdict"] in ("unsound", "invalid"))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if args.json:
        emit_json({"suite": "dpsgd", "findings": findings(recs), "summary": summarize_dpsgd(recs),
                   "seconds": round(time.perf_counter() - t0, 3), "peak_rss_mib": round(peak, 1)})
    else:
        print(md)
        print(f"\n{len(recs)} records in {time.perf_counter() - t0:.1f} s; process peak {peak:.0f} MiB")
    return 1 if bad else 0
