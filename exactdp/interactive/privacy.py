"""Exact privacy of a finite interactive mechanism against every adversary.

Two independent algorithms, which the tests require to agree:

* ``method="dp"``: dynamic programming over the tree. The trade-off function against
  the best adversary (the supremum over adversaries, Vadhan-Zhang Lemma 2.4) is
  ``f(halt) = 1 - alpha`` and, at a node, the supremum over queries ``q`` of
  ``ChainRule(answers to q; f(next))`` (Vadhan-Zhang Claim 3.4, and the product
  structure of adversaries used in the proof of their Theorem 4.1, eqs. (18)-(20)).
  Cost: linear in the tree (times the size of the trade-off functions).
* ``method="enumerate"``: every deterministic adversary (Vadhan-Wang Lemma 1), its
  view distributions, and for PrivLoss the exact least ``t = e^eps`` of each view
  pair from its level sets. Cost: the number of adversaries (refused with the count).

``PrivLoss(M, delta) = inf {eps >= 0 : M is (eps, delta)-DP}`` (Vadhan-Wang Section 5)
is, for rational probabilities and delta, the log of a rational ``t*``: it is
returned exactly as ``exp_exact = t*`` with an enclosure of ``ln t*``. Both orders of
the pair (x, x') count, as adjacency is symmetric.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Optional, Sequence

from ..engines.results import EnclosedResult
from ..errors import InvalidArgument
from ..fdp import TradeOff, chain_rule, tradeoff_of, tradeoff_sup
from ..links import implements
from ..numbers import Enclosure, Guarantee, fraction_str, parse_choice, parse_delta, parse_exp_eps
from .adversary import Adversary, adversaries
from .tree import InteractiveMechanism, Node

__all__ = [
    "METHODS",
    "PrivLossResult",
    "mechanism_tradeoff",
    "privacy_loss",
    "delta_of",
    "least_t_pair",
]

METHODS = ("dp", "enumerate")


def _two(mech: InteractiveMechanism) -> InteractiveMechanism:
    if not isinstance(mech, InteractiveMechanism):
        raise InvalidArgument("mechanism", "an InteractiveMechanism", mech)
    if len(mech.inputs) != 2:
        raise InvalidArgument("mechanism", "a mechanism on two inputs (use .pair(i, j))", list(mech.inputs))
    return mech


def _dp_tradeoff(mech: InteractiveMechanism) -> TradeOff:
    memo: dict[int, TradeOff] = {}
    ident = TradeOff.identity()

    def f(node: Node) -> TradeOff:
        got = memo.get(id(node))
        if got is None:
            if node.is_leaf:
                got = ident
            else:
                per_query = []
                for _, answers in node.queries:
                    P = [b.probs[0] for _, b in answers]
                    Q = [b.probs[1] for _, b in answers]
                    fs = [None if (p == 0 or q == 0) else (ident if b.next is None else f(b.next))
                          for p, q, (_, b) in zip(P, Q, answers)]
                    per_query.append(chain_rule(P, Q, fs))
                # one query (a mechanism that speaks first, a single-query node): nothing to take the sup of
                got = per_query[0] if len(per_query) == 1 else tradeoff_sup(per_query)
            memo[id(node)] = got
        return got

    return f(mech.root)


@implements("Vadhan-Zhang Theorem 4.1", "Vadhan-Zhang Claim 3.4")
def mechanism_tradeoff(mech: InteractiveMechanism, *, method: str = "dp", symmetric: bool = False) -> TradeOff:
    """The exact trade-off function of an interactive mechanism against the best adversary:
    ``sup over adversaries B of T(View(B, M(x)), View(B, M(x')))`` in the f-DP order, as a
    :class:`exactdp.fdp.TradeOff`.

    Guarantee: exact (rational vertices).

    Parameters:
        mech: a mechanism on two inputs.
        method: ``"dp"`` (the dynamic programme) or ``"enumerate"`` (every deterministic adversary).
        symmetric: also take the reversed pair (x', x) into account (``sup(f, f^-1)``).

    Raises:
        InvalidArgument: not a two-input mechanism, unknown method.
        CostTooHigh: ``method="enumerate"`` with too many adversaries.

    Examples:
        >>> from exactdp.interactive.tree import two_round_bits
        >>> m = two_round_bits(["1/2", "1/3", "1/2", "1/2", "1/2", "1/2", "1/2", "1/2", "1/2", "1/2"])
        >>> f = mechanism_tradeoff(m)      # the adversary asks q1 = 0 after a0 = 0
        >>> [tuple(map(str, v)) for v in f.exact_vertices()]
        [('0', '1'), ('1/6', '3/4'), ('2/3', '1/4'), ('1', '0')]
        >>> mechanism_tradeoff(m, method="enumerate") == mechanism_tradeoff(m)
        True
    """
    mech = _two(mech)
    parse_choice(method, "method", METHODS)
    if method == "dp":
        f = _dp_tradeoff(mech)
    else:
        f = tradeoff_sup([tradeoff_of(*a.distributions()) for a in adversaries(mech)])
    return f.symmetrized() if symmetric else f


def least_t_pair(P: Sequence[Fraction], Q: Sequence[Fraction], delta: Fraction) -> Optional[Fraction]:
    """The least ``t >= 1`` with ``sum_y max(P(y) - t Q(y), 0) <= delta`` (one direction), or None
    when no finite t works.

    ``sum max(P - tQ, 0) = max over events S of P(S) - t Q(S)``; the maximum is at a level set
    of the ratio ``P/Q``, so ``t* = max(1, max over level sets S of (P(S) - delta) / Q(S))``
    (and no t works when the P-mass where ``Q = 0`` exceeds delta).

    Guarantee: exact. Raises: nothing.

    Examples:
        >>> least_t_pair([Fraction(3, 4), Fraction(1, 4)], [Fraction(1, 4), Fraction(3, 4)], Fraction(0))
        Fraction(3, 1)
    """
    p0 = sum((p for p, q in zip(P, Q) if q == 0), Fraction(0))
    if p0 > delta:
        return None
    atoms = sorted(((p / q, p, q) for p, q in zip(P, Q) if q > 0), key=lambda x: x[0], reverse=True)
    t = Fraction(1)
    ps, qs = p0, Fraction(0)
    for _, p, q in atoms:
        ps += p
        qs += q
        c = (ps - delta) / qs
        if c > t:
            t = c
    return t


@dataclass(frozen=True, kw_only=True, repr=False)
class PrivLossResult(EnclosedResult):
    """``PrivLoss(M, delta)``: ``value`` encloses eps (exactly 0, or ``ln(exp_exact)``; ``inf``
    when no finite eps works); ``exp_exact`` is ``e^eps`` as a Fraction; ``adversary`` a worst
    deterministic adversary (``method="enumerate"`` only)."""

    value: Enclosure
    exp_exact: Optional[Fraction]
    delta: Fraction
    method: str
    adversary: Optional[Adversary]
    guarantee: Guarantee = Guarantee.EXACT

    def __post_init__(self) -> None:
        object.__setattr__(self, "guarantee", Guarantee(self.guarantee))  # a checked tier

    def to_dict(self, digits: int = 30) -> dict:
        """JSON-ready: ``{"eps": {...}, "exp_eps": "p/q" | null, "delta": "p/q", "method": ...}``.
        Guarantee: exact (decimals rounded outward). Raises: nothing."""
        eps = self.value.to_dict(digits)
        if self.exp_exact is not None and self.exp_exact != 1:
            eps["exact"] = f"log({fraction_str(self.exp_exact)})"
        d = {"eps": eps, "exp_eps": None if self.exp_exact is None else fraction_str(self.exp_exact),
             "delta": fraction_str(self.delta), "method": self.method, "guarantee": self.guarantee}
        if self.adversary is not None:
            d["adversary"] = self.adversary.to_json()
        return d


def _eps_of(t: Optional[Fraction], digits: int) -> Enclosure:
    if t is None:
        return Enclosure.infinity()
    return Enclosure.log_of_rational(t, digits)


@implements("Vadhan-Wang Definition 4")
def privacy_loss(mech: InteractiveMechanism, delta: object = 0, *, method: str = "dp", digits: int = 30) -> PrivLossResult:
    """``PrivLoss(M, delta)``: the least eps >= 0 such that the interactive mechanism is
    (eps, delta)-DP on its pair of inputs (both orders) against every adversary.

    Guarantee: exact: ``exp_exact = e^eps`` is a Fraction (None when eps is infinite) and
    ``value`` encloses ``ln(exp_exact)`` to ``digits`` significant digits (exactly 0 at 1).

    Parameters:
        mech: a mechanism on two inputs.
        delta: a rational in [0, 1).
        method: ``"dp"`` (trade-off dynamic programme) or ``"enumerate"`` (every adversary).
        digits: digits of the enclosure of eps.

    Raises:
        InvalidArgument: bad delta or method, not a two-input mechanism.
        CostTooHigh: ``method="enumerate"`` with too many adversaries.

    Examples:
        >>> from exactdp.interactive.tree import randomized_response
        >>> r = privacy_loss(randomized_response(3, "1/10"), "1/10")
        >>> r.exp_exact, r.value.text(6)
        (Fraction(3, 1), '[1.09861, 1.09862]')
        >>> privacy_loss(randomized_response(3, "1/10"), "1/20").infinite   # the Iam0 answer alone leaks 1/10
        True

    References: Vadhan-Wang Definition 4 and Section 5 (PrivLoss); Lemma 1 (deterministic adversaries).
    """
    mech = _two(mech)
    d = parse_delta(delta)
    parse_choice(method, "method", METHODS)
    from ..engines.api import check_digits

    digits = check_digits(digits)
    worst: Optional[Adversary] = None
    if method == "dp":
        f = _dp_tradeoff(mech)
        t1, t2 = f.exp_epsilon(d), f.inverse().exp_epsilon(d)
        t = None if t1 is None or t2 is None else max(t1, t2)
    else:
        t = Fraction(1)
        for adv in adversaries(mech):
            P, Q = adv.distributions()
            a, b = least_t_pair(P, Q, d), least_t_pair(Q, P, d)
            tb = None if a is None or b is None else max(a, b)
            if tb is None or tb > t or worst is None:
                if tb is None or tb > t:
                    t = tb  # type: ignore[assignment]
                worst = adv
            if t is None:
                break
    return PrivLossResult(value=_eps_of(t, digits), exp_exact=t, delta=d, method=method, adversary=worst)


def delta_of(mech: InteractiveMechanism, *, exp_eps: object, method: str = "dp") -> Fraction:
    """The least delta such that ``mech`` is (eps, delta)-DP (both orders), at ``e^eps`` rational.

    Guarantee: exact. Raises: InvalidArgument (exp_eps < 1, method), CostTooHigh (enumerate).

    Examples:
        >>> from exactdp.interactive.tree import randomized_response
        >>> delta_of(randomized_response(3), exp_eps=2)     # (3 - 2) / (1 + 3)
        Fraction(1, 4)
    """
    t = parse_exp_eps(exp_eps)
    f = mechanism_tradeoff(mech, method=method)
    return max(f.delta(exp_eps=t).exact, f.inverse().delta(exp_eps=t).exact)
