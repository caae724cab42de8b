"""Murtagh-Vadhan Lemma 5.3 (raising every eps_i by c) and the steps of its proof.

Printed: for eps_i, c >= 0 and delta_i, delta_g in [0,1):
OptComp((eps_i + c, delta_i), delta_g) <= OptComp((eps_i, delta_i), e^{-kc/2} delta_g) + kc.

Checked exactly (e^{c/2} rational, so e^{-kc/2} and e^{kc} are too), and each step of
the proof symbolically. Library cross-check: exactdp's lemma53_bound (shift given as
e^c) encloses the independent right-hand side OptComp(eps, e^{-kc/2} delta_g) + kc.
"""

from __future__ import annotations

from fractions import Fraction as F

import sympy as sp

from .._crosscheck import FAILED, contains_log, crosschecked
from .._framework import Proof, statement
from . import _common as C
from ._sym import identical, same_sign_product


def _instances(p: Proof, count: int):
    out = []
    for _ in range(count):
        k = p.rng.randint(1, 5)
        ws = [C.rand_w(p.rng) for _ in range(k)]
        ds = [C.rand_delta(p.rng) for _ in range(k)]
        u = p.rng.choice([F(1), F(11, 10), F(5, 4), F(3, 2), F(2)])  # u = e^{c/2}
        dg = p.rng.choice([F(0), F(1, 20), F(1, 5), F(1, 2), F(9, 10)])
        out.append((ws, ds, u, dg))
    return out


@statement(
    "Lemma 5.3",
    "OptComp((eps_1+c,delta_1),...,(eps_k+c,delta_k), delta_g) <= OptComp((eps_1,delta_1),...,(eps_k,delta_k), "
    "e^{-kc/2} delta_g) + kc.",
    library=("exactdp.approx.lemma53.lemma53_bound",),
)
def lemma(p: Proof) -> None:
    from exactdp import Mechanism
    from exactdp.approx.lemma53 import lemma53_bound

    n = tight = n_lib = 0
    for idx, (ws, ds, u, dg) in enumerate(_instances(p, 150 if p.full else 60)):
        k = len(ws)
        left = C.optcomp_t_formula([w * u * u for w in ws], ds, dg)          # e^{OptComp(eps + c)}
        right = C.optcomp_t_formula(ws, ds, dg / u ** k)                      # e^{OptComp(eps, e^{-kc/2} delta_g)}
        right = None if right is None else right * u ** (2 * k)              # times e^{kc}
        n += 1
        ok = right is None or (left is not None and left <= right)
        if not p.require(ok, "OptComp(eps + c, delta_g) <= OptComp(eps, e^{-kc/2} delta_g) + kc",
                         f"ws={ws} ds={ds} e^(c/2)={u} dg={dg}: {left} > {right}"):
            return
        tight += left is not None and right is not None and left == right
        if p.full or idx % 3 == 0:
            inst = f"ws={ws} ds={ds} e^c={u * u} dg={dg}"
            b = p.library("exactdp lemma53_bound", lemma53_bound, [Mechanism(exp_eps=w, delta=d) for w, d in zip(ws, ds)],
                          delta_g=dg, exp_c=u * u)
            if b is not FAILED:
                n_lib += 1
                if right is None:
                    p.agree(b.infinite, True, "exactdp lemma53_bound (infinite)", inst)
                else:
                    contains_log(p, b, right, "exactdp lemma53_bound", inst)
    p.instances("exact OptComp values (Theorem 1.5 inverted exactly) with e^{c/2} in {1, 11/10, 5/4, 3/2, 2}", n)
    p.note(f"Equality held in {tight} of {n} instances (e.g. c = 0 with delta_g = 0).")
    crosschecked(p, "exactdp lemma53_bound (shift e^c = u^2) encloses the independent OptComp(eps, e^{-kc/2} delta_g) + kc "
                 "(infinite when that is)", n_lib)


@statement(
    "Lemma 5.3 (proof: (1 + e^{eps_i+c})/(1 + e^{eps_i}) >= e^{c/2})",
    "(1 + e^{eps_i + c})/(1 + e^{eps_i}) >= e^{c/2} for every eps_i > 0 [used for eps_i >= 0].",
)
def ratio(p: Proof) -> None:
    x, c = sp.symbols("x c", real=True)
    expr = (1 + sp.exp(x + c)) - sp.exp(c / 2) * (1 + sp.exp(x))
    ok = same_sign_product(expr, 1, [sp.exp(c / 2) - 1, sp.exp(x + c / 2) - 1])
    p.verified("(1 + e^{x+c}) - e^{c/2}(1 + e^x) = (e^{c/2} - 1)(e^{x + c/2} - 1) >= 0 for c >= 0 and x >= -c/2 "
               "(in particular every eps_i >= 0, including eps_i = 0, which the lemma allows)", ok)


@statement(
    "Lemma 5.3 (proof: multiplying by e^{kc/2})",
    "e^{kc/2}(1 - (1 - e^{-kc/2} delta_g)/prod(1-delta_i)) <= 1 - (1 - delta_g)/prod(1-delta_i).",
)
def multiply(p: Proof) -> None:
    E, P, dg = sp.symbols("E P delta_g", positive=True)  # E = e^{kc/2} >= 1, 0 < P <= 1
    lhs = E * (1 - (1 - dg / E) / P)
    rhs = 1 - (1 - dg) / P
    ok = same_sign_product(rhs - lhs, 1, [E - 1, 1 / P - 1])
    p.verified("RHS - LHS = (e^{kc/2} - 1)(1/P - 1) >= 0 since e^{kc/2} >= 1 and 0 < P = prod(1-delta_i) <= 1", ok)


@statement(
    "Lemma 5.3 (proof: the term-by-term inequality)",
    "sum_S max(e^{sum_S(eps_i+c)} - e^{eps_g+kc} e^{sum_notS(eps_i+c)}, 0) <= e^{kc/2} (prod(1+e^{eps_i+c})/prod(1+e^{eps_i})) "
    "sum_S max(e^{sum_S eps_i} - e^{eps_g} e^{sum_notS eps_i}, 0), via the stronger termwise bound with factor e^{kc}.",
)
def termwise(p: Proof) -> None:
    a, b, t, U = sp.symbols("a b t U", positive=True)    # a = e^{sum_S eps}, b = e^{sum_notS eps}, t = e^{eps_g}, U = e^c
    s, m = sp.symbols("s m", nonnegative=True, integer=True)  # s = |S|, m = k - s
    k = s + m
    left = a * U ** s - t * U ** k * b * U ** m
    right = U ** k * (a - t * b)
    diff = sp.expand(right - left)
    ok1 = identical(diff, a * U ** s * (U ** m - 1) + t * b * U ** k * (U ** m - 1))
    p.symbolic("e^{kc}(a - t b) - (a e^{sc} - t e^{kc} b e^{(k-s)c}) = a e^{sc}(e^{(k-s)c} - 1) + t b e^{kc}(e^{(k-s)c} - 1) "
               ">= 0 (U = e^c >= 1, k - s >= 0): inside the max each right term dominates, and max(., 0) is monotone", ok1)
    es, eg, cc = sp.symbols("E_S eps_g c", real=True)
    en = sp.symbols("E_notS", real=True)
    lhs_cond = (eg + (s + m) * cc + en + m * cc) - (es + s * cc)
    rhs_cond = (eg + en) - es
    ok2 = identical(lhs_cond - rhs_cond, 2 * m * cc)
    p.symbolic("zero right term => zero left term: (eps_g + kc + sum_notS(eps_i + c)) - sum_S(eps_i + c) = "
               "(eps_g + sum_notS eps_i - sum_S eps_i) + 2(k - s)c", ok2)
    p.verified("the termwise bound with e^{kc}, combined with prod(1+e^{eps_i+c})/prod(1+e^{eps_i}) >= e^{kc/2}, gives the "
               "displayed inequality", ok1 and ok2)
    n = 0
    for ws, ds, u, dg in _instances(p, 80 if p.full else 30):
        k = len(ws)
        for tg in (F(1), F(3, 2), F(4)):
            Uc = u * u
            lhs = C.S_brute([w * Uc for w in ws], tg * Uc ** k)
            Z = C.prod(1 + w for w in ws)
            Z2 = C.prod(1 + w * Uc for w in ws)
            S = C.S_brute(ws, tg)
            n += 1
            if not p.require(lhs <= Uc ** k * S <= u ** k * Z2 / Z * S, "S' <= e^{kc} S <= e^{kc/2}(Z'/Z) S",
                             f"ws={ws} e^(c/2)={u} t={tg}"):
                return
    p.instances("S'(e^{eps_g + kc}) <= e^{kc} S(e^{eps_g}) <= e^{kc/2} (Z'/Z) S(e^{eps_g}) exactly", n)
