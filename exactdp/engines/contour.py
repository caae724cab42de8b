"""The contour kernel: lattice tails as Cauchy integrals, certified by the trapezoidal rule's error bound.

For groups ``(a_j, n_j)`` (``n_j`` mechanisms with ``w = u^(a_j)``) the lattice kernel's count
polynomial is ``C(z) = prod_j (1 + z^(a_j))^(n_j) = sum_m c_m z^m``, of degree
``A = sum n_j a_j``, and S(t) needs two of its weighted tails (:mod:`.balllattice`)::

    X = sum_{m >= M} c_m u^m = U(u, M),      Y = sum_{m >= M} c_m u^(A - m) = u^A U(1/u, M),

with ``U(w, M) = sum_{m >= M} c_m w^m``. The polynomial kernels build ``C`` (or its tilted,
windowed law): their work grows with ``A`` (10^4 mechanisms with eps in {10..500}/1000:
``A = 2.5e6``, products of 1e7 coefficients of 450 bits, 13 s). Here ``C`` is never built.
For ``R > w`` and ``r = R / w``, the constant term of ``C(zeta) (zeta / w)^-M / (1 - w / zeta)``
on ``|zeta| = R`` is the tail (the *contour lemma*, Accounting Lemma 12 in ``proofs/accounting``)::

    U(w, M) = (1/2pi) int_{-pi}^{pi} f(theta) d theta,
    f(theta) = C(R e^(i theta)) (r e^(i theta))^-M / (1 - e^(-i theta) / r).

``R`` is the saddle point (the law ``c_m R^m / C(R)`` has its mean at ``M``), pushed out when
the pole ``theta = i ln r`` limits the rule. One circle serves ``X`` and ``Y`` (the same ``R``,
two ``r``) and every ``M`` near it (an OptComp's Newton steps). Three certified bounds:

* **Outside.** With ``x_j = R^(a_j)``, ``p_j = x_j / (1 + x_j)``, ``kappa_j = 4 p_j (1 - p_j)``,
  ``|1 + x e^(i phi)|^2 = (1 + x)^2 (1 - kappa sin^2(phi / 2))`` and ``1 - y <= e^-y`` give
  ``|C(R e^(i theta))| <= C(R) exp(-G(theta) / 2)``, ``G(theta) = sum_j n_j kappa_j
  sin^2(a_j theta / 2)``. ``G >= G_min`` is certified on ``[theta_0, pi]``: by
  ``sin x >= (23/24) x`` for ``0 <= x <= 1/2`` on ``[theta_0, 1/max a]`` (``G >= (23/24)^2
  theta^2 V``, ``V = sum n_j p_j (1 - p_j) a_j^2`` the law's variance), and beyond by a sweep
  (``G`` at interval midpoints in balls, Lipschitz constant ``sum n_j kappa_j a_j / 2``).
  There ``|f| <= C(R) r^-M e^(-G_min / 2) / (1 - 1/r)``.
* **The rule.** The ``N``-point trapezoidal rule on the circle (points ``2 pi k / N``) errs by
  at most ``2 M_d / (e^(d N) - 1)`` for ``|f| <= M_d`` on the strip ``|Im theta| <= d``
  (Trefethen and Weideman, SIAM Review 56 (2014), Theorem 3.2); ``d < ln r`` keeps the pole
  out, ``|C(zeta)| <= C(|zeta|)`` (positive coefficients) and the convexity of
  ``ln C(R e^-beta) + M beta`` in ``beta`` make ``M_d`` the larger of its values at
  ``beta = +-d`` over ``1 - e^d / r``.
* **The points.** Only the points with ``|theta| <= theta_0`` are evaluated (about 70 for
  the 10^4 mechanisms at 30 digits, conjugate pairs counted once): each one left out weighs
  ``1/N`` and is bounded by the outside bound.

Both omissions are added to the ball's radius. The work is ``O(groups x points)`` whatever
``A`` is: one complex exponential and logarithm a group and point (the product of the
factors as a sum of logarithms: a chain of complex ball products would widen its rectangle
by up to ``sqrt(2)`` a factor). It needs the law to be concentrated (``G`` must reach
``G_min``, about ``2 (prec + 12) ln 2``, on the whole circle outside the peak: a few hundred
mechanisms at 30 digits); where it is not, the kernel answers from the ball-lattice
polynomial (the same values, slower at scale).

Guarantee: enclosure (Arb balls); the float choices (``R``, ``theta_0``, ``d``, ``N``) only
affect the width. The exact field goes through the exact lattice kernel.
"""

from __future__ import annotations

import math
from typing import Optional, Sequence

from .._backend import acb, acb_poly, arb, np, workprec
from ..links import implements
from ..numbers import ExpNum
from .balllattice import BallLattice, BallLatticeKernel
from .costs import ALLOC_SLACK, MAX_SUM_EPS, Estimate
from .kernel import Request
from .structure import Structure

__all__ = ["Circle", "ContourLattice", "ContourKernel", "LATTICE_CONTOUR", "Law", "Plan", "tail_sum", "plan_circle",
           "contour_cost"]

#: Bits the quadrature's and the outside region's omissions are kept below the tail.
SLACK_BITS = 12
#: ``(23/24)^2`` as a float (planning only; the certificate uses the exact ratio): ``sin^2 x >=
#: (23/24)^2 x^2`` for ``0 <= x <= 1/2``.
SIN_FACTOR = (23 / 24) ** 2
#: The sweep gives up after this many evaluations of G (the law is not concentrated).
MAX_SWEEP = 20000
#: Exponents beyond this are not planned in floating point (the ball-lattice kernel refuses them).
_MAX_EXPONENT = 2**40
#: Largest FFT grid of :meth:`Law.reach` (16 max a points; 2^24 floats, 128 MiB, and its transform).
_MAX_GRID = 1 << 24
#: Block length of the sweep's polynomial evaluations (Arb's evaluation of a long polynomial on
#: the unit circle loses bits exponentially in the degree: 1e53 wide at degree 500, 64 bits).
BLOCK = 16
#: One group (equal mechanisms) is offered from this many mechanisms on: the windowed kernel's
#: evaluations share cached sums, so its estimate is 2-5 times its time and cannot rank the two;
#: measured (OptComp at 30 digits, eps 0.01 to 0.1): 10^6 equal, windowed 8 ms, contour 7-12 ms;
#: 10^8, windowed 38 ms (one hypergeometric function a tail), contour 6 ms.
ONE_GROUP_MIN_K = 3_000_000
#: Up to this many groups the float search uses the ball-lattice kernel's model (:meth:`ContourLattice.approx`).
MODEL_GROUPS = 64
#: Sums from the polynomial, with none from a circle, after which the kernel stops planning circles.
GIVE_UP = 3
#: Strip half widths tried by the plan, as fractions of the widest allowed.
STRIPS = (0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
#: Standard deviations by which the plan may push the circle beyond the saddle point.
PUSHES = (0.0, 0.5, 1.0, 2.0, 3.0, 5.0, 8.0)


# --------------------------------------------------------------------------
# floating-point planning (proposes the circle, theta_0, rho, n; decides nothing)


class Law:
    """The exponent sum's law tilted to ``e^s`` (each mechanism of group ``j`` in with odds
    ``e^(s a_j)``), in floating point: ``K(s) = ln C(e^s)``, mean, variance, where ``G`` stays high.
    Guarantee: approximate. Raises: nothing."""

    def __init__(self, groups: Sequence[tuple[int, int]]):
        live = [(a, n) for a, n in groups if a > 0 and n > 0]
        self.a = np.array([a for a, _ in live], dtype=float)
        self.n = np.array([n for _, n in live], dtype=float)
        self.amax = int(self.a.max()) if live else 0

    def K(self, s: float) -> float:
        """``ln C(e^s)``."""
        return float((self.n * np.logaddexp(0.0, self.a * s)).sum())

    def moments(self, s: float) -> tuple[float, float]:
        """Mean and variance of the exponent sum at the tilt ``e^s``."""
        q = 0.5 * (1 + np.tanh(self.a * s / 2))
        return float((self.n * self.a * q).sum()), float((self.n * self.a * self.a * q * (1 - q)).sum())

    def above(self, lw: float, M: int) -> bool:
        """Is ``M`` half a standard deviation or more above the mean of the law tilted to ``e^lw``
        (the side :func:`plan_circle` plans for; else the complement's)?"""
        s_hat = self.saddle(M)
        return (s_hat - lw) * math.sqrt(max(self.moments(s_hat)[1], 1e-300)) >= 0.5

    def saddle(self, M: float) -> float:
        """``s`` with mean ``M``: Newton's method on the mean (increasing in ``s``, its derivative
        the variance) kept inside a bisection bracket (a step that leaves it bisects instead)."""
        lo, hi = -700.0 / self.a.min(), 700.0 / self.a.min()
        s = 0.0
        for _ in range(200):
            mu, var = self.moments(s)
            if mu < M:
                lo = s
            else:
                hi = s
            if hi - lo <= 1e-15 * max(1.0, abs(s)):
                break
            step = (M - mu) / var if var > 0 else math.inf
            nxt = s + step
            if not lo < nxt < hi:
                nxt = 0.5 * (lo + hi)
            elif abs(step) <= 1e-15 * max(1.0, abs(s)):
                return nxt
            s = nxt
        return 0.5 * (lo + hi) if hi - lo <= 1e-15 * max(1.0, abs(s)) else s

    def _grid_len(self) -> int:
        return max(16 * self.amax, 4096)

    def reach(self, s: float, g: float, lo: float) -> Optional[float]:
        """The least ``theta >= lo`` beyond which the float ``G`` stays above ``g`` on the grid
        ``theta_k = 2 pi k / L``, ``L = max(16 max a, 4096)`` (``G = (K - Re B(e^(i theta))) / 2`` with
        ``B(z) = sum_j n_j kappa_j z^(a_j)``: one FFT per tilt, kept), or None."""
        if self._grid_len() > _MAX_GRID:  # the FFT grid would not fit: no plan (the kernel is not offered)
            return None
        cache = self.__dict__.setdefault("_grids", {})
        if s not in cache:
            if len(cache) > 16:
                cache.clear()
            q = 0.5 * (1 + np.tanh(self.a * s / 2))
            k = self.n * 4 * q * (1 - q)
            L = self._grid_len()
            b = np.zeros(L)
            np.add.at(b, self.a.astype(int), k)
            vals = (k.sum() - np.fft.fft(b).real[: L // 2 + 1]) / 2
            cache[s] = (2 * math.pi * np.arange(L // 2 + 1) / L, vals)
        grid, vals = cache[s]
        bad = np.nonzero((vals < g) & (grid >= lo))[0]
        if bad.size == 0:
            return lo
        t = float(grid[bad[-1]]) + 2 * math.pi / self._grid_len()
        return max(t, lo) if t < 1.0 else None


def _log_tail_ratio(c: float, d: float, var: float) -> float:
    """``ln (U / (Q(r) r^-M))`` from the Gaussian model ``int_0^inf phi_sigma(y - d) e^(-c y) dy``
    (``c = ln r``, ``d`` the tilted mean minus ``M``)."""
    sd = math.sqrt(var)
    x = (c * var - d) / (sd * math.sqrt(2))
    le = math.log(0.5 * math.erfc(x)) if x < 20 else -x * x - math.log(2 * x * math.sqrt(math.pi))
    return -c * d + c * c * var / 2 + le


class Plan:
    """A circle's float choices: ``lR = ln R``, ``theta0``, ``d`` (the strip's half width), ``N``
    (the trapezoidal rule's points on the circle), ``n`` (the points evaluated, ``|theta| <=
    theta0``: ``0`` and ``n - 1`` conjugate pairs), ``gmin`` (the ``G`` to certify outside), ``loss``
    (bits by which ``C(R) r^-M`` may exceed the tails)."""

    __slots__ = ("lR", "theta0", "d", "N", "n", "gmin", "loss")

    def __init__(self, lR, theta0, d, N, n, gmin, loss):
        self.lR, self.theta0, self.d, self.N, self.n, self.gmin, self.loss = lR, theta0, d, N, n, gmin, loss


def plan_circle(law: Law, lws: Sequence[float], M: int, prec: int) -> Optional[Plan]:
    """The float plan of a circle serving the tails ``U(e^lw, M)`` for every ``lw`` of ``lws`` at
    ``prec`` bits (``|z| = R`` near the saddle point of ``C``'s law at ``M``, pushed out when the
    smallest ``ln r = ln R - lw`` limits the strip of the trapezoidal rule), or None when ``M`` is
    not above the law's mean for some ``lw`` (the complement's side) or no plan fits.
    Guarantee: approximate (a proposal; :class:`Circle` certifies in balls). Raises: nothing."""
    if law.amax == 0:
        return None
    lw_top = max(lws)
    if not law.above(lw_top, M):
        return None
    s_hat = law.saddle(M)
    sd0 = math.sqrt(max(law.moments(s_hat)[1], 1e-300))
    best: Optional[Plan] = None
    for push in PUSHES:
        s = s_hat + push / sd0
        mu, var = law.moments(s)
        if var <= 0:
            continue
        Ks = law.K(s)
        worst = None
        for lw in lws:
            c = s - lw
            lr = _log_tail_ratio(c, mu - M, var)  # <= 0
            ltau = lr - (prec + SLACK_BITS) * math.log(2)
            gmin = 2 * (-ltau - math.log(-math.expm1(-c)))
            worst = (gmin, lr, ltau) if worst is None or gmin > worst[0] else worst
        gmin, lr, ltau = worst
        theta0 = 1.01 * math.sqrt(gmin / (SIN_FACTOR * var))  # 1%: the float variance is not the ball's
        if theta0 > 1.0 / law.amax:  # beyond the analytic bound: where the float G stays above (the sweep decides)
            theta0 = law.reach(s, 1.05 * gmin, 1.0 / law.amax)
        if theta0 is None or theta0 >= 1.0:
            continue
        c = s - lw_top
        for frac in STRIPS:
            d = frac * min(0.9 * c, 4 * theta0)
            lm = max(law.K(s - d) - Ks + M * d, law.K(s + d) - Ks - M * d) - math.log(-math.expm1(d - c))
            N = math.ceil((math.log(2) + lm - ltau) / d) + 1
            n = int(theta0 * N / (2 * math.pi)) + 1
            if N < 2 * n + 1:
                continue
            if best is None or n < best.n:
                best = Plan(s, theta0, d, N, n, gmin, -lr / math.log(2))
    return best


# --------------------------------------------------------------------------
# the certified circle and tails


def _sweep(kap: list, groups: Sequence[tuple[int, int]], start: float, gmin: arb) -> bool:
    """Is ``G(theta) >= gmin`` on ``[start, pi]``? Certified in balls at 64 bits: ``G`` at the
    midpoint of each interval minus the Lipschitz constant ``sum n_j kappa_j a_j / 2`` times
    the half width; intervals that fail are halved. False when undecided."""
    with workprec(64):
        K = sum((n * k for k, (_, n) in zip(kap, groups)), arb(0))
        amax = max(a for a, _ in groups)
        co = [arb(0)] * (amax + 1)
        for k, (a, n) in zip(kap, groups):
            co[a] += n * k
        blocks = [acb_poly(co[i:i + BLOCK]) for i in range(0, amax + 1, BLOCK)]
        Lb = sum((n * k * a for k, (a, n) in zip(kap, groups)), arb(0)) / 2
        L = float(Lb.upper()) * (1 + 1e-9)
        gm = float(gmin.upper()) * (1 + 1e-9)
        top = float(K.mid()) / 2
        h = max(2 * (top - gm) / L, 1e-6) if top > gm else 1e-3
        stack = []
        x, end = start, math.pi + 1e-9  # past pi (math.pi is below it): G is defined beyond
        while x < end:
            y = min(end, x + h)
            stack.append((x, y))
            x = y
        evals = 0
        while stack:
            x, y = stack.pop()
            z = acb(0, arb((x + y) / 2)).exp()
            zb, v = z**BLOCK, acb(0)
            for blk in reversed(blocks):
                v = v * zb + blk(z)
            G = (K - v.real) / 2
            evals += 1
            # float(G.lower()) rounds; the 1e-9 margins above and here cover it
            if float(G.lower()) * (1 - 1e-9) - L * (y - x) / 2 >= gm:
                continue
            if evals > MAX_SWEEP or y - x < 1e-12:
                return False
            stack += [(x, (x + y) / 2), ((x + y) / 2, y)]
        return True


class Circle:
    """``C(R e^(i theta)) / C(R)`` at the trapezoidal rule's points ``theta_k = 2 pi k / N``,
    ``|theta_k| <= theta0`` (``k = 0..n-1``; the negative ones are conjugates), ``C(R)``, the
    strip's two bounds ``C(R e^(-+d)) / C(R)``, and ``G >= gmin`` certified on ``[theta0, pi]``:
    everything a tail at any ``(w, M)`` with ``R / w > e^d`` needs (module docstring). Built by
    :meth:`build`, None when the outside region cannot be certified.

    Guarantee: enclosure (balls at ``wp`` bits). Raises: nothing.
    """

    __slots__ = ("plan", "wp", "R", "CR", "th0", "d", "N", "gmin", "c_minus", "c_plus", "nodes")

    @classmethod
    def build(cls, groups: Sequence[tuple[int, int]], plan: Plan, wp: int) -> Optional["Circle"]:
        """The circle of ``plan`` at ``wp`` bits, or None when ``G >= gmin`` outside is not certified.
        Guarantee: enclosure. Raises: nothing."""
        self = cls()
        self.plan, self.wp, self.N = plan, wp, plan.N
        live = sorted((a, n) for a, n in groups if a > 0 and n > 0)
        with workprec(wp):
            R = self.R = arb(math.exp(plan.lR))  # an exact dyadic
            xs = [R**a for a, _ in live]
            ps = [x / (1 + x) for x in xs]
            qs = [1 / (1 + x) for x in xs]
            kap = [4 * p * q for p, q in zip(ps, qs)]
            th0 = self.th0 = arb(plan.theta0)
            gmin = self.gmin = arb(plan.gmin)
            amax = live[-1][0]
            if plan.theta0 < 1.0 / amax:
                # G >= (23/24)^2 theta^2 V on [theta0, 1/amax], V = sum n_j p_j q_j a_j^2
                V = sum((n * p * q * a * a for p, q, (a, n) in zip(ps, qs, live)), arb(0))
                if not (arb(23) ** 2 / arb(24) ** 2 * th0 * th0 * V >= gmin):
                    return None
                start = (1.0 / amax) * (1 - 2.0**-40)  # at or below the exact 1/amax: no gap for the sweep
            else:
                start = plan.theta0
            if not _sweep(kap, live, start, gmin):
                return None
            CR = arb(1)
            for x, (_, n) in zip(xs, live):
                CR *= (1 + x) ** n
            self.CR = CR
            d = self.d = arb(plan.d)
            bounds = []
            for beta in (d, -d):
                v = arb(0)
                for x, (a, n) in zip(xs, live):
                    v += n * ((1 + x * (-a * beta).exp()) / (1 + x)).log()
                bounds.append(v.exp())
            self.c_minus, self.c_plus = bounds  # C(R e^-d) / C(R), C(R e^d) / C(R)
            # the points: the product as a sum of logarithms (a chain of complex products would
            # widen its rectangle by up to sqrt(2) a factor). Each logarithm stays off the branch
            # cut: for p > q, q + p e^(i phi) = e^(i phi) (p + q e^(-i phi)) and Re(p + q e^(-i phi))
            # >= p - q > 0 (else Re(q + p e^(i phi)) >= q - p >= 0), the e^(i phi) summed apart
            flip = [bool(p > q) for p, q in zip(ps, qs)]
            turns = sum(a * n for (a, n), f in zip(live, flip) if f)
            nodes = []
            step = 2 * arb.pi() / plan.N
            k = 0
            while True:  # every point not certainly beyond theta0 (G is certified beyond it only)
                th = step * k
                if th > th0:
                    break
                k += 1
                lf = acb(0, turns * th)
                for (a, n), p, q, f in zip(live, ps, qs, flip):
                    lf += n * ((p + q * acb(0, -a * th).exp()) if f else (q + p * acb(0, a * th).exp())).log()
                nodes.append((th, lf.exp()))
            self.nodes = nodes
        return self

    @implements("Accounting Lemma 12")
    def tail(self, w: arb, M: int) -> Optional[arb]:
        """``U(w, M) = sum_{m >= M} c_m w^m`` as a ball, or None when ``r = R / w`` is not
        certified beyond the strip (``r > e^d``). Guarantee: enclosure. Raises: nothing."""
        with workprec(self.wp):
            r = self.R / w
            ed = self.d.exp()
            if not (r > ed):
                return None
            ir = 1 / r
            acc = arb(0)
            for k, (th, F) in enumerate(self.nodes):
                z = acb(0, th).exp()
                v = (F * acb(0, -M * th).exp() / (1 - ir / z)).real
                acc += v if k == 0 else 2 * v
            val = acc / self.N
            # the trapezoidal rule on the circle (Trefethen-Weideman, Theorem 3.2): 2 M_d / (e^(d N) - 1)
            md = (self.c_minus * (M * self.d).exp()).max(self.c_plus * (-M * self.d).exp()) / (1 - ed / r)
            e_tr = 2 * md / ((self.d * self.N).exp() - 1)
            # the points left out (|theta_k| > theta0, at most N of them, each weighing 1/N)
            e_out = (-self.gmin / 2).exp() / (1 - ir)
            return self.CR * r ** (-M) * (val + arb(0, (e_tr + e_out).upper()))


@implements("Accounting Lemma 12")
def tail_sum(groups: Sequence[tuple[int, int]], u: ExpNum, sign: int, M: int, prec: int) -> Optional[arb]:
    """``U(u^sign, M) = sum_{m >= M} c_m u^(sign m)`` for ``c_m`` the coefficients of
    ``prod_j (1 + z^(a_j))^(n_j)``, by the contour lemma (module docstring), or None when the
    plan finds no contour (``M`` not above the law's mean, or the law not concentrated enough),
    the outside region cannot be certified, or the ball misses ``prec`` bits.

    Guarantee: enclosure (an Arb ball containing the exact tail, at least ``prec`` bits
    accurate when returned).

    Parameters:
        groups: ``(a_j, n_j)``, integers ``a_j >= 1``, ``n_j >= 1``.
        u: the lattice base, an exp-space number ``> 0``; ``sign``: ``+1`` or ``-1``.
        M: the tail's first exponent (an integer).
        prec: the relative accuracy wanted, in bits.

    Raises: nothing.

    Examples:
        >>> from fractions import Fraction
        >>> from exactdp.numbers import RatExp
        >>> u = RatExp.from_exp(Fraction(1001, 1000))
        >>> v = tail_sum([(1, 400), (2, 300), (3, 300)], u, 1, 1200, 64)   # the mean is 1000
        >>> v is not None and v.rel_accuracy_bits() >= 64
        True
    """
    law = Law(groups)
    lw = sign * u.flog()
    plan = plan_circle(law, [lw], M, prec)
    if plan is None:
        return None
    wp = _circle_prec(prec, plan)
    circ = Circle.build(groups, plan, wp)
    if circ is None:
        return None
    with workprec(wp):
        w = u.arb(wp + 16)
        v = circ.tail(w if sign > 0 else 1 / w, M)
    return v if v is not None and v.rel_accuracy_bits() >= prec else None


def _circle_prec(prec: int, plan: Plan) -> int:
    """Working bits of a circle: the tails' ``prec``, the loss against ``C(R) r^-M``, the slack,
    and the rounding of the node sums (steps of 16, so that nearby requests share a build)."""
    return 16 * math.ceil((prec + SLACK_BITS + 24 + plan.loss + plan.N.bit_length()) / 16)


# --------------------------------------------------------------------------
# the kernel: the ball-lattice kernel whose tails come from circles


class ContourLattice(BallLattice):
    """``w_i = u^(a_i)`` in groups ``(a_j, n_j)``: S(t) as the ball-lattice kernel's ``X - t Y``
    (:mod:`.balllattice`), each tail from a :class:`Circle` (module docstring)::

        X = U(u, M)                              (M above the X law's mean)
          = C(u) - u^A U(1/u, A - M + 1)         (else; C(z) palindromic)
        Y = u^A U(1/u, M)

    A circle serves every tail whose ``r`` stays beyond its ellipse and whose ball comes out
    accurate (an OptComp's Newton steps and certificate share one or two); a few are kept.
    Where no circle can be certified (a law not concentrated enough: small compositions), the
    tails come from the ball-lattice polynomial. ``contour_sums`` and ``polynomial_sums``
    count the two.

    Guarantee: enclosure (Arb fields); exact (exact field, through the exact lattice kernel).

    Parameters:
        u: the lattice base (``w_i = u^(a_i)``), an exp-space number ``> 0``.
        groups: ``(a_j, n_j)`` pairs, integers ``a_j >= 0``, ``n_j >= 1``.

    Raises: nothing at construction.

    Examples:
        >>> from fractions import Fraction
        >>> from exactdp.numbers import RatExp
        >>> from exactdp.engines.fields import ArbField, ExactField
        >>> u = RatExp.from_exp(Fraction(1001, 1000))
        >>> k = ContourLattice(u, [(1, 400), (2, 300), (3, 300)])
        >>> t = RatExp.from_exp(Fraction(6, 5))
        >>> exact, _ = k.evaluate(ExactField(), t)
        >>> s, _ = k.evaluate(ArbField(96), t)
        >>> bool(s.contains(ArbField(96).rational(Fraction(int(exact.numerator), int(exact.denominator))))), k.contour_sums
        (True, 1)
    """

    method = "lattice-contour"

    def __init__(self, u: ExpNum, groups: Sequence[tuple[int, int]]):
        super().__init__(u, groups)
        self._law = Law(self.live) if self.live and self.live[-1][0] <= _MAX_EXPONENT else None
        self._circles: list = []
        self.contour_sums = 0
        self.polynomial_sums = 0

    def _sums_uncached(self, m_hi: int, prec: int) -> tuple[arb, arb]:
        """``(X, Y)`` for the classes ``m >= m_hi`` at ``prec`` bits from circles, else from the
        ball-lattice polynomial (the base class caches); after :data:`GIVE_UP` sums in a row from
        the polynomial and none from a circle, the polynomial only (planning a circle again at
        each of an OptComp's thresholds cost 25 ms each for 10^4 mechanisms of eps 1, whose
        thresholds lie where no circle serves). Guarantee: enclosure. Raises: nothing."""
        if self.contour_sums == 0 and self.polynomial_sums >= GIVE_UP:
            self.polynomial_sums += 1
            return super()._sums_uncached(m_hi, prec)
        hit = self._contour(m_hi, prec)
        if hit is None:
            self.polynomial_sums += 1
            return super()._sums_uncached(m_hi, prec)
        self.contour_sums += 1
        return hit

    def _contour(self, m_hi: int, prec: int) -> Optional[tuple[arb, arb]]:
        lu, A = self._lu, self.A
        if self._law is None or lu <= 0 or not 0 < m_hi <= A:
            return None
        direct = self._law.above(lu, m_hi)
        if direct:
            X = self._circle_tail(1, m_hi, prec, (lu, -lu))
            if X is None:
                return None
        Y = self._circle_tail(-1, m_hi, prec, (lu, -lu) if direct else (-lu,))
        if Y is None:
            return None
        wp = max(c.wp for c in self._circles)
        with workprec(wp):
            uA = self.u.arb(wp + 16 + A.bit_length()) ** A
            Y = uA * Y
            if not direct:
                V = self._circle_tail(-1, A - m_hi + 1, prec + 8, (-lu,))
                if V is None:
                    return None
                ua = self.u.arb(wp + 16)
                Cu = arb(1)
                for a, n in self.live:
                    Cu *= (1 + ua**a) ** n
                X = Cu - uA * V
            # mechanisms with a = 0 (eps = 0) multiply C by 2 each; the circles hold the rest
            zero = self.k - sum(n for _, n in self.live)
            if zero:
                X, Y = X * 2**zero, Y * 2**zero
        if min(X.rel_accuracy_bits(), Y.rel_accuracy_bits()) < prec:
            return None
        return X, Y

    def _circle_tail(self, sign: int, M: int, prec: int, lws: tuple) -> Optional[arb]:
        """``U(u^sign, M)`` to ``prec + 4`` bits from a kept circle, else from a new one planned for
        ``lws`` at ``M`` (the plan's Gaussian model may miss by a few bits: planned again for the
        shortfall, three times at most); None when no circle serves."""
        want = prec + 4
        for circ in self._circles:
            v = self._circle_value(circ, sign, M)
            if v is not None and v.rel_accuracy_bits() >= want:
                return v
        aim = want
        for _ in range(3):
            plan = plan_circle(self._law, list(lws), M, aim)
            if plan is None:
                return None
            circ = Circle.build(self.live, plan, _circle_prec(aim, plan))
            if circ is None:
                return None
            if len(self._circles) >= 4:
                self._circles.pop(0)
            self._circles.append(circ)
            v = self._circle_value(circ, sign, M)
            if v is None:
                return None
            got = v.rel_accuracy_bits()
            if got >= want:
                return v
            aim += want - got + 8
        return None

    def _circle_value(self, circ: Circle, sign: int, M: int) -> Optional[arb]:
        with workprec(circ.wp):
            w = self.u.arb(circ.wp + 16)
            return circ.tail(w if sign > 0 else 1 / w, M)

    def approx(self, lnt: float) -> tuple[float, float]:
        """``(ln S, d ln S / d ln t)`` in floating point for the search: each tail from the
        Gaussian model at the saddle point (the plan's model); where ``X - t Y`` cancels below the
        model's accuracy, the evaluation in balls at 64 bits. Up to :data:`MODEL_GROUPS` groups the
        ball-lattice kernel's model answers instead (tilted per threshold: its slope is the
        better one where the per-mechanism eps is large, e.g. 2.3 times this model's for 10^4
        mechanisms of eps 1, whose search then ended 80 classes off and Newton in balls walked
        them one piece at a time, 4.5 s instead of 5 ms; with many groups it costs more, 0.63 s
        against 0.44 s for 10^4 mechanisms with 491 distinct eps).
        Guarantee: approximate. Raises: nothing."""
        lu, A = self._lu, self.A
        if self._law is None or lu <= 0 or len(self.live) <= MODEL_GROUPS:
            return super().approx(lnt)
        m_hi = max(0, math.floor((A + lnt / lu) / 2) + 1)
        if m_hi > A:
            return -math.inf, 0.0
        lnX = self._log_tail(lu, m_hi)
        lnY = self._log_tail(-lu, m_hi) + A * lu
        d = lnt + lnY - lnX  # ln (t Y / X)
        if not (d < -1e-3):
            return Structure.approx(self, lnt)
        return lnX + math.log(-math.expm1(d)), -math.exp(d - math.log(-math.expm1(d)))

    def _log_tail(self, lw: float, M: int) -> float:
        """``ln U(e^lw, M)`` from the Gaussian model (float)."""
        law = self._law
        s = law.saddle(M)
        mu, var = law.moments(s)
        c = s - lw
        if c * math.sqrt(var) < 1:  # M at or below the mean: the untilted law
            mu, var = law.moments(lw)
            x = (M - 0.5 - mu) / math.sqrt(2 * var)
            return law.K(lw) + math.log(0.5 * math.erfc(x))
        return law.K(s) - M * c + _log_tail_ratio(c, mu - M, var)


# --------------------------------------------------------------------------
# the cost model (rates measured on 2 shared cores; benchmarks/bench_hetero.py)


def contour_cost(groups_a: Sequence[tuple[int, int]], lu: float, prec: int) -> Optional[tuple[Estimate, Estimate]]:
    """``(build, one evaluation)`` of the contour kernel, or None for one group of fewer than
    :data:`ONE_GROUP_MIN_K` mechanisms (the windowed kernel's case) and when its plan finds no circle at the typical threshold (4 standard
    deviations above the X law's mean; the kernel would answer from the ball-lattice polynomial).

    A circle costs ``n`` point evaluations of one complex exponential and logarithm per group
    (measured on the shared 2-core machine at load 2-8, 224-bit balls: 491 groups x 70 points and
    400 x 84, 0.2-0.3 s, about ``7e-6`` s a group and point; charged ``1e-5``, scaled with the
    precision above 200 bits) and a sweep of ``G`` (about ``pi L / (K/2 - G_min)`` evaluations of
    ``max a / 16`` blocks, ``3e-6`` s a block; measured 0.13 s for the 400 groups); an OptComp
    builds one circle (X and Y share it; a threshold below the X law's mean needs a second),
    charged twice; one evaluation afterwards is ``n`` complex products (``2e-5`` s each).
    Guarantee: approximate (upper estimates). Raises: nothing."""
    if not groups_a or max(a for a, _ in groups_a) > _MAX_EXPONENT:
        return None  # huge exponents: refused there
    if len(groups_a) == 1 and groups_a[0][1] < ONE_GROUP_MIN_K:
        return None  # the windowed kernel's (its estimate, an upper bound, does not rank the two there)
    if lu * sum(a * n for a, n in groups_a) > MAX_SUM_EPS:
        return None  # OptComp's search over t = e^eps_g as an exact rational: the windowed kernels' (one ball)
    if sum(n for _, n in groups_a) < 2 * (prec + SLACK_BITS) * math.log(2):
        return None  # G <= sum n_j kappa_j <= k never reaches G_min (and NumPy stays unloaded)
    law = Law(groups_a)
    if law.amax == 0:
        return None
    s0 = lu
    mu, var = law.moments(s0)
    M = int(mu + 4 * math.sqrt(var)) + 1
    if M > sum(a * n for a, n in groups_a):
        return None
    plan = plan_circle(law, [lu, -lu], M, prec)
    if plan is None:
        return None
    q = 0.5 * (1 + np.tanh(law.a * plan.lR / 2))
    kap = law.n * 4 * q * (1 - q)
    L = float((kap * law.a).sum()) / 2
    room = float(kap.sum()) / 2 - plan.gmin
    if room <= 0:
        return None
    sweep = math.pi * L / room * (law.amax / BLOCK + 2) * 3e-6
    scale = _circle_prec(prec, plan) / 200
    nodes = plan.n * len(law.a) * 1e-5 * max(scale, 1.0)
    build = Estimate(CONTOUR_BUILD_S + 2 * (nodes + sweep), 2e6 + 64.0 * plan.n * len(law.a) + ALLOC_SLACK)
    return build, Estimate(2e-5 * plan.n + CONTOUR_EVAL_S, build.bytes)


#: Fixed seconds of the contour kernel's build (the plan's float search for the circle: 1-3 ms
#: for one to three groups, measured with ``benchmarks/bench_auto.py``'s compositions).
CONTOUR_BUILD_S = 3e-3
#: Fixed seconds of one evaluation (the threshold's plan check, the two tails' assembly in balls:
#: measured 2-4 ms a delta_g for one group of 10^4 to 10^8 mechanisms, kernel build included).
CONTOUR_EVAL_S = 2e-3


# --------------------------------------------------------------------------
# the plug-in


class ContourKernel(BallLatticeKernel):
    """``w_i = u^(a_i)`` in balls, the tails as contour integrals (falls back to the ball-lattice
    polynomial where no circle is certified; the exact field goes through the lattice kernel)."""

    name = "lattice-contour"

    def offered(self, req: Request) -> bool:
        return self.applies(req) is None and self._cost(req, 128) is not None

    def _cost(self, req: Request, prec: int) -> Optional[tuple[Estimate, Estimate]]:
        cache = req.__dict__.setdefault("_contour_costs", {})  # offered and estimate ask the same
        if prec not in cache:
            cache[prec] = contour_cost([(x, n) for x, n in req.exponent_groups() if x > 0], req.lattice[0].flog(), prec)
        return cache[prec]

    def estimate(self, req: Request, kind: str = "arb", prec: int = 128) -> tuple[Estimate, Estimate]:
        if kind == "exact":
            return super().estimate(req, kind, prec)
        est = self._cost(req, prec)
        return est if est is not None else super().estimate(req, kind, prec)

    def describe(self, req: Request) -> str:
        return f"the contour kernel of {req.k} mechanisms"

    def build(self, req: Request) -> Structure:
        return ContourLattice(req.lattice[0], req.exponent_groups())


LATTICE_CONTOUR = ContourKernel()
