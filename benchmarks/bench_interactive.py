"""Benchmarks of exactdp.interactive: the cost of enumerating adversaries against tree size,
beside the dynamic programme; the Section 6 trial rate; Theorem 4.1's best order for large k.

Prints its figures and writes its section of ``docs/benchmarks.md`` (formerly merged into
docs/benchmarks.md). Usage: ``python benchmarks/bench_interactive.py [--quick]``.
"""

from __future__ import annotations

import os
import random
import sys
import time
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _report import machine, write_section  # noqa: E402

from exactdp import mechanisms  # noqa: E402
from exactdp.experiments.vw_section6 import run_trial  # noqa: E402
from exactdp.interactive import (  # noqa: E402
    concurrent,
    count_adversaries,
    mechanism_tradeoff,
    random_two_round,
    randomized_response,
    vw_bound,
)


def timed(fn, reps=1):
    best = float("inf")
    out = None
    for _ in range(reps):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def main() -> int:
    quick = "--quick" in sys.argv[1:]
    rng = random.Random(1)
    _, a = random_two_round(rng, 6)
    _, b = random_two_round(rng, 6)
    cases = [
        ("RR", [randomized_response(2)]),
        ("2-round (Section 6)", [a]),
        ("ConComp(RR, RR)", [randomized_response(2), randomized_response(3)]),
        ("ConComp(RR, RR, RR)", [randomized_response(2)] * 3),
        ("ConComp(2-round, RR)", [a, randomized_response(2)]),
        ("ConComp(RR x 4)", [randomized_response(2)] * 4),
        ("ConComp(2-round, RR, RR)", [a, randomized_response(2), randomized_response(3)]),
        ("ConComp(2-round, 2-round)", [a, b]),
        ("ConComp(RR x 6)", [randomized_response(2)] * 6),
    ]
    rows = []
    for name, ms in cases:
        m = ms[0] if len(ms) == 1 else concurrent(*ms)
        s = m.size()
        n = count_adversaries(m)
        tdp, f = timed(lambda: mechanism_tradeoff(m), 3)
        limit = 3000 if quick else 12000
        if n <= limit:
            ten, g = timed(lambda: mechanism_tradeoff(m, method="enumerate"))
            assert f == g
            en = f"{ten:.3g} s ({n / ten:.0f} adversaries/s)"
        else:
            en = f"refused (CostTooHigh: {n:.3g} > limit)" if n > 20000 else f"skipped here (est. {n / 250:.0f} s)"
        rows.append((name, s["nodes"], s["histories"], n, tdp, en))
        print(f"{name}: nodes {s['nodes']}, histories {s['histories']}, adversaries {n:.4g}, dp {tdp:.3g} s, enumerate {en}",
              flush=True)
    # Section 6 trial rate
    nt = 20 if quick else 100
    t0 = time.perf_counter()
    for i in range(nt):
        run_trial(1, i, Fraction(1, 100), 100)
    rate = nt / (time.perf_counter() - t0)
    print(f"Section 6: {rate:.1f} trials/s (each: PrivLoss twice, LP at the tight eps, LP just below)")
    # Theorem 4.1 best order
    orows = []
    for k in ([1000] if quick else [1000, 5000, 10000]):
        rr = random.Random(k)
        ws = [Fraction(rr.randint(11, 30), 10) for _ in range(k)]
        ds = [Fraction(rr.randint(0, 100), 10**6) for _ in range(k)]
        t, _ = timed(lambda: vw_bound(mechanisms(exp_eps=ws, delta=ds), digits=30))
        te, _ = timed(lambda: vw_bound(mechanisms(eps=[str(Fraction(rr.randint(1, 20), 100)) for _ in range(k)], delta=ds), digits=30))
        orows.append((k, t, te))
        print(f"Theorem 4.1 best order, k = {k}: exact e^eps {t:.3g} s, eps given (Arb) {te:.3g} s", flush=True)
    md = ["## Interactive mechanisms (exactdp.interactive)", "",
          f"Measured by `benchmarks/bench_interactive.py`{' --quick' if quick else ''} on {machine()}.", "",
          "Trade-off function against the best adversary: the dynamic programme (Vadhan-Zhang Claim 3.4 over "
          "the tree) against enumerating every deterministic adversary (the two agree on every row). "
          "Enumeration is refused beyond 20,000 adversaries (`CostTooHigh` with the exact count).", "",
          "| mechanism | nodes | histories | adversaries | dynamic programme | enumeration |",
          "|---|---:|---:|---:|---:|---|"]
    for name, nodes, hist, n, tdp, en in rows:
        md.append(f"| {name} | {nodes} | {hist} | {n:.4g} | {tdp:.3g} s | {en} |")
    md += ["", f"Section 6 experiment: {rate:.1f} trials per second (serial), each with PrivLoss by enumeration and by "
           "the dynamic programme, the LP at the tight eps with exact verification, and the LP just below with an "
           "exact Farkas certificate.", "",
           "| k (Theorem 4.1 best order) | exact e^eps_i | eps_i given (Arb comparisons) |", "|---:|---:|---:|"]
    for k, t, te in orows:
        md.append(f"| {k} | {t:.3g} s | {te:.3g} s |")
    write_section("interactive", "\n".join(md))
    print("wrote the interactive section of docs/benchmarks.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
