"""Privacy regions, composition bounds, Theorem 3.3 and calibration (issue 9): wall-clock times.

Cases (each timed end to end, from the mechanisms to the finished object):

* region: ``composition_region`` of k equal mechanisms, k = 10 .. 10^4: certified
  (eps = 0.01, e^eps transcendental, 15 digits) and exact (e^eps = 1001/1000); and of k
  heterogeneous lattice mechanisms, k = 10 .. 10^3: eps_i = a_i / 1000 with a_i in 1..10
  (certified) and e^eps_i = (1001/1000)^a_i (exact). Seeded.
* bounds: ``composition_bounds`` at delta_g = 1e-6 on the same compositions (four certified
  analytic bounds and OptComp itself).
* Theorem 3.3: ``check_theorem33`` (the exact intersection polygon against the curve), e^eps = 1001/1000.
* calibrate: ``calibrate`` at (eps_g, delta_g) = (1, 1e-6), 15 digits, k = 10 .. 10^4.

The script prints one line per case and writes its section of docs/benchmarks.md. ``--quick`` stops at k = 1000 (homogeneous) and
k = 100 (heterogeneous); ``--exact-max K`` caps the exact homogeneous region (default 10^4).

Usage: ``python benchmarks/bench_regions.py [--quick] [--exact-max K]``
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from _report import machine, timed, write_section  # noqa: E402

from exactdp import mechanisms  # noqa: E402
from exactdp.bounds import calibrate, composition_bounds  # noqa: E402
from exactdp.regions import check_theorem33, composition_region  # noqa: E402


def touched(region):
    """The region with its vertices built (exact ones are converted to enclosures lazily)."""
    region.vertices
    return region


def reps_for(k: int) -> int:
    return 3 if k <= 100 else 1


def hetero(k: int, exact: bool):
    rng = random.Random(9000 + k)
    a = [rng.randint(1, 10) for _ in range(k)]
    if exact:
        return mechanisms(exp_eps=[Fraction(1001, 1000) ** x for x in a]), sum(a)
    return mechanisms(eps=[Fraction(x, 1000) for x in a]), sum(a)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--exact-max", type=int, default=10_000)
    args = ap.parse_args()
    homo_ks = [10, 100, 1000] + ([] if args.quick else [10_000])
    het_ks = [10, 100] + ([] if args.quick else [1000])
    rows = []

    def line(*cells):
        rows.append("| " + " | ".join(str(c) for c in cells) + " |")
        print(*cells, sep="  ", flush=True)

    for k in homo_ks + ([] if args.quick else [2000]):
        for kind in ("certified", "exact"):
            if k == 2000 and kind == "certified":
                continue
            if kind == "exact" and k > args.exact_max:
                line("region", f"{k} equal", kind, "-", f"not run (k > --exact-max {args.exact_max})", "-")
                continue
            ms = mechanisms(eps="0.01", k=k) if kind == "certified" else mechanisms(exp_eps="1001/1000", k=k)
            t, reg = timed(lambda: touched(composition_region(ms, digits=15)), reps_for(k))
            got = "exact" if reg.is_exact else "certified"
            note = "" if got == kind else "auto: the exact curve would exceed MAX_EXACT_CURVE_BITS"
            line("region", f"{k} equal", f"{kind} input, {got} result" if got != kind else kind, len(reg.vertices), f"{t:.3g} s", note)
            t, r = timed(lambda: composition_bounds(ms, "1e-6", digits=15), reps_for(k))
            opt = r.optimal.value.decimal(6)[1]
            line("bounds", f"{k} equal", kind, 5, f"{t:.3g} s", f"OptComp(1e-6) <= {opt}")
    for k in het_ks:
        for kind in ("certified", "exact"):
            ms, A = hetero(k, kind == "exact")
            t, reg = timed(lambda: touched(composition_region(ms, digits=15)), reps_for(k))
            got = "exact" if reg.is_exact else "certified"
            note = "" if got == kind else "auto: the exact curve would exceed MAX_EXACT_CURVE_BITS"
            line("region", f"{k} lattice (A = {A})", f"{kind} input, {got} result" if got != kind else kind, len(reg.vertices),
                 f"{t:.3g} s", note)
            t, r = timed(lambda: composition_bounds(ms, "1e-6", digits=15), reps_for(k))
            opt = r.optimal.value.decimal(6)[1]
            line("bounds", f"{k} lattice (A = {A})", kind, 5, f"{t:.3g} s", f"OptComp(1e-6) <= {opt}")
    for k in [10, 100, 1000]:
        t, c = timed(lambda: check_theorem33(exp_eps="1001/1000", delta="1/10000", k=k), reps_for(k))
        line("Theorem 3.3 check", f"{k} equal", "exact", len(c.theorem), f"{t:.3g} s", f"equal: {c.equal}")
    for k in [10, 50]:
        t, c = timed(lambda: check_theorem33(eps="0.4", delta="1/10", k=k), reps_for(k))
        line("Theorem 3.3 check", f"{k} equal", "exact in Q(e^0.4)", len(c.theorem), f"{t:.3g} s", f"equal: {c.equal}")
    for k in [10, 100, 1000] + ([] if args.quick else [10_000]):
        t, c = timed(lambda: calibrate(1, "1e-6", k, digits=15), reps_for(k))
        line("calibrate", f"{k} queries", "certified", "-", f"{t:.3g} s",
             f"eps0 in [{c.eps0.decimal(8)[0]}, {c.eps0.decimal(8)[1]}], sigma in [{c.gaussian_sigma.decimal(8)[0]}, "
             f"{c.gaussian_sigma.decimal(8)[1]}]")
    md = ["## Privacy regions, bounds, Theorem 3.3, calibration (issue 9)", "",
          f"`benchmarks/bench_regions.py{' --quick' if args.quick else ''}` on {machine()}; wall-clock, median of 3 runs "
          "for k <= 100, one run above. Each time runs from the mechanisms to the finished object (the region's "
          "vertices as enclosures or exact rationals; the four analytic bounds and OptComp).", "",
          "| task | composition | arithmetic | vertices / items | time | result |", "|---|---|---|---|---|---|", *rows, "",
          "The exact regions' cost is dominated by the privacy profile's exact trade-off curve "
          "(`exactdp.profile`: Fraction arithmetic, its collinearity pass); see the report of issue 9."]
    write_section("regions", "\n".join(md))
    print("wrote the regions section of docs/benchmarks.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
