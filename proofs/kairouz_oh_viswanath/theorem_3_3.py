"""Kairouz-Oh-Viswanath Theorem 3.3 (the optimal composition theorem).

Printed (displays (5), (6) lost; transcribed from ../shared/papers/README.md): for any
eps >= 0 and delta in [0,1], the class of (eps,delta)-DP mechanisms satisfies
((k-2i) eps, 1 - (1-delta)^k (1-delta_i))-DP under k-fold adaptive composition for all
i in {0, ..., floor(k/2)}, with
delta_i = sum_{l=0}^{i-1} C(k,l) (e^{(k-l)eps} - e^{(k-2i+l)eps}) / (1+e^eps)^k;
the privacy region of the k-fold composition is the intersection of these regions, and
this is tight (Section 6 gives a mechanism whose composition has exactly this region).

Checked exactly: (converse) the view of EVERY deterministic adversary for k = 2 over a
family of (eps,delta)-DP mechanisms (the Section 6.1 mechanism and random ones, each
also with the neighbours swapped), sampled deterministic adversaries for k = 3 and
randomized adversaries, has its region inside the intersection; (tightness) the k-fold
product of the Section 6.1 mechanism has exactly the intersection as its region (lower
boundaries equal at every breakpoint), k <= 5; cross-checked with exactdp.composed_delta.

Library cross-checks (every exactdp function linked to this theorem): theorem33_guarantees
equals the printed ((k-2i) eps, delta'_i); theorem33_region's and composition_region's
boundaries equal the independent intersection; homogeneous_tradeoff equals the
Neyman-Pearson boundary of the independent k-fold product; check_theorem33 decides
"equal"; optcomp at delta'_i is e^{(k-2i) eps}; largest_eps0 inverts it.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import FAILED, contains_log, crosschecked, exp_exact, same_function
from .._framework import Proof, statement
from . import _adaptive as AD
from . import _common as C
from ._region import compare

CASES = [(F(2), F(0)), (F(3, 2), F(1, 10)), (F(3), F(1, 5))]
#: the ends of the stated range "eps >= 0, delta in [0, 1]": large e^eps, delta = 1/2 and delta = 1 (everything is
#: (eps, 1)-DP and the composition's region is the whole square), e^eps = 1 (eps = 0)
EDGE_CASES = [(F(1000), F(0)), (F(10 ** 6), F(1, 2)), (F(1), F(1, 2)), (F(2), F(1))]


def converse(p: Proof, cases, k_sampled: int, n_random: int) -> bool:
    n_det = n_smp = n_rand = 0
    for w, d in cases:
        fam = AD.family(p.rng, w, d, extra=2 if p.full else 1, sizes=(2, 3) if p.full else (3,))
        pairs2 = C.theorem33_pairs(2, w, d)
        for adv in AD.deterministic_adversaries(fam, 2):
            V0, V1 = AD.views(fam, adv, 2)
            out, _ = compare(V0, V1, pairs2)
            n_det += 1
            if not p.require(out is None, "region of the adaptive composition inside the intersection (k = 2)",
                             f"e^eps={w} delta={d} family={fam} adversary={adv}: leaves at P_MD={out}"):
                return False
        for k in range(3, k_sampled + 1):
            pairs = C.theorem33_pairs(k, w, d)
            for _ in range(n_random):
                adv = AD.random_adversary(p.rng, fam, k)
                V0, V1 = AD.views(fam, adv, k)
                out, _ = compare(V0, V1, pairs)
                n_smp += 1
                if not p.require(out is None, f"region inside the intersection (k = {k}, sampled adversary)",
                                 f"e^eps={w} delta={d} adversary={adv}"):
                    return False
        for _ in range(n_random):
            advs = [AD.random_adversary(p.rng, fam, 2) for _ in range(2)]
            c = F(p.rng.randint(1, 4), 5)
            V0, V1 = AD.views_randomized(fam, advs, [c, 1 - c], 2)
            out, _ = compare(V0, V1, pairs2)
            n_rand += 1
            if not p.require(out is None, "region inside the intersection (randomized adversary, coins in the view)",
                             f"e^eps={w} delta={d} advs={advs} coins={c}"):
                return False
    p.instances("converse, k = 2: every deterministic adversary over a family of (eps,delta)-DP pairs (the Section "
                "6.1 mechanism, random ones and their swaps: 3 pairs, --full 5), (e^eps, delta) in "
                + ", ".join(f"({w}, {d})" for w, d in cases), n_det, "exhaustive")
    p.instances(f"converse, k = 3{' and 4' if k_sampled == 4 else ''}: sampled deterministic adversaries", n_smp,
                "random")
    p.instances("converse, k = 2: randomized adversaries (two deterministic ones mixed, the coin in the view)", n_rand,
                "random")
    return True


def tight(p: Proof, kmax: int) -> bool:
    n = 0
    for k in range(1, kmax + 1):
        for w in ((F(1), F(5, 4), F(2), F(3), F(1000)) if k <= 3 or p.full else (F(2),)):
            for d in ((F(0), F(1, 10), F(1, 3), F(1, 2), F(1)) if k <= 3 or p.full else (F(1, 10),)):
                V0, V1 = C.product([C.kov(w, d)] * k)
                out, inside = compare(V0, V1, C.theorem33_pairs(k, w, d))
                n += 1
                if not p.require(out is None and inside is None, "k-fold Section 6.1 mechanism has exactly the region",
                                 f"k={k} e^eps={w} delta={d}: outside at {out}, strictly inside at {inside}"):
                    return False
    p.instances(f"tightness: region of the k-fold product of the Section 6.1 mechanism = the intersection "
                f"(k <= {kmax}; e^eps in {{1, 5/4, 2, 3, 1000}}, delta in {{0, 1/10, 1/3, 1/2, 1}} for k <= 3, e^eps = 2, "
                "delta = 1/10 beyond, all with --full)", n, "exact")
    return True


def _lib_delta(k, w, d, t):
    from exactdp import Mechanism, composed_delta

    return composed_delta([Mechanism(exp_eps=w, delta=d)] * k, exp_eps_g=t, engine="exact").exact


@statement(
    "Theorem 3.3",
    "k-fold adaptive composition of (eps,delta)-DP mechanisms is ((k-2i)eps, 1-(1-delta)^k(1-delta_i))-DP for all "
    "i in {0..floor(k/2)}; its privacy region is exactly the intersection of these regions (tight).",
    library=("exactdp.composed_delta", "exactdp.optcomp", "exactdp.regions.theorem33_guarantees",
             "exactdp.regions.theorem33_region", "exactdp.regions.theorem33_tradeoff",
             "exactdp.regions.homogeneous_tradeoff", "exactdp.regions.check_theorem33",
             "exactdp.regions.composition_region", "exactdp.bounds.largest_eps0"),
)
def theorem(p: Proof) -> None:
    if not converse(p, CASES if not p.full else CASES + [(F(5, 4), F(1, 3))], 4 if p.full else 3, 40 if p.full else 12):
        return
    if not converse(p, EDGE_CASES, 3, 12 if p.full else 3):
        return
    if not tight(p, 6 if p.full else 5):
        return
    m = 0
    for k in range(1, 9 if p.full else 7):
        for w in (F(3, 2), F(2)):
            for d in (F(0), F(1, 10)):
                for w_i, d_i in C.theorem33_pairs(k, w, d):
                    m += 1
                    p.agree(p.library("exactdp composed_delta (exact)", _lib_delta, k, w, d, w_i), d_i,
                            "exactdp composed_delta", f"k={k} e^eps={w} delta={d} e^eps_g={w_i}")
    p.note(f"exactdp.composed_delta (exact engine) agrees with 1 - (1-delta)^k (1-delta_i) on {m} (k, eps, delta, i).")
    _library(p)
    p.note("Our copy says the region is 'an intersection of k regions'; there are floor(k/2) + 1 of them (i = 0 .. "
           "floor(k/2)), as the formula itself says: a harmless slip, not an erratum. 'delta in ,' is 'delta in "
           "[0,1]' with the interval lost in conversion.")


@statement(
    "Theorem 3.3 (proof: the Section 6.1 mechanism has privacy region R(eps, delta))",
    "The mechanism P0 = (delta, (1-delta)e^eps/(1+e^eps), (1-delta)/(1+e^eps), 0), P1 its mirror, has "
    "R(M) = R(eps, delta).",
    library=("exactdp.regions.dp_region", "exactdp.regions.randomized_response_region"),
)
def step_region(p: Proof) -> None:
    from exactdp import Mechanism
    from exactdp.regions import dp_region, randomized_response_region

    n = n_lib = 0
    for w in C.W_CHOICES + [F(10), F(101, 100)]:
        for d in (F(0), F(1, 100), F(1, 10), F(1, 3), F(1, 2), F(1)):
            c = (1 - d) / (1 + w)
            lower = [(F(0), F(1)), (F(0), 1 - d), (c, c), (1 - d, F(0)), (F(1), F(0))]
            R_vertices = lower + [(1 - x, 1 - y) for x, y in lower]
            a = C.hull(C.all_points(*C.kov(w, d)))
            b = C.hull(R_vertices)
            n += 1
            if not p.require(a == b, "hull of the mechanism's 16 points = R(eps,delta)", f"e^eps={w} delta={d}: {a} vs {b}"):
                return
            if d < 1:   # the library takes delta in [0, 1); its vertices are (P_FA, P_MD), the hull's (P_MD, P_FA)
                hull = {(fa, md) for md, fa in a}
                for name, fn in (("dp_region", lambda: dp_region(exp_eps=w, delta=d)),
                                 ("randomized_response_region",
                                  lambda: randomized_response_region([Mechanism(exp_eps=w, delta=d)]))):
                    R = p.library(f"exactdp {name}", fn)
                    p.agree(FAILED if R is FAILED else set(R.exact_vertices()), hull, f"exactdp {name} (vertices)",
                            f"e^eps={w} delta={d}")
                    n_lib += 1
    p.instances("exact hull of the 16 rejection-region points = the polygon R(eps,delta)", n, "exhaustive")
    crosschecked(p, "exactdp dp_region(e^eps, delta) and randomized_response_region of one (e^eps, delta) mechanism have "
                 "exactly the vertices of the independent hull (delta < 1)", n_lib)
    p.note("The mechanism's display was lost in our copy; transcribed from the published supplementary material "
           "(its equations (12)-(13)).")


@statement(
    "Theorem 3.3 (proof: by Theorem 2.5 every (eps,delta)-DP mechanism is dominated by the Section 6.1 mechanism)",
    "For every (eps,delta)-DP pair (P0, P1) there is a stochastic T with P_b = T(P~_b), b = 0, 1.",
    library=("exactdp.interactive.blackwell_kernel",),
)
def step_dominated(p: Proof) -> None:
    from exactdp.interactive import blackwell_kernel

    n = 0
    for _ in range(80 if p.full else 30):
        w, d = C.rand_w(p.rng), C.rand_delta(p.rng)
        m = p.rng.randint(2, 4)
        p0, p1 = C.shrink_to_dp(C.rand_dist(p.rng, m), C.rand_dist(p.rng, m), w, d)
        T = C.garbling(list(C.kov(w, d)), [p0, p1])
        n += 1
        if not p.require(T is not None, "a post-processing T of the Section 6.1 mechanism exists",
                         f"e^eps={w} delta={d} p0={p0} p1={p1}"):
            return
        r = p.library("exactdp blackwell_kernel", blackwell_kernel, *C.kov(w, d), p0, p1)
        p.agree(FAILED if r is FAILED else r.dominated, True, "exactdp blackwell_kernel (dominated)",
                f"e^eps={w} delta={d} p0={p0} p1={p1}")
    p.instances("random (eps,delta)-DP pairs (n <= 4): exact LP finds T, re-verified exactly", n)
    crosschecked(p, "exactdp blackwell_kernel finds a verified kernel from the Section 6.1 mechanism to the pair", n)


def _library(p: Proof) -> None:
    from exactdp import Mechanism, optcomp
    from exactdp.bounds import largest_eps0
    from exactdp.regions import (
        check_theorem33,
        composition_region,
        homogeneous_tradeoff,
        theorem33_guarantees,
        theorem33_region,
        theorem33_tradeoff,
    )

    n = {"guarantees": 0, "regions": 0, "np": 0, "check": 0, "optcomp": 0, "eps0": 0}
    for k in range(1, 9 if p.full else 7):
        for w in (F(3, 2), F(2)):
            for d in (F(0), F(1, 10)):
                inst = f"k={k} e^eps={w} delta={d}"
                pairs = C.theorem33_pairs(k, w, d)
                g = p.library("exactdp theorem33_guarantees", theorem33_guarantees, exp_eps=w, delta=d, k=k)
                p.agree(g, [(i, w_i, d_i) for i, (w_i, d_i) in enumerate(pairs)], "exactdp theorem33_guarantees", inst)
                n["guarantees"] += 1
                env = (lambda x, pairs=pairs: C.envelope(pairs, x))
                bps = C.envelope_breakpoints(pairs)
                if p.full or k % 2 == 1 or k == 6:
                    for name, fn in (("theorem33_region", lambda: theorem33_region(exp_eps=w, delta=d, k=k).tradeoff),
                                     ("theorem33_tradeoff", lambda: theorem33_tradeoff(exp_eps=w, delta=d, k=k)),
                                     ("composition_region", lambda: composition_region(
                                         [Mechanism(exp_eps=w, delta=d)] * k, engine="exact").tradeoff)):
                        same_function(p, p.library(f"exactdp {name}", fn), env, bps, f"exactdp {name} (boundary)", inst)
                        n["regions"] += 1
                    c = p.library("exactdp check_theorem33", check_theorem33, exp_eps=w, delta=d, k=k)
                    p.agree(FAILED if c is FAILED else c.equal, True, "exactdp check_theorem33 (equal)", inst)
                    n["check"] += 1
                if k <= (5 if p.full else 4):
                    V0, V1 = C.product([C.kov(w, d)] * k)
                    nb = C.np_boundary(V0, V1)
                    same_function(p, p.library("exactdp homogeneous_tradeoff", homogeneous_tradeoff, exp_eps=w, delta=d,
                                               k=k),
                                  lambda x, nb=nb: C.pl_value(nb, x), [x for x, _ in nb],
                                  "exactdp homogeneous_tradeoff", inst)
                    n["np"] += 1
                ms = [Mechanism(exp_eps=w, delta=d)] * k
                for i, (w_i, d_i) in enumerate(pairs):
                    if d_i < 1:   # OptComp at delta'_i is e^{(k-2i) eps}: delta_g(t) strictly decreases until w^k
                        p.agree(exp_exact(p.library("exactdp optcomp (exact)", optcomp, ms, d_i, engine="exact")), w_i,
                                "exactdp optcomp (exact)", f"{inst} delta'_{i}={d_i}")
                        n["optcomp"] += 1
                    if w_i > 1 and d_i < 1 and (p.full or (k == 3 and i == 1)):
                        r = p.library("exactdp largest_eps0", largest_eps0, exp_eps_g=w_i, delta_g=d_i, k=k, delta0=d)
                        contains_log(p, r, w, "exactdp largest_eps0", f"{inst} i={i}")
                        n["eps0"] += 1
    crosschecked(p, "exactdp theorem33_guarantees equals the printed (i, e^{(k-2i) eps}, 1 - (1-delta)^k (1-delta_i))",
                 n["guarantees"])
    crosschecked(p, "exactdp theorem33_region, theorem33_tradeoff and composition_region (exact): lower boundary equal to "
                 "the independent envelope of the R((k-2i) eps, delta'_i) at every breakpoint of either", n["regions"])
    crosschecked(p, "exactdp check_theorem33 decides that the intersection is the composition's region", n["check"])
    crosschecked(p, "exactdp homogeneous_tradeoff equals the Neyman-Pearson boundary of the independent k-fold product "
                 "of the Section 6.1 mechanism", n["np"])
    crosschecked(p, "exactdp optcomp at delta_g = delta'_i is exactly e^{(k-2i) eps}", n["optcomp"])
    crosschecked(p, "exactdp largest_eps0 at (e^{(k-2i) eps}, delta'_i) encloses eps (k = 3, i = 1; every (k, i) with --full)",
                 n["eps0"])
