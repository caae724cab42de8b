"""Exact trade-off functions of finite distributions (f-DP; Vadhan-Zhang Section 1.5 and 3).

A trade-off function of two finite distributions with rational probabilities is
piecewise linear with rational vertices; :class:`Tradeoff` holds those vertices
exactly, from ``(0, f(0))`` to ``(1, 0)``. Here:

* :func:`tradeoff_of` the Neyman-Pearson computation ``T(P, Q)`` (Vadhan-Zhang
  Definition 1.6): reject the atoms in decreasing order of ``Q/P``;
* :func:`sup` the supremum in the poset of trade-off functions (Vadhan-Zhang Lemma 2.4):
  the lower convex envelope of the pointwise minimum;
* :func:`chain_rule` Vadhan-Zhang Claim 3.4 (Lemma 3.3): the trade-off function of
  ``(X, Y)`` vs ``(X', Y')`` from that of ``X`` vs ``X'`` and the conditional ones;
* :func:`tensor` the trade-off function of a product (non-interactive composition);
* :func:`f_eps_delta` the trade-off function of (eps, delta)-DP;
* :meth:`Tradeoff.delta` and :meth:`Tradeoff.least_t` convert to (eps, delta)-DP
  by convex duality: ``delta(eps) = max over vertices of (1 - beta - e^eps alpha)``.

Convention: ``alpha`` is the type I error under the first distribution ``P``,
``beta`` the type II error under ``Q`` (``beta = 1 - E_Q[phi]``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Iterable, Optional, Sequence

from ..errors import InvalidArgument
from ..links import implements
from ..numbers import fraction_str

__all__ = [
    "Tradeoff",
    "identity",
    "tradeoff_of",
    "sup",
    "chain_rule",
    "tensor",
    "f_eps_delta",
    "lower_hull",
]

Point = tuple[Fraction, Fraction]
ZERO, ONE = Fraction(0), Fraction(1)


def _cross(o: Point, a: Point, b: Point) -> Fraction:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def lower_hull(points: Iterable[Point]) -> list[Point]:
    """The lower convex hull of ``points`` (exact), left to right, no collinear interior points.

    Guarantee: exact. Raises: nothing (an empty input gives an empty hull).

    Examples:
        >>> [tuple(map(str, p)) for p in lower_hull([(0, 1), (Fraction(1, 2), Fraction(1, 2)), (1, 0), (Fraction(1, 2), 1)])]
        [('0', '1'), ('1', '0')]
    """
    best: dict[Fraction, Fraction] = {}
    for a, b in points:
        a, b = Fraction(a), Fraction(b)
        if a not in best or b < best[a]:
            best[a] = b
    pts = sorted(best.items())
    out: list[Point] = []
    for p in pts:
        while len(out) >= 2 and _cross(out[-2], out[-1], p) <= 0:
            out.pop()
        out.append(p)
    return out


def _on(hull: list[Point], a: Fraction) -> Fraction:
    for (a0, b0), (a1, b1) in zip(hull, hull[1:]):
        if a0 <= a <= a1:
            return b0 + (b1 - b0) * (a - a0) / (a1 - a0)
    return hull[-1][1]


class Tradeoff:
    """A piecewise-linear trade-off function with exact rational vertices.

    ``vertices`` run from ``(0, f(0))`` to ``(1, 0)``, alpha strictly increasing, beta
    non-increasing, convex, no collinear interior vertex; two trade-off functions are
    equal exactly when their vertices are.

    Guarantee: exact.

    Raises:
        InvalidArgument: vertices that do not describe a trade-off function
            (Vadhan-Zhang Proposition 1.7: convex, non-increasing, ``f(a) <= 1 - a``).

    Examples:
        >>> f = f_eps_delta(3, 0)          # randomized response with e^eps = 3
        >>> [(str(a), str(b)) for a, b in f.vertices]
        [('0', '1'), ('1/4', '1/4'), ('1', '0')]
        >>> f(Fraction(1, 8)), f.least_t(0), f.delta(2)
        (Fraction(5, 8), Fraction(3, 1), Fraction(1, 4))
    """

    __slots__ = ("vertices",)

    def __init__(self, vertices: Iterable[Sequence[object]]):
        pts = [(Fraction(a), Fraction(b)) for a, b in vertices]
        hull = lower_hull(pts)
        if not hull or hull[0][0] != 0 or hull[-1] != (ONE, ZERO):
            raise InvalidArgument("vertices", "points from alpha = 0 to (1, 0)", [tuple(map(str, p)) for p in pts[:6]])
        if len(pts) > len(hull):
            # every point given must lie on the hull: a point above it means a non-convex function
            for a, b in pts:
                if b != _on(hull, a):
                    raise InvalidArgument("vertices", "the vertices of a convex function", (str(a), str(b)))
        for a, b in hull:
            if not (0 <= a <= 1 and 0 <= b <= 1 - a):
                raise InvalidArgument("vertices", "points with 0 <= beta <= 1 - alpha", (str(a), str(b)))
        for (a0, b0), (a1, b1) in zip(hull, hull[1:]):
            if b1 > b0:
                raise InvalidArgument("vertices", "a non-increasing function", (str(a1), str(b1)))
        object.__setattr__(self, "vertices", tuple(hull))

    def __setattr__(self, name, value):
        raise AttributeError("Tradeoff is immutable")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tradeoff) and self.vertices == other.vertices

    def __hash__(self) -> int:
        return hash(self.vertices)

    def __repr__(self) -> str:
        vs = ", ".join(f"({fraction_str(a)}, {fraction_str(b)})" for a, b in self.vertices[:8])
        more = f", ... ({len(self.vertices)} vertices)" if len(self.vertices) > 8 else ""
        return f"Tradeoff([{vs}{more}])"

    def __call__(self, alpha: object) -> Fraction:
        """``f(alpha)`` for a rational alpha in [0, 1]. Guarantee: exact. Raises: InvalidArgument."""
        a = Fraction(alpha)
        if not 0 <= a <= 1:
            raise InvalidArgument("alpha", "a rational number in [0, 1]", alpha)
        v = self.vertices
        for (a0, b0), (a1, b1) in zip(v, v[1:]):
            if a0 <= a <= a1:
                return b0 + (b1 - b0) * (a - a0) / (a1 - a0)
        return ZERO  # pragma: no cover - alpha = 1 is the last vertex

    def segments(self) -> list[tuple[Fraction, Fraction]]:
        """``(d alpha, d beta)`` of each segment, left to right (``d alpha > 0``, ``d beta <= 0``,
        slopes increasing). Guarantee: exact. Raises: nothing."""
        v = self.vertices
        return [(a1 - a0, b1 - b0) for (a0, b0), (a1, b1) in zip(v, v[1:])]

    def inverse(self) -> "Tradeoff":
        """``T(Q, P)`` when this is ``T(P, Q)`` (the mirror image in the diagonal).

        Guarantee: exact. Raises: nothing.
        """
        v = self.vertices
        pts = [(b, a) for a, b in v]
        if v[0][1] < 1:  # f(0) < 1: the mirror is 0 from beta = f(0) to 1
            pts.append((ONE, ZERO))
        # (1, 0) mirrors to (0, 1), above the mirror's value at 0 when f reaches 0 before alpha = 1
        low0 = min(b for a, b in pts if a == 0)
        return Tradeoff([p for p in pts if p[0] != 0 or p[1] == low0])

    def symmetric(self) -> "Tradeoff":
        """``sup(f, f^-1)``: the trade-off function for both orders of the pair. Guarantee: exact."""
        return sup([self, self.inverse()])

    def dominates(self, other: "Tradeoff") -> bool:
        """``self >= other`` pointwise (``self`` is at least as private). Guarantee: exact decision.

        ``self - other`` is concave on each segment of ``self`` (``other`` is convex), so
        checking the vertices of ``self`` decides it.
        """
        return all(b >= other(a) for a, b in self.vertices)

    def delta(self, t: object) -> Fraction:
        """``delta(eps) = max(0, max over vertices of (1 - beta - t alpha))`` at ``t = e^eps`` (rational):
        the least delta such that the pair is (eps, delta)-indistinguishable in this direction.

        Guarantee: exact. Raises: nothing (any rational t).
        """
        t = Fraction(t)
        return max([ZERO] + [1 - b - t * a for a, b in self.vertices])

    def least_t(self, delta: object) -> Optional[Fraction]:
        """The least ``t = e^eps >= 1`` with ``delta(t) <= delta`` in this direction; None when no
        finite eps works (``1 - f(0) > delta``).

        Guarantee: exact (the least t is the largest of ``(1 - beta - delta) / alpha`` over the
        vertices with alpha > 0, and 1). Raises: nothing.
        """
        d = Fraction(delta)
        a0, b0 = self.vertices[0]
        if 1 - b0 > d:
            return None
        t = ONE
        for a, b in self.vertices[1:]:
            c = (1 - b - d) / a
            if c > t:
                t = c
        return t


def identity() -> Tradeoff:
    """``f(alpha) = 1 - alpha``: perfect privacy (identical distributions). Guarantee: exact."""
    return Tradeoff([(ZERO, ONE), (ONE, ZERO)])


def _atoms(P: Sequence[object], Q: Sequence[object]) -> list[tuple[Fraction, Fraction]]:
    if len(P) != len(Q) or not P:
        raise InvalidArgument("Q", f"a distribution on the same {len(P)} outcomes as P", len(Q))
    out = []
    for i, (p, q) in enumerate(zip(P, Q)):
        p, q = Fraction(p), Fraction(q)
        if p < 0 or q < 0:
            raise InvalidArgument(f"P[{i}] / Q[{i}]", "probabilities >= 0", (str(p), str(q)))
        out.append((p, q))
    sp, sq = sum(a for a, _ in out), sum(b for _, b in out)
    if sp != 1 or sq != 1:
        raise InvalidArgument("P / Q", "probability distributions (each summing to 1)", (str(sp), str(sq)))
    return out


@implements("Vadhan-Zhang Definition 1.6")
def tradeoff_of(P: Sequence[object], Q: Sequence[object]) -> Tradeoff:
    """``T(P, Q)``: the trade-off function of two finite distributions (Neyman-Pearson).

    The most powerful tests reject the outcomes in decreasing order of the likelihood
    ratio ``Q(y) / P(y)`` (outcomes with ``P(y) = 0`` first, at no type I cost), randomising
    within a class of equal ratio; the vertices are the errors after each class.

    Guarantee: exact.

    Parameters:
        P: probabilities of the outcomes (rationals summing to 1).
        Q: probabilities of the same outcomes (rationals summing to 1).

    Raises:
        InvalidArgument: lengths differ, negative probabilities, sums not 1.

    Examples:
        >>> tradeoff_of(["3/4", "1/4"], ["1/4", "3/4"])
        Tradeoff([(0, 1), (1/4, 1/4), (1, 0)])
        >>> tradeoff_of(["1/2", "1/2", 0], [0, "1/2", "1/2"])   # f(0) = 1/2: an outcome only Q has
        Tradeoff([(0, 1/2), (1/2, 0), (1, 0)])

    References: Vadhan-Zhang Definition 1.6; Dong-Roth-Su (Neyman-Pearson lemma).
    """
    atoms = _atoms(P, Q)
    q_only = sum((q for p, q in atoms if p == 0), ZERO)
    rest = sorted(((q / p, p, q) for p, q in atoms if p > 0), key=lambda x: x[0], reverse=True)
    pts = [(ZERO, 1 - q_only)]
    a, b = ZERO, 1 - q_only
    i = 0
    while i < len(rest):
        r = rest[i][0]
        while i < len(rest) and rest[i][0] == r:
            a += rest[i][1]
            b -= rest[i][2]
            i += 1
        pts.append((a, b))
    pts.append((ONE, ZERO))
    return Tradeoff(pts)


@implements("Vadhan-Zhang Lemma 2.4")
def sup(fs: Iterable[Tradeoff]) -> Tradeoff:
    """The supremum of trade-off functions in the f-DP order (the least private function that
    every ``f`` in ``fs`` is at least as private as): the lower convex envelope of their minimum.

    Guarantee: exact (Vadhan-Zhang Lemma 2.4's infimum over mixtures is the convex hull of the
    union of the graphs; with piecewise-linear ``f`` it is the lower hull of their vertices).

    Raises:
        InvalidArgument: an empty collection.

    Examples:
        >>> sup([f_eps_delta(2, 0), f_eps_delta(1, "1/10")])
        Tradeoff([(0, 9/10), (1/3, 1/3), (9/10, 0), (1, 0)])
    """
    fs = list(fs)
    if not fs:
        raise InvalidArgument("fs", "a non-empty collection of trade-off functions", "an empty one")
    if len(fs) == 1:
        return fs[0]
    return Tradeoff(lower_hull(v for f in fs for v in f.vertices))


@implements("Vadhan-Zhang Claim 3.4", "Vadhan-Zhang Lemma 3.3")
def chain_rule(P: Sequence[object], Q: Sequence[object], fs: Sequence[Optional[Tradeoff]]) -> Tradeoff:
    """ChainRule_{X,X'}: the trade-off function of ``(X, Y)`` vs ``(X', Y')`` from the law of ``X``
    (``P``), of ``X'`` (``Q``) and the conditional trade-off functions ``fs[x] = T(Y|X=x, Y'|X'=x)``.

    Vadhan-Zhang Claim 3.4: ``inf { sum_x Q(x) f_x(alpha_x) : sum_x P(x) alpha_x <= alpha }`` over
    ``x`` in both supports (an outcome only ``X'`` has is rejected at no cost, one only ``X`` has is
    never worth rejecting). The infimum of a sum of convex piecewise-linear functions under one
    budget is their infimal convolution: start from ``sum Q(x) f_x(0)`` and take the segments of the
    scaled ``f_x`` (``d alpha`` times ``P(x)``, ``d beta`` times ``Q(x)``) steepest first.

    Guarantee: exact. ``fs[x]`` may be None where ``P(x) = 0`` or ``Q(x) = 0`` (it is not used).

    Raises:
        InvalidArgument: P, Q not distributions on the same outcomes, ``fs`` of another length, or a
            missing ``f_x`` where both probabilities are positive.

    Examples:
        >>> rr = f_eps_delta(3, 0)
        >>> chain_rule(["3/4", "1/4"], ["1/4", "3/4"], [rr, rr]) == tensor(rr, rr)
        True
    """
    atoms = _atoms(P, Q)
    if len(fs) != len(atoms):
        raise InvalidArgument("fs", f"one trade-off function per outcome ({len(atoms)})", len(fs))
    beta0 = ZERO
    segs: list[tuple[Fraction, Fraction, Fraction]] = []  # (slope, d alpha, d beta)
    for i, ((p, q), f) in enumerate(zip(atoms, fs)):
        if p == 0 or q == 0:
            continue
        if not isinstance(f, Tradeoff):
            raise InvalidArgument(f"fs[{i}]", "a Tradeoff (both probabilities are positive)", f)
        beta0 += q * f.vertices[0][1]
        for da, db in f.segments():
            segs.append((q * db / (p * da), p * da, q * db))
    segs.sort(key=lambda s: s[0])
    pts = [(ZERO, beta0)]
    a, b = ZERO, beta0
    for _, da, db in segs:
        a, b = a + da, b + db
        pts.append((a, b))
    pts.append((ONE, ZERO))
    return Tradeoff(pts)


def _pair(f: Tradeoff) -> tuple[list[Fraction], list[Fraction]]:
    """A canonical pair ``(P, Q)`` with ``T(P, Q) = f``: one outcome per segment (P-mass d alpha,
    Q-mass -d beta) and one outcome only Q has (mass ``1 - f(0)``)."""
    P = [ZERO]
    Q = [1 - f.vertices[0][1]]
    for da, db in f.segments():
        P.append(da)
        Q.append(-db)
    return P, Q


@implements("Vadhan-Zhang Theorem 1.4")
def tensor(*fs: Tradeoff) -> Tradeoff:
    """``f_1 (x) ... (x) f_k``: the trade-off function of the composition of non-interactive
    mechanisms that are exactly ``f_i``-DP (the product of canonical pairs, Neyman-Pearson).
    By Vadhan-Zhang Theorem 1.4 it is also the guarantee of their concurrent composition.

    Guarantee: exact. Raises: InvalidArgument (no function).

    Examples:
        >>> tensor(f_eps_delta(2, 0), f_eps_delta(2, 0))
        Tradeoff([(0, 1), (1/9, 5/9), (5/9, 1/9), (1, 0)])
    """
    if not fs:
        raise InvalidArgument("fs", "at least one trade-off function", 0)
    P, Q = _pair(fs[0])
    for f in fs[1:]:
        P2, Q2 = _pair(f)
        P = [a * b for a in P for b in P2]
        Q = [a * b for a in Q for b in Q2]
    return tradeoff_of(P, Q)


@implements("Vadhan-Zhang Definition 1.8")
def f_eps_delta(exp_eps: object, delta: object) -> Tradeoff:
    """``f_{eps,delta}(a) = max{0, 1 - delta - e^eps a, e^-eps (1 - delta - a)}``: the trade-off
    function of (eps, delta)-DP (that of RR_(eps, delta)), at ``e^eps`` rational.

    Guarantee: exact. Raises: InvalidArgument (exp_eps < 1, delta outside [0, 1)).
    """
    from ..numbers import parse_delta, parse_exp_eps

    t, d = parse_exp_eps(exp_eps), parse_delta(delta)
    c = (1 - d) / (1 + t)
    return Tradeoff([(ZERO, 1 - d), (c, c), (1 - d, ZERO), (ONE, ZERO)])
