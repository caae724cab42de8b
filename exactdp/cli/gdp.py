"""``exactdp gdp``: mu-GDP, certified (Dong-Roth-Su conversions; docs/gdp.md).

One subcommand, four questions about a mu-GDP guarantee (``--mu`` a list is composed:
``mu = sqrt(k sum mu_i^2)``; ``--sigma`` with ``--sensitivity`` gives the Gaussian
mechanism's ``mu = sensitivity / sigma``):

* ``--eps-g E`` (or ``--exp-eps-g T``): the least delta_g, ``delta_mu(E)``;
* ``--delta-g D``: the least eps_g;
* ``--alpha A``: the trade-off function ``G_mu(A)``;
* no mu, ``--eps-g E --delta-g D``: the largest mu such that mu-GDP is (E, D)-DP.
"""

from __future__ import annotations

from .common import MAX_CLI_MECHANISMS, MAX_DIGITS, emit_json, positive_int, screen_numbers, split_list


def register(sub) -> None:
    """Add the ``gdp`` subcommand to ``sub``. Guarantee: exact. Raises: nothing."""
    p = sub.add_parser(
        "gdp",
        help="mu-GDP, certified: delta_g, eps_g, G_mu(alpha), or the largest mu for (eps, delta)",
        description=(
            "Gaussian differential privacy (Dong-Roth-Su), as certified enclosures: the least delta_g at "
            "--eps-g, the least eps_g at --delta-g, or the trade-off G_mu(--alpha) of a mu-GDP guarantee "
            "(--mu, a list is composed: sqrt(k sum mu_i^2); or --sigma with --sensitivity: mu = sensitivity / sigma); "
            "without --mu/--sigma, --eps-g with --delta-g gives the largest mu that is (eps_g, delta_g)-DP."
        ),
    )
    g = p.add_mutually_exclusive_group()
    g.add_argument("--mu", metavar="M1,M2,...", help="mu of each GDP mechanism (rationals >= 0); composed")
    g.add_argument("--sigma", metavar="S1,S2,...", help="noise standard deviation of each Gaussian mechanism (rationals > 0)")
    p.add_argument("--sensitivity", metavar="D1,D2,...", default=None,
                   help="L2 sensitivity of each Gaussian mechanism (with --sigma; rationals >= 0; one value broadcasts; default 1)")
    p.add_argument("-k", type=positive_int("-k"), default=1, metavar="N", help="compose the list N times (default 1)")
    q = p.add_mutually_exclusive_group()
    q.add_argument("--eps-g", metavar="E", help="global eps (rational >= 0)")
    q.add_argument("--exp-eps-g", metavar="T", help="e^eps_g (rational >= 1)")
    q.add_argument("--alpha", metavar="A", help="type I error in [0, 1]: print G_mu(A)")
    p.add_argument("--delta-g", metavar="D", help="global delta, in [0, 1)")
    p.add_argument("--digits", type=positive_int("--digits", MAX_DIGITS), default=30, metavar="D",
                   help=f"significant digits of the enclosures, 1..{MAX_DIGITS} (default 30)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run_gdp)


def _mu_of(args):
    """The composed GDP guarantee of ``--mu`` / ``--sigma --sensitivity`` and ``-k``."""
    from ..errors import CostTooHigh, InvalidArgument
    from ..gdp import GDP, gaussian_mu

    src = args.mu if args.mu is not None else args.sigma
    flag = "--mu" if args.mu is not None else "--sigma"
    items = split_list(src, flag)
    if len(items) > MAX_CLI_MECHANISMS:
        raise CostTooHigh(flag, f"{len(items)} values is refused (limit {MAX_CLI_MECHANISMS}); use -k for copies",
                          estimate=len(items), limit=MAX_CLI_MECHANISMS, alternative="-k")
    if args.mu is not None:
        if args.sensitivity is not None:
            raise InvalidArgument("--sensitivity", "given only with --sigma", args.sensitivity)
        try:
            return GDP(items, k=args.k)
        except InvalidArgument as e:
            raise e.renamed("--mu" + e.parameter[2:]) from None
    sens = split_list(args.sensitivity, "--sensitivity") if args.sensitivity is not None else ["1"]
    if len(sens) == 1:
        sens = sens * len(items)
    if len(sens) != len(items):
        raise InvalidArgument("--sensitivity", f"one value or {len(items)} values (one per --sigma)", f"{len(sens)} values")
    mus = []
    for i, (s, d) in enumerate(zip(items, sens)):
        suffix = f"[{i}]" if len(items) > 1 else ""
        try:
            mus.append(gaussian_mu(s, d))
        except InvalidArgument as e:
            raise e.renamed(("--sigma" if e.parameter == "sigma" else "--sensitivity") + suffix) from None
    return GDP(mus, k=args.k)


def run_gdp(args) -> int:
    """Run ``exactdp gdp``; print the enclosure asked. Guarantee: as the library's functions
    (certified enclosures, exact where the value is rational).

    Raises:
        InvalidArgument: bad or missing numbers (named by their flag), a missing question.
        CostTooHigh: a value below Phi(-680), or a list too long.
        PrecisionError: not certified by the precision bound.

    Examples:
        ``exactdp gdp --mu 1 --eps-g 1 --digits 15`` -> ``delta_g in [0.126936737506643, 0.126936737506644]``.

    References: Dong-Roth-Su Corollaries 2.13, 3.3, Theorem 2.7.
    """
    from ..errors import InvalidArgument
    from ..gdp import gdp_delta, gdp_epsilon, gdp_mu, gdp_tradeoff
    from ..numbers import fraction_str

    screen_numbers(args, {"mu": "--mu", "sigma": "--sigma", "sensitivity": "--sensitivity", "eps_g": "--eps-g",
                          "exp_eps_g": "--exp-eps-g", "delta_g": "--delta-g", "alpha": "--alpha"})
    d = args.digits
    has_eps = args.eps_g is not None or args.exp_eps_g is not None
    if args.mu is None and args.sigma is None:
        if not (has_eps and args.delta_g is not None):
            raise InvalidArgument("--mu", "given (or --sigma), unless --eps-g and --delta-g ask for the largest mu", None)
        try:
            m = gdp_mu(args.eps_g, args.delta_g, exp_eps=args.exp_eps_g, digits=d)
        except InvalidArgument as e:
            raise _flag(e) from None
        if args.json:
            emit_json({"mu": m.to_dict(d)})
            return 0
        side = f"eps_g = {args.eps_g}" if args.eps_g is not None else f"e^eps_g = {args.exp_eps_g}"
        print(f"largest mu such that mu-GDP is ({side}, delta_g = {args.delta_g})-DP:")
        print(f"mu {'=' if m.exact is not None else 'in'} {m.text(d)}")
        return 0
    g = _mu_of(args)
    asked = sum(x is not None for x in (args.eps_g, args.exp_eps_g, args.alpha, args.delta_g))
    if asked != 1:
        raise InvalidArgument("--eps-g / --exp-eps-g / --delta-g / --alpha", "given, exactly one (with --mu or --sigma)",
                              None if asked == 0 else f"{asked} of them")
    try:
        if has_eps:
            key, v = "delta_g", gdp_delta(g, args.eps_g, exp_eps=args.exp_eps_g, digits=d)
        elif args.delta_g is not None:
            key, v = "eps_g", gdp_epsilon(g, args.delta_g, digits=d)
        else:
            key, v = "tradeoff", gdp_tradeoff(g, args.alpha, digits=d)
    except InvalidArgument as e:
        raise _flag(e) from None
    mu = g.mu if d <= 30 else _mu_digits(g, d)
    if args.json:
        emit_json({"mu_sq": fraction_str(g.mu_sq), "mu": mu.to_dict(d), key: v.to_dict(d)})
        return 0
    print(f"mu-GDP: mu^2 = {fraction_str(g.mu_sq) if len(fraction_str(g.mu_sq)) <= 60 else '(long)'}, "
          f"mu {'=' if mu.exact is not None else 'in'} {mu.text(min(d, 20))}")
    if key == "delta_g":
        side = f"eps_g = {args.eps_g}" if args.eps_g is not None else f"e^eps_g = {args.exp_eps_g}"
        print(f"least delta_g at {side}:")
        print(f"delta_g {'=' if v.exact is not None else 'in'} {v.text(d)}")
    elif key == "eps_g":
        print(f"least eps_g at delta_g = {args.delta_g}:")
        if v.infinite:
            print("eps_g = inf (mu > 0 is not (eps, 0)-DP for any finite eps)")
        else:
            print(f"eps_g {'=' if v.exact is not None else 'in'} {v.text(d)}")
    else:
        print(f"trade-off at alpha = {args.alpha}:")
        print(f"G_mu(alpha) {'=' if v.exact is not None else 'in'} {v.text(d)}")
    return 0


def _mu_digits(g, d: int):
    from ..gdp.conversions import sqrt_enclosure

    return sqrt_enclosure(g.mu_sq, d)


#: library parameter -> option
_OPTS = {"eps": "--eps-g", "exp_eps": "--exp-eps-g", "delta": "--delta-g", "alpha": "--alpha", "digits": "--digits",
         "eps / exp_eps": "--eps-g / --exp-eps-g"}


def _flag(e):
    opt = _OPTS.get(e.parameter)
    return e.renamed(opt) if opt else e
