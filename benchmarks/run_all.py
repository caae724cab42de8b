"""Run every benchmark script in turn (``make bench``); each prints its figures and
rewrites its own section of ``docs/benchmarks.md``.

Usage: ``python benchmarks/run_all.py [--quick]`` (``--quick`` is passed on to every
script: fewer repetitions and smaller cases).
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPTS = ["bench_startup.py", "bench_optcomp.py", "bench_approx.py", "bench_reductions.py", "bench_regions.py",
           "bench_interactive.py", "bench_gdp.py", "bench_peers.py", "bench_scale.py", "bench_balllattice.py",
           "bench_groups.py", "bench_mitm.py", "bench_auto.py", "bench_accounting.py", "bench_hetero.py"]


def main() -> int:
    extra = ["--quick"] if "--quick" in sys.argv[1:] else []
    status = 0
    for name in SCRIPTS:
        print(f"== {name}", flush=True)
        t0 = time.perf_counter()
        rc = subprocess.call([sys.executable, str(HERE / name), *extra], cwd=HERE.parent)
        print(f"== {name}: exit {rc} after {time.perf_counter() - t0:.0f} s", flush=True)
        status = status or rc
    return status


if __name__ == "__main__":
    sys.exit(main())
