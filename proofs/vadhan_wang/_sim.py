"""Simulating mechanisms by (interactive) post-processing of randomized response, exactly.

* :func:`thm52_T`: the interactive mechanism T of Theorem 5.2's proof, transcribed from
  Equations (6)-(9) as printed (conditionals, with the joint ``T-vec`` in the denominator).
* :func:`solve_T`: an independent construction for Theorem 1.5: for every query/answer
  path, solve the 2x2 system ``Pr[M(x_b, q) = a] = sum_c Pr[RR_eps(b) = c] T-vec_c(q, a)``
  (Definition 5's matrix, Gaussian elimination), then read T's conditionals off the joint.
* :func:`view_through_rr`: the view of a deterministic adversary with ``T(RR(b))`` (first
  RR's output c is drawn, then T(c) interacts), for comparison with the view with ``M(x_b)``.
* :func:`section6_mech`, :func:`section6_lp`, :func:`section6_verify`: the Section 6
  experiment: the 2-round mechanism ``M_p`` with 1-bit messages defined by 10 parameters,
  the LP for the post-processing ``T-vec`` of ``RR_(eps,delta)`` (solved by :mod:`._lp`), and
  the verification of the printed constraints (and of the views) in rationals.
* :func:`thm51_T`: the noninteractive post-processing of Theorem 5.1 by exact LP.

Guarantee: exact (Fractions).
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F
from typing import Dict, List, Optional, Sequence, Tuple

from . import _dp as D
from . import _interactive as I
from . import _lp

IAM0, IAM1 = D.IAM0, D.IAM1


# --------------------------------------------------------------------------
# Theorem 5.2's T, literally


def thm52_T(m: I.Mech, w: F, x0=0, x1=1) -> Tuple[I.Mech, int]:
    """T from Equations (6)-(9) (``w = e^eps > 1``). Returns (T, number of histories where the printed
    conditional is 0/0, i.e. its prefix has T-vec probability 0; there T answers like M(x_c), any choice works)."""
    w = F(w)
    cond: Dict[object, Dict[tuple, Dict]] = {0: {}, 1: {}}
    joint: Dict[Tuple[int, tuple], F] = {}
    undefined = 0
    xs = {0: (x0, x1), 1: (x1, x0)}

    def Tvec(c: int, h: tuple) -> F:
        """Pr[T-vec(c, q^(t-1)) = (a_0..a_{t-2})] as the product of the conditionals defined so far."""
        if not h:
            return F(1)
        return joint[(c, h)]

    for r in range(m.rounds):
        for h in m.histories(r):  # h = (q_0, a_0, ..., q_r): the queries q^(t) with t = r + 1
            prefix = h[:-1]
            for c in (0, 1):
                xa, xb = xs[c]
                if r == 0:  # Equations (6), (7)
                    dist = {a: (w * m.cond[xa][h].get(a, F(0)) - m.cond[xb][h].get(a, F(0))) / (w - 1)
                            for a in m.answers}
                else:  # Equations (8), (9)
                    den = (w - 1) * Tvec(c, prefix)
                    if den == 0:
                        undefined += 1
                        dist = dict(m.cond[xa][h])
                    else:
                        dist = {a: (w * m.path(xa, h + (a,)) - m.path(xb, h + (a,))) / den for a in m.answers}
                cond[c][h] = dist
                for a in m.answers:
                    joint[(c, h + (a,))] = Tvec(c, prefix) * dist[a]
    return I.Mech(m.queries, m.answers, cond, "T"), undefined


# --------------------------------------------------------------------------
# Theorem 1.5: an independent construction by solving linear systems


def _solve2(A: List[List[F]], b: List[F]) -> List[F]:
    """Gaussian elimination for a nonsingular 2x2 system."""
    (a, bb), (c, d) = A
    if a == 0:
        (a, bb), (c, d), b = (c, d), (a, bb), [b[1], b[0]]
    f = c / a
    d2, y2 = d - f * bb, b[1] - f * b[0]
    x2 = y2 / d2
    return [(b[0] - bb * x2) / a, x2]


def solve_T(m: I.Mech, w: F, x0=0, x1=1) -> Optional[I.Mech]:
    """The T of Theorem 1.5 for ``eps = ln w > 0`` obtained by solving, for every path, the system
    ``M-vec(x_b) = sum_c RR_eps(b)(c) T-vec_c`` (Definition 5); None if T-vec has a negative entry."""
    R0, R1 = D.rr_eps(w)
    A = [[R0[0], R0[1]], [R1[0], R1[1]]]
    Tv: Dict[Tuple[int, tuple], F] = {}

    def tvec(c: int, h: tuple) -> F:
        if (c, h) not in Tv:
            sol = _solve2(A, [m.path(x0, h), m.path(x1, h)])
            Tv[(0, h)], Tv[(1, h)] = sol
        return Tv[(c, h)]

    cond: Dict[object, Dict[tuple, Dict]] = {0: {}, 1: {}}
    for r in range(m.rounds):
        for h in m.histories(r):
            for c in (0, 1):
                base = tvec(c, h[:-1])
                vals = {a: tvec(c, h + (a,)) for a in m.answers}
                if base < 0 or any(v < 0 for v in vals.values()):
                    return None
                cond[c][h] = {a: v / base for a, v in vals.items()} if base else dict(m.cond[(x0, x1)[c]][h])
    return I.Mech(m.queries, m.answers, cond, "T")


def is_valid_mech(m: I.Mech) -> bool:
    """Every conditional is a probability distribution on the answers."""
    for x in m.cond:
        for r in range(m.rounds):
            for h in m.histories(r):
                d = m.cond[x][h]
                if any(v < 0 for v in d.values()) or sum(d.values()) != 1 or set(d) - set(m.answers):
                    return False
    return True


def view_through_rr(T: I.Mech, rr_b: D.Dist, adv) -> Dict[tuple, F]:
    """View of deterministic ``adv`` with T(RR(b)): c ~ RR(b) (``rr_b``), then T(c) answers the queries."""
    out: Dict[tuple, F] = {}
    for c, pc in rr_b.items():
        if pc:
            for v, pv in I.single_view(T, c, adv).items():
                out[v] = out.get(v, F(0)) + pc * pv
    return {v: p for v, p in out.items() if p}


def nonzero(P: D.Dist) -> D.Dist:
    return {k: v for k, v in P.items() if v}


# --------------------------------------------------------------------------
# Theorem 5.1 (noninteractive) by exact LP


def thm51_T(P: D.Dist, Q: D.Dist, w: F, delta: F) -> Tuple[Optional[Dict[object, D.Dist]], F]:
    """A randomized map T (c -> distribution on the outputs) with T(RR_(eps,delta)(0)) = P and
    T(RR_(eps,delta)(1)) = Q, found by exact LP; (None, phase-1 optimum) if there is none.

    Search formulation: unknowns T(0, .), T(1, .) >= 0 with mass 1 and
    ``(1-delta)/(1+w) (w T(0,.) + T(1,.)) <= P``, ``(1-delta)/(1+w) (T(0,.) + w T(1,.)) <= Q``; then
    ``T('Iam0', .)``, ``T('Iam1', .)`` are the normalised remainders."""
    ys = sorted(set(P) | set(Q), key=repr)
    n = len(ys)
    w, delta = F(w), F(delta)
    a = (1 - delta) / (1 + w)
    A_ub, b_ub = [], []
    for i, y in enumerate(ys):
        r = [F(0)] * (2 * n)
        r[i], r[n + i] = a * w, a
        A_ub.append(r)
        b_ub.append(P.get(y, F(0)))
        r = [F(0)] * (2 * n)
        r[i], r[n + i] = a, a * w
        A_ub.append(r)
        b_ub.append(Q.get(y, F(0)))
    A_eq = [[F(1)] * n + [F(0)] * n, [F(0)] * n + [F(1)] * n]
    x, opt = _lp.feasible(2 * n, A_eq, [F(1), F(1)], A_ub, b_ub)
    if x is None:
        return None, opt
    T0 = dict(zip(ys, x[:n]))
    T1 = dict(zip(ys, x[n:]))
    if delta:
        I0 = {y: (P.get(y, F(0)) - a * (w * T0[y] + T1[y])) / delta for y in ys}
        I1 = {y: (Q.get(y, F(0)) - a * (T0[y] + w * T1[y])) / delta for y in ys}
    else:
        I0, I1 = dict(P), dict(Q)
    return {0: T0, 1: T1, IAM0: I0, IAM1: I1}, F(0)


# --------------------------------------------------------------------------
# Section 6


def section6_mech(p: Sequence[F]) -> I.Mech:
    """M_p from the 10 parameters p = (p_0, p_00, p_01, p_10, p_11, p'_0, p'_00, p'_01, p'_10, p'_11) as printed:
    p_0 = Pr[M_p(0) = 0] (the first answer a_0, no query), p_ij = Pr[M_p(0, j) = (i, 0)] (query q_1 = j, answers
    (a_0, a_1) = (i, 0)); primes for input 1. Needs p_ij <= Pr[a_0 = i]."""
    cond: Dict[object, Dict[tuple, Dict]] = {}
    for x, (p0, p00, p01, p10, p11) in ((0, p[:5]), (1, p[5:])):
        pa0 = {0: F(p0), 1: 1 - F(p0)}
        pij = {(0, 0): p00, (0, 1): p01, (1, 0): p10, (1, 1): p11}
        c: Dict[tuple, Dict] = {(None,): dict(pa0)}
        for a0 in (0, 1):
            for j in (0, 1):
                if pa0[a0]:
                    z = F(pij[(a0, j)]) / pa0[a0]
                else:
                    z = F(1, 2)  # never reached
                c[(None, a0, j)] = {0: z, 1: 1 - z}
        cond[x] = c
    return I.Mech([(None,), (0, 1)], (0, 1), cond, "M_p")


def section6_joint(m: I.Mech, x, q: int, a0: int, a1: int) -> F:
    """Pr[M-vec(x, q) = (a_0, a_1)] for the query q = (q_1)."""
    return m.path(x, (None, a0, q, a1))


def rand_section6_params(rng, den: int = 12) -> List[F]:
    """Random valid parameters: p_0 uniform on the grid {0, 1/den, ..., 1}, p_ij = Pr[a_0 = i] u with u on the grid."""
    p = []
    for _ in range(2):
        p0 = F(rng.randint(0, den), den)
        pa = {0: p0, 1: 1 - p0}
        p.append(p0)
        for i in (0, 1):
            for _j in (0, 1):
                p.append(pa[i] * F(rng.randint(0, den), den))
    return p


def section6_lp(m: I.Mech, w: F, delta: F) -> Tuple[Optional[Dict[Tuple, F]], F]:
    """Search T-vec(c, q, a_0, a_1) for c in {0, 1, Iam0, Iam1} (exact LP, reduced to T(0), T(1));
    returns (T-vec as a dict keyed (c, q, a0, a1), phase-1 optimum)."""
    w, delta = F(w), F(delta)
    al = (1 - delta) / (1 + w)
    keys = [(q, a0, a1) for q in (0, 1) for a0 in (0, 1) for a1 in (0, 1)]
    n = len(keys)
    idx = {(c,) + k: c * n + i for c in (0, 1) for i, k in enumerate(keys)}
    A_ub, b_ub, A_eq, b_eq = [], [], [], []
    for k in keys:
        r = [F(0)] * (2 * n)
        r[idx[(0,) + k]], r[idx[(1,) + k]] = al * w, al
        A_ub.append(r)
        b_ub.append(section6_joint(m, 0, *k))
        r = [F(0)] * (2 * n)
        r[idx[(0,) + k]], r[idx[(1,) + k]] = al, al * w
        A_ub.append(r)
        b_ub.append(section6_joint(m, 1, *k))
    for c in (0, 1):
        r = [F(0)] * (2 * n)
        for a0 in (0, 1):
            for a1 in (0, 1):
                r[idx[(c, 0, a0, a1)]] = F(1)
        A_eq.append(r)
        b_eq.append(F(1))
        for a0 in (0, 1):
            r = [F(0)] * (2 * n)
            for a1 in (0, 1):
                r[idx[(c, 0, a0, a1)]] += 1
                r[idx[(c, 1, a0, a1)]] -= 1
            A_eq.append(r)
            b_eq.append(F(0))
    x, opt = _lp.feasible(2 * n, A_eq, b_eq, A_ub, b_ub)
    if x is None:
        return None, opt
    T: Dict[Tuple, F] = {}
    for (c, q, a0, a1), i in idx.items():
        T[(c, q, a0, a1)] = x[i]
    for (q, a0, a1) in keys:
        if delta:
            T[(IAM0, q, a0, a1)] = (section6_joint(m, 0, q, a0, a1) - al * (w * T[(0, q, a0, a1)] + T[(1, q, a0, a1)])) / delta
            T[(IAM1, q, a0, a1)] = (section6_joint(m, 1, q, a0, a1) - al * (T[(0, q, a0, a1)] + w * T[(1, q, a0, a1)])) / delta
        else:
            T[(IAM0, q, a0, a1)] = section6_joint(m, 0, q, a0, a1)
            T[(IAM1, q, a0, a1)] = section6_joint(m, 1, q, a0, a1)
    return T, F(0)


def section6_verify(m: I.Mech, w: F, delta: F, T: Dict[Tuple, F]) -> Optional[str]:
    """The printed constraints of Section 6, checked in rationals; None if all hold, else the first failure."""
    w, delta = F(w), F(delta)
    cs = (0, 1, IAM0, IAM1)
    for q in (0, 1):
        for a0 in (0, 1):
            for a1 in (0, 1):
                lhs0 = section6_joint(m, 0, q, a0, a1)
                rhs0 = (delta * T[(IAM0, q, a0, a1)] + (1 - delta) * w / (w + 1) * T[(0, q, a0, a1)]
                        + (1 - delta) / (w + 1) * T[(1, q, a0, a1)])
                lhs1 = section6_joint(m, 1, q, a0, a1)
                rhs1 = ((1 - delta) / (w + 1) * T[(0, q, a0, a1)] + (1 - delta) * w / (w + 1) * T[(1, q, a0, a1)]
                        + delta * T[(IAM1, q, a0, a1)])
                if lhs0 != rhs0 or lhs1 != rhs1:
                    return f"matching equations fail at q={q}, (a0,a1)=({a0},{a1})"
    for c in cs:
        for key in itertools.product((0, 1), repeat=3):
            if T[(c,) + key] < 0:
                return f"negative T({c}, {key})"
        for A in itertools.product((0, 1), repeat=2):  # every adversary A: a_0 -> q_1
            if sum(T[(c, A[a0], a0, a1)] for a0 in (0, 1) for a1 in (0, 1)) != 1:
                return f"normalisation fails for c={c}, A={A}"
        for a0 in (0, 1):
            if sum(T[(c, 0, a0, a1)] for a1 in (0, 1)) != sum(T[(c, 1, a0, a1)] for a1 in (0, 1)):
                return f"first answer depends on the future query for c={c}, a0={a0}"
    return None


def section6_T_mech(T: Dict[Tuple, F]) -> I.Mech:
    """The interactive mechanism with inputs c in {0, 1, Iam0, Iam1} whose joint is T-vec."""
    cond: Dict[object, Dict[tuple, Dict]] = {}
    for c in (0, 1, IAM0, IAM1):
        pa0 = {a0: sum(T[(c, 0, a0, a1)] for a1 in (0, 1)) for a0 in (0, 1)}
        cc: Dict[tuple, Dict] = {(None,): dict(pa0)}
        for a0 in (0, 1):
            for q in (0, 1):
                if pa0[a0]:
                    cc[(None, a0, q)] = {a1: T[(c, q, a0, a1)] / pa0[a0] for a1 in (0, 1)}
                else:
                    cc[(None, a0, q)] = {0: F(1, 2), 1: F(1, 2)}
        cond[c] = cc
    return I.Mech([(None,), (0, 1)], (0, 1), cond, "T")
