"""Certified Gaussian quantities (python-flint ``arb`` balls) for Smith-Thakurta.

Guarantee: enclosure. Every function returns an ``arb`` ball containing the exact value
at the working precision set by :func:`prec`; decisions go through :func:`decide`,
which refines the precision and raises :class:`Undecided` instead of guessing.

* ``Phi(x) = erfc(-x/sqrt 2)/2``, ``Phi_inv(p) = -sqrt 2 erfcinv(2p)``;
* ``G(mu, alpha) = Phi(Phi_inv(1 - alpha) - mu)``: the trade-off function of
  N(0,1) vs N(mu,1) (Dong, Roth, Su), the curve mu-GDP must stay above;
* ``delta_gdp(mu, eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)``: the
  (eps, delta) profile of mu-GDP (Dong, Roth, Su, Corollary 2.13);
* :func:`tradeoff_vertices` and :func:`check_gdp`: a finite pair (P, Q) is mu-GDP iff its
  trade-off curve stays above ``G_mu``; the curve is the lower convex envelope of the
  points (P(S), 1 - Q(S)) of the likelihood-ratio-ordered prefixes S, and since ``G_mu``
  is convex it suffices to check those vertices.
"""

from __future__ import annotations

import contextlib
import itertools
from fractions import Fraction as F
from typing import Callable, Iterator, Sequence

from flint import arb, ctx, fmpq

__all__ = ["Undecided", "prec", "A", "Phi", "Phi_inv", "G", "delta_gdp", "decide", "check_gdp", "hockey_stick",
           "PRECS", "Ball"]

#: Working precisions tried in turn (bits) before a comparison is reported undecided.
PRECS = (64, 128, 256, 1024)


class Undecided(Exception):
    """A comparison of balls straddles at the highest precision (reported, never guessed)."""


@contextlib.contextmanager
def prec(bits: int) -> Iterator[None]:
    old = ctx.prec
    ctx.prec = bits
    try:
        yield
    finally:
        ctx.prec = old


def A(x) -> arb:
    """Exact ball of a rational (Fraction / int) or an arb."""
    if isinstance(x, arb):
        return x
    x = F(x)
    return arb(fmpq(x.numerator, x.denominator))


class Ball:
    """A real number given by ``fn() -> arb`` at the working precision, cached per precision."""

    __slots__ = ("fn", "cache")

    def __init__(self, fn: Callable[[], arb]):
        self.fn = fn
        self.cache: dict = {}

    def __call__(self) -> arb:
        b = ctx.prec
        v = self.cache.get(b)
        if v is None:
            v = self.cache[b] = self.fn()
        return v


def Phi(x) -> arb:
    return (-A(x) / arb(2).sqrt()).erfc() / 2


def Phi_inv(p) -> arb:
    return -arb(2).sqrt() * (2 * A(p)).erfcinv()


def G(mu, alpha) -> arb:
    """Trade-off function of mu-GDP at alpha: Phi(Phi^{-1}(1 - alpha) - mu)."""
    return Phi(Phi_inv(1 - A(alpha)) - A(mu))


def delta_gdp(mu, eps) -> arb:
    mu, eps = A(mu), A(eps)
    return Phi(-eps / mu + mu / 2) - eps.exp() * Phi(-eps / mu - mu / 2)


def decide(fn: Callable[[], arb], what: str = "") -> bool:
    """True if fn() > 0, False if fn() < 0, refining the precision; raises Undecided otherwise."""
    for b in PRECS:
        with prec(b):
            v = fn()
            if v > 0:
                return True
            if v < 0:
                return False
    raise Undecided(f"sign undecided at {PRECS[-1]} bits: {what}")


def _groups(ratios: Sequence[tuple]) -> list[list[int]]:
    """Indices grouped by likelihood ratio, in decreasing order: groups are certified
    ordered; ratios inside a group could not be separated (exact ties or overlapping balls)."""
    order = sorted(range(len(ratios)), key=lambda i: ratios[i][0], reverse=True)
    groups: list[list[int]] = []
    lo_cur = None
    for i in order:
        lo, hi = ratios[i]
        if groups and not hi < lo_cur:  # overlaps the current group
            groups[-1].append(i)
            lo_cur = min(lo_cur, lo)
        else:
            groups.append([i])
            lo_cur = lo
    return groups


def tradeoff_vertices(P: Sequence, Q: Sequence) -> list[tuple[list[int], bool]]:
    """Candidate vertices of T(P, Q): rejection sets S (lists of outcome indices) that are
    prefixes in likelihood-ratio order Q/P, every order inside an unresolved group included.

    P, Q: probabilities as Fractions (exact order, ties exact) or callables prec -> arb
    (order certified from balls). Outcomes with P = Q = 0 exactly are dropped.
    Returns [(S, exact_tie_group)].
    """
    idx = [i for i in range(len(P)) if not (_is_exact_zero(P[i]) and _is_exact_zero(Q[i]))]
    if all(isinstance(P[i], F) and isinstance(Q[i], F) for i in idx):
        # exact: sort by Q/P (P = 0 first: infinite ratio), group exact ties
        def key(i):
            return (1, F(0)) if P[i] == 0 else (0, -Q[i] / P[i])
        srt = sorted(idx, key=key)
        groups = [list(g) for _, g in itertools.groupby(srt, key=key)]
        exact = True
    else:
        groups = None
        for b in PRECS:
            with prec(b):
                rs = []
                for i in idx:
                    p, q = _ball(P[i]), _ball(Q[i])
                    if not p > 0:
                        break
                    r = q / p
                    rs.append((r.lower(), r.upper()))
                else:
                    groups = [[idx[j] for j in g] for g in _groups(rs)]
                    if all(len(g) == 1 for g in groups):
                        break
        if groups is None:
            raise Undecided(f"an outcome with P(o) not certified > 0 at {PRECS[-1]} bits")
        exact = False
    out = []
    pre: list[int] = []
    for g in groups:
        if len(g) == 1 or exact:
            # exact ties: the points of the group's subsets are collinear, the group's end suffices
            out.append((pre + g, exact and len(g) > 1))
        else:
            if len(g) > 12:
                raise Undecided(f"{len(g)} outcomes with inseparable likelihood ratios")
            for r in range(1, len(g) + 1):
                for sub in itertools.combinations(g, r):
                    out.append((pre + list(sub), False))
        pre = pre + g
    return out


def _is_exact_zero(x) -> bool:
    return isinstance(x, (F, int)) and x == 0


def _ball(x) -> arb:
    return x() if callable(x) else A(x)


def check_gdp(mu, P: Sequence, Q: Sequence) -> tuple[bool, str]:
    """Is the pair (P, Q) = (M(D), M(D')) mu-GDP, i.e. T(P, Q)(alpha) >= G_mu(alpha) for all alpha?

    Decided at every vertex of the trade-off curve (certified); returns (ok, witness) where
    the witness names a violated vertex. The vertices S = {} and S = all outcomes give
    (0, 1) and (1, 0), on G_mu exactly, and are skipped.
    """
    n_all = sum(1 for i in range(len(P)) if not (_is_exact_zero(P[i]) and _is_exact_zero(Q[i])))
    for S, _ in tradeoff_vertices(P, Q):
        if not S or len(S) == n_all:
            continue
        if all(_is_exact_zero(P[i]) for i in S):
            # alpha = 0: needs Q(S) = 0
            if all(_is_exact_zero(Q[i]) for i in S):
                continue
            return False, f"S = {S}: P(S) = 0 < Q(S)"

        def margin(S=S):
            a = sum((_ball(P[i]) for i in S), arb(0))
            b = 1 - sum((_ball(Q[i]) for i in S), arb(0))
            return b - G(mu, a)

        if not decide(margin, f"vertex S = {S}"):
            with prec(64):
                a = sum((_ball(P[i]) for i in S), arb(0))
                b = 1 - sum((_ball(Q[i]) for i in S), arb(0))
                return False, f"S = {S}: alpha = {a.mid()}, beta = {b.mid()} < G_{mu}(alpha) = {G(mu, a).mid()}"
    return True, ""


def hockey_stick(P: Sequence, Q: Sequence, eps) -> arb:
    """Enclosure of sup_S Q(S) - e^eps P(S) = sum_o max(Q(o) - e^eps P(o), 0)."""
    t = A(eps).exp()
    return sum(((_ball(q) - t * _ball(p)).nonnegative_part() for p, q in zip(P, Q)), arb(0))
