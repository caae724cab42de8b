"""``exactdp corpus build|verify``: the conformance corpus (test vectors of the optimal composition)."""

from __future__ import annotations

import sys

from .common import check_outputs, emit_json, positive_int


def add_scale_args(p) -> None:
    """``--scheduler ADDR`` / ``--workers N`` (Dask) and ``--progress`` / ``--no-progress``."""
    g = p.add_mutually_exclusive_group()
    g.add_argument("--scheduler", metavar="ADDR", help="run on an existing Dask cluster (its scheduler's address)")
    g.add_argument("--workers", type=positive_int("--workers", 64), metavar="N",
                   help="run on a local Dask cluster of N worker processes")
    pg = p.add_mutually_exclusive_group()
    pg.add_argument("--progress", dest="progress", action="store_true", default=None,
                    help="progress bar on stderr (default: when stderr is a terminal)")
    pg.add_argument("--no-progress", dest="progress", action="store_false", help="no progress bar")


def progress_of(args) -> bool:
    return sys.stderr.isatty() if args.progress is None else args.progress


def register(sub) -> None:
    """Add the ``corpus`` subcommand to ``sub``. Guarantee: exact. Raises: nothing."""
    p = sub.add_parser(
        "corpus",
        help="build or verify a conformance corpus (test vectors for other accountants)",
        description="build: compute the vectors of a grid of queries (default: the curated grid shipped with "
                    "exactdp) into DIR/vectors.jsonl and DIR/manifest.json; resumable after a kill (run the same "
                    "command again), written atomically. verify: recompute every vector (or a sample) and report "
                    "any that disagrees. Format: docs/testing.md.",
    )
    s = p.add_subparsers(dest="action", metavar="ACTION")
    s.required = True
    b = s.add_parser("build", help="build (or resume) a corpus", description="Build a corpus into DIR (resumable).")
    b.add_argument("--grid", metavar="FILE", help="JSON lines, one query each (default: the curated grid of the suite)")
    b.add_argument("--suite", choices=("optcomp", "dpsgd"), default="optcomp",
                   help="the default grid: optcomp ((eps, delta) compositions) or dpsgd (Gaussian, Poisson-subsampled)")
    b.add_argument("--full", action="store_true", help="with --suite dpsgd: the full grid (about 1300 queries; hours)")
    b.add_argument("--out", metavar="DIR", required=True, help="the corpus folder")
    add_scale_args(b)
    b.add_argument("--json", action="store_true", help="print the manifest as one JSON object")
    b.set_defaults(func=run_build)
    v = s.add_parser("verify", help="re-check a corpus with this exactdp",
                     description="Recompute the vectors of a corpus (default: the shipped one); exit 1 on any "
                                 "mismatch (a proof that a stored or a new value is wrong) or error.")
    v.add_argument("dir", nargs="?", metavar="DIR", help="corpus folder or vectors file (default: the shipped corpus)")
    v.add_argument("--sample", type=positive_int("--sample"), metavar="N", help="check a random sample of N vectors")
    v.add_argument("--seed", type=positive_int("--seed"), default=1, metavar="S", help="seed of the sample (default 1)")
    v.add_argument("--tag", action="append", metavar="TAG", help="only vectors with this tag (repeatable)")
    v.add_argument("--suite", choices=("optcomp", "dpsgd"), default="optcomp",
                   help="the shipped corpus checked when DIR is not given (default optcomp)")
    add_scale_args(v)
    v.add_argument("--json", action="store_true", help="print one JSON object")
    v.set_defaults(func=run_verify)


def run_build(args) -> int:
    """Run ``exactdp corpus build``. Guarantee: as :func:`exactdp.corpus.build_corpus`. Raises: InvalidArgument."""
    check_outputs(args, dirs=["out"], scheduler=True)  # before any work (the library checks again)
    from ..corpus import build_corpus, read_grid

    grid = read_grid(args.grid, args.suite, "full" if args.full else "curated")
    man = build_corpus(args.out, grid, scheduler=args.scheduler, workers=args.workers, progress=progress_of(args))
    if args.json:
        emit_json(man)
        return 0
    state = "up to date" if man.get("up_to_date") else "written"
    print(f"corpus {args.out}: {man['vectors']} vectors ({man['errors']} refused queries), {state}")
    print("methods: " + ", ".join(f"{k} {v}" for k, v in man.get("methods", {}).items()))
    return 0


def run_verify(args) -> int:
    """Run ``exactdp corpus verify``; exit 1 on a mismatch or error. Raises: InvalidArgument."""
    check_outputs(args, scheduler=True)
    from ..corpus import verify_corpus

    r = verify_corpus(args.dir, sample=args.sample, seed=args.seed, tags=args.tag, scheduler=args.scheduler,
                      workers=args.workers, progress=progress_of(args), suite=args.suite)
    bad = r["mismatch"] + r["error"] + (1 if r["manifest_ok"] is False else 0)
    if args.json:
        emit_json(r)
        return 1 if bad else 0
    man = {True: "manifest ok", False: "MANIFEST DOES NOT MATCH", None: "no manifest"}[r["manifest_ok"]]
    print(f"corpus {r['corpus']}: {r['checked']} of {r['vectors']} vectors checked: {r['ok']} ok, "
          f"{r['mismatch']} mismatches, {r['error']} errors; {man}")
    for p in r["problems"][:20]:
        print(f"  {p['status']}: {p['id']}: {p['detail']}")
    return 1 if bad else 0
