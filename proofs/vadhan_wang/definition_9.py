"""Vadhan-Wang Definition 9 ((eps, delta)-indistinguishability) and the remark after it.

Printed: Y and Z on the same space are (eps, delta)-indistinguishable if for every event T,
Pr[Y in T] <= e^eps Pr[Z in T] + delta and Pr[Z in T] <= e^eps Pr[Y in T] + delta. "M is (eps, delta)-DP iff
for all adjacent x, x', M(x) and M(x') are (eps, delta)-indistinguishable."

Checked: the two event inequalities over all events (enumerated) hold iff the least delta of
both directions is <= delta (random pairs, at that delta and just below); the relation is symmetric;
and the remark on the clamped geometric mechanism of Definition 1's check (every adjacent pair of
multisets of size <= 3): Definition 1 at (eps, delta) holds iff every adjacent pair is indistinguishable.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import FAILED, crosschecked
from .._framework import Proof, statement
from . import _dp as D
from .definition_1 import adjacent, clamped_geometric, is_dp, multisets


def indist_literal(Y, Z, w, delta) -> bool:
    return D.hockey_all_events(Y, Z, w) <= delta and D.hockey_all_events(Z, Y, w) <= delta


@statement(
    "Definition 9",
    "Y, Z are (eps, delta)-indistinguishable if Pr[Y in T] <= e^eps Pr[Z in T] + delta and Pr[Z in T] <= e^eps "
    "Pr[Y in T] + delta for every event T; M is (eps, delta)-DP iff M(x), M(x') are indistinguishable for adjacent x, x'.",
    library=("exactdp.fdp.tradeoff_of", "exactdp.fdp.TradeOff.delta", "exactdp.fdp.TradeOff.exp_epsilon"),
)
def definition(p: Proof) -> None:
    from exactdp.fdp import tradeoff_of

    n = n_lib = 0
    for _ in range(40 if p.full else 20):
        Y, Z = D.rand_pair(p.rng, p.rng.randint(2, 4))
        w = p.rng.choice(D.W_CHOICES)
        d = D.dp_delta(Y, Z, w)
        n += 1
        ys = sorted(set(Y) | set(Z), key=repr)
        f = p.library("exactdp tradeoff_of", tradeoff_of, [Y.get(y, F(0)) for y in ys], [Z.get(y, F(0)) for y in ys])
        if f is not FAILED:
            inst = f"Y={Y} Z={Z} e^eps={w}"
            # both directions: T(Y, Z) gives max_T Z(T) - w Y(T), its inverse max_T Y(T) - w Z(T)
            two = p.library("exactdp TradeOff.delta (both directions)",
                            lambda: max(f.delta(exp_eps=w).exact, f.inverse().delta(exp_eps=w).exact))
            n_lib += p.agree(two, d, "exactdp TradeOff.delta (both directions)", inst)
            if d < 1:
                least = p.library("exactdp TradeOff.exp_epsilon (both directions)",
                                  lambda: _max_or_none(f.exp_epsilon(d), f.inverse().exp_epsilon(d)))
                n_lib += p.agree(least, D.hockey_least_t(Y, Z, d), "exactdp TradeOff.exp_epsilon (both directions)",
                                 f"{inst} delta={d}")
        ok = indist_literal(Y, Z, w, d) and indist_literal(Z, Y, w, d)
        if d > 0:
            ok = ok and not indist_literal(Y, Z, w, d - F(1, 10 ** 6))
        if not p.require(ok, "indistinguishable iff both-direction delta <= delta; symmetric", f"Y={Y} Z={Z} e^eps={w}"):
            return
    xs = multisets(3)
    for alpha in (F(1, 2), F(2, 3)):
        mech = lambda x, a=alpha: clamped_geometric(x, a, 3)  # noqa: E731
        for w, delta in ((1 / alpha, F(0)), (1 / alpha - F(1, 10), F(0)), (F(1), F(1, 3)), (F(3, 2), F(1, 10))):
            pairs = all(indist_literal(mech(x), mech(y), w, delta) for x in xs for y in xs if adjacent(x, y))
            n += 1
            if not p.require(pairs == is_dp(mech, xs, w, delta), "DP iff adjacent outputs indistinguishable",
                             f"alpha={alpha} e^eps={w} delta={delta}"):
                return
    p.instances("both event inequalities over all events <=> both-direction positive-part delta; symmetry; Definition 1 "
                "<=> indistinguishability of adjacent outputs (clamped geometric mechanism, every adjacent pair)", n,
                "exhaustive")
    crosschecked(p, "exactdp tradeoff_of(Y, Z): TradeOff.delta of it and of its inverse give the both-direction delta, "
                 "and TradeOff.exp_epsilon of both the least e^eps at that delta (the independent two-sided least t)",
                 n_lib)


def _max_or_none(a, b):
    """The larger of two e^eps (None: infinite)."""
    return None if a is None or b is None else max(F(a), F(b))
