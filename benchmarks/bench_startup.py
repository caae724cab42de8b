"""Start-up cost of the command (issue 8): ``exactdp --help`` against ``python -c pass``.

``exactdp --help`` and argument errors must not load the numeric stack (FLINT, gmpy2,
mpmath, NumPy, SymPy); this script measures what a user pays per invocation, and what
``import exactdp`` plus a first computation costs, each as the median of N runs of a fresh
process, side by side in the same run.

Usage: ``python benchmarks/bench_startup.py [--quick]``; writes its section of docs/benchmarks.md.
``--modules`` prints, for each command, the numeric packages and engine modules it loads.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _report import machine, write_section  # noqa: E402

EXACTDP = os.path.join(os.path.dirname(sys.executable), "exactdp")

CASES = [
    ("python -c pass", [sys.executable, "-c", "pass"]),
    ("exactdp --help", [EXACTDP, "--help"]),
    ("exactdp delta (bad input, exit 2)", [EXACTDP, "delta", "--eps", "-1", "--eps-g", "0"]),
    ("python -c 'import exactdp'", [sys.executable, "-c", "import exactdp"]),
    ("exactdp delta --exp-eps 2,2 --exp-eps-g 2 (a computation)", [EXACTDP, "delta", "--exp-eps", "2,2", "--exp-eps-g", "2"]),
    # issue 22's first computation: certified (e^0.1 is transcendental), the homogeneous kernel
    ("exactdp delta --eps 0.1 -k 10 --eps-g 0.5 (certified)", [EXACTDP, "delta", "--eps", "0.1", "-k", "10", "--eps-g", "0.5"]),
]


def _time(cmd: list[str], n: int) -> list[float]:
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        out.append(time.perf_counter() - t0)
    return out


def modules_loaded(argv: list[str]) -> list[str]:
    """The top-level numeric packages an in-process ``exactdp ARGV`` leaves loaded, and the
    engine modules (what the first computation pays for; issue 22)."""
    code = ("import sys, contextlib, io\nfrom exactdp.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
            "    try:\n        main(%r)\n    except SystemExit:\n        pass\n"
            "print('|' + ' '.join(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('flint', 'gmpy2', 'mpmath', 'numpy', 'sympy', 'threadpoolctl') and '.' not in m)))\n"
            "print('|' + ' '.join(sorted(m for m in sys.modules if m.startswith('exactdp.engines.'))))\n" % (argv,))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.splitlines()
    return [line[1:] for line in out[-2:]]


def main() -> int:
    if "--modules" in sys.argv[1:]:
        for name, cmd in CASES[1:]:
            if cmd[0] == EXACTDP:
                numeric, engines = modules_loaded(cmd[1:])
                print(f"{name}\n  numeric: {numeric or '-'}\n  engines: {engines or '-'}")
        return 0
    n = 5 if "--quick" in sys.argv[1:] else 21
    rows = []
    base = None
    # interleave the cases round by round, so that machine noise hits each alike
    times: dict = {name: [] for name, _ in CASES}
    for _ in range(n):
        for name, cmd in CASES:
            times[name] += _time(cmd, 1)
    for name, _ in CASES:
        med = statistics.median(times[name])
        base = base or med
        rows.append((name, med, min(times[name]), max(times[name]), med / base))
        print(f"{name:60s} median {med * 1000:7.1f} ms  (min {min(times[name]) * 1000:.1f}, max {max(times[name]) * 1000:.1f})  x{med / base:.2f}")
    md = ["## Start-up (`benchmarks/bench_startup.py`)", "",
          f"Machine: {machine()}. Each command run {n} times as a fresh process, the cases interleaved "
          "round by round; median (min, max) wall time, and the ratio to `python -c pass` in the same run. "
          "`exactdp --help` and argument errors load no numeric module (checked by "
          "`tests/architecture/test_layers.py`).", "",
          "| command | median | min | max | / python -c pass |", "|---|---|---|---|---|"]
    for name, med, lo, hi, ratio in rows:
        md.append(f"| `{name}` | {med * 1000:.1f} ms | {lo * 1000:.1f} ms | {hi * 1000:.1f} ms | {ratio:.2f} |")
    write_section("startup", "\n".join(md))
    return 0


if __name__ == "__main__":
    sys.exit(main())
