"""Murtagh-Vadhan Lemma 5.2 (the decision with two knapsack tables) and the proof's form of Theorem 1.7.

The proof of Theorem 1.7 finds ``eps*`` by a binary search over ``m eps_0`` whose
every step is Lemma 5.2's decision (two Lemma 5.1 tables); the last cell is solved
exactly (S is linear there). ``O(log(A) k B)`` table cells: kept to check the proof
as printed; the fast form (:func:`~exactdp.approx.lattice.optcomp_lattice`) gives the
same eps*.

Rigor: every integer decision is exact; transcendental quantities are Arb balls
at rising precision, and a straddling ball raises the precision, never guesses
(termination: ``docs/approx.md``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Optional, Sequence

from .._backend import arb, workprec
from ..engines.inverse import Inverse, Target, eps_at_W
from ..errors import InvalidArgument
from ..links import implements
from ..numbers import (
    MAXPREC,
    Enclosure,
    ExpNum,
    RatExp,
    accurate,
    arb_bounds,
    log_sign_of_product,
    parse_delta,
    parse_eps,
    parse_rational,
    refine,
    start_prec,
)
from .knapsack import knapsack_arb, knapsack_sum
from .lattice import INFINITE, LatticeProblem, check_base, check_exponents

__all__ = ["lemma52_decide", "optcomp_proof", "eps_from_t"]

_ZERO = Inverse(Enclosure.point(0), Fraction(1), None, True)


def _P(deltas: Sequence[Fraction]) -> Fraction:
    p = Fraction(1)
    for d in deltas:
        p *= 1 - d
    return p


def _pow(x, n: int):
    if n >= 0:
        return x**n
    return 1 / (x ** (-n))


def _u_val(lat: LatticeProblem, prec: Optional[int]):
    """``u`` exactly (``prec`` None: a rational u) or as an Arb ball at ``prec``."""
    return lat.uq if prec is None else lat.u.arb(prec)


def eps_from_t(t, lo_end, hi_end, digits: int, prec: int) -> Optional[Inverse]:
    """``ln t`` for a ball ``t`` whose true value lies in ``[lo_end, hi_end]`` (balls).

    Returns None when the enclosure is not yet ``digits`` accurate.
    """
    with workprec(prec):
        tt = t.intersection(lo_end.union(hi_end))
        v = tt.log()
        if not v.is_finite():
            return None
        lo, hi = arb_bounds(v)
    lo = max(lo, Fraction(0))
    if hi < lo:
        hi = lo
    if not accurate(lo, hi, digits, floor=Fraction(1, 10 ** (2 * digits))):
        return None
    return Inverse(Enclosure(lo, hi), None, prec, False)



class _Proof:
    """The decision procedure of Lemma 5.2 on ``w_i' = u^{a_i}``, with caches."""

    def __init__(self, lat: LatticeProblem, tau: Target):
        self.lat = lat
        self.tau = tau
        self.exact = lat.uq is not None and tau.exact() is not None
        self._Z: dict = {}
        self.tables = 0  # Lemma 5.1 tables filled

    def Z(self, prec: Optional[int]):
        hit = self._Z.get(prec)
        if hit is None:
            u = _u_val(self.lat, prec)
            z = 1 if prec is None else arb(1)
            cache: dict = {}
            for ai in self.lat.a:
                f = cache.get(ai)
                if f is None:
                    f = cache[ai] = 1 + _pow(u, ai)
                z = z * f
            hit = self._Z[prec] = z
        return hit

    def sums(self, B: int, prec: Optional[int]):
        """``C1 = sum_{T in K} prod_T u^{-a_i}``, ``C2 = sum_{T in K} prod_T u^{a_i}`` (Lemma 5.1 twice)."""
        a = self.lat.a
        u = _u_val(self.lat, prec)
        self.tables += 2
        if prec is None:
            cache: dict = {}
            for ai in a:
                if ai not in cache:
                    cache[ai] = u**ai
            c1 = knapsack_sum(a, B, [1 / cache[ai] for ai in a])
            c2 = knapsack_sum(a, B, [cache[ai] for ai in a])
            return Fraction(c1), Fraction(c2)
        with workprec(prec):
            cache = {}
            for ai in a:
                if ai not in cache:
                    cache[ai] = _pow(u, ai)
            c1 = knapsack_arb(a, B, [1 / cache[ai] for ai in a])
            c2 = knapsack_arb(a, B, [cache[ai] for ai in a])
            return c1, c2

    def decide(self, B: int, t, prec: Optional[int]):
        """Is ``u^A C1 - t C2 - tau Z <= 0`` (i.e. OptComp <= ln t)? None if undecided.

        Returns ``(answer, C1, C2)``.
        """
        lat = self.lat
        if B < 0:  # K is empty: the sum is 0 <= tau Z
            return True, None, None
        c1, c2 = self.sums(B, prec)
        if prec is None:
            d = lat.uq**lat.A * c1 - t * c2 - self.tau.exact() * self.Z(None)  # type: ignore[operator]
            return d <= 0, c1, c2
        with workprec(prec):
            d = _pow(lat.u.arb(prec), lat.A) * c1 - t * c2 - self.tau.arb(prec) * self.Z(prec)
            if d <= 0:
                return True, c1, c2
            if d > 0:
                return False, c1, c2
            return None, c1, c2


def optcomp_proof(lat: LatticeProblem, tau: Target, digits: int, *, stats: Optional[dict] = None) -> Inverse:
    """OptComp of ``w_i' = u^{a_i}`` at target tau: the proof's form.

    Binary search over ``eps* = m eps_0`` (``m = 0..A``), each step Lemma 5.2's
    decision; in the final cell ``((m-1) eps_0, m eps_0]`` the set K is fixed
    and the inequality linear in ``t = e^{eps*}``, so ``t* = (u^A C1 - tau Z) / C2``.
    """
    s = tau.sign()
    if s < 0:
        return INFINITE
    if s == 0:
        return eps_at_W(lat.W_groups(), digits)
    if lat.A == 0:
        return _ZERO
    A = lat.A
    pr = _Proof(lat, tau)
    # the k-term sums lose about log2(k) bits to cancellation
    prec: Optional[int] = None if pr.exact else max(64, start_prec(digits, extra=16 + lat.k.bit_length()))

    def decide(m: int):
        B = (A - m) // 2
        if prec is None:
            return pr.decide(B, lat.uq**m, None)

        def step(p: int):
            nonlocal prec
            prec = p  # later decisions resume at the precision this one needed
            ans, c1, c2 = pr.decide(B, _pow(lat.u.arb(p), m), p)
            return None if ans is None else (ans, c1, c2)

        return refine(step, start=prec, maxprec=MAXPREC, what="Lemma 5.2 decision")

    ans, c1, c2 = decide(0)
    if ans:
        if stats is not None:
            stats["tables"] = pr.tables
        return _ZERO
    lo, hi = 0, A  # decide(lo) False, decide(hi) True (B = 0: the sum is 0)
    last = None
    while hi - lo > 1:
        mid = (lo + hi) // 2
        ans, c1, c2 = decide(mid)
        if ans:
            hi, last = mid, (c1, c2, prec)
        else:
            lo = mid
    m = hi
    B = (A - m) // 2
    if last is None or last[2] != prec:
        c1, c2 = pr.sums(B, prec)
    else:
        c1, c2 = last[0], last[1]
    if prec is None:
        u = lat.uq
        t = (u**A * c1 - tau.exact() * pr.Z(None)) / c2  # type: ignore[operator]
        if stats is not None:
            stats["tables"] = pr.tables
        return Inverse(Enclosure.log_of_rational(t, digits).clamp(lo=Fraction(0)), t, None, True)
    sums = {prec: (c1, c2)}

    def final(p: int):
        c1, c2 = sums[p] if p in sums else pr.sums(B, p)
        with workprec(p):
            u = lat.u.arb(p)
            t = (_pow(u, A) * c1 - tau.arb(p) * pr.Z(p)) / c2
            return eps_from_t(t, _pow(u, m - 1), _pow(u, m), digits, p)

    out = refine(final, start=prec, maxprec=MAXPREC, what=f"OptComp enclosure to {digits} digits")
    if stats is not None:
        stats["tables"] = pr.tables
    return out


@implements("Murtagh-Vadhan Lemma 5.2")
def lemma52_decide(
    a: Sequence[int],
    delta_g: object,
    eps_star: object = None,
    *,
    eps0: object = None,
    exp_base: object = None,
    exp_star: object = None,
    deltas: Optional[Sequence[object]] = None,
) -> bool:
    """Lemma 5.2: is ``OptComp((a_1 eps_0, delta_1), ..., (a_k eps_0, delta_k), delta_g) <= eps*``?

    As printed: with ``B = floor((sum eps_i - eps*) / (2 eps_0))`` and
    ``K = {T : sum_{i in T} a_i <= B}``, test
    ``sum_{T in K} (e^{sum eps} prod_T e^{-eps_i} - e^{eps*} prod_T e^{eps_i})
    <= (1 - (1 - delta_g)/prod(1 - delta_i)) prod (1 + e^{eps_i})``, both sums
    by the Lemma 5.1 table (``w_i = e^{-eps_i}``, then ``w_i = e^{eps_i}``).

    Give either ``eps0`` and ``eps_star`` (rationals; ``e^{eps_0}`` is then
    transcendental and the test runs in Arb balls at rising precision, which
    terminates, see the module docstring), or the exp-space form ``exp_base``
    ``u > 1`` and ``exp_star`` ``t >= 1`` (rationals, ``eps_i = a_i ln u``,
    ``eps* = ln t``; exact rational arithmetic).

    Guarantee: exact (a rigorous decision; never guessed).

    Raises:
        InvalidArgument: bad ``a``, deltas, ``eps0 <= 0``, ``exp_base <= 1``,
            ``eps_star < 0``, ``exp_star < 1``, or not exactly one of the two forms.
        PrecisionError: the Arb decision did not settle by ``MAXPREC`` bits.

    Examples:
        >>> lemma52_decide([1, 1], "2/9", exp_base=2, exp_star=2)   # OptComp = ln 2 exactly
        True
        >>> lemma52_decide([1, 1], "2/9", exp_base=2, exp_star="199/100")
        False
        >>> lemma52_decide([1] * 10, "1e-3", "0.9", eps0="0.1")  # 10 x eps=0.1: OptComp ~ 0.8
        True

    References:
        Murtagh-Vadhan Lemma 5.2 (and Theorem 1.5 for the inequality).
    """
    al = check_exponents(a)
    if not al:
        raise InvalidArgument("a", "a non-empty list of integers >= 0", "an empty list")
    dg = parse_delta(delta_g, "delta_g")
    ds = [Fraction(0)] * len(al) if deltas is None else [parse_delta(d, f"deltas[{i}]") for i, d in enumerate(deltas)]
    if len(ds) != len(al):
        raise InvalidArgument("deltas", f"a list of {len(al)} values (one per a_i)", f"{len(ds)} values")
    tau = Target(_P(ds), dg)
    A = sum(al)
    if eps0 is not None and exp_base is None and exp_star is None:
        e0 = parse_rational(eps0, "eps0", expected="a rational number > 0")
        if e0 <= 0:
            raise InvalidArgument("eps0", "a rational number > 0", eps0)
        es = parse_eps(eps_star, "eps_star")
        lat = LatticeProblem(RatExp.from_eps(e0), al)
        x = (A * e0 - es) / (2 * e0)
        B = x.numerator // x.denominator
        t_num: ExpNum = RatExp.from_eps(es)
        total = A * e0
        if tau.sign() < 0:
            return False
        if tau.sign() == 0:
            return es >= total
    elif exp_base is not None and eps_star is None and eps0 is None:
        ub = check_base(exp_base)
        ts = parse_rational(exp_star, "exp_star", expected="a rational number >= 1")
        if ts < 1:
            raise InvalidArgument("exp_star", "a rational number >= 1", exp_star)
        lat = LatticeProblem(RatExp.from_exp(ub), al)
        t_num = RatExp.from_exp(ts)
        if tau.sign() < 0:
            return False
        if tau.sign() == 0:
            return ts >= ub**A
        # B = largest n with u^{A - 2n} >= t (exact)
        B = _largest_n(lambda n: log_sign_of_product([(lat.u, A - 2 * n), (t_num, -1)]) >= 0, A)
    else:
        raise InvalidArgument("eps0 / exp_base", "either eps0 with eps_star, or exp_base with exp_star", None)
    pr = _Proof(lat, tau)
    if pr.exact:
        ans, _, _ = pr.decide(B, t_num.exact(), None)
        return bool(ans)

    def step(prec: int) -> Optional[bool]:
        with workprec(prec):
            ans, _, _ = pr.decide(B, t_num.arb(prec), prec)
        return ans

    # the sums over len(a) terms lose about log2(len(a)) bits to cancellation
    return refine(step, extra=len(al).bit_length(), maxprec=MAXPREC, what="Lemma 5.2 decision")


def _largest_n(pred, A: int) -> int:
    """Largest integer n <= A/2... with pred(n) true, pred decreasing in n; -1 if none."""
    if not pred(0):
        return -1
    lo, hi = 0, A // 2 + 1
    while not (hi > A or not pred(hi)):
        hi = hi * 2 + 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if pred(mid):
            lo = mid
        else:
            hi = mid
    return lo


