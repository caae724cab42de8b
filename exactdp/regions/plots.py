"""Figures of privacy regions, trade-off curves and composition bounds (matplotlib, imported lazily).

Every figure is drawn from the exact or certified objects of :mod:`exactdp.regions`,
:mod:`exactdp.fdp` and :mod:`exactdp.bounds`; only the drawing converts coordinates to
floats (the midpoints of enclosures narrower than a pixel). Axis labels, a legend and
the parameters in the title are always present. Files are written atomically (a
temporary file renamed into place), as PNG or SVG by the file's extension.

* :func:`plot_regions` regions of compositions (Kairouz-Oh-Viswanath Figure 2's style).
* :func:`plot_tradeoffs` trade-off curves, piecewise-linear or Gaussian.
* :func:`plot_bounds` basic / advanced / KOV Theorem 3.4 / optimal guarantees as regions and
  as eps_g against delta_g (KOV Figure 3's comparison).
"""

from __future__ import annotations

import math
import os
import tempfile
from fractions import Fraction
from typing import Optional, Sequence

from ..errors import InvalidArgument
from ..events import Composition, Mechanism, as_composition
from ..fdp.gaussian import GaussianTradeOff
from ..fdp.tradeoff import TradeOff, tradeoff_from_guarantees
from .polygon import PrivacyRegion

__all__ = ["plot_regions", "plot_tradeoffs", "plot_bounds", "check_output", "bound_regions"]

FORMATS = (".png", ".svg")


def check_output(path: object) -> str:
    """``path`` as a string ending in .png or .svg whose directory exists and that is a regular
    file or nothing yet (a symbolic link is followed; a folder or a device is refused,
    :func:`exactdp.jobs.output_file`). Guarantee: exact. Raises: InvalidArgument naming ``-o``."""
    if not isinstance(path, (str, os.PathLike)):
        raise InvalidArgument("-o", "a file name ending in .png or .svg", path)
    p = os.fspath(path)
    ext = os.path.splitext(p)[1].lower()
    if ext not in FORMATS:
        raise InvalidArgument("-o", "a file name ending in .png or .svg", p)
    d = os.path.dirname(os.path.abspath(p))
    if not os.path.isdir(d):
        raise InvalidArgument("-o", "a file in an existing directory", p)
    from ..jobs import output_file

    output_file(p, "-o")
    return p


def _plt():
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # pragma: no cover - depends on the installation
        raise InvalidArgument("plot", "available: it needs matplotlib", "not installed",
                              hint="pip install 'exactdp[plot]'") from None
    return plt


def _save(fig, path: str) -> None:
    from ..jobs import output_file

    ext = os.path.splitext(path)[1].lower()
    target = output_file(path, "-o")  # a link's target is written (the link kept); never a device
    fd, tmp = tempfile.mkstemp(suffix=ext, dir=os.path.dirname(target))
    os.close(fd)
    try:
        fig.savefig(tmp, format=ext[1:], dpi=150, bbox_inches="tight")
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _f(e) -> float:
    """A float for drawing: the midpoint of an enclosure (exact points exactly rounded)."""
    return float((Fraction(e.lower) + Fraction(e.upper)) / 2)


def _region_xy(R: PrivacyRegion) -> tuple[list[float], list[float]]:
    vs = R.vertices
    xs = [_f(a) for a, _ in vs] + [_f(vs[0][0])]
    ys = [_f(b) for _, b in vs] + [_f(vs[0][1])]
    return xs, ys


def _axes_unit(ax, xlabel: str, ylabel: str) -> None:
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)


def plot_regions(panels: Sequence[tuple[str, Sequence[tuple[str, PrivacyRegion]]]], path: object, *, title: str = "") -> str:
    """Privacy regions, one panel per ``(panel title, [(label, region), ...])``, outlines and light fills.

    Guarantee: a figure (coordinates drawn at float precision). Raises: InvalidArgument for a bad path
    or a missing matplotlib. Returns the path written.
    """
    p = check_output(path)
    plt = _plt()
    n = len(panels)
    fig, axes = plt.subplots(1, n, figsize=(5.2 * n, 5.4), squeeze=False)
    cmap = plt.get_cmap("viridis")
    for ax, (ptitle, regions) in zip(axes[0], panels):
        m = len(regions)
        for i, (label, R) in enumerate(regions):
            xs, ys = _region_xy(R)
            c = cmap(0.1 + 0.8 * i / max(1, m - 1))
            ax.fill(xs, ys, color=c, alpha=0.10)
            ax.plot(xs, ys, color=c, lw=1.6, label=label)
        ax.plot([0, 1], [1, 0], color="0.6", lw=0.8, ls=":", label=r"$P_{FA}+P_{MD}=1$")
        _axes_unit(ax, r"false alarm $P_{FA}$", r"missed detection $P_{MD}$")
        ax.set_title(ptitle, fontsize=11)
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=min(4, len(regions) + 1), fontsize=8)
    if title:
        fig.suptitle(title, fontsize=12)
    fig.tight_layout(rect=(0, 0, 1, 0.95) if title else None)
    _save(fig, p)
    plt.close(fig)
    return p


def _curve_xy(f, n: int = 400) -> tuple[list[float], list[float]]:
    if isinstance(f, TradeOff):
        vs = f.vertices
        return [_f(a) for a, _ in vs], [_f(b) for _, b in vs]
    # Gaussian: certified values at a grid denser near 0 (where G_mu is steep), 6 digits suffice to draw
    g = GaussianTradeOff(mu_squared=f.mu_squared, digits=6)
    xs = sorted({Fraction(i * i, n * n) for i in range(n + 1)} | {Fraction(i, n) for i in range(n + 1)})
    return [float(x) for x in xs], [_f(g(x)) for x in xs]


def plot_tradeoffs(curves: Sequence[tuple[str, object]], path: object, *, title: str = "") -> str:
    """Trade-off curves ``beta = f(alpha)`` (:class:`~exactdp.fdp.TradeOff` or
    :class:`~exactdp.fdp.GaussianTradeOff`), with the diagonal ``1 - alpha`` (perfect privacy).

    Guarantee: a figure. Raises: InvalidArgument (path, matplotlib). Returns the path written.
    """
    p = check_output(path)
    plt = _plt()
    fig, ax = plt.subplots(figsize=(5.8, 5.6))
    cmap = plt.get_cmap("plasma")
    m = len(curves)
    for i, (label, f) in enumerate(curves):
        xs, ys = _curve_xy(f)
        gauss = isinstance(f, GaussianTradeOff)
        ax.plot(xs, ys, color="k" if gauss else cmap(0.05 + 0.8 * i / max(1, m - 1)), lw=2.0 if gauss else 1.5,
                ls="--" if gauss else "-", label=label)
    ax.plot([0, 1], [1, 0], color="0.6", lw=0.8, ls=":", label=r"$1-\alpha$ (perfect privacy)")
    _axes_unit(ax, r"type I error $\alpha$", r"type II error $\beta = f(\alpha)$")
    ax.legend(loc="upper right", fontsize=8, framealpha=0.9)
    if title:
        ax.set_title(title, fontsize=11)
    fig.tight_layout()
    _save(fig, p)
    plt.close(fig)
    return p


def bound_regions(mechanisms: object, *, grid: int = 40) -> list[tuple[str, PrivacyRegion]]:
    """The regions guaranteed by each bound, for KOV Figure 3: basic ``R(sum eps, sum delta)``;
    advanced and KOV 3.4 as the intersection of their ``(eps_g(delta'), delta_g)`` guarantees over a
    grid of ``delta_g`` (each pair a valid guarantee: its certified upper eps_g, so the drawn region
    contains the true one); and the optimal region.

    Guarantee: every drawn region contains the composition's true region. Raises: InvalidArgument.
    """
    from ..bounds.composition import advanced_bound, basic_bound, kov34_bound
    from .polygon import composition_region

    comp = as_composition(mechanisms)
    # first, so that its up-front refusal (too many privacy-loss classes, k > 2e5 equal
    # mechanisms) comes before the bounds' e^eps, which has ~1.44 k eps bits
    optimal = composition_region(comp, digits=12)
    P = comp.delta_product
    sd = sum((m.delta * n for m, n in comp.groups()), Fraction(0))
    out: list[tuple[str, PrivacyRegion]] = []
    b = basic_bound(comp, sd, digits=12) if sd < 1 else None
    if b is not None and b.value is not None:
        out.append(("basic (KOV Thm 3.1)", PrivacyRegion(tradeoff_from_guarantees([Mechanism(exp_eps=_exp_up(b.value.upper), delta=sd)]))))
    lo = max(1 - P, sd)
    dgs = [lo + (1 - lo) * Fraction(10.0 ** (-8.0 * j / grid)).limit_denominator(10**12) for j in range(1, grid + 1)]
    for name, fn in (("advanced (MV Thm 1.3)", advanced_bound), ("KOV Thm 3.4", kov34_bound)):
        gs = []
        for dg in dgs:
            r = fn(comp, dg, digits=8)
            if r.value is not None and dg < 1:
                gs.append(Mechanism(exp_eps=_exp_up(r.value.upper), delta=dg))
        if gs:
            out.append((name, PrivacyRegion(tradeoff_from_guarantees(gs))))
    out.append(("optimal (KOV Thm 3.3)", optimal))
    return out


def _exp_up(eps: Fraction) -> Fraction:
    """A short rational ``>= e^eps`` (a weaker guarantee than eps itself, so still valid). Guarantee: upper bound."""
    from .._backend import arb, fmpq, workprec
    from ..numbers import arb_bounds

    with workprec(96):
        hi = arb_bounds(arb(fmpq(eps.numerator, eps.denominator)).exp())[1]
    q = Fraction(10**12)
    return Fraction(-((-hi * q).__floor__()), q.numerator)


def plot_bounds(mechanisms: object, path: object, *, title: str = "", delta_range: Optional[tuple] = None, points: int = 24) -> str:
    """KOV Figure 3's comparison for one composition: left, the regions each bound guarantees;
    right, eps_g against delta_g for every bound and the exact optimum (log scale).

    Guarantee: a figure; every plotted bound value is its certified upper end, the optimum its
    enclosure's midpoint. Raises: InvalidArgument (path, matplotlib, mechanisms). Returns the path.
    """
    from ..bounds.composition import composition_bounds

    p = check_output(path)
    comp: Composition = as_composition(mechanisms)
    plt = _plt()
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11.5, 5.4))
    styles = {"basic (KOV Thm 3.1)": "C3", "advanced (MV Thm 1.3)": "C1", "KOV Thm 3.4": "C2", "optimal (KOV Thm 3.3)": "C0"}
    for label, R in bound_regions(comp):
        xs, ys = _region_xy(R)
        ax1.fill(xs, ys, color=styles.get(label, "C4"), alpha=0.08)
        ax1.plot(xs, ys, color=styles.get(label, "C4"), lw=1.6, label=label)
    _axes_unit(ax1, r"false alarm $P_{FA}$", r"missed detection $P_{MD}$")
    ax1.set_title("guaranteed privacy regions (smaller is tighter)", fontsize=10)
    ax1.legend(loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=2, fontsize=8)
    P = comp.delta_product
    sd = sum((m.delta * n for m, n in comp.groups()), Fraction(0))
    lo, hi = delta_range if delta_range else (max(1 - P, sd) * Fraction(101, 100) + Fraction(1, 10**9), Fraction(1, 2))
    dgs = [lo * (hi / lo) ** Fraction(i, points - 1) for i in range(points)]
    dgs = [Fraction(float(d)).limit_denominator(10**15) for d in dgs]
    series: dict = {}
    for dg in dgs:
        r = composition_bounds(comp, dg, digits=8)
        for name, b in r.bounds.items():
            if b.value is not None:
                series.setdefault(name, ([], []))
                series[name][0].append(float(dg))
                series[name][1].append(float(b.value.upper) if name != "optimal" else _f(b.value))
    names = {"basic": ("basic (KOV Thm 3.1)", "C3"), "advanced": ("advanced (MV Thm 1.3)", "C1"), "kov_3_4": ("KOV Thm 3.4", "C2"),
             "kov_3_5": ("KOV Thm 3.5", "C4"), "optimal": ("optimal (KOV Thm 3.3)", "C0")}
    if len(comp.groups()) == 1:
        series.pop("kov_3_5", None)  # the same formula as Theorem 3.4 for equal mechanisms
    for name, (xs, ys) in series.items():
        lab, c = names[name]
        ax2.plot(xs, ys, color=c, lw=1.8 if name == "optimal" else 1.4, ls=":" if name == "kov_3_5" else "-", label=lab,
                 marker="." if name == "optimal" else None)
    ax2.set_xscale("log")
    from matplotlib.ticker import FuncFormatter, LogLocator

    # labels at 1, 2 and 5 times powers of ten over a few decades, at powers of ten over more
    # (all minor labels would overlap); numticks as many as that: matplotlib 3.11 drew no label at
    # all for a pure-DP composition's 1e-9 .. 1/2 with its default
    decades = math.log10(float(hi) / float(lo))
    subs = (1.0, 2.0, 5.0) if decades <= 4 else (1.0,)
    ax2.xaxis.set_major_locator(LogLocator(base=10, subs=subs, numticks=len(subs) * (int(decades) + 3)))
    ax2.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:.3g}"))
    ax2.xaxis.set_minor_formatter(FuncFormatter(lambda x, _: ""))
    ax2.set_xlabel(r"$\delta_g$")
    ax2.set_ylabel(r"$\varepsilon_g$ (upper bounds; optimal exact)")
    ax2.grid(True, which="both", alpha=0.3)
    ax2.set_title(r"$\varepsilon_g$ guaranteed at each $\delta_g$", fontsize=10)
    ax2.legend(loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=3, fontsize=8)
    if title:
        fig.suptitle(title, fontsize=12)
    fig.tight_layout(rect=(0, 0, 1, 0.95) if title else None)
    _save(fig, p)
    plt.close(fig)
    return p
