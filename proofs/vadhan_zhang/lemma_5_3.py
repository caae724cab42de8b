"""Vadhan-Zhang Lemma 5.3 (monotonicity of Renyi divergence in the conditional divergences) and its proof.

Printed: if D_alpha(V|U=u || V'|U'=u) <= D_alpha(W|U=u || W'|U'=u) for every u in supp(U), then
D_alpha((U, V) || (U', V')) <= D_alpha((U, W) || (U', W')).

Checked exactly on random finite (U, V, W), (U', V', W') (conditionals generated so that the hypothesis
holds: V|u a random post-processing of W|u, or random and swapped), alpha in {2, 3, 3/2, 101/100}.
Step (the display): S_alpha((U, V)) = sum_u U(u)^alpha U'(u)^(1-alpha) S_alpha(V|u), proved symbolically
for symbolic alpha (sympy) and checked exactly.
"""

from __future__ import annotations

from fractions import Fraction as F

import sympy as sp

from .._crosscheck import crosschecked
from .._framework import Proof, statement
from . import _rdp as Rd
from . import _renyi as R
from . import _tradeoff as T
from .lemma_1_7 import joint

ORDERS = (2, 3, F(3, 2), F(101, 100))


@statement(
    "Lemma 5.3",
    "If D_alpha(V|U=u || V'|U'=u) <= D_alpha(W|U=u || W'|U'=u) for every u in supp(U), then "
    "D_alpha((U, V) || (U', V')) <= D_alpha((U, W) || (U', W')).",
    library=("exactdp.renyi.renyi_chain", "exactdp.renyi.renyi_interactive"),
)
def lemma(p: Proof) -> None:
    from exactdp.renyi import renyi_chain, renyi_interactive

    from ._library import PQ, renyi_agree, to_lib

    n = n_lib = 0
    for _ in range(30 if p.full else 10):
        k = p.rng.randint(1, 3)
        U = T.rand_pairs(p.rng, k, 6, False)
        Ws = [T.rand_pairs(p.rng, p.rng.randint(1, 3), 6, False) for _ in range(k)]
        Vs = [T.push(Wu, T.rand_kernel(p.rng, len(Wu), p.rng.randint(1, 3))) for Wu in Ws]   # data processing
        for a in ORDERS:
            hyp = all(R.cmp(R.S(V, a), R.S(W, a)) <= 0 for V, W in zip(Vs, Ws))
            n += 1
            if F(a).denominator == 1:   # renyi_chain takes the conditional E_u = S_alpha(V|u) as rationals
                for Cs in (Vs, Ws):
                    s = R.S(joint(U, Cs), a)
                    inst = f"U={U} conditionals={Cs} alpha={a}"
                    n_lib += renyi_agree(p, p.library("exactdp renyi_chain", renyi_chain, *PQ(U),
                                                      [R.S(C, a) for C in Cs], a), s, a, "exactdp renyi_chain", inst)
                    tree = ("A", tuple((f"u{i}", pu, qu, ("A", tuple((f"v{j}", c, d, ("E",)) for j, (c, d) in enumerate(C))))
                                       for i, ((pu, qu), C) in enumerate(zip(U, Cs))))
                    n_lib += renyi_agree(p, p.library("exactdp renyi_interactive", renyi_interactive, to_lib(tree), a), s,
                                         a, "exactdp renyi_interactive (U, then V given U)", inst)
            if not p.require(hyp and R.cmp(R.S(joint(U, Vs), a), R.S(joint(U, Ws), a)) <= 0,
                             "conditional divergences ordered => joint ordered", f"U={U} V={Vs} W={Ws} alpha={a}"):
                return
    p.instances("random U (1-3 values), W|u, and V|u a post-processing of W|u; alpha in {2, 3, 3/2, 101/100}", n)
    crosschecked(p, "exactdp renyi_chain(U, U', (S_alpha(V|u))_u) and renyi_interactive of the two-answer mechanism "
                 "(U, then V given U) equal the independent S_alpha of the joint pairs (both (U, V) and (U, W); "
                 "integer alpha)", n_lib)


@statement(
    "Lemma 5.3 (proof: the decomposition display)",
    "D_alpha((U, V)||(U', V')) = 1/(alpha-1) log sum_u Pr(U=u)^alpha / Pr(U'=u)^(alpha-1) exp((alpha-1) "
    "D_alpha(V|U=u || V'|U'=u)).",
)
def display(p: Proof) -> None:
    al = sp.symbols("alpha", positive=True)
    u = sp.symbols("u0:2", positive=True)
    up = sp.symbols("w0:2", positive=True)
    v = [sp.symbols(f"v{i}_0:2", positive=True) for i in range(2)]
    vp = [sp.symbols(f"z{i}_0:2", positive=True) for i in range(2)]
    lhs = sum((u[i] * v[i][j]) ** al / (up[i] * vp[i][j]) ** (al - 1) for i in range(2) for j in range(2))
    rhs = sum(u[i] ** al / up[i] ** (al - 1) * sum(v[i][j] ** al / vp[i][j] ** (al - 1) for j in range(2))
              for i in range(2))
    ok = sp.simplify(sp.expand(sp.expand_power_base(lhs - rhs, force=True))) == 0
    p.verified("sum_{u,v} (U V)^alpha / (U' V')^(alpha-1) = sum_u U^alpha/U'^(alpha-1) sum_v V^alpha/V'^(alpha-1), "
               "for symbolic alpha", ok)
    n = 0
    for _ in range(20 if p.full else 8):
        k = p.rng.randint(1, 3)
        U = T.rand_pairs(p.rng, k, 6, False)
        Vs = [T.rand_pairs(p.rng, p.rng.randint(1, 3), 6, False) for _ in range(k)]
        for a in (2, 3, F(3, 2)):
            want = F(0)
            for (pu, qu), V in zip(U, Vs):
                want = Rd.add(want, R.mul(Rd.term(pu, qu, a), R.S(V, a)))
            n += 1
            if not p.require(R.cmp(R.S(joint(U, Vs), a), want) == 0, "decomposition", f"U={U} V={Vs} alpha={a}"):
                return
    p.instances("random instances, alpha in {2, 3, 3/2} (exact)", n)
    p.note("'exp(alpha - 1) D_alpha(...)' in the display is exp((alpha - 1) D_alpha(...)) (typesetting).")
