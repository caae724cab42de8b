"""An adaptive analysis of a real data set under a GDP privacy filter (exactdp.gdp.GDPFilter).

Data: scikit-learn's bundled diabetes data (Efron et al. 2004; 442 patients: age, sex,
BMI, blood pressure, six serum measurements, and a measure of disease progression one
year later), loaded from the package, no network. Neighbouring data sets differ in one
patient's record (replacement; n = 442 is public).

The analyst has a budget mu_0 = 1/2 and chooses each query, and its mu_i, after seeing
the previous answers. The filter answers while sum mu_i^2 <= 1/4, refuses (spending
nothing) a query that would exceed it, and the whole interaction is then 1/2-GDP
(Smith-Thakurta Theorem 1), which the last lines convert to certified (eps, delta).

Run: ``python examples/gdp_filter_analysis.py [--seed N]`` (needs ``pip install
'exactdp[examples]'``). The output of the default seed is shown in docs/gdp.md.
"""

from __future__ import annotations

import argparse
from fractions import Fraction as F

import numpy as np

from exactdp.gdp import BudgetExceeded, GDPFilter

#: Public bounds used to clip each attribute (so that the sensitivities hold whatever the data).
PROGRESSION = (25, 346)
BMI = (18, 43)
BP = (60, 135)
BMI_BINS = [18, 23, 28, 33, 38, 43]


def load():
    from sklearn.datasets import load_diabetes

    d = load_diabetes(scaled=False)
    X = d.data
    names = list(d.feature_names)
    return {"progression": d.target, "bmi": X[:, names.index("bmi")], "bp": X[:, names.index("bp")]}


def clipped_mean(col, lo, hi):
    """A query: the mean of a column clipped to [lo, hi]; sensitivity (hi - lo) / n under replacement."""
    return lambda data: float(np.clip(data[col], lo, hi).mean())


def analysis(seed: int = 29, out=print) -> GDPFilter:
    data = load()
    n = len(data["progression"])
    f = GDPFilter(F(1, 2), data=data, seed=seed)
    out(f"data: sklearn diabetes, n = {n} patients (public); budget mu_0 = 1/2, mu_0^2 = 1/4")

    # 1. the mean disease progression
    m_prog = f.gaussian(clipped_mean("progression", *PROGRESSION), sensitivity=F(PROGRESSION[1] - PROGRESSION[0], n),
                        mu=F(1, 5), label="mean progression")
    out(f"1. mean progression ~ {m_prog:.1f}")

    # 2. how many patients progress more than that? (the threshold is the previous answer)
    cnt = f.gaussian(lambda d: float((d["progression"] > m_prog).sum()), sensitivity=1, mu=F(1, 5),
                     label=f"count progression > {m_prog:.0f}")
    out(f"2. patients above {m_prog:.0f} ~ {cnt:.0f}")

    # 3. BMI sums of the two groups: one replaced record changes both sums, by at most 43 each
    def bmi_sums(d):
        b = np.clip(d["bmi"], *BMI)
        hi = d["progression"] > m_prog
        return np.array([b[hi].sum(), b[~hi].sum()])

    sums = f.gaussian(bmi_sums, sensitivity_sq=2 * BMI[1] ** 2, mu=F(1, 4), label="BMI sums (high, low)")
    mean_hi, mean_lo = sums[0] / max(cnt, 1), sums[1] / max(n - cnt, 1)
    out(f"3. mean BMI: high progression ~ {mean_hi:.2f}, low ~ {mean_lo:.2f}")

    # 4. adaptively: a BMI histogram of the high group only if the groups look different
    if abs(mean_hi - mean_lo) > 1:
        def hist(d):
            hi = d["progression"] > m_prog
            return np.histogram(np.clip(d["bmi"][hi], *BMI), bins=BMI_BINS)[0].astype(float)

        h = f.gaussian(hist, sensitivity_sq=2, mu=F(1, 4), label="BMI histogram, high group")
        out("4. BMI histogram of the high group ~ " + ", ".join(
            f"[{a},{b}): {max(v, 0):.0f}" for a, b, v in zip(BMI_BINS, BMI_BINS[1:], h)))
    else:
        out("4. (groups alike: no histogram asked)")

    # 5. a mean blood pressure at mu = 1/4 would exceed the budget: refused, nothing spent
    try:
        f.gaussian(clipped_mean("bp", *BP), sensitivity=F(BP[1] - BP[0], n), mu=F(1, 4), label="mean BP")
    except BudgetExceeded as e:
        out(f"5. refused: {e}")

    # 6. the same query with exactly what is left
    bp = f.gaussian(clipped_mean("bp", *BP), sensitivity=F(BP[1] - BP[0], n), mu_sq=f.remaining, label="mean BP (the rest)")
    out(f"6. mean blood pressure ~ {bp:.1f} (with mu^2 = the rest)")
    out("")
    out(f.report(delta="1e-5", eps=1, digits=6))
    return f


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=29)
    a = ap.parse_args(argv)
    analysis(a.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
