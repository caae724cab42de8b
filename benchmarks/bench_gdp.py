"""GDP (issue 11): speed of the certified conversions, the filter and the simulator; the
conversions cross-checked against mpmath at higher precision and, side by side, against
Google's dp_accounting (its Gaussian PLD and RDP accountants).

* Conversions: ``gdp_delta``, ``gdp_epsilon``, ``gdp_mu``, ``gdp_tradeoff`` at 15, 30, 100
  and 1000 significant digits (medians of repeated runs), on a moderate and a far-tail case.
* mpmath cross-check: a grid of (mu, eps) / (mu, delta) / (eps, delta) / (mu, alpha);
  mpmath's value at 80 digits (the closed form; the inverses by bisection) must lie in the
  certified 30-digit enclosure; the count and the worst distance to the midpoint (in
  enclosure half-widths) are reported.
* Filter: time per answered query (exact ledger + NumPy noise) and per accountant-only charge.
* Simulator: time per online query for 10^5 simultaneous runs; the exact factor for T = 50.
* dp_accounting (in its own virtual environment ``benchmarks/.venv-peers``, created on first
  use; not a dependency of exactdp; ``--no-peers`` skips it): the Gaussian mechanism
  composed k times (PLD at two discretization intervals; RDP), eps at delta = 1e-5 and delta
  at eps = 1, against exactdp's certified values of mu = sqrt(k)/sigma.

Usage: ``python benchmarks/bench_gdp.py [--quick] [--no-peers]``. Prints its figures and writes
its section of ``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from fractions import Fraction as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import mpmath as mp  # noqa: E402
import numpy as np  # noqa: E402

from exactdp.gdp import (  # noqa: E402
    GDPFilter,
    OnlineSimulator,
    cholesky_factor,
    gdp_delta,
    gdp_epsilon,
    gdp_mu,
    gdp_tradeoff,
    sigma_matrix,
)

sys.path.insert(0, HERE)
from _report import write_section  # noqa: E402

PEER_VENV = os.path.join(HERE, ".venv-peers")

PEER_SCRIPT = r"""
import json, sys, time
from dp_accounting.pld import privacy_loss_distribution as pldlib
from dp_accounting import dp_event, rdp
spec = json.load(sys.stdin)
out = []
for case in spec:
    row = {"k": case["k"], "sigma": case["sigma"]}
    for vdi in case["intervals"]:
        t0 = time.perf_counter()
        pld = pldlib.from_gaussian_mechanism(standard_deviation=case["sigma"], sensitivity=1.0,
                                             value_discretization_interval=vdi)
        pld = pld.self_compose(case["k"]) if case["k"] > 1 else pld
        e = pld.get_epsilon_for_delta(case["delta"])
        d = pld.get_delta_for_epsilon(case["eps"])
        row[f"pld_{vdi}"] = {"eps": e, "delta": d, "t": time.perf_counter() - t0}
    t0 = time.perf_counter()
    acc = rdp.RdpAccountant()
    acc.compose(dp_event.GaussianDpEvent(case["sigma"]), case["k"])
    row["rdp"] = {"eps": acc.get_epsilon(case["delta"]), "t": time.perf_counter() - t0}
    out.append(row)
json.dump(out, sys.stdout)
"""


def machine() -> str:
    return f"{platform.python_implementation()} {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cores"


def median_time(fn, repeat: int):
    ts, val = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        val = fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts), val


def fmt_t(t: float) -> str:
    return f"{t * 1e3:.2f} ms" if t < 1 else f"{t:.2f} s"


def bench_conversions(quick: bool) -> list[str]:
    rows = ["| function | case | 15 digits | 30 digits | 100 digits | 1000 digits |", "|---|---|---|---|---|---|"]
    cases = [
        ("gdp_delta", "mu = 1, eps = 1", lambda d: gdp_delta(1, 1, digits=d)),
        ("gdp_delta", "mu = 1, eps = 600 (delta ~ 1.9e-78049)", lambda d: gdp_delta(1, 600, digits=d)),
        ("gdp_epsilon", "mu = 1, delta = 1e-5", lambda d: gdp_epsilon(1, F(1, 10**5), digits=d)),
        ("gdp_epsilon", "mu = 10^6, delta = 1e-5 (eps ~ 5e11)", lambda d: gdp_epsilon(10**6, F(1, 10**5), digits=d)),
        ("gdp_mu", "eps = 1, delta = 1e-5", lambda d: gdp_mu(1, F(1, 10**5), digits=d)),
        ("gdp_mu", "eps = 1, delta = 1e-300", lambda d: gdp_mu(1, F(1, 10**300), digits=d)),
        ("gdp_tradeoff", "mu = 1, alpha = 0.05", lambda d: gdp_tradeoff(1, F(1, 20), digits=d)),
        ("gdp_tradeoff", "mu = 30, alpha = 1/2 (G ~ 5e-198)", lambda d: gdp_tradeoff(30, F(1, 2), digits=d)),
    ]
    for name, label, fn in cases:
        cells = []
        for d in (15, 30, 100, 1000):
            if quick and d == 1000 and "600" in label:
                cells.append("-")
                continue
            t, _ = median_time(lambda: fn(d), 3 if d == 1000 else 7)
            cells.append(fmt_t(t))
        rows.append(f"| `{name}` | {label} | " + " | ".join(cells) + " |")
        print(rows[-1], flush=True)
    return rows


def _closed(mu, eps, dps):
    with mp.workdps(dps):
        m, e = mp.mpf(F(mu).numerator) / F(mu).denominator, mp.mpf(F(eps).numerator) / F(eps).denominator
        if e == 0:
            return mp.erf(m / (2 * mp.sqrt(2)))
        return mp.ncdf(-e / m + m / 2) - mp.exp(e) * mp.ncdf(-e / m - m / 2)


def _bisect(f, lo, hi, dps):
    with mp.workdps(dps):
        lo, hi = mp.mpf(lo), mp.mpf(hi)
        s = f(lo) > 0
        for _ in range(int(dps * 3.4) + 20):
            m = (lo + hi) / 2
            if (f(m) > 0) == s:
                lo = m
            else:
                hi = m
        return (lo + hi) / 2


def bench_mpmath() -> list[str]:
    """mpmath at 80 digits inside the certified 30-digit enclosures; worst |ref - mid| / half-width."""
    mus = [F(1, 100), F(1, 2), F(1), F(3), F(20)]
    epss = [F(0), F(1, 10), F(1), F(5), F(20)]
    deltas = [F(1, 10**12), F(1, 10**5), F(1, 100), F(1, 4)]
    alphas = [F(1, 10**6), F(1, 20), F(1, 2), F(9, 10)]
    stats = {}

    def record(kind, enc, ref):
        r = F(mp.nstr(ref, 75))
        ok = enc.lower <= r <= enc.upper
        half = (enc.upper - enc.lower) / 2
        dist = float(abs(r - (enc.lower + enc.upper) / 2) / half) if half else 0.0
        n, good, worst = stats.get(kind, (0, 0, 0.0))
        stats[kind] = (n + 1, good + ok, max(worst, dist))

    with mp.workdps(80):
        for mu in mus:
            for eps in epss:
                if eps / mu - mu / 2 > 600:
                    continue
                record("delta", gdp_delta(mu, eps, digits=30), _closed(mu, eps, 80))
            for dl in deltas:
                enc = gdp_epsilon(mu, dl, digits=30)
                if enc.exact is not None:
                    continue
                lo, hi = float(enc.lower) / 2, float(enc.upper) * 2
                ref = _bisect(lambda e: mp.log(_closed(mu, F(mp.nstr(e, 90)), 85)) - mp.log(mp.mpf(dl.numerator) / dl.denominator),
                              lo, hi, 80)
                record("epsilon", enc, ref)
            for a in alphas:
                aa = mp.mpf(a.numerator) / a.denominator
                record("tradeoff", gdp_tradeoff(mu, a, digits=30),
                       mp.ncdf(mp.sqrt(2) * mp.erfinv(1 - 2 * aa) - mp.mpf(mu.numerator) / mu.denominator))
        for eps in epss:
            for dl in deltas:
                enc = gdp_mu(eps, dl, digits=30)
                ref = _bisect(lambda m: mp.log(_closed(F(mp.nstr(m, 90)), eps, 85)) - mp.log(mp.mpf(dl.numerator) / dl.denominator),
                              float(enc.lower) / 2, float(enc.upper) * 2, 80)
                record("mu", enc, ref)
    rows = ["| function | cases | mpmath (80 digits) inside the 30-digit enclosure | worst distance to the midpoint |",
            "|---|---|---|---|"]
    for kind, (n, good, worst) in stats.items():
        rows.append(f"| `gdp_{kind}` | {n} | {good} / {n} | {worst:.3f} half-widths |")
        print(rows[-1], flush=True)
    return rows


def bench_filter(quick: bool) -> list[str]:
    n = 2000 if quick else 10000
    f = GDPFilter(10**9, seed=0)
    t0 = time.perf_counter()
    for i in range(n):
        f.gaussian(1.0, sensitivity=1, mu=F(1, 3 + i % 7))
    t_q = (time.perf_counter() - t0) / n
    g = GDPFilter(10**9)
    t0 = time.perf_counter()
    for i in range(n):
        g.charge(mu=F(1, 3 + i % 7))
    t_c = (time.perf_counter() - t0) / n
    t_r, _ = median_time(lambda: f.report(delta="1e-5", digits=6), 3)
    rows = [f"| filter: answered Gaussian query (exact ledger + noise) | {t_q * 1e6:.1f} us per query ({n} queries) |",
            f"| filter: accountant-only charge | {t_c * 1e6:.1f} us per charge |",
            f"| filter: report with the certified eps at delta = 1e-5 ({n} log lines) | {fmt_t(t_r)} |"]
    for r in rows:
        print(r, flush=True)
    return rows


def bench_simulator(quick: bool) -> list[str]:
    runs = 10**5
    rng = np.random.default_rng(0)
    sim = OnlineSimulator(rng.standard_normal(runs), 1, rng=rng)
    T = 50
    t0 = time.perf_counter()
    for _ in range(T):
        sim.answer(F(1, 10))  # 50 * 1/100 = 1/2 of the budget
    t_s = (time.perf_counter() - t0) / T
    t_f, L = median_time(lambda: cholesky_factor([F(1, 10)] * T), 3)
    t_g, ok = median_time(lambda: L.gram() == sigma_matrix([F(1, 10)] * T), 1)
    rows = [f"| simulator: one online query for {runs:,} runs at once | {fmt_t(t_s)} ({t_s / runs * 1e9:.0f} ns per run) |",
            f"| exact canonical factor, T = {T} | {fmt_t(t_f)} |",
            f"| exact check L L^T = I - m m^T, T = {T} | {fmt_t(t_g)} ({'holds' if ok else 'FAILS'}) |"]
    for r in rows:
        print(r, flush=True)
    return rows


def ensure_peer_venv() -> str:
    py = os.path.join(PEER_VENV, "bin", "python")
    if not os.path.exists(py):
        subprocess.run([sys.executable, "-m", "venv", PEER_VENV], check=True)
        subprocess.run([py, "-m", "pip", "install", "--quiet", "dp-accounting"], check=True)
    return py


def bench_peers() -> list[str]:
    cases = [{"k": 1, "sigma": 1.0}, {"k": 100, "sigma": 10.0}, {"k": 10000, "sigma": 100.0}, {"k": 1000, "sigma": 5.0}]
    for c in cases:
        c.update(delta=1e-5, eps=1.0, intervals=[1e-3, 1e-4])
    py = ensure_peer_venv()
    r = subprocess.run([py, "-c", PEER_SCRIPT], input=json.dumps(cases), capture_output=True, text=True, check=True)
    peers = json.loads(r.stdout)
    ver = subprocess.run([py, "-c", "import importlib.metadata as m; print(m.version('dp-accounting'))"],
                         capture_output=True, text=True).stdout.strip()
    rows = [f"dp_accounting {ver}, Gaussian mechanism (sensitivity 1, sigma) composed k times; exactdp: mu = sqrt(k)/sigma, "
            "certified to 30 digits (shown to 10). Error = peer minus exactdp's value (positive = pessimistic).", "",
            "| k | sigma | mu | exactdp eps at 1e-5 | PLD 1e-3: eps (error, time) | PLD 1e-4: eps (error, time) | RDP eps (error) "
            "| exactdp delta at eps = 1 | PLD 1e-4: delta (error) |",
            "|---|---|---|---|---|---|---|---|---|"]
    for p in peers:
        mu_sq = F(p["k"]) / F(p["sigma"]) ** 2
        t0 = time.perf_counter()
        e = gdp_epsilon(GDP_(mu_sq), F(1, 10**5), digits=30)
        dlt = gdp_delta(GDP_(mu_sq), 1, digits=30)
        t_ex = time.perf_counter() - t0
        em, dm = float((e.lower + e.upper) / 2), float((dlt.lower + dlt.upper) / 2)
        a, b = p["pld_0.001"], p["pld_0.0001"]
        rows.append(f"| {p['k']} | {p['sigma']:g} | {float(mu_sq) ** 0.5:.4g} | {em:.10f} ({fmt_t(t_ex)} both) "
                    f"| {a['eps']:.10f} ({a['eps'] - em:+.2e}, {fmt_t(a['t'])}) | {b['eps']:.10f} ({b['eps'] - em:+.2e}, {fmt_t(b['t'])}) "
                    f"| {p['rdp']['eps']:.6f} ({p['rdp']['eps'] - em:+.2e}) | {dm:.10g} | {b['delta']:.10g} ({b['delta'] - dm:+.2e}) |")
        print(rows[-1], flush=True)
    return rows


def GDP_(mu_sq):
    from exactdp.gdp import GDP

    return GDP(mu_sq=mu_sq)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--no-peers", action="store_true", help="skip dp_accounting")
    args = ap.parse_args()
    md = ["## GDP (issue 11)", "", f"Machine: {machine()}. Script: `benchmarks/bench_gdp.py`"
          + (" (--quick)" if args.quick else "") + ".", "", "### Certified conversions (median time per call)", ""]
    md += bench_conversions(args.quick)
    md += ["", "### Cross-check against mpmath", ""]
    md += bench_mpmath()
    md += ["", "### Filter and simulator", "", "| operation | time |", "|---|---|"]
    md += bench_filter(args.quick)
    md += bench_simulator(args.quick)
    if not args.no_peers:
        md += ["", "### Side by side: dp_accounting", ""]
        try:
            md += bench_peers()
        except Exception as e:  # no network, no wheel: the comparison is optional
            print(f"dp_accounting unavailable: {e}")
            md += [f"dp_accounting unavailable in this run ({type(e).__name__})."]
    write_section("gdp", "\n".join(md))
    print("wrote the gdp section of docs/benchmarks.md")


if __name__ == "__main__":
    main()
