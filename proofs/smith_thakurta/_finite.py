"""Finite-output GDP mechanisms, the GDP filter, and every deterministic adaptive adversary.

Guarantee: the transcript distributions are exact (Fractions) for table mechanisms and
certified (callables returning ``arb`` balls at the working precision) for quantised
Gaussians.

* :class:`Mech`: a mechanism M_i with its declared GDP parameter mu_i. ``gauss`` mechanisms
  are F(b mu + Z) for a deterministic quantiser F (thresholds t_1 < ... < t_{K-1}), mu-GDP
  by the very definition (Smith-Thakurta, p. 1: M(D) ~ F(Z), M(D') ~ F(mu + Z)); ``table``
  mechanisms are arbitrary finite pairs (P, Q) whose declared mu is certified separately
  (:func:`certify`).
* :func:`filter_accepts`: the curator's rule, "answer while sum_i mu_i^2 <= mu_0^2", on
  squared budgets (exact rationals).
* :func:`adversaries`: the transcript distributions (P_0, P_1) of M_0 run with the filter
  against every deterministic adaptive adversary of the given depth over a menu: in each
  round the adversary picks a menu item as a function of the transcript so far; a refused
  query yields the symbol ``refused`` with probability 1 under both data sets.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction as F
from typing import Callable, Sequence, Union

from flint import arb

from ._gauss import A, Ball, Phi, check_gdp, decide

__all__ = ["Mech", "gauss", "table", "rr", "certify", "filter_accepts", "adversaries"]

Prob = Union[F, Callable[[], arb]]


@dataclass(frozen=True)
class Mech:
    name: str
    mu: F                      # declared GDP parameter
    thresholds: tuple = ()     # gauss: quantiser F(x) = #{t_k < x}
    P: tuple = ()              # table: M(D)
    Q: tuple = ()              # table: M(D')
    exp_eps: F = None          # randomized response: e^eps

    @property
    def mu2(self) -> F:
        return self.mu * self.mu

    def probs(self, b: int) -> list:
        """The output distribution on data set b (0: D, 1: D')."""
        if not self.thresholds:
            return list(self.P if b == 0 else self.Q)
        ts = (None,) + tuple(self.thresholds) + (None,)
        out = []
        for lo, hi in zip(ts, ts[1:]):
            out.append(_interval(lo, hi, F(b) * self.mu))
        return out


def _interval(lo, hi, shift) -> Prob:
    """P[lo < shift + Z <= hi] as a callable ball."""
    def f():
        if lo is not None and lo > shift:
            # upper tail: Phi(shift - lo) - Phi(shift - hi), no cancellation against 1
            a = arb(0) if hi is None else Phi(A(shift) - A(hi))
            return Phi(A(shift) - A(lo)) - a
        a = arb(0) if lo is None else Phi(A(lo) - A(shift))
        c = arb(1) if hi is None else Phi(A(hi) - A(shift))
        return c - a
    return Ball(f)


def gauss(mu, *thresholds) -> Mech:
    mu = F(mu)
    ts = tuple(F(t) for t in thresholds)
    return Mech(f"gauss(mu={mu}, t={','.join(map(str, ts))})", mu, ts)


def table(name: str, mu, P: Sequence, Q: Sequence) -> Mech:
    return Mech(name, F(mu), (), tuple(F(x) for x in P), tuple(F(x) for x in Q))


def rr(exp_eps, mu) -> Mech:
    """Randomized response with e^eps = exp_eps (rational): reports b correctly w.p. e^eps/(1+e^eps)."""
    w = F(exp_eps)
    p = 1 / (1 + w)
    return Mech(f"rr(e^eps={w}, mu={F(mu)})", F(mu), (), (1 - p, p), (p, 1 - p), w)


def certify(m: Mech) -> tuple[bool, str]:
    """Is the table mechanism m mu-GDP (certified)?

    Randomized response: its only non-trivial trade-off vertex is (p, p), p = 1/(1 + e^eps), and
    G_mu (convex, symmetric) crosses the diagonal at Phi(-mu/2); so rr is mu-GDP iff
    Phi(mu/2) >= e^eps/(1 + e^eps) (decided strictly, a closed form independent of G). Other
    tables: every vertex of the trade-off curve against G_mu."""
    if m.thresholds:
        return True, "F(b mu + Z) by construction"
    if m.exp_eps is not None:
        w = m.exp_eps
        ok = decide(lambda: Phi(A(m.mu) / 2) - A(w / (1 + w)), f"{m.name}")
        return ok, "" if ok else f"Phi(mu/2) < e^eps/(1 + e^eps) for {m.name}"
    return check_gdp(m.mu, list(m.P), list(m.Q))


def filter_accepts(spent2: F, mu2: F, mu0: F) -> bool:
    """The curator answers a query of squared budget mu2 iff the running sum stays <= mu_0^2."""
    return spent2 + mu2 <= mu0 * mu0


def _mul(a: Prob, b: Prob) -> Prob:
    if isinstance(a, F) and isinstance(b, F):
        return a * b
    fa = a if callable(a) else Ball(lambda a=a: A(a))
    fb = b if callable(b) else Ball(lambda b=b: A(b))
    return Ball(lambda: fa() * fb())


def adversaries(menu: Sequence[Mech], depth: int, mu0: F,
                accepts: Callable[[F, F, F], bool] = None) -> list[tuple[str, list, list]]:
    """(description, P_0, P_1) for every deterministic adversary of ``depth`` rounds over ``menu``,
    against M_0 with the filter ``accepts`` (default :func:`filter_accepts`)."""
    acc = accepts or filter_accepts
    memo: dict = {}

    def rec(d: int, spent2: F) -> list:
        key = (d, spent2)
        if key in memo:
            return memo[key]
        if d == 0:
            memo[key] = [("", [F(1)], [F(1)])]
            return memo[key]
        out = []
        for q in menu:
            if acc(spent2, q.mu2, mu0):
                branches = list(zip(q.probs(0), q.probs(1)))
                sp = spent2 + q.mu2
                desc = q.name
            else:
                branches = [(F(1), F(1))]
                sp = spent2
                desc = f"{q.name}: refused"
            subs = rec(d - 1, sp)
            for choice in itertools.product(subs, repeat=len(branches)):
                P0, P1, ds = [], [], []
                for (a0, a1), (sd, s0, s1) in zip(branches, choice):
                    P0 += [_mul(a0, x) for x in s0]
                    P1 += [_mul(a1, x) for x in s1]
                    ds.append(sd)
                sub = "; ".join(f"[{k}] {s}" for k, s in enumerate(ds) if s)
                out.append((desc + (" -> " + sub if sub else ""), P0, P1))
        memo[key] = out
        return out

    return rec(depth, F(0))
