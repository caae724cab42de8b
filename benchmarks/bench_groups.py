"""The windowed grouped kernel at scale (issue 14, "a few distinct eps values with large counts").

Values that share no lattice (eps = 0.01 beside 0.0123456789, and 0.0271828 for a third group),
so the lattice kernels do not apply and the grouped sum and meet in the middle are what
``auto`` had before:

* two groups of ``k`` mechanisms, ``k`` from 10^4 to 10^8;
* three groups of 1000, 3000 and 10^4;
* 5 x 10^6 mechanisms of eps = 0.01 beside five mechanisms of other eps.

For each: OptComp at ``delta_g = 1e-5`` and ``1e-10`` and delta_g at ``eps_g`` = the OptComp
value at 1e-5 times 0.5, 1 and 1.5, each on a fresh composition (so each time includes the
kernel's builds), certified, 30 digits, ``method="auto"``. "Before": the estimate of the
cheapest other kernel (grouped or meet in the middle) for an OptComp, and whether it was over
the limits (refused). No timing is asserted anywhere (tests check values only).

Usage: ``python benchmarks/bench_groups.py [--quick]`` (``--quick``: two groups of 10^5 only).
Prints a markdown table and writes the section "groups" of ``docs/benchmarks.md``
(``_report.write_section``).
"""

from __future__ import annotations

import os
import sys
import time
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

from _report import machine, write_section  # noqa: E402

TWO = ["0.01", "0.0123456789"]
THREE = TWO + ["0.0271828"]


def cases(quick: bool) -> list:
    from exactdp import Composition, Mechanism, mechanisms

    if quick:
        return [("2 groups x 10^5", lambda: mechanisms(eps=TWO, k=10**5))]
    out = [(f"2 groups x 10^{e}", (lambda e=e: mechanisms(eps=TWO, k=10**e))) for e in (4, 5, 6, 7, 8)]
    out += [(f"3 groups x {k}", (lambda k=k: mechanisms(eps=THREE, k=k))) for k in (1000, 3000, 10**4)]
    out.append(("5 x 10^6 of eps 0.01 + 5 others", lambda: Composition.of([Mechanism(eps="0.01")]).repeat(5 * 10**6)
                + mechanisms(eps=["0.0123456789", "0.05", "0.1", "0.2", "0.3"])))
    return out


def before(make) -> str:
    """The cheapest other kernel's estimate for an OptComp, and whether it was refused."""
    from exactdp.engines.base import merge_by_w
    from exactdp.engines.choose import detect_lattice_groups, estimate_method
    from exactdp.engines.costs import EVALS_OPTCOMP, current_limits
    from exactdp.events import as_composition

    groups = merge_by_w(as_composition(make()))
    lat = detect_lattice_groups([v for v, _ in groups])
    best = None
    for name in ("grouped", "mitm"):
        est = estimate_method(name, groups, lat, kind="arb", prec=132)
        if est is None:
            continue
        tot = est[0].then(est[1], EVALS_OPTCOMP)
        if best is None or tot.seconds < best[1].seconds:
            best = (name, tot)
    sec, mem = current_limits()
    refused = best[1].seconds > sec or best[1].bytes > mem
    return f"{best[0]}: {best[1].text()}" + (" (refused)" if refused else "")


def run(make) -> list:
    from exactdp import composed_delta, optcomp

    rows = []
    ans = None
    for dg in ("1e-5", "1e-10"):
        ms = make()
        t0 = time.perf_counter()
        r = optcomp(ms, dg, engine="certified", digits=30)
        dt = time.perf_counter() - t0
        ans = ans if ans is not None else r.lower
        rows.append((f"OptComp at delta_g = {dg}", r.method, dt, f"eps_g = {float(r.lower):.10g}",
                     float((r.upper - r.lower) / r.lower)))
    for f in (Fraction(1, 2), Fraction(1), Fraction(3, 2)):
        ms = make()
        eg = ans * f
        t0 = time.perf_counter()
        r = composed_delta(ms, eps_g=eg, engine="certified", digits=30)
        dt = time.perf_counter() - t0
        rows.append((f"delta_g at eps_g = {float(eg):.6g}", r.method, dt, f"delta_g = {float(r.lower):.6g}",
                     float((r.upper - r.lower) / r.lower) if r.lower else 0.0))
    return rows


def main() -> int:
    quick = "--quick" in sys.argv[1:]
    lines = ["## The windowed grouped kernel (`benchmarks/bench_groups.py`)", "",
             "Written by `benchmarks/bench_groups.py` (" + machine() + "; the machine shared with other jobs). "
             "Values with no common lattice (eps 0.01, 0.0123456789, 0.0271828). Certified engine, 30 digits, "
             "`method=\"auto\"`; every query on a fresh composition, so each time includes building the kernel. "
             "\"Before\": the cheapest other kernel's OptComp estimate (grouped sum or meet in the middle).", ""]
    from exactdp.errors import CostTooHigh

    for title, make in cases(quick):
        b = before(make)
        print(f"== {title}; before: {b}", flush=True)
        lines += [f"### {title}", "", f"Before: {b}.", ""]
        try:
            rows = run(make)
        except CostTooHigh as e:
            line = f"Now: refused up front ({e})."
            print(line, flush=True)
            lines += [line, ""]
            continue
        lines += ["| query | method | seconds | value | relative width |", "|---|---|---|---|---|"]
        for q, m, dt, v, w in rows:
            row = f"| {q} | {m} | {dt:.2f} | {v} | {w:.1e} |"
            print(row, flush=True)
            lines.append(row)
        lines.append("")
    if not quick:
        write_section("groups", "\n".join(lines))
        print("wrote the groups section of docs/benchmarks.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
