"""Kernels for the sum of Murtagh-Vadhan Theorem 1.5 in exp-space.

For ``w_i = e^{eps_i}``, ``W = prod w_i`` and ``t = e^{eps_g}``::

    S(t) = sum over S subset of [k] of max(W_S - t * W_{not S}, 0)

Every structure below computes ``S(t)`` and the magnitude of its right
derivative ``sigma(t) = sum over {W_S > t W_notS} of W_notS`` in any
:mod:`~exactdp.optcomp.fields` field. ``S`` is convex, piecewise linear and
decreasing in ``t`` with breakpoints ``W_S^2 / W``.

Methods (``docs/engines.md``):

``homogeneous``  all ``w_i`` equal: ``sum_m C(k,m) max(w^m - t w^(k-m), 0)``
                 (Kairouz-Oh-Viswanath; Murtagh-Vadhan Theorem 1.4).
``lattice``      ``w_i = u^(a_i)``: count polynomial ``prod (1 + z^(a_i))`` (FLINT
                 ``fmpz_poly``, product tree), then two polynomial evaluations.
``grouped``      few distinct values ``v_j`` with multiplicities ``n_j``: a sum
                 over ``prod (n_j + 1)`` classes with multinomial counts.
``brute``        every subset (the grouped kernel with one group per mechanism).
``mitm``         meet in the middle: subset products of two halves, one half
                 sorted, suffix sums; ``O(k 2^(k/2))``.

Sign decisions inside ``max(., 0)`` are rigorous: a ball that straddles 0 is
decided exactly from the symbolic description of the term
(:func:`~exactdp.numbers.log_sign_of_product`); only when that is impossible (a
:class:`~exactdp.numbers.Computable` input) is ``max(x, 0)`` enclosed instead.
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import product as iproduct
from math import comb
from typing import Callable, Optional, Sequence

import numpy as np

from .._backend import fmpz_poly, mpq
from ..errors import CostTooHigh, InvalidArgument
from ..numbers import ExpNum, RatExp, Root, log_sign_of_product
from .fields import ExactField, Field

__all__ = ["Structure", "Lattice", "Grouped", "MITM", "choose_structure", "METHODS", "detect_lattice"]

METHODS = ("auto", "homogeneous", "lattice", "grouped", "mitm", "brute")

#: Explicit requests above these sizes are refused (CostTooHigh) with the estimate.
MAX_BRUTE_K = 26
MAX_MITM_K = 50
MAX_LATTICE_A = 20_000_000
#: auto never picks a method whose estimated cost per evaluation exceeds this.
MAX_AUTO_COST = 2 ** 31
#: The exact count polynomial's coefficients (A + 1 integers of up to about k bits
#: each: binomials for the homogeneous case) are refused beyond this many bits (2 GiB).
MAX_LATTICE_BITS = 2 ** 34


def _lattice_bits(A: int, a: Sequence[int]) -> float:
    """Estimated size in bits of the coefficients of ``prod (1 + z^{a_i})``: at most
    ``A + 1`` coefficients, each at most ``2^(number of a_i)``."""
    return float(A + 1) * max(1, len(a))


def _lattice_refusal(A: int, a: Sequence[int]) -> Optional[str]:
    bits = _lattice_bits(A, a)
    if bits <= MAX_LATTICE_BITS:
        return None
    return (f"the exact count polynomial would hold {A + 1} coefficients of up to {len(a)} bits "
            f"(about {_fmt(bits / 8 / 2 ** 30)} GiB; limit {MAX_LATTICE_BITS // 8 // 2 ** 30} GiB)")


class Structure:
    """A way to evaluate ``S(t)``; subclasses are immutable after construction."""

    method = "abstract"

    def cost(self) -> float:
        raise NotImplementedError

    def evaluate(self, field: Field, t_num: ExpNum, t=None):
        """Return ``(S(t), sigma(t))`` in ``field``; ``t`` is ``field.embed(t_num)``."""
        raise NotImplementedError

    def approx_log_S(self, lnt: float) -> float:
        """``log S(e^lnt)`` approximately (``-inf`` for 0). Guarantee: approximate."""
        from .._backend import workprec
        from .fields import ArbField

        f = ArbField(96)
        with workprec(96):
            s, _ = self.evaluate(f, _ApproxExp(lnt))
            v = float(s.mid())
        return math.log(v) if v > 0 else float("-inf")


class _ApproxExp(ExpNum):
    """``e^x`` for a float x (only for approximate search phases)."""

    __slots__ = ("x",)
    approximate = True

    def __init__(self, x: float):
        self.x = x

    def arb(self, prec):
        from .._backend import arb as _arb, workprec

        with workprec(prec):
            return _arb(self.x).exp()

    def flog(self) -> float:
        return self.x


# --------------------------------------------------------------------------
# lattice (and homogeneous)


class Lattice(Structure):
    """``w_i = u^(a_i)``: classes ``m = 0..A`` with count ``c_m``, ``W_S = u^m``.

    ``coeffs[m]`` is the number of subsets ``S`` with ``sum_{i in S} a_i = m``
    (the coefficients of ``prod (1 + z^(a_i))``).
    """

    def __init__(self, u: ExpNum, coeffs: Sequence[int], method: str = "lattice"):
        self.u = u
        self.coeffs = [int(c) for c in coeffs]
        self.A = len(self.coeffs) - 1
        self.method = method
        self._lu = u.flog()
        self._logc = None

    @classmethod
    def from_exponents(cls, u: ExpNum, a: Sequence[int], method: str = "lattice") -> "Lattice":
        a = [int(x) for x in a]
        if len(set(a)) == 1:
            poly = fmpz_poly([1] + [0] * (a[0] - 1) + [1]) ** len(a) if a[0] > 0 else fmpz_poly([2 ** len(a)])
        else:
            polys = [fmpz_poly([1] + [0] * (x - 1) + [1]) if x > 0 else fmpz_poly([2]) for x in a]
            while len(polys) > 1:  # product tree
                polys = [polys[i] * polys[i + 1] if i + 1 < len(polys) else polys[i] for i in range(0, len(polys), 2)]
            poly = polys[0]
        coeffs = [int(c) for c in poly.coeffs()]
        return cls(u, coeffs, method)

    def cost(self) -> float:
        return float(self.A + 1)

    def approx_log_S(self, lnt: float) -> float:
        # log-space, vectorised: S = sum_{m: (2m-A) lu > lnt} c_m u^m (1 - t u^{A-2m})
        if self._logc is None:
            self._logc = np.array([_log_int(c) for c in self.coeffs])
        m = np.arange(self.A + 1, dtype=float)
        expo = lnt - (2 * m - self.A) * self._lu
        mask = (expo < 0) & np.isfinite(self._logc)
        if not mask.any():
            return float("-inf")
        x = self._logc[mask] + m[mask] * self._lu + np.log(-np.expm1(expo[mask]))
        mx = float(x.max())
        return mx + math.log(float(np.exp(x - mx).sum()))

    def _class_sign(self, m: int, t_num: ExpNum) -> Optional[int]:
        # sign of log(u^(2m - A) / t)
        return log_sign_of_product([(self.u, 2 * m - self.A), (t_num, -1)])

    def evaluate(self, field: Field, t_num: ExpNum, t=None):
        if t is None:
            t = field.embed(t_num)
        A, c = self.A, self.coeffs
        u = field.embed(self.u)
        zero = field.rational(Fraction(0))
        if A == 0 or self.u.is_one():
            # u = 1: every class has W_S = W_notS = 1, so S = Z (1 - t)_+ with Z = sum c_m;
            # the sign is that of log(1/t), decided exactly when t allows it.
            Z = field.rational(Fraction(sum(c)))
            one = field.rational(Fraction(1))
            sg = log_sign_of_product([(t_num, -1)])
            if sg is None:
                return field.pos(Z * (one - t)), zero
            if sg > 0:
                return Z * (one - t), Z
            return zero, zero
        # locate the threshold: class m is positive iff (2m - A) log u > log t
        guess = (A + t_num.flog() / self._lu) / 2 if self._lu > 0 else A + 1
        m = min(max(int(math.floor(guess)), 0), A + 1)
        # walk to the first certainly-positive class m_hi; collect undecided ones
        undecided: list[int] = []

        def sg(mm: int) -> Optional[int]:
            return self._class_sign(mm, t_num)

        if m <= A and sg(m) == 1:
            while m - 1 >= 0 and sg(m - 1) == 1:
                m -= 1
        else:
            while m <= A:
                s_m = sg(m)
                if s_m == 1:
                    break
                if s_m is None:
                    undecided.append(m)
                m += 1
        m_hi = m
        # classes just below m_hi that are undecided (Computable t) are enclosed with pos()
        mm = m_hi - 1
        while mm >= 0 and mm not in undecided and sg(mm) is None:
            undecided.append(mm)
            mm -= 1
        tail = c[m_hi:]
        if tail:
            s1 = field.polyval(tail, u)
            if m_hi:
                s1 = s1 * _power(field, u, m_hi)
            s2 = field.polyval(tail[::-1], u)
            s = s1 - t * s2
            sig = s2
        else:
            s = zero
            sig = zero
        for mm in undecided:
            if c[mm]:
                term = c[mm] * (_power(field, u, mm) - t * _power(field, u, A - mm))
                s += field.pos(term)
        return s, sig


def _log_int(c: int) -> float:
    return math.log(c) if c > 0 else float("-inf")


def _power(field: Field, x, n: int):
    if n == 0:
        return field.rational(Fraction(1))
    if isinstance(field, ExactField):
        return x ** n
    return x ** n


# --------------------------------------------------------------------------
# grouped multiset (and brute force)


class Grouped(Structure):
    """Distinct values ``v_j`` with multiplicities ``n_j``; classes ``(m_1..m_g)``.

    With every ``n_j = 1`` (no grouping) this is the brute-force sum over all
    ``2^k`` subsets, the reference implementation of Theorem 1.5.
    """

    def __init__(self, groups: Sequence[tuple[ExpNum, int]], method: str = "grouped"):
        self.groups = [(v, int(n)) for v, n in groups]
        self.method = method
        self._cache: dict = {}

    def cost(self) -> float:
        n = 1.0
        for _, nj in self.groups:
            n *= nj + 1
        return n * max(1, len(self.groups))

    def _classes(self, field: Field):
        key = (field.name, getattr(field, "prec", None))
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        one = field.rational(Fraction(1))
        # entries: (count, W_S, W_notS, exponent vector)
        entries = [(1, one, one, ())]
        for v, n in self.groups:
            x = field.embed(v)
            pw = [one]
            for _ in range(n):
                pw.append(pw[-1] * x)
            new = []
            for cnt, ws, wn, ex in entries:
                for mj in range(n + 1):
                    new.append((cnt * comb(n, mj), ws * pw[mj], wn * pw[n - mj], ex + (mj,)))
            entries = new
        self._cache = {key: entries}
        return entries

    def evaluate(self, field: Field, t_num: ExpNum, t=None):
        if t is None:
            t = field.embed(t_num)
        zero = field.rational(Fraction(0))
        s = zero
        sig = zero
        for cnt, ws, wn, ex in self._classes(field):
            d = ws - t * wn
            sgn = field.sign(d)
            if sgn is None:
                facs = [(v, 2 * mj - n) for (v, n), mj in zip(self.groups, ex)]
                facs.append((t_num, -1))
                sgn = log_sign_of_product(facs)
            if sgn is None:
                s += cnt * field.pos(d)
            elif sgn > 0:
                s += cnt * d
                sig += cnt * wn
        return s, sig


# --------------------------------------------------------------------------
# meet in the middle


class MITM(Structure):
    """Meet in the middle over two halves ``L``, ``R`` of the mechanisms.

    For a subset ``S = A u B`` (``A`` in L, ``B`` in R) the term is positive iff
    ``d_A + d_B > log t`` where ``d_X = log W_X - log W_{notX}``. ``R`` is sorted
    by a float key of ``d_B``; for each ``A``, classes far from the threshold
    (beyond a margin ``mu`` a million times the worst-case float error of the
    keys) are classified by the keys, the few inside the margin by the field's
    own sign test and, if a ball straddles 0, by an exact symbolic decision.
    Suffix sums of ``W_B`` and ``W_notB`` over the sorted ``R`` give each ``A``'s
    contribution in O(1).
    """

    method = "mitm"

    def __init__(self, ws: Sequence[ExpNum]):
        self.ws = list(ws)
        k = len(self.ws)
        self.k = k
        half = k // 2
        self.L = self.ws[:half]
        self.R = self.ws[half:]
        self._cache: dict = {}
        lw = [x.flog() for x in self.ws]
        self._lw = lw
        self._abs_sum = math.fsum(abs(v) for v in lw)
        # Exact integer keys when every eps_i is a rational eps (w_i = e^{r_i}):
        # d_X = (sum_X n_i - sum_notX n_i) / L with n_i = r_i L integers.
        self._L: Optional[int] = None
        if all(isinstance(x, RatExp) and x.q == 1 for x in self.ws):
            L = 1
            for x in self.ws:
                L = L * x.r.denominator // math.gcd(L, x.r.denominator)
            n = [int(x.r * L) for x in self.ws]
            if 2 * sum(n) < 2 ** 62:
                self._L = L
                self._il = self._int_keys(n[:half])
                self._ir = self._int_keys(n[half:])
        if self._L is not None:
            self._order_r = np.argsort(self._ir, kind="stable")
            self._ir_sorted = self._ir[self._order_r]
            step = 1.0 / self._L
            self._fl = self._il.astype(float) * step
            self._fr = self._ir.astype(float) * step
            self._fr_sorted = self._ir_sorted.astype(float) * step  # monotone in the integer order
        else:
            self._fl = self._float_keys(lw[:half])
            self._fr = self._float_keys(lw[half:])
            self._order_r = np.argsort(self._fr, kind="stable")
            self._fr_sorted = self._fr[self._order_r]

    @staticmethod
    def _int_keys(n: Sequence[int]) -> np.ndarray:
        d = np.array([-sum(n)], dtype=np.int64)
        for v in n:
            d = np.concatenate([d, d + 2 * v])
        return d

    @staticmethod
    def _float_keys(lw: Sequence[float]) -> np.ndarray:
        # d_X = sum_{i in X} l_i - sum_{i not in X} l_i for all masks X (bit i = element i)
        d = np.array([-math.fsum(lw)])
        for l in lw:
            d = np.concatenate([d, d + 2 * l])
        return d

    def cost(self) -> float:
        return float(2 ** len(self.L) + 2 ** len(self.R)) * max(1, self.k)

    def _margin(self, lnt: float) -> float:
        return 1e-9 * (1.0 + self._abs_sum + abs(lnt))

    def _half_values(self, field: Field, xs: Sequence[ExpNum]):
        one = field.rational(Fraction(1))
        ws = [one]
        wn = [one]
        for x in xs:
            e = field.embed(x)
            ws, wn = ws + [v * e for v in ws], [v * e for v in wn] + wn
        return ws, wn

    def _prepared(self, field: Field):
        key = (field.name, getattr(field, "prec", None))
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        la, lna = self._half_values(field, self.L)
        rb, rnb = self._half_values(field, self.R)
        order = self._order_r
        rb = [rb[i] for i in order]
        rnb = [rnb[i] for i in order]
        zero = field.rational(Fraction(0))
        n = len(rb)
        suf_b = [zero] * (n + 1)
        suf_nb = [zero] * (n + 1)
        acc_b = zero
        acc_nb = zero
        for i in range(n - 1, -1, -1):
            acc_b = acc_b + rb[i]
            acc_nb = acc_nb + rnb[i]
            suf_b[i] = acc_b
            suf_nb[i] = acc_nb
        prep = (la, lna, rb, rnb, suf_b, suf_nb)
        self._cache = {key: prep}
        return prep

    def _symbolic_sign(self, a_mask: int, b_pos: int, t_num: ExpNum) -> Optional[int]:
        b_mask = int(self._order_r[b_pos])
        facs = []
        for i, x in enumerate(self.L):
            facs.append((x, 1 if (a_mask >> i) & 1 else -1))
        for i, x in enumerate(self.R):
            facs.append((x, 1 if (b_mask >> i) & 1 else -1))
        facs.append((t_num, -1))
        return log_sign_of_product(facs)

    def evaluate(self, field: Field, t_num: ExpNum, t=None):
        if t is None:
            t = field.embed(t_num)
        la, lna, rb, rnb, suf_b, suf_nb = self._prepared(field)
        lnt = t_num.flog()
        if self._L is not None and isinstance(t_num, RatExp) and t_num.q == 1:
            # exact: positive iff n_A + n_B > t.r * L  iff  n_A + n_B > floor(t.r * L)
            tl = t_num.r * self._L
            T = tl.numerator // tl.denominator
            hi = np.searchsorted(self._ir_sorted, T - self._il, side="right")
            lo = hi
        else:
            mu = self._margin(lnt)
            theta = lnt - self._fl  # B positive iff d_B > theta_A
            hi = np.searchsorted(self._fr_sorted, theta + mu, side="right")
            lo = np.searchsorted(self._fr_sorted, theta - mu, side="left")
        zero = field.rational(Fraction(0))
        n = len(rb)
        g1 = {}
        g2 = {}
        s_band = zero
        sig_band = zero
        hi_l = hi.tolist()
        lo_l = lo.tolist()
        for a in range(len(la)):
            h = hi_l[a]
            if h < n:
                if h in g1:
                    g1[h] = g1[h] + la[a]
                    g2[h] = g2[h] + lna[a]
                else:
                    g1[h] = la[a]
                    g2[h] = lna[a]
            for j in range(lo_l[a], h):
                d = la[a] * rb[j] - t * (lna[a] * rnb[j])
                sgn = field.sign(d)
                if sgn is None:
                    sgn = self._symbolic_sign(a, j, t_num)
                if sgn is None:
                    s_band += field.pos(d)
                elif sgn > 0:
                    s_band += d
                    sig_band += lna[a] * rnb[j]
        s1 = zero
        s2 = zero
        for h in g1:
            s1 += g1[h] * suf_b[h]
            s2 += g2[h] * suf_nb[h]
        return s1 - t * s2 + s_band, s2 + sig_band

    def approx_log_S(self, lnt: float) -> float:
        # numpy float64 in a scaled log domain: W_S = sqrt(W) e^{d/2}, W_notS = sqrt(W) e^{-d/2},
        # S(t)/sqrt(W) = sum_A [e^{d_A/2} SE(h_A) - t e^{-d_A/2} SN(h_A)], every exponential scaled to <= 1.
        dl = self._fl
        dr = self._fr_sorted
        ma = 0.5 * float(np.abs(dl).max())
        mb = 0.5 * float(np.abs(dr).max())
        h = np.searchsorted(dr, lnt - dl, side="right")
        se = np.concatenate([np.cumsum(np.exp(0.5 * dr - mb)[::-1])[::-1], [0.0]])
        sn = np.concatenate([np.cumsum(np.exp(-0.5 * dr - mb)[::-1])[::-1], [0.0]])
        pos = float(np.dot(np.exp(0.5 * dl - ma), se[h]))
        neg = float(np.dot(np.exp(-0.5 * dl - ma), sn[h]))
        if pos <= 0:
            return float("-inf")
        if neg > 0:
            v = lnt + math.log(neg)
            if v > 700 or math.exp(v) >= pos:
                return float("-inf")
            pos -= math.exp(v)
        return math.log(pos) + ma + mb + 0.5 * math.fsum(self._lw)


# --------------------------------------------------------------------------
# detection and choice


def _perfect_power(q: Fraction) -> tuple[Fraction, int]:
    """``q = b^e`` with ``b`` not a perfect power (``q > 0``, ``q != 1``)."""
    from gmpy2 import iroot

    num, den = q.numerator, q.denominator
    e = 1
    bits = max(num.bit_length(), den.bit_length())
    p = 2
    while p <= bits:
        r1, ok1 = iroot(num, p)
        r2, ok2 = iroot(den, p) if ok1 else (0, False)
        if ok1 and ok2:
            num, den = int(r1), int(r2)
            e *= p
            bits = max(num.bit_length(), den.bit_length())
            continue
        p += 1 if p == 2 else 2
    return Fraction(num, den), e


def detect_lattice(ws: Sequence[ExpNum]) -> Optional[tuple[ExpNum, list[int]]]:
    """``(u, a)`` with ``w_i = u^(a_i)`` exactly, or ``None``. Guarantee: exact.

    Works for eps given as rationals (``u = e^{gcd}``), for rational ``e^eps``
    that are integer powers of one rational, and for D-th roots of such.
    Raises: nothing (``None`` when no lattice is found).
    """
    nontriv = [x for x in ws if not x.is_one()]
    if not nontriv:
        return RatExp(), [0] * len(ws)
    if all(isinstance(x, RatExp) and x.q == 1 for x in nontriv):
        rs = [x.r for x in nontriv]
        g_num = 0
        l_den = 1
        for r in rs:
            g_num = math.gcd(g_num, r.numerator)
            l_den = l_den * r.denominator // math.gcd(l_den, r.denominator)
        g = Fraction(g_num, l_den)
        a = [0 if x.is_one() else int(x.r / g) for x in ws]
        return RatExp.from_eps(g), a
    if all((isinstance(x, RatExp) and x.r == 0) for x in nontriv) or (
        all(isinstance(x, Root) for x in nontriv) and len({x.D for x in nontriv}) == 1
    ):
        D = nontriv[0].D if isinstance(nontriv[0], Root) else 1
        vals = [x.n if isinstance(x, Root) else x.q for x in nontriv]
        bases = [_perfect_power(v) for v in vals]
        b0 = bases[0][0]
        if any(b != b0 for b, _ in bases):
            return None
        g = 0
        for _, e in bases:
            g = math.gcd(g, e)
        ubase = b0 ** g
        u: ExpNum = RatExp.from_exp(ubase) if D == 1 else Root(ubase, D)
        it = iter(e // g for _, e in bases)
        a = [0 if x.is_one() else next(it) for x in ws]
        return u, a
    return None


def _groups(ws: Sequence[ExpNum]) -> list[tuple[ExpNum, int]]:
    out: dict = {}
    order: list = []
    for x in ws:
        if x in out:
            out[x] += 1
        else:
            out[x] = 1
            order.append(x)
    return [(x, out[x]) for x in order]


def _fmt(n: float) -> str:
    return f"{n:.3g}"


def choose_structure(ws: Sequence[ExpNum], method: str = "auto") -> Structure:
    """Build the S(t) kernel for ``ws`` with ``method`` (or the cheapest applicable).

    Guarantee: exact (the kernel's coefficients are exact integers or exp-space
    numbers; ``auto`` picks by a cost estimate and records the choice in ``.method``).

    Raises:
        InvalidArgument: an unknown method, or one that does not apply (e.g.
            ``homogeneous`` for unequal eps, ``lattice`` for incommensurable eps).
        CostTooHigh: the request would explode (brute force over 2^60 subsets),
            with the estimate and the faster option to use.
    """
    if method not in METHODS:
        raise InvalidArgument("method", "one of " + ", ".join(METHODS), method)
    k = len(ws)
    groups = _groups(ws)
    if method == "homogeneous":
        if len(groups) != 1:
            raise InvalidArgument("method", "'homogeneous' only when every eps_i is equal", f"{len(groups)} distinct eps values")
        why = _lattice_refusal(k, [1] * k)
        if why:
            raise CostTooHigh("method", why + "; no exact kernel is cheaper for equal mechanisms: use fewer mechanisms")
        return Lattice.from_exponents(ws[0], [1] * k, "homogeneous")
    if method == "brute":
        if k > MAX_BRUTE_K:
            raise CostTooHigh(
                "method",
                f"brute force over 2^{k} = {_fmt(2.0 ** k)} subsets is refused (limit k <= {MAX_BRUTE_K}); "
                + (
                    f"use method='mitm' (about {_fmt(2.0 ** (k / 2) * k)} operations) or 'auto'"
                    if k <= MAX_MITM_K
                    else "use method='auto' (lattice or homogeneous for rational eps) or the approximation (exactdp approx)"
                ),
            )
        return Grouped([(x, 1) for x in ws], "brute")
    if method == "mitm":
        if k > MAX_MITM_K:
            raise CostTooHigh(
                "method",
                f"meet-in-the-middle with k = {k} needs 2^{(k + 1) // 2} = {_fmt(2.0 ** ((k + 1) // 2))} subset products per half "
                f"(limit k <= {MAX_MITM_K}); use the lattice method (rational eps) or the approximation (exactdp approx)",
            )
        return MITM(ws)
    if method == "grouped":
        g = Grouped(groups)
        if g.cost() > MAX_AUTO_COST:
            raise CostTooHigh("method", f"grouped sum over {_fmt(g.cost())} classes is refused; use method='auto'")
        return g
    lat = detect_lattice(ws)
    if method == "lattice":
        if lat is None:
            raise InvalidArgument("method", "'lattice' only when every e^eps_i is an integer power of one common base", "incommensurable eps values")
        u, a = lat
        A = sum(a)
        if A > MAX_LATTICE_A:
            raise CostTooHigh("method", f"the lattice polynomial would have degree {A} (limit {MAX_LATTICE_A}); use method='mitm' or exactdp approx")
        why = _lattice_refusal(A, [x for x in a if x])
        if why:
            raise CostTooHigh("method", why + "; use method='mitm' (k <= 50) or exactdp approx")
        return Lattice.from_exponents(u, a)
    # auto: cheapest applicable
    cands: list[tuple[float, Callable[[], Structure]]] = []
    refusals: list[str] = []
    if len(groups) == 1:
        why = _lattice_refusal(k, [1] * k)
        if why is None:
            cands.append((float(k + 1), lambda: Lattice.from_exponents(ws[0], [1] * k, "homogeneous")))
        else:
            refusals.append(why)
    if lat is not None:
        u, a = lat
        A = sum(a)
        why = _lattice_refusal(A, [x for x in a if x])
        if A <= MAX_LATTICE_A and why is None:
            cands.append((3.0 * (A + 1), lambda: Lattice.from_exponents(u, a)))
        elif why:
            refusals.append(why)
    gcost = 1.0
    for _, nj in groups:
        gcost *= nj + 1
    gcost *= len(groups) * 8  # Python-level loop per class
    if len(groups) < k:
        if gcost / (len(groups) * 8) * k <= MAX_LATTICE_BITS:  # classes x counts of up to k bits
            cands.append((gcost, lambda: Grouped(groups)))
    else:
        cands.append((gcost, lambda: Grouped([(x, 1) for x in ws], "brute")))
    if k <= MAX_MITM_K:
        cands.append((8.0 * (2.0 ** (k // 2) + 2.0 ** (k - k // 2)) * max(1, k) / 4, lambda: MITM(ws)))
    cost, make = min(cands, key=lambda c: c[0]) if cands else (math.inf, None)
    if cost > MAX_AUTO_COST or make is None:
        raise CostTooHigh(
            "mechanisms",
            (f"exact optimal composition of these {k} mechanisms costs about {_fmt(cost)} operations "
             f"(#P-hard in general, Murtagh-Vadhan Thm 1.6)" if cands else
             f"no exact kernel fits for these {k} mechanisms") + "".join(f"; {w}" for w in dict.fromkeys(refusals))
            + "; give rational eps on a coarser lattice, use fewer mechanisms, "
            "or use the approximation of Theorem 1.7 (exactdp approx)",
        )
    return make()
