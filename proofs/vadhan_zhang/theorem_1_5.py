"""Vadhan-Zhang Theorem 1.5 (an interactive f-DP mechanism is an interactive post-processing of a
non-interactive f-DP mechanism).

Printed: for every trade-off function f, every interactive f-DP M with finite communication and
neighbouring x, x', there are a non-interactive f-DP N and a randomized interactive post-processing P
with View(B <-> M(x)) = View(B <-> P(N(x))) and View(B <-> M(x')) = View(B <-> P(N(x'))) for every B.

Checked on random and extreme finite interactive mechanisms (1-3 messages, query-first and
answer-first): N = (Y, Y') and P built by Theorem 4.1's construction (Blackwell kernels by the exact
LP, verified exactly); T(Y, Y') >= f, and for every deterministic adversary both view laws equal M's.
f is the mechanism's own privacy profile (the strongest f it satisfies) and, separately, the weaker
f_{eps,delta} it satisfies. Step: in the (eps, delta) case N can be the (eps, delta)-randomized response.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import FAILED, crosschecked
from .._framework import Proof, statement
from . import _concurrent as C
from . import _games as G
from . import _lp
from . import _tradeoff as T


def trees(p: Proof):
    out = []
    for i in range(8 if p.full else 4):
        r = p.rng.randint(1, 2)
        out.append(G.rand_tree(p.rng, r, first="QA"[i % 2]))
    out.append(C.skewed_tree(p.rng, 2))
    if p.full:
        out += [G.rand_tree(p.rng, 3, nq=1), G.rand_tree(p.rng, 2, nq=1, na=3, first="A")]
    return out


def check_simulation(p: Proof, tree, f, what) -> int:
    try:
        pairs, sim = G.build(tree, f)
    except ValueError as exc:  # the proof's construction needs kernels that exist whenever M is f-DP
        p.refute(f"the construction of N and P succeeds for an f-DP M ({what})", f"tree={tree}: {exc}")
        return 0
    if not p.require(T.le(f, T.tradeoff(pairs)), f"N is f-DP ({what})", f"tree={tree}"):
        return 0
    n = 0
    for s in G.strategies(tree):
        n += 1
        if not p.require(G.same_view(G.view(tree, s), G.simulated_view(tree, pairs, sim, s)),
                         f"View(B <-> P(N(x))) = View(B <-> M(x)) on x and x' ({what})", f"tree={tree} strategy={s}"):
            return n
    return n


@statement(
    "Theorem 1.5",
    "For every trade-off function f, every interactive f-DP mechanism M with finite communication and neighbouring "
    "x, x', there are a non-interactive f-DP N and an interactive post-processing P with View(B <-> M(x)) = "
    "View(B <-> P(N(x))) and View(B <-> M(x')) = View(B <-> P(N(x'))) for every adversary B.",
    library=("exactdp.interactive.find_simulator", "exactdp.interactive.verify_simulation",
             "exactdp.experiments.vw_section6.run_trial"),
)
def theorem(p: Proof) -> None:
    n = 0
    lib = {"n": 0, "unverified": []}
    for tree in trees(p):
        f = G.tight_rec(tree)
        n += check_simulation(p, tree, f, "f = the privacy profile")
        w = p.rng.choice([F(1), F(3), F(50)])
        n += check_simulation(p, tree, T.feps(w, T.delta_for(f, w)), "f = f_{eps,delta}")
        if p.counterexamples:
            return
        library_simulator(p, tree, f, w, T.delta_for(f, w), lib)
    p.instances("random and extreme finite interactive mechanisms (query-first and answer-first, up to 2 rounds), every "
                "deterministic adversary, f = profile and f = f_{eps,delta}: T(N(x), N(x')) >= f and P(N) reproduces M",
                n, "exhaustive")
    crosschecked(p, "exactdp find_simulator(M, e^eps, delta) on the same mechanisms at the least delta (the "
                 "f = f_{eps,delta} case above): 'verified', and its T post-processing RR_(eps,delta) gives every deterministic adversary's view of M on x and x' "
                 "(the independent views); verify_simulation agrees with that independent judgement at e^eps and at "
                 "2 e^eps; at half the least delta (delta > 0) it is 'infeasible' (T(M) is not above f_{eps,delta/2})",
                 lib["n"])
    if lib["unverified"]:
        p.note(f"Library issue open: exactdp find_simulator made no claim ('unverified') on {len(lib['unverified'])} "
               f"of the compared instances, first {lib['unverified'][0]} (not compared).")
    crosschecked(p, "exactdp's Section 6 trial (run_trial, 2-round 1-bit mechanisms, p_ij read as conditional "
                 "probabilities): its e^eps* is the exact least e^eps with T(M) >= f_{eps,delta} (the mechanism's "
                 "trade-off function by the independent recursion), its RR simulation is verified exactly as the "
                 "independent Blackwell kernel from RR_(eps*,delta) exists, and it is infeasible just below",
                 _run_trials(p, 2 if p.full else 1))


@statement(
    "Theorem 1.5 (proof: (eps, delta)-RR suffices)",
    "In the case of (eps, delta)-DP one can take N to be the (eps, delta)-randomized response.",
)
def rr_suffices(p: Proof) -> None:
    n = 0
    for j, tree in enumerate(trees(p)):
        f = G.tight_rec(tree)
        for w in ((F(2), F(1000)) if p.full else (F(2) if j % 2 else F(1000),)):
            d = T.delta_for(f, w)
            rr = [pq for pq in T.rr_pair(w, d) if pq[0] or pq[1]]
            pairs, sim = G.build(tree, T.feps(w, d))
            K = _lp.blackwell_kernel(rr, pairs)
            n += 1
            if not p.require(K is not None, "(Y, Y') is a post-processing of (eps, delta)-RR", f"tree={tree} w={w}"):
                return
            if tree[0] == "Q":
                n += 1
                if not p.require(sorted(pairs) == sorted(rr), "for a query-first M the construction's N is RR itself",
                                 f"tree={tree} w={w}: {pairs}"):
                    return
    p.instances("the constructed N for f = f_{eps,delta} is a post-processing of (eps, delta)-RR (Blackwell kernel, exact "
                "LP, verified), and is RR itself (up to relabelling) when the adversary speaks first", n)


def _least_w(f, delta):
    """The least w >= 1 with f >= f_{ln w, delta} (None: none): every breakpoint (a, b) needs 1 - b - w a <= delta
    and 1 - a - w b <= delta."""
    w = F(1)
    for a, b in f:
        for u, v in ((a, b), (b, a)):
            if 1 - v - delta > 0:
                if u == 0:
                    return None
                w = max(w, (1 - v - delta) / u)
    return w


def _run_trials(p: Proof, count: int) -> int:
    from exactdp.experiments.vw_section6 import BELOW, run_trial

    n = 0
    for index in range(count):
        delta = (F(1, 10), F(0))[index % 2]
        r = p.library("exactdp run_trial", run_trial, 2, index, delta, 12)
        if r is FAILED:
            continue
        pr = [F(x) for x in r["params"]]

        def second(a0):
            """After a0: the query j, then a1 with Pr[a1 = 0 | a0, j] = p_{a0 j} (x) and p'_{a0 j} (x')."""
            out = []
            for j in (0, 1):
                z0, z1 = pr[1 + 2 * a0 + j], pr[6 + 2 * a0 + j]
                out.append((f"q{j}", ("A", (("b0", z0, z1, G.E), ("b1", 1 - z0, 1 - z1, G.E)))))
            return ("Q", tuple(out))

        tree = ("A", (("a0", pr[0], pr[5], second(0)), ("a1", 1 - pr[0], 1 - pr[5], second(1))))
        f = G.tight_rec(tree)
        w = _least_w(f, delta)
        inst = f"run_trial(2, {index}, {delta}, 12), p={r['params']}"
        p.agree(F(r["exp_eps"]) if r.get("exp_eps") is not None else None, w, "exactdp run_trial (exp_eps)", inst)
        if w is not None and w > 1:
            rr = [pq for pq in T.rr_pair(w, delta) if pq[0] or pq[1]]
            pairs, _ = G.build(tree, T.feps(w, delta))
            p.agree(r["verified_exact"], _lp.blackwell_kernel(rr, pairs) is not None, "exactdp run_trial (verified_exact)",
                    inst)
            if r.get("below_tested"):
                below = 1 + (w - 1) * (1 - BELOW)
                p.agree(r["below_infeasible_exact"], not T.le(T.feps(below, delta), f),
                        "exactdp run_trial (below_infeasible_exact)", inst)
        n += 1
    return n


def library_simulator(p: Proof, tree, f, w, d, lib) -> None:
    """exactdp find_simulator and verify_simulation on ``tree`` at (w, d) (and infeasibility at d / 2), judged by the
    independent views (:func:`._library.simulates`) and the independent trade-off function ``f``."""
    from exactdp.interactive import find_simulator, verify_simulation

    from ._library import simulates, to_lib

    lm = p.library("exactdp InteractiveMechanism", to_lib, tree)
    if lm is FAILED or d >= 1:
        return
    inst = f"tree={tree} w={w} delta={d}"
    for dd, exists in ((d, True),) + (((d / 2, T.le(T.feps(w, d / 2), f)),) if d > 0 else ()):
        r = p.library("exactdp find_simulator", find_simulator, lm, w, dd)
        if r is FAILED:
            continue
        lib["n"] += 1
        if r.status == "unverified":
            lib["unverified"].append(f"{inst} (delta {dd})")
            continue
        if not p.agree(r.status, "verified" if exists else "infeasible", "exactdp find_simulator (status)",
                       f"{inst} (delta {dd})") or not exists:
            continue
        p.agree(simulates(r.T, tree, w, dd), True, "exactdp find_simulator (its T: the independent views)", inst)
        for ww in (w, 2 * w):
            p.agree(p.library("exactdp verify_simulation", verify_simulation, lm, r.T, ww, dd), simulates(r.T, tree, ww, dd),
                    "exactdp verify_simulation (against the independent views)", f"{inst} at w={ww}")
