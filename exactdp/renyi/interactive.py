"""Rényi divergence of an interactive mechanism against its optimal adversary
(Vadhan-Zhang Definition 5.1, Lemma 5.5), and Theorem 5.1 on concurrent compositions.

For an order ``alpha > 1`` the divergence of the views is ``ln(E)/(alpha - 1)`` with
``E = sum over views P^alpha Q^(1 - alpha)``, increasing in ``E``. Lemma 5.5's recursion
(with Lemma 5.3's identity) gives the optimal adversary's ``E`` by dynamic programming:

    E(halt) = 1,   E(node) = max over queries q of sum over answers a of p_a^alpha q_a^(1-alpha) E(next).

``method="enumerate"`` takes the maximum over every deterministic adversary instead
(enough by joint quasi-convexity, Vadhan-Zhang Lemmas 2.2 and 2.5). Theorem 5.1 (Lyu;
Vadhan-Zhang's proof through Lemma 5.2) says that the concurrent composition's value is
the sum of the components': :func:`renyi_concurrent` computes both sides.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Optional, Sequence

from .._backend import arb, workprec
from ..errors import InvalidArgument
from ..interactive.adversary import adversaries
from ..interactive.concurrent import concurrent
from ..interactive.tree import InteractiveMechanism, Node
from ..links import implements
from ..numbers import Guarantee, arb_of_fraction, parse_choice
from .divergence import RenyiResult, parse_alpha, rational_power, result_from

__all__ = ["renyi_interactive", "renyi_concurrent"]



def _term(p: Fraction, q: Fraction, a: Fraction) -> Optional[Fraction]:
    """``p^a q^(1-a)`` when rational (p, q > 0), else None."""
    r = rational_power(p / q, a)
    return None if r is None else r * q


def _exact_dp(mech: InteractiveMechanism, a: Fraction) -> tuple[bool, Optional[Fraction]]:
    """(all terms rational?, E) with E None when infinite."""
    memo: dict[int, tuple[bool, Optional[Fraction]]] = {}

    def e(node: Node) -> tuple[bool, Optional[Fraction]]:
        got = memo.get(id(node))
        if got is not None:
            return got
        if node.is_leaf:
            got = (True, Fraction(1))
        else:
            best: Optional[Fraction] = Fraction(0)
            for _, answers in node.queries:
                s: Optional[Fraction] = Fraction(0)
                for _, b in answers:
                    p, q = b.probs
                    if p == 0:
                        continue
                    if q == 0:
                        s = None
                        break
                    t = _term(p, q, a)
                    if t is None:
                        memo[id(node)] = (False, None)
                        return False, None
                    ok, sub = (True, Fraction(1)) if b.next is None else e(b.next)
                    if not ok:
                        memo[id(node)] = (False, None)
                        return False, None
                    if sub is None:
                        s = None
                        break
                    s += t * sub  # type: ignore[operator]
                if s is None:
                    best = None
                    break
                if s > best:  # type: ignore[operator]
                    best = s
            got = (True, best)
        memo[id(node)] = got
        return got

    return e(mech.root)


def _infinite(mech: InteractiveMechanism) -> bool:
    """Some adversary sees, with positive probability under x, an answer impossible under x'."""
    memo: dict[int, bool] = {}

    def inf(node: Node) -> bool:
        got = memo.get(id(node))
        if got is None:
            got = any(any(b.probs[0] > 0 and (b.probs[1] == 0 or (b.next is not None and inf(b.next))) for _, b in answers)
                      for _, answers in node.queries)
            memo[id(node)] = got
        return got

    return inf(mech.root)


def _arb_dp(mech: InteractiveMechanism, a: Fraction, prec: int) -> arb:
    memo: dict[int, arb] = {}
    aa = arb_of_fraction(a)

    def e(node: Node) -> arb:
        got = memo.get(id(node))
        if got is None:
            if node.is_leaf:
                got = arb(1)
            else:
                best = None
                for _, answers in node.queries:
                    s = arb(0)
                    for _, b in answers:
                        p, q = b.probs
                        if p == 0:
                            continue
                        s += arb_of_fraction(p / q) ** aa * arb_of_fraction(q) * (arb(1) if b.next is None else e(b.next))
                    best = s if best is None else best.max(s)
                got = best
            memo[id(node)] = got
        return got

    with workprec(prec):
        return e(mech.root)


@implements("Vadhan-Zhang Lemma 5.5", "Vadhan-Zhang Definition 5.1", "Vadhan-Zhang Lemma 5.3")
def renyi_interactive(mech: InteractiveMechanism, alpha: object, *, method: str = "dp", symmetric: bool = False,
                      digits: int = 30) -> RenyiResult:
    """``max over adversaries B of D_alpha(View(B, M(x)) || View(B, M(x')))`` (module docstring).

    Guarantee: exact (``exp_exact``) when every term is a rational power (always for integer
    alpha), else an enclosure of ``digits`` digits.

    Parameters:
        mech: a two-input mechanism.
        alpha: rational > 1.
        method: ``"dp"`` (Lemma 5.5's recursion) or ``"enumerate"`` (every deterministic adversary).
        symmetric: the larger of the two orders of the pair.

    Raises:
        InvalidArgument: bad alpha, method or mechanism. CostTooHigh: enumeration too large.

    Examples:
        >>> from exactdp.interactive.tree import two_round_bits
        >>> m = two_round_bits(["1/2", "1/3", "1/2", "1/2", "1/2", "1/2", "1/2", "1/2", "1/2", "1/2"])
        >>> renyi_interactive(m, 2).exp_exact    # q1 = 0 after a0 = 0: (1/6)^2/(1/4) + (1/3)^2/(1/4) + 1/2
        Fraction(19, 18)
        >>> renyi_interactive(m, 2, method="enumerate").exp_exact
        Fraction(19, 18)
    """
    from ..engines.api import check_digits

    if not isinstance(mech, InteractiveMechanism) or len(mech.inputs) != 2:
        raise InvalidArgument("mechanism", "a two-input InteractiveMechanism", mech)
    a = parse_alpha(alpha)
    parse_choice(method, "method", ("dp", "enumerate"))
    digits = check_digits(digits)
    if symmetric:
        r1 = renyi_interactive(mech, a, method=method, digits=digits)
        r2 = renyi_interactive(mech.pair(1, 0), a, method=method, digits=digits)
        if r1.infinite or r2.infinite:
            return r1 if r1.infinite else r2
        if r1.exp_exact is not None and r2.exp_exact is not None:
            return r1 if r1.exp_exact >= r2.exp_exact else r2
        if r1.value.lower >= r2.value.upper:
            return r1
        if r2.value.lower >= r1.value.upper:
            return r2
        return RenyiResult(value=type(r1.value)(max(r1.value.lower, r2.value.lower), max(r1.value.upper, r2.value.upper)),
                           exp_exact=None, alpha=a, guarantee=Guarantee.ENCLOSURE)
    if method == "enumerate":
        return _enumerate(mech, a, digits)
    if _infinite(mech):
        return result_from(a, digits, infinite=True)
    ok, e = _exact_dp(mech, a)
    if ok and e is not None:
        return result_from(a, digits, exact=e)
    return result_from(a, digits, ball=lambda prec: _arb_dp(mech, a, prec))


def _enumerate(mech: InteractiveMechanism, a: Fraction, digits: int) -> RenyiResult:
    advs = list(adversaries(mech))
    exact: list[Fraction] = []
    views_all = []
    for adv in advs:
        P, Q = adv.distributions()
        if any(p > 0 and q == 0 for p, q in zip(P, Q)):
            return result_from(a, digits, infinite=True)
        terms = [(p, q) for p, q in zip(P, Q) if p > 0]
        views_all.append(terms)
        ts = [_term(p, q, a) for p, q in terms]
        if exact is not None and all(t is not None for t in ts):
            exact.append(sum(ts, Fraction(0)))  # type: ignore[arg-type]
        else:
            exact = None  # type: ignore[assignment]
    if exact is not None:
        return result_from(a, digits, exact=max(exact))

    def ball(prec: int) -> arb:
        with workprec(prec):
            best = None
            for terms in views_all:
                s = arb(0)
                for p, q in terms:
                    s += arb_of_fraction(p / q) ** arb_of_fraction(a) * arb_of_fraction(q)
                best = s if best is None else best.max(s)
            return best

    return result_from(a, digits, ball=ball)


@implements("Vadhan-Zhang Theorem 5.1", "Vadhan-Zhang Lemma 5.2", "Vadhan-Zhang Lemma 5.4")
def renyi_concurrent(mechanisms: Sequence[InteractiveMechanism], alpha: object, *, method: str = "dp",
                     digits: int = 30) -> tuple[RenyiResult, list[RenyiResult]]:
    """The optimal adversary's Rényi divergence against ``ConComp(M_1, ..., M_k)`` and against each
    ``M_i``: by Theorem 5.1 the first is the sum of the others (``E`` the product).

    Guarantee: exact / enclosure as :func:`renyi_interactive`.

    Raises: as :func:`renyi_interactive` and :func:`~exactdp.interactive.concurrent`.

    Examples:
        >>> from exactdp.interactive.tree import randomized_response, two_round_bits
        >>> m = two_round_bits(["1/2", "1/3", "1/2", "1/2", "1/2", "1/2", "1/2", "1/2", "1/2", "1/2"])
        >>> cc, parts = renyi_concurrent([m, randomized_response(3)], 2)
        >>> cc.exp_exact, parts[0].exp_exact * parts[1].exp_exact
        (Fraction(133, 54), Fraction(133, 54))
    """
    ms = list(mechanisms)
    whole = renyi_interactive(concurrent(*ms), alpha, method=method, digits=digits)
    return whole, [renyi_interactive(m, alpha, method=method, digits=digits) for m in ms]
