"""Sampling check of Smith-Thakurta's online simulator F* against the real mechanism A(b).

Floats are used for the samples only; every test's error rates are stated and rigorous:

* the real interaction: in round i the adversary picks mu_i from the transcript so far and
  receives H_i = b mu_i + Z_i (fresh Z_i ~ N(0,1)), while sum mu_i^2 <= mu_0^2;
* the simulator (as printed, with mu_0 handled by m_i = mu_i/mu_0): draw W_0 = b mu_0 + Z_0
  and V_1, V_2, ... ~ N(0,1); in round i receive mu_i, let L_i be the canonical Cholesky
  factor of Sigma_i = I - m_i m_i^T (computed afresh from m_1..m_i only), U_i the last entry
  of L_i v_i, and output W_i = m_i W_0 + U_i.

Tests (:func:`compare`), all one- or two-sample Kolmogorov-Smirnov distances with
thresholds from the Dvoretzky-Kiefer-Wolfowitz inequality with Massart's constant,
P(sup |F_n - F| > t) <= 2 exp(-2 n t^2), so the false-rejection probability of each test is
at most its stated alpha (two-sample: the triangle inequality, 4 exp(-n t^2 / 2) for equal
sizes n), and, by the same inequality, a law at Kolmogorov distance >= 2t from the null (t
the test's threshold) is rejected with probability >= 1 - alpha:

* residuals R_i = W_i - b mu_i (mu_i the query actually asked) against N(0,1), marginally,
  conditionally on the sign of the previous response (the adaptive choice), and the
  pairwise (R_i + R_j)/sqrt 2 (correlation);
* the simulator's W_i and the privacy-loss statistic sum_i mu_i W_i against samples of the
  real interaction (two-sample).

Phi is evaluated with Abramowitz-Stegun 7.1.26 (|error| <= 1.5e-7), added to the thresholds.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

__all__ = ["ADVERSARIES", "simulate", "real", "compare", "canon_chol_batch", "ks_threshold_1", "ks_threshold_2",
           "detectable"]

_AS_ERR = 1.5e-7


def _phi_cdf(x: np.ndarray) -> np.ndarray:
    """Phi(x) by A&S 7.1.26 (absolute error <= 1.5e-7 / 2 in Phi)."""
    z = np.abs(x) / math.sqrt(2.0)
    t = 1.0 / (1.0 + 0.3275911 * z)
    poly = ((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592
    y = 1.0 - poly * t * np.exp(-z * z)
    return 0.5 * (1.0 + np.sign(x) * y)


def ks_threshold_1(n: int, alpha: float) -> float:
    return math.sqrt(math.log(2.0 / alpha) / (2.0 * n)) + _AS_ERR


def ks_threshold_2(n: int, alpha: float) -> float:
    return math.sqrt(2.0 * math.log(4.0 / alpha) / n)


def detectable(dist: float) -> tuple[float, float, float]:
    """(mean shift, sd factor > 1, sd factor < 1) at Kolmogorov distance ``dist`` from N(0,1)
    (floats, bisection; used only to describe a test's power)."""
    Phi = lambda x: 0.5 * (1 + math.erf(x / math.sqrt(2)))  # noqa: E731
    xs = [i / 100 for i in range(-800, 801)]

    def ks(f):
        return max(abs(f(x) - Phi(x)) for x in xs)

    def solve(g, lo, hi):
        for _ in range(50):
            mid = (lo + hi) / 2
            lo, hi = (lo, mid) if g(mid) >= dist else (mid, hi)
        return hi

    shift = solve(lambda d: ks(lambda x: Phi(x - d)), 0.0, 5.0)
    up = solve(lambda s: ks(lambda x: Phi(x / s)), 1.0, 10.0)
    down = 1 / solve(lambda s: ks(lambda x: Phi(x * s)), 1.0, 10.0)
    return shift, up, down


def _ks1(x: np.ndarray) -> float:
    x = np.sort(x)
    n = len(x)
    c = _phi_cdf(x)
    i = np.arange(1, n + 1)
    return float(max(np.max(i / n - c), np.max(c - (i - 1) / n)))


def _ks2(x: np.ndarray, y: np.ndarray) -> float:
    allv = np.sort(np.concatenate([x, y]))
    fx = np.searchsorted(np.sort(x), allv, side="right") / len(x)
    fy = np.searchsorted(np.sort(y), allv, side="right") / len(y)
    return float(np.max(np.abs(fx - fy)))


def canon_chol_batch(S: np.ndarray, tol: float = 1e-12) -> np.ndarray:
    """Canonical Cholesky factors of a batch (N, n, n) of PSD matrices: a column whose
    residual diagonal is <= tol is set to zero (floats; sampling only)."""
    N, n, _ = S.shape
    L = np.zeros_like(S)
    for j in range(n):
        res = S[:, j, j] - np.sum(L[:, j, :j] ** 2, axis=1)
        pos = res > tol
        d = np.sqrt(np.where(pos, res, 1.0))
        L[:, j, j] = np.where(pos, d, 0.0)
        for i in range(j + 1, n):
            v = S[:, i, j] - np.sum(L[:, i, :j] * L[:, j, :j], axis=1)
            L[:, i, j] = np.where(pos, v / d, 0.0)
    return L


def _rem(mu0: float, spent2: np.ndarray) -> np.ndarray:
    return np.sqrt(np.maximum(mu0 * mu0 - spent2, 0.0))


def _sig(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


# adversaries: (name, rounds, fn(i, past responses (N, i), spent2 (N,), mu0) -> mu_i (N,)),
# each respecting sum mu_i^2 <= mu_0^2 (the filter's refusals are checked exactly elsewhere)
def _adv_threshold(i, past, spent2, mu0):
    N = len(spent2)
    if i == 0:
        return np.full(N, 0.6 * mu0)
    if i == 1:
        return np.where(past[:, 0] > 0, 0.8 * mu0, 0.3 * mu0)
    r = _rem(mu0, spent2)
    if i == 2:
        return np.where(past[:, 1] > 0.5, r, r / 2)
    return r


def _adv_exhaust(i, past, spent2, mu0):
    """Exhausts the budget at round 2 on one branch (a prefix of norm 1: degenerate Sigma_2)."""
    N = len(spent2)
    if i == 0:
        return np.full(N, 0.5 * mu0)
    r = _rem(mu0, spent2)
    if i == 1:
        return np.where(past[:, 0] > 0.3, r, 0.4 * mu0)
    if i == 2:
        return r * _sig(past[:, 1])
    return r


def _adv_continuous(i, past, spent2, mu0):
    N = len(spent2)
    if i == 0:
        return np.full(N, 0.7 * mu0)
    return _rem(mu0, spent2) * _sig(2 * past[:, i - 1] - 1)


def _adv_all_first(i, past, spent2, mu0):
    """Spends everything in round 1 (norm-1 prefix), then asks 0."""
    N = len(spent2)
    return np.full(N, mu0) if i == 0 else np.zeros(N)


ADVERSARIES = [
    ("threshold on the previous answer", 4, _adv_threshold),
    ("exhausts the budget on one branch", 4, _adv_exhaust),
    ("continuous in the previous answer", 4, _adv_continuous),
    ("spends everything in round 1", 3, _adv_all_first),
]


def simulate(adv: Callable, T: int, b: int, mu0: float, N: int, rng: np.random.Generator,
             factor: Callable[[np.ndarray], np.ndarray] = None, use_u: bool = True):
    """(responses W (N, T), queries mu (N, T)) of F*(b mu_0 + Z_0) against the adversary
    (``factor``: the batch Cholesky routine, :func:`canon_chol_batch` by default)."""
    factor = factor or canon_chol_batch
    W0 = b * mu0 + rng.standard_normal(N)
    V = rng.standard_normal((N, T))
    W = np.zeros((N, T))
    mus = np.zeros((N, T))
    spent2 = np.zeros(N)
    for i in range(T):
        mu = adv(i, W[:, :i], spent2, mu0)
        mus[:, i] = mu
        spent2 = spent2 + mu * mu
        m = mus[:, : i + 1] / mu0
        S = np.eye(i + 1)[None, :, :] - m[:, :, None] * m[:, None, :]
        Li = factor(S)                                  # from m_1..m_i only: online
        U = np.sum(Li[:, i, :] * V[:, : i + 1], axis=1)  # last entry of L_i v_i
        W[:, i] = m[:, i] * W0 + (U if use_u else 0.0)
    return W, mus


def real(adv: Callable, T: int, b: int, mu0: float, N: int, rng: np.random.Generator):
    """(responses H, queries mu) of the real interaction with A(b)."""
    H = np.zeros((N, T))
    mus = np.zeros((N, T))
    spent2 = np.zeros(N)
    for i in range(T):
        mu = adv(i, H[:, :i], spent2, mu0)
        mus[:, i] = mu
        spent2 = spent2 + mu * mu
        H[:, i] = b * mu + rng.standard_normal(N)
    return H, mus


def compare(W, mus, H, hmus, b: int, alpha: float) -> list[tuple[str, float, float]]:
    """[(test, statistic, threshold)] for the simulator sample (W, mus) against N(0,1) residuals
    and against the real sample (H, hmus); a test fails when statistic > threshold."""
    N, T = W.shape
    R = W - b * mus
    out = []
    for i in range(T):
        out.append((f"R_{i + 1} ~ N(0,1)", _ks1(R[:, i]), ks_threshold_1(N, alpha)))
        if i > 0:
            for sgn, sel in (("> 0", W[:, i - 1] > 0), ("<= 0", W[:, i - 1] <= 0)):
                n = int(sel.sum())
                if n >= 1000:
                    out.append((f"R_{i + 1} | W_{i} {sgn} ~ N(0,1)", _ks1(R[sel, i]), ks_threshold_1(n, alpha)))
        for j in range(i + 1, T):
            out.append((f"(R_{i + 1} + R_{j + 1})/sqrt2 ~ N(0,1)", _ks1((R[:, i] + R[:, j]) / math.sqrt(2)),
                        ks_threshold_1(N, alpha)))
        out.append((f"W_{i + 1} ~ H_{i + 1} (two-sample)", _ks2(W[:, i], H[:, i]), ks_threshold_2(N, alpha)))
    out.append(("sum mu_i W_i ~ sum mu_i H_i (two-sample)", _ks2(np.sum(mus * W, 1), np.sum(hmus * H, 1)),
                ks_threshold_2(N, alpha)))
    return out
