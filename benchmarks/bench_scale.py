"""Homogeneous OptComp at scale (issue 14): k from 10 to 10^9, eps from 0.001 to 1.

For every ``(eps, k)`` of the grid, k mechanisms of ``(eps, 0)``-DP as a count (nothing of
size k is built):

* exactdp, certified to 30 digits, in-process, on a fresh composition per case: the time of
  OptComp at ``delta_g = 1e-5`` and ``1e-10`` (the eps direction) and of delta_g at three
  ``eps_g`` (the OptComp value at 1e-5 times 0.5, 1 and 1.5; the delta direction); the
  kernel the engine chose; refusals (``CostTooHigh``) with their reason;
* repeated queries: 50 delta_g of one :class:`~exactdp.PrivacyProfile` (queries per second);
* when ``dp_accounting`` is importable (the ``peers`` extra): its PLD accountant
  (``from_privacy_parameters(eps, 0, value_discretization_interval=1e-4).self_compose(k)``)
  on the same five queries in a child process (time limit ``--peer-timeout``, memory 3 GiB),
  its time, the ratio exactdp / PLD measured in the same run, and each answer's signed
  error against exactdp's enclosure (``+`` = pessimistic, ``-`` = optimistic, i.e. unsound).

Growth exponents: least-squares slopes of log(time) against log(k) over k >= 10^4.

Usage: ``python benchmarks/bench_scale.py [--quick] [--plot]``. Prints its figures, writes the
section "scale" of ``docs/benchmarks.md`` (``_report.write_section``) and the raw
timings ``docs/figures/scale-timings.json``; ``--plot`` (``make figures-scale``) draws
``docs/figures/scale-time-vs-k.png`` from that file only.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import statistics
import subprocess
import sys
import time
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

from _report import machine, write_section  # noqa: E402

DATA = os.path.join(ROOT, "docs", "figures", "scale-timings.json")
FIG = os.path.join(ROOT, "docs", "figures", "scale-time-vs-k.png")

EPS = ["0.001", "0.01", "0.1", "1"]
KS = [10, 100, 1000, 10**4, 10**5, 10**6, 10**7, 10**8, 10**9]
DELTAS = ["1e-5", "1e-10"]
FACTORS = [Fraction(1, 2), Fraction(1), Fraction(3, 2)]

PEER_CHILD = r"""
import json, resource, sys, time, warnings
warnings.filterwarnings("ignore")
resource.setrlimit(resource.RLIMIT_AS, (3 * 2**30, 3 * 2**30))
from dp_accounting.pld import privacy_loss_distribution as pldm
eps, k, dqs, eqs = json.loads(sys.argv[1])
t0 = time.perf_counter()
pld = pldm.from_privacy_parameters(pldm.common.DifferentialPrivacyParameters(eps, 0.0),
                                   value_discretization_interval=1e-4).self_compose(k)
build = time.perf_counter() - t0
out = {"build": build, "eps": [], "delta": []}
for q in dqs:
    t = time.perf_counter(); v = pld.get_epsilon_for_delta(q); out["eps"].append([v, time.perf_counter() - t])
for q in eqs:
    t = time.perf_counter(); v = pld.get_delta_for_epsilon(q); out["delta"].append([v, time.perf_counter() - t])
print(json.dumps(out))
"""


def exactdp_case(eps: str, k: int) -> dict:
    from exactdp import Mechanism, composed_delta, optcomp
    from exactdp.errors import CostTooHigh
    from exactdp.events import Composition

    comp = Composition.of([Mechanism(eps=eps)]).repeat(k)
    out: dict = {"eps": eps, "k": k, "eps_q": [], "delta_q": []}
    try:
        for dg in DELTAS:
            t0 = time.perf_counter()
            r = optcomp(comp, dg, engine="certified", digits=30)
            out["eps_q"].append({"delta_g": dg, "s": time.perf_counter() - t0, "lower": _end(r.lower, False),
                                 "upper": _end(r.upper, True), "method": r.method})
        e1 = Fraction(out["eps_q"][0]["lower"])
        for f in FACTORS:
            eg = e1 * f
            t0 = time.perf_counter()
            r = composed_delta(comp, eps_g=eg, engine="certified", digits=30)
            out["delta_q"].append({"eps_g": str(eg), "s": time.perf_counter() - t0, "lower": _end(r.lower, False),
                                   "upper": _end(r.upper, True), "method": r.method})
    except CostTooHigh as e:
        out["refused"] = str(e).split(";")[0][:160]
    return out


def profile_qps(eps: str, k: int, n: int = 50) -> float:
    """Queries per second of one PrivacyProfile asked ``n`` delta_g at eps_g spread over its range."""
    from exactdp import Mechanism, PrivacyProfile
    from exactdp.events import Composition

    prof = PrivacyProfile(Composition.of([Mechanism(eps=eps)]).repeat(k), engine="certified")
    e1 = prof.epsilon("1e-5").lower
    grid = [e1 * Fraction(i, n) for i in range(1, n + 1)]
    t0 = time.perf_counter()
    for eg in grid:
        prof.delta(eg)
    return n / (time.perf_counter() - t0)


def peer_case(eps: str, k: int, eqs: list, timeout: float) -> dict:
    arg = json.dumps([float(eps), k, [float(d) for d in DELTAS], [float(Fraction(e)) for e in eqs]])
    t0 = time.perf_counter()
    try:
        p = subprocess.run([sys.executable, "-c", PEER_CHILD, arg], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"over {timeout:.0f} s"}
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        last = (p.stderr.strip().splitlines() or ["?"])[-1]
        return {"error": ("out of memory (3 GiB)" if "MemoryError" in last else last[:80])}
    r = json.loads(p.stdout.strip().splitlines()[-1])
    r["wall"] = wall
    return r


def _end(x: Fraction, up: bool) -> str:
    """An enclosure's end as text: exact when short, else a 36-digit decimal rounded outwards (a
    delta_g of 10^9 mechanisms of eps 1 is about e^(-2.3e8): its exact ends have 10^8 digits)."""
    if x.numerator.bit_length() + x.denominator.bit_length() < 4000:
        return str(x)
    import mpmath

    with mpmath.workprec(160):
        v = mpmath.mpf(x.numerator) / x.denominator
        v = v * (1 + mpmath.mpf(10) ** -33) if up == (v > 0) else v * (1 - mpmath.mpf(10) ** -33)
        return mpmath.nstr(v, 36, min_fixed=-1, max_fixed=1)


def signed_error(v: float, lo: str, hi: str) -> str:
    """Signed error of a peer's value against the enclosure [lo, hi] (0 inside it): relative to the
    nearest end, or absolute ("abs") when that end is 0 (exactdp's delta_g is exactly 0 there)."""
    lo_q, hi_q = Fraction(lo), Fraction(hi)
    vq = Fraction(v)
    ref = hi_q if vq > hi_q else lo_q if vq < lo_q else vq
    if ref == 0:
        return "0" if vq == 0 else f"{float(vq):+.1e} abs"
    return "0" if ref == vq else f"{float((vq - ref) / ref):+.1e}"


def slope(points: list) -> float:
    """Least-squares slope of log t against log k."""
    xs = [math.log(k) for k, _ in points]
    ys = [math.log(t) for _, t in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / den if den else float("nan")


def run(quick: bool, peer_timeout: float) -> dict:
    ks = [10, 1000, 10**5, 10**7, 10**9] if quick else KS
    # the one-time import of NumPy (60-110 ms; benchmarks/bench_startup.py measures a first call) is
    # paid here, not by the first case whose kernel needs it
    import numpy  # noqa: F401
    have_peer = importlib.util.find_spec("dp_accounting") is not None
    peer_version = None
    if have_peer:
        from importlib.metadata import version

        peer_version = version("dp-accounting")
    rows = []
    for eps in EPS:
        for k in ks:
            r = exactdp_case(eps, k)
            line = f"eps={eps:<6} k={k:<11.0e}"
            if "refused" in r:
                print(line, "refused:", r["refused"], flush=True)
            else:
                te = statistics.median(q["s"] for q in r["eps_q"])
                td = statistics.median(q["s"] for q in r["delta_q"])
                r["t_eps"], r["t_delta"] = te, td
                print(f"{line} {r['eps_q'][0]['method']:<12} eps query {te * 1e3:9.1f} ms  delta query {td * 1e3:9.1f} ms"
                      f"  eps_g(1e-5) = {float(Fraction(r['eps_q'][0]['lower'])):.6g}", flush=True)
                if have_peer and k <= (10**6 if not quick else 10**5):
                    pr = peer_case(eps, k, [q["eps_g"] for q in r["delta_q"]], peer_timeout)
                    r["peer"] = pr
                    if "error" in pr:
                        print(f"{'':>26} PLD 1e-4: {pr['error']}", flush=True)
                    else:
                        pe = statistics.median(s for _, s in pr["eps"]) + pr["build"] / 5
                        pd = statistics.median(s for _, s in pr["delta"]) + pr["build"] / 5
                        pr["t_eps"], pr["t_delta"] = pe, pd
                        pr["err_eps"] = [signed_error(v, q["lower"], q["upper"]) for (v, _), q in zip(pr["eps"], r["eps_q"])]
                        pr["err_delta"] = [signed_error(v, q["lower"], q["upper"])
                                           for (v, _), q in zip(pr["delta"], r["delta_q"])]
                        print(f"{'':>26} PLD 1e-4: eps query {pe * 1e3:9.1f} ms  delta query {pd * 1e3:9.1f} ms  "
                              f"ratio exactdp/PLD {te / pe:.3g} / {td / pd:.3g}  signed errors eps "
                              + ", ".join(pr["err_eps"]) + " delta "
                              + ", ".join(pr["err_delta"]), flush=True)
            rows.append(r)
    qps = []
    for eps, k in [("0.01", 10**5), ("0.01", 10**7), ("0.01", 10**9), ("0.1", 10**4)]:
        q = profile_qps(eps, k, 20 if quick else 50)
        qps.append({"eps": eps, "k": k, "qps": q})
        print(f"PrivacyProfile eps={eps} k={k:.0e}: {q:.1f} delta queries per second", flush=True)
    return {"machine": machine(), "quick": quick, "peer": peer_version, "rows": rows, "qps": qps}


def section(data: dict) -> str:
    rows = data["rows"]
    md = ["## Homogeneous OptComp at scale (`benchmarks/bench_scale.py`)", "",
          f"Machine: {data['machine']}. k mechanisms of `(eps, 0)`-DP given as a count; exactdp certified, 30 digits, "
          "in-process, a fresh composition per case. *eps query*: median time of OptComp at delta_g = 1e-5 and 1e-10; "
          "*delta query*: median time of delta_g at three eps_g (0.5, 1, 1.5 times the OptComp value at 1e-5). "
          + (f"PLD: dp_accounting {data['peer']} `from_privacy_parameters(eps, 0, value_discretization_interval=1e-4)"
             ".self_compose(k)`, in a child process, its build time shared over the five queries; ratio = exactdp / PLD in "
             "the same run; signed errors are relative to the nearest end of exactdp's enclosure (0 inside it; "
             "negative = optimistic, i.e. an unsound privacy claim)." if data["peer"] else
             "dp_accounting was not importable in this run (install the `peers` extra for the PLD columns)."), "",
          "| eps | k | kernel | eps query | delta query | PLD eps query | PLD delta query | ratio (eps / delta) | "
          "PLD signed errors, eps at 1e-5, 1e-10 | PLD signed errors, delta at 3 eps_g |",
          "|---|---|---|---|---|---|---|---|---|---|"]

    def ms(x):
        return f"{x * 1e3:.1f} ms" if x < 10 else f"{x:.1f} s"

    for r in rows:
        if "refused" in r:
            md.append(f"| {r['eps']} | {r['k']:.0e} | refused | {r['refused']} | | | | | | |")
            continue
        p = r.get("peer")
        if p is None:
            pc = ["", "", "", "", ""]
        elif "error" in p:
            pc = [p["error"], "", "", "", ""]
        else:
            pc = [ms(p["t_eps"]), ms(p["t_delta"]), f"{r['t_eps'] / p['t_eps']:.3g} / {r['t_delta'] / p['t_delta']:.3g}",
                  ", ".join(p["err_eps"]), ", ".join(p["err_delta"])]
        md.append(f"| {r['eps']} | {r['k']:.0e} | {r['eps_q'][0]['method']} | {ms(r['t_eps'])} | {ms(r['t_delta'])} | "
                  + " | ".join(pc) + " |")
    md += ["", "Growth exponents (least-squares slope of log time against log k, k >= 10^4, cases answered):", ""]
    for eps in EPS:
        for key, name in (("t_eps", "eps query"), ("t_delta", "delta query")):
            pts = [(r["k"], r[key]) for r in rows if r["eps"] == eps and key in r and r["k"] >= 10**4]
            if len(pts) >= 2:
                md.append(f"* eps = {eps}, {name}: time ~ k^{slope(pts):.2f} over k = {pts[0][0]:.0e} .. {pts[-1][0]:.0e}")
        pts = [(r["k"], r["peer"]["t_eps"]) for r in rows if r["eps"] == eps and "t_eps" in (r.get("peer") or {})
               and r["k"] >= 10**4]
        if len(pts) >= 2:
            md.append(f"* eps = {eps}, PLD 1e-4 eps query: time ~ k^{slope(pts):.2f} over k = {pts[0][0]:.0e} .. {pts[-1][0]:.0e}")
    md += ["", "Repeated queries, one `PrivacyProfile` (the kernel and its window sums built once and cached):", ""]
    for q in data["qps"]:
        md.append(f"* eps = {q['eps']}, k = {q['k']:.0e}: {q['qps']:.1f} delta_g queries per second (certified, 30 digits)")
    md += ["", "![time against k](figures/scale-time-vs-k.png)"]
    return "\n".join(md) + "\n"


def plot(data: dict) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5.2), dpi=120)
    colors = dict(zip(EPS, ["tab:blue", "tab:orange", "tab:green", "tab:red"]))
    for eps in EPS:
        rs = [r for r in data["rows"] if r["eps"] == eps and "t_eps" in r]
        if rs:
            ax.loglog([r["k"] for r in rs], [r["t_eps"] for r in rs], "o-", color=colors[eps],
                      label=f"exactdp OptComp, eps = {eps}")
        ps = [r for r in data["rows"] if r["eps"] == eps and "t_eps" in (r.get("peer") or {})]
        if ps:
            ax.loglog([r["k"] for r in ps], [r["peer"]["t_eps"] for r in ps], "s--", color=colors[eps], alpha=0.6,
                      label=f"PLD 1e-4, eps = {eps}")
    ax.set_xlabel("k (number of composed (eps, 0)-DP mechanisms)")
    ax.set_ylabel("seconds per eps query (delta_g = 1e-5, 1e-10)")
    ax.set_title("Certified OptComp (30 digits) against dp_accounting PLD")
    ax.grid(True, which="major", alpha=0.4)
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(FIG)
    print(f"wrote {FIG}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--plot", action="store_true", help="only draw the figure from docs/figures/scale-timings.json")
    ap.add_argument("--peer-timeout", type=float, default=120.0)
    args = ap.parse_args()
    if args.plot:
        with open(DATA) as f:
            plot(json.load(f))
        return 0
    data = run(args.quick, args.peer_timeout)
    with open(DATA, "w") as f:
        json.dump(data, f, indent=1)
    write_section("scale", section(data))
    print(f"wrote the scale section of docs/benchmarks.md and {DATA}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
