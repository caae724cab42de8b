"""Section 4 of Murtagh-Vadhan, transcribed independently: the partition problems and
the reductions of Lemmas 4.9-4.11 as printed and as corrected.

Numbers. An instance of Definitions 4.6-4.8 is ``(D, ns)``: ``w_i = ns[i]^(1/D)``
with positive integers ``ns[i]``. Sums of such roots are handled exactly by
:class:`Rad` (rational combinations of ``s^(1/m)``), whose zero test rests on
Besicovitch's theorem (1940): for distinct m-th-power-free positive integers s,
the real roots ``s^(1/m)`` are linearly independent over Q. So after writing each
radicand as ``a^m s`` (s m-th-power-free) and collecting terms, a combination is
0 iff every collected coefficient is 0. Signs of non-zero combinations are
decided by Arb balls at rising precision (terminates since the value is not 0).
The real quantities of Lemma 4.11 (``r_z``, oracle answers) are Arb balls; the
counts it recovers are certified as the unique integer in the final ball.

Guarantee: exact decisions (counts, equalities, orderings); certified enclosures
for the real-valued oracle arithmetic.
"""

from __future__ import annotations

from fractions import Fraction as F
from functools import lru_cache
from math import gcd
from typing import Callable, Dict, Iterable, Optional, Sequence, Tuple

from sympy import factorint

from exactdp._backend import arb, fmpq, fmpz, workprec
from exactdp.numbers import arb_bounds

# --------------------------------------------------------------------------
# exact sums of radicals


@lru_cache(maxsize=None)
def _split(r: int, m: int) -> Tuple[int, int]:
    """``r = a^m * s`` with s m-th-power-free: returns (a, s)."""
    a, s = 1, 1
    for p, e in factorint(r).items():
        a *= p ** (e // m)
        s *= p ** (e % m)
    return a, s


def _arbq(q: F):
    return arb(fmpq(q.numerator, q.denominator))


class Rad:
    """An exact real ``sum_s c_s * s^(1/m)`` (c_s rational, s m-th-power-free positive integers)."""

    __slots__ = ("m", "terms")

    def __init__(self, m: int, items: Iterable[Tuple[F, int]] = (), _normal: Optional[Dict[int, F]] = None):
        self.m = m
        if _normal is not None:
            self.terms = {s: c for s, c in _normal.items() if c != 0}
            return
        t: Dict[int, F] = {}
        for c, r in items:
            if r <= 0:
                raise ValueError("radicand must be a positive integer")
            a, s = _split(int(r), m)
            t[s] = t.get(s, F(0)) + F(c) * a
        self.terms = {s: c for s, c in t.items() if c != 0}

    @staticmethod
    def rational(q) -> "Rad":
        return Rad(1, [(F(q), 1)])

    @staticmethod
    def root(n, D: int) -> "Rad":
        """``n^(1/D)`` for a positive rational n: ``(a/b)^(1/D) = (a b^(D-1))^(1/D) / b``."""
        n = F(n)
        a, b = n.numerator, n.denominator
        return Rad(D, [(F(1, b), a * b ** (D - 1))])

    def lift(self, m2: int) -> "Rad":
        if m2 == self.m:
            return self
        e = m2 // self.m
        assert e * self.m == m2
        return Rad(m2, _normal={s ** e: c for s, c in self.terms.items()})

    def _common(self, other: "Rad") -> Tuple["Rad", "Rad"]:
        m = self.m * other.m // gcd(self.m, other.m)
        return self.lift(m), other.lift(m)

    def __add__(self, other) -> "Rad":
        if not isinstance(other, Rad):
            other = Rad.rational(other)
        a, b = self._common(other)
        t = dict(a.terms)
        for s, c in b.terms.items():
            t[s] = t.get(s, F(0)) + c
        return Rad(a.m, _normal=t)

    def __neg__(self) -> "Rad":
        return Rad(self.m, _normal={s: -c for s, c in self.terms.items()})

    def __sub__(self, other) -> "Rad":
        if not isinstance(other, Rad):
            other = Rad.rational(other)
        return self + (-other)

    def __rsub__(self, other) -> "Rad":
        return Rad.rational(other) - self

    def scale(self, q) -> "Rad":
        return Rad(self.m, _normal={s: c * F(q) for s, c in self.terms.items()})

    def is_zero(self) -> bool:
        return not self.terms

    def rational_value(self) -> Optional[F]:
        if not self.terms:
            return F(0)
        if set(self.terms) == {1}:
            return self.terms[1]
        return None

    def arb(self):
        """Enclosure at the current Arb working precision."""
        v = arb(0)
        for s, c in self.terms.items():
            r = arb(fmpz(s))
            if s != 1 and self.m != 1:
                r = r.root(self.m)
            v += _arbq(c) * r
        return v

    def sign(self) -> int:
        if self.is_zero():
            return 0
        prec = 64
        while prec <= 1 << 16:
            with workprec(prec):
                v = self.arb()
                if v > 0:
                    return 1
                if v < 0:
                    return -1
            prec *= 2
        raise ArithmeticError("sign undecided (should be impossible for a non-zero combination)")

    def __repr__(self) -> str:
        parts = [f"{c}*{s}^(1/{self.m})" if s != 1 else f"{c}" for s, c in sorted(self.terms.items())]
        return " + ".join(parts) if parts else "0"


# --------------------------------------------------------------------------
# the partition problems (Definitions 4.5-4.8), brute force over all P subset [k]


def prod_int(xs: Iterable[int]) -> int:
    r = 1
    for x in xs:
        r *= x
    return r


def splits(ns: Sequence[int]):
    """Yield (mask, X, Y): X = prod_{i in P} n_i, Y = prod_{i not in P} n_i for every P subset [k]."""
    k = len(ns)
    for mask in range(1 << k):
        X = Y = 1
        for i in range(k):
            if mask >> i & 1:
                X *= ns[i]
            else:
                Y *= ns[i]
        yield mask, X, Y


def count_int_partition(zs: Sequence[int]) -> int:
    """Definition 4.5: #{P : prod_P z_i - prod_notP z_i = 0}."""
    return sum(1 for _, X, Y in splits(zs) if X == Y)


def count_partition(D: int, ns: Sequence[int]) -> int:
    """Definition 4.6 with w_i = n_i^(1/D), decided by Rad (independent of raising to the D-th power)."""
    return sum(1 for _, X, Y in splits(ns) if (Rad.root(X, D) - Rad.root(Y, D)).is_zero())


def gap(D: int, X: int, Y: int) -> Rad:
    return Rad.root(X, D) - Rad.root(Y, D)


def count_t_partition(D: int, ns: Sequence[int], T: Rad) -> int:
    """Definition 4.7: #{P : prod_P w_i - prod_notP w_i = T}, exactly."""
    return sum(1 for _, X, Y in splits(ns) if (gap(D, X, Y) - T).is_zero())


def sum_partition_ball(D: int, ns: Sequence[int], r) -> "arb":
    """Definition 4.8: sum_P max(prod_P w_i - r prod_notP w_i, 0) for an Arb ball r (current precision)."""
    tot = arb(0)
    zero = arb(0)
    for _, X, Y in splits(ns):
        x = arb(fmpz(X)) if D == 1 else arb(fmpz(X)).root(D)
        y = arb(fmpz(Y)) if D == 1 else arb(fmpz(Y)).root(D)
        tot += (x - r * y).max(zero)
    return tot


def within_e(n: int, D: int) -> bool:
    """Exactly decide n^(1/D) <= e, i.e. n <= e^D (e^D is irrational for D >= 1, so never equal)."""
    prec = 64
    while True:
        with workprec(prec):
            v = arb(D).exp() - arb(fmpz(n))
            if v > 0:
                return True
            if v < 0:
                return False
        prec *= 2


# --------------------------------------------------------------------------
# Lemma 4.9: #INT-PARTITION -> #PARTITION


def least_power_at_least(base: F, target: int) -> int:
    """Smallest integer D >= 0 with base^D >= target (base > 1 rational): exactly ceil(log_base target)."""
    D, v = 0, F(1)
    while v < target:
        D += 1
        v *= base
    return D


def lemma49_printed_D(zs: Sequence[int], c: F) -> int:
    """As printed: D = ceil(log_c prod z_i)."""
    return least_power_at_least(F(c), prod_int(zs))


def lemma49_corrected_D(zs: Sequence[int], c: F) -> int:
    """Corrected: D = max(1, ceil(log_{c'} prod z_i)) with c' = min(c, 2) (a rational base <= e)."""
    return max(1, least_power_at_least(min(F(c), F(2)), prod_int(zs)))


# --------------------------------------------------------------------------
# Lemma 4.10: #PARTITION -> #T-PARTITION


def lemma410_T(D: int, ns: Sequence[int]) -> Rad:
    """T = sqrt(w_{k+1}) (w_{k+1} - 1) with w_{k+1} = prod w_i = N^(1/D): N^(3/2D) - N^(1/2D)."""
    N = prod_int(ns)
    return Rad(2 * D, [(F(1), N ** 3), (F(-1), N)])


def lemma410_reduce(D: int, ns: Sequence[int], all_ones_count: Callable[[int], int]):
    """The reduction: ('direct', count) for an all-ones input, else ('oracle', D, ns + [prod ns], T)."""
    if all(n == 1 for n in ns):
        return ("direct", all_ones_count(len(ns)))
    return ("oracle", D, list(ns) + [prod_int(ns)], lemma410_T(D, ns))


# --------------------------------------------------------------------------
# Lemma 4.11: #T-PARTITION -> #SUM-PARTITION


def g_of_j(D: int, N: int, j: int) -> Rad:
    """The gap of a partition whose product is j^(1/D): j^(1/D) - W / j^(1/D), W = N^(1/D)."""
    return Rad.root(F(j), D) - Rad.root(F(N, j), D)


def _j_ball(D: int, N: int, z: Rad):
    W = arb(fmpz(N)).root(D) if D > 1 else arb(fmpz(N))
    zb = z.arb()
    x = (zb + (zb * zb + 4 * W).sqrt()) / 2
    return x ** D


def j_of_z(D: int, N: int, z: Rad) -> Tuple[int, bool]:
    """Solve x - W/x = z for x, j = x^D; return (floor(j), j is an integer), decided exactly."""
    prec = 128
    while prec <= 1 << 15:
        with workprec(prec):
            jb = _j_ball(D, N, z)
            if not jb.contains_integer():
                fl = jb.floor().unique_fmpz()
                if fl is not None:
                    return int(fl), False
            else:
                lo, hi = arb_bounds(jb)
                cands = range(max(1, int(lo) - 1), int(hi) + 2)
                for n in cands:
                    if lo <= n <= hi and (g_of_j(D, N, n) - z).is_zero():
                        return n, True
        prec *= 2
    raise ArithmeticError("could not locate j")


def rational_between(lo: Optional[Rad], hi: Rad) -> F:
    """A rational q with lo < q < hi (lo None means 0), certified by exact signs."""
    lo = lo if lo is not None else Rad.rational(0)
    with workprec(256):
        a, _ = arb_bounds(lo.arb())
        _, b = arb_bounds(hi.arb())
        mid_lo, mid_hi = arb_bounds((lo.arb() + hi.arb()) / 2)
    q0 = (mid_lo + mid_hi) / 2
    for q in (q0.limit_denominator(64), q0.limit_denominator(10 ** 6), q0):
        if (Rad.rational(q) - lo).sign() > 0 and (hi - Rad.rational(q)).sign() > 0:
            return q
    raise ArithmeticError("no rational found between the bounds")


def r_of_z_ball(D: int, N: int, zb):
    """r_z = 4W / (sqrt(z^2 + 4W) - z)^2 as a ball (W = N^(1/D))."""
    W = arb(fmpz(N)).root(D) if D > 1 else arb(fmpz(N))
    d = (zb * zb + 4 * W).sqrt() - zb
    return 4 * W / (d * d)


Oracle = Callable[[int, Sequence[int], Callable[[int], "arb"], int], "arb"]


def own_oracle(D: int, ns: Sequence[int], r_fn: Callable[[int], "arb"], prec: int):
    """#SUM-PARTITION by brute force over subsets in Arb (the reference oracle)."""
    with workprec(prec):
        return sum_partition_ball(D, ns, r_fn(prec))


def lemma411_count(D: int, ns: Sequence[int], T: Rad, rule: str = "corrected", oracle: Oracle = own_oracle,
                   prec: int = 256) -> Tuple[object, dict]:
    """Lemma 4.11's procedure: recover #T-PARTITION(D, ns, T) from four #SUM-PARTITION calls.

    ``rule``: ``"printed"`` picks z'' in (z, z') above z (as printed); ``"corrected"`` picks
    z'' in (max(z_-, 0), z), the gap-free interval just below z. Returns (count ball, details).
    """
    N = prod_int(ns)
    info: dict = {}
    jT, _ = j_of_z(D, N, T)
    Tp = g_of_j(D, N, jT + 1)  # T' from j' = floor(j + 1)
    c = rational_between(T, Tp)
    info["T'"] = Tp
    info["c"] = c

    def zpp(z: Rad) -> F:
        j, is_int = j_of_z(D, N, z)
        if rule == "printed":
            return rational_between(z, g_of_j(D, N, j + 1))
        jm = j - 1 if is_int else j
        zm = g_of_j(D, N, jm) if jm >= 1 else None
        lower = zm if (zm is not None and zm.sign() > 0) else None
        return rational_between(lower, z)

    def r_fn_for(z: Rad):
        def fn(p: int):
            with workprec(p):
                return r_of_z_ball(D, N, z.arb())
        return fn

    def gapsum(z: Rad):
        z2 = Rad.rational(zpp(z))
        info.setdefault("z''", []).append(z2.rational_value())
        o1 = oracle(D, ns, r_fn_for(z), prec)
        o2 = oracle(D, ns, r_fn_for(z2), prec)
        with workprec(prec):
            r1 = r_fn_for(z)(prec)
            r2 = r_fn_for(z2)(prec)
            B = (o1 - o2) / (r2 - r1)
            A = o1 + r1 * B
            return A - B

    g1 = gapsum(T)
    g2 = gapsum(Rad.rational(c))
    with workprec(prec):
        val = (g1 - g2) / T.arb()
    return val, info


def unique_int(ball) -> Optional[int]:
    u = ball.unique_fmpz()
    return None if u is None else int(u)
