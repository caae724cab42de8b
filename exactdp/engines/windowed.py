"""The windowed homogeneous kernel: k equal mechanisms without exact binomials.

For ``k`` mechanisms with ``w = e^eps`` (Kairouz-Oh-Viswanath's homogeneous sum;
Murtagh-Vadhan Theorem 1.4), ``Z = (1 + w)^k`` and ``p = w / (1 + w)``, the classes
``m >= m_hi`` (those with ``w^(2m-k) > t``) are the positive ones and::

    S(t) / Z     = P[X >= m_hi] - t P[Y >= m_hi],     X ~ Bin(k, p),  Y ~ Bin(k, 1 - p)
    sigma(t) / Z = P[Y >= m_hi]

since ``C(k,m) w^m / Z = P[X = m]`` and ``C(k,m) w^(k-m) / Z = P[Y = m]``. Both
probabilities are binomial tails; only the terms within a few standard deviations
of where the tail starts matter at a given precision, so each tail is summed over
a *window* of consecutive terms in Arb ball arithmetic and the rest is bounded
rigorously and added as a ball radius.

**The window sum and its tail bound.** For ``B(m) = C(k,m) x^m / (1 + x)^k``
(``x = w`` for X, ``x = 1/w`` for Y):

* upwards, ``B(m+1) / B(m) = r_up(m) = x (k - m) / (m + 1)``;
* downwards, ``B(m-1) / B(m) = r_dn(m) = m / ((k - m + 1) x)``.

*Lemma.* ``r_up`` is non-increasing in ``m`` (its numerator ``k - m`` decreases,
its denominator ``m + 1`` increases, ``x > 0``), and ``r_dn`` is non-increasing as
``m`` decreases (same argument). *Hence* if the window stops before the term
``T = B(m')`` and ``r = r(m') < 1`` (the ratio from ``T`` to the next term), every
later ratio is ``<= r`` and the omitted terms sum to at most
``T (1 + r + r^2 + ...) = T / (1 - r)``. The enclosure adds the ball ``[0, T/(1-r)]``
with ``T`` and ``r`` themselves balls (their upper ends are used); the sum is
finite (it ends at ``m = k`` or ``m = 0``, where a factor vanishes), so nothing is
lost if the window reaches the end. Where the window ends is chosen in floating
point (the tail bound must be ``2^-(prec+12)`` of the window sum); the choice
affects only the width, never the validity, and a window found too short is
extended.

``P[X >= m_hi]`` is summed upwards from ``m_hi`` when ``m_hi`` is at or above the
mode ``floor((k+1) p)``, else as ``1 - P[X <= m_hi - 1]`` summed downwards (the
terms then decrease away from the mode in both cases, so the lemma's ``r < 1`` is
reached). ``P[Y >= m_hi]`` is always summed upwards: ``t >= 1`` makes
``m_hi > k/2 >= `` Y's mode. The first term of each window comes from
``arb.lgamma`` at ``prec + 48 + log2 k`` bits (``ln C(k, m)`` is about ``k``,
so its absolute error must be ``2^-(prec+8)``).

**Long windows as one function.** Upwards from ``m0`` the ratio of consecutive terms is
that of the terminating Gauss series ``2F1(m0 - k, 1; m0 + 1; -x)`` (downwards,
``2F1(-m0, 1; k - m0 + 1; -1/x)``), so the whole tail is ``B(m0)`` times that function, which
Arb evaluates rigorously without visiting the terms: 10-90 ms at k = 10^9 where the window
has 10^5 terms (0.1-0.3 s). It is used for windows of more than ``HYPGEOM_MIN_TERMS``
terms up to ``HYPGEOM_MAX_PREC`` bits (measured there; at 1024 bits Arb took tens of
seconds and returned wide balls) when the terms decrease from ``m0``; a result that is
not finite or wider than ``2^-prec`` relative falls back to the window sum.

Cost: the window has about ``(sqrt(2 (prec + 12) ln 2) + c) sqrt(k p (1-p))``
terms (a Gaussian tail), so an evaluation grows like ``sqrt(k)`` times the
precision's square root, not ``k``; the pair of sums is cached per ``(m_hi,
prec)``, so Newton's steps and the certificate, which mostly stay on one piece of
``S``, reuse it. Guarantee: an enclosure in Arb balls (relative width ``2^-prec``
of the summed terms, the same as rounding, so the engines' precision strategy
applies unchanged); exact in the exact field (through exact binomials, the
homogeneous kernel, whose cost the exact engine checks first).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Optional

from .._backend import arb, np, workprec
from ..errors import CostTooHigh
from ..numbers import ExpNum
from .costs import ALLOC_SLACK, Estimate
from .fields import ArbField, Field
from .kernel import APPROX_ALTERNATIVE, Kernel, Reason, Request
from .lattice import (
    HOMOGENEOUS,
    BallKernel,
    CachedApprox,
    Lattice,
    lattice_build,
    lattice_eval,
    ratio_one_sums,
    threshold_classes,
)
from .structure import Structure

__all__ = ["Windowed", "WINDOWED", "binomial_tail", "window_terms", "windowed_cost", "first_log", "log_terms", "log1pexp"]

#: Extra bits of the window's tail bound below the working precision.
TAIL_BITS = 12


def window_terms(k: int, lw: float, prec: int) -> float:
    """Estimated number of terms of one window sum (for the cost estimates).

    Guarantee: approximate (a Gaussian-tail count, ``(sqrt(2 (prec+12) ln 2) + 4)``
    standard deviations, at most ``k + 1``). Raises: nothing.
    """
    _, sd = _law(k, lw)
    return min(float(k + 1), (math.sqrt(2 * (prec + TAIL_BITS) * math.log(2)) + 4) * sd + 16)


def _log_ratios(k: int, lx: float, m0: int, n: int, up: bool) -> np.ndarray:
    """Float logs of the ratios from term ``j`` to ``j + 1`` of a window (``n`` of them)."""
    if up:
        m = np.arange(m0, m0 + n, dtype=float)
        with np.errstate(divide="ignore"):
            return lx + np.log(k - m) - np.log(m + 1)
    m = np.arange(m0, m0 - n, -1, dtype=float)
    with np.errstate(divide="ignore"):
        return np.log(m) - np.log(k - m + 1) - lx


def _float_window(k: int, lx: float, m0: int, up: bool, bits: float) -> int:
    """How many terms to sum (float choice; see the module docstring): the first ``J``
    with ``T_J / (1 - r_J) <= 2^-bits sum_{j<J} T_j`` and ``r_J < 1``, or the whole range."""
    total = (k - m0 + 1) if up else (m0 + 1)
    n = min(total, 4096)
    goal = bits * math.log(2)
    while True:
        lr = _log_ratios(k, lx, m0, n, up)
        lt = np.concatenate(([0.0], np.cumsum(lr)))  # log T_j / T_0, j = 0..n
        lsum = np.logaddexp.accumulate(lt[:-1])  # log sum_{j <= J-1}
        with np.errstate(invalid="ignore", divide="ignore"):
            tail = lt[1:] - np.log(-np.expm1(np.minimum(lr, -1e-300)))  # bound at J = 1..n
        ok = np.nonzero((lr < 0) & (tail <= lsum - goal))[0]
        if ok.size:
            return int(ok[0]) + 1
        if n >= total:
            return total
        n = min(total, 4 * n)


def first_log(k: int, m: int, x: arb, hp: int) -> arb:
    """``ln (C(k, m) x^m / (1 + x)^k)`` as a ball (``arb.lgamma``) at ``hp`` bits."""
    with workprec(hp):
        return (arb(k + 1).lgamma() - arb(m + 1).lgamma() - arb(k - m + 1).lgamma()
                + m * x.log() - k * (1 + x).log())


def binomial_tail(k: int, x: ExpNum, m0: int, prec: int, *, lower: bool = False) -> arb:
    """``P[X >= m0]`` (or ``P[X <= m0]`` with ``lower``) for ``X ~ Bin(k, x / (1 + x))``, summed
    over a window with the rest bounded rigorously (module docstring).

    Guarantee: enclosure, of relative width about ``2^-prec`` (for a sum that is not
    itself below ``2^-prec`` of its first term; a window is at least the terms to the
    mode).

    Parameters:
        k: number of trials (>= 0).
        x: the odds ``x = p / (1 - p) > 0`` as an exp-space number (``e^eps``).
        m0: where the tail starts (any integer; empty tails are 0).
        prec: working precision in bits.
        lower: sum ``m <= m0`` instead of ``m >= m0``.

    Raises: nothing.

    Examples:
        >>> from exactdp.numbers import RatExp
        >>> from fractions import Fraction
        >>> v = binomial_tail(10, RatExp.from_exp(Fraction(1)), 8, 64)   # (45 + 10 + 1) / 1024
        >>> bool(v.contains(arb(56) / 1024)), float(v.rad()) < 1e-17
        (True, True)
    """
    up = not lower
    if (up and m0 > k) or (not up and m0 < 0):
        return arb(0)
    if up and m0 <= 0 or (not up and m0 >= k):
        return arb(1)
    hp = prec + 48 + max(k, 1).bit_length()
    with workprec(hp):
        xa = x.arb(hp)
        lx = x.flog()
        first = first_log(k, m0, xa, hp).exp()
        J = None
        cross = hypgeom_min_terms(prec)
        nt = window_terms(k, lx, prec) if prec <= HYPGEOM_MAX_PREC else 0.0
        if nt > cross / 4 and _decays(k, lx, m0, up):
            # the function where it is cheaper than the window's terms (decided on the bound
            # window_terms far from the crossover, else on the window itself)
            J = _float_window(k, lx, m0, up, prec + TAIL_BITS) if nt < 4 * cross else None
            if J is None or J > cross:
                v = first * _hypgeom_tail(k, xa, m0, up)
                if v.is_finite() and v > 0 and v.rad() <= v.mid() * arb(2) ** (-prec):
                    return v
                # wider or undecided (not seen in the domain it is used in): the window sum below
    if J is None:
        J = _float_window(k, lx, m0, up, prec + TAIL_BITS)
    # rounding over J terms costs log2 J bits: kept below the tail bound's 2^-(prec+12)
    with workprec(prec + 16 + J.bit_length()):
        term = first
        acc = arb(0)
        m = m0
        while True:
            # terms m0 .. m0 + J - 1 (upwards) or m0 .. m0 - J + 1 (downwards)
            if up:
                for _ in range(J):
                    acc += term
                    term = term * xa * (k - m) / (m + 1)
                    m += 1
            else:
                for _ in range(J):
                    acc += term
                    term = term * m / ((k - m + 1) * xa)
                    m -= 1
            if (m > k if up else m < 0) or term.is_zero():
                return acc
            r = xa * (k - m) / (m + 1) if up else m / ((k - m + 1) * xa)
            if r < 1:
                bound = (term / (1 - r)).upper()
                if acc > 0 and bound <= acc * arb(2) ** (-(prec + TAIL_BITS) + 2):
                    # the omitted terms lie in [0, bound] (the lemma in the module docstring)
                    return acc + arb(bound / 2, bound / 2)
            J = max(J, 64)


#: The tail as one hypergeometric function (:func:`_hypgeom_tail`) is used up to this precision
#: and beyond this many window terms: Arb's 2F1 answered 400 random tails (k from 1e5 to 1e11,
#: eps from 1e-4 to 5, starting 0 to 40 sd beyond the mode, 53 to 320 bits) in at most 0.095 s,
#: all within 2^-(prec-4) relative, and each one compared with the window sum (k up to 2e8)
#: inside its enclosure; at 1024 bits it took 34 to 58 s and came back wide, so higher
#: precisions sum the window.
HYPGEOM_MAX_PREC = 320
#: ... and where the window has more terms than this at 150 bits (Arb's 2F1 took 16-25 ms at 150
#: bits and 55-85 ms at 300 for k from 10^6 to 10^8, the window 0.6-1.2 us a term: they cross
#: near 2 x 10^4 terms at 150 bits, 8 x 10^4 at 300; measured on 2 shared cores).
HYPGEOM_MIN_TERMS = 20000


def _hypgeom_scale(prec: int) -> float:
    """How the hypergeometric function's cost grows with the precision, relative to 150 bits (as
    its square, measured)."""
    return (prec / 150) ** 2


def hypgeom_min_terms(prec: int) -> float:
    """The window length beyond which the hypergeometric function is cheaper at ``prec`` bits
    (:data:`HYPGEOM_MIN_TERMS` scaled with the square of the precision, as measured).
    Guarantee: approximate (a choice of method only). Raises: nothing."""
    return HYPGEOM_MIN_TERMS * _hypgeom_scale(prec)


def _decays(k: int, lx: float, m0: int, up: bool) -> bool:
    """Do the terms decrease from ``m0`` on (upwards: at or beyond the mode; downwards: at or
    below it)? Decided in floats with a margin of one term (only chooses the method)."""
    p = 1.0 / (1.0 + math.exp(-lx)) if lx < 700 else 1.0
    mode = (k + 1) * p
    return m0 >= mode + 1 if up else m0 <= mode - 2


def _hypgeom_tail(k: int, xa: arb, m0: int, up: bool) -> arb:
    """``sum_j B(m0 +- j) / B(m0)`` as a terminating Gauss hypergeometric function, in Arb.

    Upwards the ratio of consecutive terms is ``x (k - m0 - j) / (m0 + 1 + j)``, the ratio of
    ``2F1(m0 - k, 1; m0 + 1; -x)``'s terms; downwards ``(m0 - j) / ((k - m0 + 1 + j) x)``, that of
    ``2F1(-m0, 1; k - m0 + 1; -1/x)``. Both series end (a numerator parameter is a negative
    integer), so the function is exactly the finite sum. Guarantee: enclosure (Arb's 2F1
    is rigorous); the caller checks its width. Raises: nothing."""
    if up:
        return (-xa).hypgeom([m0 - k, 1], [m0 + 1])
    return (-1 / xa).hypgeom([-m0, 1], [k - m0 + 1])


class Windowed(CachedApprox, BallKernel):
    """``k`` mechanisms with one ``w = e^eps``: S(t) from two windowed binomial tails.

    See the module docstring. Arb fields only; the exact field goes through the exact
    homogeneous kernel (built on first use, after the exact engine's cost check).
    """

    method = "windowed"

    def __init__(self, w: ExpNum, k: int):
        self.w = w
        self.k = int(k)
        self._lw = w.flog()
        self._cache: dict = {}
        self._located: dict = {}
        self._table = None
        self._near = None
        self._lattice = None

    def _exact_kernel(self):
        if self._lattice is None:
            self._lattice = Lattice.from_groups(self.w, [(1, self.k)], "homogeneous")
        return self._lattice

    def cost(self) -> float:
        return 2 * window_terms(self.k, self._lw, 128)

    def estimate(self, kind: str, prec: int):
        if kind == "exact":
            q = self.w.exact()
            ub = float(q.numerator.bit_length() + q.denominator.bit_length()) if q is not None else 64.0
            return lattice_build([(1, self.k)]), lattice_eval(self.k, self.k, kind, prec, ub)
        return windowed_cost(self.k, self._lw, prec)

    def loss_classes(self, field: Field) -> list:
        """The ``k + 1`` classes, through the exact homogeneous kernel (small ``k`` only).

        Raises:
            CostTooHigh: ``k > 200000`` (the classes themselves are the cost).
        """
        if self.k > 200_000:
            raise CostTooHigh("k", f"the trade-off curve of {self.k} equal mechanisms has {self.k + 1} classes "
                              "(limit 200000)", estimate=self.k + 1, limit=200_001,
                              alternative="PrivacyProfile.delta / .epsilon at given points")
        return self._exact_kernel().loss_classes(field)

    def threshold(self, t_num: ExpNum) -> tuple[int, list[int]]:
        """``(m_hi, undecided)`` as :meth:`~exactdp.engines.lattice.Lattice.threshold` (``u = w``, ``A = k``).
        Guarantee: exact. Raises: nothing."""
        return threshold_classes(self.w, self.k, self._lw, t_num)

    def tails(self, m_hi: int, prec: int) -> tuple[arb, arb, arb]:
        """``(P[X >= m_hi], P[Y >= m_hi], Z)`` at ``prec`` bits or more (cached: a sum made at a
        higher precision serves a lower one). Guarantee: enclosure."""
        key = (m_hi, prec)
        hit = self._cache.get(key)
        if hit is None:
            # a sum at a higher precision is as valid and at least as narrow
            hit = next((v for (m, p), v in self._cache.items() if m == m_hi and p >= prec), None)
        if hit is not None:
            return hit
        k, w = self.k, self.w
        with workprec(prec):
            p_mode = (k + 1) / (1 + math.exp(-self._lw)) if self._lw < 700 else k + 1.0
            if m_hi >= math.floor(p_mode):
                a = binomial_tail(k, w, m_hi, prec)
            else:
                a = 1 - binomial_tail(k, w, m_hi - 1, prec, lower=True)
            sig = binomial_tail(k, _Inv(w), m_hi, prec)
            Z = ArbField(prec).power(w, k, one_plus=True)
        if len(self._cache) > 64:
            self._cache.clear()
        hit = self._cache[key] = (a, sig, Z)
        return hit

    def _evaluate_balls(self, field: ArbField, t_num: ExpNum, t):
        """``(S(t), sigma(t))`` in balls (module docstring; other fields: :class:`BallKernel`)."""
        k = self.k
        zero = field.rational(Fraction(0))
        if k == 0 or self.w.is_one():
            return ratio_one_sums(field, t_num, t, field.rational(Fraction(2**k)) if k < 64 else arb(2) ** k)
        m_hi, undecided = self.threshold(t_num)
        prec = field.prec
        a, sig, Z = self.tails(m_hi, prec) if m_hi <= k else (zero, zero, field.power(self.w, k, one_plus=True))
        s = Z * (a - t * sig)
        sigma = Z * sig
        if undecided:
            w = field.embed(self.w)
            hp = prec + 48 + k.bit_length()
            for mm in undecided:
                bx = first_log(k, mm, self.w.arb(hp), hp).exp()
                s += field.pos(Z * bx * (1 - t * w ** (k - 2 * mm)))
        return s, sigma

    def _piece_table(self):
        """Float ``m``, ``ln P[X > m]``, ``ln P[Y > m]`` for ``m`` from ``max(k/2, mode - 12 sd)`` to
        ``min(k, mode + 40 sd)`` (suffix log-sums; built once, for :meth:`locate_float`), or None
        when that range is too long (more than 4e6 entries)."""
        if self._table is None:
            lo, hi = self._table_range()
            self._table = self._build_table(lo, hi) if hi - lo + 1 <= 4_000_000 else False
        return self._table or None

    def _table_range(self) -> tuple[int, int]:
        k, lw = self.k, self._lw
        p, sd = _law(k, lw)
        mode = (k + 1) * p
        return max(k // 2, int(mode - 12 * sd)), min(k, int(mode + 40 * sd) + 16)

    def _build_table(self, lo: int, hi: int):
        k, lw = self.k, self._lw
        lb = log_terms(k, lw, lo, hi - lo + 1)
        m = np.arange(lo, hi + 1, dtype=float)
        ly = lb + (k - 2 * m) * lw  # B_Y(m) = B_X(m) w^(k - 2m)
        la = _log_suffix_sums(lb)  # ln P[X >= m] (within the range)
        lyy = _log_suffix_sums(ly)
        # tails strictly above m: shift by one (the last entry's tail is empty: -inf)
        return m, np.append(la[1:], -np.inf), np.append(lyy[1:], -np.inf)

    def _near_table(self, g: float):
        """A table over the part of the range where ``S(t_m) / Z`` crosses ``tau = e^g``: from 4 sd
        below the normal law's estimate of the crossing to 4 sd beyond it (or the mode), its
        tails summed over 10 sd more, beyond which the omitted terms are below ``e^-48`` of them
        (Gaussian decay), so the float tails are as accurate. Used when the whole range has more than ``NEAR_TABLE_MIN`` entries (a
        quarter of the cost at k = 10^9); None otherwise. Guarantee: approximate."""
        lo0, hi0 = self._table_range()
        if hi0 - lo0 + 1 <= NEAR_TABLE_MIN:
            return None
        k = self.k
        p, sd = _law(k, self._lw)
        mode = (k + 1) * p
        m_est = mode + sd * _normal_isf_log(g)
        lo = max(lo0, int(m_est - 4 * sd))
        hi = min(hi0, int(max(m_est, mode) + 14 * sd) + 16)
        if hi - lo < 8:
            return None
        key = (lo, hi)
        if self._near is None or self._near[0] != key:
            # the last 10 sd of entries miss part of their tails (beyond hi): cut off
            keep = hi - lo + 1 - int(10 * sd) - 16
            if keep < 8:
                return None
            m, la, ly = self._build_table(lo, hi)
            self._near = (key, (m[:keep], la[:keep], ly[:keep]))
        return self._near[1]

    def locate_float(self, log_goal: float) -> Optional[float]:
        """``ln t*`` for ``S(t*) = e^log_goal`` in floating point, from the table of pieces:
        the last breakpoint ``t_m = w^(2m-k)`` with ``S(t_m)`` above the goal, then the exact
        linear step on that piece (``S`` is linear between breakpoints). Guarantee:
        approximate (a starting point for the certified Newton steps). Raises: nothing.
        Returns None when the crossing is outside the table's range (the generic search runs).
        """
        hit = self._located.get(log_goal, 0)
        if hit == 0:
            if len(self._located) > 64:
                self._located.clear()
            hit = self._located[log_goal] = self._locate_float_uncached(log_goal)
        return hit

    def _locate_float_uncached(self, log_goal: float) -> Optional[float]:
        k, lw = self.k, self._lw
        if lw <= 0 or k < 2:
            return None
        g = log_goal - k * log1pexp(lw)  # ln tau: S / Z against tau
        near = self._near_table(g)
        if near is not None:
            L = self._locate_in(near, g, strict=True)
            if L is not None:
                return L
        tab = self._piece_table()
        if tab is None:
            return None
        return self._locate_in(tab, g)

    def _locate_in(self, tab, g: float, *, strict: bool = False) -> Optional[float]:
        """The crossing in one table (see :meth:`locate_float`); ``strict``: None unless it lies
        strictly inside the table (a table cut at both ends)."""
        k, lw = self.k, self._lw
        m, la, ly = tab
        lnt = (2 * m - k) * lw
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            F = la + np.log1p(-np.minimum(np.exp(lnt + ly - la), 1.0))  # ln S(t_m) / Z
        ok = (lnt >= 0) & np.isfinite(F)
        idx = np.nonzero(ok & (F > g))[0]
        if not idx.size or not ok.any():
            return None
        i = int(idx[-1])
        if i == len(m) - 1 or i < int(np.nonzero(ok)[0][0]) or (i + 1 < len(m) and not ok[i + 1] and F[i + 1] > g):
            return None
        if strict and i == 0 and not F[0] > g:
            return None
        # on the piece from t_m: t* = t_m + (S(t_m) - goal) / sigma, sigma / Z = P[Y > m]
        # in logs: x = e^lx can be far beyond the float range (two mechanisms of eps = 1e6: lx = 2e6,
        # and a cap at e^700 put t* at 700 instead of 2e6, inside the OptComp limit)
        lx = float(F[i] - lnt[i] - ly[i]) + math.log(-math.expm1(g - float(F[i])))
        L = float(lnt[i]) + (lx + math.log1p(math.exp(-lx)) if lx > 0 else math.log1p(math.exp(lx)))
        return min(max(L, float(lnt[i])), float(lnt[i]) + 2 * lw)

    def _approx_from_table(self, lnt: float) -> Optional[tuple[float, float]]:
        """:meth:`approx` from the table of pieces when it is built and ``lnt`` lies on one of its
        pieces (``S / Z = P[X > m] - t P[Y > m]`` for ``t`` from ``t_m`` up to the next
        breakpoint), else None."""
        for tab in (self._table, self._near[1] if self._near else None):
            if not tab:
                continue
            m, la, ly = tab
            lnt_m = (2 * m - self.k) * self._lw
            i = int(np.searchsorted(lnt_m, lnt, side="right")) - 1
            if 0 <= i < len(m) - 1 and math.isfinite(la[i]) and math.isfinite(ly[i]):
                break
        else:
            return None
        r = lnt + float(ly[i] - la[i])  # ln (t P[Y > m] / P[X > m]) < 0 on the piece
        if not r < 0:
            return None
        ls = float(la[i]) + math.log(-math.expm1(r))
        lz = self.k * log1pexp(self._lw)
        return ls + lz, -math.exp(min(lnt + float(ly[i]) - ls, 700.0))

    def _approx_uncached(self, lnt: float) -> tuple[float, float]:
        """``(ln S, d ln S / d ln t)`` in floating point over a window (or from the table of
        pieces); cached by :class:`~.lattice.CachedApprox`. Guarantee: approximate."""
        quick = self._approx_from_table(lnt)
        if quick is not None:
            return quick
        k, lw = self.k, self._lw
        if lw <= 0:
            return (math.log(2) * k + math.log(-math.expm1(lnt)), -1.0 / -math.expm1(lnt)) if lnt < 0 else (-math.inf, 0.0)
        m_hi = max(0, math.floor((k + lnt / lw) / 2) + 1)
        if m_hi > k:
            return -math.inf, 0.0
        p, sd = _law(k, lw)
        mode = (k + 1) * p
        # ten standard deviations past the larger of start and mode: e^-50 of the peak,
        # plenty for a search; Y's terms decrease from m_hi (its mode is below k/2)
        lo = max(m_hi, int(mode - 10 * sd))
        hi = min(k, int(max(m_hi, mode) + 10 * sd) + 16)
        lx = log_terms(k, lw, lo, hi - lo + 1)
        ly = log_terms(k, -lw, m_hi, min(k, m_hi + int(10 * sd) + 16) - m_hi + 1)
        m = np.arange(lo, lo + lx.size, dtype=float)
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            x = lx + np.log(-np.expm1(lnt - (2 * m - k) * lw))
        x = x[np.isfinite(x)]
        if not x.size:
            return -math.inf, 0.0
        mx = float(x.max())
        ls = mx + math.log(float(np.exp(x - mx).sum()))
        my = float(ly.max())
        lsig = my + math.log(float(np.exp(ly - my).sum()))
        lz = k * log1pexp(lw)
        return ls + lz, -math.exp(min(lsig + lnt - ls, 700.0))


#: Beyond this many entries of the full table of pieces, :meth:`Windowed.locate_float` first
#: tries a table near the crossing (k = 10^9, eps = 0.01: 8e5 entries, 85 ms).
NEAR_TABLE_MIN = 200_000


def _law(k: int, lw: float) -> tuple[float, float]:
    """``(p, sd)`` of X ~ Bin(k, p), ``p = w / (1 + w)`` (floats; sd at least 1)."""
    p = 1.0 / (1.0 + math.exp(-lw)) if -700 < lw < 700 else (1.0 if lw >= 700 else 0.0)  # exp(709+) overflows
    return p, math.sqrt(max(k * p * (1 - p), 1.0))


def _log_sf(z: float) -> float:
    """``ln P[N(0,1) > z]`` in floats (the asymptotic series where ``erfc`` underflows)."""
    if z < 30:
        return math.log(0.5 * math.erfc(z / math.sqrt(2)))
    return -0.5 * z * z - math.log(z * math.sqrt(2 * math.pi)) + math.log1p(-1 / (z * z))


def _normal_isf_log(g: float) -> float:
    """``z`` with ``ln P[N(0,1) > z] = g`` (``g <= 0``; bisection in floats, an estimate only)."""
    a, b = -40.0, 1e4
    if not g < 0:
        return a
    for _ in range(80):
        c = 0.5 * (a + b)
        if _log_sf(c) > g:
            a = c
        else:
            b = c
    return 0.5 * (a + b)


def _log_suffix_sums(lb: np.ndarray) -> np.ndarray:
    """``ln sum_{j >= i} e^(lb[j])`` for every ``i`` (floats, for the search only).

    ``np.logaddexp.accumulate`` over 8e5 entries took 0.1-0.2 s at k = 1e9; here the entries
    within 700 of the largest are summed as ``e^(lb - max)`` with a cumulative sum, and only
    the tail beyond the last of them (where that would underflow) with ``logaddexp``.
    Guarantee: approximate. Raises: nothing."""
    n = lb.size
    if n == 0:
        return lb.copy()
    mx = float(lb.max())
    if not math.isfinite(mx):
        return np.logaddexp.accumulate(lb[::-1])[::-1]
    big = np.nonzero(lb >= mx - 700.0)[0]
    J = int(big[-1])  # entries after J are all more than 700 below the largest
    out = np.empty(n)
    tail = np.logaddexp.accumulate(lb[J + 1:][::-1])[::-1] if J + 1 < n else np.empty(0)
    out[J + 1:] = tail
    carry = math.exp(float(tail[0]) - mx) if tail.size else 0.0
    with np.errstate(under="ignore", divide="ignore"):
        cs = np.cumsum(np.exp(lb[:J + 1] - mx)[::-1])[::-1] + carry
        out[:J + 1] = np.log(cs) + mx
    return out


def log_terms(k: int, lx: float, m0: int, J: int) -> np.ndarray:
    """Float ``ln B(m)`` for ``m = m0 .. m0 + J - 1`` (``B`` with odds ``e^lx``)."""
    lb0 = math.lgamma(k + 1) - math.lgamma(m0 + 1) - math.lgamma(k - m0 + 1) + m0 * lx - k * log1pexp(lx)
    return lb0 + np.concatenate(([0.0], np.cumsum(_log_ratios(k, lx, m0, J - 1, True))))


def log1pexp(l: float) -> float:
    return l + math.log1p(math.exp(-l)) if l > 0 else math.log1p(math.exp(l))


class _Inv(ExpNum):
    """``1 / w`` for an exp-space ``w`` (Y's odds)."""

    __slots__ = ("w",)

    def __init__(self, w: ExpNum):
        self.w = w

    def arb(self, prec):
        with workprec(prec):
            return 1 / self.w.arb(prec)

    def flog(self) -> float:
        return -self.w.flog()


# --------------------------------------------------------------------------
# the cost model (rates measured on 2 shared cores; docs/engines.md, benchmarks)


def windowed_cost(k: int, lw: float, prec: int) -> tuple[Estimate, Estimate]:
    """``(build, one evaluation)`` of the windowed homogeneous kernel (:mod:`.windowed`).

    Build: the float table of pieces for the search, ``52 sd`` entries (``sd = sqrt(k p (1-p))``)
    of about 64 bytes, 1e-7 s each. An evaluation sums two binomial-tail windows of at most
    :func:`~exactdp.engines.windowed.window_terms` terms each (``~ sqrt(k)``; the window
    summed is shorter), measured 0.36-0.4 us per term of that bound at 150 bits and charged
    :data:`WINDOW_TERM_S`, plus float arrays of about 64 bytes per term for choosing the
    window. Evaluations on one piece of S reuse the cached sums, so OptComp's 16 budgeted
    evaluations compute 3 to 6 windows (peak 55 MB at k = 10^9, estimated 83 MB). Each evaluation's
    fixed cost (the threshold, the window's choice) was measured at 0.25-0.5 ms (k = 1000, a
    whole OptComp in 1-2 ms); it is charged 0.5 ms (``benchmarks/bench_auto.py``). Up to
    :data:`HYPGEOM_MAX_PREC` bits a tail costs at most one hypergeometric function
    (:data:`HYPGEOM_S`, scaled with the square of the precision).
    """
    n = window_terms(k, lw, prec)
    tab = min(float(k + 1), 52.0 * _law(k, lw)[1] + 16)
    build = Estimate(1e-4 + 1e-7 * tab, 64.0 * tab + ALLOC_SLACK)
    tail = n * WINDOW_TERM_S * (1 + prec / 1024)
    if prec <= HYPGEOM_MAX_PREC:  # a long window is one hypergeometric function instead
        tail = min(tail, HYPGEOM_S * _hypgeom_scale(prec))
    return build, Estimate(2 * tail + WINDOWED_EVAL_S, 64.0 * 4 * n + ALLOC_SLACK)


#: The fixed seconds of one evaluation of the windowed kernel (measured 0.25-0.5 ms).
WINDOWED_EVAL_S = 5e-4
#: Seconds a term of :func:`window_terms` (a bound on the window: the sums measured 0.36-0.4 us a
#: term of it at 150 bits for k = 10^5 to 10^7, on 2 shared cores).
WINDOW_TERM_S = 5e-7
#: Seconds of one tail as a hypergeometric function at 150 bits (measured 16-25 ms for k from
#: 10^6 to 10^8; it grows with the square of the precision).
HYPGEOM_S = 0.025


# --------------------------------------------------------------------------
# the plug-in


class WindowedKernel(Kernel):
    """Every eps_i equal, in balls: two windowed binomial tails (the exact field goes through
    the homogeneous kernel)."""

    name = "windowed"
    exact = False
    alternative = "fewer mechanisms, or " + APPROX_ALTERNATIVE

    def applies(self, req: Request) -> Optional[Reason]:
        if len(req.groups) != 1:
            return Reason("'windowed' only when every eps_i is equal", f"{len(req.groups)} distinct eps values")
        return None

    def estimate(self, req: Request, kind: str = "arb", prec: int = 128) -> tuple[Estimate, Estimate]:
        if kind == "exact":  # the exact field goes through exact binomials
            return HOMOGENEOUS.estimate(req, kind, prec)
        return windowed_cost(req.k, req.groups[0][0].flog(), prec)

    def describe(self, req: Request) -> str:
        return f"the windowed homogeneous kernel of {req.k} mechanisms"

    def build(self, req: Request) -> Structure:
        return Windowed(req.groups[0][0], req.k)


WINDOWED = WindowedKernel()
