"""``exactdp region | tradeoff | bounds | calibrate | plot``: the hypothesis-testing view of composition.

* ``region``     the privacy region of a composition (Kairouz-Oh-Viswanath), as an exact polygon;
  ``--theorem-3-3`` adds KOV Theorem 3.3's polygon and the exact check that it is the same.
* ``tradeoff``   the composition's trade-off function (f-DP) at ``--alpha``, or its vertices.
* ``bounds``     basic, advanced, KOV 3.4, KOV 3.5 and the optimal eps_g at ``--delta-g``.
* ``calibrate``  the largest per-query eps0 and the least Gaussian sigma for k queries.
* ``plot``       ``region | tradeoff | bounds`` figures (PNG or SVG; needs matplotlib).

Presentation only (STYLE.md item 14): the library decides. Exit status 0, or 2 on bad input.
"""

from __future__ import annotations

import functools
from fractions import Fraction

from ..errors import InvalidArgument
from .common import MAX_DIGITS, add_mechanism_args, emit_json, mechanisms_from_args, positive_int, renamed, screen_numbers

#: The plot kinds of ``exactdp plot``.
PLOT_KINDS = ("region", "tradeoff", "bounds")

#: library parameter -> the flag that carries it, for one-line errors that name what the user typed
_FLAGS = {"eps": "--eps", "exp_eps": "--exp-eps", "delta": "--delta", "k": "-k", "alpha": "--alpha", "delta_g": "--delta-g",
          "eps_g": "--eps-g", "exp_eps_g": "--exp-eps-g", "sensitivity": "--sensitivity", "delta0": "--delta0",
          "mu": "--gaussian", "target_eps": "--eps-g", "steps": "-k", "sample_rate": "--sample-rate",
          "tol": "--tol", "relation": "--relation"}

#: relation names on the command line -> the library's
_RELATIONS = {"add-remove": "add_remove", "replace-one": "replace_one", "remove": "remove", "add": "add"}


def _flags(run):
    """The error naming the user's flag (``delta_g`` -> ``--delta-g``); its meaning is unchanged."""

    @functools.wraps(run)
    def wrapped(args):
        try:
            return run(args)
        except InvalidArgument as e:
            raise renamed(e, _FLAGS) from None

    return wrapped


def _digits(p) -> None:
    p.add_argument("--digits", type=positive_int("--digits", MAX_DIGITS), default=30, metavar="D",
                   help=f"significant digits of decimal output, 1..{MAX_DIGITS} (default 30)")


def register(sub) -> None:
    """Add the five subcommands to ``sub``. Guarantee: exact. Raises: nothing."""
    p = sub.add_parser("region", help="privacy region of a composition as an exact polygon (KOV)",
                       description="The privacy region {(P_FA, P_MD)} of the optimal composition: the boundary polygon "
                                   "counter-clockwise from (0, 1), exact rationals when every e^eps is rational, else "
                                   "certified enclosures.")
    add_mechanism_args(p)
    p.add_argument("--theorem-3-3", action="store_true",
                   help="also build KOV Theorem 3.3's intersection of regions and check it equals the polygon (equal mechanisms)")
    p.add_argument("--engine", choices=("auto", "exact", "certified"), default="auto", help="exact | certified | auto (default)")
    _digits(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run_region)

    p = sub.add_parser("tradeoff", help="the composition's trade-off function f(alpha) (f-DP)",
                       description="beta = f(alpha): the least type II error at type I error alpha of the optimal "
                                   "composition (without --alpha: the vertices of f).")
    add_mechanism_args(p)
    p.add_argument("--alpha", metavar="A", help="type I error in [0, 1]")
    p.add_argument("--engine", choices=("auto", "exact", "certified"), default="auto", help="exact | certified | auto (default)")
    _digits(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run_tradeoff)

    p = sub.add_parser("bounds", help="basic, advanced, KOV 3.4 / 3.5 bounds beside the optimal eps_g",
                       description="Certified upper bounds on eps_g at --delta-g (basic composition, advanced composition "
                                   "in Murtagh-Vadhan Thm 1.3's form, KOV Theorems 3.4 and 3.5) and the exact optimum.")
    add_mechanism_args(p)
    p.add_argument("--delta-g", metavar="D", required=True, help="global delta, in [0, 1)")
    _digits(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run_bounds)

    p = sub.add_parser("calibrate", help="per-query eps0 and Gaussian sigma for k queries under (eps_g, delta_g)",
                       description="The largest per-query eps0 (exact inverse of OptComp, both ends certified) and the "
                                   "least Gaussian sigma (through Gaussian DP, certified) such that k queries meet "
                                   "(eps_g, delta_g); Laplace, geometric and randomized-response parameters from eps0. With "
                                   "--sample-rate (or another --relation) the least sigma of K Poisson-sampled "
                                   "Gaussian steps (DP-SGD), certified by the accountant; sigma_certified is a sigma "
                                   "whose certified eps_g is <= E.")
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--eps-g", metavar="E", help="total eps (rational >= 0)")
    g.add_argument("--exp-eps-g", metavar="T", help="total e^eps (rational >= 1)")
    p.add_argument("--delta-g", metavar="D", required=True, help="total delta, in [0, 1)")
    p.add_argument("-k", type=positive_int("-k", 100_000), required=True, metavar="K", help="number of queries (steps)")
    p.add_argument("--sensitivity", metavar="S", default="1", help="query sensitivity Delta > 0 (default 1)")
    p.add_argument("--delta0", metavar="D0", default="0", help="per-query delta, in [0, 1) (default 0)")
    p.add_argument("--sample-rate", metavar="Q", help="Poisson sampling rate in (0, 1] (DP-SGD): the least Gaussian sigma "
                                                      "is then certified by the accountant (the -k steps sampled at Q)")
    p.add_argument("--relation", default="add-remove", choices=sorted(_RELATIONS), metavar="REL",
                   help="neighbouring relation of the Gaussian sigma: add-remove (default), replace-one, remove, add")
    p.add_argument("--tol", metavar="T", default="1e-4",
                   help="relative tolerance of the certified sigma against the least sigma, in [1e-9, 1/2] (default 1e-4)")
    p.add_argument("--no-progress", action="store_true", help="no progress line on stderr")
    p.add_argument("--paper", action="store_true", help="also KOV Corollary 4.1 and Theorems 4.2-4.3, with verdicts")
    p.add_argument("--digits", type=positive_int("--digits", 60), default=15, metavar="D",
                   help="significant digits of the enclosures, 1..60 (default 15)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run_calibrate)

    p = sub.add_parser("plot", help="figures: privacy regions, trade-off curves, composition bounds (PNG/SVG)",
                       description="Draw a figure with matplotlib (pip install 'exactdp[plot]'); the file type follows -o.")
    p.add_argument("kind", choices=PLOT_KINDS, help="region | tradeoff | bounds")
    add_mechanism_args(p)
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="output file, .png or .svg")
    p.add_argument("--each-k", action="store_true", help="region / tradeoff: draw the compositions of 1..K copies")
    p.add_argument("--gaussian", metavar="MU", help="tradeoff: also draw the Gaussian trade-off function G_mu")
    p.add_argument("--title", metavar="TEXT", help="figure title (default: the parameters)")
    p.set_defaults(func=run_plot)


def _coord(e, digits: int):
    from ..regions.polygon import coordinate_json

    return coordinate_json(e, digits)


def _show(e, digits: int) -> str:
    from ..numbers import short_fraction

    if e.exact is not None:
        lo, hi = e.decimal(min(digits, 12))
        return short_fraction(e.exact, 40) + ("" if lo == hi else f" (~{lo})")
    lo, hi = e.decimal(digits)
    return f"[{lo}, {hi}]"


@_flags
def run_region(args) -> int:
    """Run ``exactdp region``. Guarantee: as the region (exact or certified).
    Raises: InvalidArgument / CostTooHigh (one line, exit 2, by main)."""
    from ..regions import check_theorem33, composition_region

    comp = mechanisms_from_args(args)
    R = composition_region(comp, engine=args.engine, digits=args.digits)
    thm = None
    if args.theorem_3_3:
        gs = comp.groups()
        if len(gs) == 1:
            m, k = gs[0]
            kw = {"eps": m.eps} if m.exp_eps is None else {"exp_eps": m.exp_eps}
            thm = check_theorem33(delta=m.delta, k=k, digits=args.digits, curve=R, **kw)
    if args.json:
        d = R.to_dict(args.digits)
        d.update({"composition": comp.describe(), "k": comp.k, "guarantee": "exact" if R.is_exact else "enclosure"})
        if args.theorem_3_3:
            d["theorem_3_3"] = thm.to_dict(args.digits) if thm is not None else {
                "applies": False, "reason": "Theorem 3.3 is for k equal mechanisms"}
        emit_json(d)
        return 0
    print(f"composition: {comp.describe()}")
    print(f"privacy region: {len(R.vertices)} vertices (P_FA, P_MD), counter-clockwise from (0, 1); "
          + ("exact" if R.is_exact else "certified enclosures"))
    for a, b in R.vertices:
        print(f"  ({_show(a, args.digits)}, {_show(b, args.digits)})")
    if args.theorem_3_3:
        if thm is None:
            print("KOV Theorem 3.3: does not apply (it is for k equal mechanisms)")
        else:
            print(f"KOV Theorem 3.3 polygon: {len(thm.theorem)} vertices; equal to the region: {thm.equal} ({thm.how})")
    return 0


@_flags
def run_tradeoff(args) -> int:
    """Run ``exactdp tradeoff``. Guarantee: as the trade-off function. Raises: as ``region``."""
    from ..fdp import composition_tradeoff

    screen_numbers(args, {"alpha": "--alpha"})
    if args.alpha is not None:  # before the trade-off function is built (6-52 s at -k 100)
        from ..numbers.parse import parse_unit

        parse_unit(args.alpha, "alpha")
    comp = mechanisms_from_args(args)
    f = composition_tradeoff(comp, engine=args.engine, digits=args.digits)
    if args.alpha is not None:
        beta = f(args.alpha)
        if args.json:
            emit_json({"beta": _coord(beta, args.digits), "alpha": args.alpha, "exact": beta.exact is not None,
                       "composition": comp.describe(), "k": comp.k})
            return 0
        print(f"composition: {comp.describe()}")
        print(f"f({args.alpha}) = {_show(beta, args.digits)}" + (" (exact)" if beta.exact is not None else " (certified enclosure)"))
        return 0
    if args.json:
        emit_json({"vertices": [[_coord(a, args.digits), _coord(b, args.digits)] for a, b in f.vertices],
                   "exact": f.is_exact, "composition": comp.describe(), "k": comp.k})
        return 0
    print(f"composition: {comp.describe()}")
    print(f"trade-off function: {len(f)} vertices (alpha, beta) from (0, 1) to (1, 0); "
          + ("exact" if f.is_exact else "certified enclosures"))
    for a, b in f.vertices:
        print(f"  ({_show(a, args.digits)}, {_show(b, args.digits)})")
    return 0


@_flags
def run_bounds(args) -> int:
    """Run ``exactdp bounds``. Guarantee: certified upper bounds, exact or certified optimum. Raises: as ``region``."""
    from ..bounds import composition_bounds

    screen_numbers(args, {"delta_g": "--delta-g"})
    comp = mechanisms_from_args(args)
    r = composition_bounds(comp, args.delta_g, digits=args.digits)
    if args.json:
        d = r.to_dict(args.digits)
        d["composition"] = comp.describe()
        emit_json(d)
        return 0
    print(f"composition: {comp.describe()}; delta_g = {args.delta_g}")
    opt = r.optimal
    for name, b in r.bounds.items():
        if b.value is None:
            print(f"  {name:9s} does not apply: {b.reason}")
            continue
        lo, hi = b.value.decimal(min(args.digits, 12))
        val = lo if lo == hi else f"<= {hi}" if name != "optimal" else f"in [{lo}, {hi}]"
        line = f"  {name:9s} eps_g {val}"
        if name != "optimal" and not opt.infinite:
            ex = r.excess(name)
            if ex is not None:
                o = opt.value
                ratio = float(b.value.upper) / float(o.lower) if o.lower > 0 else float("inf")
                line += f"   (+{float(ex.upper):.4g} above the optimum, x{ratio:.4g})"
        print(line + f"   [{b.statement}]")
    return 0


@_flags
def run_calibrate(args) -> int:
    """Run ``exactdp calibrate``. Guarantee: enclosures with certified ends; ``sigma_certified``
    is certified feasible (rounded up). Raises: as ``region``; CostTooHigh for a sampled
    calibration beyond the accountant's cost model."""
    from ..bounds import calibrate

    screen_numbers(args, {"eps_g": "--eps-g", "exp_eps_g": "--exp-eps-g", "delta_g": "--delta-g",
                          "sensitivity": "--sensitivity", "delta0": "--delta0", "sample_rate": "--sample-rate",
                          "tol": "--tol"})
    accounted = args.sample_rate is not None or args.relation != "add-remove"
    if accounted:
        _check_accounted(args)
    c = calibrate(args.eps_g, args.delta_g, args.k, exp_eps_g=args.exp_eps_g, sensitivity=args.sensitivity,
                  delta0=args.delta0, digits=args.digits, paper=args.paper)
    sigma, least, cert = _certified_sigma(args, c) if accounted else \
        (_round_up(c.gaussian_sigma, min(args.digits, 12)), c.gaussian_sigma, None)
    if args.json:
        d = c.to_dict(args.digits)
        if accounted:
            del d["gaussian_mu"]  # the GDP mu of unsampled queries: not the sampled sigma's
            d.update({"sample_rate": args.sample_rate, "relation": args.relation, "tol": args.tol})
        d["gaussian_sigma"] = least.to_dict(args.digits)
        d["sigma_certified"] = _decimal(sigma)
        if cert is not None:
            d["certificate"] = cert
        emit_json(d)
        return 0
    d = args.digits
    print(f"budget: eps_g = {c.eps_g}, delta_g = {c.delta_g}; k = {c.k} queries of sensitivity {c.sensitivity}")
    print(f"largest per-query eps0 (delta0 = {c.delta0}): {_show(c.eps0, d)}   (lower end certified feasible)")
    print(f"  Laplace scale b >= {_show(c.laplace_scale, d)}   (variance {_show(c.laplace_variance, d)})")
    print(f"  geometric alpha <= {_show(c.geometric_alpha, d)}   (integer queries, p(z) ~ alpha^|z|)")
    print(f"  randomized response: answer truthfully with probability <= {_show(c.rr_keep_probability, d)}")
    if accounted:
        samp = f"Poisson-sampled at {args.sample_rate}, " if args.sample_rate is not None else ""
        print(f"least Gaussian sigma ({samp}{args.relation}): {_show(least, d)}   (certified by the accountant)")
    else:
        print(f"least Gaussian sigma: {_show(c.gaussian_sigma, d)}   (mu-GDP with mu = {_show(c.gaussian_mu, d)})")
    print(f"  certified sigma: {_decimal(sigma)}   (its certified eps_g <= {c.eps_g})")
    for p in c.paper:
        verdict = {True: "meets the budget", False: "DOES NOT meet the budget", None: "undecided"}[p.meets]
        rng = "" if p.in_range else " (budget outside the statement's range)"
        print(f"{p.statement}: {p.quantity} {_show(p.value, 8)}; exact {_show(p.exact, 8)}; "
              f"ratio {_show(p.ratio, 6)}; {verdict}{rng}")
    return 0


def _check_accounted(args) -> None:
    """Validate the sampled calibration's flags before any numeric work."""
    from ..numbers.parse import parse_delta, parse_rational

    if args.exp_eps_g is not None:
        raise InvalidArgument("--exp-eps-g", "not given with --sample-rate or --relation (give --eps-g)", args.exp_eps_g)
    if args.delta0 not in ("0", 0):
        raise InvalidArgument("--delta0", "0 with --sample-rate or --relation (the Gaussian steps have no delta0)", args.delta0)
    if args.sample_rate is not None:
        q = parse_rational(args.sample_rate, "--sample-rate")
        if not (0 < q <= 1):
            raise InvalidArgument("--sample-rate", "in (0, 1]", args.sample_rate)
    if parse_delta(args.delta_g, "--delta-g") <= 0:
        raise InvalidArgument("--delta-g", "in (0, 1) for a Gaussian sigma", args.delta_g)
    t = parse_rational(args.tol, "--tol")
    if not (Fraction(1, 10**9) <= t <= Fraction(1, 2)):
        raise InvalidArgument("--tol", "a relative tolerance in [1e-9, 1/2]", args.tol)


def _certified_sigma(args, c):
    """The accountant's certified sigma (sampled, or under another relation): (sigma, enclosure, certificate)."""
    from ..accounting import calibrate_sigma
    from .common import LatticeTicker

    progress = LatticeTicker("calibrate", not args.no_progress)
    try:
        r = calibrate_sigma(args.eps_g, args.delta_g, steps=args.k, sample_rate=args.sample_rate,
                            relation=_RELATIONS[args.relation], sensitivity=args.sensitivity, tol=args.tol,
                            progress=progress)
    finally:
        progress.close()
    from ..numbers import fraction_str

    cert = {"eps_g_at_sigma": r.eps_feasible.to_dict(args.digits),
            "eps_g_at_lower": r.eps_infeasible.to_dict(args.digits) if r.eps_infeasible is not None else None,
            "lattice_h": fraction_str(r.h), "digits": r.digits, "seconds": round(r.seconds, 3)}
    return r.sigma, r.least_sigma, cert


def _round_up(e, digits: int) -> Fraction:
    """The upper end of ``e`` rounded up to ``digits`` significant digits (a short decimal >= it)."""
    from ..numbers import fraction_to_decimal

    if e.infinite:
        return e.upper
    return Fraction(fraction_to_decimal(e.upper, digits, "up"))


def _decimal(x) -> str:
    """``x`` (a short decimal Fraction) printed exactly, or ``inf``."""
    from ..numbers import fraction_to_decimal

    if not isinstance(x, Fraction):
        return "inf"
    return fraction_to_decimal(x, 40, "up")


@_flags
def run_plot(args) -> int:
    """Run ``exactdp plot``. Guarantee: the figure of exact / certified objects; the file is written
    atomically. Raises: as ``region`` (and InvalidArgument for the file name or a missing matplotlib)."""
    from ..regions.plots import check_output

    out = check_output(args.output)
    screen_numbers(args, {"gaussian": "--gaussian"})
    comp = mechanisms_from_args(args)
    gauss = None
    if args.kind == "tradeoff" and args.gaussian is not None:  # validated before any curve is built
        from ..fdp import GaussianTradeOff

        gauss = GaussianTradeOff(args.gaussian)
    desc = comp.describe()
    if args.kind == "region":
        from ..regions import composition_region
        from ..regions.plots import plot_regions

        if args.each_k:
            base = _base(args)
            regions = [(f"k = {j}", composition_region(base.repeat(j), digits=12)) for j in range(1, args.k + 1)]
        else:
            regions = [(desc, composition_region(comp, digits=12))]
        plot_regions([(_params(args), regions)], out, title=args.title or "privacy region of the optimal composition")
    elif args.kind == "tradeoff":
        from ..fdp import composition_tradeoff
        from ..regions.plots import plot_tradeoffs

        if args.each_k:
            base = _base(args)
            curves = [(f"k = {j}", composition_tradeoff(base.repeat(j), digits=12)) for j in range(1, args.k + 1)]
        else:
            curves = [(desc, composition_tradeoff(comp, digits=12))]
        if gauss is not None:
            curves.append((f"G_mu, mu = {args.gaussian}", gauss))
        plot_tradeoffs(curves, out, title=args.title or f"trade-off function; {_params(args)}")
    else:
        from ..regions.plots import plot_bounds

        plot_bounds(comp, out, title=args.title or f"composition bounds; {_params(args)}")
    print(out)
    return 0


def _base(args):
    """The composition of the MECHS arguments taken once (``-k 1``)."""
    import copy

    a = copy.copy(args)
    a.k = 1
    return mechanisms_from_args(a)


def _params(args) -> str:
    e = f"eps = {args.eps}" if args.eps is not None else f"e^eps = {args.exp_eps}"
    return f"{e}, delta = {args.delta}, k = {args.k}"
