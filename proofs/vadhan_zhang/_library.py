"""The bridge from the independent objects of this paper's checks to exactdp's (issue 12 cross-checks).

Only changes of representation: a pair of finite distributions (a list of ``(p, q)``) as the two
probability vectors exactdp takes; a game tree of :mod:`._games` (``("Q", ...)``, ``("A", ...)``,
``("E",)``) as an :class:`exactdp.interactive.InteractiveMechanism` node by node (labels ``str``;
an answer that is not preceded by a query gets the single query ``"*"``, which leaves every
adversary's view unchanged up to that constant label); and the comparison of a library trade-off
function with an independent one (:func:`.._crosscheck.same_function`). No privacy quantity is
computed here.

Guarantee: exact (Fractions).
"""

from __future__ import annotations

from typing import Sequence, Tuple

from .._crosscheck import FAILED, same_function
from .._framework import Proof
from . import _tradeoff as T


def PQ(pairs: Sequence[Tuple]) -> tuple:
    """``[(p, q), ...]`` as the two vectors ``(P, Q)``."""
    return [p for p, _ in pairs], [q for _, q in pairs]


def same_tf(p: Proof, f_lib, g: T.TF, what: str, instance: str) -> bool:
    """The library trade-off function ``f_lib`` equals the independent breakpoint tuple ``g`` on [0, 1]."""
    return same_function(p, f_lib, lambda a: T.value(g, a), [x for x, _ in g], what, instance)


def to_lib(node, name: str = ""):
    """A game tree of :mod:`._games` as an exactdp InteractiveMechanism on (x, x')."""
    from exactdp.interactive import Branch, InteractiveMechanism, Node

    def answers(a_node):
        return {str(a): Branch([p0, p1], after(child)) for a, p0, p1, child in a_node[1]}

    def after(child):
        if child[0] == "E":
            return None
        return node_of(child)

    def node_of(n):
        if n[0] == "Q":
            qs = {}
            for q, child in n[1]:
                if child[0] != "A":
                    raise ValueError(f"to_lib: a query followed by {child[0]!r}, not an answer")
                qs[str(q)] = answers(child)
            return Node(qs)
        if n[0] == "A":
            return Node({"*": answers(n)})
        raise ValueError(f"to_lib: unexpected node {n[0]!r}")

    return InteractiveMechanism(node_of(node), name=name)


def library_chain_rule(p: Proof, X, conds, target: T.TF, mechanism: bool = False) -> int:
    """exactdp's chain_rule on the law pair ``X`` (list of (p, q)) and the conditional pairs ``conds`` (its f_x are
    exactdp's own tradeoff_of of the conditionals, None off the common support) against the independent
    ``target``; with ``mechanism``, also mechanism_tradeoff of the answer-then-answer tree. Returns 1 or 0."""
    from exactdp.fdp import chain_rule, tradeoff_of
    from exactdp.interactive import mechanism_tradeoff

    inst = f"X={T.fmt_pairs(X)} conds={[T.fmt_pairs(c) for c in conds]}"
    fs = [p.library("exactdp tradeoff_of", tradeoff_of, *PQ(c)) if a and b else None for (a, b), c in zip(X, conds)]
    ok = same_tf(p, p.library("exactdp chain_rule", chain_rule, *PQ(X), fs), target, "exactdp chain_rule", inst)
    if mechanism:
        tree = ("A", tuple((f"x{i}", a, b, ("A", tuple((f"y{j}", c, d, ("E",)) for j, (c, d) in enumerate(Y))))
                           for i, ((a, b), Y) in enumerate(zip(X, conds))))
        lm = p.library("exactdp InteractiveMechanism", to_lib, tree)
        ok = same_tf(p, p.library("exactdp mechanism_tradeoff", mechanism_tradeoff, lm), target,
                     "exactdp mechanism_tradeoff (X, then Y given X)", inst) and ok
    return int(ok)


def _law(pairs) -> tuple:
    return tuple(sorted((a, b) for a, b in pairs if a or b))


def library_views(p: Proof, lm, tree, what: str, instance: str) -> int:
    """exactdp's deterministic adversaries of ``lm`` (their count, and the set of distinct view laws, labels dropped)
    against the independent strategies of the game tree ``tree``. Returns 1 when compared."""
    from exactdp.interactive import adversaries, count_adversaries

    from . import _games as G

    if lm is FAILED:
        return 0
    advs = p.library(f"exactdp adversaries ({what})", lambda: list(adversaries(lm)))
    if advs is FAILED:
        return 0
    # the distinct view laws: after an answer of probability 0 under both inputs the library still enumerates the
    # adversary's choices (duplicate views), the independent all_views does not
    lib = sorted({_law(zip(*a.distributions())) for a in advs})
    ind = sorted({_law(v) for v in G.all_views(tree)})
    p.agree(p.library("exactdp count_adversaries", count_adversaries, lm), G.count_strategies(tree),
            f"exactdp count_adversaries ({what})", instance)
    p.agree(lib, ind, f"exactdp adversaries ({what}: the distinct view laws)", instance)
    return 1


def library_profile(p: Proof, lm, target: T.TF, what: str, instance: str, methods=("dp", "enumerate")) -> int:
    """exactdp's mechanism_tradeoff of ``lm`` by each method against the independent trade-off ``target``."""
    from exactdp.interactive import mechanism_tradeoff

    if lm is FAILED:
        return 0
    n = 0
    for method in methods:
        n += same_tf(p, p.library(f"exactdp mechanism_tradeoff ({method})", mechanism_tradeoff, lm, method=method),
                     target, f"exactdp mechanism_tradeoff ({method}; {what})", instance)
    return n


def library_concurrent(p: Proof, trees, vs, w_g, deltas, instance: str, exp_eps_i=None, optcomp=None) -> int:
    """exactdp compare_concurrent on the game trees ``trees`` at ``e^eps_g = w_g`` against the independent values:
    ``concurrent`` = the worst two-sided hockey-stick over the independent ConComp views ``vs``; ``tensor`` = the
    least delta of the tensor of the mechanisms' own trade-off functions; where given, ``exp_eps_i`` (the
    components' e^PrivLoss) and ``optcomp``. Returns 1 when compared."""
    from exactdp.interactive import compare_concurrent

    from . import _games as G

    lms = [p.library("exactdp InteractiveMechanism", to_lib, t) for t in trees]
    if FAILED in lms:
        return 0
    c = p.library("exactdp compare_concurrent", compare_concurrent, lms, deltas, exp_eps_g=w_g)
    if c is FAILED:
        return 0
    inst = f"{instance} w_g={w_g}"
    worst = max(max(T.hockey(v, w_g), T.hockey(T.swap(v), w_g)) for v in vs)
    p.agree(c.concurrent, worst, "exactdp compare_concurrent (concurrent: the best interleaving adversary)", inst)
    p.agree(c.tensor, T.delta_for(T.tensor(*[G.tight_rec(t) for t in trees]), w_g),
            "exactdp compare_concurrent (tensor of the mechanisms' trade-off functions)", inst)
    if exp_eps_i is not None:
        p.agree(list(c.exp_eps_i), list(exp_eps_i), "exactdp compare_concurrent (exp_eps_i)", inst)
    if optcomp is not None:
        p.agree(c.optcomp, optcomp, "exactdp compare_concurrent (optcomp)", inst)
    return 1


def sim_tree(T_lib, tree, c: int):
    """The library simulator ``T_lib`` (an exactdp tree of ``tree``'s shape, labels ``str``) run on its input number
    ``c``, as a game tree of :mod:`._games` with the same children order as ``tree`` (both columns T_c)."""
    def walk(n, lib_node):
        if n[0] == "E":
            return n
        if n[0] == "Q":
            return ("Q", tuple((q, answer(child, dict(lib_node.queries)[str(q)])) for q, child in n[1]))
        return answer(n, dict(lib_node.queries)["*"])

    def answer(a_node, lib_answers):
        lib_answers = dict(lib_answers)
        out = []
        for a, _, _, child in a_node[1]:
            b = lib_answers[str(a)]
            pc = b.probs[c]
            out.append((a, pc, pc, child if child[0] == "E" else walk(child, b.next)))
        return ("A", tuple(out))

    return walk(tree, T_lib.root)


def simulates(T_lib, tree, w, d) -> bool:
    """The independent judgement of a library simulator: for every deterministic adversary of ``tree`` and b in
    {0, 1}, its view with ``T(RR_(w,d)(b))`` (RR of :func:`._tradeoff.rr_pair`, outputs Iam0, 0, 1, Iam1 in the
    library's input order 0, 1, Iam0, Iam1) equals its view with ``M(x_b)``."""
    from . import _games as G

    iam0, z0, z1, iam1 = T.rr_pair(w, d)
    rr = [z0, z1] if len(T_lib.inputs) == 2 else [z0, z1, iam0, iam1]   # Pr[RR(b) = c] for b = 0, 1
    trees = [sim_tree(T_lib, tree, c) for c in range(len(rr))]
    for s in G.strategies(tree):
        direct = {k: v for k, v in G.view(tree, s).items() if v != (0, 0)}
        sim: dict = {}
        for (r0, r1), tc in zip(rr, trees):
            for k, (u, _) in G.view(tc, s).items():
                a, b = sim.get(k, (0, 0))
                sim[k] = (a + r0 * u, b + r1 * u)
        sim = {k: v for k, v in sim.items() if v != (0, 0)}
        if sim != direct:
            return False
    return True


def renyi_agree(p: Proof, res, s, alpha, what: str, instance: str) -> int:
    """A library RenyiResult ``res`` against the independent ``S_alpha = e^{(alpha - 1) D_alpha}`` ``s`` (a Fraction,
    a :class:`._renyi.Rad` or INF): infinite exactly when ``s`` is; ``exp_exact == s`` for a rational ``s``; for a
    radical sum the enclosure of ``D_alpha`` meets the independent Arb ball of ``log(s) / (alpha - 1)``."""
    from fractions import Fraction as F

    from .._crosscheck import meets_ball
    from . import _renyi as R

    if res is FAILED:
        return 0
    if s == R.INF or res.infinite:
        return int(p.agree(bool(res.infinite), s == R.INF, f"{what} (infinite)", instance))
    if isinstance(s, R.Rad):
        from flint import arb

        a = F(alpha)
        ball = s.ball(256).log() * arb(a.denominator) / arb(a.numerator - a.denominator)
        return int(meets_ball(p, res.value, ball, what, instance))
    return int(p.agree(res.exp_exact, s, f"{what} (exp_exact = S_alpha)", instance))
