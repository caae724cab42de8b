"""Ground truth for other accountants (issue 13): exactdp's certified optimum timed against each
peer on the same grid, ratios measured in one run; and the batch runner against one process per
query.

* For every case of the audit grid (``exactdp.audit.audit_grid``: ``--quick`` or, by default, the
  full grid without k = 10^5) and every installed peer's knob: the peer's time for the case (all
  its queries, as ``exactdp audit`` runs it) and exactdp's time for the same queries on a fresh
  cache (certified or exact, 20 digits); medians per peer knob and the ratio exactdp / peer.
* Batch: 50 queries answered by ``exactdp batch`` against 50 ``exactdp delta`` processes.

Usage: ``python benchmarks/bench_peers.py [--quick]``. Prints its figures and writes its section of
``docs/benchmarks.md`` (``benchmarks/_report.write_section``).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from _report import machine, write_section  # noqa: E402

from exactdp.audit import audit_grid  # noqa: E402
from exactdp.audit.peers import PEERS, peer_version, timed_run, unsupported  # noqa: E402
from exactdp.testing.check import Case, _optimum  # noqa: E402


def exactdp_time(p, knob, case) -> float:
    groups = [tuple(g) for g in case["groups"]]
    comp = p.composition(knob, groups)
    _optimum.cache_clear()
    t0 = time.perf_counter()
    for q in case["delta_g"]:
        _optimum(comp, "epsilon", Case.of(comp, q).query, 20)
    for q in case["eps_g"]:
        _optimum(comp, "delta", Case.of(comp, q, "delta").query, 20)
    return time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    cases = audit_grid("quick" if args.quick else "full")
    if not args.quick:
        cases = [c for c in cases if sum(n for _, _, n in c["groups"]) <= 10_000]
    rows = []
    for name, p in PEERS.items():
        if p.module and importlib.util.find_spec(p.module) is None:
            print(f"{name}: not installed, skipped")
            continue
        for knob in p.knobs:
            pt, et = [], []
            for c in cases:
                groups = [tuple(g) for g in c["groups"]]
                if unsupported(p, knob, groups):
                    continue
                try:
                    _, s = timed_run(p, knob, groups, list(c["delta_g"]), list(c["eps_g"]))
                    e = exactdp_time(p, knob, c)
                except Exception as ex:  # a peer's or a refused case: not timed
                    print(f"  {name} {knob} {c['id']}: {type(ex).__name__}")
                    continue
                pt.append(s)
                et.append(e)
            if pt:
                ratios = [e / s for e, s in zip(et, pt) if s > 0]
                rows.append((name, peer_version(p.dist) if p.module else "-", knob, len(pt), statistics.median(pt),
                             statistics.median(et), statistics.median(ratios)))
                print(f"{name} {knob}: {len(pt)} cases, peer median {rows[-1][4]:.3g} s, exactdp median "
                      f"{rows[-1][5]:.3g} s, median ratio exactdp/peer {rows[-1][6]:.3g}", flush=True)
    # batch against a process per query
    lines = [json.dumps({"mechanisms": {"eps": ["0.1"], "k": 10 + i}, "eps_g": "1"}) for i in range(50)]
    d = tempfile.mkdtemp()
    inp = os.path.join(d, "q.jsonl")
    with open(inp, "w") as f:
        f.write("\n".join(lines) + "\n")
    exe = os.path.join(os.path.dirname(sys.executable), "exactdp")
    t0 = time.perf_counter()
    subprocess.run([exe, "batch", "--in", inp, "--out", os.path.join(d, "a.jsonl"), "--no-progress"], check=True,
                   capture_output=True)
    tb = time.perf_counter() - t0
    t0 = time.perf_counter()
    for i in range(50):
        subprocess.run([exe, "delta", "--eps", "0.1", "-k", str(10 + i), "--eps-g", "1", "--json"], check=True,
                       capture_output=True)
    tp = time.perf_counter() - t0
    print(f"batch: 50 queries in {tb:.2f} s; 50 processes: {tp:.2f} s (x{tp / tb:.1f})")
    md = ["## Ground truth for other accountants (bench_peers.py)", "",
          f"{machine()}; grid: {'quick' if args.quick else 'full, k <= 10^4'} (exactdp.audit.audit_grid); "
          "each case: all its queries (delta_g and eps_g), peer as `exactdp audit` runs it, exactdp on a fresh cache "
          "(20 digits). Medians over the cases; ratio = exactdp / peer, per case, median.", "",
          "| peer (version) | knob | cases | peer median (s) | exactdp median (s) | median ratio exactdp/peer |",
          "|---|---|---:|---:|---:|---:|"]
    for name, ver, knob, n, ps, es, r in rows:
        md.append(f"| {name} ({ver}) | {knob} | {n} | {ps:.3g} | {es:.3g} | {r:.3g} |")
    md += ["", f"Batch: 50 `delta` queries in one `exactdp batch` process {tb:.2f} s; as 50 `exactdp delta` processes "
           f"{tp:.2f} s ({tp / tb:.1f} times longer)."]
    write_section("peers", "\n".join(md))
    return 0


if __name__ == "__main__":
    sys.exit(main())
