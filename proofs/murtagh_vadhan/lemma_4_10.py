"""Murtagh-Vadhan Lemma 4.10 (#T-PARTITION is #P-hard, even with prod w_i <= c) and its proof steps.

Printed proof: from a #PARTITION instance W (prod w_i <= sqrt(c)) build
W' = W u {w_{k+1}}, w_{k+1} = prod_{i<=k} w_i, T = sqrt(w_{k+1})(w_{k+1} - 1); Case 1
(w_{k+1} in Q) factors as (prod_P w - sqrt(W))(W prod_P w + sqrt(W)) = 0; Case 2 has no
solutions unless all w_i = 1, in which case "there are 2^k - 2 partitions that
yield equal products (all except P = [k] and P = emptyset)". That count is wrong:
Definition 4.6 counts every P subset [k], and with all w_i = 1 every P works.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import sympy as sp

from .._framework import Proof, statement
from . import _partition as R
from ._sym import identical


def _wsets(p: Proof):
    out = []
    for D in (1, 2, 3):
        for k in range(1, 4 if not p.full else 5):
            for ns in itertools.combinations_with_replacement(range(1, 5 if D == 1 else 4), k):
                out.append((D, list(ns)))
    return out


@statement(
    "Lemma 4.10",
    "For every constant c > 1, #T-PARTITION is #P-hard, even on instances where prod_i w_i <= c.",
)
def lemma(p: Proof) -> None:
    n = 0
    for D, ns in _wsets(p):
        truth = R.count_partition(D, ns)
        red = R.lemma410_reduce(D, ns, lambda k: 2 ** k)
        if red[0] == "direct":
            got = red[1]
        else:
            _, D2, ns2, T = red
            if not p.require(T.sign() > 0 and D2 == D, "T > 0 and W' is a #T-PARTITION instance", f"D={D} W={ns}"):
                return
            if not p.require(R.prod_int(ns2) == R.prod_int(ns) ** 2, "prod W' = (prod W)^2 <= (sqrt c)^2 = c", f"W={ns}"):
                return
            got = R.count_t_partition(D2, ns2, T)
        n += 1
        if not p.require(got == truth, "#T-PARTITION(W', T) = #PARTITION(W)", f"D={D} W={ns}: {got} vs {truth}"):
            return
    p.instances("#T-PARTITION(W u {prod W}, sqrt(prod W)(prod W - 1)) = #PARTITION(W) (exact radical arithmetic), all "
                "multisets with D in {1,2,3}, k <= 3; all-ones inputs answered directly with 2^k (see the erratum)",
                n, "exhaustive")
    p.note("w_{k+1} = (prod n_i)^(1/D) is again a D-th root of an integer; it is <= e when prod w_i <= min(sqrt(c), e).")


@statement(
    "Lemma 4.10 (proof: Case 1 factorisation)",
    "w_{k+1} prod_P w - prod_notP w = sqrt(w_{k+1})(w_{k+1} - 1) <=> W x^2 - W = sqrt(W)(W - 1) x <=> "
    "(x - sqrt(W))(W x + sqrt(W)) = 0 <=> x = sqrt(W) <=> prod_notP w = prod_P w, where x = prod_P w, W = prod_{[k]} w.",
)
def case1(p: Proof) -> None:
    x, W = sp.symbols("x W", positive=True)
    s = sp.sqrt(W)
    lhs = W * x - W / x - s * (W - 1)                 # Case 1 equation, prod_notP w = W/x
    times_x = sp.expand(lhs * x)                       # "multiplied both sides by prod_P w"
    ok1 = identical(times_x, W * x ** 2 - W - s * (W - 1) * x)
    ok2 = identical(W * x ** 2 - W - s * (W - 1) * x, (x - s) * (W * x + s))
    ok3 = identical(W / s, s)                          # x = sqrt(W) => prod_notP w = W/x = sqrt(W) = x
    p.verified("x (W x - W/x - sqrt(W)(W-1)) = W x^2 - sqrt(W)(W-1) x - W = (x - sqrt(W))(W x + sqrt(W)); W x + sqrt(W) > 0 "
               "and x > 0, so the equation holds iff x = sqrt(W), i.e. iff prod_notP w = W/x = x", ok1 and ok2 and ok3)
    n = 0
    for D, ns in _wsets(p):
        if all(v == 1 for v in ns):
            continue
        red = R.lemma410_reduce(D, ns, lambda k: 2 ** k)
        _, _, ns2, T = red
        k = len(ns)
        for mask, X, Y in R.splits(ns2):
            if not mask >> k & 1:
                continue
            P = mask & ((1 << k) - 1)
            XP = R.prod_int(ns[i] for i in range(k) if P >> i & 1)
            YP = R.prod_int(ns[i] for i in range(k) if not P >> i & 1)
            n += 1
            if not p.require((R.gap(D, X, Y) - T).is_zero() == (XP == YP), "Case 1 solutions <-> partitions of W",
                             f"D={D} W={ns} P={P}"):
                return
    p.instances("Q containing k+1 solves the T-equation iff P = Q minus {k+1} solves #PARTITION", n, "exhaustive")


@statement(
    "Lemma 4.10 (proof: Case 2)",
    "If w_{k+1} not in Q: prod_P w - W prod_notP w = sqrt(W)(W - 1) holds if all w_i = 1, and otherwise would need "
    "prod_P w > W, impossible; so there are no Case 2 solutions (unless all w_i = 1).",
)
def case2(p: Proof) -> None:
    n = 0
    for D, ns in _wsets(p):
        ones = all(v == 1 for v in ns)
        k = len(ns)
        N = R.prod_int(ns)
        T = R.lemma410_T(D, ns)
        ns2 = list(ns) + [N]
        sols = [mask for mask, X, Y in R.splits(ns2) if not mask >> k & 1 and (R.gap(D, X, Y) - T).is_zero()]
        n += 1
        if not p.require(bool(sols) == ones, "Case 2 has solutions iff all w_i = 1", f"D={D} W={ns}: {sols}"):
            return
    p.instances("Case 2 solutions exist exactly for all-ones W (then all 2^k P solve it)", n, "exhaustive")


@statement(
    "Lemma 4.10 (proof: the all-ones case)",
    "If W contains all ones, there are 2^k - 2 partitions that yield equal products (all except P = [k] and P = emptyset), "
    "so output 2^k - 2.",
)
def all_ones(p: Proof) -> None:
    cnt1 = R.count_partition(1, [1])
    if cnt1 != 2 ** 1 - 2:
        p.refute(
            "2^k - 2 partitions",
            f"k = 1, W = {{1}}: P = emptyset gives 1 - 1 = 0 and P = {{1}} gives 1 - 1 = 0 (empty products are 1), so "
            f"#PARTITION = {cnt1} = 2^1, not 2^1 - 2 = 0; the printed reduction outputs 0.",
        )

    def corr(q: Proof) -> None:
        m = 0
        for D in (1, 2, 3):
            for k in range(1, 11 if q.full else 8):
                m += 1
                if not q.require(R.count_partition(D, [1] * k) == 2 ** k, "all-ones count is 2^k", f"D={D} k={k}"):
                    return
        q.instances("#PARTITION of k ones (D in {1,2,3}, k <= 7) is 2^k", m, "exhaustive")

    p.correct("If W contains all ones, every P subset [k] (including P = [k] and P = emptyset) yields equal products, so "
              "output 2^k.", corr)


@statement(
    "Lemma 4.10 (proof: W' is a #T-PARTITION instance)",
    "We may assume prod_i w_i <= sqrt(c). Set W' = W u {w_{k+1}}, w_{k+1} = prod_{i<=k} w_i; then prod_{i<=k+1} w_i <= c "
    "[and W' is an instance of #T-PARTITION: each w in W' a D-th root of a positive integer with 1 <= w <= e].",
)
def instance_range(p: Proof) -> None:
    # as printed, over integer constants c: every valid #PARTITION instance W with prod w_i <= sqrt(c)
    n = 0
    bad = []
    for c in range(2, 11):
        for D in (1, 2, 3):
            for k in (1, 2, 3):
                for ns in itertools.combinations_with_replacement(range(1, 9), k):
                    if not all(R.within_e(x, D) for x in ns):
                        continue
                    N = R.prod_int(ns)
                    if N ** 2 > c ** D:  # prod w_i = N^(1/D) <= sqrt(c)  <=>  N^2 <= c^D (exact)
                        continue
                    red = R.lemma410_reduce(D, list(ns), lambda kk: 2 ** kk)
                    if red[0] == "direct":  # all ones: no W' is built
                        continue
                    _, D2, ns2, _ = red
                    n += 1
                    if not p.require(D2 == D and len(ns2) == k + 1 and R.prod_int(ns2) <= c ** D,
                                     "prod_{i<=k+1} w_i <= c", f"c={c} D={D} W={ns}: W' = {ns2}"):
                        return
                    if not all(R.within_e(x, D2) for x in ns2):
                        bad.append((c, k, D, ns, N))
    p.instances("W' as built by the reduction: k+1 D-th roots with prod <= c, decided in integers (every valid W "
                "with prod w_i <= sqrt(c) and not all ones, c in 2..10, D <= 3, k <= 3, n_i <= 8)", n, "exhaustive")
    if bad:
        c, k, D, ns, N = min(bad)
        p.refute(
            "W' is a #T-PARTITION instance (1 <= w <= e)",
            f"c = {c} (the least integer c with sqrt(c) > e), D = {D}, W = {{{', '.join(f'{x}^(1/{D})' for x in ns)}}} "
            f"(a valid #PARTITION instance: each w_i <= e, prod w_i = {N}^(1/{D}) <= sqrt({c}); k = 1 cannot fail since "
            f"then w_2 = w_1): the new element w_{k + 1} = {N}^(1/{D}) = {float(N) ** (1 / D):.4f} > e, outside "
            f"Definition 4.7's range. Any c > e^2 fails the same way ({len(bad)} of {n} instances with c <= 10).",
        )

    def corr(q: Proof) -> None:
        m = 0
        for c, cp in ((F(9, 4), F(3, 2)), (F(4), F(2)), (F(9), F(2)), (F(100), F(2))):  # c' = min(sqrt(c), 2)
            for k in (1, 2, 3):
                for zs in itertools.combinations_with_replacement(range(1, 6), k):
                    D = R.lemma49_corrected_D(zs, cp)
                    N = R.prod_int(zs)
                    red = R.lemma410_reduce(D, list(zs), lambda kk: 2 ** kk)
                    m += 1
                    if red[0] == "direct":
                        ok = red[1] == R.count_partition(D, list(zs))
                    else:
                        _, D2, ns2, T = red
                        ok = (all(R.within_e(x, D2) for x in ns2) and N ** 2 <= cp ** (2 * D) and N ** 2 <= c ** D
                              and T.sign() > 0 and R.count_t_partition(D2, ns2, T) == R.count_partition(D, list(zs)))
                    if not q.require(ok, "W' valid, prod W' <= c, counts preserved", f"c={c} Z={zs} D={D}"):
                        return
        q.instances("with prod w_i <= c' = min(sqrt(c), 2) (W from the corrected Lemma 4.9 at c'): every element of W' "
                    "is in [1, e], prod W' <= c'^2 <= c, T > 0, and #T-PARTITION(W', T) = #PARTITION(W) "
                    "(c in {9/4, 4, 9, 100}, all multisets of {1..5} of size <= 3)", m, "exhaustive")

    p.correct(
        "Assume prod_i w_i <= c' with c' = min(sqrt(c), e) (or any rational 1 < c' <= that, e.g. min(sqrt(c), 2)): also a "
        "constant > 1, so Lemma 4.9 applies with c'. Then w_{k+1} = prod_i w_i <= e, every element of W' is a D-th root "
        "of an integer in [1, e], and prod_{i<=k+1} w_i <= c'^2 <= c.",
        corr,
    )
