"""The certified ball-lattice kernel at scale (issue 14, "grouped and lattice kernels at scale").

Cases (each query on a fresh composition, so every time includes building the kernel):

* three groups of ``n`` mechanisms, eps 0.01 / 0.02 / 0.03 (``u = e^(1/100)``, exponents
  1, 2, 3), ``n = 10^5`` (the issue's case) and ``10^6``: OptComp at ``delta_g = 1e-5`` and
  ``1e-10``, and delta_g at ``eps_g`` = the OptComp value at 1e-5 times 0.5, 1 and 1.5;
* ten groups of 10^4 (eps 0.01 .. 0.10);
* 10^4 mechanisms with eps drawn from ``{1..100}/1000`` (seed 1; ``u = e^(1/1000)``,
  about 100 exponents, ``A ~ 5e5``): OptComp at 1e-5 and delta_g at its answer.

"Before" is what ``auto`` did without this kernel: the estimate of the cheapest other
kernel (the exact-coefficient lattice), and whether it was over the limits (refused).
Certified, 30 digits. No timing is asserted anywhere (tests check values only).

Usage: ``python benchmarks/bench_balllattice.py [--quick]`` (``--quick``: the three groups
of 10^5 only). Prints a markdown table and writes the section "balllattice" of
``docs/benchmarks.md`` (``_report.write_section``).
"""

from __future__ import annotations

import os
import random
import sys
import time
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

from _report import machine, write_section  # noqa: E402


def cases(quick: bool) -> list:
    out = [("3 groups x 10^5 (eps 0.01/0.02/0.03)", {"eps": ["0.01", "0.02", "0.03"], "k": 10**5})]
    if quick:
        return out
    rng = random.Random(1)
    het = [f"{rng.randint(1, 100)}/1000" for _ in range(10**4)]
    out += [
        ("3 groups x 10^6 (eps 0.01/0.02/0.03)", {"eps": ["0.01", "0.02", "0.03"], "k": 10**6}),
        ("10 groups x 10^4 (eps 0.01..0.10)", {"eps": [f"0.{j:02d}" for j in range(1, 11)], "k": 10**4}),
        ("10^4 mechanisms, eps in {1..100}/1000", {"eps": het}),
    ]
    return out


def before(spec: dict) -> str:
    """The cheapest other kernel's estimate for an OptComp, and whether it was refused."""
    from exactdp import mechanisms
    from exactdp.engines.base import merge_by_w
    from exactdp.engines.choose import detect_lattice_groups, estimate_method
    from exactdp.engines.costs import EVALS_OPTCOMP, current_limits
    from exactdp.events import as_composition

    groups = merge_by_w(as_composition(mechanisms(**spec)))
    lat = detect_lattice_groups([v for v, _ in groups])
    best = None
    for name in ("lattice", "grouped", "mitm"):
        est = estimate_method(name, groups, lat, kind="arb", prec=132)
        if est is None:
            continue
        tot = est[0].then(est[1], EVALS_OPTCOMP)
        if best is None or tot.seconds < best[1].seconds:
            best = (name, tot)
    sec, mem = current_limits()
    refused = best[1].seconds > sec or best[1].bytes > mem
    return f"{best[0]}: {best[1].text()}" + (" (refused)" if refused else "")


def run(spec: dict, quick: bool) -> list:
    from exactdp import composed_delta, mechanisms, optcomp

    rows = []
    ans = None
    for dg in (["1e-5"] if "k" not in spec else ["1e-5", "1e-10"]):
        ms = mechanisms(**spec)
        t0 = time.perf_counter()
        r = optcomp(ms, dg, engine="certified", digits=30)
        dt = time.perf_counter() - t0
        ans = ans if ans is not None else r.lower
        rows.append((f"OptComp at delta_g = {dg}", r.method, dt, f"eps_g = {float(r.lower):.10g}",
                     float((r.upper - r.lower) / r.lower)))
    factors = [Fraction(1)] if "k" not in spec else [Fraction(1, 2), Fraction(1), Fraction(3, 2)]
    for f in factors:
        ms = mechanisms(**spec)
        eg = ans * f
        t0 = time.perf_counter()
        r = composed_delta(ms, eps_g=eg, engine="certified", digits=30)
        dt = time.perf_counter() - t0
        rows.append((f"delta_g at eps_g = {float(eg):.6g}", r.method, dt, f"delta_g = {float(r.lower):.6g}",
                     float((r.upper - r.lower) / r.lower) if r.lower else 0.0))
    return rows


def main() -> int:
    quick = "--quick" in sys.argv[1:]
    lines = ["## The certified ball-lattice kernel (`benchmarks/bench_balllattice.py`)", "",
             "Written by `benchmarks/bench_balllattice.py` (" + machine() + "; the machine shared with other jobs). "
             "Certified engine, 30 digits, `method=\"auto\"`; every query on a fresh composition, so each time "
             "includes building the kernel. \"Before\": the cheapest other kernel's OptComp estimate.", ""]
    for title, spec in cases(quick):
        b = before(spec)
        print(f"== {title}; before: {b}", flush=True)
        lines += [f"### {title}", "", f"Before: {b}.", "",
                  "| query | method | seconds | value | relative width |", "|---|---|---|---|---|"]
        for q, m, dt, v, w in run(spec, quick):
            row = f"| {q} | {m} | {dt:.2f} | {v} | {w:.1e} |"
            print(row, flush=True)
            lines.append(row)
        lines.append("")
    if not quick:
        write_section("balllattice", "\n".join(lines))
        print("wrote the balllattice section of docs/benchmarks.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
