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
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

from _report import cheapest_other, machine, query_rows, table_lines, write_section  # noqa: E402

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


def main() -> int:
    quick = "--quick" in sys.argv[1:]
    lines = ["## The windowed grouped kernel (`benchmarks/bench_groups.py`)", "",
             "Written by `benchmarks/bench_groups.py` (" + machine() + "; the machine shared with other jobs). "
             "Values with no common lattice (eps 0.01, 0.0123456789, 0.0271828). Certified engine, 30 digits, "
             "`method=\"auto\"`; every query on a fresh composition, so each time includes building the kernel. "
             "\"Before\": the cheapest other kernel's OptComp estimate (grouped sum or meet in the middle).", ""]
    from exactdp.errors import CostTooHigh

    for title, make in cases(quick):
        b = cheapest_other(make(), ("grouped", "mitm"))
        print(f"== {title}; before: {b}", flush=True)
        lines += [f"### {title}", "", f"Before: {b}.", ""]
        try:
            rows = query_rows(make, ["1e-5", "1e-10"], [Fraction(1, 2), 1, Fraction(3, 2)])
        except CostTooHigh as e:
            line = f"Now: refused up front ({e})."
            print(line, flush=True)
            lines += [line, ""]
            continue
        lines += table_lines(rows) + [""]
    if not quick:
        write_section("groups", "\n".join(lines))
        print("wrote the groups section of docs/benchmarks.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
