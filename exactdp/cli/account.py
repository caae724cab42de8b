"""``exactdp account``: certified accounting of Gaussian, Laplace and Poisson-subsampled
compositions (DP-SGD), two-sided (docs/guides/dpsgd.md).

``--gaussian SIGMA`` (or ``--laplace B``) with ``--steps K`` and optionally ``--sample-rate Q``
is K steps of one (subsampled) mechanism; ``--events FILE.json`` is any event tree (schedules).
``--delta-g D`` asks for epsilon, ``--eps-g E`` for delta; both as enclosures.
"""

from __future__ import annotations

from .common import LatticeTicker, emit_json, positive_int, screen_numbers

#: relation names on the command line -> the library's
_RELATIONS = {"add-remove": "add_remove", "replace-one": "replace_one", "remove": "remove", "add": "add"}

#: largest --events file read
_MAX_EVENTS_BYTES = 10_000_000

#: most digits asked on the command line (the library's limit)
_MAX_DIGITS = 12


def register(sub) -> None:
    """Add the ``account`` subcommand to ``sub``. Guarantee: exact. Raises: nothing."""
    p = sub.add_parser(
        "account",
        help="certified epsilon(delta) or delta(eps) of Gaussian, Laplace and Poisson-subsampled steps (DP-SGD)",
        description=(
            "Certified privacy accounting of what practitioners compose: --steps K steps of a Gaussian (--gaussian "
            "SIGMA, the noise multiplier) or Laplace (--laplace B) mechanism, optionally Poisson-subsampled "
            "(--sample-rate Q), or any event tree from --events FILE.json. Prints an enclosure [lower, upper] of the "
            "optimal epsilon at --delta-g (or delta at --eps-g) that provably contains the true value; the upper end "
            "is a valid guarantee."
        ),
    )
    m = p.add_mutually_exclusive_group(required=True)
    m.add_argument("--gaussian", metavar="SIGMA", help="Gaussian noise standard deviation / sensitivity (> 0)")
    m.add_argument("--laplace", metavar="B", help="Laplace noise scale / sensitivity (> 0)")
    m.add_argument("--events", metavar="FILE", help="a JSON event tree (exactdp's event JSON: composed, poisson_sampled, "
                                                    "gaussian, laplace, randomized_response, mechanism)")
    p.add_argument("--sample-rate", metavar="Q", help="Poisson sampling rate in (0, 1] (DP-SGD's batch size / data size)")
    p.add_argument("--steps", type=positive_int("--steps", 10**12), metavar="K", help="number of steps (1..1e12)")
    q = p.add_mutually_exclusive_group(required=True)
    q.add_argument("--delta-g", metavar="D", help="the delta at which to certify epsilon, in (0, 1)")
    q.add_argument("--eps-g", metavar="E", help="the epsilon at which to certify delta (>= 0)")
    p.add_argument("--relation", default="add-remove", choices=sorted(_RELATIONS), metavar="REL",
                   help="neighbouring relation: add-remove (default: the larger of its two directions), replace-one, "
                        "remove, add")
    p.add_argument("--digits", type=positive_int("--digits", _MAX_DIGITS), default=4, metavar="N",
                   help=f"significant digits of the enclosure, 1..{_MAX_DIGITS} (default 4)")
    p.add_argument("--no-progress", action="store_true", help="no progress line on stderr")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run_account)


def _event(args):
    """The event to compose, built and validated (naming the flags) before any numeric work."""
    from ..errors import InvalidArgument
    from ..noise_events import Composed, Gaussian, Laplace, PoissonSampled

    if args.events is not None:
        if args.sample_rate is not None:
            raise InvalidArgument("--sample-rate", "not given with --events (the file holds the sampling)", args.sample_rate)
        try:
            with open(args.events, encoding="utf-8") as f:
                text = f.read(_MAX_EVENTS_BYTES + 1)
        except (OSError, UnicodeDecodeError, ValueError) as e:
            raise InvalidArgument("--events", "a readable UTF-8 JSON file", f"{args.events}: {e.__class__.__name__}") from None
        if len(text) > _MAX_EVENTS_BYTES:
            raise InvalidArgument("--events", f"a JSON file of at most {_MAX_EVENTS_BYTES} bytes", args.events)
        try:
            ev = Composed.loads(text)
        except InvalidArgument as e:
            raise e.renamed("--events" if e.parameter == "events" else "--events: " + e.parameter) from None
        return ev, args.steps or 1
    if args.steps is None:
        raise InvalidArgument("--steps", "given (an integer in [1, 1e12]) with --gaussian or --laplace", None)
    try:
        base = Gaussian(args.gaussian) if args.gaussian is not None else Laplace(args.laplace)
    except InvalidArgument as e:
        raise e.renamed("--gaussian" if args.gaussian is not None else "--laplace") from None
    if args.sample_rate is not None:
        try:
            base = PoissonSampled(base, args.sample_rate)
        except InvalidArgument as e:
            raise e.renamed("--sample-rate") from None
    return base, args.steps


def run_account(args) -> int:
    """Run ``exactdp account``; print the enclosure. Guarantee: certified enclosure (the library's
    :class:`~exactdp.accounting.Accountant`).

    Raises:
        InvalidArgument: bad numbers (named by their flag), a missing --steps.
        CostTooHigh: a lattice beyond the cost model (with the estimate), refused before the work.
    """
    from ..errors import InvalidArgument
    from ..numbers.parse import parse_delta, parse_eps

    screen_numbers(args, {"gaussian": "--gaussian", "laplace": "--laplace", "sample_rate": "--sample-rate",
                          "delta_g": "--delta-g", "eps_g": "--eps-g"})
    if args.delta_g is not None:
        d = parse_delta(args.delta_g, "--delta-g")
        if d <= 0:
            raise InvalidArgument("--delta-g", "in (0, 1)", args.delta_g)
        kind, x, key = "epsilon", d, "eps_g"
    else:
        kind, x, key = "delta", parse_eps(args.eps_g, "--eps-g"), "delta_g"
    event, steps = _event(args)
    from ..accounting import Accountant

    acc = Accountant(_RELATIONS[args.relation]).compose(event, steps)
    progress = LatticeTicker("account", not args.no_progress)
    try:
        r = acc.query(kind, x, args.digits, progress=progress)
    except InvalidArgument as e:
        raise e.renamed({"delta": "--delta-g", "eps": "--eps-g", "digits": "--digits"}.get(e.parameter, e.parameter)) from None
    finally:
        progress.close()
    from ..numbers import fraction_str

    lattice = {"h": fraction_str(r.h), "points": r.points, "fixed_point_bits": r.fixed_bits}
    if args.json:
        emit_json({key: r.value.to_dict(args.digits + 2), "relation": args.relation, "steps": acc.steps,
                   "directions": list(r.directions), "method": r.method, "lattice": lattice, "seconds": round(r.seconds, 3),
                   "events": acc.events.to_json()})
        return 0
    print(f"{acc.steps} steps of {event!r}" if steps > 1 or args.events is None else f"events: {event!r}")
    if r.points:
        print(f"relation: {args.relation}; lattice h = {float(r.h):.4g}, {r.points} points, {r.fixed_bits}-bit fixed point; "
              f"{r.seconds:.2f} s")
    elif r.method == "subsampled-closed-form":
        print(f"relation: {args.relation}; one Poisson-subsampled Gaussian step in closed form, {r.fixed_bits}-bit "
              f"balls; {r.seconds:.2f} s")
    else:
        print(f"relation: {args.relation}; Gaussian steps only: Gaussian DP in closed form, {r.fixed_bits}-bit balls; "
              f"{r.seconds:.2f} s")
    at = f"delta_g = {args.delta_g}" if kind == "epsilon" else f"eps_g = {args.eps_g}"
    name = "eps_g" if kind == "epsilon" else "delta_g"
    if r.value.infinite:
        print(f"{name} = inf at {at}")
    else:
        print(f"{name} in {r.value.text(args.digits + 2)}   (certified enclosure at {at})")
    return 0
