"""Vadhan-Wang Theorem 3.1 (basic composition of pure interactive DP) and the steps of its proof.

Printed: if interactive M_0..M_{k-1} are each (eps_i, 0)-DP, their concurrent composition is
(sum eps_i, 0)-DP.

Checked exactly on random pure-DP mechanisms (k = 2, 3; e^eps_i their least pure parameters):
ConComp's least delta at e^{sum eps_i} over every deterministic interleaving adversary is 0, both
directions (and sum eps_i is attained: the least pure parameter of ConComp equals prod e^eps_i,
recorded). Steps: the combined adversary A*_{M~}(x) with Post, and the hybrid chain.
"""

from __future__ import annotations

from fractions import Fraction as F

from .._crosscheck import FAILED, crosschecked
from .._framework import Proof, statement
from . import _dp as D
from . import _instances as G
from . import _interactive as I


@statement(
    "Theorem 3.1",
    "If interactive M_0..M_{k-1} are each (eps_i, 0)-DP, then ConComp(M_0..M_{k-1}) is (sum eps_i, 0)-DP.",
    library=("exactdp.interactive.concurrent", "exactdp.interactive.delta_of"),
)
def theorem(p: Proof) -> None:
    from exactdp.interactive import concurrent, delta_of

    from ._library import to_lib

    n = tight = n_lib = 0
    for _ in range(40 if p.full else 10):
        k = p.rng.choice([2, 2, 3])
        ms = [G.pure_mech(p.rng, s) for s in G.shapes_for_k(p.rng, k)]
        mechs, ws = [x[0] for x in ms], [x[1] for x in ms]
        t = D.prod(ws)
        n += 1
        if not p.require(I.cc_delta(mechs, t) == 0, "ConComp is (sum eps_i, 0)-DP", f"{mechs} e^eps_i={ws}"):
            return
        below = I.cc_delta(mechs, t * F(999, 1000))
        tight += below > 0
        if p.full or n % 2:
            cc = p.library("exactdp concurrent", lambda: concurrent(*[to_lib(m) for m in mechs]))
            if cc is not FAILED:
                for tt, want in ((t, F(0)), (t * F(999, 1000), below)):
                    n_lib += p.agree(p.library("exactdp delta_of(concurrent)", delta_of, cc, exp_eps=tt), want,
                                     "exactdp delta_of(concurrent(...))", f"{mechs} e^eps_i={ws} e^eps_g={tt}")
    p.instances("random pure-DP mechanisms (k = 2, 3): least delta of ConComp at prod e^eps_i is 0 over every "
                "interleaving adversary, both directions", n)
    crosschecked(p, "exactdp delta_of(concurrent(M_0, ..., M_{k-1})) at prod e^eps_i (0) and at 0.999 prod e^eps_i "
                 "equals the independent exact least delta of the interleaving game (every other instance; all with "
                 "--full)", n_lib)
    p.note(f"sum eps_i is attained (delta > 0 at 0.999 prod e^eps_i) in {tight} of {n} instances.")


def combined_adversary(A, Mt, x, rA, rMt):
    """A*_{M~}(x) of the proof: given M's answers a_0..a_{i-1}, returns q_i (simulating M~ internally)."""

    def Astar(a: tuple):
        hist, qt = (), ()
        for i in range(len(a)):
            qt += (A(hist + (a[i],), rA),)  # (a) q~_{i} = A(a_0, a~_0, ..., a_i)
            at = Mt(x, qt, rMt)  # (b) a~_i = M~(x, q~_0..q~_i; r_M~)
            hist += (a[i], at)
        return A(hist, rA)  # (c) q_i = A(a_0, a~_0, ..., a_{i-1}, a~_{i-1})

    return Astar


def post(A, Mt, x, rA, rMt, a: tuple) -> tuple:
    """Post(r_A, r_M~, a_0..a_{T-1}): recompute the a~_i and interleave."""
    hist, qt = (), ()
    for i in range(len(a)):
        qt += (A(hist + (a[i],), rA),)
        hist += (a[i], Mt(x, qt, rMt))
    return hist


@statement(
    "Theorem 3.1 (proof: the combined adversary A*_{M~}(x) and Post)",
    "A and M~(x) form one adversary A*_{M~}(x) with coins (r_A, r_M~) against M(x); for every (x, r_A, r_M, r_M~), "
    "Post(View<A*_{M~}(x; r_A, r_M~), M(x; r_M)>) = View<A(r_A), ConComp(M(x; r_M), M~(x; r_M~))>.",
)
def combined(p: Proof) -> None:
    n = 0
    for _ in range(6 if p.full else 3):
        R = p.rng.randint(1, 2)
        m, mt = (I.random_mech(p.rng, R, 2, 2, exact_den=True, den=p.rng.choice([2, 3])) for _ in range(2))
        f, ft = I.coin_fn(m), I.coin_fn(mt)
        # a randomized adversary alternating M, M~ (queries to M at even positions): table per coin and history
        table = {}

        def A(hist: tuple, rA: int):
            if (rA, hist) not in table:
                table[(rA, hist)] = p.rng.randint(0, 1)
            return table[(rA, hist)]

        for x in (0, 1):
            for rA in (0, 1):
                for rM in I.coin_space(m):
                    for rMt in I.coin_space(mt):
                        # direct: A alternating with ConComp(M, M~)
                        hist, qs, qts = (), (), ()
                        for i in range(R):
                            qs += (A(hist, rA),)
                            a = f(x, qs, rM)
                            qts += (A(hist + (a,), rA),)
                            hist += (a, ft(x, qts, rMt))
                        # combined adversary against M alone, then Post
                        Astar = combined_adversary(A, ft, x, rA, rMt)
                        a_s, qs2 = (), ()
                        for i in range(R):
                            qs2 += (Astar(a_s),)
                            a_s += (f(x, qs2, rM),)
                        n += 1
                        if not p.require(post(A, ft, x, rA, rMt, a_s) == hist,
                                         "Post(View<A*, M(x)>) = View<A, ConComp(M(x), M~(x))>",
                                         f"{m} {mt} x={x} rA={rA} rM={rM} rM~={rMt}"):
                            return
    p.instances("every coin setting (r_A, r_M, r_M~), both inputs: Post of the combined adversary's view = the view "
                "with ConComp (alternating queries)", n, "exhaustive")
    p.note("Index slips in the printed Post (harmless): a~_{i-1} = M~(x, q~_1, ..., q~_{i-1}) omits q~_0, and "
           "'for i = 1..T-1' stops before a~_{T-1}, which the output contains; transcribed with q~_0..q~_{i-1}, i = 1..T.")


@statement(
    "Theorem 3.1 (proof: the hybrid chain, (eps, 0) then (eps~, 0), then Lemma 3)",
    "View<A, ConComp(M(x), M~(x))> ~(eps,0) View<A, ConComp(M(x'), M~(x))> ~(eps~,0) View<A, ConComp(M(x'), M~(x'))>, "
    "hence ~(eps + eps~, 0) by Lemma 3.",
)
def hybrid(p: Proof) -> None:
    n = 0
    for _ in range(10 if p.full else 5):
        (m, w), (mt, wt) = G.pure_mech(p.rng), G.pure_mech(p.rng)
        ms = [m, mt]
        for x, xp in ((0, 1), (1, 0)):
            steps = [((x, x), (xp, x), w), ((xp, x), (xp, xp), wt), ((x, x), (xp, xp), w * wt)]
            for a, b, t in steps:
                for u, v in ((a, b), (b, a)):
                    n += 1
                    if not p.require(I.cc_hockey(ms, u, v, t) == 0, "each hybrid is (eps, 0)-indistinguishable",
                                     f"{ms} worlds {u} vs {v} t={t}"):
                        return
    p.instances("hybrids over every interleaving adversary: (x,x)~(x',x) at e^eps, (x',x)~(x',x') at e^eps~, "
                "(x,x)~(x',x') at e^(eps+eps~), both directions, delta = 0 exactly", n)
