"""Vadhan-Zhang Lemma 2.4 ((F, <=) is complete; sup S by formula (4)) and the steps of its proof.

Printed: the poset of trade-off functions (f <= g iff f >= g pointwise) is complete; specifically for
S subset F, sup S = h, h(alpha) := inf_{F: supp(F) in S, A: S -> [0,1]} {E[F(A(F))] : E[A(F)] <= alpha} (4).

Refuted as printed: for the infinite S = {f_n(alpha) = max(0, 1 - n alpha) : n >= 1} (each f_n a trade-off
function) formula (4) gives h(0) = 1 and h(alpha) = 0 for alpha > 0: h is not continuous, so it is not in
F (Proposition 1.7); the least upper bound of S in F is the zero function. The proof's claim "h is
non-increasing and continuous on [0, 1]" fails at alpha = 0. For finite S formula (4) is right (checked).
Corrected: sup S = h-bar, h-bar = h on (0, 1] and h-bar(0) = lim_{alpha -> 0+} h(alpha) (= h when S is
finite); completeness holds.
A second, minor flaw: the chain h(alpha) <= E[F(A(F))] <= E[1 - A(F)] <= 1 - alpha is false for admissible
(F, A) with E[A(F)] < alpha; it holds for A = alpha.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import FAILED, crosschecked
from .._framework import Proof, statement
from . import _sup as Su
from . import _tradeoff as T
from ._library import same_tf

COUNTER = ("S = {f_n : n >= 1}, f_n(alpha) = max(0, 1 - n alpha) = T((1/n, 1 - 1/n), (1, 0)), each convex, continuous, "
           "non-increasing, <= 1 - alpha. Formula (4): h(0) = 1 (E[A(F)] <= 0 forces A(F) = 0 and f_n(0) = 1 for every n); "
           "h(1/m) = 0 for every m (F = f_m, A = 1/m: f_m(1/m) = 0). So h jumps at 0, is not continuous, and is not a "
           "trade-off function (Proposition 1.7); the least upper bound of S in F is the zero function (0 = T of "
           "disjoint distributions is <= every f_n, and an upper bound h' in F has h' <= f_n -> 0 on (0, 1], so h' = 0 by "
           "continuity). S must be infinite: for finite S formula (4) is the lower convex envelope of min S, continuous.")


def check_family(p: Proof) -> bool:
    """The exact facts of the counterexample."""
    ok = Su.family_value(0) == 1 and all(Su.family_value(F(1, m)) == 0 for m in range(1, 41))
    ok = ok and all(T.is_tradeoff(Su.f_n(n))[0] and T.le(T.PERFECT, Su.f_n(n)) for n in range(1, 41))
    ok = ok and T.is_tradeoff(T.PERFECT)[0]
    return ok


def check_finite(q: Proof, count: int) -> None:
    """Formula (4) for finite S: equals the lower convex envelope, is in F, is an upper bound, and is below
    every upper bound (random members of F below min S)."""
    from exactdp.fdp import TradeOff, tradeoff_sup

    n = n_lib = 0
    for _ in range(count):
        S = Su.rand_S(q)
        h = T.envelope(S)
        lib = q.library("exactdp tradeoff_sup", lambda: tradeoff_sup([TradeOff(list(f)) for f in S]))
        n_lib += lib is not FAILED and same_tf(q, lib, h, "exactdp tradeoff_sup (against formula (4) = the envelope)",
                                               str([T.fmt_tf(f) for f in S]))
        xs = sorted({x for f in S for x, _ in f} | {F(k, 8) for k in range(9)})
        if not q.require(all(Su.h_formula(S, a) == T.value(h, a) for a in xs), "formula (4) = lower convex envelope",
                         str([T.fmt_tf(f) for f in S])):
            return
        ok, why = T.is_tradeoff(h)
        if not q.require(ok and all(T.le(h, f) for f in S), "h in F and f <= h (poset) for f in S", why):
            return
        for g in Su.upper_bounds(q, S, 3):
            n += 1
            if not q.require(T.le(g, h), "every upper bound h' satisfies h <= h' (poset)",
                             f"S={[T.fmt_tf(f) for f in S]} h'={T.fmt_tf(g)}"):
                return
    q.instances("finite S (1-4 random trade-off functions): formula (4) (by Caratheodory pairs) = the lower convex "
                "envelope of min S, a trade-off function, an upper bound, below every sampled upper bound", n)
    crosschecked(q, "exactdp tradeoff_sup of the same finite S equals formula (4) (checked above to be the envelope)",
                 n_lib)


def correction(q: Proof, count: int = 15) -> None:
    check_finite(q, 3 * count if q.full else count)
    ok = check_family(q)
    # a second infinite family with a non-trivial closure: g_n = max(f_n, (1 - alpha)/2)
    half = T.normalize([(F(0), F(1, 2)), (F(1), F(0))])
    gn = []
    for n in range(1, 41):
        # max(f_n, (1-a)/2): breakpoints (0, 1), (x, (1-x)/2) with 1 - n x = (1 - x)/2, i.e. x = 1/(2n - 1); then (1, 0)
        x = F(1, 2 * n - 1)
        gn.append(T.normalize([(F(0), F(1)), (x, (1 - x) / 2), (F(1), F(0))]))
    ok = ok and all(T.is_tradeoff(f)[0] and T.le(half, f) for f in gn) and T.is_tradeoff(half)[0]
    ok = ok and all(T.value(gn[-1], a) == T.value(half, a) for a in (F(1, 50), F(1, 10), F(1, 2), F(1)))
    if q.require(ok, "infinite families: h-bar in F and below every member",
                 "S = {f_n}: h-bar = 0; S = {max(f_n, (1-alpha)/2)}: h-bar = (1-alpha)/2"):
        q.instances("infinite families (exact): S = {f_n}: h = 0 on (0, 1] (witness F = f_m, A = 1/m), h-bar = 0 in F and "
                    "below every f_n (n <= 40); S = {max(f_n, (1 - alpha)/2)}: h = h-bar = (1 - alpha)/2 on (0, 1] "
                    "(attained for n >= (1 + 1/alpha)/2), h-bar(0) = 1/2, in F and below every member; an upper bound h' "
                    "in F is <= h on (0, 1] by the printed argument and <= h-bar(0) at 0 by continuity", 2)
    random_families(q, 3 * count if q.full else count)


def random_families(q: Proof, count: int) -> None:
    """Infinite families S_g = {max(f_n, g) : n >= 1} for random trade-off functions g: every member is in F
    (a maximum of convex functions <= 1 - alpha); formula (4) is 1 at alpha = 0 (every member is 1 there) and
    g(alpha) for alpha > 0 (>= g by Jensen, g convex and below every member; attained by the member with
    n >= (1 - g(alpha))/alpha at A = alpha); so h jumps at 0 unless g(0) = 1, and h-bar = g (an upper bound
    h' in F is <= every member, hence <= g on (0, 1] and at 0 by continuity). Checked exactly: the witness
    attains g(alpha), and g is in F and below every member (n <= 40)."""
    n_fam = 0
    for _ in range(count):
        g = T.rand_tf(q.rng, 3)
        ok, why = T.is_tradeoff(g)
        members_above = all(max(T.value(Su.f_n(n), a), T.value(g, a)) >= T.value(g, a)
                            for n in range(1, 41) for a, _ in g)
        if not q.require(ok and members_above, "S_g: h-bar = g is in F and below every member", T.fmt_tf(g) + why):
            return
        for a in (F(1, 1000), F(1, 50), F(1, 10), F(1, 3), F(1, 2), F(1)):
            ga = T.value(g, a)
            n = max(1, -(-(1 - ga).numerator * a.denominator // ((1 - ga).denominator * a.numerator)))
            if not q.require(max(T.value(Su.f_n(n), a), ga) == ga, "S_g: a member attains g(alpha) at A = alpha",
                             f"g={T.fmt_tf(g)} alpha={a} n={n}"):
                return
        n_fam += 1
    q.instances("infinite families S_g = {max(f_n, g) : n >= 1}, g a random trade-off function: h = g on (0, 1] "
                "(attained by an explicit member at six alpha from 1/1000 to 1), h(0) = 1, h-bar = g in F and below "
                "every member (n <= 40)", n_fam, "exact")


@statement(
    "Lemma 2.4",
    "(F, <=) is complete: for S subset F, sup S = h, h(alpha) := inf_{F: supp(F) subset S, A: S -> [0,1]} "
    "{E[F(A(F))] : E[A(F)] <= alpha} (4).",
    library=("exactdp.fdp.tradeoff_sup",),
)
def lemma(p: Proof) -> None:
    if check_family(p):
        p.refute("sup S = h of formula (4) (h must be a trade-off function)", COUNTER)
    p.correct("(F, <=) is complete; sup S = h-bar, where h-bar(alpha) = h(alpha) (formula (4)) for alpha in (0, 1] and "
              "h-bar(0) = lim_{alpha -> 0+} h(alpha); h-bar = h when S is finite.", correction)


@statement(
    "Lemma 2.4 (proof: h is the least upper bound)",
    "For an upper bound h' of S (h' <= f pointwise for f in S) and any F, A with E[A(F)] <= alpha: "
    "h'(alpha) <= h'(E[A(F)]) <= E[h'(A(F))] <= E[F(A(F))], hence h' <= h pointwise.",
)
def least(p: Proof) -> None:
    n = 0
    for _ in range(30 if p.full else 12):
        S = Su.rand_S(p)
        for g in Su.upper_bounds(p, S, 2):
            for _ in range(4):
                w = T.rand_dist(p.rng, len(S), 5, False)                      # the law of F on S
                A = [F(p.rng.randint(0, 8), 8) for _ in S]                     # A: S -> [0, 1]
                mean = sum(wi * a for wi, a in zip(w, A))
                alpha = min(F(1), mean + F(p.rng.randint(0, 4), 16))
                chain = [T.value(g, alpha), T.value(g, mean), sum(wi * T.value(g, a) for wi, a in zip(w, A)),
                         sum(wi * T.value(f, a) for wi, f, a in zip(w, S, A))]
                n += 1
                if not p.require(all(x <= y for x, y in zip(chain, chain[1:])), "the printed chain",
                                 f"S={[T.fmt_tf(f) for f in S]} h'={T.fmt_tf(g)} law={w} A={A} alpha={alpha}"):
                    return
    p.instances("random finite S, upper bounds h', laws of F and maps A: h'(alpha) <= h'(E A) <= E h'(A) <= E F(A)", n)


@statement(
    "Lemma 2.4 (proof: h is non-increasing and continuous)",
    "h is non-increasing and continuous on [0, 1] due to the monotonicity and continuity of f in F.",
)
def continuity(p: Proof) -> None:
    if check_family(p):
        p.refute("h continuous on [0, 1]", "S = {max(0, 1 - n alpha) : n >= 1}: h(0) = 1, h(alpha) = 0 for alpha > 0.")

    def corr(q: Proof) -> None:
        n = 0
        for _ in range(40 if q.full else 15):
            S = Su.rand_S(q)
            xs = [F(k, 16) for k in range(17)]
            vals = [Su.h_formula(S, a) for a in xs]
            n += 1
            # h is convex (hence continuous on the open interval) and non-increasing; for finite S also at 0:
            # h(0) = min f(0) and h is the piecewise-linear envelope, whose value at 0 is its limit
            if not q.require(all(x >= y for x, y in zip(vals, vals[1:])) and vals[0] == min(f[0][1] for f in S)
                             and vals[0] == T.value(T.envelope(S), 0), "non-increasing; continuous at 0 for finite S",
                             str([T.fmt_tf(f) for f in S])):
                return
        if q.require(all(Su.family_value(F(1, m)) == 0 for m in range(1, 41)), "infinite S: h constant on (0, 1]",
                     "S = {f_n}"):
            q.instances("h non-increasing on [0, 1] and, for finite S, continuous at 0 (h(0) = min f(0) = the "
                        "envelope's value); for S = {f_n} h is continuous on (0, 1] (constant 0) but not at 0", n + 1)

    p.correct("h is non-increasing on [0, 1] and continuous on (0, 1] (convex); it is continuous at 0 when S is finite, "
              "and in general its value at 0 must be replaced by the limit (the corrected Lemma 2.4).", corr)


@statement(
    "Lemma 2.4 (proof: h(alpha) <= 1 - alpha)",
    "Since f(x) <= 1 - x for f in F: h(alpha) <= E[F(A(F))] <= E[1 - A(F)] <= 1 - alpha.",
)
def below_diagonal(p: Proof) -> None:
    a = F(1, 2)  # S = {1 - alpha} (the identity trade-off function), F = that function
    lhs = 1 - 0                                  # E[1 - A(F)] for A = 0
    if lhs > 1 - a:
        p.refute("E[1 - A(F)] <= 1 - alpha for admissible (F, A)",
                 "S = {1 - alpha}, F = that function, A = 0 (admissible: E[A(F)] = 0 <= alpha = 1/2): "
                 "E[1 - A(F)] = 1 > 1 - alpha = 1/2 (the inequality needs E[A(F)] >= alpha).")

    def corr(q: Proof) -> None:
        n = 0
        for _ in range(40 if q.full else 15):
            S = Su.rand_S(q)
            for k in range(17):
                al = F(k, 16)
                n += 1
                # A = alpha (constant): admissible; E[F(alpha)] <= 1 - alpha since each f(alpha) <= 1 - alpha
                if not q.require(Su.h_formula(S, al) <= min(T.value(f, al) for f in S) <= 1 - al,
                                 "h(alpha) <= E[F(alpha)] <= 1 - alpha", f"S={[T.fmt_tf(f) for f in S]} alpha={al}"):
                    return
        q.instances("random finite S, alpha = k/16: with A = alpha, h(alpha) <= f(alpha) <= 1 - alpha", n)

    p.correct("Take A = alpha (constant): h(alpha) <= E[F(alpha)] <= 1 - alpha.", corr)
