"""The randomized-response simulator: an interactive mechanism written as an interactive
post-processing ``T`` of randomized response (Vadhan-Wang Theorems 1.5/5.2, Vadhan-Zhang
Theorem 1.5), constructed exactly or found by linear programming and verified exactly.

``T`` is a game tree of the same shape as ``M`` whose inputs are the outputs of RR:
``0, 1`` for RR_eps (pure DP), ``0, 1, Iam0, Iam1`` for RR_(eps, delta). The simulation
is correct when, for every adversary and ``b in {0, 1}``,
``View(A, M(x_b)) == View(A, T(RR(b)))``. For a deterministic adversary the view's
probability is a product along its path, so this holds for every adversary exactly when,
for every history ``h`` of the tree,

    sum_c Pr[RR(b) = c] * T_c(h) = M_b(h)            (b = 0, 1),

where ``T_c(h)``, ``M_b(h)`` are the probabilities of the answers of ``h`` given its
queries. :func:`verify_simulation` checks this identity on every history in exact
rationals and, optionally, compares the view distributions of every deterministic
adversary one by one.

* :func:`rr_simulator`: Vadhan-Wang's construction for pure DP (their eqs. (6)-(9)):
  ``T_0(h) = (t M_0(h) - M_1(h)) / (t - 1)``, ``T_1(h) = (t M_1(h) - M_0(h)) / (t - 1)``
  with ``t = e^eps``, as conditional probabilities along the tree. At ``t = 1`` (eps = 0)
  the formula is 0/0; then ``M_0 = M_1`` and ``T_0 = T_1 = M`` (the correction used here).
* :func:`find_simulator`: for (eps, delta)-DP, the linear programme of Vadhan-Wang
  Section 6 generalised to any tree in sequence form (one unknown ``T_c(h)`` per history;
  ``sum_a T_c(h q a) = T_c(h)`` for every query ``q``), searched by HiGHS and accepted
  only after the exact checks of :mod:`.lp` and :func:`verify_simulation`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Optional

from ..errors import CostTooHigh, InvalidArgument
from ..links import implements
from ..numbers import parse_delta, parse_exp_eps
from .adversary import adversaries
from .lp import LPOutcome, exact_feasibility
from .privacy import privacy_loss
from .tree import MAX_NODES, Branch, InteractiveMechanism, Node

__all__ = ["rr_weights", "rr_simulator", "verify_simulation", "find_simulator", "SimulationResult", "MAX_LP_HISTORIES"]

#: Most histories of the expanded tree for which the LP is built (4 unknowns per history).
MAX_LP_HISTORIES = 20_000


def rr_weights(exp_eps: object, delta: object = 0) -> tuple[tuple[str, ...], list[list[Fraction]]]:
    """The inputs of ``T`` and ``Pr[RR_(eps,delta)(b) = c]`` for ``b = 0, 1`` (Vadhan-Wang Definition 10).

    Guarantee: exact. Raises: InvalidArgument (exp_eps < 1, delta outside [0, 1)).

    Examples:
        >>> rr_weights(3)
        (('0', '1'), [[Fraction(3, 4), Fraction(1, 4)], [Fraction(1, 4), Fraction(3, 4)]])
    """
    t, d = parse_exp_eps(exp_eps), parse_delta(delta)
    hi, lo = (1 - d) * t / (1 + t), (1 - d) / (1 + t)
    if d == 0:
        return ("0", "1"), [[hi, lo], [lo, hi]]
    return ("0", "1", "Iam0", "Iam1"), [[hi, lo, d, Fraction(0)], [lo, hi, Fraction(0), d]]


def _check_shape(mech: InteractiveMechanism, T: InteractiveMechanism) -> None:
    def walk(a: Node, b: Node, where: str) -> None:
        qa, qb = [q for q, _ in a.queries], [q for q, _ in b.queries]
        if qa != qb:
            raise InvalidArgument("T", f"a tree of the mechanism's shape (queries {qa} at {where})", qb)
        for (q, ans_a), (_, ans_b) in zip(a.queries, b.queries):
            la, lb = [x for x, _ in ans_a], [x for x, _ in ans_b]
            if la != lb:
                raise InvalidArgument("T", f"a tree of the mechanism's shape (answers {la} at {where}/{q})", lb)
            for (x, ba), (_, bb) in zip(ans_a, ans_b):
                na, nb = ba.next or _HALT, bb.next or _HALT
                walk(na, nb, f"{where}/{q}={x}")

    walk(mech.root, T.root, "")


_HALT = Node()


def _zip(mech: InteractiveMechanism, T: InteractiveMechanism) -> InteractiveMechanism:
    """One tree with inputs ``(x, x', T's inputs...)``: the mechanism and T side by side."""

    def z(a: Node, b: Node) -> Node:
        return Node({q: {x: Branch(ba.probs + bb.probs, None if ba.next is None else z(ba.next, bb.next or _HALT))
                         for (x, ba), (_, bb) in zip(ans_a, ans_b)}
                     for (q, ans_a), (_, ans_b) in zip(a.queries, b.queries)})

    return InteractiveMechanism(z(mech.root, T.root), inputs=tuple(mech.inputs) + tuple(f"T[{c}]" for c in T.inputs))


@implements("Vadhan-Wang Theorem 5.2", "Vadhan-Wang Theorem 1.5", "Vadhan-Zhang Theorem 1.5")
def verify_simulation(mech: InteractiveMechanism, T: InteractiveMechanism, exp_eps: object, delta: object = 0, *,
                      every_adversary: bool = False) -> bool:
    """Does ``T`` post-processing RR_(eps, delta) simulate ``mech`` exactly, for every adversary?

    Checks ``sum_c Pr[RR(b) = c] T_c(h) = M_b(h)`` on every history ``h`` (module docstring: this
    is equivalent to equal views for every deterministic, hence every, adversary); with
    ``every_adversary`` also compares the view distributions of each deterministic adversary.

    Guarantee: exact decision.

    Raises:
        InvalidArgument: T not of the mechanism's shape or with the wrong inputs.
        CostTooHigh: ``every_adversary`` with too many adversaries.

    Examples:
        >>> from exactdp.interactive.tree import randomized_response
        >>> m = randomized_response(3)
        >>> verify_simulation(m, rr_simulator(m), 3), verify_simulation(m, rr_simulator(m), 2)
        (True, False)
    """
    inputs, w = rr_weights(exp_eps, delta)
    if tuple(T.inputs) != inputs or len(mech.inputs) != 2:
        raise InvalidArgument("T", f"a simulator with inputs {list(inputs)} (and a two-input mechanism)", list(T.inputs))
    _check_shape(mech, T)
    z = _zip(mech, T)
    n = len(inputs)

    def ok(pr) -> bool:
        return all(sum((w[b][c] * pr[2 + c] for c in range(n)), Fraction(0)) == pr[b] for b in (0, 1))

    if not all(ok(pr) for _, pr, _ in z.histories()):
        return False
    if every_adversary:
        for adv in adversaries(z):
            if not all(ok(pr) for _, pr in adv.views):
                return False
    return True


@implements("Vadhan-Wang Theorem 5.2", "Vadhan-Wang Theorem 1.5")
def rr_simulator(mech: InteractiveMechanism, exp_eps: object = None) -> InteractiveMechanism:
    """Vadhan-Wang's interactive post-processing ``T`` of RR_eps for a pure-DP interactive mechanism
    (module docstring), built exactly.

    Guarantee: exact (``verify_simulation(mech, T, exp_eps)`` holds; the tests check it).

    Parameters:
        mech: a two-input interactive mechanism that is (eps, 0)-DP.
        exp_eps: ``e^eps`` (rational >= 1); default ``e^{PrivLoss(mech, 0)}``.

    Raises:
        InvalidArgument: the mechanism is not (eps, 0)-DP at ``exp_eps`` (then some ``T``
            probability would be negative), or not pure DP at all.
        CostTooHigh: the expanded tree has more than :data:`~exactdp.interactive.tree.MAX_NODES` histories.

    Examples:
        >>> from exactdp.interactive.tree import two_round_bits
        >>> m = two_round_bits(["1/2", "1/3", "1/2", "1/2", "1/2", "1/2", "1/2", "1/2", "1/2", "1/2"])
        >>> T = rr_simulator(m)          # e^eps = 3/2: the view (0, 0) after q1 = 0 has 1/6 vs 1/4
        >>> [(a, [str(p) for p in b.probs]) for a, b in T.root.answers("*")]
        [('0', ['1/2', '1/2']), ('1', ['1/2', '1/2'])]
        >>> verify_simulation(m, T, "3/2", every_adversary=True), verify_simulation(m, T, "4/3")
        (True, False)
    """
    if not isinstance(mech, InteractiveMechanism) or len(mech.inputs) != 2:
        raise InvalidArgument("mechanism", "a two-input InteractiveMechanism", mech)
    pl = privacy_loss(mech, 0)
    if pl.exp_exact is None:
        raise InvalidArgument("mechanism", "a pure-DP mechanism (finite PrivLoss at delta = 0)", "infinite eps")
    t = pl.exp_exact if exp_eps is None else parse_exp_eps(exp_eps)
    if t < pl.exp_exact:
        raise InvalidArgument("exp_eps", f"at least e^PrivLoss(M, 0) = {pl.exp_exact} (the mechanism is not "
                              "(eps, 0)-DP below it)", exp_eps)
    h = mech.size()["histories"]
    if h > MAX_NODES:
        raise CostTooHigh("mechanism", f"the simulator's tree would have {h} histories (limit {MAX_NODES})",
                          estimate=h, limit=MAX_NODES, alternative="a smaller mechanism")

    def build(node: Node, m0: Fraction, m1: Fraction, p0: Fraction, p1: Fraction) -> Node:
        # m0, m1: M's path probabilities; p0, p1: T_0's, T_1's (both > 0 or the branch is unreachable)
        queries = {}
        for q, answers in node.queries:
            ans = {}
            for a, b in answers:
                n0, n1 = m0 * b.probs[0], m1 * b.probs[1]
                if t == 1:
                    c0 = c1 = b.probs[0]
                    u0 = u1 = n0
                else:
                    u0, u1 = (t * n0 - n1) / (t - 1), (t * n1 - n0) / (t - 1)
                    c0 = u0 / p0 if p0 else b.probs[0]  # unreachable prefix: any distribution
                    c1 = u1 / p1 if p1 else b.probs[0]
                nxt = None if b.next is None else build(b.next, n0, n1, u0 if p0 else Fraction(0), u1 if p1 else Fraction(0))
                ans[a] = Branch((c0, c1), nxt)
            queries[q] = ans
        return Node(queries)

    root = build(mech.root, Fraction(1), Fraction(1), Fraction(1), Fraction(1))
    return InteractiveMechanism(root, inputs=("0", "1"), name=f"T for {mech.name or 'M'} (RR, e^eps = {t})")


@dataclass(frozen=True, kw_only=True)
class SimulationResult:
    """``status``: ``"verified"`` (``T`` found and checked exactly), ``"infeasible"`` (an exact
    Farkas certificate proves that no ``T`` exists), or ``"unverified"`` (the float LP's answer
    failed its exact check: no claim is made). ``lp`` is the LP outcome."""

    status: str
    T: Optional[InteractiveMechanism]
    lp: LPOutcome
    variables: int
    constraints: int


@implements("Vadhan-Zhang Theorem 1.5", "Vadhan-Wang Theorem 5.1")
def find_simulator(mech: InteractiveMechanism, exp_eps: object, delta: object = 0) -> SimulationResult:
    """Find an interactive post-processing ``T`` of RR_(eps, delta) simulating ``mech``, by linear
    programming (module docstring), and verify it exactly; or prove that none exists.

    Guarantee: ``"verified"``: ``verify_simulation(mech, T, exp_eps, delta)`` holds exactly;
    ``"infeasible"``: an exactly checked Farkas certificate; else ``"unverified"``.

    Raises:
        InvalidArgument: bad arguments; highspy not installed.
        CostTooHigh: more than :data:`MAX_LP_HISTORIES` histories.

    Examples:
        >>> from exactdp.interactive.tree import randomized_response
        >>> m = randomized_response(3, "1/10")
        >>> find_simulator(m, 3, "1/10").status, find_simulator(m, 2, "1/10").status
        ('verified', 'infeasible')
    """
    if not isinstance(mech, InteractiveMechanism) or len(mech.inputs) != 2:
        raise InvalidArgument("mechanism", "a two-input InteractiveMechanism", mech)
    inputs, w = rr_weights(exp_eps, delta)
    nh = mech.size()["histories"]
    if nh > MAX_LP_HISTORIES:
        raise CostTooHigh("mechanism", f"the simulator LP would have {nh * len(inputs)} unknowns "
                          f"({nh} histories, limit {MAX_LP_HISTORIES})", estimate=nh, limit=MAX_LP_HISTORIES,
                          alternative="a smaller mechanism")
    # index the histories; hist[i] = (parent index or -1, probs of M along the path)
    parent: list[int] = []
    mprob: list[tuple[Fraction, Fraction]] = []
    groups: list[tuple[int, list[int]]] = []  # (parent history, children of one query)
    stack = [(mech.root, -1, (Fraction(1), Fraction(1)))]
    while stack:
        node, par, pr = stack.pop()
        for _, answers in node.queries:
            kids = []
            for _, b in answers:
                i = len(parent)
                parent.append(par)
                p = (pr[0] * b.probs[0], pr[1] * b.probs[1])
                mprob.append(p)
                kids.append(i)
                if b.next is not None:
                    stack.append((b.next, i, p))
            groups.append((par, kids))
    H, C = len(parent), len(inputs)
    A: list[dict] = []
    rhs: list[Fraction] = []
    for c in range(C):
        for par, kids in groups:
            row = {c * H + k: Fraction(1) for k in kids}
            if par >= 0:
                row[c * H + par] = Fraction(-1)
            A.append(row)
            rhs.append(Fraction(0) if par >= 0 else Fraction(1))
    for i in range(H):
        for bb in (0, 1):
            A.append({c * H + i: w[bb][c] for c in range(C) if w[bb][c]})
            rhs.append(mprob[i][bb])
    out = exact_feasibility(A, rhs, C * H)
    if out.status != "feasible":
        return SimulationResult(status=out.status, T=None, lp=out, variables=C * H, constraints=len(A))
    x = out.x
    assert x is not None
    T_root = _rebuild(mech, x, H, C)  # T's conditionals, in the LP's traversal order
    T = InteractiveMechanism(T_root, inputs=inputs, name=f"T for {mech.name or 'M'} (LP)")
    ok = verify_simulation(mech, T, exp_eps, delta)
    return SimulationResult(status="verified" if ok else "unverified", T=T if ok else None, lp=out, variables=C * H, constraints=len(A))


def _rebuild(mech: InteractiveMechanism, x: list[Fraction], H: int, C: int) -> Node:
    """T's tree from the LP's path weights, in the traversal order of :func:`find_simulator`."""
    index: dict[tuple[int, int, int], int] = {}  # (id of node occurrence, query no, answer no) -> history
    occ: list = []
    stack = [(mech.root, -1)]
    k = 0
    while stack:
        node, par = stack.pop()
        occ.append((node, par))
        for qi, (_, answers) in enumerate(node.queries):
            for ai, (_, b) in enumerate(answers):
                index[(len(occ) - 1, qi, ai)] = k
                if b.next is not None:
                    stack.append((b.next, k))
                k += 1
    children: dict[int, int] = {}  # history index -> occurrence index of the node below it
    for o, (node, par) in enumerate(occ):
        if par >= 0:
            children[par] = o

    def build(o: int, prefix: list[Fraction]) -> Node:
        node, _ = occ[o]
        queries = {}
        for qi, (q, answers) in enumerate(node.queries):
            ans = {}
            for ai, (a, b) in enumerate(answers):
                i = index[(o, qi, ai)]
                here = [x[c * H + i] for c in range(C)]
                cond = [here[c] / prefix[c] if prefix[c] else b.probs[0] for c in range(C)]
                nxt = build(children[i], here) if i in children else None
                ans[a] = Branch(cond, nxt)
            queries[q] = ans
        return Node(queries)

    return build(0, [Fraction(1)] * C)
