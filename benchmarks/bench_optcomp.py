"""OptComp speed targets (issue 2) and a side-by-side with Google's dp_accounting.

Cases (medians of repeated runs on this machine, both directions):

* H: homogeneous eps = 0.1, k = 10,000, certified to 30 digits (target < 1 s).
* L: 1,000 lattice mechanisms eps_i = a_i * 0.001, a_i in 1..100 (seeded),
  certified to 30 digits (target < 5 s).
* M: 40 arbitrary decimal eps_i (6 decimals, seeded), certified, meet in the
  middle (target < 60 s); the auto method's time is shown beside it.

dp_accounting's PLD accountant runs in its own virtual environment
(``benchmarks/.venv-peers``, created on first use; it is not a dependency of
exactdp), on cases H and L, at two discretization intervals; its error is
measured against exactdp's certified value in the same run.

Usage: ``python benchmarks/bench_optcomp.py [--quick] [--no-peers]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from _report import machine, write_section  # noqa: E402

from exactdp import composed_delta, mechanisms, optcomp  # noqa: E402

PEER_VENV = os.path.join(HERE, ".venv-peers")

PEER_SCRIPT = r"""
import json, sys, time
from dp_accounting.pld import privacy_loss_distribution as pldlib
from dp_accounting.pld import common
spec = json.load(sys.stdin)
out = []
for case in spec:
    for vdi in case["intervals"]:
        t0 = time.perf_counter()
        groups = {}
        for e in case["eps"]:
            groups[e] = groups.get(e, 0) + 1
        pld = None
        for e, n in groups.items():
            p = pldlib.from_privacy_parameters(common.DifferentialPrivacyParameters(float(e), 0.0),
                                               value_discretization_interval=vdi)
            p = p.self_compose(n) if n > 1 else p
            pld = p if pld is None else pld.compose(p)
        t_build = time.perf_counter() - t0
        t1 = time.perf_counter()
        d = pld.get_delta_for_epsilon(case["eps_g"])
        t_d = time.perf_counter() - t1
        t2 = time.perf_counter()
        e = pld.get_epsilon_for_delta(case["delta_g"])
        t_e = time.perf_counter() - t2
        out.append({"case": case["name"], "interval": vdi, "delta": d, "eps": e,
                    "t_build": t_build, "t_delta": t_d, "t_eps": t_e})
json.dump(out, sys.stdout)
"""


def median_time(fn, repeat: int):
    ts = []
    val = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        val = fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts), val


def cases():
    rnd = random.Random(20161)
    a = [rnd.randint(1, 100) for _ in range(1000)]
    rnd = random.Random(40)
    m_eps = ["%.6f" % rnd.uniform(0.01, 0.5) for _ in range(40)]
    return [
        dict(name="H", label="homogeneous eps=0.1, k=10,000", eps=["0.1"], k=10000, eps_g="100", delta_g="1e-6", methods=["auto"]),
        dict(name="L", label="1,000 lattice eps_i=a_i*0.001", eps=[str(Fraction(x, 1000)) for x in a], k=1, eps_g="5", delta_g="1e-6", methods=["auto"]),
        dict(name="M", label="40 decimal eps_i (6 decimals)", eps=m_eps, k=1, eps_g="3", delta_g="1e-6", methods=["mitm", "auto"]),
    ]


def ensure_peer_venv() -> str:
    py = os.path.join(PEER_VENV, "bin", "python")
    if not os.path.exists(py):
        subprocess.run([sys.executable, "-m", "venv", PEER_VENV], check=True)
        subprocess.run([py, "-m", "pip", "install", "--quiet", "dp-accounting"], check=True)
    return py


def run_peers(cs) -> list:
    py = ensure_peer_venv()
    spec = []
    for c in cs:
        if c["name"] == "M":
            continue
        eps = [float(Fraction(e)) for e in c["eps"]] * c["k"]
        spec.append({"name": c["name"], "eps": eps, "eps_g": float(c["eps_g"]), "delta_g": float(Fraction(c["delta_g"])), "intervals": [1e-3, 1e-4]})
    r = subprocess.run([py, "-c", PEER_SCRIPT], input=json.dumps(spec), capture_output=True, text=True, check=True)
    return json.loads(r.stdout)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="one repetition each")
    ap.add_argument("--no-peers", action="store_true", help="skip dp_accounting")
    args = ap.parse_args()
    rep_fast = 1 if args.quick else 5
    rows = []
    values = {}
    for c in cases():
        ms = mechanisms(eps=c["eps"], k=c["k"])
        for meth in c["methods"]:
            rep = rep_fast if c["name"] != "M" else (1 if args.quick else 3)
            td, rd = median_time(lambda: composed_delta(ms, eps_g=c["eps_g"], engine="certified", method=meth, digits=30), rep)
            te, re_ = median_time(lambda: optcomp(ms, c["delta_g"], engine="certified", method=meth, digits=30), rep)
            values[c["name"]] = (rd, re_)
            rows.append((c, meth, rd.method, td, te, rd, re_))
            print(f"{c['name']} {c['label']:<34} method={rd.method:<12} delta(eps_g={c['eps_g']}) {td:8.3f} s   eps(delta_g={c['delta_g']}) {te:8.3f} s", flush=True)
    md = ["## OptComp: speed targets (`benchmarks/bench_optcomp.py`)", "", f"Machine: {machine()}. Certified engine, 30 significant digits, median of "
          f"{rep_fast} runs (case M: {1 if args.quick else 3}).", "",
          "| case | method | delta_g at eps_g | time | OptComp at delta_g | time | target |", "|---|---|---|---|---|---|---|"]
    targets = {"H": "< 1 s", "L": "< 5 s", "M": "< 60 s"}
    for c, meth, used, td, te, rd, re_ in rows:
        md.append(f"| {c['name']}: {c['label']} | {used}{' (asked ' + meth + ')' if meth != 'auto' else ''} | {float(rd.lower):.12g} (eps_g={c['eps_g']}) | {td:.3f} s | "
                  f"{float(re_.lower):.12g} (delta_g={c['delta_g']}) | {te:.3f} s | {targets[c['name']]} each |")
    if not args.no_peers:
        try:
            peers = run_peers(cases())
        except (subprocess.CalledProcessError, OSError) as e:
            print(f"dp_accounting unavailable: {e}")
            peers = []
        if peers:
            md += ["", "### Side by side: dp_accounting PLD accountant (same run)", "",
                   "dp_accounting " + "0.6" + " `privacy_loss_distribution.from_privacy_parameters` per distinct (eps, 0), "
                   "self-composed and composed; build time is the PLD construction and composition. "
                   "Error = dp_accounting value minus exactdp's certified value (which is exact to 30 digits).", "",
                   "| case | interval | build | delta query | delta_g (dp_acc.) | error | eps query | eps_g (dp_acc.) | error |",
                   "|---|---|---|---|---|---|---|---|---|"]
            for p in peers:
                rd, re_ = values[p["case"]]
                dx = float(rd.lower)
                ex = float(re_.lower)
                md.append(f"| {p['case']} | {p['interval']:g} | {p['t_build']:.3f} s | {p['t_delta']:.4f} s | {p['delta']:.10g} | {p['delta'] - dx:+.3g} | "
                          f"{p['t_eps']:.4f} s | {p['eps']:.10g} | {p['eps'] - ex:+.3g} |")
                print(f"dp_accounting {p['case']} interval={p['interval']:g}: build {p['t_build']:.3f} s, delta {p['delta']:.10g} (err {p['delta'] - dx:+.3g}), "
                      f"eps {p['eps']:.10g} (err {p['eps'] - ex:+.3g})")
    write_section("optcomp", "\n".join(md))


if __name__ == "__main__":
    main()
