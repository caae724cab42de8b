"""Certified DP-SGD accounting against the float accountants, on the targets of the
accounting guide (docs/guides/dpsgd.md): the same question asked of exactdp's Accountant
and of dp_accounting's PLD (pessimistic and optimistic, two intervals) and RDP accountants
and prv_accountant, in one run, with each peer's signed distance to exactdp's certified
enclosure (0 inside it; negative below its lower end: an "upper bound" there is unsound).

Writes the section ``accounting`` of docs/benchmarks.md and docs/figures/accounting-peers.json
(the figure of the guide is drawn from it by docs/figures/make_accounting.py).

    python benchmarks/bench_accounting.py [--quick] [--no-peers]

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

#: (label, sigma, q, steps, delta, relation, digits)
TARGETS = [
    ("DP-SGD", 1, Fraction(1, 256), 10_000, "1e-5", "add_remove", 3),
    ("DP-SGD, 10^5 steps", 1, Fraction(1, 256), 100_000, "1e-5", "add_remove", 3),
    ("DP-SGD, q = 0.01", 1, Fraction(1, 100), 10_000, "1e-5", "add_remove", 3),
    ("tiny delta 1e-15", 2, Fraction(1, 100), 3000, "1e-15", "add_remove", 5),
]

#: the growth figure: sigma 1, q 1/256, delta 1e-5, k from 10^2 to 10^5
GROWTH = [100, 1000, 10_000, 100_000]


def exactdp_eps(sigma, q, k, delta, relation, digits):
    from exactdp import Accountant, Gaussian, PoissonSampled

    acc = Accountant(relation).compose(PoissonSampled(Gaussian(sigma), q), k)
    return acc.epsilon(delta, digits=digits), acc.last


def peers(sigma, q, k, delta, relation):
    """{name: (value, seconds, kind)} for every installed peer (kind: upper / lower / estimate)."""
    out = {}
    d = float(delta)
    try:
        import dp_accounting
        from dp_accounting import dp_event as E
        from dp_accounting.pld import pld_privacy_accountant as PLDA
        from dp_accounting.rdp import rdp_privacy_accountant as RDPA

        ev = E.SelfComposedDpEvent(E.PoissonSampledDpEvent(float(q), E.GaussianDpEvent(float(sigma))), k)
        rel = dp_accounting.NeighboringRelation.ADD_OR_REMOVE_ONE
        for interval in (1e-4, 1e-5):
            for pess in (True, False):
                if interval == 1e-5 and k > 10_000:
                    continue  # minutes: not run at this size

                def run(interval=interval, pess=pess):
                    from dp_accounting.pld import privacy_loss_distribution as PLD

                    pld = PLD.from_gaussian_mechanism(float(sigma), pessimistic_estimate=pess,
                                                      value_discretization_interval=interval,
                                                      sampling_prob=float(q))
                    return pld.self_compose(k).get_epsilon_for_delta(d)

                t, v = timed(run)
                out[f"dp_accounting PLD {'pessimistic' if pess else 'optimistic'} {interval:g}"] = (
                    v, t, "upper" if pess else "estimate")
        acc_rdp = RDPA.RdpAccountant(neighboring_relation=rel)
        t, v = timed(lambda: acc_rdp.compose(ev).get_epsilon(d))
        out["dp_accounting RDP"] = (v, t, "upper")
        _ = PLDA
    except ImportError:
        pass
    try:
        from prv_accountant import PRVAccountant
        from prv_accountant.privacy_random_variables import PoissonSubsampledGaussianMechanism

        for err in (0.01, 0.002):
            def run(err=err):
                prv = PoissonSubsampledGaussianMechanism(noise_multiplier=float(sigma), sampling_probability=float(q))
                a = PRVAccountant(prvs=[prv], max_self_compositions=[k], eps_error=err, delta_error=d / 1000)
                return a.compute_epsilon(delta=d, num_self_compositions=[k])

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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="the first target only")
    ap.add_argument("--no-peers", action="store_true")
    args = ap.parse_args()
    load = os.getloadavg()[0]
    rows, fig = [], {"growth": [], "targets": []}
    for label, sigma, q, k, delta, rel, digits in TARGETS[:1] if args.quick else TARGETS:
        import resource

        t, (enc, last) = timed(lambda: exactdp_eps(sigma, q, k, delta, rel, digits))
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        width = float((enc.upper - enc.lower) / enc.upper)
        print(f"{label}: exactdp [{float(enc.lower):.6f}, {float(enc.upper):.6f}] width {width:.2e} "
              f"{t:.2f} s, {last.points} points, process peak {peak:.0f} MiB", flush=True)
        rows.append(f"| {label} (sigma {sigma}, q {q}, k {k}, delta {delta}, {rel}) | **exactdp, certified** | "
                    f"[{float(enc.lower):.6f}, {float(enc.upper):.6f}] (width {width:.1e} x eps; {last.points} points, "
                    f"process peak {peak:.0f} MiB) | {t:.2f} s | enclosure |")
        pe = {} if args.no_peers else peers(sigma, q, k, delta, rel)
        for name, (v, tp, kind) in pe.items():
            if kind == "error":
                rows.append(f"| | {name} | {v} | | |")
                continue
            s = signed(v, enc)
            print(f"  {name}: {v} ({tp:.2f} s) signed error {s}", flush=True)
            rows.append(f"| | {name} | {v:.6f} (signed error {s:+.2e}) | {tp:.2f} s | {kind}: {verdict(v, enc, kind)} |")
        fig["targets"].append({"label": label, "lower": float(enc.lower), "upper": float(enc.upper), "seconds": t,
                               "peers": {n: [v, tp, kind] for n, (v, tp, kind) in pe.items() if kind != "error"}})
    if not args.quick:
        for k in GROWTH:
            t, (enc, last) = timed(lambda: exactdp_eps(1, Fraction(1, 256), k, "1e-5", "add_remove", 3))
            pe = {} if args.no_peers else peers(1, Fraction(1, 256), k, "1e-5", "add_remove")
            print(f"growth k={k}: [{float(enc.lower):.6f}, {float(enc.upper):.6f}] {t:.2f} s", flush=True)
            fig["growth"].append({"k": k, "lower": float(enc.lower), "upper": float(enc.upper), "seconds": t,
                                  "points": last.points,
                                  "peers": {n: [v, tp, kind] for n, (v, tp, kind) in pe.items() if kind != "error"}})
        ks = [g["k"] for g in fig["growth"]]
        ts = [g["seconds"] for g in fig["growth"]]
        slope = (math.log(ts[-1]) - math.log(ts[0])) / (math.log(ks[-1]) - math.log(ks[0]))
        fig["time_exponent"] = slope
    md = ["## Certified DP-SGD accounting against the float accountants",
          "",
          f"`benchmarks/bench_accounting.py`, {machine()}, load average {load:.1f} at the start (the machine is "
          "shared: times are single runs). exactdp's answer is a certified enclosure at the digits given; each peer's "
          "signed error is its distance to that enclosure (0 inside).",
          "",
          "| question | accountant | epsilon | time | claims / verdict |",
          "|---|---|---|---|---|"] + rows
    if fig["growth"]:
        md += ["", "Time against steps (sigma 1, q 1/256, delta 1e-5, 3 digits): "
               + ", ".join(f"k = {g['k']}: {g['seconds']:.2f} s ({g['points']} points)" for g in fig["growth"])
               + f"; fitted exponent {fig['time_exponent']:.2f}."]
    if not args.quick:
        write_section("accounting", "\n".join(md))
        os.makedirs(os.path.dirname(FIG), exist_ok=True)
        with open(FIG, "w") as f:
            json.dump(fig, f, indent=1)
    print("\n".join(md))


if __name__ == "__main__":
    main()
