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
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

from _report import cheapest_other, machine, query_rows, table_lines, write_section  # noqa: E402


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


def run(spec: dict) -> list:
    from exactdp import mechanisms

    lattice = "k" in spec  # the three-group cases; the heterogeneous one asks fewer queries
    return query_rows(lambda: mechanisms(**spec), ["1e-5", "1e-10"] if lattice else ["1e-5"],
                      [Fraction(1, 2), 1, Fraction(3, 2)] if lattice else [1])


def main() -> int:
    quick = "--quick" in sys.argv[1:]
    lines = ["## The certified ball-lattice kernel (`benchmarks/bench_balllattice.py`)", "",
             "Written by `benchmarks/bench_balllattice.py` (" + machine() + "; the machine shared with other jobs). "
             "Certified engine, 30 digits, `method=\"auto\"`; every query on a fresh composition, so each time "
             "includes building the kernel. \"Before\": the cheapest other kernel's OptComp estimate.", ""]
    from exactdp import mechanisms

    for title, spec in cases(quick):
        b = cheapest_other(mechanisms(**spec), ("lattice", "grouped", "mitm"))
        print(f"== {title}; before: {b}", flush=True)
        lines += [f"### {title}", "", f"Before: {b}.", ""] + table_lines(run(spec)) + [""]
    if not quick:
        write_section("balllattice", "\n".join(lines))
        print("wrote the balllattice section of docs/benchmarks.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
