"""The certified ball-lattice kernel: ``w_i = u^(a_i)`` at scale, without exact coefficients.

For groups ``(a_j, n_j)`` (``n_j`` mechanisms with ``w = u^(a_j)``), ``c_m`` the number of
subsets with exponent sum ``m`` (the lattice kernel's count polynomial) and
``A = sum n_j a_j``, the positive classes are ``m >= m_hi`` (:func:`~.lattice.threshold_classes`,
exact) and::

    S(t)     = X - t Y,   sigma(t) = Y,
    X = sum_{m >= m_hi} c_m u^m,   Y = sum_{m >= m_hi} c_m u^(A - m).

The exact kernel builds ``c_m`` as integers (``A + 1`` coefficients of up to ``k`` bits:
189 GiB for three groups of 10^5). Here they are never built. For any ``rho > 0``
(the *tilt*) the polynomial

    P_rho(z) = prod_j ((1 + rho^(a_j) z^(a_j)) / (1 + rho^(a_j)))^(n_j) = sum_m c_m rho^m z^m / N(rho),
    N(rho)   = prod_j (1 + rho^(a_j))^(n_j),

is the law of the exponent sum when each mechanism of group ``j`` is "in" with odds
``rho^(a_j)`` (a product of binomial laws spread by ``z^(a_j)``), so with the tail
``T(z) = sum_{m >= m_hi} [z^m] P_rho z^(m - m_hi)``::

    X = N(rho) (u / rho)^m_hi T(u / rho),      Y = N(rho) u^A (rho u)^(-m_hi) T(1 / (rho u)).

``rho = u`` is the "X" law of the lattice (``p_m = c_m u^m / Z``) and ``rho = 1/u`` the
"Y" law. ``rho`` is chosen so that the law's mean sits at ``m_hi`` (floating point; an
exact dyadic, or ``u`` itself when ``m_hi`` is within a few standard deviations of the
X law's mean, so one polynomial serves every threshold near the answer), but never
below ``u`` for X or ``1/u`` for Y: both evaluation points are then ``<= 1`` (checked
in balls), and the coefficients that matter are the largest ones, so nothing is lost
to the dynamic range of a far tail.

**Windows and the bound on what they omit.** Each factor's binomial probabilities are
computed in Arb balls only over a window around its mode (chosen in floating point so
that the omitted mass is below ``2^-(prec + margin)``), and the omitted mass on each
side is bounded rigorously by the lemma of :mod:`.windowed` (the ratio of consecutive
binomial terms is monotone away from the mode, so the omitted terms are at most
``B / (1 - r)`` for the first omitted term ``B`` and its ratio ``r < 1``). Each
product of the tree is cut to its mean plus or minus ``R`` standard deviations when the
mass cut off is rigorously small (within a budget; ``R = sqrt(2 bits ln 2) + 0.5`` first,
then 1.5 more), else kept whole. The truncated
polynomial ``P~`` has coefficients between 0 and those of ``P_rho`` and loses mass
``1 - P~(1) <= e`` with ``e`` the sum of every omitted mass (each omission is
multiplied by factors of mass at most 1), so for ``0 < z <= 1``::

    T~(z) <= T(z) <= T~(z) + e,

and ``e`` is added as a one-sided ball radius.

**Fixed point.** The products are exact integer products (FLINT ``fmpz_poly``, about
three times faster than ``arb_poly`` at these sizes): every polynomial is stored as
integers ``f`` with ``P`` fractional bits and one error bound ``err`` (an integer, in
units of ``2^-P``) such that its true coefficients ``p`` satisfy ``0 <= p 2^P - f <= err``.
A window's balls give ``f = floor(lower 2^P)`` and ``err`` from their upper ends. For a
product, with ``|p_2|_1 <= 1`` (a mass) and ``s_1 = sum f_1``::

    0 <= (p_1 p_2) 2^2P - f_1 f_2 <= err_1 2^P + err_2 s_1,

and the floor division by ``2^P`` adds less than one unit, so
``err = err_1 + ceil(err_2 s_1 / 2^P) + 1``. A cut removes at most the stored mass plus
``err`` for every coefficient removed (top coefficients that floor to 0, which FLINT
drops, count as cut). A tail evaluated at ``z <= 1`` over ``n`` stored coefficients is
then within ``[F(z), F(z) + err n]``, the sum of integers when ``z = 1``. ``P`` is
``prec`` (rounded up to a multiple of 16) plus the margin plus a guard of
``log2(3 leaves) + log2(2 L) + 4`` bits for the longest product ``L``, so that
``err n`` and every cut's share stay below ``2^-(prec + margin)``.

**Strides.** A factor in ``z^(a_j)`` is stored as a polynomial in ``z^(a_j)``; a product
of factors whose exponents share the divisor ``g`` is a polynomial in ``z^g`` and is
multiplied in that variable, ``g`` times shorter. The tree merges, for each common
divisor ``d > 1`` of two exponents, largest first, the nodes whose stride ``d`` divides,
then the rest; within a set the two shortest first (Huffman). For 10^4 mechanisms over
the exponents 1..100 this cuts the products' total length by about 40% against a balanced tree
of the sorted factors (:func:`tree_plan` simulates the plan; the build replays it).

**Precision.** The tilt makes the coefficients near ``m_hi`` the largest, the windows
and cuts keep ``MARGIN_BITS`` below them, and the fixed-point error is absolute, so
the tails come out with about ``prec`` bits or more; the scalars ``N(rho)`` and the
powers up to ``A`` are computed 64 + ``log2 A`` bits higher. The result is checked: the
tails must have ``prec`` bits of relative accuracy and ``e <= 2^-(prec + 8) T~``, else
the polynomial is rebuilt with its tilt exactly at ``m_hi``, wider windows and more bits
(three tries; after that the enclosure is returned as it is, still valid, and the
engines raise the precision).

Guarantee: enclosure in Arb balls; exact in the exact field (through the exact
lattice kernel, whose cost the exact engine checks first).
"""

from __future__ import annotations

import functools
import heapq
import math
from fractions import Fraction
from typing import Callable, Optional, Sequence

from .._backend import arb, arb_poly, fmpz_poly, np, workprec
from ..errors import CostTooHigh
from ..numbers import ExpNum
from .costs import ALLOC_SLACK, EVALS_DELTA, Estimate, count_text
from .fields import ArbField, Field
from .kernel import APPROX_ALTERNATIVE, Kernel, Reason, Request
from .lattice import LATTICE, BallKernel, Lattice, lattice_build, lattice_eval, ratio_one_sums, threshold_classes
from .structure import Structure

__all__ = ["BallLattice", "LATTICE_BALLS", "binomial_window", "tree_plan", "balllattice_cost"]

#: Bits below the working precision kept by every window and cut (the tails evaluated
#: must be at least ``2^-MARGIN_BITS`` of the largest coefficient for one build to serve them).
MARGIN_BITS = 48
#: Thresholds within this many standard deviations of the X law's mean use the untilted
#: polynomial (``rho = u``), shared by all of them.
SHARE_SD = 6.0


def _sig(x: float) -> float:
    """``e^x / (1 + e^x)`` without overflow."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _log1pexp(x: float) -> float:
    return x + math.log1p(math.exp(-x)) if x > 0 else math.log1p(math.exp(x))


def _moments(groups: Sequence[tuple[int, int]], lr: float) -> tuple[float, float]:
    """Mean and variance of the exponent sum under the tilt ``rho = e^lr`` (float)."""
    mu = var = 0.0
    for a, n in groups:
        q = _sig(a * lr)
        mu += n * a * q
        var += n * a * a * q * (1 - q)
    return mu, var


def _mean(groups: Sequence[tuple[int, int]], lr: float) -> float:
    """The mean of :func:`_moments` alone, bit for bit (the same operations in the same order,
    without the variance and the calls): the bisection of :func:`_tilt_for` asks it about 60
    times per tilt, and the inverse's float search one tilt per step."""
    exp = math.exp
    mu = 0.0
    for a, n in groups:
        x = a * lr
        if x >= 0:
            q = 1.0 / (1.0 + exp(-x))
        else:
            e = exp(x)
            q = e / (1.0 + e)
        mu += n * a * q
    return mu


def _tilt_for(groups: Sequence[tuple[int, int]], A: int, target: float,
              mean: Optional[Callable[[float], float]] = None) -> float:
    """``ln rho`` whose law has mean ``target`` (bisection; float, no guarantee needed);
    ``mean(lr)``: :func:`_mean` of ``groups`` (or a cache of it)."""
    if mean is None:
        mean = functools.partial(_mean, groups)
    target = min(max(target, 0.5), A - 0.5)
    amin = min(a for a, _ in groups)
    lo, hi = -760.0 / amin, 760.0 / amin
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mean(mid) < target:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-15 * max(1.0, abs(mid)):
            break
    return 0.5 * (lo + hi)


def _reach(bits: float) -> float:
    """Standard deviations of a Gaussian tail holding ``2^-bits`` of the mass (float)."""
    return math.sqrt(2 * bits * math.log(2)) + 2.0


def _float_limits(n: int, lx: float, bits: float) -> tuple[int, int]:
    """``(lo, hi)``: the window of ``Bin(n, e^lx / (1 + e^lx))`` whose omitted terms on each
    side are below ``2^-bits`` of the mode's term by the geometric bound (float choice;
    the bound itself is recomputed in balls)."""
    q = _sig(lx)
    mode = min(n, max(0, int(math.floor((n + 1) * q))))
    sd = math.sqrt(max(n * q * (1 - q), 1.0))
    goal = bits * math.log(2)
    out = []
    for up in (True, False):
        total = (n - mode) if up else mode
        span = min(total, int(_reach(bits) * sd) + 16)
        while True:
            if span <= 0:
                out.append(mode)
                break
            if up:
                m = np.arange(mode, mode + span, dtype=float)
                with np.errstate(divide="ignore"):
                    lrat = lx + np.log(n - m) - np.log(m + 1)
            else:
                m = np.arange(mode, mode - span, -1, dtype=float)
                with np.errstate(divide="ignore"):
                    lrat = np.log(m) - np.log(n - m + 1) - lx
            lt = np.cumsum(lrat)  # ln B(mode +- (j+1)) / B(mode)
            with np.errstate(invalid="ignore", divide="ignore"):
                nxt = np.append(lrat[1:], -np.inf)
                bound = lt - np.log(-np.expm1(np.minimum(nxt, -1e-300)))
            ok = np.nonzero((nxt < 0) & (bound <= -goal))[0]
            if ok.size:
                j = int(ok[0])  # omit from mode +- (j + 1) on
                out.append(mode + j if up else mode - j)
                break
            if span >= total:
                out.append(n if up else 0)
                break
            span = min(total, 4 * span)
    return out[1], out[0]


def binomial_window(n: int, x: arb, lo: int, hi: int, prec: int) -> tuple[list, arb]:
    """The probabilities ``B(m) = C(n, m) x^m / (1 + x)^n`` for ``m = lo..hi`` as balls, and a
    rigorous upper bound on the omitted mass ``sum_{m < lo} B(m) + sum_{m > hi} B(m)``.

    Guarantee: enclosure (every term a ball; the bound from the geometric lemma of
    :mod:`.windowed`, or infinity when a side's ratio is not below 1).

    Parameters:
        n: trials (>= 0).
        x: the odds ``x > 0`` as a ball.
        lo, hi: the window, ``0 <= lo <= hi <= n``.
        prec: working precision in bits.

    Raises: nothing.

    Examples:
        >>> from exactdp._backend import arb
        >>> terms, rest = binomial_window(4, arb(1), 1, 3, 64)   # 4/16, 6/16, 4/16; 2/16 omitted
        >>> [float(b.mid()) for b in terms], bool(rest >= arb(2) / 16), float(rest) < 0.13
        ([0.25, 0.375, 0.25], True, True)
    """
    hp = prec + 16 + max(hi - lo + 2, 1).bit_length()
    with workprec(hp + 32 + max(n, 1).bit_length()):
        first = (arb(n + 1).lgamma() - arb(lo + 1).lgamma() - arb(n - lo + 1).lgamma()
                 + lo * x.log() - n * (1 + x).log()).exp()
    with workprec(hp):
        terms = []
        b = first
        for m in range(lo, hi + 1):
            terms.append(b)
            if m < n:
                b = b * x * (n - m) / (m + 1)
        rest = arb(0)
        if hi < n:  # b is B(hi + 1); ratios upwards decrease (the lemma)
            r = x * (n - hi - 1) / (hi + 2)
            rest += (b / (1 - r)).upper() if r < 1 else arb("inf")
        if lo > 0:
            bl = first * lo / ((n - lo + 1) * x)  # B(lo - 1)
            r = (lo - 1) / ((n - lo + 2) * x)
            rest += (bl / (1 - r)).upper() if r < 1 else arb("inf")
    return terms, rest


def _fixed(terms: list, P: int) -> tuple[list[int], int]:
    """Balls ``b_i >= 0`` as integers ``f_i`` with ``0 <= x 2^P - f_i <= e`` for every point
    ``x`` of ``b_i`` (``f_i = floor(lower(b_i) 2^P)``, at least 0), and that ``e`` (from the
    balls' ends as rounded outwards, so at any precision it is a bound)."""
    out = []
    e = 0
    with workprec(P + 16):
        for b in terms:
            lo = _floor_scaled(b.lower(), P)
            hi = -_floor_scaled(-b.upper(), P)  # ceil
            out.append(max(lo, 0))
            e = max(e, hi - out[-1])
    return out, e


def _floor_scaled(x: arb, P: int) -> int:
    """``floor(x 2^P)`` for an exact ball ``x``."""
    m, ex = x.man_exp()
    s = int(ex) + P
    return int(m) << s if s >= 0 else int(m) >> -s


def tree_plan(groups: Sequence[tuple[int, int]], lr: float, bits: float) -> tuple[float, float, int]:
    """``(sum of product lengths, largest length, final length)`` of the product tree for the
    tilt ``rho = e^lr`` with windows of ``2^-bits`` (float simulation, for the cost model;
    lengths in units of each product's stride). Guarantee: approximate. Raises: nothing."""
    _, tot, big, final = _plan(groups, lr, bits)
    return tot, big, final


#: Above this many groups the merge order skips the common strides (their pairwise gcds).
STRIDE_GROUPS = 1000


def _plan(groups: Sequence[tuple[int, int]], lr: float, bits: float) -> tuple[list, float, float, int]:
    """The product tree: ``(merges, tot, big, final)``, ``merges`` a list of index pairs
    ``(i, j)`` (leaves ``0..len(groups)-1`` in order, merge ``r`` makes node ``len(groups) + r``),
    the lengths simulated in floating point. A node holding factors in ``z^(a_j)`` is a
    polynomial in ``z^g``, ``g`` the gcd of its ``a_j``, and is multiplied in that variable
    (``g`` times shorter); so factors sharing a stride meet first: for each common divisor
    ``d > 1`` of two strides, largest first, the nodes whose stride ``d`` divides are merged
    into one, then the rest. Within a set, the two shortest first (Huffman), so that the
    lengths grow evenly. The build replays these merges, so the simulation (the cost model)
    and the build multiply the same products."""
    R, Rc = _reach(bits), _cut_reach(bits)
    nodes = []  # (stride, length in units of the stride, variance)
    for a, n in groups:
        q = _sig(a * lr)
        sd = math.sqrt(n * q * (1 - q))
        nodes.append((a, min(n + 1, int(2 * (R * max(sd, 1.0) + 16))), a * a * n * q * (1 - q)))
    tot, big = 0.0, float(max((w for _, w, _ in nodes), default=1))
    merges: list = []

    def huffman(sel: list) -> int:
        nonlocal tot, big
        heap = [(nodes[i][0] * nodes[i][1], i) for i in sel]
        heapq.heapify(heap)
        while len(heap) > 1:
            _, i = heapq.heappop(heap)
            _, j = heapq.heappop(heap)
            (g1, l1, v1), (g2, l2, v2) = nodes[i], nodes[j]
            g = math.gcd(g1, g2)
            L = (l1 - 1) * (g1 // g) + (l2 - 1) * (g2 // g) + 1
            tot += L
            big = max(big, float(L))
            nodes.append((g, min(L, int(2 * Rc * math.sqrt(v1 + v2) / g) + 17), v1 + v2))
            merges.append((i, j))
            heapq.heappush(heap, (nodes[-1][0] * nodes[-1][1], len(nodes) - 1))
        return heap[0][1]

    live = list(range(len(nodes)))
    if 2 < len(live) <= STRIDE_GROUPS:
        st = [nodes[i][0] for i in live]
        for d in sorted({math.gcd(x, y) for i, x in enumerate(st) for y in st[i + 1:]} - {1}, reverse=True):
            sel = [i for i in live if nodes[i][0] % d == 0]
            if len(sel) > 1:
                k = huffman(sel)
                live = [i for i in live if nodes[i][0] % d] + [k]
    if live:
        huffman(live)
    return merges, tot, big, int(nodes[-1][1]) if nodes else 1


class _Built:
    """A truncated ``P_rho`` in fixed point: ``P~`` has coefficients ``p_m`` with
    ``0 <= p_m 2^scale - poly[(m - offset) / stride] <= err`` (``p_m = 0`` outside the stored
    range and off the stride) and misses mass ``<= lost`` of ``P_rho``; ``prec`` is the
    working precision served; ``work``: the products' lengths, summed and largest (what
    :func:`tree_plan` simulates)."""

    __slots__ = ("key", "rho", "lr", "poly", "stride", "offset", "err", "scale", "lost", "prec", "mean", "sd", "work")

    def __init__(self, key, rho, lr, poly, stride, offset, err, scale, lost, prec, mean, sd):
        self.key, self.rho, self.lr, self.poly, self.stride, self.offset = key, rho, lr, poly, stride, offset
        self.err, self.scale, self.lost, self.prec, self.mean, self.sd = err, scale, lost, prec, mean, sd
        self.work = (0, 0)


class BallLattice(BallKernel):
    """``w_i = u^(a_i)`` in groups ``(a_j, n_j)``: S(t) from tilted, windowed ``arb_poly`` products.

    See the module docstring. Arb fields only; the exact field goes through the exact
    lattice kernel (built on first use, after the exact engine's cost check).

    Guarantee: enclosure (Arb fields); exact (exact field).

    Parameters:
        u: the lattice base (``w_i = u^(a_i)``), an exp-space number ``> 0``.
        groups: ``(a_j, n_j)`` pairs, integers ``a_j >= 0``, ``n_j >= 1``.

    Raises: nothing at construction (nothing is built before the first evaluation).

    Examples:
        >>> from fractions import Fraction
        >>> from exactdp.numbers import RatExp
        >>> from exactdp.engines.fields import ArbField, ExactField
        >>> u = RatExp.from_exp(Fraction(11, 10))
        >>> k = BallLattice(u, [(1, 30), (2, 20)])
        >>> t = RatExp.from_exp(Fraction(3))
        >>> exact, _ = k.evaluate(ExactField(), t)
        >>> s, _ = k.evaluate(ArbField(128), t)
        >>> bool(s.contains(ArbField(128).rational(Fraction(int(exact.numerator), int(exact.denominator)))))
        True
    """

    method = "lattice-balls"

    def __init__(self, u: ExpNum, groups: Sequence[tuple[int, int]]):
        self.u = u
        self.groups = sorted((int(a), int(n)) for a, n in groups if int(n) > 0)
        self.live = [(a, n) for a, n in self.groups if a > 0]
        self.A = sum(a * n for a, n in self.groups)
        self.k = sum(n for _, n in self.groups)
        self._lu = u.flog()
        self._built: dict = {}  # key -> _Built (a few kept)
        self._sums: dict = {}  # (m_hi, prec) -> (X, Y)
        self._tilts: dict = {}  # m_hi -> ln rho (float)
        self._means: dict = {}  # ln rho -> the law's mean (float)
        self._lattice = None

    # ------------------------------------------------------------------ interface

    def _exact_kernel(self):
        if self._lattice is None:
            self._lattice = Lattice.from_groups(self.u, self.groups)
        return self._lattice

    def cost(self) -> float:
        if not self.live:
            return 1.0
        return tree_plan(self.live, self._lu, 128 + MARGIN_BITS)[0]

    def estimate(self, kind: str, prec: int):
        if kind == "exact":
            q = self.u.exact()
            ub = float(q.numerator.bit_length() + q.denominator.bit_length()) if q is not None else 64.0
            kp = sum(n for a, n in self.groups if a > 0)
            return lattice_build(self.groups), lattice_eval(self.A, kp, kind, prec, ub)
        return balllattice_cost(self.live, self._lu, prec)

    def loss_classes(self, field: Field) -> list:
        """The ``A + 1`` classes, through the exact lattice kernel (small lattices only).

        Raises:
            CostTooHigh: ``A > 200000`` (the classes themselves are the cost).
        """
        if self.A > 200_000:
            raise CostTooHigh("k", f"the trade-off curve of this lattice has {self.A + 1} classes (limit 200000)",
                              estimate=self.A + 1, limit=200_001,
                              alternative="PrivacyProfile.delta / .epsilon at given points")
        return self._exact_kernel().loss_classes(field)

    def threshold(self, t_num: ExpNum) -> tuple[int, list[int]]:
        """``(m_hi, undecided)`` as :meth:`~exactdp.engines.lattice.Lattice.threshold`.
        Guarantee: exact. Raises: nothing."""
        return threshold_classes(self.u, self.A, self._lu, t_num)

    def _evaluate_balls(self, field: ArbField, t_num: ExpNum, t):
        """``(S(t), sigma(t))`` in balls (module docstring; other fields: :class:`BallKernel`)."""
        prec = field.prec
        zero = field.rational(Fraction(0))
        A = self.A
        if A == 0 or self.u.is_one():
            return ratio_one_sums(field, t_num, t, arb(2) ** self.k)
        m_hi, undecided = self.threshold(t_num)
        if m_hi <= A:
            X, Y = self.sums(m_hi, prec)
            s, sig = X - t * Y, Y
        else:
            s, sig = zero, zero
        for mm in undecided:
            s += field.pos(self._class_value(mm, prec) * (1 - t * field.embed(self.u) ** (A - 2 * mm)))
        return s, sig

    def approx(self, lnt: float) -> tuple[float, float]:
        """``(ln S, d ln S / d ln t)`` in floating point, for the search only: each tail from
        the Gaussian law at the tilt the evaluation would use (a saddle-point estimate, no
        polynomial built); where the difference ``X - t Y`` cancels below the estimate's
        accuracy, the evaluation in balls at 64 bits answers instead.
        Guarantee: approximate. Raises: nothing."""
        lu, A = self._lu, self.A
        if not self.live or lu <= 0:
            return super().approx(lnt)
        m_hi = max(0, math.floor((A + lnt / lu) / 2) + 1)
        if m_hi > A:
            return -math.inf, 0.0
        lt = self._tilt(m_hi)
        lnX = self._log_side(max(lt, lu), m_hi, lu)
        lnY = self._log_side(max(lt, -lu), m_hi, -lu) + A * lu
        d = lnt + lnY - lnX  # ln (t Y / X)
        if not (d < -1e-3):  # cancellation beyond the estimate's accuracy
            return super().approx(lnt)
        lnS = lnX + math.log(-math.expm1(d))
        return lnS, -math.exp(d - math.log(-math.expm1(d)))

    def _tilt(self, m_hi: int) -> float:
        """:func:`_tilt_for` the threshold ``m_hi``, kept per threshold (the float search and the
        evaluation at the same threshold ask the same tilt). Guarantee: approximate. Raises: nothing."""
        hit = self._tilts.get(m_hi)
        if hit is None:
            if len(self._tilts) > 256:
                self._tilts.clear()
            hit = self._tilts[m_hi] = _tilt_for(self.live, self.A, m_hi, self._mean_at)
        return hit

    def _mean_at(self, lr: float) -> float:
        """:func:`_mean` of the kernel's groups, kept per point: the bisections of nearby
        thresholds (the float search's steps, converging) visit the same points first."""
        hit = self._means.get(lr)
        if hit is None:
            if len(self._means) > 4096:
                self._means.clear()
            hit = self._means[lr] = _mean(self.live, lr)
        return hit

    def _log_side(self, lr: float, m_hi: int, base: float) -> float:
        """``ln sum_{m >= m_hi} c_m e^(base m)`` from the Gaussian approximation of the law
        tilted to ``rho = e^lr`` (float)."""
        mu, var = _moments(self.live, lr)
        sd = math.sqrt(max(var, 1e-300))
        lnN = math.fsum(n * _log1pexp(a * lr) for a, n in self.groups)
        lz = base - lr  # ln z <= 0
        if lz > -1e-12:
            x = (m_hi - 0.5 - mu) / (sd * math.sqrt(2))
            tail = 0.5 * math.erfc(x)
            lT = math.log(tail) if tail > 0 else -x * x - math.log(2 * max(x, 1.0) * math.sqrt(math.pi))
        else:
            J = int(min(max(12 * sd + max(mu - m_hi, 0), 40 / -lz), 2e6)) + 2
            j = np.arange(J, dtype=float)
            lg = -((m_hi + j - mu) ** 2) / (2 * max(var, 1e-300)) - math.log(sd * math.sqrt(2 * math.pi)) + j * lz
            mx = float(lg.max())
            lT = mx + math.log(float(np.exp(lg - mx).sum()))
        return lnN + m_hi * lz + lT

    # ------------------------------------------------------------------ the sums

    def sums(self, m_hi: int, prec: int) -> tuple[arb, arb]:
        """``(X, Y)`` of the module docstring for the classes ``m >= m_hi`` at ``prec`` bits
        (cached; a sum made at a higher precision serves a lower one). Guarantee: enclosure.
        Raises: nothing."""
        hit = self._sums.get((m_hi, prec))
        if hit is None:
            hit = next((v for (m, p), v in self._sums.items() if m == m_hi and p >= prec), None)
        if hit is not None:
            return hit
        if len(self._sums) > 64:
            self._sums.clear()
        hit = self._sums[(m_hi, prec)] = self._sums_uncached(m_hi, prec)
        return hit

    def _sums_uncached(self, m_hi: int, prec: int) -> tuple[arb, arb]:
        u = self.u
        margin, extra, exact_tilt = MARGIN_BITS, 0, False
        # not numbers.precision.refine: each retry changes the build (the tilt made exact, the
        # windows' margin, the bits), and the fourth answer is accepted as it is, a valid enclosure
        # that may be wide (the engines' own refine raises the precision then); nothing raises here
        for attempt in range(4):
            bx, by = self._choose(m_hi, prec + extra, margin, exact_tilt)
            wp = max(bx.prec, by.prec)
            zp = max(bx.scale, by.scale) + 16  # T(z) amplifies z's radius by about its length
            with workprec(zp):
                ua = u.arb(zp)
                # rho = u (X) and rho = 1/u (Y) evaluate at exactly 1
                tx = self._tail(bx, m_hi, arb(1) if bx.key == "u" else ua / bx.rho)
                ty = self._tail(by, m_hi, arb(1) if by.key == "1/u" else 1 / (by.rho * ua))
                if tx is None or ty is None:  # z <= 1 not certified: fall back to rho = u, 1/u
                    exact_tilt, margin = True, margin + 64
                    continue
            X, Y = self._scaled(bx, by, m_hi, tx, ty, wp)
            # what the windows and cuts omitted must be small against the tails ...
            small = all(b.lost <= t.lower() * arb(2) ** (-(prec + 8)) for b, t in ((bx, tx), (by, ty)))
            # ... and the balls narrow
            acc = min(X.rel_accuracy_bits(), Y.rel_accuracy_bits())
            if (small and acc >= prec) or attempt == 3:
                return X, Y
            if small:
                extra += prec - acc + 32
            else:
                exact_tilt, margin = True, margin + 64
        # the tilts could not be certified: a valid enclosure from rho = u and 1/u
        wp = _prec_step(prec)
        bx = self._build("u", self._lu, wp, margin)
        by = self._build("1/u", -self._lu, bx.prec, margin)
        with workprec(bx.prec):
            tx = self._tail(bx, m_hi, arb(1))
            ty = self._tail(by, m_hi, arb(1))
        return self._scaled(bx, by, m_hi, tx, ty, bx.prec)

    def _scaled(self, bx: _Built, by: _Built, m_hi: int, tx: arb, ty: arb, wp: int) -> tuple[arb, arb]:
        """``X = N(rho) (u/rho)^m_hi T_x`` and ``Y = N(rho) u^A (rho u)^(-m_hi) T_y``; the scalars at
        ``wp + 64 + log2 A`` bits (powers up to ``A`` would lose ``log2 A`` bits at ``wp``)."""
        hp = wp + 64 + self.A.bit_length()
        with workprec(hp):
            ua = self.u.arb(hp)

            def rho(b: _Built) -> arb:
                return ua if b.key == "u" else 1 / ua if b.key == "1/u" else b.rho  # float tilts are exact

            rx, ry = rho(bx), rho(by)
            X = _norm(self.groups, rx, hp) * (ua / rx) ** m_hi * tx
            Y = _norm(self.groups, ry, hp) * ua ** self.A * (ry * ua) ** (-m_hi) * ty
        return X, Y

    def _tail(self, b: _Built, m_hi: int, z: arb):
        """``T(z)`` for the tail from ``m_hi`` of a built polynomial as a ball holding
        ``[T~(z), T~(z) + lost]`` (the fixed-point error one-sided: ``err`` units a
        coefficient, times ``z^j <= 1``), or None when ``z <= 1`` cannot be certified."""
        if not (z <= 1):
            return None
        poly, off, g = b.poly, b.offset, b.stride
        i0 = max(0, -(-(m_hi - off) // g))  # the first stored index at or above m_hi
        poly = poly.right_shift(i0) if i0 < poly.length() else fmpz_poly([])
        n = poly.length()
        with workprec(b.scale + 16):
            if z.is_exact() and z == 1:  # the sum of integers, exact
                val = arb(int(poly(1)))
            else:
                val = arb_poly(poly)(z**g) * z ** (off + g * i0 - m_hi) if n else arb(0)
            top = arb(b.err * n)
            val = (val + arb(top / 2, top / 2)) * arb(2) ** (-b.scale)
        return val + arb(b.lost / 2, b.lost / 2)

    def _class_value(self, m: int, prec: int) -> arb:
        """``c_m u^m`` as a ball (for classes whose sign is undecided). Guarantee: enclosure."""
        b, _ = self._choose(m, prec, MARGIN_BITS, True)
        i, r = divmod(m - b.offset, b.stride)
        with workprec(b.scale + 16):
            c = arb(int(b.poly[i])) if r == 0 and 0 <= i < b.poly.length() else arb(0)
            c = (c + arb(b.err) / 2 + arb(0, arb(b.err) / 2)) * arb(2) ** (-b.scale) + arb(b.lost / 2, b.lost / 2)
        with workprec(b.prec):
            ua = self.u.arb(b.prec)
            return _norm(self.groups, b.rho, b.prec) * (ua / b.rho) ** m * c

    def _choose(self, m_hi: int, prec: int, margin: int, exact_tilt: bool) -> tuple[_Built, _Built]:
        """The polynomials for X and Y at threshold ``m_hi`` (see the module docstring)."""
        lu = self._lu
        mu, var = _moments(self.live, lu)
        sd = math.sqrt(max(var, 1.0))
        if not exact_tilt and abs(m_hi - mu) <= SHARE_SD * sd:
            lr = None  # the shared, untilted polynomial rho = u
        else:
            lr = self._tilt(m_hi)
            if lr <= lu + 1e-9 and lr >= lu - 1e-9:
                lr = None
            elif not exact_tilt:
                # snap the tilt to a fixed grid (about one standard deviation of the mean per
                # step near rho = u, finer beyond), so nearby thresholds share one build
                lr = round(lr * sd) / sd
        # the fixed point's guard covers the tree and the evaluations; steps of 16 bits, so
        # that nearby precisions (a delta_g's, an OptComp's certificate) share one build
        wp = _prec_step(prec)
        if lr is None:
            b = self._build("u", lu, wp, margin)
            return b, b
        bx = self._build("u", lu, wp, margin) if lr <= lu else self._build(lr, lr, wp, margin)
        by = self._build("1/u", -lu, wp, margin) if lr <= -lu else bx if lr > lu else self._build(lr, lr, wp, margin)
        return bx, by

    def _build(self, key, lr: float, wp: int, margin: int) -> _Built:
        hit = self._built.get((key, wp, margin))
        if hit is None:
            hit = next((b for (k2, p2, m2), b in self._built.items() if k2 == key and p2 >= wp and m2 >= margin), None)
        if hit is not None:
            return hit
        if len(self._built) >= 6:  # memory: keep a few polynomials, the shared one last
            old = [k2 for k2 in self._built if k2[0] != "u"] or list(self._built)
            self._built.pop(old[0])
        hit = self._built[(key, wp, margin)] = self._build_uncached(key, lr, wp, margin)
        return hit

    def _build_uncached(self, key, lr: float, wp: int, margin: int) -> _Built:
        bits = wp + margin
        reaches = (_cut_reach(bits), _reach(bits))
        merges, _, big, _ = _plan(self.live, lr, bits)
        P = _scale(len(self.live), big, bits)
        budget = 1 << (P - bits)  # per cut, in units of 2^-P (their number is below the leaves')
        with workprec(P + 16):  # the leaves' balls narrow against 2^-P
            if key == "u":
                rho = self.u.arb(P + 16)
            elif key == "1/u":
                rho = 1 / self.u.arb(P + 16)
            else:
                rho = arb(math.exp(lr)) if abs(lr) < 700 else arb(lr).exp()
            lost = arb(0)
            # units of 2^-P cut off: by the cuts, and where a stored polynomial ends below the
            # true one (FLINT drops top coefficients that floored to 0; each was at most err)
            cut_units = 0
            nodes: list = []  # (poly in z^g, g, offset, err, mean, variance)
            for a, n in self.live:
                lo, hi = _float_limits(n, a * lr, bits)
                terms, rest = binomial_window(n, rho**a, lo, hi, P)
                lost += rest
                f, e = _fixed(terms, P)
                leaf = fmpz_poly(f)
                cut_units += (len(f) - leaf.length()) * e
                q = _sig(a * lr)
                nodes.append((leaf, a, a * lo, e, a * n * q, a * a * n * q * (1 - q)))
        one = 1 << P
        tot = big = 0
        for i, j in merges:
            (f1, g1, o1, e1, m1, v1), (f2, g2, o2, e2, m2, v2) = nodes[i], nodes[j]
            nodes[i] = nodes[j] = None  # memory: the children are not needed again
            g = math.gcd(g1, g2)
            f1 = f1.inflate(g1 // g) if g1 != g else f1
            f2 = f2.inflate(g2 // g) if g2 != g else f2
            # 0 <= p1 p2 2^2P - f1 f2 <= e1 2^P |p2|_1 + e2 |f1|_1 with |p2|_1 <= 1 (a mass);
            # the floor division adds less than one unit
            e = e1 + -(-e2 * int(f1(1)) // one) + 1
            m, v = m1 + m2, v1 + v2
            prod = f1 * f2 // one
            cut_units += max(0, f1.length() + f2.length() - 1 - prod.length()) * e
            tot, big = tot + prod.length(), max(big, prod.length())
            f, o, cut = _cut(prod, g, o1 + o2, e, m, v, reaches, budget)
            cut_units += cut
            nodes.append((f, g, o, e, m, v))
        poly, g, off, err, mean, var = nodes[-1] if nodes else (fmpz_poly([one]), 1, 0, 0, 0.0, 0.0)
        with workprec(wp):
            # mass lost: the sum of the omissions bounds 1 - P~(1)
            lost = (lost + arb(cut_units) / one).upper()
        built = _Built(key, rho, lr, poly, g, off, err, P, lost, wp, mean, math.sqrt(var))
        built.work = (tot, big)
        return built


def _prec_step(bits: int) -> int:
    """Working precisions used: 64, 80, 96, ... (a build serves every lower request)."""
    return 16 * max(4, math.ceil(bits / 16))


def _scale(leaves: int, big: float, bits: int) -> int:
    """Fixed-point bits ``P`` of a build whose windows and cuts omit ``2^-bits``: room for the
    per-coefficient error (about one unit per leaf and per product) summed over a product
    (twice the simulated longest), so that the error and the cuts' share of it stay below
    ``2^-bits``."""
    return bits + (3 * leaves + 3).bit_length() + int(2 * big + 2).bit_length() + 4


def _cut_reach(bits: float) -> float:
    """Standard deviations a product is first cut to: a Gaussian tail there holds about
    ``10^-5 2^-bits`` (float choice; the cut itself is certified)."""
    return math.sqrt(2 * bits * math.log(2)) + 0.5


def _cut(f: fmpz_poly, g: int, o: int, e: int, mean: float, var: float, reaches: tuple, budget: int):
    """Cut ``f`` (coefficient ``i`` at ``z^(o + g i)``, each at most ``e`` units below the true
    one) to ``mean +- R sd`` for the first ``R`` of ``reaches`` whose true mass cut off (at
    most the stored one plus ``e`` a coefficient) is certified below ``budget`` units (a
    skewed law may need the wider one); returns ``(poly, offset, units cut off)``."""
    L = f.length()
    sd = math.sqrt(var)
    for R in reaches:
        lo = max(0, math.floor((mean - R * sd - o) / g) - 8)
        hi = min(L - 1, math.ceil((mean + R * sd - o) / g) + 8)
        if lo <= 0 and hi >= L - 1:
            return f, o, 0
        if hi < lo:  # the whole mass is outside (a float accident): keep it
            return f, o, 0
        mass = (L - (hi - lo + 1)) * e
        if lo > 0:
            mass += int(f.truncate(lo)(1))
        if hi < L - 1:
            mass += int(f.right_shift(hi + 1)(1))
        if mass <= budget:
            q = f.right_shift(lo) if lo > 0 else f
            return q.truncate(hi - lo + 1), o + g * lo, mass
    return f, o, 0


def _norm(groups: Sequence[tuple[int, int]], rho: arb, prec: int) -> arb:
    """``N(rho) = prod (1 + rho^a)^n`` as a ball."""
    with workprec(prec):
        v = arb(1)
        for a, n in groups:
            v *= (1 + rho**a) ** n
        return v


# --------------------------------------------------------------------------
# the cost model (rates measured on 2 shared cores; docs/engines.md, benchmarks)


def balllattice_cost(groups_a: Sequence[tuple[int, int]], lu: float, prec: int) -> tuple[Estimate, Estimate]:
    """``(build, one evaluation)`` of the certified ball-lattice kernel (:mod:`.balllattice`).

    ``groups_a``: ``(a, n)`` with ``a > 0``; ``lu = ln u``. A build is the product tree of
    the windowed factors in fixed point (``fmpz_poly`` with ``P`` fractional bits,
    ``P = wp + 48 + guard``, ``wp`` the precision rounded up to a multiple of 16, windows to
    ``2^-(wp + 48)``); :func:`~exactdp.engines.balllattice.tree_plan` simulates its
    lengths (``tot``, the sum of the products' lengths, and ``big``, the longest, each in
    units of its stride). A product of coefficients of ``P`` bits has ``2 P + 17`` bits a
    coefficient. Measured (2 shared cores, one build each, python-flint 0.9, FLINT
    multiplying through GMP):

    ======================================= ==== ======= ======= ====== =======
    composition                             P    tot     big     time   peak
    ======================================= ==== ======= ======= ====== =======
    eps 0.01/0.02/0.03, 10^4 each           199  1.5e4   9.3e3   0.06 s 10 MB
    eps 0.01/0.02/0.03, 10^5 each           200  4.6e4   2.9e4   0.18 s 20 MB
    eps 0.01/0.02/0.03, 10^5 each           329  5.9e4   3.7e4   0.31 s 32 MB
    eps 0.01/0.02/0.03, 10^5 each           457  6.9e4   4.4e4   0.49 s 50 MB
    eps 0.01/0.02/0.03, 10^6 each           218  1.5e5   9.6e4   0.69 s 56 MB
    eps 0.01..0.10, 10^4 each               219  1.7e5   5.0e4   0.45 s 33 MB
    10^3 eps in {1..100}/1000               222  2.2e5   4.8e4   0.45 s 31 MB
    10^4 eps in {1..100}/1000               208  1.3e6   1.4e5   2.57 s 80 MB
    10^4 eps in {1..100}/1000               224  1.3e6   1.5e5   2.83 s 85 MB
    10^4 eps in {1..100}/1000               336  1.5e6   1.8e5   4.91 s 162 MB
    10^4 eps in {1..1000}/10^4              230  2.4e7   1.5e6   39 s   1.03 GB
    ======================================= ==== ======= ======= ====== =======

    i.e. ``3.9-4.6e-9 tot (2 P + 17)`` s for the products (up to ``5e-9`` when the other
    jobs load both cores), about ``7e-6`` s a window term (the three groups: their leaves
    are long), and ``10-12 big (2 P + 17) / 8`` bytes (22 for the smallest, where fixed
    costs dominate); the estimate takes ``6e-9``, ``1e-5`` and ``16`` (the last case: 65 s
    and 1.6 GiB). A build serves every threshold within a
    few standard deviations of its tilt and every lower precision: a delta_g builds once
    (twice when the precision steps up), an OptComp once to three times (Newton and the
    certificate share one; a far threshold is a second tilt), so one evaluation is
    charged an eighth of a build (OptComp's 16: three builds).
    """
    # the same request is estimated several times (auto's choice, the size check, the engine's
    # cost check, each raised round): the tree simulation runs once per tree and precision step
    return _cost(tuple((int(a), int(n)) for a, n in groups_a), float(lu), _prec_step(prec))


@functools.lru_cache(maxsize=32)
def _cost(groups_a: tuple, lu: float, wp: int) -> tuple[Estimate, Estimate]:
    """:func:`balllattice_cost` at the working precision ``wp`` (a multiple of 16), cached."""
    if not groups_a:
        return Estimate(1e-3, ALLOC_SLACK), Estimate(1e-4, ALLOC_SLACK)
    if max(a for a, _ in groups_a) > 2**40:  # a factor spread by z^a alone would hold > 2^40 coefficients
        return Estimate(math.inf, math.inf), Estimate(math.inf, math.inf)
    wbits = wp + MARGIN_BITS
    tot, big, final = tree_plan(groups_a, lu, wbits)
    P = _scale(len(groups_a), big, wbits)
    bits = 2 * P + 17
    R = _reach(wbits)
    terms = sum(min(n + 1, 2 * (R * max(math.sqrt(n * _sig(a * lu) * (1 - _sig(a * lu))), 1.0) + 16))
                for a, n in groups_a)
    keep = 6 * final * (P / 8 + 48)  # the polynomials kept for later evaluations
    build = Estimate(0.02 + 6e-9 * tot * bits + 1e-5 * terms, 16.0 * big * bits / 8 + keep + ALLOC_SLACK)
    return build, Estimate(build.seconds / 8 + 1e-7 * final, build.bytes)


# --------------------------------------------------------------------------
# the plug-in


class BallLatticeKernel(Kernel):
    """``w_i = u^(a_i)`` in balls: windowed factors multiplied in fixed point (the exact field
    goes through the lattice kernel)."""

    name = "lattice-balls"
    exact = False
    alternative = "method='auto', or " + APPROX_ALTERNATIVE

    def applies(self, req: Request) -> Optional[Reason]:
        if req.lattice is None:
            return Reason(f"'{self.name}' only when every e^eps_i is an integer power of one common base",
                          "incommensurable eps values")
        return None

    def check_size(self, req: Request) -> None:
        b, e = self.estimate(req)
        if not math.isfinite(b.then(e, EVALS_DELTA).seconds):  # a degree beyond the float range (eps = 1e309)
            alt = "method='mitm' or exactdp approx"
            raise CostTooHigh("method", f"the ball-lattice polynomial would have degree {count_text(req.degree())}, beyond "
                              f"what can be estimated; use {alt}", estimate=req.degree(), limit=None, alternative=alt)

    def estimate(self, req: Request, kind: str = "arb", prec: int = 128) -> tuple[Estimate, Estimate]:
        if kind == "exact":  # the exact field goes through the exact lattice kernel
            return LATTICE.estimate(req, kind, prec)
        return balllattice_cost([(x, n) for x, n in req.exponent_groups() if x > 0], req.lattice[0].flog(), prec)

    def describe(self, req: Request) -> str:
        A = sum(x * n for x, n in req.exponent_groups())
        return f"the certified ball-lattice kernel of {req.k} mechanisms (degree {count_text(A)})"

    def build(self, req: Request) -> Structure:
        return BallLattice(req.lattice[0], req.exponent_groups())


LATTICE_BALLS = BallLatticeKernel()
