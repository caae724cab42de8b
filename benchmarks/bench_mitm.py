"""Meet in the middle at scale: arbitrary decimal eps to k = 48 (issue 14).

Cases: k = 32, 40, 44, 48 mechanisms whose eps are 17-significant-digit floats
(``random.Random(3).uniform(0.01, 0.5)``, repr'd: the issue's case), certified, 30 digits:
delta_g at eps_g = 3 and OptComp at delta_g = 1e-6, each on a fresh composition in a fresh
process (so every time includes building the kernel), serially and split over a local Dask
cluster of 2 worker processes (``scheduler=`` its address; the cluster is started before the
clock, and ``--workers 2`` adds its start-up, about 2-4 s). Peak memory: the process's
``VmHWM`` (serial) and the largest worker's (Dask; the client's own stays near its import
size). "Before" is the estimate the previous kernel (the per-class form) was refused with.

No timing is asserted anywhere (tests check values only).

Usage: ``python benchmarks/bench_mitm.py [--quick]`` (``--quick``: k = 32 and 40). Prints a
markdown table and writes the section "mitm" of ``docs/benchmarks.md``
(``_report.write_section``; a separate page under ``docs/`` would have to be in the site's nav).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

from _report import machine, write_section  # noqa: E402

CHILD = r"""
import json, random, sys, time
def hwm():
    for line in open('/proc/self/status'):
        if line.startswith('VmHWM'):
            return int(line.split()[1]) * 1024
def main():
    spec = json.loads(sys.argv[1])
    from exactdp import Mechanism, composed_delta, optcomp
    rng = random.Random(3)
    ms = [Mechanism(eps=repr(rng.uniform(0.01, 0.5))) for _ in range(spec["k"])]
    sched = cluster = client = None
    if spec["dask"]:
        from dask.distributed import Client, LocalCluster
        cluster = LocalCluster(n_workers=spec["dask"], threads_per_worker=1, processes=True, dashboard_address=None)
        sched = cluster.scheduler_address
        client = Client(sched)
    t0 = time.perf_counter()
    if spec["query"] == "delta":
        r = composed_delta(ms, eps_g=3, engine="certified", method="mitm", scheduler=sched)
    else:
        r = optcomp(ms, "1e-6", engine="certified", method="mitm", scheduler=sched)
    sec = time.perf_counter() - t0
    peak = hwm()
    if client is not None:
        peak = max(client.run(hwm).values())
        client.close()
        cluster.close()
    lo, hi = r.value.decimal(30)
    print(json.dumps({"seconds": sec, "peak": peak, "lo": lo, "hi": hi, "prec": r.prec}))
if __name__ == "__main__":
    main()
"""


def before(k: int) -> str:
    """The previous kernel's estimate for the delta_g query (it was refused above the limits)."""
    import random

    from exactdp import Mechanism
    from exactdp.engines.base import merge_by_w
    from exactdp.engines.costs import EVALS_DELTA
    from exactdp.engines.mitm import half_classes, mitm_cost, split_groups
    from exactdp.events import as_composition

    rng = random.Random(3)
    groups = merge_by_w(as_composition([Mechanism(eps=repr(rng.uniform(0.01, 0.5))) for _ in range(k)]))
    left, right = split_groups(groups)
    b, e = mitm_cost(half_classes(left), half_classes(right), len(groups), "arb", 136, 64.0)
    t = b.then(e, EVALS_DELTA)
    return f"{t.seconds:.3g} s, {t.bytes / 2**30:.3g} GiB"


def run(k: int, query: str, dask: int) -> dict:
    spec = {"k": k, "query": query, "dask": dask}
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-c", CHILD, json.dumps(spec)], capture_output=True, text=True, timeout=1800,
                       cwd=ROOT)
    if p.returncode != 0:
        return {"error": p.stderr.strip().splitlines()[-1][:200] if p.stderr.strip() else "failed",
                "wall": time.perf_counter() - t0}
    return json.loads(p.stdout.strip().splitlines()[-1])


def main() -> None:
    quick = "--quick" in sys.argv
    ks = [32, 40] if quick else [32, 40, 44, 48]
    load0 = os.getloadavg()[0]
    rows = []
    for k in ks:
        for query in ("delta", "optcomp"):
            res = {}
            for dask in (0, 2):
                res[dask] = run(k, query, dask)
                r = res[dask]
                print(f"k={k} {query} {'serial' if not dask else 'dask x2'}: " +
                      (f"{r['seconds']:.1f} s, peak {r['peak'] / 2**20:.0f} MiB, [{r['lo']}, {r['hi']}]"
                       if "seconds" in r else r["error"]), flush=True)
            same = all("lo" in res[d] for d in res) and res[0]["lo"] == res[2]["lo"] and res[0]["hi"] == res[2]["hi"]
            rows.append((k, query, res, same))
    md = [
        "## Meet in the middle at scale (`benchmarks/bench_mitm.py`)",
        "",
        f"{machine()}; k mechanisms with 17-significant-digit eps (`random.Random(3).uniform(0.01, 0.5)`, repr'd),",
        "certified, 30 digits, method `mitm` (its vector form); each query on a fresh composition in a fresh process,",
        "build included; Dask: a local cluster of 2 worker processes started before the clock, peak = the largest",
        "worker's (its resident pages include the shared form it maps: one copy in physical memory). \"Before\":",
        "the estimate the per-class form was refused with (delta_g query). The machine is shared: load average",
        f"{load0:.1f} at the start, {os.getloadavg()[0]:.1f} at the end; with another busy process the two workers",
        "share one core and Dask gains nothing (k = 44 below), with both cores free it halves the evaluations.",
        "",
        "| k | query | serial | serial peak | Dask x2 | worker peak | identical | value | before |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for k, query, res, same in rows:
        def cell(r):
            return (f"{r['seconds']:.1f} s", f"{r['peak'] / 2**20:.0f} MiB") if "seconds" in r else (r["error"], "")
        s, sp = cell(res[0])
        d, dp = cell(res[2])
        q = "delta_g at eps_g = 3" if query == "delta" else "OptComp at 1e-6"
        val = f"[{res[0]['lo'][:12]}..., ...{res[0]['hi'][-4:]}]" if "lo" in res[0] else ""
        md.append(f"| {k} | {q} | {s} | {sp} | {d} | {dp} | {'yes' if same else 'NO'} | {val} | "
                  f"{before(k) if query == 'delta' else ''} |")
    text = "\n".join(md)
    print()
    print(text)
    if not quick:
        write_section("mitm", text)


if __name__ == "__main__":
    main()
