"""Write the table of docs/published-epsilons.md: DP-SGD epsilons printed by widely read sources,
each beside exactdp's certified enclosure for the same parameters and a verdict.

    python docs/tools/published_epsilons.py            # every row (a few minutes)
    python docs/tools/published_epsilons.py --only tfp-readme-60,opacus-rdp-test

The sources and their parameters are data (``SOURCES``, ``ROWS``): each number in them was read
in the stored source named beside it. The certified values are computed when the script runs,
with :class:`exactdp.Accountant` (add/remove relation unless the source states another), and
written between the ``<!-- table:start -->`` and ``<!-- table:end -->`` markers of the page.

Verdicts (exact rational comparisons, :func:`verdict`): the printed number is compared with the
certified enclosure ``[lo, hi]`` widened by the rounding of the printed number (half a unit of
its last printed digit, or the tolerance the source itself states, or 0 for a target such as
"stop training at epsilon = 1"):

* *reproduces*: ``lo - tol <= printed <= hi + tol``;
* *conservative by x %*: ``printed > hi + tol``; x = (printed / hi - 1) * 100, rounded down
  (the printed value overstates the optimum by at least x %);
* *optimistic by y %*: ``printed < lo - tol`` -- the printed epsilon is below the smallest
  epsilon the mechanism satisfies at that delta, an erratum; y = (1 - printed / lo) * 100,
  rounded down.
"""

from __future__ import annotations

import argparse
import datetime
import math
import platform
import re
import sys
import time
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # this checkout's exactdp, not an installed one
PAGE = ROOT / "docs" / "published-epsilons.md"
START, END = "<!-- table:start -->", "<!-- table:end -->"


@dataclass(frozen=True)
class Source:
    key: str
    title: str
    where: str  # URL or repository path, as stored
    accountant: str  # what produced the printed numbers, as the source says (or "not stated")


@dataclass(frozen=True)
class Row:
    """One printed number. ``parts``: ``(sigma, q, steps)`` strings; ``q = None`` is no sampling."""

    key: str
    source: str
    printed: str  # the number as printed (a decimal string)
    as_printed: str  # the parameters as the source prints them
    parts: tuple
    delta: Optional[str] = None  # epsilon rows: the delta; delta rows: None
    eps: Optional[str] = None  # delta rows: the epsilon at which delta is printed
    relation: str = "add_remove"
    tol: Optional[str] = None  # None: half a unit of the last printed digit
    digits: int = 3
    h: Optional[str] = None  # a fixed lattice step (no refinement), where the digits are refused
    computed: str = ""  # the interpretation computed, when the printed parameters leave a choice
    cheap: bool = False  # used by the page's staleness test (each a few seconds)


def _steps(epochs: int, per_epoch: int) -> int:
    return epochs * per_epoch


SOURCES = [
    Source("tfp-readme", "TensorFlow Privacy, MNIST DP-SGD tutorial README (\"Expected Output\" and "
           "\"Select Parameters\")", "github.com/tensorflow/privacy: tutorials/README.md",
           "TF-Privacy RDP accountant (`compute_rdp`, `get_privacy_spent`)"),
    Source("tfp-cli", "TensorFlow Privacy, `compute_dp_sgd_privacy` (module docstring)",
           "github.com/tensorflow/privacy: privacy/analysis/compute_dp_sgd_privacy.py",
           "TF-Privacy RDP accountant"),
    Source("tfp-rdp-test", "TensorFlow Privacy, RDP accountant tests (the moments-accountant example "
           "of Abadi et al. 2016: q = 0.01, sigma = 4, T = 10000)",
           "github.com/tensorflow/privacy: privacy/analysis/rdp_accountant_test.py",
           "TF-Privacy RDP accountant, orders 2..32 (and a fixed list for the composition)"),
    Source("dpa-rdp-test", "dp_accounting (Google), RDP accountant tests",
           "github.com/google/differential-privacy: python/dp_accounting/rdp/rdp_privacy_accountant_test.py",
           "dp_accounting RDP accountant, orders 1.000..99.999 step 0.001"),
    Source("opacus-mnist", "Opacus, MNIST example README", "github.com/pytorch/opacus: examples/mnist_README.md",
           "Opacus RDP accountant (the output names the order alpha)"),
    Source("opacus-acct-test", "Opacus, accountant tests", "github.com/pytorch/opacus: opacus/tests/accountants_test.py",
           "Opacus RDP and GDP accountants"),
    Source("opacus-prv-test", "Opacus, PRV accountant test values (\"Computed from "
           "https://github.com/microsoft/prv_accountant\")",
           "github.com/pytorch/opacus: opacus/tests/prv_accountant.py", "prv_accountant, via Opacus"),
    Source("fourier", "Fourier accountant (Koskela, Jälkö, Honkela), usage example",
           "github.com/DPBayes/PLD-Accountant: examples/simple_usage_example.py",
           "Fourier accountant (`get_epsilon_S`, `get_delta_R`)"),
    Source("jaxp-cifar10", "JAX-Privacy (De et al. 2022 code), CIFAR-10 WRN-16-4 config "
           "\"Training a WRN-16-4 on CIFAR-10 with (1.0, 1e-5)-DP\"",
           "github.com/google-deepmind/jax_privacy: experiments/image_classification/configs/cifar10_wrn_16_4_eps1.py",
           "not stated in the config (JAX-Privacy's accountant stops training at the target)"),
    Source("bu-gdp", "Bu, Dong, Long, Su, \"Deep Learning with Gaussian Differential Privacy\", "
           "Harvard Data Science Review 2020, Figure 4",
           "https://pmc.ncbi.nlm.nih.gov/articles/PMC7695347/figure/F4",
           "moments accountant (and the GDP central limit theorem; the caption says both give the value)"),
]

_TF_Q = "256/60000"
_TF_E = 60000 // 256  # the tutorial's steps_per_epoch (234)
ROWS = [
    Row("tfp-readme-1", "tfp-readme", "1.00", "batch 256 of 60000, noise 1.12, 1 epoch, delta 1e-5",
        (("1.12", _TF_Q, _steps(1, _TF_E)),), delta="1e-5",
        computed="234 steps per epoch: the tutorial's `60000 // batch_size`", cheap=True),
    Row("tfp-readme-2", "tfp-readme", "1.04", "as above, 2 epochs", (("1.12", _TF_Q, _steps(2, _TF_E)),),
        delta="1e-5", computed=""),
    Row("tfp-readme-60", "tfp-readme", "2.92", "batch 256, noise 1.12, 60 epochs, delta 1e-5",
        (("1.12", _TF_Q, _steps(60, _TF_E)),), delta="1e-5", computed=""),
    Row("tfp-readme-0.6", "tfp-readme", "9.74", "noise 0.6, 256 microbatches, 30 epochs",
        (("0.6", _TF_Q, _steps(30, _TF_E)),), delta="1e-5", computed="batch 256 of 60000 (the table's microbatches)"),
    Row("tfp-readme-1.2", "tfp-readme", "1.20", "noise 1.2, 256 microbatches, 10 epochs",
        (("1.2", _TF_Q, _steps(10, _TF_E)),), delta="1e-5", computed="batch 256 of 60000 (the table's microbatches)"),
    Row("tfp-cli-60", "tfp-cli", "2.92", "--N=60000 --batch_size=256 --noise_multiplier=1.12 --epochs=60 "
        "--delta=1e-5", (("1.12", _TF_Q, math.ceil(Fraction(60 * 60000, 256))),), delta="1e-5",
        computed="the script's `ceil(epochs * N / batch_size)`"),
    Row("tfp-rdp-abadi", "tfp-rdp-test", "1.258575", "compute_rdp(0.01, 4, 10000, orders), target_delta=1e-5",
        (("4", "0.01", 10000),), delta="1e-5"),
    Row("tfp-rdp-composition", "tfp-rdp-test", "8.509656", "q=1e-4, noise .4, 40000 steps, then q=0.1, "
        "noise 2, 100 steps; target_delta=1e-5", (("0.4", "1e-4", 40000), ("2", "0.1", 100)), delta="1e-5",
        digits=1, h="1/65536",
        computed="one lattice, step h = 2^-16: even 1 digit would need a 1.9 GiB lattice"),
    Row("dpa-gaussian", "dpa-rdp-test", "1", "Gaussian, q = 1, noise 4.530877117 \"chosen to obtain exactly "
        "(1,1e-6)-DP\"; assertAlmostEqual(eps, 1)", (("4.530877117", None, 1),), delta="1e-6", tol="5e-8",
        digits=5, computed="one Gaussian step, 5 digits (assertAlmostEqual: 7 places)", cheap=True),
    Row("opacus-mnist-e1", "opacus-mnist", "0.71", "-sr=0.004 --sigma=1.3, epoch 1, delta 1e-05",
        (("1.3", "0.004", 250),), delta="1e-5",
        computed="1/sr = 250 steps per epoch (the progress bar shows 240/240)"),
    Row("opacus-mnist-e15", "opacus-mnist", "1.18", "-n=15 --sigma=1.3 -sr=0.004, epoch 15",
        (("1.3", "0.004", 3750),), delta="1e-5", computed="250 steps per epoch"),
    Row("opacus-mnist-e15-240", "opacus-mnist", "1.18", "the same run read as 240 steps per epoch",
        (("1.3", "0.004", 3600),), delta="1e-5", computed="240 steps per epoch, as the progress bar counts"),
    Row("opacus-mnist-1.19", "opacus-mnist", "1.19", "(1.19, 1e-5)-DP: -n=15 --sigma=1.3 -sr=0.004",
        (("1.3", "0.004", 3750),), delta="1e-5", computed="250 steps per epoch"),
    Row("opacus-mnist-7.10", "opacus-mnist", "7.10", "(7.10, 1e-5)-DP: -n=45 --sigma=.7 -sr=0.004",
        (("0.7", "0.004", 11250),), delta="1e-5", computed="250 steps per epoch"),
    Row("opacus-mnist-3.01", "opacus-mnist", "3.01", "(3.01, 1e-5)-DP: -n 60 --sigma=1.1 -sr=0.004",
        (("1.1", "0.004", 15000),), delta="1e-5", computed="250 steps per epoch"),
    Row("opacus-rdp-test", "opacus-acct-test", "7.32911117143", "noise 1.5, sample_rate 0.04, "
        "steps int(90 / 0.04), delta 1e-5", (("1.5", "0.04", 2250),), delta="1e-5",
        computed="int(90 / 0.04) = 2250 in float64"),
    Row("opacus-gdp-test", "opacus-acct-test", "6.6", "GaussianAccountant, noise 1.5, sample_rate 0.04, "
        "steps int(90 // 0.04); asserts 6.59 < eps < 6.6", (("1.5", "0.04", 2249),), delta="1e-5", tol="0",
        computed="int(90 // 0.04) = 2249 in float64; the printed number is the asserted upper limit"),
    Row("opacus-gdp-sigma", "opacus-acct-test", "8", "get_noise_multiplier(eps 8, delta 1e-5, sample_rate "
        "0.04, epochs 90, accountant=\"gdp\") == 1.3232421875", (("1.3232421875", "0.04", 2250),),
        delta="1e-5", tol="0", computed="the returned sigma, 90 epochs = 2250 steps; target epsilon 8"),
    Row("opacus-rdp-sigma", "opacus-acct-test", "8", "get_noise_multiplier(eps 8, delta 1e-5, sample_rate "
        "0.04, steps 2000) == 1.3562 (4 places)", (("1.3562", "0.04", 2000),), delta="1e-5", tol="0",
        computed="sigma 1.3562 as printed (the test allows +-5e-5); target epsilon 8"),
    Row("prv-0.8-0.001-100", "opacus-prv-test", "0.270403364058018680360362395731", "(0.8, 0.001, 100), "
        "delta 1e-6", (("0.8", "0.001", 100),), delta="1e-6", tol="5e-6", computed="assertAlmostEqual: 5 places",
        cheap=True),
    Row("prv-2.0-0.2-100", "opacus-prv-test", "5.67205560882372950004537415225", "(2.0, 0.2, 100), delta 1e-6",
        (("2", "0.2", 100),), delta="1e-6", tol="5e-6"),
    Row("prv-1.5-0.05-1000", "opacus-prv-test", "6.20996924657726712126759593957", "(1.5, 0.05, 1000), "
        "delta 1e-6", (("1.5", "0.05", 1000),), delta="1e-6", tol="5e-6"),
    Row("prv-3.0-0.001-20000", "opacus-prv-test", "0.194031030686054706269061398416", "(3.0, 0.001, 20000), "
        "delta 1e-6", (("3", "0.001", 20000),), delta="1e-6", tol="5e-6"),
    Row("prv-0.8-0.001-100000", "opacus-prv-test", "2.92462211935041027643933375657", "(0.8, 0.001, 100000), "
        "delta 1e-6", (("0.8", "0.001", 100000),), delta="1e-6", tol="5e-6"),
    Row("fourier-eps-S-1e4", "fourier", "1.9931200626285734", "ncomp = 1e4, q = 0.01, sigma = 4.0; "
        "get_epsilon_S(target_delta=1e-5)", (("4", "0.01", 10000),), delta="1e-5", relation="replace_one",
        tol="5e-17", computed="substitute relation = replace-one; ncomp 1e4 (the stored version at 7875f9b)"),
    Row("fourier-eps-S-1e3", "fourier", "1.9931200626285734", "the same lines with ncomp = 1000 (another "
        "stored version)", (("4", "0.01", 1000),), delta="1e-5", relation="replace_one", tol="5e-17",
        computed="ncomp 1000: the printed comment was not updated when ncomp changed"),
    Row("fourier-delta-R-1e4", "fourier", "4.243484012034273e-06", "ncomp = 1e4, q = 0.01, sigma = 4.0; "
        "get_delta_R(target_eps=1.0)", (("4", "0.01", 10000),), eps="1", tol="5e-22",
        computed="a delta (at eps = 1), add/remove relation; ncomp 1e4"),
    Row("jaxp-cifar10-eps1", "jaxp-cifar10", "1.0", "batch_size 4096, std_relative (noise) 10.0, num_updates "
        "725, target_delta 1e-5, stop_training_at_epsilon 1.0; CIFAR-10 train_valid split",
        (("10", "4096/50000", 725),), delta="1e-5", tol="0",
        computed="q = 4096/50000 (the 50000 CIFAR-10 training images), the config's 725 updates; the "
        "README says num_updates is ignored when stop_training_at_epsilon is set, so the steps the run "
        "takes are set by JAX-Privacy's accountant and are not printed; target epsilon 1.0"),
    Row("bu-gdp-1.34", "bu-gdp", "1.34", "p = 256/60000, sigma = 1.3, 20th epoch, delta 1e-5",
        (("1.3", "256/60000", 4688),), delta="1e-5",
        computed="20 / p = 4687.5 steps, rounded up as TF-Privacy's script does"),
    Row("bu-gdp-8.68", "bu-gdp", "8.68", "p = 256/60000, sigma = 0.7, epoch 70, delta 1e-5",
        (("0.7", "256/60000", 16407),), delta="1e-5", computed="70 / p = 16406.25 steps, rounded up"),
]


# -- verdicts ------------------------------------------------------------------------------------
def half_unit(printed: str) -> Fraction:
    """Half a unit of the last printed digit of a decimal string (``"2.92"`` -> 0.005)."""
    m = re.fullmatch(r"[0-9]*\.?([0-9]*)(?:[eE]([-+]?[0-9]+))?", printed)
    if not m:
        raise ValueError(f"not a decimal: {printed!r}")
    exp = -len(m.group(1)) + int(m.group(2) or 0)
    return Fraction(1, 2) * Fraction(10) ** exp


def verdict(printed: str, lo: Fraction, hi: Fraction, tol: Optional[str] = None) -> str:
    """The verdict on a printed number against the certified enclosure ``[lo, hi]`` (exact)."""
    p = Fraction(printed)
    t = half_unit(printed) if tol is None else Fraction(tol)
    if lo - t <= p <= hi + t:
        return "reproduces"
    if p > hi:
        return f"conservative by {math.floor((p / hi - 1) * 1000) / 10:g} %"
    return f"optimistic by {math.floor((1 - p / lo) * 1000) / 10:g} % (erratum)"


# -- computing -----------------------------------------------------------------------------------
def enclosure(row: Row):
    """exactdp's certified enclosure for the row (epsilon at delta, or delta at eps)."""
    from exactdp import Accountant, Gaussian, PoissonSampled

    acc = Accountant(row.relation)
    for sigma, q, steps in row.parts:
        acc.compose(Gaussian(sigma) if q is None else PoissonSampled(Gaussian(sigma), q), steps)
    kind, x = ("delta", row.eps) if row.eps is not None else ("epsilon", row.delta)
    if row.h is not None:  # the enclosure on one lattice, however wide (still certified)
        return acc.query(kind, x, row.digits, h=Fraction(row.h)).value
    return acc.delta(x, digits=row.digits) if kind == "delta" else acc.epsilon(x, digits=row.digits)


def _fmt_parts(row: Row) -> str:
    out = []
    for sigma, q, steps in row.parts:
        out.append(f"sigma {sigma}, {steps} steps" if q is None else f"sigma {sigma}, q {q}, {steps} steps")
    return "; ".join(out)


def table(results: dict) -> str:
    lines = ["| row | source | printed | parameters as printed | computed as | certified (exactdp) | verdict |",
             "|---|---|---|---|---|---|---|"]
    for row in ROWS:
        if row.key not in results:
            continue
        text, v = results[row.key]
        what = f"delta at eps {row.eps}" if row.eps is not None else f"eps at delta {row.delta}"
        rel = "" if row.relation == "add_remove" else f", {row.relation.replace('_', '-')}"
        how = f"{_fmt_parts(row)}; {what}{rel}" + (f" ({row.computed})" if row.computed else "")
        lines.append(f"| `{row.key}` | {row.source} | {row.printed} | {row.as_printed} | {how} | {text} | {v} |")
    src = ["| source | where | accountant that printed the numbers |", "|---|---|---|"]
    used = {r.source for r in ROWS if r.key in results}
    for s in SOURCES:
        if s.key in used:
            src.append(f"| **{s.key}**: {s.title} | {s.where} | {s.accountant} |")
    return "\n".join(src) + "\n\n" + "\n".join(lines)


def run(keys: Optional[set] = None, *, verbose: bool = True) -> dict:
    results = {}
    for row in ROWS:
        if keys is not None and row.key not in keys:
            continue
        t0 = time.perf_counter()
        e = enclosure(row)
        text = e.text(row.digits + 2)
        results[row.key] = (text, verdict(row.printed, e.lower, e.upper, row.tol))
        if verbose:
            print(f"{row.key:24s} {row.printed[:12]:>12s} {text:28s} {results[row.key][1]}  "
                  f"({time.perf_counter() - t0:.1f} s)", flush=True)
    return results


def page_rows(text: str) -> dict:
    """``{row key: (certified text, verdict)}`` read back from the page's table."""
    out = {}
    for line in text.splitlines():
        m = re.match(r"\| `([^`]+)` \|(.*)\|\s*$", line)
        if m:
            cells = [c.strip() for c in m.group(2).split("|")]
            out[m.group(1)] = (cells[-2], cells[-1])
    return out


def write(results: dict) -> None:
    from exactdp import __version__

    old = PAGE.read_text()
    head, rest = old.split(START, 1)
    _, tail = rest.split(END, 1)
    stamp = (f"Computed by `python docs/tools/published_epsilons.py` with exactdp {__version__} on "
             f"{datetime.date.today().isoformat()} (Python {platform.python_version()}); "
             "enclosures at 3 significant digits unless the row says otherwise, ends rounded outward.")
    PAGE.write_text(f"{head}{START}\n{stamp}\n\n{table(results)}\n{END}{tail}")


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="comma-separated row keys (the page is then not written)")
    a = ap.parse_args(argv)
    keys = set(a.only.split(",")) if a.only else None
    results = run(keys)
    if keys is None:
        write(results)
        print(f"wrote {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
