"""Certified DP-SGD accounting against the float accountants, on the targets of the
accounting guide (docs/guides/dpsgd.md): the same question asked of exactdp's Accountant
and of dp_accounting's PLD (pessimistic and optimistic, two intervals) and RDP accountants
and prv_accountant, in one run, with each peer's signed distance to exactdp's certified
enclosure (0 inside it; negative below its lower end: an "upper bound" there is unsound).

Writes the section ``accounting`` of docs/benchmarks.md and docs/figures/accounting-peers.json
(the figure of the guide is drawn from it by docs/figures/make_accounting.py).

    python benchmarks/bench_accounting.py [--quick] [--no-peers]
    python benchmarks/bench_accounting.py --grid     # the DP-SGD grid (long; resumable)

Each exactdp answer is computed in a fresh process, so that its time and peak memory are its own.

Peers come from the ``peers`` extra (make bench-accounting installs them).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _report import machine, timed, write_section  # noqa: E402

FIG = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "figures", "accounting-peers.json")

#: (label, phases [(sigma, q, steps)], delta, relation, digits)
TARGETS = [
    ("DP-SGD", [(1, Fraction(1, 256), 10_000)], "1e-5", "add_remove", 3),
    ("DP-SGD, 10^5 steps", [(1, Fraction(1, 256), 100_000)], "1e-5", "add_remove", 3),
    ("DP-SGD, q = 0.01", [(1, Fraction(1, 100), 10_000)], "1e-5", "add_remove", 3),
    ("tiny delta 1e-15, one direction", [(2, Fraction(1, 100), 3000)], "1e-15", "remove", 6),
    ("3-phase schedule, 10^4 steps", [(1, Fraction(1, 256), 4000), (Fraction(6, 5), Fraction(1, 128), 3000),
                                      (Fraction(3, 2), Fraction(1, 64), 3000)], "1e-5", "add_remove", 3),
]

#: the DP-SGD grid (--grid): every combination, 3 digits
GRID_SIGMA = [Fraction(1, 2), 1, 2, 4]
GRID_Q = [Fraction(1, 256), Fraction(1, 100), Fraction(1, 25)]
GRID_K = [100, 1000, 10_000, 100_000]
GRID_DELTA = ["1e-5", "1e-10", "1e-15"]
GRID_STATE = os.path.join(os.path.dirname(FIG), "accounting-grid.json")

#: the growth figure: sigma 1, q 1/256, delta 1e-5, k from 10^2 to 10^5
GROWTH = [100, 1000, 10_000, 100_000]


def _peak_mib() -> float:
    """This process's peak resident memory (VmHWM: its own, unlike ru_maxrss, which a child started
    by fork and exec inherits from its parent)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def _one(spec: str) -> None:
    """Child process: one certified answer, printed as JSON with its time and the process peak."""
    import time

    from exactdp import Accountant, Gaussian, PoissonSampled
    from exactdp.errors import CostTooHigh

    phases, delta, relation, digits = json.loads(spec)
    acc = Accountant(relation)
    for sigma, q, k in phases:
        acc.compose(PoissonSampled(Gaussian(sigma), q), k)
    t = time.perf_counter()
    try:
        enc = acc.epsilon(delta, digits=digits)
        out = {"lower": str(enc.lower), "upper": str(enc.upper), "points": acc.last.points}
    except CostTooHigh as e:
        out = {"refused": str(e)}
    out["seconds"] = time.perf_counter() - t
    out["peak_mib"] = _peak_mib()
    print(json.dumps(out))


def exactdp_eps(phases, delta, relation, digits):
    """The certified answer computed in a fresh process: (enclosure or None, info dict)."""
    import subprocess

    from exactdp import Enclosure

    spec = json.dumps([[[str(s), str(q), k] for s, q, k in phases], delta, relation, digits])
    r = subprocess.run([sys.executable, os.path.abspath(__file__), "--one", spec], capture_output=True, text=True,
                       check=True)
    info = json.loads(r.stdout.strip().splitlines()[-1])
    if "refused" in info:
        return None, info
    return Enclosure(Fraction(info["lower"]), Fraction(info["upper"])), info


def peers(phases, delta, relation, cheap=False):
    """{name: (value, seconds, kind)} for every installed peer (kind: upper / lower / estimate / error).
    ``cheap``: only dp_accounting PLD at 1e-4, RDP and prv_accountant at 0.01 (the grid)."""
    out = {}
    d = float(delta)
    total = sum(k for _, _, k in phases)
    try:
        import dp_accounting
        from dp_accounting import dp_event as E
        from dp_accounting.pld import privacy_loss_distribution as PLD
        from dp_accounting.rdp import rdp_privacy_accountant as RDPA

        rel = (dp_accounting.NeighboringRelation.ADD_OR_REMOVE_ONE if relation in ("add_remove", "remove", "add")
               else dp_accounting.NeighboringRelation.REPLACE_ONE)
        for interval in (1e-4,) if cheap else (1e-4, 1e-5):
            for pess in (True, False):
                if interval == 1e-5 and total > 10_000:
                    continue  # minutes: not run at this size

                def run(interval=interval, pess=pess):
                    pld = None
                    for sigma, q, k in phases:
                        one = PLD.from_gaussian_mechanism(float(sigma), pessimistic_estimate=pess,
                                                          value_discretization_interval=interval,
                                                          sampling_prob=float(q)).self_compose(k)
                        pld = one if pld is None else pld.compose(one)
                    return pld.get_epsilon_for_delta(d)

                name = f"dp_accounting PLD {'pessimistic' if pess else 'optimistic'} {interval:g}"
                try:
                    t, v = timed(run)
                    out[name] = (v, t, "upper" if pess else "estimate")
                except Exception as e:  # noqa: BLE001  (a peer's failure is a result: recorded)
                    out[name] = (f"raised {type(e).__name__}", 0.0, "error")
        ev = E.ComposedDpEvent([E.SelfComposedDpEvent(E.PoissonSampledDpEvent(float(q), E.GaussianDpEvent(float(sigma))), k)
                                for sigma, q, k in phases])
        acc_rdp = RDPA.RdpAccountant(neighboring_relation=rel)
        t, v = timed(lambda: acc_rdp.compose(ev).get_epsilon(d))
        out["dp_accounting RDP"] = (v, t, "upper")
    except ImportError:
        pass
    try:
        from prv_accountant import PRVAccountant
        from prv_accountant.privacy_random_variables import PoissonSubsampledGaussianMechanism

        for err in (0.01,) if cheap else (0.01, 0.002):
            def run(err=err):
                prvs = [PoissonSubsampledGaussianMechanism(noise_multiplier=float(s), sampling_probability=float(q))
                        for s, q, _ in phases]
                ks = [k for _, _, k in phases]
                a = PRVAccountant(prvs=prvs, max_self_compositions=ks, eps_error=err, delta_error=d / 1000)
                return a.compute_epsilon(delta=d, num_self_compositions=ks)

            try:
                t, (lo, est, hi) = timed(run)
                out[f"prv_accountant {err:g} lower"] = (lo, t, "lower")
                out[f"prv_accountant {err:g} estimate"] = (est, t, "estimate")
                out[f"prv_accountant {err:g} upper"] = (hi, t, "upper")
            except Exception as e:  # noqa: BLE001  (a peer's failure is a result: recorded)
                out[f"prv_accountant {err:g}"] = (f"raised {type(e).__name__}", 0.0, "error")
    except ImportError:
        pass
    return out


def signed(v, enc):
    if not isinstance(v, (int, float)) or math.isnan(v):
        return None
    lo, hi = float(enc.lower), float(enc.upper)
    if v > hi:
        return v - hi
    if v < lo:
        return v - lo
    return 0.0


def verdict(v, enc, kind):
    s = signed(v, enc)
    if s is None:
        return "-"
    if kind == "upper" and s < 0:
        return "**unsound** (below the certified lower end)"
    if kind == "lower" and s > 0:
        return "**invalid** (above the certified upper end)"
    return "inside" if s == 0 else ("above" if s > 0 else "below")


def _describe(phases, delta, relation) -> str:
    ph = " then ".join(f"sigma {s}, q {q}, k {k}" for s, q, k in phases)
    return f"{ph}, delta {delta}, {relation}"


def _peer_rows(pe, enc, rows):
    for name, (v, tp, kind) in pe.items():
        if kind == "error":
            rows.append(f"| | {name} | {v} | | |")
            continue
        s = signed(v, enc)
        print(f"  {name}: {v} ({tp:.2f} s) signed error {s}", flush=True)
        rows.append(f"| | {name} | {v:.6f} (signed error {s:+.2e}) | {tp:.2f} s | {kind}: {verdict(v, enc, kind)} |")


def targets(args, fig) -> list:
    rows = []
    for label, phases, delta, rel, digits in TARGETS[:1] if args.quick else TARGETS:
        enc, info = exactdp_eps(phases, delta, rel, digits)
        t, peak = info["seconds"], info["peak_mib"]
        width = float((enc.upper - enc.lower) / enc.upper)
        print(f"{label}: exactdp [{float(enc.lower):.6f}, {float(enc.upper):.6f}] width {width:.2e} "
              f"{t:.2f} s, {info['points']} points, peak {peak:.0f} MiB", flush=True)
        rows.append(f"| {label} ({_describe(phases, delta, rel)}) | **exactdp, certified** | "
                    f"[{float(enc.lower):.6f}, {float(enc.upper):.6f}] (width {width:.1e} x eps; {info['points']} points, "
                    f"peak {peak:.0f} MiB) | {t:.2f} s | enclosure |")
        pe = {} if args.no_peers else peers(phases, delta, rel)
        _peer_rows(pe, enc, rows)
        fig["targets"].append({"label": label, "lower": float(enc.lower), "upper": float(enc.upper), "seconds": t,
                               "peak_mib": peak,
                               "peers": {n: [v, tp, kind] for n, (v, tp, kind) in pe.items() if kind != "error"}})
    return rows


def growth(args, fig) -> None:
    for k in GROWTH:
        phases = [(1, Fraction(1, 256), k)]
        enc, info = exactdp_eps(phases, "1e-5", "add_remove", 3)
        pe = {} if args.no_peers else peers(phases, "1e-5", "add_remove")
        print(f"growth k={k}: [{float(enc.lower):.6f}, {float(enc.upper):.6f}] {info['seconds']:.2f} s", flush=True)
        fig["growth"].append({"k": k, "lower": float(enc.lower), "upper": float(enc.upper), "seconds": info["seconds"],
                              "points": info["points"], "peak_mib": info["peak_mib"],
                              "peers": {n: [v, tp, kind] for n, (v, tp, kind) in pe.items() if kind != "error"}})
    ks = [g["k"] for g in fig["growth"]]
    ts = [g["seconds"] for g in fig["growth"]]
    fig["time_exponent"] = (math.log(ts[-1]) - math.log(ts[0])) / (math.log(ks[-1]) - math.log(ks[0]))


#: Address-space cap of the grid's process (the peers; see :func:`grid`).
PEER_CAP_BYTES = 8 * 2**30


def grid() -> None:
    """The DP-SGD grid against the cheap peer settings; resumable (each finished case is kept in
    docs/figures/accounting-grid.json)."""
    import itertools

    done = json.load(open(GRID_STATE)) if os.path.exists(GRID_STATE) else {}
    # the peers run in this process: cap its address space so that a peer's grid beyond the cap
    # raises MemoryError (recorded as its result) instead of the kernel's OOM killer ending the run
    # (dp_accounting's PLD took 24 GiB at sigma 1, q 0.04, 10^5 steps); exactdp's own runs are
    # separate processes, within the accountant's 2 GiB limit
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (PEER_CAP_BYTES, resource.getrlimit(resource.RLIMIT_AS)[1]))
    # cheapest first (fewer steps, more noise), so that a run stopped early covers the most cases
    cases = sorted(itertools.product(GRID_SIGMA, GRID_Q, GRID_K, GRID_DELTA), key=lambda c: (c[2], -c[0]))
    for n, (sigma, q, k, delta) in enumerate(cases, 1):
        key = f"{sigma}|{q}|{k}|{delta}"
        if key in done:
            continue
        phases = [(sigma, q, k)]
        enc, info = exactdp_eps(phases, delta, "add_remove", 3)
        pe = peers(phases, delta, "add_remove", cheap=True)
        rec = {"exactdp": info, "peers": {}}
        for name, (v, tp, kind) in pe.items():
            rec["peers"][name] = {"value": v if kind != "error" else None, "seconds": tp, "kind": kind,
                                  "signed": signed(v, enc) if enc is not None and kind != "error" else None,
                                  "verdict": (verdict(v, enc, kind) if kind != "error" else v) if enc is not None
                                  else "no enclosure"}
        done[key] = rec
        with open(GRID_STATE + ".tmp", "w") as f:
            json.dump(done, f, indent=1)
        os.replace(GRID_STATE + ".tmp", GRID_STATE)
        print(f"[{n}/{len(cases)}] {key}: exactdp {info.get('lower', info.get('refused'))[:12]}.. "
              f"{info['seconds']:.1f} s", flush=True)
        write_section("accounting-grid", "\n".join(grid_markdown(done, len(cases))))  # kept current: a kill loses nothing


def grid_markdown(done, total) -> list:
    """Per peer setting: answers inside / above / below / unsound / invalid, the worst signed errors,
    and the median time against exactdp's."""
    import statistics

    secs = [r["exactdp"]["seconds"] for r in done.values() if "lower" in r["exactdp"]]
    refused = sum(1 for r in done.values() if "refused" in r["exactdp"])
    per: dict = {}
    for r in done.values():
        for name, p in r["peers"].items():
            per.setdefault(name, []).append(p)
    md = ["## The DP-SGD grid",
          "",
          f"`benchmarks/bench_accounting.py --grid`: sigma in {{0.5, 1, 2, 4}}, q in {{1/256, 0.01, 0.04}}, "
          f"k in {{10^2, 10^3, 10^4, 10^5}}, delta in {{1e-5, 1e-10, 1e-15}}, add/remove: {len(done)} of the "
          f"{total} cases run so far (the run resumes where it stopped); exactdp "
          f"at 3 digits: median {statistics.median(secs):.2f} s, longest {max(secs):.1f} s, {refused} refused by "
          "the cost model. Each peer answer is judged against the certified enclosure (signed error: distance to "
          "it, 0 inside). Times are those of a low-priority run beside other work, not comparable to the targets' "
          f"section. The peers run with the process capped at {PEER_CAP_BYTES / 2**30:.0f} GiB of address space: a peer "
          "beyond it counts as an error (MemoryError).",
          "",
          "| peer | answers | inside | above | below | unsound | invalid | errors | worst below | worst above | median time (exactdp's) |",
          "|---|---|---|---|---|---|---|---|---|---|---|"]
    med_x = statistics.median(secs)
    for name, ps in sorted(per.items()):
        v = [p["verdict"] if isinstance(p["verdict"], str) else "no enclosure" for p in ps]  # (older records)
        sg = [p["signed"] for p in ps if p["signed"] is not None]
        ts = [p["seconds"] for p in ps if p["kind"] != "error"]
        md.append(f"| {name} | {len(ps)} | {v.count('inside')} | {v.count('above')} | {v.count('below')} | "
                  f"{sum('unsound' in x for x in v)} | {sum('invalid' in x for x in v)} | "
                  f"{sum(p['kind'] == 'error' for p in ps)} | {min(sg, default=0):+.3g} | {max(sg, default=0):+.3g} | "
                  f"{statistics.median(ts) if ts else float('nan'):.2f} s ({med_x:.2f} s) |")
    return md


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="the first target only")
    ap.add_argument("--no-peers", action="store_true")
    ap.add_argument("--grid", action="store_true", help="the DP-SGD grid (resumable)")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        return _one(args.one)
    if args.grid:
        return grid()
    load = os.getloadavg()[0]
    fig = {"growth": [], "targets": []}
    rows = targets(args, fig)
    if not args.quick:
        growth(args, fig)
    md = ["## Certified DP-SGD accounting against the float accountants",
          "",
          f"`benchmarks/bench_accounting.py`, {machine()}, load average {load:.1f} at the start (the machine is "
          "shared: times are single runs). exactdp's answer is a certified enclosure at the digits given, computed "
          "in a fresh process (its time and peak memory are its own); each peer's "
          "signed error is its distance to that enclosure (0 inside).",
          "",
          "| question | accountant | epsilon | time | claims / verdict |",
          "|---|---|---|---|---|"] + rows
    if fig["growth"]:
        md += ["", "Time against steps (sigma 1, q 1/256, delta 1e-5, 3 digits): "
               + ", ".join(f"k = {g['k']}: {g['seconds']:.2f} s ({g['points']} points, peak {g['peak_mib']:.0f} MiB)"
                           for g in fig["growth"])
               + f"; fitted exponent {fig['time_exponent']:.2f}."]
    if not args.quick:
        write_section("accounting", "\n".join(md))
        os.makedirs(os.path.dirname(FIG), exist_ok=True)
        with open(FIG, "w") as f:
            json.dump(fig, f, indent=1)
    print("\n".join(md))


if __name__ == "__main__":
    main()
