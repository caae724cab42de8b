"""Write one benchmark's section of docs/benchmarks.md (between begin/end markers)."""

from __future__ import annotations

import os
import platform
import re
import statistics
import time
from fractions import Fraction

DOC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "benchmarks.md")

HEADER = """# Benchmarks

Measured by the scripts in `benchmarks/` (`make bench` runs them all) on the project's
2-core machine; medians of repeated runs, ratios measured in the same run. Each section is
rewritten by its script; the figures are whatever the last run printed.
"""


def machine() -> str:
    return f"{platform.python_implementation()} {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cores"


def timed(fn, reps: int = 1):
    """``(median seconds over reps runs, the last result)`` of ``fn()``."""
    ts, out = [], None
    for _ in range(reps):
        t = time.perf_counter()
        out = fn()
        ts.append(time.perf_counter() - t)
    return statistics.median(ts), out


def write_section(name: str, markdown: str) -> None:
    os.makedirs(os.path.dirname(DOC), exist_ok=True)
    text = open(DOC).read() if os.path.exists(DOC) else HEADER
    block = f"<!-- begin:{name} -->\n{markdown.rstrip()}\n<!-- end:{name} -->"
    pat = re.compile(rf"<!-- begin:{re.escape(name)} -->.*?<!-- end:{re.escape(name)} -->", re.S)
    if pat.search(text):
        text = pat.sub(lambda _m: block, text)
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    with open(DOC, "w") as f:
        f.write(text)


def cheapest_other(comp, names) -> str:
    """The cheapest of the kernels ``names`` by its estimate for an OptComp of ``comp`` (in balls),
    and whether it was over the limits: the "Before" column of the kernel benchmarks."""
    from exactdp.engines.base import merge_by_w
    from exactdp.engines.choose import detect_lattice_groups, estimate_method
    from exactdp.engines.costs import EVALS_OPTCOMP, current_limits
    from exactdp.events import as_composition

    groups = merge_by_w(as_composition(comp))
    lat = detect_lattice_groups([v for v, _ in groups])
    best = None
    for name in names:
        est = estimate_method(name, groups, lat, kind="arb", prec=132)
        if est is None:
            continue
        tot = est[0].then(est[1], EVALS_OPTCOMP)
        if best is None or tot.seconds < best[1].seconds:
            best = (name, tot)
    sec, mem = current_limits()
    refused = best[1].seconds > sec or best[1].bytes > mem
    return f"{best[0]}: {best[1].text()}" + (" (refused)" if refused else "")


def query_rows(make, deltas, factors, *, method: str = "auto") -> list:
    """``(query, method, seconds, value, relative width)`` of certified OptComp at each ``delta_g``
    of ``deltas`` and of delta_g at the first answer times each of ``factors``, each on a fresh
    composition ``make()`` (so each time includes building the kernel), 30 digits, by ``method``."""
    from exactdp import composed_delta, optcomp

    rows = []
    ans = None
    for dg in deltas:
        t0 = time.perf_counter()
        r = optcomp(make(), dg, engine="certified", digits=30, method=method)
        dt = time.perf_counter() - t0
        ans = ans if ans is not None else r.lower
        rows.append((f"OptComp at delta_g = {dg}", r.method, dt, f"eps_g = {float(r.lower):.10g}",
                     float((r.upper - r.lower) / r.lower)))
    for f in factors:
        eg = ans * Fraction(f)
        t0 = time.perf_counter()
        r = composed_delta(make(), eps_g=eg, engine="certified", digits=30, method=method)
        dt = time.perf_counter() - t0
        rows.append((f"delta_g at eps_g = {float(eg):.6g}", r.method, dt, f"delta_g = {float(r.lower):.6g}",
                     float((r.upper - r.lower) / r.lower) if r.lower else 0.0))
    return rows


def table_lines(rows) -> list:
    """The markdown table of :func:`query_rows`, each row also printed as it is formatted."""
    lines = ["| query | method | seconds | value | relative width |", "|---|---|---|---|---|"]
    for q, m, dt, v, w in rows:
        row = f"| {q} | {m} | {dt:.2f} | {v} | {w:.1e} |"
        print(row, flush=True)
        lines.append(row)
    return lines
