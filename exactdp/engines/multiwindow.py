"""The windowed grouped kernel: a few distinct eps values with large counts, any values.

For groups ``(w_i = e^(l_i), n_i)``, ``i = 1..g``, ``l_i > 0`` (no lattice needed: eps = 0.01
beside eps = 0.0123456789), a class is ``j = (j_1..j_g)`` (how many of group ``i`` a subset
takes), its loss ``lambda(j) = sum_i l_i (2 j_i - n_i)``, and with the product laws
``P_X(j) = prod_i Bin(n_i, p_i)(j_i)``, ``p_i = w_i / (1 + w_i)``, and
``P_Y(j) = prod_i Bin(n_i, 1 - p_i)(j_i) = P_X(j) e^(-lambda(j))``::

    S(t) / Z     = sum_{lambda(j) > ln t} [P_X(j) - t P_Y(j)],   Z = prod_i (1 + w_i)^(n_i),
    sigma(t) / Z = sum_{lambda(j) > ln t} P_Y(j).

The last group (the largest count) is summed as a tail: for each configuration ``j_<`` of
the others, the positive ``j_g`` are those at or above ``thr(j_<)``, the least ``j`` with
``l_g (2 j - n_g) > ln t - lambda_<(j_<)`` (decided in floats with a margin, exactly by
:func:`~exactdp.numbers.log_sign_of_product` inside it), so an evaluation costs one step
per configuration of the other groups, never ``prod (n_i + 1)``.

**Windows and what they omit.** Each group is summed over a window of its own counts only.
For any ``theta >= 0`` the tilted law ``Q_theta(j) = P_X(j) e^(theta lambda(j)) / M(theta)``
is again a product of binomials, with odds ``y_i = e^(l_i (1 + 2 theta))``, and
``M(theta) = prod_i e^(-theta l_i n_i) ((1 + y_i) / (1 + w_i))^(n_i)``. For a positive class
(``lambda(j) > L = ln t``), ``P_X(j) <= P_X(j) e^(theta (lambda(j) - L)) = t^(-theta) M(theta)
Q_theta(j)`` (Chernoff), and ``P_Y(j) = P_X(j) e^(-lambda(j)) < P_X(j) / t``. So the positive
classes with some ``j_i`` outside its window add to ``S / Z`` at most

    E = t^(-theta) M(theta) sum_i Q_theta,i(j_i outside window i)

and to ``sigma / Z`` at most ``E / t``; each ``Q_theta,i`` tail is bounded by the lemma of
:mod:`.windowed` (beyond a term ``T`` whose ratio to the next is ``r < 1``, at most
``T / (1 - r)``). Everything is computed in Arb balls, so the enclosure holds for any
``theta`` and any windows; they only decide its width. ``theta`` puts the tilted law's mean
loss at ``L`` (where the classes that matter are; 0 when the untilted mean is already
beyond), and each window is its mode plus or minus ``R`` standard deviations, ``R`` from the
precision, widened while ``E`` is not below ``2^-(prec+4)`` of the sum.

Guarantee: an enclosure in Arb balls (relative width about ``2^-prec`` where ``S`` is not
itself cancelled); exact in the exact field (through the grouped kernel, whose cost the
exact engine checks first).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Optional, Sequence

from .._backend import arb, np, workprec
from ..errors import CostTooHigh
from ..numbers import ExpNum, log_sign_of_product
from .costs import ALLOC_SLACK, Estimate
from .fields import ArbField, Field
from .grouped import Grouped, grouped_estimate
from .kernel import APPROX_ALTERNATIVE, Kernel, Reason, Request
from .lattice import BallKernel, CachedApprox
from .structure import Structure
from .windowed import first_log, log1pexp, log_terms

__all__ = ["WindowedGroups", "WINDOWED_GROUPS", "window_plan", "windowed_groups_cost"]

#: Extra bits of the omitted mass below the working precision (the Chernoff bound's slack
#: over ``S`` is a few powers of two; a window found too narrow is widened).
OMIT_BITS = 40


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x)) if x > -700 else 0.0


def _reach(prec: int) -> float:
    """Standard deviations of a window: ``e^(-R^2/2) = 2^-(prec + OMIT_BITS)``, plus one."""
    return math.sqrt(2 * (prec + OMIT_BITS) * math.log(2)) + 1.0


def window_plan(groups_l: Sequence[tuple[float, int]], prec: int) -> tuple[float, float, float]:
    """``(configurations, last window, all windows)``: the product of the other groups' window
    lengths, the last (largest) group's, and the sum of all, at the widest (``p = 1/2``), for
    the cost estimates. Guarantee: approximate (an upper estimate). Raises: nothing."""
    R = _reach(prec)
    lens = [min(n + 1.0, 2 * R * math.sqrt(n / 4.0) + 5) for _, n in groups_l]
    inner = max(range(len(groups_l)), key=lambda i: groups_l[i][1])
    box = 1.0
    for i, x in enumerate(lens):
        if i != inner:
            box *= x
    return box, lens[inner], sum(lens)


class _Win:
    """One group's window ``lo..hi``: ``B_X(j)``, ``B_Y(j)`` in balls, and the tilted law's
    omitted mass on both sides (an upper bound)."""

    __slots__ = ("lo", "hi", "bx", "by", "omitted")

    def __init__(self, lo, hi, bx, by, omitted):
        self.lo, self.hi, self.bx, self.by, self.omitted = lo, hi, bx, by, omitted


class _Built:
    """What one ``(theta, precision, reach)`` builds: the windows; the other groups'
    configurations sorted by loss (descending): ``px``, ``py`` (balls), ``lam`` (floats, a
    numpy array), ``js``; the last group's suffix sums ``sx``, ``sy`` (configuration mode) or
    the configurations' prefix sums ``cx``, ``cy`` (inner mode, when the configurations
    outnumber the last window's terms); ``M(theta)`` times the omitted tilted mass."""

    __slots__ = ("wins", "px", "py", "lam", "neg", "js", "sx", "sy", "cx", "cy", "M_omitted", "theta", "inner_mode")

    def __init__(self, **kw):
        for k_, v in kw.items():
            setattr(self, k_, v)


class WindowedGroups(CachedApprox, BallKernel):
    """A few groups ``(w_i, n_i)`` of arbitrary ``w_i > 1``: S(t) over windows of each group's
    counts (module docstring). Arb fields only; the exact field goes through the grouped kernel."""

    method = "windowed-groups"

    def __init__(self, groups: Sequence[tuple[ExpNum, int]]):
        gs = [(v, int(n)) for v, n in groups]
        if len(gs) < 2 or any(not (v.flog() > 0) for v, _ in gs):
            raise ValueError("windowed-groups needs at least two groups with eps > 0")
        inner = max(range(len(gs)), key=lambda i: gs[i][1])
        self.groups = [g for i, g in enumerate(gs) if i != inner] + [gs[inner]]  # the largest last
        self.k = sum(n for _, n in self.groups)
        self._l = [v.flog() for v, _ in self.groups]
        self._lnW = math.fsum(l * n for l, (_, n) in zip(self._l, self.groups))
        self._built: dict = {}
        self._grouped = None

    # -- the engine interface ------------------------------------------------------------

    def _exact_kernel(self):
        if self._grouped is None:
            self._grouped = Grouped(self.groups)
        return self._grouped

    def cost(self) -> float:
        box, inner, wins = window_plan([(l, n) for l, (_, n) in zip(self._l, self.groups)], 128)
        return box + wins

    def estimate(self, kind: str, prec: int):
        if kind == "exact":
            return self._exact_kernel().estimate(kind, prec)
        return windowed_groups_cost([(l, n) for l, (_, n) in zip(self._l, self.groups)], prec)

    def loss_classes(self, field: Field) -> list:
        """The ``prod (n_i + 1)`` classes, through the grouped kernel (few classes only).

        Raises:
            CostTooHigh: more than 200000 classes (the classes themselves are the cost).
        """
        n = 1
        for _, ni in self.groups:
            n *= ni + 1
        if n > 200_000:
            raise CostTooHigh("k", f"the trade-off curve of these {self.k} mechanisms has {n} classes (limit 200000)",
                              estimate=n, limit=200_000,
                              alternative="PrivacyProfile.delta / .epsilon at given points")
        return self._exact_kernel().loss_classes(field)

    # -- the tilt and the windows -----------------------------------------------------------

    def _tilt(self, L: float) -> Fraction:
        """``theta >= 0`` with the tilted law's mean loss at ``L`` (floats; bisection), as a short
        dyadic so that nearby ``t`` share one build. Any ``theta`` is valid (module docstring)."""
        def mean(th: float) -> float:
            return math.fsum(n * l * (2 * _sigmoid(l * (1 + 2 * th)) - 1) for l, (_, n) in zip(self._l, self.groups))

        target = min(L, self._lnW * (1 - 1e-9))
        if not math.isfinite(target) or mean(0.0) >= target:
            return Fraction(0)
        a, b = 0.0, 1.0
        while mean(b) < target and b < 1e12:
            a, b = b, 2 * b
        for _ in range(60):
            c = 0.5 * (a + b)
            if mean(c) < target:
                a = c
            else:
                b = c
        th = 0.5 * (a + b)
        e = math.frexp(th)[1] - 10  # about 10 significant bits
        return Fraction(round(th / 2.0**e)) * Fraction(2) ** e

    def _window(self, i: int, theta: Fraction, R: float, prec: int, hp: int) -> _Win:
        v, n = self.groups[i]
        l = self._l[i]
        q = _sigmoid(l * (1 + 2 * float(theta)))
        sd = math.sqrt(max(n * q * (1 - q), 1.0))
        mode = (n + 1) * q
        lo = max(0, int(math.floor(mode - R * sd)) - 2)
        hi = min(n, int(math.ceil(mode + R * sd)) + 2)
        wp = prec + 16 + (hi - lo + 1).bit_length()
        with workprec(hp):
            x = v.arb(hp)
            lx = x.log()
            y = (lx * (1 + 2 * arb(theta.numerator) / theta.denominator)).exp()
            # the tilted law's omitted mass: beyond hi upwards, below lo downwards (the lemma)
            omitted = arb(0)
            if hi < n:
                T = first_log(n, hi + 1, y, hp).exp()
                r = y * (n - hi - 1) / (hi + 2)
                omitted += T / (1 - r) if r < 1 else arb(1)
            if lo > 0:
                T = first_log(n, lo - 1, y, hp).exp()
                r = arb(lo - 1) / ((n - lo + 2) * y)
                omitted += T / (1 - r) if r < 1 else arb(1)
            bx0 = first_log(n, lo, x, hp).exp()
            by0 = first_log(n, lo, 1 / x, hp).exp()
        with workprec(wp):
            bx, by = [bx0], [by0]
            tx, ty = bx0, by0
            for j in range(lo, hi):
                tx = tx * x * (n - j) / (j + 1)
                ty = ty * (n - j) / ((j + 1) * x)
                bx.append(tx)
                by.append(ty)
        return _Win(lo, hi, bx, by, omitted)

    def _build(self, theta: Fraction, prec: int, R: float) -> _Built:
        key = (theta, prec, R)
        hit = self._built.get(key)
        if hit is not None:
            return hit
        g = len(self.groups)
        hp = prec + 48 + max(n for _, n in self.groups).bit_length()
        wins = [self._window(i, theta, R, prec, hp) for i in range(g)]
        box = 1
        for w in wins[:-1]:
            box *= w.hi - w.lo + 1
        last = wins[-1]
        n_in = last.hi - last.lo + 1
        wp = prec + 16 + max(box, 1).bit_length() + n_in.bit_length()
        inner_mode = box > n_in
        with workprec(wp):
            # the other groups' configurations, one group at a time, then sorted by loss
            configs: list = [(arb(1), arb(1), 0.0, ())]
            for i in range(g - 1):
                w, l, n = wins[i], self._l[i], self.groups[i][1]
                configs = [(px * w.bx[j - w.lo], py * w.by[j - w.lo], lam + l * (2 * j - n), js + (j,))
                           for px, py, lam, js in configs for j in range(w.lo, w.hi + 1)]
            configs.sort(key=lambda c: -c[2])
            px = [c[0] for c in configs]
            py = [c[1] for c in configs]
            lam = np.array([c[2] for c in configs], dtype=float)
            js = [c[3] for c in configs]
            del configs
            sx = sy = cx = cy = None
            if inner_mode:
                # prefix sums over the configurations in loss order: cx[i] = sum of px[:i]
                cx, cy = [arb(0)], [arb(0)]
                for a, b in zip(px, py):
                    cx.append(cx[-1] + a)
                    cy.append(cy[-1] + b)
            else:
                sx, sy = [arb(0)], [arb(0)]
                for a, b in zip(reversed(last.bx), reversed(last.by)):
                    sx.append(sx[-1] + a)
                    sy.append(sy[-1] + b)
                sx.reverse()
                sy.reverse()  # sx[i] = sum of B_X(j) for j >= lo + i within the window; sx[-1] = 0
            # M(theta) times the omitted masses (t^(-theta) is applied per evaluation)
            th = arb(theta.numerator) / theta.denominator
            logM = arb(0)
            for (v, n) in self.groups:
                x = v.arb(wp)
                lx = x.log()
                y = (lx * (1 + 2 * th)).exp()
                logM += n * ((1 + y).log() - (1 + x).log() - th * lx)
            M_omitted = logM.exp() * sum((w.omitted for w in wins), arb(0))
        if len(self._built) > 8:
            self._built.clear()
        hit = self._built[key] = _Built(wins=wins, px=px, py=py, lam=lam, neg=-lam, js=js, sx=sx, sy=sy, cx=cx, cy=cy,
                                        M_omitted=M_omitted, theta=theta, inner_mode=inner_mode)
        return hit

    # -- the evaluation ---------------------------------------------------------------------

    def _sign(self, js: tuple, jg: int, t_num: ExpNum) -> Optional[int]:
        """The exact sign of ``lambda(j) - ln t`` for the class ``(js, jg)`` (None: undecidable)."""
        facs = [(w, 2 * j - n) for (w, n), j in zip(self.groups[:-1], js)]
        vg, ng = self.groups[-1]
        return log_sign_of_product(facs + [(vg, 2 * jg - ng), (t_num, -1)])

    def _threshold(self, js: tuple, lam: float, L: float, t_num: ExpNum, margin: float):
        """``(thr, undecided)``: the least positive ``j_g`` for the configuration ``js`` (exact),
        and a class ``j_g`` whose sign cannot be decided (Computable ``t`` only), or None."""
        ng = self.groups[-1][1]
        v = (L - lam) / (2 * self._l[-1]) + ng / 2
        if not math.isfinite(v):
            return (0 if v < 0 else ng + 1), None
        lo_c = math.ceil(v - margin)
        hi_c = math.floor(v + margin)
        if lo_c > hi_c:
            return max(0, min(ng + 1, math.floor(v) + 1)), None
        # candidates within the float margin: decided exactly, in order (the sign increases in j)
        undecided = None
        for c in range(max(0, lo_c), min(ng, hi_c) + 1):
            s = self._sign(js, c, t_num)
            if s == 1:
                return c, undecided
            if s is None:
                undecided = c
        return max(0, min(ng + 1, hi_c + 1)), undecided

    def _sums_by_configuration(self, b: _Built, L: float, t_num: ExpNum, t, field, margin_j: float):
        """``(sum P_X T_X, sum P_Y T_Y, undecided part)``: one threshold per configuration and
        the last window's suffix sums."""
        last = b.wins[-1]
        n_in = last.hi - last.lo + 1
        ng = self.groups[-1][1]
        ax = arb(0)
        ay = arb(0)
        extra = arb(0)
        # the thresholds in floats; those within the margin of an integer are decided exactly
        with np.errstate(invalid="ignore", over="ignore"):
            v = (L - b.lam) / (2 * self._l[-1]) + ng / 2
            near = np.abs(v - np.rint(v)) <= margin_j
            thr_f = np.clip(np.floor(v) + 1, 0, ng + 1)
        thr_all = thr_f.astype(np.int64).tolist() if np.all(np.isfinite(v)) else None
        near_l = near.tolist()
        for c, (px, py, lam, js) in enumerate(zip(b.px, b.py, b.lam.tolist(), b.js)):
            if thr_all is None or near_l[c]:
                thr, und = self._threshold(js, lam, L, t_num, margin_j)
            else:
                thr, und = thr_all[c], None
            i = max(thr - last.lo, 0)  # the positive classes below the window are in the omitted bound
            if i < n_in:
                ax += px * b.sx[i]
                ay += py * b.sy[i]
            if und is not None and last.lo <= und <= last.hi:
                extra += field.pos(px * last.bx[und - last.lo] - t * py * last.by[und - last.lo])
        return ax, ay, extra

    def _sums_by_inner(self, b: _Built, L: float, t_num: ExpNum, t, field, margin_l: float):
        """The same sums in the other order: for each ``j_g`` of the last window, the
        configurations with ``lambda_< > L - l_g (2 j_g - n_g)`` are a prefix of the loss order
        (their prefix sums; those within the float margin decided exactly, one by one)."""
        last = b.wins[-1]
        lg, ng = self._l[-1], self.groups[-1][1]
        jg = np.arange(last.lo, last.hi + 1, dtype=float)
        cut = L - lg * (2 * jg - ng)
        sure = np.searchsorted(b.neg, -(cut + margin_l), side="left")  # lambda > cut + margin
        maybe = np.searchsorted(b.neg, -(cut - margin_l), side="left")  # lambda > cut - margin
        ax = arb(0)
        ay = arb(0)
        extra = arb(0)
        for i, (p0, p1) in enumerate(zip(sure.tolist(), maybe.tolist())):
            if p1 == 0:
                continue
            cx, cy = b.cx[p0], b.cy[p0]
            for c in range(p0, p1):
                s = self._sign(b.js[c], last.lo + i, t_num)
                if s == 1:
                    cx += b.px[c]
                    cy += b.py[c]
                elif s is None:
                    extra += field.pos(b.px[c] * last.bx[i] - t * b.py[c] * last.by[i])
            ax += last.bx[i] * cx
            ay += last.by[i] * cy
        return ax, ay, extra

    def _evaluate_balls(self, field: ArbField, t_num: ExpNum, t):
        prec = field.prec
        L = t_num.flog()
        theta = self._tilt(L)
        R = _reach(prec)
        Z = field.rational(Fraction(1))
        for v, n in self.groups:
            Z = Z * field.power(v, n, one_plus=True)
        # the float losses are sums of at most g products l_i (2 j_i - n_i), each within 2^-52
        # of its size, and ln t within 2^-52 of its: their errors are below (g + 1) 2^-52 of
        # |ln t| + sum l_i n_i, far below 1e-12 of it (1e-9 made 18% of 1.7e5 configurations
        # go through the exact rule: 1.8 s)
        margin_l = 1e-12 * (abs(L) + self._lnW) + 1e-300
        margin_j = margin_l / (2 * self._l[-1])
        for _ in range(4):
            b = self._build(theta, prec, R)
            with workprec(prec + 16 + max(len(b.px), 1).bit_length()):
                if b.inner_mode:
                    ax, ay, extra = self._sums_by_inner(b, L, t_num, t, field, margin_l)
                else:
                    ax, ay, extra = self._sums_by_configuration(b, L, t_num, t, field, margin_j)
                s = ax - t * ay + extra
                E = b.M_omitted * (-(t.log() if t > 0 else arb(0)) * (arb(b.theta.numerator) / b.theta.denominator)).exp()
                bound = E.upper()
                if not (s > 0) or bound <= s.lower() * arb(2) ** (-(prec + 4)):
                    break
            R += 6  # the omitted mass is not negligible: wider windows
        with workprec(prec):
            s = s + arb(bound / 2, bound / 2)
            sig = ay + arb(bound / 2, bound / 2) / t
            return Z * s, Z * sig

    def locate_float(self, log_goal: float) -> Optional[float]:
        """``ln t*`` with ``ln S(t*) = log_goal`` from the float model: Newton on ``ln S`` in
        ``L = ln t`` inside a bracket, bisection where it would leave it. The generic search
        crawled: left of ``t*`` the model is flat (``S = Z (1 - 1e-30)``, its slope underflows)
        and Newton on S in t moved ``L`` by a few units per step (two groups of 2e5 and 4e5:
        60 steps from 6000 to 6470 for ``t*`` at 7140). ``ln S`` decreases in ``L``, so the bracket
        always holds the answer. Guarantee: approximate. Raises: nothing. Returns None when
        ``S(1)`` is already at or below the goal (the generic search decides)."""
        a, b = 0.0, self._lnW
        if not (math.isfinite(b) and b > 0):
            return None
        ga = self.approx(a)[0] - log_goal
        if not ga > 0:
            return None
        L, g, s = a, ga, self.approx(a)[1]
        best = (abs(g), L)
        for _ in range(200):
            c = L - g / s if (s < 0 and math.isfinite(g)) else math.nan
            if not (a < c < b) or (b - a) < 1e-300:
                c = 0.5 * (a + b)
            if abs(c - L) <= 1e-13 * max(abs(c), 1.0) or b - a <= 1e-13 * max(b, 1.0):
                break
            L = c
            g, s = self.approx(L)
            g -= log_goal
            if math.isfinite(g) and abs(g) < best[0]:
                best = (abs(g), L)
            if g > 0:
                a = L
            else:
                b = L
            if best[0] <= 1e-13:
                break
        return best[1]

    def _approx_uncached(self, lnt: float) -> tuple[float, float]:
        """``(ln S, d ln S / d ln t)`` in floating point (for the search only; cached by
        :class:`~.lattice.CachedApprox`): the same sums as an evaluation, over windows of 12
        standard deviations of the tilted law, in log space with numpy (the configurations'
        prefix sums in loss order, one per term of the last window). Guarantee: approximate."""
        th = float(self._tilt(lnt))
        lam = np.zeros(1)
        lpx = np.zeros(1)
        lpy = np.zeros(1)
        wins = []
        for (_, n), l in zip(self.groups, self._l):
            q = _sigmoid(l * (1 + 2 * th))
            sd = math.sqrt(max(n * q * (1 - q), 1.0))
            lo = max(0, int(math.floor((n + 1) * q - 12 * sd)) - 2)
            hi = min(n, int(math.ceil((n + 1) * q + 12 * sd)) + 2)
            j = np.arange(lo, hi + 1, dtype=float)
            lbx = log_terms(n, l, lo, hi - lo + 1)
            lby = lbx + (n - 2 * j) * l  # B_Y(j) = B_X(j) w^(n - 2j)
            wins.append((j, lbx, lby, l, n))
        for j, lbx, lby, l, n in wins[:-1]:
            lam = (lam[:, None] + l * (2 * j - n)[None, :]).ravel()
            lpx = (lpx[:, None] + lbx[None, :]).ravel()
            lpy = (lpy[:, None] + lby[None, :]).ravel()
        order = np.argsort(-lam, kind="stable")
        neg = -lam[order]

        def log_prefix(lv: np.ndarray) -> np.ndarray:
            # logaddexp, not a cumulative sum scaled by the largest entry: the prefixes that matter
            # (large losses) hold P_Y far below the largest (small losses) and would underflow
            return np.concatenate(([-np.inf], np.logaddexp.accumulate(lv)))

        cpx, cpy = log_prefix(lpx[order]), log_prefix(lpy[order])
        j, lbx, lby, l, n = wins[-1]
        pos = np.searchsorted(neg, -(lnt - l * (2 * j - n)), side="left")
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            ax = lbx + cpx[pos]
            ay = lby + cpy[pos]
            la = float(np.logaddexp.reduce(ax))
            ly = float(np.logaddexp.reduce(ay))
        if not math.isfinite(la):
            return -math.inf, 0.0
        r = lnt + ly - la  # ln (t A_Y / A_X) < 0 where S > 0
        if not r < 0:
            return -math.inf, 0.0
        ls = la + math.log(-math.expm1(r))
        lz = math.fsum(n * log1pexp(l) for (_, n), l in zip(self.groups, self._l))
        return ls + lz, -math.exp(min(lnt + ly - ls, 700.0))


# --------------------------------------------------------------------------
# the cost model (rates measured on 2 shared cores; docs/engines.md, benchmarks)


def windowed_groups_cost(groups_l: Sequence[tuple[float, int]], prec: int) -> tuple[Estimate, Estimate]:
    """``(build, one evaluation)`` of the windowed grouped kernel (:mod:`.multiwindow`).

    ``groups_l``: ``(ln w, n)`` per group; :func:`~exactdp.engines.multiwindow.window_plan` gives
    the number of configurations of the other groups (``box``), the last window's length and
    all windows' terms. A build (per tilt and precision; an OptComp makes two or three)
    computes every window's binomial terms and the configurations' products, sorted by loss,
    with their prefix sums; an evaluation takes ``min(box, last window)`` steps. Measured at
    144 bits (2 shared cores): builds of 2.3-4.5 us per term or configuration (2 x 10^8
    mechanisms: 1.2 s; three groups of 1000: 1.3 s for 2.9e5 configurations), evaluations of
    1.2-2.1 us per step, peaks of 280-440 bytes per term or configuration under tracemalloc
    (143 MB and 128 MB; the resident peak of the second, with the configurations' list and
    its sorted copies alive together, 179 MB: 610 bytes per configuration). Estimated: 6 us
    per build item, 3 us per step, 700 bytes per configuration and 450 per window term,
    times ``1 + prec/512``.
    """
    box, inner, wins = window_plan(groups_l, prec)
    f = 1 + prec / 512
    build = Estimate(3 * f * 6e-6 * (box + wins) + 1e-3, f * (700.0 * box + 450.0 * wins) + ALLOC_SLACK)
    return build, Estimate(f * 3e-6 * min(box, inner) + 1e-3, ALLOC_SLACK)


# --------------------------------------------------------------------------
# the plug-in


def windowed_groups_apply(groups: Sequence[tuple[ExpNum, int]]) -> bool:
    """The windowed grouped kernel takes two or more groups, every eps in ``(0, 1e6]``: its
    windows and thresholds are chosen in floats, and its binomial terms come from
    ``n ln(1 + e^eps)`` at ``48 + log2 n`` bits beyond the working precision (a value like
    e^(6.8e143) needs the grouped kernel's precision rule). Guarantee: exact. Raises: nothing."""
    return len(groups) >= 2 and all(0 < v.flog() <= 1e6 for v, _ in groups)


class WindowedGroupsKernel(Kernel):
    """A few groups of arbitrary eps > 0, in balls: windows of each group's counts (the exact
    field goes through the grouped kernel)."""

    name = "windowed-groups"
    exact = False
    alternative = "method='auto', or " + APPROX_ALTERNATIVE

    def applies(self, req: Request) -> Optional[Reason]:
        if not windowed_groups_apply(req.groups):
            big = max((v.flog() for v, _ in req.groups), default=0.0)
            return Reason("'windowed-groups' only for two or more distinct eps values, each in (0, 1e6]",
                          f"{len(req.groups)} distinct eps values" + (f", the largest {big:.3g}" if big > 1e6 else ""))
        return None

    def estimate(self, req: Request, kind: str = "arb", prec: int = 128) -> tuple[Estimate, Estimate]:
        if kind == "exact":  # the exact field goes through the grouped kernel
            return grouped_estimate(req.groups, kind, prec)
        return windowed_groups_cost([(v.flog(), n) for v, n in req.groups], prec)

    def describe(self, req: Request) -> str:
        return f"the windowed grouped kernel of {req.k} mechanisms in {len(req.groups)} groups"

    def build(self, req: Request) -> Structure:
        return WindowedGroups(req.groups)


WINDOWED_GROUPS = WindowedGroupsKernel()
