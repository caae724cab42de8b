"""Heterogeneous compositions: n mechanisms with eps drawn uniformly from {10..500}/1000
(three decimals in [0.01, 0.5], seed 1), delta 0; certified, 30 digits.

Queries, each on a fresh composition (so each time includes building the composition of
``n`` mechanisms and the kernel): OptComp at delta_g = 1e-5, and delta_g at eps_g = that
answer. ``auto`` picks the contour kernel (``lattice-contour``: ``u = e^(1/1000)``, about 490
distinct exponents, the tails as contour integrals on one circle); the ball-lattice kernel
(``lattice-balls``, the polynomial in fixed point) is timed beside it on 1,000. Beside them, on
the same 1,000 mechanisms, dp_accounting's privacy-loss distribution (each mechanism's PLD
composed in turn, value discretisation 1e-4, pessimistic), and on every size autodp's RDP
(``PureDP_Mechanism`` per distinct eps, composed with counts, ``get_approxDP``): estimates,
not enclosures; their times are the peers', their values no expected values (RDP's is an
upper bound, loose).

Usage: ``python benchmarks/bench_hetero.py [--quick]`` (``--quick``: n = 1,000 only; the
full run adds n = 10^4, minutes on the shared 2-core machine). Prints a markdown table
and writes the section "hetero" of ``docs/benchmarks.md``.
"""

from __future__ import annotations

import os
import random
import sys
import time
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

from _report import machine, query_rows, table_lines, write_section  # noqa: E402


def eps_list(n: int) -> list:
    rng = random.Random(1)
    return [Fraction(rng.randint(10, 500), 1000) for _ in range(n)]


def pld_epsilon(eps: list, delta_g: float) -> tuple[float, float]:
    """``(seconds, eps_g)`` of dp_accounting's PLD composition of pure-eps mechanisms."""
    from dp_accounting.pld import privacy_loss_distribution as pld

    t0 = time.perf_counter()
    acc = None
    for e in eps:
        d = pld.from_privacy_parameters(pld.common.DifferentialPrivacyParameters(float(e), 0.0),
                                        value_discretization_interval=1e-4)
        acc = d if acc is None else acc.compose(d)
    v = acc.get_epsilon_for_delta(delta_g)
    return time.perf_counter() - t0, v


def autodp_epsilon(eps: list, delta_g: float) -> tuple[float, float]:
    """``(seconds, eps_g)`` of autodp's RDP composition of pure-eps mechanisms (import excluded)."""
    from collections import Counter

    from autodp.mechanism_zoo import PureDP_Mechanism
    from autodp.transformer_zoo import Composition

    t0 = time.perf_counter()
    c = Counter(eps)
    comp = Composition()([PureDP_Mechanism(eps=float(e)) for e in c], list(c.values()))
    v = comp.get_approxDP(delta=delta_g)
    return time.perf_counter() - t0, v


def main() -> int:
    from exactdp import mechanisms

    quick = "--quick" in sys.argv[1:]
    sizes = [1000] if quick else [1000, 10**4]
    md = ["## Heterogeneous compositions (`benchmarks/bench_hetero.py`)", "",
          f"Machine: {machine()}. n mechanisms, eps uniform in {{10..500}}/1000 (seed 1), delta 0; "
          "certified, 30 digits; each query on a fresh composition (the kernel's build included).", ""]
    for n in sizes:
        eps = eps_list(n)
        print(f"n = {n}", flush=True)
        rows = query_rows(lambda eps=eps: mechanisms(eps=eps), ["1e-5"], [1.0])
        ours = rows[0][2]
        if n == 1000:
            rows += query_rows(lambda eps=eps: mechanisms(eps=eps), ["1e-5"], [], method="lattice-balls")
        md += [f"### n = {n}", "", *table_lines(rows), ""]
        peers = [("autodp", autodp_epsilon,
                  lambda secs, v: f"autodp RDP (PureDP, composed with counts) on the same {n}: eps_g = {v:.6f} (an upper "
                                  f"bound) in {secs:.3f} s; exactdp's certified OptComp / autodp time: {ours / secs:.1f}")]
        if n == 1000:
            peers.append(("dp_accounting", pld_epsilon,
                          lambda secs, v: f"dp_accounting PLD (interval 1e-4, pessimistic) on the same {n}: eps_g = {v:.6f} "
                                          f"in {secs:.2f} s; exactdp's certified OptComp / PLD time: {ours / secs:.3f}"))
        for name, run, describe in peers:
            try:
                secs, v = run(eps, 1e-5)
            except ImportError:
                print(f"{name} not installed: its row is left out", flush=True)
                continue
            line = describe(secs, v)
            print(line, flush=True)
            md += [line, ""]
    write_section("hetero", "\n".join(md))
    return 0


if __name__ == "__main__":
    sys.exit(main())
