"""Run both audit suites for every registered peer, then write docs/peers.md (``make scoreboard``).

    python docs/tools/scoreboard.py run  [--dir build/scoreboard] [--grid quick|full] [--suite S] [--peer P]
    python docs/tools/scoreboard.py page [--dir build/scoreboard]

``run`` iterates over the registries (``exactdp.audit.peers.PEERS`` for the (eps, delta) suite,
``exactdp.audit.dpsgd.DPSGD_PEERS`` for the DP-SGD suite), so a peer added to either is run
without an edit here. Each (suite, peer) runs in its own process (``one``): the audit's records
go to ``DIR/<suite>-<peer>.jsonl`` through the audit's state file (``.jsonl.partial``: a killed
run loses no finished case, and the next ``run`` resumes it), and the process writes
``DIR/<suite>-<peer>.meta.json``: its peak resident memory (``VmHWM``; the data segment is capped at
:data:`MAX_MEMORY`), wall and CPU time, the
load average at its start and end, and how many cases it resumed. A peer that cannot be imported
gets a meta file saying so (the page says "not installed"). Finished (suite, peer) pairs are not
run again; delete their files to re-measure.

In the same run, ``exactdp`` (a pseudo-peer of both suites) times exactdp's certified answer for
every case: each DP-SGD corpus vector recomputed at its own digits (:func:`exactdp.testing.dpsgd.reference`,
checked against the stored enclosure), and each (eps, delta) grid case's queries at
:data:`OPTCOMP_DIGITS` digits (:func:`exactdp.testing.check.optimum`). The page divides each
peer's median time by exactdp's over the same cases.
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import json
import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # this checkout's exactdp, not an installed one

SUITES = ("optcomp", "dpsgd")
#: Digits of exactdp's timed certified answer on the (eps, delta) grid (the DP-SGD corpus's cases
#: keep their own: 3 to 12).
OPTCOMP_DIGITS = 12
#: The pseudo-peer that times exactdp's certified answers.
EXACTDP = "exactdp"
#: Each peer process's data limit (``RLIMIT_DATA``: heap and private mappings, which NumPy's arrays
#: are): an allocation past it raises MemoryError inside the peer, which the audit records for
#: that case (the page counts it as not run), and the process goes on.
MAX_MEMORY = 2 * 2**30


def registered(suite: str) -> dict:
    """Peer name -> (import module, pip extra) of a suite's registry."""
    if suite == "dpsgd":
        from exactdp.audit.dpsgd import DPSGD_PEERS

        return {n: (p.module, f"exactdp[{p.extra}]") for n, p in DPSGD_PEERS.items()}
    from exactdp.audit.peers import PEERS

    return {n: (p.module, "exactdp[peers]") for n, p in PEERS.items()}


def installed(module: str) -> bool:
    if not module:
        return True
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True


def files(d: str, suite: str, name: str) -> tuple[str, str]:
    base = os.path.join(d, f"{suite}-{name}")
    return base + ".jsonl", base + ".meta.json"


def machine() -> str:
    """As ``benchmarks/_report.machine()``, with the memory."""
    mem = ""
    try:
        with open("/proc/meminfo") as f:
            kib = int(f.readline().split()[1])
        mem = f", {kib / 2**20:.1f} GiB memory"
    except (OSError, ValueError, IndexError):
        pass
    return (f"{platform.python_implementation()} {platform.python_version()}, {platform.machine()}, "
            f"{os.cpu_count()} cores{mem}")


def vmhwm_kib() -> int:
    """This process's peak resident memory (``VmHWM`` of /proc/self/status; ru_maxrss elsewhere)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def limit_memory(limit: int) -> None:
    """Cap this process's data segment (``RLIMIT_DATA``) at ``limit`` bytes (lowering only)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    new = limit if hard == resource.RLIM_INFINITY else min(limit, hard)
    if soft == resource.RLIM_INFINITY or soft > new:
        resource.setrlimit(resource.RLIMIT_DATA, (new, hard))


def _write_json(path: str, obj: dict) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(obj, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)


def _partial_count(path: str) -> int:
    try:
        with open(path, "rb") as f:
            return max(0, f.read().count(b"\n") - 1)
    except OSError:
        return 0


# --------------------------------------------------------------------------
# exactdp's certified answers, timed (module-level: the audit runner may pickle them)


def time_dpsgd_vector(vector: dict) -> dict:
    """exactdp's certified answer for one corpus vector, recomputed at the vector's digits and timed."""
    from exactdp.testing.dpsgd import case_of_vector, reference

    case = case_of_vector(vector)
    rec = {"peer": EXACTDP, "knob": "certified", "case": vector.get("id", "")}
    if case is None:
        return {"records": [{**rec, "verdict": "not-run"}]}
    t0 = time.perf_counter()
    enc = reference(case, case.digits)
    dt = time.perf_counter() - t0
    old = case.certified
    agree = (enc.infinite and old.infinite) or (not enc.infinite and not old.infinite
                                                 and enc.lower <= old.upper and old.lower <= enc.upper)
    return {"records": [{**rec, "verdict": "agrees" if agree else "disagrees", "digits": case.digits,
                         "seconds": round(dt, 6), "stored_seconds": vector.get("seconds")}]}


def time_optcomp_case(case: dict) -> dict:
    """exactdp's certified answers to every query of one (eps, delta) grid case, timed together
    (as the peers' runs are: one run answers all of a case's queries)."""
    from exactdp.events import Composition, Mechanism
    from exactdp.testing.check import Case, optimum

    comp = Composition([(Mechanism(eps=e, delta=d), n) for e, d, n in case["groups"]])
    t0 = time.perf_counter()
    for q in case["delta_g"]:
        optimum(Case.of(comp, q, "epsilon"), OPTCOMP_DIGITS)
    for q in case["eps_g"]:
        optimum(Case.of(comp, q, "delta"), OPTCOMP_DIGITS)
    dt = time.perf_counter() - t0
    return {"records": [{"peer": EXACTDP, "knob": "certified", "case": case["id"], "verdict": "answered",
                         "digits": OPTCOMP_DIGITS, "seconds": round(dt, 6)}]}


def _run_exactdp(suite: str, out: str, grid: str) -> None:
    from exactdp import __version__
    from exactdp.audit.run import audit_grid, run_audit_tasks

    if suite == "dpsgd":
        from exactdp.testing.dpsgd import read_vectors, shipped_dpsgd_path

        vs = [v for v in read_vectors(shipped_dpsgd_path()) if "events" in v]
        tasks = [(f"exactdp|certified|{v.get('id')}", (v,)) for v in vs]
        fn = time_dpsgd_vector
    else:
        tasks = [(f"exactdp|certified|{c['id']}", (c,)) for c in audit_grid(grid)]
        fn = time_optcomp_case
    header = {"exactdp_scoreboard_timing": 1, "suite": suite, "grid": grid, "exactdp_version": __version__}
    run_audit_tasks(fn, tasks, out=out, header=header, scheduler=None, workers=None, progress=False)


def run_one(suite: str, name: str, d: str, grid: str) -> int:
    """Run one (suite, peer) in this process and write its meta file."""
    import warnings

    from exactdp import __version__

    limit_memory(MAX_MEMORY)
    # the grids' floats are meant as their binary values (the audit's records say so)
    warnings.filterwarnings("ignore", message=r".* is a float: it is taken as its binary value")
    out, meta = files(d, suite, name)
    started = datetime.datetime.now(datetime.timezone.utc)
    load0, t0 = os.getloadavg(), time.perf_counter()
    resumed = _partial_count(out + ".partial")
    if name == EXACTDP:
        _run_exactdp(suite, out, grid)
    elif suite == "dpsgd":
        from exactdp.audit.dpsgd import run_dpsgd_audit

        run_dpsgd_audit([name], out=out)
    else:
        from exactdp.audit import run_audit

        run_audit([name], grid, out=out)
    ru = resource.getrusage(resource.RUSAGE_SELF)
    _write_json(meta, {
        "suite": suite, "peer": name, "status": "done", "grid": grid if suite == "optcomp" else "shipped corpus",
        "exactdp_version": __version__, "started": started.isoformat(timespec="seconds"),
        "wall_seconds": round(time.perf_counter() - t0, 1), "cpu_seconds": round(ru.ru_utime + ru.ru_stime, 1),
        "vmhwm_kib": vmhwm_kib(), "load_start": round(load0[0], 2), "load_end": round(os.getloadavg()[0], 2),
        "resumed_cases": resumed, "machine": machine(),
        "memory_limit_kib": resource.getrlimit(resource.RLIMIT_DATA)[0] // 1024})
    return 0


def run_all(d: str, grid: str, suites: list, only: list) -> int:
    """Every (suite, peer) not finished yet, each in its own process; 1 if one failed."""
    os.makedirs(d, exist_ok=True)
    failed = []
    t0 = time.perf_counter()
    for suite in suites:
        for name, (module, extra) in [(EXACTDP, ("", ""))] + sorted(registered(suite).items()):
            if only and name not in only:
                continue
            out, meta = files(d, suite, name)
            if os.path.exists(out) and os.path.exists(meta):
                print(f"scoreboard: {suite} {name}: done (delete {out} to re-measure)", flush=True)
                continue
            if not installed(module):
                _write_json(meta, {"suite": suite, "peer": name, "status": "not installed", "install": extra})
                print(f"scoreboard: {suite} {name}: not installed ({extra})", flush=True)
                continue
            print(f"scoreboard: {suite} {name}: running", flush=True)
            rc = subprocess.call([sys.executable, __file__, "one", suite, name, "--dir", d, "--grid", grid])
            if rc != 0:
                failed.append(f"{suite} {name} (exit {rc})")
    print(f"scoreboard: {time.perf_counter() - t0:.0f} s" + (f"; failed: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


def main(argv: list) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--dir", default=str(ROOT / "build" / "scoreboard"))
    r.add_argument("--grid", choices=("quick", "full"), default="full", help="the (eps, delta) suite's grid")
    r.add_argument("--suite", action="append", choices=SUITES)
    r.add_argument("--peer", action="append", help="only these peers (exactdp's own timing is the peer 'exactdp')")
    o = sub.add_parser("one")
    o.add_argument("suite", choices=SUITES)
    o.add_argument("peer")
    o.add_argument("--dir", required=True)
    o.add_argument("--grid", choices=("quick", "full"), default="full")
    p = sub.add_parser("page")
    p.add_argument("--dir", default=str(ROOT / "build" / "scoreboard"))
    a = ap.parse_args(argv)
    if a.cmd == "run":
        return run_all(a.dir, a.grid, a.suite or list(SUITES), a.peer or [])
    if a.cmd == "one":
        return run_one(a.suite, a.peer, a.dir, a.grid)
    import peers_page

    return peers_page.main(["--dir", a.dir])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
