"""Vadhan-Zhang Definition 1.8 (f-differential privacy) and the special case f_{eps,delta}.

Printed: M is f-DP if T(M(x), M(x')) >= f for all neighbouring x, x'. "(eps, delta)-DP is a special
case of f-DP, taking f = f_{eps,delta} = max{0, 1 - delta - exp(eps) alpha, exp(-eps)(1 - delta - alpha)}."

Checked: the breakpoint form of f_{eps,delta} used throughout equals the printed max formula
(exhaustive grid, e^eps up to 10^6, delta in [0, 1]) and is a trade-off function; f-DP is monotone
in f; and (step) (eps, delta)-DP (Definition 1.1, literally over every set) holds iff
T >= f_{eps,delta}.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import FAILED, contains, crosschecked
from .._framework import Proof, statement
from . import _tradeoff as T
from ._library import PQ, same_tf
from .definition_1_1 import holds_literally

WS = [F(1), F(11, 10), F(2), F(7), F(10) ** 6]
DS = [F(0), F(1, 10) ** 9, F(1, 100), F(1, 3), F(1)]


@statement(
    "Definition 1.8",
    "M is f-DP if T(M(x), M(x')) >= f for all neighbouring x, x'; (eps, delta)-DP is the case "
    "f_{eps,delta} = max{0, 1 - delta - e^eps alpha, e^-eps (1 - delta - alpha)}.",
    library=("exactdp.fdp.f_eps_delta", "exactdp.fdp.TradeOff.delta", "exactdp.fdp.TradeOff.inverse",
             "exactdp.fdp.tradeoff_of"),
)
def definition(p: Proof) -> None:
    from exactdp.fdp import f_eps_delta, tradeoff_of

    n = n2 = n_lib = 0
    for w in WS:
        for d in DS:
            f = T.feps(w, d)
            if d < 1:  # exactdp takes delta in [0, 1) (f_{eps,1} = 0)
                n_lib += same_tf(p, p.library("exactdp f_eps_delta", f_eps_delta, exp_eps=w, delta=d), f,
                                 "exactdp f_eps_delta", f"w={w} delta={d}")
            ok, why = T.is_tradeoff(f)
            if not p.require(ok, "f_{eps,delta} is a trade-off function", f"w={w} delta={d}: {why}"):
                return
            for a in sorted({F(k, 64) for k in range(65)} | {x for x, _ in f}):
                n += 1
                if not p.require(T.value(f, a) == T.feps_value(w, d, a), "breakpoints = printed max formula",
                                 f"w={w} delta={d} alpha={a}"):
                    return
    for _ in range(100 if p.full else 40):
        pairs = T.rand_pairs(p.rng, p.rng.randint(1, 5))
        f, g = T.rand_tf(p.rng), T.rand_tf(p.rng)
        lo = T.envelope([f, g])          # pointwise below both
        t = T.tradeoff(pairs)
        n2 += 1
        lib = p.library("exactdp tradeoff_of", tradeoff_of, *PQ(pairs))
        if lib is not FAILED:
            for w in WS[:4]:
                # TradeOff.delta is one-sided: sup_alpha 1 - e^eps alpha - f(alpha) = max_S Q(S) - e^eps P(S)
                n_lib += contains(p, p.library("exactdp TradeOff.delta", lib.delta, exp_eps=w),
                                  T.hockey(T.swap(pairs), w), "exactdp TradeOff.delta", f"{T.fmt_pairs(pairs)} w={w}")
                d2 = p.library("exactdp TradeOff.inverse().delta", lambda: lib.inverse().delta(exp_eps=w))
                n_lib += contains(p, d2, T.hockey(pairs, w), "exactdp TradeOff.inverse().delta",
                                  f"{T.fmt_pairs(pairs)} w={w}")
        if not p.require(not T.le(f, t) or T.le(lo, t), "f-DP and g <= f imply g-DP", T.fmt_pairs(pairs)):
            return
    p.instances("f_{eps,delta} breakpoints vs the printed formula at alpha = k/64 and the kinks, e^eps in "
                "{1, 11/10, 2, 7, 10^6}, delta in {0, 10^-9, 1/100, 1/3, 1}", n, "exhaustive")
    p.instances("monotonicity: T >= f and g <= f pointwise give T >= g", n2)
    crosschecked(p, "exactdp f_eps_delta(exp_eps=w, delta) = the breakpoints checked above (every grid point, delta < 1), and "
                 "TradeOff.delta(exp_eps=w) of T(P, Q) and of its inverse contain the exact one-sided deltas "
                 "max_S Q(S) - w P(S) and max_S P(S) - w Q(S) (their maximum is the least delta with "
                 "T(P, Q) >= f_{eps,delta})",
                 n_lib)


@statement(
    "Definition 1.8 (proof: (eps, delta)-DP is f_{eps,delta}-DP)",
    "(eps, delta)-DP is the special case f = f_{eps,delta} of f-DP.",
)
def special_case(p: Proof) -> None:
    n = 0
    for _ in range(60 if p.full else 25):
        pairs = T.rand_pairs(p.rng, p.rng.randint(1, 5))
        t = T.tradeoff(pairs)
        for w in WS:
            for d in DS + [T.delta_for(t, w)]:
                n += 1
                if not p.require(holds_literally(pairs, w, d) == T.le(T.feps(w, d), t),
                                 "Definition 1.1 (every S, both orders) <=> T(P, Q) >= f_{eps,delta}",
                                 f"{T.fmt_pairs(pairs)} w={w} delta={d}"):
                    return
    p.instances("random pairs on 1-5 outcomes, all (w, delta) of the grid and the threshold delta", n, "exhaustive")
