"""``exactdp batch --in FILE --out FILE``: many queries answered in one process."""

from __future__ import annotations

from .common import check_outputs, emit_json
from .corpus import add_scale_args, progress_of


def register(sub) -> None:
    """Add the ``batch`` subcommand to ``sub``. Guarantee: exact. Raises: nothing."""
    p = sub.add_parser(
        "batch",
        help="answer many queries (JSON lines) in one process",
        description="Each input line is a query: a composition ('composition' in the events' JSON form, or "
                    "'mechanisms': {'eps': [...], 'delta': ..., 'k': N}) and one of delta_g (least eps), eps_g / "
                    "exp_eps_g (least delta), claim_eps + claim_delta (certify). Each output line is the answer, "
                    "in input order, or an error record for a bad line (the run goes on). Resumable: run the same "
                    "command again after a kill. Format: docs/corpus.md.",
    )
    p.add_argument("--in", dest="inp", metavar="FILE", required=True, help="queries, one JSON object per line")
    p.add_argument("--out", metavar="FILE", required=True, help="answers, one JSON object per line (written at the end)")
    add_scale_args(p)
    p.add_argument("--json", action="store_true", help="print the counts as one JSON object")
    p.set_defaults(func=run)


def run(args) -> int:
    """Run ``exactdp batch``. Guarantee: as :func:`exactdp.batch.run_batch`. Raises: InvalidArgument."""
    check_outputs(args, files=["out"], scheduler=True)  # before any work (the library checks again)
    from ..batch import run_batch

    s = run_batch(args.inp, args.out, scheduler=args.scheduler, workers=args.workers, progress=progress_of(args))
    if args.json:
        emit_json(s)
    else:
        print(f"{s['lines']} queries: {s['answered']} answered, {s['errors']} error records -> {args.out}")
    return 0
