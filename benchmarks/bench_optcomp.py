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

Second part (``--edges``; ``--only-edges`` runs it alone): the engines at their edges
and their costs (issues 16 and 17). Each case runs in a child process that reports its
wall time, its peak memory above the interpreter's (``VmHWM``) and, for refusals, how
long the refusal took; the cost model's estimate is printed beside the measured peak.
It writes the section "engines-edges" of ``docs/benchmarks.md``.

Usage: ``python benchmarks/bench_optcomp.py [--quick] [--no-peers] [--edges | --only-edges]``.
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


EDGE_CHILD = r"""
import json, sys, time
def hwm():
    for line in open('/proc/self/status'):
        if line.startswith('VmHWM'):
            return int(line.split()[1]) * 1024
    return 0
from fractions import Fraction as F
import exactdp
from exactdp import Mechanism, mechanisms, composed_delta, optcomp, certify
from exactdp.errors import ExactDPError
import exactdp.engines.inverse as inv
counted = []
_orig = inv._Counted.__init__
def _spy(self, s):
    _orig(self, s); counted.append(self)
inv._Counted.__init__ = _spy
spec = json.loads(sys.argv[1])
ns = {"F": F, "Mechanism": Mechanism, "mechanisms": mechanisms, "composed_delta": composed_delta,
      "optcomp": optcomp, "certify": certify}
exec(spec["setup"], ns)
base = hwm()
t0 = time.perf_counter()
try:
    r = eval(spec["call"], ns)
    out = {"ok": True, "value": str(getattr(r, "value", r))[:60], "method": getattr(r, "method", "")}
except ExactDPError as e:
    out = {"ok": False, "error": type(e).__name__, "estimate": getattr(e, "estimate", None)}
out["s"] = time.perf_counter() - t0
out["peak"] = hwm() - base
out["evals"] = sum(c.n for c in counted)
print(json.dumps(out, default=str))
"""

# (label, setup, call, before): "before" is what issues 16 and 17 measured
EDGE_CASES = [
    ("16.1 mitm, 47 mechanisms of 3 values", "ms = [Mechanism(exp_eps=v, delta='4.8e-10') for v in ['1001/1000']*13 + ['1']*19 + ['5260/81']*15]",
     "composed_delta(ms, exp_eps_g=F('1264588213961825084701912543/1089620125312500000'), engine='exact', method='mitm')",
     "> 12 GB, killed"),
    ("16.2 OptComp by mitm, 20 x 10784/81 + 9 x 1", "ms = [Mechanism(exp_eps='10784/81', delta='0.00069')]*20 + [Mechanism(exp_eps=1, delta='0.00069')]*9",
     "optcomp(ms, '0.1', engine='certified', method='mitm')", "> 60 s"),
    ("16.3 certified OptComp, eps_g = 1e-8", "ms = [Mechanism(exp_eps='2')]",
     "optcomp(ms, F(1, 3) * (1 - F(1, 10**8)), engine='certified', digits=30)", "PrecisionError"),
    ("16.5 certified OptComp, eps_g = 1e-30", "ms = [Mechanism(exp_eps='2')]",
     "optcomp(ms, F(1, 3) * (1 - F(1, 10**30)), engine='certified', digits=10)", "[0, 1.08e-19]"),
    ("16.5 certified delta_g = 1e-651", "ms = [Mechanism(exp_eps='2')]",
     "composed_delta(ms, exp_eps_g=2 - 3 * F(1, 10**651), engine='certified', digits=10)", "[0, 5.9e-649]"),
    ("16.6 float delta_g = 3.3e-25", "ms = [Mechanism(exp_eps='2')]",
     "composed_delta(ms, exp_eps_g=2 - F(1, 10**24), engine='float', digits=10)", "0"),
    ("17 delta, eps_g = 1e308", "ms = mechanisms(eps=['0.1'], k=10)", "composed_delta(ms, eps_g='1e308')", "OverflowError"),
    ("17 delta, 46 distinct exp_eps", "ms = mechanisms(exp_eps=[f'{i}/100' for i in range(101, 147)])",
     "composed_delta(ms, eps_g=1)", "109 s, 5.7 GiB"),
    ("17 delta, eps 0.1 k = 130,000", "ms = mechanisms(eps=['0.1'], k=130000)", "composed_delta(ms, eps_g=1)", "accepted, 4.5 GiB"),
    ("17 delta, eps 0.1 k = 10^6", "ms = mechanisms(eps=['0.1'], k=10**6)", "composed_delta(ms, eps_g=1)", "refused after 31 s"),
    ("17 delta, ten eps 0.10001.. x 80", "ms = mechanisms(eps=[f'0.{10000 + i}' for i in range(1, 11)], k=80)",
     "composed_delta(ms, eps_g=1)", "153 s, 4.0 GiB"),
    ("17 certify, k = 1e5 with delta 1e-9", "ms = mechanisms(eps=['0.1'], delta='1e-9', k=100000)",
     "certify(ms, '800', '1e-6')", "260 s, 2.7 GiB"),
    ("17 certify, 3,000 distinct exp_eps", "ms = mechanisms(exp_eps=[f'{1000 + i}/1000' for i in range(1, 3001)])",
     "certify(ms, '1', '1e-6')", "106 s, no estimate"),
]


def run_edges(quick: bool) -> None:
    rows = []
    cases_ = EDGE_CASES[:7] if quick else EDGE_CASES
    for label, setup, call, before in cases_:
        spec = json.dumps({"setup": setup, "call": call})
        try:
            p = subprocess.run(["prlimit", f"--as={6 * 2**30}", sys.executable, "-c", EDGE_CHILD, spec],
                               capture_output=True, text=True, timeout=900)
            r = json.loads(p.stdout.strip().splitlines()[-1]) if p.returncode == 0 else {"ok": False, "error": p.stderr[-200:]}
        except (subprocess.TimeoutExpired, OSError, ValueError, IndexError) as e:
            r = {"ok": False, "error": repr(e)[:80]}
        res = (f"{r.get('method', '')}: {r.get('value', '')}" if r.get("ok") else
               f"{r.get('error')}" + (f" (estimate {fmt_est(r.get('estimate'))})" if r.get("estimate") else ""))
        rows.append((label, before, res, r.get("s"), r.get("peak"), r.get("evals")))
        print(f"{label:<44} {res[:70]:<70} {r.get('s', 0) or 0:8.2f} s {((r.get('peak') or 0) / 2**20):8.0f} MiB", flush=True)
    md = ["## Engines at their edges and their costs (`benchmarks/bench_optcomp.py --edges`)", "",
          f"Machine: {machine()}. One run each, in a child process: wall time of the call, peak memory above the "
          "interpreter's (VmHWM), evaluations of S by the inverse. 'Before' is what issues 16 and 17 reported.", "",
          "| case | before | now | time | peak memory | evaluations |", "|---|---|---|---|---|---|"]
    for label, before, res, sec, peak, ev in rows:
        md.append(f"| {label} | {before} | {res.replace('|', '/')} | {sec if sec is None else f'{sec:.2f} s'} | "
                  f"{'' if peak is None else f'{peak / 2**20:.0f} MiB'} | {ev or ''} |")
    md += ["", *estimate_table(quick)]
    write_section("engines-edges", "\n".join(md))
    print("wrote the engines-edges section of docs/benchmarks.md")


def fmt_est(e) -> str:
    if isinstance(e, dict) and "seconds" in e and "bytes" in e:
        return f"{float(e['seconds']):.3g} s, {float(e['bytes']) / 2**30:.3g} GiB"
    return str(e)[:60]


def estimate_table(quick: bool) -> list:
    """The cost model against measured peaks (the same child runs as tests/engines/test_costs.py, larger)."""
    sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests", "engines"))
    import test_costs  # noqa: E402

    D = lambda n: [f"{100 + i}/100" for i in range(1, n + 1)]  # noqa: E731
    cases_ = [
        ("homogeneous", {"mech": {"eps": ["0.1"], "k": 60000}, "query": "delta", "eps_g": "1", "engine": "certified"}),
        ("homogeneous", {"mech": {"exp_eps": ["11/10"], "k": 20000}, "query": "eps", "delta_g": "1e-6", "engine": "exact"}),
        ("lattice", {"mech": {"eps": [f"0.{10000 + i}" for i in range(1, 11)], "k": 16}, "query": "delta", "eps_g": "1",
                     "engine": "certified"}),
        ("grouped", {"mech": {"exp_eps": ["11/10", "6/5", "13/10"], "k": 60}, "query": "delta", "t": "2", "engine": "exact"}),
        ("brute", {"mech": {"exp_eps": D(18)}, "query": "delta", "t": "2", "engine": "exact"}),
        ("mitm", {"mech": {"exp_eps": D(32)}, "query": "delta", "t": "2", "engine": "certified"}),
        ("mitm", {"mech": {"exp_eps": D(28)}, "query": "eps", "delta_g": "1e-3", "engine": "exact"}),
    ]
    if quick:
        cases_ = cases_[::3]
    out = ["### The cost model against measured peaks", "",
           "Estimate = build + evaluations budgeted (3 for delta_g, 12 for OptComp) of `exactdp.engines.costs`; "
           "measured = peak resident memory of the call in a child process.", "",
           "| kernel | case | measured peak | estimate | estimate / measured |", "|---|---|---|---|---|"]
    for meth, spec in cases_:
        r = test_costs._run(meth, spec)
        m = spec["mech"]
        desc = f"{spec['engine']} {spec['query']}, " + (f"{len(m.get('eps') or m.get('exp_eps'))} values" +
                                                       (f" x {m['k']}" if "k" in m else ""))
        out.append(f"| {meth} | {desc} | {r['peak'] / 2**20:.0f} MiB | {r['estimate'] / 2**20:.0f} MiB | "
                   f"{r['estimate'] / max(r['peak'], 1):.2f} |")
        print(f"estimate {meth:<12} {desc:<40} measured {r['peak'] / 2**20:8.0f} MiB estimate {r['estimate'] / 2**20:8.0f} MiB", flush=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="one repetition each")
    ap.add_argument("--no-peers", action="store_true", help="skip dp_accounting")
    ap.add_argument("--edges", action="store_true", help="also the edge and cost cases (docs/benchmarks.md, engines-edges)")
    ap.add_argument("--only-edges", action="store_true", help="only the edge and cost cases")
    args = ap.parse_args()
    if args.edges or args.only_edges:
        run_edges(args.quick)
        if args.only_edges:
            return
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
