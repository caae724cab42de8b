"""Smith-Thakurta Footnote 1: the recursion for the canonical Cholesky factor L_i of
Sigma_i = I - m_i m_i^T.

Printed (footnote to step 2(b) of the simulator F*):

    L_i = [[ L_{i-1},                          0                                   ],
           [ -m_i (L_{i-1}^{-1} m_{i-1})^T,    (1 - |m_i|_2^2) / (1 - |m_{i-1}|_2^2) ]].

The off-diagonal row is right; the diagonal entry must be the square root of the printed
ratio (the Schur complement of Sigma_{i-1} in Sigma_i is that ratio), and the formula is
undefined once a prefix has norm 1 (0/0, and L_{i-1} is singular), a case the filter
allows (sum m_i^2 <= 1 with equality). Refuted with exact counterexamples; the corrected
recursion is proved for every T (block identity, Sherman-Morrison on the rank-one P = m m^T
with P^2 = |m|^2 P), symbolically for small T, and on exact instances against the
canonical factor found by exhaustive search.

The printed LaTeX (visible in our copy) has ``\\frac{1-\\|m_i\\|^2}{1-\\|m_{i-1}\\|^2}`` with
no ``\\sqrt``: the slip is in the paper, not in the text conversion.

Library cross-check (in the correction's check): exactdp.gdp.cholesky_factor(m), the
corrected footnote as implemented (L = R diag(sqrt(c))), equals the canonical factor found
here by exhaustive search, entry by entry in Q(sqrt).
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import sympy as sp

from .._crosscheck import FAILED, crosschecked
from .._framework import Proof, statement
from ._exact import Surd, Undefined, canonical, footnote_factor, is_canonical, matmul_t, sigma
from ._sym import closed_form_L, is_zero, mvec, r_prefix

GRID = [F(0), F(1, 2), F(-1, 2), F(1, 3), F(2, 3), F(-2, 3), F(3, 5), F(4, 5), F(1), F(5, 13), F(12, 13)]
#: the grid used for the largest T of the default (bounded) run
GRID_SMALL = [F(0), F(1, 2), F(1, 3), F(2, 3), F(-2, 3), F(3, 5), F(4, 5), F(1)]


def _size(m) -> tuple:
    """Order of minimality: fewer rounds, smaller heights, non-negative entries first."""
    return (len(m), sum(abs(x.numerator) + x.denominator for x in m), sum(1 for x in m if x < 0), [str(x) for x in m])


def instances(p: Proof, tmax: int) -> list:
    """Every m in GRID^T (T <= tmax; GRID_SMALL for T = tmax >= 3 in the default run) with |m|^2 <= 1, plus
    seeded random ones (T = tmax + 1)."""
    out = []
    for T in range(1, tmax + 1):
        grid = GRID_SMALL if (T == tmax and T >= 3 and not p.full) else GRID
        for m in itertools.product(grid, repeat=T):
            if sum(x * x for x in m) <= 1:
                out.append(list(m))
    for _ in range(40 if p.full else 10):
        T = tmax + 1
        m, s = [], F(0)
        for _ in range(T):
            x = F(p.rng.randint(-6, 6), p.rng.randint(1, 7))
            if s + x * x > 1:
                x = F(0)
            m.append(x)
            s += x * x
        out.append(m)
    return out


def describe(p: Proof, tmax: int) -> str:
    small = tmax >= 3 and not p.full
    return (f"every m in G^T with |m| <= 1, T <= {tmax} (G: 11 rationals from -2/3 to 1 incl. 0, 3/5, 4/5, 5/13, "
            f"12/13, 1" + (f"; 8 of them at T = {tmax}" if small else "") + f") and {40 if p.full else 10} random "
            f"rational m with T = {tmax + 1}")


def _equal(L, K) -> bool:
    n = len(L)
    return all((L[i][j] - K[i][j]).is_zero() for i in range(n) for j in range(n))


@statement(
    "Footnote 1",
    "The canonical Cholesky factor of Sigma_i = I - m_i m_i^T is L_i = [[L_{i-1}, 0], [-m_i (L_{i-1}^{-1} m_{i-1})^T, "
    "(1 - |m_i|_2^2)/(1 - |m_{i-1}|_2^2)]].",
    library=("exactdp.gdp.cholesky_factor",),
)
def footnote(p: Proof) -> None:
    tmax = 3 if p.full else 2
    fails, undefined, n = [], [], 0
    for m in instances(p, tmax):
        A = sigma(m)
        n += 1
        try:
            L = footnote_factor(m, diag="printed", degenerate=False)
        except Undefined as exc:
            undefined.append((_size(m), m, str(exc)))
            continue
        P = matmul_t(L)
        bad = [(i, j) for i in range(len(m)) for j in range(len(m)) if not (P[i][j] - Surd.of(A[i][j])).is_zero()]
        if bad:
            i, j = bad[0]
            fails.append((_size(m), m, i, j, P[i][j], A[i][j]))
    p.note(f"{n} exact instances ({describe(p, tmax)}): the printed recursion gives L L^T != Sigma on {len(fails)}, "
           f"is undefined on {len(undefined)}.")
    if fails:
        _, m, i, j, got, want = min(fails, key=lambda f: f[0])
        L = footnote_factor(m, diag="printed", degenerate=False)
        # the same slip at i = 2 after a correct L_1 (L_1 = [1] for m_1 = 0)
        m2 = [F(0), m[-1]]
        L2 = footnote_factor(m2, diag="printed", degenerate=False)
        d2, s22 = L2[1][1], matmul_t(L2)[1][1]
        var_w1 = m[0] ** 2 + L[0][0].rational() ** 2
        p.refute(
            "the diagonal entry (1 - |m_i|^2)/(1 - |m_{i-1}|^2)",
            f"T = {len(m)}, m = ({', '.join(map(str, m))}): the printed L_1 = [{L[0][0]}] and "
            f"(L_1 L_1^T)_{{{i + 1}{j + 1}}} = {got} != {want} = (Sigma_1)_{{{i + 1}{j + 1}}}. With a correct L_1 the same "
            f"happens at i = 2: m = (0, {m[-1]}) gives L_1 = [{L2[0][0]}], printed d_2 = {d2}, (L_2 L_2^T)_22 = {s22} != "
            f"{sigma(m2)[1][1]}. The simulator built on the printed factor outputs W_1 = m_1 W_0 + {L[0][0]} V_1 with "
            f"variance {var_w1} != 1. The printed entry is right only when the ratio is 0 or 1 (m_i = 0, or |m_i| = 1).",
        )
    if undefined:
        _, m, why = min(undefined, key=lambda f: f[0])
        p.refute(
            "the formula once a prefix has norm 1",
            f"m = ({', '.join(map(str, m))}) (allowed: sum m_i^2 = 1 <= 1): {why}; the canonical factor is "
            f"{canonical(sigma(m))[0]}.",
        )
    p.correct(
        "For |m_{i-1}|_2 < 1: L_i = [[L_{i-1}, 0], [-m_i (L_{i-1}^{-1} m_{i-1})^T, "
        "sqrt((1 - |m_i|_2^2)/(1 - |m_{i-1}|_2^2))]] (a zero last column when |m_i|_2 = 1). For |m_{i-1}|_2 = 1 "
        "(then m_i = 0 under the budget): L_i = [[L_{i-1}, 0], [0, 1]].",
        correction_check,
    )


def correction_check(q: Proof) -> None:
    # (1) every T: the block identity. With x = L_{i-1}^{-1} m_{i-1}, l = -m_i x, s = |m_{i-1}|^2 < 1, P = m m^T:
    #   [[L, 0], [l^T, d]] [[L, 0], [l^T, d]]^T = [[L L^T, L l], [l^T L^T, |l|^2 + d^2]],
    #   L l = -m_i m_{i-1}; |l|^2 = m_i^2 m^T Sigma_{i-1}^{-1} m with Sigma_{i-1}^{-1} = I + P/(1 - s)
    #   (Sherman-Morrison: (I - P)(I + c P) = I + (c - 1 - c s) P since P^2 = s P, and c = 1/(1-s) kills it),
    #   so |l|^2 = m_i^2 (s + s^2/(1 - s)) and |l|^2 + d^2 = 1 - m_i^2 iff d^2 = (1 - s - m_i^2)/(1 - s).
    s, mi = sp.symbols("s m_i", real=True)
    c = 1 / (1 - s)
    sm = is_zero(c - 1 - c * s)
    l2 = mi ** 2 * (s + c * s ** 2)                      # m^T (I + c P) m = s + c s^2
    d2 = (1 - s - mi ** 2) / (1 - s)
    blk = is_zero(l2 + d2 - (1 - mi ** 2))
    d = sp.sqrt(d2)
    q.verified("every T: Sherman-Morrison (I - P)(I + P/(1-s)) = I for P = m m^T, P^2 = s P (coefficient "
               "1/(1-s) - 1 - s/(1-s) = 0); |l|^2 = m_i^2 s/(1-s); |l|^2 + d^2 = 1 - m_i^2 with "
               "d = sqrt((1-|m_i|^2)/(1-|m_{i-1}|^2)); so L_i L_i^T = Sigma_i given L_{i-1} L_{i-1}^T = Sigma_{i-1}",
               sm and blk and is_zero(d ** 2 - d2))
    q.note("Canonical: d > 0 when |m_i| < 1 and d = 0 (a zero last column) when |m_i| = 1; when |m_{i-1}| = 1, "
           "m_i = 0 and [[L_{i-1}, 0], [0, 1]] [[L_{i-1}, 0], [0, 1]]^T = [[Sigma_{i-1}, 0], [0, 1]] = Sigma_i, "
           "adding one positive diagonal entry as rank(Sigma_i) = rank(Sigma_{i-1}) + 1.")
    # (2) symbolic m, small T: the recursion (with an explicit lower-triangular solve) = closed form, L L^T = Sigma
    for T in range(1, 5 if q.full else 4):
        m = mvec(T)
        K = closed_form_L(m)
        L = sp.zeros(T, T)
        for i in range(T):
            if i > 0:
                x = L[:i, :i].lower_triangular_solve(sp.Matrix(m[:i]))
                for j in range(i):
                    L[i, j] = -m[i] * x[j]
            L[i, i] = sp.sqrt(r_prefix(m, i + 1)) / sp.sqrt(r_prefix(m, i))
        S = sp.eye(T) - sp.Matrix(m) * sp.Matrix(m).T
        ok = all(is_zero(L[i, j] - K[i, j]) for i in range(T) for j in range(T))
        KK = K * K.T                                     # = L L^T, as L = K entrywise
        ok = ok and all(is_zero(KK[i, j] - S[i, j]) for i in range(T) for j in range(i + 1))
        if not q.symbolic(f"T = {T}, symbolic m (prefix norms < 1): the corrected recursion gives L_ij = "
                          f"-m_i m_j/sqrt(r_(j-1) r_j), L_jj = sqrt(r_j/r_(j-1)) (r_j = 1 - |m_j|^2) and L L^T = "
                          f"I - m m^T", ok):
            return
    # (3) exact instances, degenerate prefixes included: the corrected recursion is the canonical factor
    from exactdp.gdp import cholesky_factor

    def lib_equal(m, K):
        f = q.library("exactdp cholesky_factor", cholesky_factor, m)
        if f is FAILED:
            return FAILED
        T = len(m)
        return all((Surd.of(f.R[i][j]) * Surd.sqrt(f.c[j]) - K[i][j]).is_zero() for i in range(T) for j in range(T))

    n = n_lib = 0
    for m in instances(q, 4 if q.full else 3):
        A = sigma(m)
        L = footnote_factor(m, diag="sqrt", degenerate=True)
        K, cnt = canonical(A)
        n += 1
        if not q.require(cnt == 1 and is_canonical(L, A) and _equal(L, K),
                         "corrected recursion = the canonical Cholesky factor",
                         "m = (" + ", ".join(str(x) for x in m) + ")"):
            return
        if q.full or n % 3 == 0:
            q.agree(lib_equal(m, K), True, "exactdp cholesky_factor (= the canonical factor, entrywise)",
                    "m = (" + ", ".join(str(x) for x in m) + ")")
            n_lib += 1
    q.instances("exact (Q(sqrt)) instances, " + describe(q, 4 if q.full else 3) + " (prefixes of norm 1 included): "
                "the corrected recursion equals the unique canonical factor found by exhaustive search over zero-column "
                "sets", n, "exhaustive")
    crosschecked(q, "exactdp.gdp.cholesky_factor(m) (L = R diag(sqrt(c))) equals the canonical factor entrywise in "
                 "Q(sqrt)", n_lib)
