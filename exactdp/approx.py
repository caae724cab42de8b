"""Approximating OptComp with a certified guarantee (Murtagh-Vadhan Section 5).

Murtagh-Vadhan, "The Complexity of Computing the Optimal Composition of
Differential Privacy" (TCC 2016), Section 5: Theorem 1.7 and Lemmas 5.1-5.3.
The text we have stops in the middle of the proof of Theorem 1.7; what the
proof prints (round every eps_i *down* to the lattice ``eps_0 = eta/k`` and
output ``OptComp(eps', delta_g)``) does **not** satisfy the theorem's lower
inequality, nor does ``OptComp(eps', delta_g) + eta`` (``docs/errata.md``,
section "Murtagh-Vadhan Theorem 1.7"). Two outputs that do, both implemented:

``variant="up"`` (default)
    ``eps* = OptComp(eps+, delta_g)`` with ``eps+_i = eps_0 ceil(eps_i / eps_0)``.
    Monotonicity gives ``eps* >= OptComp(eps, delta_g)``; ``eps+ <= eps + eps_0``
    and Lemma 5.3 (shift ``c = eps_0``) give
    ``eps* <= OptComp(eps, e^{-eta/2} delta_g) + eta``.
``variant="completion"``
    ``eps* = OptComp(eps', e^{-eta/2} delta_g) + eta`` with the printed
    ``eps'_i = eps_0 floor(eps_i / eps_0)``: Lemma 5.3 applied to ``eps'`` with
    shift ``eps_0`` gives the lower inequality, monotonicity the upper one.
    Never smaller than ``"up"`` (and infinite more often).

Each is computed in two forms that return the same number:

``form="proof"``  as the proof describes: Lemma 5.2's decision (two Lemma 5.1
                  knapsack tables) re-run inside a binary search over
                  ``eps* = m eps_0``; the last cell is solved exactly (S is
                  linear there). ``O(log(A) k B)``.
``form="fast"``   the count polynomial ``prod (1 + z^{a_i})`` once (FLINT product
                  tree), then the exact piecewise-linear inverse: the segment
                  of ``S`` holding ``t*`` is located, checked rigorously, and
                  solved; no search over ``eps*`` re-running any table.

Rigor: every integer decision (``floor(eps_i / eps_0)``, the knapsack bound B,
the segment) is exact; transcendental quantities (``e^{eps_0}``,
``e^{-eta/2}``) are Arb balls at rising precision. A ball comparison that
straddles is never guessed: precision rises, and it provably terminates
(below), or ``PrecisionError`` is raised at ``MAXPREC``.

Why the comparisons terminate: with ``u = e^{eps_0}`` every quantity compared
(``u^A C_1 - t C_2 - tau Z``) is a Laurent polynomial in ``u^{1/2}`` with
rational coefficients. ``u^{1/2}`` is transcendental (Lindemann), so the
quantity is 0 only if the polynomial is identically 0; at ``u = 1`` it equals
``-tau 2^k``, so it is nonzero whenever ``tau != 0`` (``tau = 0`` is solved
exactly: OptComp is then ``sum eps_i``).

Also here: the certified sandwich (:func:`optcomp_bounds`,
:func:`delta_bounds`): rounding each eps_i down and up to a lattice gives
rigorous lower and upper bounds on the true value (OptComp and ``delta_g`` are
increasing in every eps_i), refined until a requested width; with
``base="exp"`` the lattice is ``u = 1 + 1/N`` in exp-space and both bounds are
computed in exact rational arithmetic.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Optional, Sequence, Union

import numpy as np

from ._backend import arb, arb_poly, fmpq, fmpz_poly, workprec
from .errors import CostTooHigh, InvalidArgument, PrecisionError
from .mechanisms import Mechanism, parse_delta, parse_eps, validate_mechanisms
from .numbers import (
    MAXPREC,
    ExpNum,
    RatExp,
    Root,
    arb_bounds,
    fraction_str,
    fraction_to_decimal,
    log_sign_of_product,
    parse_rational,
)
from .optcomp.structures import Lattice

__all__ = [
    "knapsack_sum",
    "lemma52_decide",
    "lemma53_bound",
    "lattice_exponents",
    "theorem17",
    "ApproxResult",
    "Bounds",
    "optcomp_bounds",
    "delta_bounds",
    "VARIANTS",
    "FORMS",
]

#: Theorem 1.7 outputs. The last two are the printed ones, kept for the
#: errata checks; they do not satisfy the theorem (docs/errata.md).
VARIANTS = ("up", "completion", "printed", "printed+eta")
FORMS = ("fast", "proof")

#: Largest lattice degree A = sum a_i accepted (count polynomial length).
MAX_DEGREE = 20_000_000

#: Largest ``k * A`` accepted for the count polynomial ``prod (1 + z^{a_i})``:
#: A + 1 coefficients of up to k bits each, and the product tree holds several
#: such polynomials. Measured (benchmarks/bench_approx.py, 2 cores): k = 1000,
#: A = 977,594 took 6.3 s and 1.0 GB; k = 1000, A ~ 10^7 about 90 s and 10 GB.
MAX_POLY_BITS = 2_000_000_000
_POLY_BYTES_PER_BIT = 1.0  # measured: ~1 byte of peak memory per coefficient bit (k * A)
_POLY_SECONDS_PER_BIT = 7e-9  # measured: 6.3 s / (1000 * 977,594)

#: The proof's form (Lemma 5.2 tables inside a binary search) is refused when
#: its estimated time exceeds this many seconds; the fast form gives the same eps*.
MAX_PROOF_SECONDS = 600.0
_PROOF_SECONDS_PER_CELL = 5e-8  # measured: 14.6 min / 1.72e10 cells at k = 1000 (bench_approx)

#: Largest single lattice exponent a_i considered (beyond it the exact floor
#: decision itself would explode: it compares u^{a_i} with w_i).
MAX_EXPONENT = 2**62

_LOG2_10 = math.log2(10)

Number = Union[Fraction, float]


def _bits(digits: int) -> int:
    return int(math.ceil(digits * _LOG2_10)) + 8


def _accurate(lo: Fraction, hi: Fraction, digits: int) -> bool:
    if lo == hi:
        return True
    mag = max(abs(lo), abs(hi))
    return (hi - lo) <= mag * Fraction(1, 10**digits) / 2 or (hi - lo) <= Fraction(1, 10 ** (2 * digits))


def _check_digits(digits: object) -> int:
    if isinstance(digits, bool) or not isinstance(digits, int) or not (1 <= digits <= 10000):
        raise InvalidArgument("digits", "an integer in [1, 10000]", digits)
    return digits


def _check_eta(eta: object) -> Fraction:
    e = parse_rational(eta, "eta", expected="a rational number > 0")
    if e <= 0:
        raise InvalidArgument("eta", "a rational number > 0", eta)
    return e


def _check_base(base: object, name: str = "exp_base") -> Fraction:
    b = parse_rational(base, name, expected="a rational number > 1")
    if b <= 1:
        raise InvalidArgument(name, "a rational number > 1", base)
    return b


def _check_exponents(a: object) -> list[int]:
    try:
        al = list(a)  # type: ignore[arg-type]
    except TypeError:
        raise InvalidArgument("a", "a list of integers >= 0", a) from None
    for i, x in enumerate(al):
        if isinstance(x, bool) or not isinstance(x, int) or x < 0:
            raise InvalidArgument(f"a[{i}]", "an integer >= 0", x)
    return [int(x) for x in al]


def _P(deltas: Sequence[Fraction]) -> Fraction:
    p = Fraction(1)
    for d in deltas:
        p *= 1 - d
    return p


def _fr(x: fmpq) -> Fraction:
    return Fraction(int(x.p), int(x.q))


def _fq(x: Fraction) -> fmpq:
    return fmpq(x.numerator, x.denominator)


def _poly_cost(k: int, A: int) -> tuple[float, float]:
    """Estimated (bytes, seconds) of the count polynomial of degree A over k mechanisms. Approximate."""
    bits = float(k) * float(A)
    return bits * _POLY_BYTES_PER_BIT, bits * _POLY_SECONDS_PER_BIT


def _check_poly_cost(k: int, A: float, parameter: str, hint: str = "use a larger eta (a coarser lattice)") -> None:
    """Refuse a count polynomial over the degree or size limits, with the estimate. Guarantee: exact decision.

    Raises:
        CostTooHigh: ``A > MAX_DEGREE`` or ``k * A > MAX_POLY_BITS``.
    """
    mem, sec = _poly_cost(k, int(A))
    if A > MAX_DEGREE or k * A > MAX_POLY_BITS:
        raise CostTooHigh(
            parameter,
            f"the lattice count polynomial would have degree A = sum a_i = {A:.3g} with coefficients of up to k = {k} bits "
            f"(limits: A <= {MAX_DEGREE:.3g}, k*A <= {MAX_POLY_BITS:.3g}); estimated {mem / 1e9:.3g} GB and {sec:.3g} s; {hint}",
        )


def _degree_estimate(ws: Sequence[ExpNum], u: ExpNum) -> float:
    """``sum_i ln w_i / ln u`` in floating point: the lattice degree to within k. Approximate."""
    lu = u.flog()
    return math.fsum(max(w.flog(), 0.0) for w in ws) / lu


def _log_enclosure_of_rational(t: Fraction, digits: int) -> tuple[Fraction, Fraction]:
    """Rigorous enclosure of ``ln t`` for a rational ``t > 0``."""
    if t == 1:
        return Fraction(0), Fraction(0)
    p = _bits(digits) + 16
    while p <= MAXPREC:
        with workprec(p):
            lo, hi = arb_bounds(arb(_fq(t)).log())
        if _accurate(lo, hi, digits):
            return lo, hi
        p *= 2
    raise PrecisionError(f"log enclosure did not converge (maxprec={MAXPREC} bits)")


# --------------------------------------------------------------------------
# the target tau = 1 - (1 - s delta_g) / P of Theorem 1.5


class _Tau:
    """``tau = 1 - (1 - s * delta_g) / P``; ``s`` is 1 or an ExpNum (``e^{-eta/2}``).

    OptComp(delta) is the least ``eps`` with ``S(e^eps) <= tau * Z``
    (Murtagh-Vadhan Theorem 1.5 multiplied out; ``Z = prod (1 + w_i)``).
    """

    def __init__(self, P: Fraction, dg: Fraction, scale: Optional[ExpNum] = None):
        self.P = P
        self.dg = dg
        self.scale = scale
        if scale is not None and scale.exact() is not None:
            self.scale = RatExp.from_exp(scale.exact()) if scale.exact() != 1 else None
            self._sq = scale.exact()
        else:
            self._sq = Fraction(1) if scale is None else None
        self._sign: Optional[int] = None

    def exact(self) -> Optional[Fraction]:
        if self._sq is None:
            return None
        return 1 - (1 - self._sq * self.dg) / self.P

    def sign(self) -> int:
        """Exact sign of tau (sign of ``s delta_g - (1 - P)``)."""
        if self._sign is not None:
            return self._sign
        ex = self.exact()
        if ex is not None:
            s = (ex > 0) - (ex < 0)
        elif self.dg == 0:
            s = 0 if self.P == 1 else -1
        elif self.P == 1:
            s = 1
        else:
            s = log_sign_of_product([(self.scale, 1), (RatExp.from_exp(self.dg / (1 - self.P)), 1)])  # type: ignore[list-item]
            if s is None:
                raise PrecisionError("sign of the scaled delta_g target undecided")
        self._sign = s
        return s

    def arb(self, prec: int) -> arb:
        with workprec(prec):
            ex = self.exact()
            if ex is not None:
                return arb(_fq(ex))
            sd = self.scale.arb(prec) * arb(_fq(self.dg))  # type: ignore[union-attr]
            return 1 - (1 - sd) / arb(_fq(self.P))


# --------------------------------------------------------------------------
# Lemma 5.1: the knapsack table


def knapsack_sum(a: Sequence[int], B: int, w: Sequence, *, table: bool = False):
    """Lemma 5.1: ``sum over S subset [k] with sum_{i in S} a_i <= B of prod_{i in S} w_i``.

    The dynamic programme exactly as printed: ``F(0, s) = 1``;
    ``F(r, s) = F(r-1, s) + w_r F(r-1, s - a_r)`` if ``a_r <= s``, else
    ``F(r-1, s)``; the answer is ``F(k, B)``, after filling the ``(k+1) x (B+1)``
    table in ``O(Bk)`` ring operations.

    Guarantee: exact in the arithmetic of the weights: exact for ``int``,
    ``Fraction`` or gmpy2 ``mpq`` weights; an enclosure for Arb balls (every
    operation is a ball operation); approximate for floats.

    Parameters:
        a: non-negative integers ``a_1..a_k``.
        B: the knapsack bound, an integer >= 0.
        w: ``k`` weights in one ring (anything with ``+`` and ``*`` with ints).
        table: also return the whole table (a list of ``k+1`` rows, row ``r``
            holding ``F(r, 0..B)``).

    Raises:
        InvalidArgument: a negative or non-integer ``a_i`` or ``B``, or ``w`` of
            the wrong length.

    Examples:
        >>> from fractions import Fraction
        >>> knapsack_sum([1, 2, 3], 3, [Fraction(2), Fraction(3), Fraction(5)])  # {},{1},{2},{3},{1,2}
        Fraction(17, 1)
        >>> from flint import arb
        >>> knapsack_sum([1, 1], 1, [arb(2).sqrt(), arb(3).sqrt()])  # 1 + sqrt2 + sqrt3 (enclosure)
        [4.14626436994197 +/- 3.01e-15]

    References:
        Murtagh-Vadhan Lemma 5.1 (a modification of Dyer's knapsack counting
        programme).
    """
    al = _check_exponents(a)
    if isinstance(B, bool) or not isinstance(B, int) or B < 0:
        raise InvalidArgument("B", "an integer >= 0", B)
    wl = list(w)
    if len(wl) != len(al):
        raise InvalidArgument("w", f"a list of {len(al)} weights (one per a_i)", f"{len(wl)} weights")
    prev = [1] * (B + 1)
    rows = [prev] if table else None
    for ar, wr in zip(al, wl):
        cur = list(prev)
        for s in range(ar, B + 1):
            cur[s] = prev[s] + wr * prev[s - ar]
        prev = cur
        if rows is not None:
            rows.append(cur)
    return (prev[B], rows) if table else prev[B]


def _knapsack_arb(a: Sequence[int], B: int, weights: Sequence[arb]) -> arb:
    """Lemma 5.1 in Arb, one table row per step as a vector operation.

    Row ``r`` of the table is the coefficient vector of an ``arb_poly``; the
    printed recursion ``F(r, s) = F(r-1, s) + w_r F(r-1, s - a_r)`` is
    ``F_r = F_{r-1} + w_r * (F_{r-1} shifted by a_r)``, truncated to ``B+1``
    entries. Same cells, same order of operations per cell. Guarantee:
    enclosure (run inside ``workprec``).
    """
    if B < 0:
        return arb(0)
    F = arb_poly([1] * (B + 1))
    for ar, wr in zip(a, weights):
        if ar > B:
            continue
        if ar == 0:
            F = F * (1 + wr)
        else:
            F = F + F.left_shift(ar).truncate(B + 1) * wr
    return F[B]


# --------------------------------------------------------------------------
# the rounded composition w_i' = u^{a_i}


class _Lat:
    """Mechanisms ``w_i' = u^{a_i}`` (all deltas folded into the target)."""

    def __init__(self, u: ExpNum, a: Sequence[int]):
        self.u = u
        self.a = [int(x) for x in a]
        self.A = sum(self.a)
        self.k = len(self.a)
        self.uq: Optional[Fraction] = u.exact()
        self.eps0: Optional[Fraction] = u.log_exact()
        self._coeffs: Optional[list[int]] = None
        self._poly = None
        self._tails: dict = {}
        self._logc = None
        self._Z: dict = {}

    # count polynomial prod (1 + z^{a_i}) (fast form only)
    def poly(self):
        """``prod (1 + z^{a_i})`` as an ``fmpz_poly`` (equal a_i grouped, then a product tree)."""
        if self._poly is None:
            _check_poly_cost(self.k, self.A, "eta")
            groups: dict = {}
            for x in self.a:
                groups[x] = groups.get(x, 0) + 1
            polys = []
            for x, n in sorted(groups.items()):
                base = fmpz_poly([1] + [0] * (x - 1) + [1]) if x > 0 else fmpz_poly([2])
                polys.append(base**n)
            while len(polys) > 1:
                polys = [polys[i] * polys[i + 1] if i + 1 < len(polys) else polys[i] for i in range(0, len(polys), 2)]
            self._poly = polys[0]
        return self._poly

    def coeffs(self) -> list[int]:
        if self._coeffs is None:
            self._coeffs = [int(c) for c in self.poly().coeffs()]
        return self._coeffs

    def tail(self, j: int):
        """``P_j(z) = sum_{m >= j} c_m z^{m-j}``: ``U_j = u^j P_j(u)``, ``V_j = u^{A-j} P_j(1/u)``."""
        hit = self._tails.get(j)
        if hit is None:
            hit = self.poly().right_shift(j) if j else self.poly()
            self._tails = {j: hit}  # one at a time: each is as large as the polynomial
        return hit

    def logc(self) -> np.ndarray:
        if self._logc is None:
            p = self.poly()
            out = np.full(self.A + 1, -math.inf)
            for i in range(self.A + 1):
                c = p[i]
                if c:
                    out[i] = math.log(int(c))
            self._logc = out
        return self._logc

    # field helpers: exact (Fraction) when u is rational, else Arb
    def u_val(self, prec: Optional[int]):
        return self.uq if prec is None else self.u.arb(prec)

    def Z(self, prec: Optional[int]):
        """``prod (1 + u^{a_i})`` = the count polynomial at ``u`` (exact, or at ``prec``)."""
        hit = self._Z.get(prec)
        if hit is None:
            if prec is None:
                hit = _fr(self.poly()(_fq(self.uq)))  # type: ignore[arg-type]
            else:
                with workprec(prec):
                    hit = self.poly()(self.u.arb(prec))
            self._Z[prec] = hit
        return hit


def _pow(x, n: int):
    if n >= 0:
        return x**n
    return 1 / (x ** (-n))


@dataclass(frozen=True)
class _Eps:
    """Enclosure of an OptComp value (internal)."""

    lower: Number
    upper: Number
    exact: Optional[Fraction] = None
    exp_exact: Optional[Fraction] = None
    infinite: bool = False
    prec: Optional[int] = None

    @staticmethod
    def inf() -> "_Eps":
        return _Eps(math.inf, math.inf, None, None, True)

    @staticmethod
    def zero() -> "_Eps":
        return _Eps(Fraction(0), Fraction(0), Fraction(0), Fraction(1))


def _eps_at_W(lat: _Lat, digits: int) -> _Eps:
    """``tau = 0``: OptComp is ``sum eps_i' = A ln u`` exactly."""
    if lat.eps0 is not None:
        v = lat.A * lat.eps0
        return _Eps(v, v, v, Fraction(1) if v == 0 else None)
    if lat.uq is not None:
        t = lat.uq**lat.A
        lo, hi = _log_enclosure_of_rational(t, digits)
        return _Eps(lo, hi, Fraction(0) if t == 1 else None, t)
    raise InvalidArgument("u", "a lattice base e^{eps_0} or a rational", lat.u)


def _eps_from_t(t, lo_end, hi_end, digits: int, prec: int) -> Optional[_Eps]:
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
    if not _accurate(lo, hi, digits):
        return None
    return _Eps(lo, hi, None, None, False, prec)


# --------------------------------------------------------------------------
# fast form: count polynomial once, exact piecewise-linear inverse


def _guess_segment(lat: _Lat, tau: _Tau, j0: int) -> int:
    """Float guess of the least ``j`` with ``S(u^{2j-A}) <= tau Z``. Approximate."""
    A = lat.A
    lu = lat.u.flog()
    lc = lat.logc()
    m = np.arange(A + 1, dtype=float)
    with np.errstate(all="ignore"):
        logU = np.logaddexp.accumulate((lc + m * lu)[::-1])[::-1]
        logV = np.logaddexp.accumulate((lc + (A - m) * lu)[::-1])[::-1]
        if tau.exact() is not None:
            ex = tau.exact()
            lt = math.log(ex.numerator) - math.log(ex.denominator)  # type: ignore[union-attr]
        else:
            with workprec(64):
                lt = float(tau.arb(64).log().mid())
        log_target = lt + float(logU[0])
        j = np.arange(j0, A + 1)
        logb = (2 * j - A) * lu
        r = logb + logV[j0:] - logU[j0:]
        logS = np.where(r < 0, logU[j0:] + np.log(-np.expm1(np.minimum(r, -1e-300))), -np.inf)
        ok = logS <= log_target
    idx = int(np.argmax(ok)) if ok.any() else A - j0
    return j0 + idx


def _seg_test(lat: _Lat, tau: _Tau, j: int, j0: int, prec: Optional[int]):
    """Rigorous test of segment ``j`` of S: ``t*`` in ``[b_{j-1}, b_j]``?

    Returns ``(state, tstar, lo_end, hi_end)`` with state ``"ok"``, ``"down"``
    (``t* <= b_{j-1}``), ``"up"`` (``t* > b_j``) or ``None`` (undecided at this
    precision). ``b_j = u^{2j-A}``; on segment j, ``S(t) = U_j - t V_j``.
    """
    A = lat.A
    Pj = lat.tail(j)
    if prec is None:
        u = lat.uq
        U = _fr(Pj(_fq(u))) * u**j  # type: ignore[operator]
        V = _fr(Pj(_fq(1 / u))) * u ** (A - j)  # type: ignore[operator]
        target = tau.exact() * lat.Z(None)  # type: ignore[operator]
        b_hi = _pow(u, 2 * j - A)
        b_lo = Fraction(1) if j == j0 else _pow(u, 2 * j - 2 - A)
        if U - b_lo * V <= target:
            return "down", None, None, None
        if U - b_hi * V > target:
            return "up", None, None, None
        return "ok", (U - target) / V, b_lo, b_hi
    with workprec(prec):
        u = lat.u.arb(prec)
        U = Pj(u) * _pow(u, j)
        V = Pj(1 / u) * _pow(u, A - j)
        target = tau.arb(prec) * lat.Z(prec)
        b_hi = _pow(u, 2 * j - A)
        b_lo = arb(1) if j == j0 else _pow(u, 2 * j - 2 - A)
        s_lo = U - b_lo * V - target
        s_hi = U - b_hi * V - target
        if s_lo <= 0:
            return "down", None, None, None
        if s_hi > 0:
            return "up", None, None, None
        if s_lo > 0 and s_hi <= 0:
            return "ok", (U - target) / V, b_lo, b_hi
        return None, None, None, None


def _optcomp_fast(lat: _Lat, tau: _Tau, digits: int) -> _Eps:
    """OptComp of ``w_i' = u^{a_i}`` at target tau: fast form (count polynomial)."""
    s = tau.sign()
    if s < 0:
        return _Eps.inf()
    if s == 0:
        return _eps_at_W(lat, digits)
    if lat.A == 0:
        return _Eps.zero()
    A = lat.A
    j0 = A // 2 + 1
    exact = lat.uq is not None and tau.exact() is not None
    # S(1) <= tau Z  =>  OptComp = 0 ; S(1) = U_{j0} - V_{j0}
    prec: Optional[int] = None if exact else max(64, _bits(digits) + 32)
    jg = _guess_segment(lat, tau, j0)
    lo_j, hi_j = j0, A  # t* lies in a segment with index in [lo_j, hi_j]
    j = min(max(jg, lo_j), hi_j)
    probes = 0
    while True:
        state, tstar, b_lo, b_hi = _seg_test(lat, tau, j, j0, prec)
        if state is None:
            if prec is not None and prec >= MAXPREC:
                raise PrecisionError(f"segment of S undecided at maxprec={MAXPREC} bits")
            prec = min(2 * prec, MAXPREC)  # type: ignore[operator]
            continue
        if state == "down":
            if j == j0:
                return _Eps.zero()  # S(1) <= tau Z
            hi_j = j - 1
        elif state == "up":
            lo_j = j + 1
        else:
            break
        probes += 1
        if lo_j > hi_j:
            raise PrecisionError("internal: no segment of S holds t*")  # pragma: no cover
        if probes <= 2:
            j = min(max(j + (1 if state == "up" else -1), lo_j), hi_j)
        else:
            j = (lo_j + hi_j) // 2
    if exact:
        t = tstar
        lo, hi = _log_enclosure_of_rational(t, digits)
        return _Eps(max(lo, Fraction(0)), hi, Fraction(0) if t == 1 else None, t)
    while True:
        if state == "ok":
            out = _eps_from_t(tstar, b_lo, b_hi, digits, prec)  # type: ignore[arg-type]
            if out is not None:
                return out
        elif state is not None:  # pragma: no cover
            raise PrecisionError("internal: segment changed under higher precision")
        if prec >= MAXPREC:  # type: ignore[operator]
            raise PrecisionError(f"OptComp enclosure did not reach {digits} digits (maxprec={MAXPREC} bits)")
        prec = min(2 * prec, MAXPREC)  # type: ignore[operator]
        state, tstar, b_lo, b_hi = _seg_test(lat, tau, j, j0, prec)


# --------------------------------------------------------------------------
# Lemma 5.2 (proof form): the decision with two knapsack tables


class _Proof:
    """The decision procedure of Lemma 5.2 on ``w_i' = u^{a_i}``, with caches."""

    def __init__(self, lat: _Lat, tau: _Tau):
        self.lat = lat
        self.tau = tau
        self.exact = lat.uq is not None and tau.exact() is not None
        self._Z: dict = {}
        self.tables = 0  # Lemma 5.1 tables filled

    def Z(self, prec: Optional[int]):
        hit = self._Z.get(prec)
        if hit is None:
            u = self.lat.u_val(prec)
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
        u = self.lat.u_val(prec)
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
            c1 = _knapsack_arb(a, B, [1 / cache[ai] for ai in a])
            c2 = _knapsack_arb(a, B, [cache[ai] for ai in a])
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


def _optcomp_proof(lat: _Lat, tau: _Tau, digits: int, *, stats: Optional[dict] = None) -> _Eps:
    """OptComp of ``w_i' = u^{a_i}`` at target tau: the proof's form.

    Binary search over ``eps* = m eps_0`` (``m = 0..A``), each step Lemma 5.2's
    decision; in the final cell ``((m-1) eps_0, m eps_0]`` the set K is fixed
    and the inequality linear in ``t = e^{eps*}``, so ``t* = (u^A C1 - tau Z) / C2``.
    """
    s = tau.sign()
    if s < 0:
        return _Eps.inf()
    if s == 0:
        return _eps_at_W(lat, digits)
    if lat.A == 0:
        return _Eps.zero()
    A = lat.A
    pr = _Proof(lat, tau)
    prec: Optional[int] = None if pr.exact else max(64, _bits(digits) + 32 + lat.k.bit_length())

    def decide(m: int):
        nonlocal prec
        B = (A - m) // 2
        while True:
            t = lat.uq**m if prec is None else _pow(lat.u.arb(prec), m)  # type: ignore[operator]
            ans, c1, c2 = pr.decide(B, t, prec)
            if ans is not None:
                return ans, c1, c2
            if prec >= MAXPREC:  # type: ignore[operator]
                raise PrecisionError(f"Lemma 5.2 decision undecided at maxprec={MAXPREC} bits")
            prec = min(2 * prec, MAXPREC)  # type: ignore[operator]

    ans, c1, c2 = decide(0)
    if ans:
        if stats is not None:
            stats["tables"] = pr.tables
        return _Eps.zero()
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
    while True:
        if prec is None:
            u = lat.uq
            t = (u**A * c1 - tau.exact() * pr.Z(None)) / c2  # type: ignore[operator]
            if stats is not None:
                stats["tables"] = pr.tables
            lo_, hi_ = _log_enclosure_of_rational(t, digits)
            return _Eps(max(lo_, Fraction(0)), hi_, Fraction(0) if t == 1 else None, t)
        with workprec(prec):
            u = lat.u.arb(prec)
            t = (_pow(u, A) * c1 - tau.arb(prec) * pr.Z(prec)) / c2
            out = _eps_from_t(t, _pow(u, m - 1), _pow(u, m), digits, prec)
        if out is not None:
            if stats is not None:
                stats["tables"] = pr.tables
            return out
        if prec >= MAXPREC:
            raise PrecisionError(f"OptComp enclosure did not reach {digits} digits (maxprec={MAXPREC} bits)")
        prec = min(2 * prec, MAXPREC)
        c1, c2 = pr.sums(B, prec)


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
    al = _check_exponents(a)
    if not al:
        raise InvalidArgument("a", "a non-empty list of integers >= 0", "an empty list")
    dg = parse_delta(delta_g, "delta_g")
    ds = [Fraction(0)] * len(al) if deltas is None else [parse_delta(d, f"deltas[{i}]") for i, d in enumerate(deltas)]
    if len(ds) != len(al):
        raise InvalidArgument("deltas", f"a list of {len(al)} values (one per a_i)", f"{len(ds)} values")
    tau = _Tau(_P(ds), dg)
    A = sum(al)
    if eps0 is not None and exp_base is None and exp_star is None:
        e0 = parse_rational(eps0, "eps0", expected="a rational number > 0")
        if e0 <= 0:
            raise InvalidArgument("eps0", "a rational number > 0", eps0)
        es = parse_eps(eps_star, "eps_star")
        lat = _Lat(RatExp.from_eps(e0), al)
        x = (A * e0 - es) / (2 * e0)
        B = x.numerator // x.denominator
        t_num: ExpNum = RatExp.from_eps(es)
        total = A * e0
        if tau.sign() < 0:
            return False
        if tau.sign() == 0:
            return es >= total
    elif exp_base is not None and eps_star is None and eps0 is None:
        ub = _check_base(exp_base)
        ts = parse_rational(exp_star, "exp_star", expected="a rational number >= 1")
        if ts < 1:
            raise InvalidArgument("exp_star", "a rational number >= 1", exp_star)
        lat = _Lat(RatExp.from_exp(ub), al)
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
    prec = 64 + len(al).bit_length()
    while True:
        with workprec(prec):
            ans, _, _ = pr.decide(B, t_num.arb(prec), prec)
        if ans is not None:
            return ans
        if prec >= MAXPREC:
            raise PrecisionError(f"Lemma 5.2 decision undecided at maxprec={MAXPREC} bits")
        prec = min(2 * prec, MAXPREC)


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


# --------------------------------------------------------------------------
# discretisation: floor / ceil of ln w / ln u, decided exactly


def lattice_exponents(mechanisms, *, eps0: object = None, exp_base: object = None, rounding: str = "down") -> list[int]:
    """``a_i = floor(ln w_i / ln u)`` (``rounding="down"``) or ``ceil`` (``"up"``).

    ``u = e^{eps0}`` (so ``a_i = floor(k eps_i / eta)`` for ``eps0 = eta / k``,
    as in the proof of Theorem 1.7) or ``u = exp_base`` (a rational > 1). Then
    ``u^{a_i} <= w_i`` (down) or ``u^{a_i} >= w_i`` (up).

    Guarantee: exact. Rational eps_i over a rational eps0 is integer
    arithmetic; otherwise each candidate is confirmed by an exact sign decision
    (:func:`~exactdp.numbers.log_sign_of_product`): e.g. for ``exp_eps = 11/10``
    and ``eps0 = 1/100``, ``ln(11/10) / eps0`` is irrational and its floor is
    settled by Arb at rising precision.

    Raises:
        InvalidArgument: not exactly one of eps0 / exp_base, eps0 <= 0,
            exp_base <= 1, an unknown rounding.
        PrecisionError: the floor could not be decided (only for Computable
            inputs that sit on a lattice point).

    Examples:
        >>> from exactdp import mechanisms
        >>> lattice_exponents(mechanisms(eps=["0.25", "0.3"]), eps0="0.1")
        [2, 3]
        >>> lattice_exponents(mechanisms(exp_eps=["11/10"]), eps0="0.01", rounding="up")  # ln 1.1 = 0.0953...
        [10]

    References:
        Murtagh-Vadhan proof of Theorem 1.7 (``a_i = floor(k eps_i / eta)``).
    """
    ms = validate_mechanisms(mechanisms)
    if rounding not in ("down", "up"):
        raise InvalidArgument("rounding", "'down' or 'up'", rounding)
    u = _base(eps0, exp_base)
    return [_exponent(m.w, u, rounding) for m in ms]


def _base(eps0: object, exp_base: object) -> ExpNum:
    if (eps0 is None) == (exp_base is None):
        raise InvalidArgument("eps0 / exp_base", "given, exactly one of the two", None)
    if eps0 is not None:
        e0 = parse_rational(eps0, "eps0", expected="a rational number > 0")
        if e0 <= 0:
            raise InvalidArgument("eps0", "a rational number > 0", eps0)
        return RatExp.from_eps(e0)
    return RatExp.from_exp(_check_base(exp_base))


def _exponent(w: ExpNum, u: ExpNum, rounding: str) -> int:
    if w.is_one():
        return 0
    if w.flog() / u.flog() > MAX_EXPONENT:
        raise CostTooHigh("eps", f"ln w / ln u = {w.flog() / u.flog():.3g} lattice steps for one mechanism (limit {MAX_EXPONENT:.3g}); use a coarser lattice")
    lw, lu = w.log_exact(), u.log_exact()
    if lw is not None and lu is not None:
        x = lw / lu
        fl = x.numerator // x.denominator
        return fl if (rounding == "down" or fl == x) else fl + 1
    n = int(math.floor(w.flog() / u.flog()))

    def sg(nn: int) -> int:
        s = log_sign_of_product([(w, 1), (u, -nn)])
        if s is None:
            raise PrecisionError(f"cannot decide floor(ln {w!r} / ln {u!r}) near {nn}")
        return s

    s = sg(n)
    while s < 0:
        n -= 1
        s = sg(n)
    while True:
        s1 = sg(n + 1)
        if s1 < 0:
            break
        n += 1
        s = s1
    if rounding == "up" and s != 0:
        n += 1
    return max(n, 0)


# --------------------------------------------------------------------------
# Lemma 5.3


def _scaled_delta_optcomp(ms: Sequence[Mechanism], delta_g: Fraction, scale: ExpNum, digits: int) -> _Eps:
    """OptComp(ms, scale * delta_g) for an irrational scale in (0, 1], by rational brackets.

    ``d_lo <= scale * delta_g <= d_hi`` gives OptComp(d_hi) <= . <= OptComp(d_lo)
    (OptComp decreases in delta); brackets tighten until the enclosure reaches
    ``digits`` or stops improving.
    """
    from .optcomp import optcomp

    if all(m.w.is_one() for m in ms):  # every eps_i = 0: S(t) = 0 for t >= 1
        P0 = _P([m.delta for m in ms])
        return _Eps.inf() if _Tau(P0, delta_g, scale).sign() < 0 else _Eps.zero()
    sx = scale.exact()
    if sx is not None:
        r = optcomp(ms, sx * delta_g, engine="auto", digits=digits)
        return _Eps(r.lower, r.upper, r.exact, r.exp_exact, r.infinite, r.prec)
    P = _P([m.delta for m in ms])
    tau = _Tau(P, delta_g, scale)
    if tau.sign() < 0:
        return _Eps.inf()
    p = _bits(digits) + 32
    best = None
    while p <= MAXPREC:
        with workprec(p):
            lo, hi = arb_bounds(scale.arb(p) * arb(_fq(delta_g)))
        lo = max(lo, Fraction(0))
        hi = min(hi, delta_g)  # the scale is <= 1
        if lo < 1 - P:  # the bracket still crosses the threshold of finiteness
            p *= 2
            continue
        r_hi = optcomp(ms, hi, engine="auto", digits=digits + 2)  # smaller eps
        r_lo = optcomp(ms, lo, engine="auto", digits=digits + 2)  # larger eps
        best = _Eps(r_hi.lower, r_lo.upper, None, None, False, p)
        if _accurate(best.lower, best.upper, digits):  # type: ignore[arg-type]
            return best
        p *= 2
    if best is None:
        raise PrecisionError("scaled delta_g bracket did not separate from 1 - prod(1 - delta_i)")
    return best


def lemma53_bound(mechanisms, c: object = None, delta_g: object = 0, *, exp_c: object = None, digits: int = 20) -> tuple[Fraction, Fraction]:
    """Lemma 5.3's bound ``OptComp(eps, e^{-kc/2} delta_g) + kc`` (an enclosure of it).

    Lemma 5.3: ``OptComp((eps_1 + c, delta_1), ..., (eps_k + c, delta_k), delta_g)``
    is at most this value, for all ``eps_i, c >= 0``. ``c`` is a rational shift;
    or give ``exp_c = e^c`` (a rational >= 1, the shift in exp-space). The
    irrational ``e^{-kc/2} delta_g`` is handled by rational brackets (OptComp is
    decreasing in delta_g), so the enclosure is rigorous.

    Guarantee: enclosure ``(lower, upper)`` of the bound (``upper`` is therefore
    an upper bound on OptComp of the shifted mechanisms); ``(inf, inf)`` when
    ``e^{-kc/2} delta_g < 1 - prod(1 - delta_i)``.

    Raises:
        InvalidArgument: bad mechanisms, ``c < 0``, ``exp_c < 1``, not exactly
            one of c / exp_c, bad delta_g.

    Examples:
        >>> from exactdp import mechanisms, optcomp
        >>> lo, hi = lemma53_bound(mechanisms(exp_eps=[2, 3]), delta_g="1/10", exp_c=4)  # e^{-kc/2} = 1/4 exactly
        >>> round(float(hi), 6)   # OptComp((2, 3), 1/40) + ln 16
        4.513055
        >>> optcomp(mechanisms(exp_eps=[8, 12]), "1/10").upper <= hi   # the shifted mechanisms
        True

    References:
        Murtagh-Vadhan Lemma 5.3.
    """
    ms = validate_mechanisms(mechanisms)
    digits = _check_digits(digits)
    dg = parse_delta(delta_g, "delta_g")
    k = len(ms)
    if (c is None) == (exp_c is None):
        raise InvalidArgument("c / exp_c", "given, exactly one of the two", None)
    if c is not None:
        cc = parse_eps(c, "c")
        scale: ExpNum = RatExp.from_eps(-k * cc / 2)
        add_lo = add_hi = k * cc
    else:
        s = parse_rational(exp_c, "exp_c", expected="a rational number >= 1")
        if s < 1:
            raise InvalidArgument("exp_c", "a rational number >= 1", exp_c)
        scale = Root(1 / s**k, 2)
        add_lo, add_hi = _log_enclosure_of_rational(s**k, digits + 4)
    e = _scaled_delta_optcomp(ms, dg, scale, digits)
    if e.infinite:
        return math.inf, math.inf  # type: ignore[return-value]
    return e.lower + add_lo, e.upper + add_hi  # type: ignore[operator,return-value]


# --------------------------------------------------------------------------
# Theorem 1.7


@dataclass(frozen=True)
class ApproxResult:
    """The output eps* of Theorem 1.7 (as an enclosure) and how it was obtained.

    ``lower <= eps* <= upper`` rigorously; for ``variant`` ``"up"`` or
    ``"completion"``, ``OptComp(delta_g) <= eps* <= OptComp(e^{-eta/2} delta_g) + eta``.

    Guarantee: enclosure of eps* (``guarantee`` states what eps* itself satisfies).
    Raises: nothing (a frozen record).
    """

    lower: Number
    upper: Number
    exact: Optional[Fraction]
    infinite: bool
    eta: Optional[Fraction]
    exp_base: Optional[Fraction]
    eps0: Optional[Fraction]
    variant: str
    form: str
    k: int
    degree: int
    delta_g: Fraction
    guarantee: str
    prec: Optional[int]
    exp_exact: Optional[Fraction] = None
    tables: Optional[int] = None

    def to_dict(self, digits: int = 30) -> dict:
        """The ``exactdp approx --json`` object (decimals rounded outward). Guarantee: enclosure. Raises: nothing."""
        if self.infinite:
            eps = {"exact": "inf", "lower": "inf", "upper": "inf"}
        else:
            eps = {
                "exact": fraction_str(self.exact) if self.exact is not None else None,
                "lower": fraction_to_decimal(self.lower, digits, "down"),  # type: ignore[arg-type]
                "upper": fraction_to_decimal(self.upper, digits, "up"),  # type: ignore[arg-type]
            }
        return {
            "eps_star": eps,
            "infinite": self.infinite,
            "eta": fraction_str(self.eta) if self.eta is not None else None,
            "exp_base": fraction_str(self.exp_base) if self.exp_base is not None else None,
            "eps0": fraction_str(self.eps0) if self.eps0 is not None else None,
            "k": self.k,
            "lattice_degree": self.degree,
            "variant": self.variant,
            "form": self.form,
            "delta_g": fraction_str(self.delta_g),
            "guarantee": self.guarantee,
            "precision_bits": self.prec,
            "digits": digits,
        }


_GUARANTEE = {
    "up": "OptComp(delta_g) <= eps_star <= OptComp(exp(-eta/2)*delta_g) + eta "
    "(Murtagh-Vadhan Thm 1.7; eps_star = OptComp of eps rounded up to multiples of eta/k; enclosure of eps_star)",
    "completion": "OptComp(delta_g) <= eps_star <= OptComp(exp(-eta/2)*delta_g) + eta "
    "(Murtagh-Vadhan Thm 1.7; eps_star = OptComp(eps rounded down, exp(-eta/2)*delta_g) + eta; enclosure of eps_star)",
    "printed": "lower bound on OptComp(delta_g) only: the output printed in the proof of Thm 1.7 "
    "fails the theorem's lower inequality (docs/errata.md)",
    "printed+eta": "none: OptComp(eps rounded down, delta_g) + eta fails Thm 1.7's lower inequality "
    "on some inputs (docs/errata.md)",
}


def theorem17(
    mechanisms,
    delta_g: object,
    eta: object = None,
    *,
    exp_base: object = None,
    variant: str = "up",
    form: str = "fast",
    digits: int = 20,
    max_proof_seconds: float = MAX_PROOF_SECONDS,
) -> ApproxResult:
    """Theorem 1.7: ``eps*`` with ``OptComp(delta_g) <= eps* <= OptComp(e^{-eta/2} delta_g) + eta``.

    Discretize on the lattice ``eps_0 = eta / k`` (``a_i = floor`` or ``ceil`` of
    ``k eps_i / eta``, decided exactly), then compute OptComp of the rounded
    mechanisms exactly (as a rigorous enclosure). ``variant`` chooses the
    output (module docstring; ``"up"`` is the tightest), ``form`` the algorithm:
    ``"proof"`` = binary search over Lemma 5.2 decisions, as the proof
    describes; ``"fast"`` = the count polynomial once and the exact inverse.
    Both forms return the same eps* (up to the enclosure width).

    ``exp_base = u`` (a rational > 1) replaces ``eta``: the lattice is
    ``u^{a_i}`` in exp-space, ``eta = k ln u``, and the rounded problem is solved
    in exact rational arithmetic (``exp_exact`` holds ``e^{eps*}`` when it is
    rational).

    Guarantee: enclosure ``lower <= eps* <= upper`` of relative width about
    ``10^-digits``; for variants ``"up"`` and ``"completion"`` the theorem's
    inequality holds for eps*, hence ``upper`` is a rigorous upper bound on
    ``OptComp(delta_g)``. ``"printed"`` and ``"printed+eta"`` are the outputs
    read off the printed proof: not guaranteed (docs/errata.md).

    Parameters:
        mechanisms: iterable of :class:`~exactdp.Mechanism`.
        delta_g: rational in ``[0, 1)``.
        eta: additive error parameter, rational > 0 (or ``exp_base``).
        variant: ``up | completion | printed | printed+eta``.
        form: ``fast | proof``.
        digits: significant digits of the enclosure.
        max_proof_seconds: refuse ``form="proof"`` above this estimated time
            (default ``MAX_PROOF_SECONDS``; ``math.inf`` to run it anyway).

    Raises:
        InvalidArgument: bad mechanisms or delta_g, ``eta <= 0``,
            ``exp_base <= 1``, unknown variant / form.
        CostTooHigh: the lattice degree ``A = sum a_i`` exceeds ``MAX_DEGREE``,
            or ``k A`` exceeds ``MAX_POLY_BITS`` (memory of the count
            polynomial), or (``form="proof"``) the estimated time of the
            proof's form exceeds ``MAX_PROOF_SECONDS``; the message gives the
            estimate and the eta (or form) that fits.
        PrecisionError: no rigorous answer by ``MAXPREC`` bits.

    Examples:
        >>> from exactdp import mechanisms
        >>> r = theorem17(mechanisms(eps=["0.105"], k=10), "1e-6", "0.1")
        >>> float(r.lower) > 0 and r.upper - r.lower < 1e-15
        True
        >>> r.eps0   # eta / k
        Fraction(1, 100)
        >>> theorem17(mechanisms(exp_eps=[2, 3]), "1/10", exp_base=2).exp_exact   # 3 rounded up to 4: exact
        Fraction(13, 2)

    References:
        Murtagh-Vadhan Theorem 1.7 (proof completed and corrected:
        docs/errata.md), Lemmas 5.1-5.3.
    """
    ms = validate_mechanisms(mechanisms)
    dg = parse_delta(delta_g, "delta_g")
    digits = _check_digits(digits)
    if variant not in VARIANTS:
        raise InvalidArgument("variant", "one of " + ", ".join(VARIANTS), variant)
    if form not in FORMS:
        raise InvalidArgument("form", "one of " + ", ".join(FORMS), form)
    k = len(ms)
    if (eta is None) == (exp_base is None):
        raise InvalidArgument("eta / exp_base", "given, exactly one of the two", None)
    if eta is not None:
        et: Optional[Fraction] = _check_eta(eta)
        e0: Optional[Fraction] = et / k  # type: ignore[operator]
        u: ExpNum = RatExp.from_eps(e0)  # type: ignore[arg-type]
        ub = None
        half_eta_scale: ExpNum = RatExp.from_eps(-et / 2)  # type: ignore[operator]
    else:
        ub = _check_base(exp_base)
        et, e0 = None, None
        u = RatExp.from_exp(ub)
        half_eta_scale = RatExp.from_exp(1 / ub ** (k // 2)) if k % 2 == 0 else Root(1 / ub**k, 2)
    rounding = "up" if variant == "up" else "down"
    pname = "eta" if eta is not None else "exp_base"
    total = math.fsum(max(m.w.flog(), 0.0) for m in ms)

    def hint() -> str:
        # the least eta (k ln u) that meets both limits
        need = max(k * total / MAX_DEGREE, k * k * total / MAX_POLY_BITS)
        if eta is not None:
            return f"use eta >= {need:.3g}"
        x = need / k  # ln u
        return f"use exp_base >= 1 + {math.expm1(x):.3g}" if x < 1 else f"use exp_base >= e^{x:.3g}"

    A_est = _degree_estimate([m.w for m in ms], u)
    if A_est > 2 * MAX_DEGREE or k * A_est > 2 * MAX_POLY_BITS:  # before any exact work (k more at most)
        _check_poly_cost(k, A_est, pname, hint())
    a = [_exponent(m.w, u, rounding) for m in ms]
    lat = _Lat(u, a)
    _check_poly_cost(k, lat.A, pname, hint())
    if form == "proof":
        cells = 2 * (lat.A.bit_length() + 2) * k * (lat.A // 2 + 1)
        sec = cells * _PROOF_SECONDS_PER_CELL
        if sec > max_proof_seconds:
            _, fast_sec = _poly_cost(k, lat.A)
            raise CostTooHigh(
                "form",
                f"the proof's form would fill about {cells:.3g} Lemma 5.1 table cells (estimated {sec:.3g} s, limit "
                f"{max_proof_seconds:.0f} s); form='fast' gives the same eps* (estimated {max(fast_sec, 0.01):.2g} s)",
            )
    P = _P([m.delta for m in ms])
    tau = _Tau(P, dg, half_eta_scale if variant == "completion" else None)
    stats: dict = {}
    res = _optcomp_fast(lat, tau, digits + 2) if form == "fast" else _optcomp_proof(lat, tau, digits + 2, stats=stats)
    if res.infinite:
        return ApproxResult(math.inf, math.inf, None, True, et, ub, e0, variant, form, k, lat.A, dg, _GUARANTEE[variant], None, None, stats.get("tables"))
    add = variant in ("completion", "printed+eta")
    lo, hi, ex, ex_t = res.lower, res.upper, res.exact, res.exp_exact
    if add:
        if et is not None:
            lo, hi = lo + et, hi + et  # type: ignore[operator]
            ex = ex + et if ex is not None else None
            ex_t = None  # e^{eta} is irrational
        else:
            alo, ahi = _log_enclosure_of_rational(ub**k, digits + 4)  # type: ignore[operator]
            lo, hi = lo + alo, hi + ahi  # type: ignore[operator]
            ex = None
            ex_t = ex_t * ub**k if ex_t is not None else None  # type: ignore[operator]
    return ApproxResult(lo, hi, ex, False, et, ub, e0, variant, form, k, lat.A, dg, _GUARANTEE[variant], res.prec, ex_t, stats.get("tables"))


# --------------------------------------------------------------------------
# the certified sandwich


@dataclass(frozen=True)
class Bounds:
    """Rigorous bounds ``lower <= value <= upper`` from the lattice sandwich.

    Guarantee: lower bound / upper bound (rigorous); ``width_reached`` says
    whether the requested width was met. Raises: nothing (a frozen record).
    """

    lower: Number
    upper: Number
    infinite: bool
    base: str
    eps0: Optional[Fraction]
    exp_base: Optional[Fraction]
    degree: int
    levels: int
    width_reached: bool
    exact_lower: Optional[Fraction] = None
    exact_upper: Optional[Fraction] = None

    def to_dict(self, digits: int = 30) -> dict:
        """JSON-serialisable bounds (rounded outward). Guarantee: lower / upper bound. Raises: nothing."""
        if self.infinite:
            b = {"lower": "inf", "upper": "inf"}
        else:
            b = {
                "lower": fraction_to_decimal(self.lower, digits, "down"),  # type: ignore[arg-type]
                "upper": fraction_to_decimal(self.upper, digits, "up"),  # type: ignore[arg-type]
            }
        return {
            **b,
            "infinite": self.infinite,
            "base": self.base,
            "eps0": fraction_str(self.eps0) if self.eps0 is not None else None,
            "exp_base": fraction_str(self.exp_base) if self.exp_base is not None else None,
            "lattice_degree": self.degree,
            "levels": self.levels,
            "width_reached": self.width_reached,
        }


def _start_lattice(ms: Sequence[Mechanism], base: str, width: Fraction):
    """First lattice of the sandwich: about 4 lattice points per mechanism... a
    dyadic eps0 (base "eps") or N = 2^n (base "exp") with degree >= 4k."""
    k = len(ms)
    total = math.fsum(max(m.w.flog(), 0.0) for m in ms)
    if total <= 0:
        total = 1.0
    step = total / (4 * k)
    n = max(0, int(math.ceil(-math.log2(step)))) if step < 1 else 0
    return n


def _lattice_at(ms, base: str, n: int):
    if base == "eps":
        e0 = Fraction(1, 2**n)
        return RatExp.from_eps(e0), e0, None
    N = 2**n
    ub = Fraction(N + 1, N)
    return RatExp.from_exp(ub), None, ub


def _sandwich_levels(ms, base: str, wd: Fraction, max_degree: int):
    """The sandwich's ever finer lattices: yields ``(u, e0, ub, a_lo, a_hi)`` (the eps_i
    rounded down and up to the lattice of base u) until one would exceed the limits.

    Raises:
        CostTooHigh: already the first lattice is too big.
    """
    n = _start_lattice(ms, base, wd)
    levels = 0
    while True:
        u, e0, ub = _lattice_at(ms, base, n)
        if _sandwich_level_too_big(ms, u, max_degree, levels):
            return
        a_lo = [_exponent(m.w, u, "down") for m in ms]
        a_hi = [_exponent(m.w, u, "up") for m in ms]
        if sum(a_hi) > max_degree:
            if levels == 0:
                raise CostTooHigh("width", f"the first lattice already has degree {sum(a_hi)} > max_degree={max_degree}")
            return
        levels += 1
        yield u, e0, ub, a_lo, a_hi
        n += 1


def _sandwich_level_too_big(ms, u, max_degree: int, levels: int) -> bool:
    """True when the next sandwich lattice would exceed the limits (refinement stops there).

    Raises:
        CostTooHigh: already the first lattice is too big (``levels == 0``).
    """
    A_est = _degree_estimate([m.w for m in ms], u)
    if A_est <= 2 * max_degree + len(ms) and len(ms) * A_est <= MAX_POLY_BITS:
        return False
    if levels == 0:
        mem, sec = _poly_cost(len(ms), int(A_est))
        raise CostTooHigh(
            "width",
            f"the first lattice already has degree about {A_est:.3g} (max_degree={max_degree}, k*A limit "
            f"{MAX_POLY_BITS:.3g}; estimated {mem / 1e9:.3g} GB, {sec:.3g} s)",
        )
    return True


def optcomp_bounds(
    mechanisms,
    delta_g: object,
    *,
    width: object = "1e-6",
    base: str = "eps",
    max_degree: int = 4_000_000,
    digits: int = 20,
) -> Bounds:
    """Rigorous bounds on OptComp by rounding every eps_i down and up to a lattice.

    OptComp is increasing in every eps_i (a mechanism with smaller eps is a
    post-processing of one with larger eps), so with ``a_i = floor`` and
    ``ceil`` of ``ln w_i / ln u``::

        OptComp(u^{a_floor}) <= OptComp(w) <= OptComp(u^{a_ceil})

    and both ends are lattice problems, solved exactly by the fast form. The
    lattice is refined (eps0 halved, or N doubled) until ``upper - lower <=
    width``. ``base="eps"``: ``u = e^{eps0}``, ``eps0 = 2^-n`` (Arb enclosures);
    ``base="exp"``: ``u = 1 + 1/N``, ``N = 2^n``, every computation in exact
    rationals (``exact_lower`` / ``exact_upper`` hold ``e^{bound}``).

    Guarantee: ``lower <= OptComp(delta_g) <= upper`` (rigorous). If the width
    is not reached by ``max_degree``, the best bounds are returned with
    ``width_reached = False``.

    Raises:
        InvalidArgument: bad mechanisms, delta_g, width <= 0, unknown base.
        PrecisionError: no rigorous answer by ``MAXPREC`` bits.

    Examples:
        >>> from exactdp import mechanisms
        >>> b = optcomp_bounds(mechanisms(exp_eps=["11/10", "6/5", "13/10"]), "1/100", width="1e-3", base="exp")
        >>> b.upper - b.lower <= Fraction(1, 1000), b.width_reached
        (True, True)

    References:
        Murtagh-Vadhan Theorem 1.7 and Lemma 5.3 (the gap); DESIGN.md, lattice path.
    """
    ms = validate_mechanisms(mechanisms)
    dg = parse_delta(delta_g, "delta_g")
    digits = _check_digits(digits)
    wd = parse_rational(width, "width", expected="a rational number > 0")
    if wd <= 0:
        raise InvalidArgument("width", "a rational number > 0", width)
    if base not in ("eps", "exp"):
        raise InvalidArgument("base", "'eps' or 'exp'", base)
    P = _P([m.delta for m in ms])
    tau = _Tau(P, dg)
    if tau.sign() < 0:
        return Bounds(math.inf, math.inf, True, base, None, None, 0, 0, True)
    lo_best: Number = Fraction(0)
    hi_best: Number = math.inf
    ex_lo = ex_hi = None
    levels = 0
    last = (None, None, 0)
    for u, e0, ub, a_lo, a_hi in _sandwich_levels(ms, base, wd, max_degree):
        levels += 1
        r_lo = _optcomp_fast(_Lat(u, a_lo), tau, digits)
        r_hi = r_lo if a_hi == a_lo else _optcomp_fast(_Lat(u, a_hi), tau, digits)
        if levels == 1 or r_lo.lower > lo_best:  # type: ignore[operator]
            lo_best, ex_lo = r_lo.lower, r_lo.exp_exact
        if levels == 1 or r_hi.upper < hi_best:  # type: ignore[operator]
            hi_best, ex_hi = r_hi.upper, r_hi.exp_exact
        last = (e0, ub, sum(a_hi))
        if hi_best - lo_best <= wd:  # type: ignore[operator]
            return Bounds(lo_best, hi_best, False, base, e0, ub, sum(a_hi), levels, True, ex_lo, ex_hi)
    return Bounds(lo_best, hi_best, False, base, last[0], last[1], last[2], levels, False, ex_lo, ex_hi)


def _delta_lattice(lat: _Lat, t_num: ExpNum, P: Fraction, digits: int) -> tuple[Fraction, Fraction]:
    """Enclosure of delta_g at ``t = e^{eps_g}`` for ``w_i' = u^{a_i}`` (Theorem 1.5)."""
    from .optcomp.fields import ArbField, ExactField

    if lat.A == 0:
        d = 1 - P
        return d, d
    lattice = Lattice(lat.u, lat.coeffs())
    if lat.uq is not None and t_num.exact() is not None:
        f = ExactField()
        S, _ = lattice.evaluate(f, t_num)
        Z = lat.Z(None)
        d = 1 - P * (1 - f.to_fraction(S) / Z)
        return d, d
    p = _bits(digits) + 32
    while p <= MAXPREC:
        with workprec(p):
            f = ArbField(p)
            S, _ = lattice.evaluate(f, t_num)
            Z = lat.Z(p)
            d = 1 - arb(_fq(P)) * (1 - S / Z)
            if d.is_finite():
                lo, hi = arb_bounds(d)
                lo, hi = max(lo, 1 - P), min(hi, Fraction(1))
                if _accurate(lo, hi, digits):
                    return lo, hi
        p *= 2
    raise PrecisionError(f"delta enclosure did not reach {digits} digits (maxprec={MAXPREC} bits)")


def delta_bounds(
    mechanisms,
    eps_g: object = None,
    *,
    exp_eps_g: object = None,
    width: object = "1e-9",
    base: str = "eps",
    max_degree: int = 4_000_000,
    digits: int = 20,
    stop=None,
) -> Bounds:
    """Rigorous bounds on ``delta_g(eps_g)`` by the lattice sandwich.

    ``delta_g`` at a fixed eps_g is increasing in every eps_i, so the rounded
    down and rounded up lattices bracket it (see :func:`optcomp_bounds`). The
    lattice is refined until ``upper - lower <= width`` (absolute), or until
    ``stop(lower, upper)`` returns True (used by :func:`exactdp.certify.certify`
    to stop as soon as a claim is decided).

    Guarantee: ``lower <= delta_g <= upper`` (rigorous); ``width_reached`` is
    False when ``max_degree`` ended the refinement first.

    Raises:
        InvalidArgument: bad mechanisms, eps_g, width, base.
        PrecisionError: no rigorous answer by ``MAXPREC`` bits.

    Examples:
        >>> from exactdp import mechanisms
        >>> b = delta_bounds(mechanisms(exp_eps=["11/10", "6/5"]), exp_eps_g="11/10", width="1e-4", base="exp")
        >>> b.lower <= Fraction(1, 21) <= b.upper   # exact: (6/5 * 11/10 - 11/10) / ((1 + 11/10)(1 + 6/5))
        True

    References:
        Murtagh-Vadhan Theorem 1.5 (delta_g as a function of eps_g), Theorem 1.7.
    """
    ms = validate_mechanisms(mechanisms)
    digits = _check_digits(digits)
    if (eps_g is None) == (exp_eps_g is None):
        raise InvalidArgument("eps_g / exp_eps_g", "given, exactly one of the two", None)
    if eps_g is not None:
        t_num: ExpNum = RatExp.from_eps(parse_eps(eps_g, "eps_g"))
    else:
        tq = parse_rational(exp_eps_g, "exp_eps_g", expected="a rational number >= 1")
        if tq < 1:
            raise InvalidArgument("exp_eps_g", "a rational number >= 1", exp_eps_g)
        t_num = RatExp.from_exp(tq)
    wd = parse_rational(width, "width", expected="a rational number > 0")
    if wd <= 0:
        raise InvalidArgument("width", "a rational number > 0", width)
    if base not in ("eps", "exp"):
        raise InvalidArgument("base", "'eps' or 'exp'", base)
    P = _P([m.delta for m in ms])
    lo_best, hi_best = Fraction(0), Fraction(1)
    levels = 0
    last = (None, None, 0)
    for u, e0, ub, a_lo, a_hi in _sandwich_levels(ms, base, wd, max_degree):
        levels += 1
        lo, _ = _delta_lattice(_Lat(u, a_lo), t_num, P, digits)
        _, hi = _delta_lattice(_Lat(u, a_hi), t_num, P, digits)
        lo_best, hi_best = max(lo_best, lo), min(hi_best, hi)
        last = (e0, ub, sum(a_hi))
        if hi_best - lo_best <= wd or (stop is not None and stop(lo_best, hi_best)):
            return Bounds(lo_best, hi_best, False, base, e0, ub, sum(a_hi), levels, hi_best - lo_best <= wd)
    return Bounds(lo_best, hi_best, False, base, last[0], last[1], last[2], levels, False)
