"""Concurrent composition of finite interactive mechanisms (Vadhan-Wang Definition 6,
Vadhan-Zhang Definition 1.5), and its exact privacy against every interleaving adversary.

:func:`concurrent` builds ``ConComp(M_0, ..., M_{k-1})`` as one game tree: at each point
the adversary picks a mechanism ``j`` that has not halted and one of its queries ``q``
(the query label ``"j:q"``); mechanism ``j`` answers from its own state. The state of
the composition is the tuple of the components' nodes, so the tree is a DAG with at
most ``prod_i (nodes of M_i)`` nodes even though the number of interleavings grows
factorially; every algorithm of :mod:`.privacy` runs on it unchanged (the dynamic
programme optimises over every interleaving adversary).

:func:`compare_concurrent` sets the exact privacy of the concurrent composition beside
the non-interactive guarantees it must satisfy:

* ``tensor``: the composition of the components' own exact trade-off functions
  (Vadhan-Zhang Theorem 1.4: the concurrent composition is at least as private);
* ``optcomp``: the optimal composition of the components' (eps_i, delta_i) with
  ``eps_i = PrivLoss(M_i, delta_i)`` (Vadhan-Zhang Theorem 1.3 with Murtagh-Vadhan
  Theorem 1.5);
* ``vw``: Vadhan-Wang Theorem 4.1's bound in the best order, at ``eps_g = sum eps_i``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Optional, Sequence

from ..errors import CostTooHigh, InvalidArgument
from ..fdp import TradeOff, tensor
from ..links import implements
from ..numbers import fraction_str, parse_delta, parse_exp_eps
from .privacy import mechanism_tradeoff, privacy_loss
from .tree import MAX_NODES, Branch, InteractiveMechanism, Node

__all__ = ["concurrent", "compare_concurrent", "ConcurrentComparison", "MAX_CONCURRENT_STATES"]

#: Largest product of the components' node counts built by :func:`concurrent`.
MAX_CONCURRENT_STATES = 200_000


@implements("Vadhan-Wang Definition 6", "Vadhan-Zhang Definition 1.5")
def concurrent(*mechanisms: InteractiveMechanism) -> InteractiveMechanism:
    """``ConComp(M_0, ..., M_{k-1})`` as one interactive mechanism (a DAG; module docstring).

    Guarantee: exact (the composed mechanism's answer distributions are the components',
    independent across components, under each input).

    Raises:
        InvalidArgument: no mechanism, or mechanisms on different numbers of inputs.
        CostTooHigh: more than :data:`MAX_CONCURRENT_STATES` composed states (the estimate is the
            product of the node counts).

    Examples:
        >>> from exactdp.interactive.tree import randomized_response
        >>> cc = concurrent(randomized_response(2), randomized_response(3))
        >>> [q for q, _ in cc.root.queries]
        ['0:*', '1:*']
    """
    ms = list(mechanisms)
    if not ms or not all(isinstance(m, InteractiveMechanism) for m in ms):
        raise InvalidArgument("mechanisms", "one or more InteractiveMechanism", ms[:3])
    n = len(ms[0].inputs)
    if any(len(m.inputs) != n for m in ms):
        raise InvalidArgument("mechanisms", "mechanisms on the same number of inputs", [len(m.inputs) for m in ms])
    est = 1
    for m in ms:
        est *= m.size()["nodes"] + 1
    if est > MAX_CONCURRENT_STATES or est > MAX_NODES:
        raise CostTooHigh("mechanisms", f"the concurrent composition would have up to {est} states "
                          f"(limit {MAX_CONCURRENT_STATES})", estimate=est, limit=MAX_CONCURRENT_STATES,
                          alternative="fewer or smaller mechanisms")
    memo: dict[tuple, Node] = {}

    def build(state: tuple) -> Node:
        key = tuple(id(s) for s in state)
        got = memo.get(key)
        if got is None:
            queries: dict = {}
            for j, node in enumerate(state):
                for q, answers in node.queries:
                    ans = {}
                    for a, b in answers:
                        nxt = state[:j] + ((b.next if b.next is not None else _HALT),) + state[j + 1:]
                        child = build(nxt)
                        ans[a] = Branch(b.probs, None if child.is_leaf else child)
                    queries[f"{j}:{q}"] = ans
            got = Node(queries)
            memo[key] = got
        return got

    root = build(tuple(m.root for m in ms))
    name = "ConComp(" + ", ".join(m.name or f"M{i}" for i, m in enumerate(ms)) + ")"
    return InteractiveMechanism(root, inputs=ms[0].inputs, name=name)


_HALT = Node()


@dataclass(frozen=True, kw_only=True)
class ConcurrentComparison:
    """Exact deltas at ``e^{eps_g} = exp_eps_g`` (both orders of the pair): the concurrent
    composition against its best interleaving adversary, and the guarantees it must meet.
    ``exp_eps_i`` are the components' ``e^{PrivLoss(M_i, delta_i)}`` (None: infinite)."""

    exp_eps_g: Fraction
    exp_eps_i: list[Optional[Fraction]]
    deltas_i: list[Fraction]
    concurrent: Fraction
    tensor: Fraction
    optcomp: Optional[Fraction]
    vw: Optional[Fraction]
    tradeoff: TradeOff

    @property
    def holds(self) -> bool:
        """``concurrent <= tensor <= optcomp <= vw`` (where defined): Vadhan-Zhang Theorems 1.4
        and 1.3 and Vadhan-Wang Theorem 4.1 on this instance. Guarantee: exact decision."""
        chain = [self.concurrent, self.tensor] + [x for x in (self.optcomp, self.vw) if x is not None]
        return all(a <= b for a, b in zip(chain, chain[1:]))

    def to_dict(self) -> dict:
        """JSON-ready, exact rational strings. Guarantee: exact. Raises: nothing."""
        s = lambda x: None if x is None else fraction_str(x)  # noqa: E731
        return {"exp_eps_g": s(self.exp_eps_g), "exp_eps_i": [s(x) for x in self.exp_eps_i],
                "delta_i": [s(x) for x in self.deltas_i], "concurrent": s(self.concurrent), "tensor": s(self.tensor),
                "optcomp": s(self.optcomp), "vw_best_order": s(self.vw), "holds": self.holds}


def _sym_delta(f: TradeOff, t: Fraction) -> Fraction:
    return max(f.delta(exp_eps=t).exact, f.inverse().delta(exp_eps=t).exact)


@implements("Vadhan-Zhang Theorem 1.3", "Vadhan-Zhang Theorem 1.4", "Vadhan-Wang Theorem 4.1")
def compare_concurrent(mechanisms: Sequence[InteractiveMechanism], deltas: Optional[Sequence[object]] = None, *,
                       exp_eps_g: object = None, method: str = "dp") -> ConcurrentComparison:
    """The exact delta of ``ConComp(M_0, ..., M_{k-1})`` at ``e^{eps_g}`` beside the non-interactive
    guarantees (module docstring), all exact.

    Parameters:
        mechanisms: two-input interactive mechanisms.
        deltas: ``delta_i`` at which each component's ``eps_i = PrivLoss(M_i, delta_i)`` is taken
            (default all 0, pure DP).
        exp_eps_g: ``e^{eps_g}`` (rational >= 1; default ``prod e^{eps_i}``, Theorem 4.1's eps_g).
        method: ``"dp"`` or ``"enumerate"`` (every interleaving adversary; small instances only).

    Guarantee: exact.

    Raises:
        InvalidArgument: bad deltas or exp_eps_g. CostTooHigh: as :func:`concurrent` and enumeration.

    Examples:
        >>> from exactdp.interactive.tree import randomized_response
        >>> c = compare_concurrent([randomized_response(2), randomized_response(3)])
        >>> c.exp_eps_g, c.concurrent, c.tensor, c.optcomp, c.vw, c.holds
        (Fraction(6, 1), Fraction(0, 1), Fraction(0, 1), Fraction(0, 1), Fraction(0, 1), True)
        >>> compare_concurrent([randomized_response(2), randomized_response(3)], exp_eps_g=2).concurrent
        Fraction(1, 3)
    """
    from ..engines import composed_delta
    from ..events import Mechanism
    from .vw import vw_best_order, vw_delta

    ms = list(mechanisms)
    ds = [Fraction(0)] * len(ms) if deltas is None else [parse_delta(d, f"deltas[{i}]") for i, d in enumerate(deltas)]
    if len(ds) != len(ms):
        raise InvalidArgument("deltas", f"one delta per mechanism ({len(ms)})", len(ds))
    ts = [privacy_loss(m, d, method="dp").exp_exact for m, d in zip(ms, ds)]
    if exp_eps_g is None:
        if any(t is None for t in ts):
            raise InvalidArgument("exp_eps_g", "given when a component has infinite PrivLoss at its delta", None)
        tg = Fraction(1)
        for t in ts:
            tg *= t  # type: ignore[operator]
    else:
        tg = parse_exp_eps(exp_eps_g, "exp_eps_g")
    f_cc = mechanism_tradeoff(concurrent(*ms), method=method)
    f_t = tensor(*(mechanism_tradeoff(m) for m in ms))
    optc = vw = None
    if all(t is not None for t in ts):
        mm = [Mechanism(exp_eps=t, delta=d) for t, d in zip(ts, ds)]
        optc = composed_delta(mm, exp_eps_g=tg, engine="exact").exact
        prod_t = Fraction(1)
        for t in ts:
            prod_t *= t  # type: ignore[operator]
        if tg == prod_t:
            vw = vw_delta(mm, vw_best_order(mm)).exact
    return ConcurrentComparison(exp_eps_g=tg, exp_eps_i=ts, deltas_i=ds, concurrent=_sym_delta(f_cc, tg), tensor=_sym_delta(f_t, tg), optcomp=optc, vw=vw, tradeoff=f_cc)
