"""Certified lattice privacy-loss distributions: the two discretisations, composition in
fixed point with directed rounding, and the two queries.

A :class:`LatticePLD` holds non-negative integers ``c_n`` (units of ``2^-F``) of ``P``-mass at
the losses ``(off + n) h - tau`` of a lattice of step ``h`` (shifted by ``tau >= 0``, 0 for an
upper PLD), and a ``P``-mass at ``+inf``. It is one of two kinds (``upper``):

* **upper** (Accounting Lemma 7, connect-the-dots): the masses of each interval between two
  chosen lattice points (every point where the mass is large, every j-th in a block of small
  mass: :func:`points`) are split between its two ends so that the discrete pair dominates
  the true one; masses rounded up;
  mass above the window sent to ``+inf``, mass below it moved up to its first point
  (Accounting Lemma 9). Its ``delta(eps)`` is an upper bound on the true one.
* **lower** (Accounting Lemma 8): the loss line is cut into bins, a post-processing of the
  true pair and hence dominated by it; each bin's own loss ``ln(P(B)/Q(B))`` is put at a
  lattice point certainly at or below it; the bins are chosen (in floats) so that this loss
  sits just above a lattice point, which makes the bound second order in ``h`` (walked upwards,
  or from the top down when the continuous part ends at a finite top: :func:`_chain_down`); masses
  rounded down, mass outside the window dropped. An atom cannot be moved (it is a bin of its
  own), so the lattice comes to the atoms instead: each step's lattice is shifted by a
  rational ``tau`` (Lemma 8's ``tau``, one per step; shifts add under composition) that puts
  its heaviest atoms just above lattice points, and the accountant picks ``h`` just below
  ``D / N`` when the atoms' losses differ by multiples of one irrational ``D``
  (:func:`aligned_step`), so every atom lies within about ``2^-prec`` above its point. Its
  ``delta(eps)`` is a lower bound.

By Accounting Lemma 1, ``delta(eps) = P{L = inf} + sum_n c_n 2^-F (1 - e^{eps - L_n})_+`` is
increasing in every mass and every loss, and a product of pairs composes by adding losses,
so the products of the upper (lower) PLDs, with their rounding and cuts, stay upper (lower).
Products are FLINT ``fmpz_poly`` products of exact integers; only the rounding back to ``F``
bits is directed. Between the products of a power, a partial composition whose spread covers
many points is re-binned on a lattice twice as coarse (:func:`coarsen`, Accounting Lemma 13):
above by splitting each atom between the two coarse points around it with both masses kept,
below by merging atoms into bins lifted exactly to a coarse point; both stay on their side for
whatever is composed with them later, and both errors are second order in the coarse step. Nothing here is a float except the choice of windows, bins and cuts (which
affects the width, never the validity) and the float search that proposes an epsilon
(which is then decided in balls).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Optional

from .._backend import arb, fmpz_poly, workprec
from ..links import implements
from ..numbers import arb_of_fraction
from .laws import LossLaw

__all__ = ["LatticePLD", "discretise", "compose", "power", "coarsen", "coarsen_to", "on_step", "delta_bound", "epsilon_bound", "aligned_step"]


@dataclass(frozen=True)
class LatticePLD:
    """A certified lattice bound on a privacy-loss distribution (see the module docstring).

    Guarantee: ``upper`` -> its :func:`delta_bound` is an upper bound of the true delta(eps);
    lower -> a lower bound.
    """

    poly: fmpz_poly  # coefficient n: units of 2^-F of P-mass at loss (off + n) h - tau
    off: int
    inf: int  # units of P-mass at +inf
    F: int
    h: Fraction
    upper: bool
    tau: Fraction = Fraction(0)  # the lower bound's shift (Accounting Lemma 8); 0 for an upper PLD

    @property
    def one(self) -> int:
        return 1 << self.F

    def mass(self) -> int:
        """Total finite mass in units."""
        return int(self.poly(1)) if self.poly.length() else 0


# -- exact conversions of balls to fixed-point units --------------------------------------------

def _man_exp(x: arb) -> tuple[int, int]:
    m, e = x.man_exp()
    return int(m), int(e)


def _units_up(x: arb, F: int) -> int:
    """``ceil(upper(x) 2^F)``, at least 0."""
    if not x.is_finite():
        raise ValueError("infinite ball")
    u = x.upper()
    m, e = _man_exp(u)
    if m <= 0:
        return 0
    e += F
    return m << e if e >= 0 else -((-m) >> -e)


def _units_down(x: arb, F: int) -> int:
    """``floor(lower(x) 2^F)``, at least 0."""
    if not x.is_finite():
        return 0
    lo = x.lower()
    m, e = _man_exp(lo)
    if m <= 0:
        return 0
    e += F
    return m << e if e >= 0 else m >> -e


def _floor_div_h(x: arb, h: Fraction, up: bool) -> int:
    """``floor(lower(x) / h)`` (``up=False``) or ``ceil(upper(x) / h)`` (``up=True``), exactly."""
    v = x.upper() if up else x.lower()
    m, e = _man_exp(v)
    val = Fraction(m) * (Fraction(2) ** e) / h
    return math.ceil(val) if up else math.floor(val)


def _l(i: int, h: Fraction) -> Fraction:
    return i * h


def _diff(lt_hi, lt_lo, gt_lo, gt_hi) -> arb:
    """Mass of ``(a, b)`` from ``X{L < b} - X{L < a}`` or ``X{L > a} - X{L > b}``, whichever side is small."""
    if lt_hi.mid() < 0.5:
        return lt_hi - lt_lo
    return gt_lo - gt_hi


# -- windows -----------------------------------------------------------------------------------

def tail_point(law: LossLaw, mass: float, right: bool) -> float:
    """A loss beyond which the continuous part holds about ``mass`` of ``P`` (float choice)."""
    lo, hi = law.support
    a, b = (lo if math.isfinite(lo) else -50.0), (hi if math.isfinite(hi) else 50.0)
    with workprec(64):
        def tail(x: float) -> float:
            p_lt, p_gt, _, _ = law.cdf(Fraction(x))
            v = p_gt if right else p_lt
            return float(v.mid())
        # widen an infinite side until the tail is small enough
        if right and not math.isfinite(hi):
            while tail(b) > mass and b < 1e6:
                b *= 2
        if not right and not math.isfinite(lo):
            while tail(a) > mass and a > -1e6:
                a *= 2
        if (right and tail(b) > mass) or (not right and tail(a) > mass):
            return b if right else a
        for _ in range(80):
            m = (a + b) / 2
            t = tail(m)
            if (t > mass) == right:
                a = m
            else:
                b = m
        return b if right else a


def window(law: LossLaw, h: Fraction, tail_mass: float) -> tuple[int, int]:
    """Lattice indices ``(ia, ib)`` covering the law's atoms and all but about ``tail_mass`` of its
    continuous part on each side."""
    lo, hi = law.support
    xs = []
    if lo != hi:
        xs += [tail_point(law, tail_mass, False), tail_point(law, tail_mass, True)]
    with workprec(64):
        for l, _, _ in law.atoms():
            xs.append(float(l) if isinstance(l, Fraction) else float(l.mid()))
    if not xs:
        xs = [0.0]
    hf = float(h)
    return math.floor(min(xs) / hf) - 1, math.ceil(max(xs) / hf) + 1


#: Bits of an aligned lattice step (:func:`aligned_step`): far finer than the balls' precision, so
#: that the atoms' residues stay below the lower bound's margin (:func:`_shift`).
ALIGN_BITS = 256


def aligned_step(law: LossLaw, h_t: float) -> Optional[Fraction]:
    """A lattice step ``h <= h_t`` that puts the law's heaviest finite atoms a whole number of steps
    apart, up to ``2^-ALIGN_BITS`` relative: ``h`` is ``D / N`` rounded down to a multiple of
    ``2^-ALIGN_BITS`` (``N`` the least with ``D / N <= h_t``), ``D`` the gap between the two
    heaviest atoms divided by the least ``d <= 12`` that makes every other atom's offset, and loss
    0's, a multiple of it (float test; else without loss 0; else the two heaviest only). ``None`` when the law has fewer than two
    distinct finite atoms. A float choice for the width: both bounds hold on any lattice.

    Guarantee: exact (a rational step); approximate in what it aligns. Raises: nothing.
    """
    with workprec(ALIGN_BITS + 64):
        rows: dict = {}
        for l, p, _q in law.atoms():
            lb = _as_ball(l)
            key = round(float(lb.mid()), 9)
            m = float(p.mid())
            if key not in rows or m > rows[key][1]:
                rows[key] = (lb, m + (rows[key][1] if key in rows else 0.0))
        if len(rows) < 2:
            return None
        (la, _), (lb2, _) = sorted(rows.values(), key=lambda r: -r[1])[:2]
        gap = abs(la - lb2)
        gf = float(gap.mid())
        if not gf > 0:
            return None
        offs = [(float(l.mid()) - float(la.mid())) / gf for l, _ in rows.values()]

        def whole(xs: list) -> Optional[int]:
            return next((d for d in range(1, 13) if all(abs(d * x - round(d * x)) < 1e-9 for x in xs)), None)

        # loss 0 too when it can be (+-L: step L / N): then the atoms sit on the unshifted lattice
        # and the upper bound's split of them is near exact as well
        mult = whole(offs + [-float(la.mid()) / gf]) or whole(offs) or 1
        D = gap / mult
        n = max(1, math.ceil(float(D.mid()) / h_t))
        m, e = _man_exp((D / n).lower())
        top = Fraction(m) * Fraction(2) ** e
        return Fraction(math.floor(top * 2**ALIGN_BITS), 2**ALIGN_BITS)


# -- the two discretisations -------------------------------------------------------------------

def _as_ball(x) -> arb:
    return arb_of_fraction(x) if isinstance(x, Fraction) else x


def _ball_i(i: int, h: Fraction) -> arb:
    return arb_of_fraction(i * h)


#: Lattice points per block of the adaptive point set (:func:`points`), and its largest stride.
BLOCK = 64

#: Share of the uniform lattice's discretisation error that the coarse blocks may add (a float
#: choice: it trades width for time, never validity).
COARSE_SHARE = 0.05


def points(law: LossLaw, h: Fraction, ia: int, ib: int) -> list[int]:
    """The lattice indices ``ia..ib`` at which the continuous part is split (a float choice):
    every point where the mass is large, every ``j``-th (``j`` a power of two up to
    :data:`BLOCK`) in a block of :data:`BLOCK` points whose mass ``M`` is small.

    Both bounds stay valid on any subset of lattice points: connect-the-dots holds on coarse
    bins ``[ih, jh]`` (Accounting Lemma 7) and the lower bound's bins are any partition
    (Accounting Lemma 8). Only the width depends on the choice: a bin of ``j`` steps holding
    mass ``M`` adds about ``M (jh)^2`` to the discretisation error, against ``M h^2`` on the
    uniform lattice, so a block takes the largest stride with ``M j^2 <= COARSE_SHARE x`` its
    share of the total mass; masses from the float cdf at the block ends (``P + Q``)."""
    n = ib - ia
    if n <= 2 * BLOCK:
        return list(range(ia, ib + 1))
    ends = list(range(ia, ib, BLOCK)) + [ib]
    hf = float(h)
    rows = [law.cdf_float(i * hf) for i in ends]
    ms = []
    for a, b in zip(rows, rows[1:]):
        P, Q, _ = _fdiff(a, b)
        ms.append(max(P, 0.0) + max(Q, 0.0))
    total = sum(ms)
    out: list[int] = []
    allow = COARSE_SHARE * total / len(ms) if total > 0 else math.inf
    for (s, e), m in zip(zip(ends, ends[1:]), ms):
        j = 1
        while j < BLOCK and m * (2 * j) ** 2 <= allow:
            j *= 2
        out.extend(range(s, e, j))
    out.append(ib)
    return out


@implements("Accounting Lemma 7", "Accounting Lemma 8", "Accounting Lemma 9")
def discretise(law: LossLaw, h: Fraction, F: int, ia: int, ib: int, prec: int) -> tuple[LatticePLD, LatticePLD]:
    """Both certified lattice bounds of one step's ``law`` on the lattice points ``ia..ib`` (its
    :func:`window`): ``(upper, lower)``.

    * upper (Accounting Lemma 7): one pass over the intervals ``[ih, jh]`` between consecutive
      points of :func:`points` gives each interval's masses ``(P(B), Q(B))`` in balls;
      ``p_hi = (P(B) - e^{ih} Q(B)) / (1 - e^{(i-j)h})`` goes to ``jh``, the rest to ``ih``, rounded up; continuous mass above the window to
      ``+inf``, below it moved to the first point; atoms split the same way (Lemma 9);
    * lower (Accounting Lemma 8): the bins of :func:`_chain`, each put at the lattice point its
      own loss certainly reaches (:func:`_lower_units`); masses rounded down, what lies outside
      the window dropped.

    Guarantee: the first is an upper PLD, the second a lower PLD (module docstring).
    """
    n = ib - ia + 1
    up = [0] * n
    inf_up = 0
    with workprec(prec):
        hb = _ball_i(1, h)
        denom = -((-hb).expm1())  # 1 - e^-h
        lo, hi = law.support
        cd = None
        if lo != hi:
            pts = points(law, h, ia, ib)
            cd = {i: law.cdf(_l(i, h)) for i in pts}
            up[0] += _units_up(cd[ia][0], F)  # below the window: moved up to its first point
            inf_up += _units_up(cd[ib][1], F)  # above: to +inf
            denoms = {1: denom}
            for i0, i1 in zip(pts, pts[1:]):
                a, b = cd[i0], cd[i1]
                if b[0].upper() <= 0 or a[1].upper() <= 0:  # no continuous mass in this interval
                    continue
                Pb = _diff(b[0], a[0], a[1], b[1])
                Qb = _diff(b[2], a[2], a[3], b[3])
                w = i1 - i0
                if w not in denoms:  # 1 - e^{-wh}: a coarse bin (Lemma 7 with b = a + wh)
                    denoms[w] = -((-_ball_i(w, h)).expm1())
                li = _ball_i(i0, h)
                p_hi = (Pb - li.exp() * Qb) / denoms[w]
                pu = Pb.upper()
                hi_u = min(p_hi.upper(), pu) if p_hi.is_finite() else pu
                lo_u = min((Pb - p_hi).upper(), pu) if p_hi.is_finite() else pu
                up[i1 - ia] += _units_up(arb(hi_u), F)
                up[i0 - ia] += _units_up(arb(lo_u), F)
        atoms = law.atoms()
        for l, p, _q in atoms:
            # an irrational loss rounded up to its ball's upper end (Lemma 1: a larger loss only
            # raises delta), so that its place on the lattice is decided exactly
            lq = l if isinstance(l, Fraction) else _upper_fraction(_as_ball(l))
            if lq > ib * h:
                inf_up += _units_up(p, F)
                continue
            if lq <= ia * h:  # at or below the window: moved up to its first point
                up[0] += _units_up(p, F)
                continue
            i = math.floor(lq / h)
            if lq == i * h:  # exactly on the lattice
                up[i - ia] += _units_up(p, F)
                continue
            li = _ball_i(i, h)
            p_hi = p * (-(li - arb_of_fraction(lq)).expm1()) / denom  # p (1 - e^{ih - l}) / (1 - e^-h)
            pu = p.upper()
            up[i + 1 - ia] += _units_up(arb(min(p_hi.upper(), pu)), F)
            up[i - ia] += _units_up(arb(min((p - p_hi).upper(), pu)), F)
        inf_up += _units_up(law.p_inf(), F)
        tau = _shift(atoms, h, prec)
        low = _lower_units(law, h, F, ia, ib, cd, tau)
        inf_low = _units_down(law.p_inf(), F)
    return (LatticePLD(fmpz_poly(up), ia, inf_up, F, h, True),
            LatticePLD(fmpz_poly(low), ia, inf_low, F, h, False, tau))


def _upper_fraction(x: arb) -> Fraction:
    """The upper end of a finite ball, exactly."""
    m, e = _man_exp(x.upper())
    return Fraction(m) * Fraction(2) ** e


def _deficit(l, tau: Fraction, h: Fraction) -> float:
    """How far (about, upwards) an atom at ``l`` (a ball, or a Fraction) lies above the lattice point
    the lower bound puts it at: ``l + tau - i h`` with :func:`_lower_units`' ``i``."""
    if isinstance(l, Fraction):
        x = l + tau
        return float(x - math.floor(x / h) * h)
    xb = l + arb_of_fraction(tau)
    return float((xb - _ball_i(_floor_div_h(xb, h, up=False), h)).upper())


def _shift(atoms: list, h: Fraction, prec: int) -> Fraction:
    """The lower bound's shift ``tau >= 0`` of one step (Accounting Lemma 8 with one ``tau`` for all
    the step's bins, a float choice that only affects the width): the candidate (0, or the least
    rational that puts one atom a margin of about ``2^-(prec - 24)`` above a lattice point) with
    the least ``P``-mass-weighted deficit :func:`_deficit` of the atoms (the loss each gives up).
    Atoms on the lattice (rational, a grain) keep 0; a single irrational atom, or atoms ``N h``
    apart (:func:`aligned_step`), lose about the margin instead of up to ``h``."""
    if not atoms:
        return Fraction(0)
    big = max(1, max(math.ceil(abs(float(_as_ball(l).mid()))) for l, _, _ in atoms))
    margin = Fraction(big, 2 ** max(8, prec - 24))
    cands = [Fraction(0)]
    for l, _, _ in atoms:
        if isinstance(l, Fraction):
            cands.append(math.ceil(l / h) * h - l)
            continue
        i = _floor_div_h(l, h, up=True)  # i h >= l certainly: tau = i h - l (rounded up) + margin >= 0
        cands.append(_upper_fraction(_ball_i(i, h) - l) + margin)

    def cost(tau: Fraction) -> float:
        return sum(float(p.upper()) * _deficit(l, tau, h) for l, p, _ in atoms)

    return min(cands, key=cost)  # the first of equal costs: 0 when it is as good


#: Fine points per interval of :func:`points` on which the lower bound's bins are proposed.
FINE = 4


def _fdiff(c0: tuple, c1: tuple) -> tuple[float, float, float]:
    """Float ``(P, Q, noise)`` of the loss interval between two float cdf rows, each mass from its
    small side; ``noise`` bounds the float rounding of ``ln(P/Q)`` (relative errors of a few
    ulps of the cdf values subtracted)."""
    if c1[0] < 0.5:
        P, sp = c1[0] - c0[0], c1[0]
    else:
        P, sp = c0[1] - c1[1], c0[1]
    if c1[2] < 0.5:
        Q, sq = c1[2] - c0[2], c1[2]
    else:
        Q, sq = c0[3] - c1[3], c0[3]
    noise = 1e-15 * (sp / P + sq / Q) if P > 0 and Q > 0 else math.inf
    return P, Q, noise


def _fine_grid(law: LossLaw, h: Fraction, pts: list[int]) -> tuple[list, list, list]:
    """The grid the lower bound's bins are proposed on: :data:`FINE` points per interval of ``pts``
    (exact losses, their floats, the float cdf rows there)."""
    xq: list[Fraction] = []
    for i0, i1 in zip(pts, pts[1:]):
        xq.extend(Fraction(i0 * FINE + (i1 - i0) * u, FINE) * h for u in range(FINE))
    xq.append(pts[-1] * h)
    xs = [float(x) for x in xq]
    return xq, xs, [law.cdf_float(x) for x in xs]


def _chain(law: LossLaw, h: Fraction, pts: list[int], tau: Fraction = Fraction(0)) -> list[tuple[Fraction, Fraction, int]]:
    """Propose the lower bound's bins (float choice): consecutive loss intervals whose merged loss
    ``ln(P(B)/Q(B))`` just reaches a point ``i h - tau`` of ``pts`` (lattice indices, :func:`points`;
    ``tau`` the step's shift), as
    ``(from, to, lattice index)``; the ends are located on a fine grid (:data:`FINE` points per
    interval of ``pts``), then by secant steps inside the fine interval where the bin's loss
    crosses its target, and rounded to :data:`_END_BITS` bits."""
    hf = float(h)
    xq, xs, cf = _fine_grid(law, h, pts)
    nf = len(xq) - 1
    out = []
    start: Fraction = xq[0]
    c0 = cf[0]
    k = 0  # pts[k]: the target, the least point of pts whose loss pts[k] h - tau is at or above start
    while k < len(pts) - 1 and pts[k] * h - tau < start:
        k += 1
    target = pts[k]
    eta = 1e-12 + 1e-9 * hf
    tf = float(tau)
    t = 0
    while t < nf:
        P, Q, noise = _fdiff(c0, cf[t + 1])
        goal = target * hf - tf + eta
        if not _reaches(P, Q, noise, goal):
            t += 1
            continue
        lo = max(float(start), xs[t])
        endf = _secant(law, c0, lo, xs[t + 1], goal)
        end = Fraction(math.ceil(endf * 2**_END_BITS), 2**_END_BITS)
        on_grid = end <= start or end >= xq[t + 1]
        if on_grid:
            end = xq[t + 1]
        out.append((start, end, target))
        start = end
        c0 = cf[t + 1] if on_grid else law.cdf_float(float(start))
        while k < len(pts) - 1 and pts[k] * h - tau < start:
            k += 1
        target = pts[k]
        if on_grid:
            t += 1
    if start < xq[-1]:
        out.append((start, xq[-1], target))
    return out


def _chain_down(law: LossLaw, h: Fraction, pts: list[int], tau: Fraction = Fraction(0)) -> list[tuple[Fraction, Fraction, int]]:
    """:func:`_chain` walked from the top down, for a continuous part that ends at a finite top
    (the add direction of a subsampled Gaussian, whose loss tends to ``-ln(1 - q)``): each bin
    ``[from, to)`` grows downwards while its merged loss stays above the greatest point of ``pts``
    at or below its top, and stops just above it. Walked upwards, the last bins under such a top
    find no mass above to merge with and fall a whole step (a first-order loss); walked down, what
    is left over lies at the bottom of the window, where the mass is negligible. Same output form
    as :func:`_chain` (a float choice: Lemma 8 holds for any partition)."""
    hf = float(h)
    xq, xs, cf = _fine_grid(law, h, pts)
    out = []
    t = len(xq) - 1
    top: Fraction = xq[t]
    c1 = cf[t]
    k = len(pts) - 1  # pts[k]: the target, the greatest point of pts whose loss pts[k] h - tau is at or below top
    eta = 1e-12 + 1e-9 * hf
    tf = float(tau)

    def aim() -> None:
        nonlocal k
        while k > 0 and pts[k] * h - tau > top:
            k -= 1

    aim()
    while t > 0:
        P, Q, noise = _fdiff(cf[t - 1], c1)
        if not (P > 0 and Q > 0):  # no mass under the top yet: the top comes down
            t -= 1
            top, c1 = xq[t], cf[t]
            aim()
            continue
        goal = pts[k] * hf - tf + eta
        if _reaches(P, Q, noise, goal):
            t -= 1
            continue
        hi = min(xs[t], float(top))

        def f(x: float, c1=c1, goal=goal) -> float:
            Pf, Qf, nz = _fdiff(law.cdf_float(x), c1)
            return math.log(Pf / Qf) - goal - nz if Pf > 0 and Qf > 0 else -1.0

        e = Fraction(math.ceil(_regula_falsi(f, xs[t - 1], hi) * 2**_END_BITS), 2**_END_BITS)
        if e >= top:  # not even the least bin under the top reaches its point: aim one lower
            if k == 0:
                break
            k -= 1
            continue
        if e <= xq[t - 1]:
            e = xq[t - 1]
        out.append((e, top, pts[k]))
        top = e
        c1 = cf[t - 1] if e == xq[t - 1] else law.cdf_float(float(e))
        if e == xq[t - 1]:
            t -= 1
        aim()
    if top > xq[0]:
        out.append((xq[0], top, pts[k]))
    out.reverse()
    return out


def _reaches(P: float, Q: float, noise: float, goal: float) -> bool:
    return P > 0 and Q > 0 and math.log(P / Q) >= goal + noise


def _secant(law: LossLaw, c0: tuple, lo: float, hi: float, goal: float) -> float:
    """An ``e`` in ``(lo, hi]``, near the least, where the float loss of the bin ``(start, e)``
    (``c0`` the cdf row at ``start``) reaches ``goal`` (``hi`` does): :func:`_regula_falsi`."""

    def f(x: float) -> float:
        P, Q, noise = _fdiff(c0, law.cdf_float(x))
        return math.log(P / Q) - goal - noise if P > 0 and Q > 0 else -1.0

    return _regula_falsi(f, lo, hi)


def _regula_falsi(f, lo: float, hi: float) -> float:
    """An ``x`` in ``(lo, hi]``, near the least, with ``f(x) >= 0`` for an increasing ``f`` (``hi``
    should have it): regula falsi (Illinois), 12 steps."""
    a, b = lo, hi
    fa, fb = f(a), f(b)
    if fa >= 0:
        return a if a > lo else b
    side = 0
    for _ in range(12):
        if fb - fa <= 0:
            break
        m = b - fb * (b - a) / (fb - fa)
        if not (a < m < b):
            m = (a + b) / 2
        fm = f(m)
        if fm >= 0:
            b, fb = m, fm
            if side == -1:
                fa /= 2
            side = -1
        else:
            a, fa = m, fm
            if side == 1:
                fb /= 2
            side = 1
        if b - a <= 1e-15 * max(1.0, abs(b)) or fb < 1e-13:
            break
    return b


#: Bits of the ends of the lower bound's bins (dyadic rationals).
_END_BITS = 48


def _lower_units(law: LossLaw, h: Fraction, F: int, ia: int, ib: int, cd, tau: Fraction = Fraction(0)) -> list[int]:
    """The lower bound's masses (Accounting Lemma 8) on the lattice shifted by ``tau`` (index ``i``
    stands for the loss ``i h - tau``): each proposed bin is a class of a post-processing; its loss
    ``ln(P(B)/Q(B))``, decided in balls, puts it at its lattice point when certainly at or above
    it, else at the greatest lattice point at or below the bin's start (the bin's losses are all
    at least that); atoms at the lattice point certainly at or below them; masses rounded down."""
    n = ib - ia + 1
    low = [0] * n
    tau_b = arb_of_fraction(tau)
    if cd is not None:
        pts = sorted(cd)
        cache = {i * h: cd[i] for i in pts}

        def at(x: Fraction):
            if x not in cache:
                cache[x] = law.cdf(x)
            return cache[x]

        lo_s, hi_s = law.support
        down = math.isfinite(hi_s) and not math.isfinite(lo_s)  # a finite top: walked down (:func:`_chain_down`)
        for x0, x1, target in (_chain_down if down else _chain)(law, h, pts, tau):
            a, b = at(x0), at(x1)
            if b[0].upper() <= 0 or a[1].upper() <= 0:
                continue
            Pb = _diff(b[0], a[0], a[1], b[1])
            Qb = _diff(b[2], a[2], a[3], b[3])
            if not (Pb > 0 and Qb > 0):
                continue
            # else the greatest lattice point at or below the bin's start (its loss is at least that)
            i = target if (Pb / Qb).log() >= _ball_i(target, h) - tau_b else math.floor((x0 + tau) / h)
            if ia <= i <= ib:
                low[i - ia] += _units_down(Pb, F)
    for l, p, _q in law.atoms():
        i = math.floor((l + tau) / h) if isinstance(l, Fraction) else _floor_div_h(l + tau_b, h, up=False)
        if i > ib:
            i = ib
        if i >= ia:
            low[i - ia] += _units_down(p, F)
    return low


# -- composition -------------------------------------------------------------------------------

def _cut(d: LatticePLD, budget: int) -> LatticePLD:
    """Cut both tails of ``d`` where each holds at most ``budget`` units (exactly counted):
    upper -> the top to +inf, the bottom moved up; lower -> both dropped (Accounting Lemma 9)."""
    p = d.poly
    L = p.length()
    if L < 64 or budget <= 0:
        return d
    cs = p.coeffs()
    # float scan from both ends (a proposal; the cut mass is then counted exactly)
    acc = 0.0
    lo = 0
    fb = float(budget) * 0.5
    while lo < L - 1:
        acc += float(cs[lo])
        if acc > fb:
            break
        lo += 1
    acc = 0.0
    hi = L - 1
    while hi > lo:
        acc += float(cs[hi])
        if acc > fb:
            break
        hi -= 1
    if lo == 0 and hi == L - 1:
        return d
    low_mass = int(p.truncate(lo)(1)) if lo > 0 else 0
    top_mass = int(p.right_shift(hi + 1)(1)) if hi < L - 1 else 0
    if low_mass > budget or top_mass > budget:
        return d
    q = p.right_shift(lo).truncate(hi - lo + 1) if lo > 0 else p.truncate(hi + 1)
    if d.upper:
        q = q + low_mass
        return replace(d, poly=q, off=d.off + lo, inf=d.inf + top_mass)
    return replace(d, poly=q, off=d.off + lo)


def compose(a: LatticePLD, b: LatticePLD, budget: int) -> LatticePLD:
    """The composition of two bounds of the same kind (product, directed rounding, cut).
    Guarantee: upper / lower as the inputs."""
    assert a.upper == b.upper and a.F == b.F and a.h == b.h
    one = a.one
    prod = a.poly * b.poly
    fa, fb = a.mass(), b.mass()
    cross = fa * b.inf + a.inf * fb + a.inf * b.inf
    if a.upper:
        poly = -((-prod) // one)
        inf = -((-cross) // one)
    else:
        poly = prod // one
        inf = cross // one
    out = LatticePLD(poly, a.off + b.off, inf, a.F, a.h, a.upper, a.tau + b.tau)
    return _cut(out, budget)


def power(d: LatticePLD, k: int, budget: int, progress=None, resolution: Optional[tuple[float, float]] = None) -> LatticePLD:
    """``d`` composed with itself ``k`` times (binary powering from the top bit: each step
    squares and, on a 1 bit, composes with ``d`` itself, a short product). A product of ``j``
    steps cuts at most ``budget j / k`` units a side (:func:`_cut`): what a partial result loses
    is lost again by every later product, so the cuts add up to about ``budget log2(k)``, not
    ``budget k / 2``.

    ``resolution = (sd, r)``: with ``sd`` one step's standard deviation of the loss (a float
    estimate), the partial result of ``j`` steps is re-binned on a lattice twice as coarse
    (:func:`coarsen`, Accounting Lemma 13) before a square whenever its standard deviation
    ``sd sqrt(j)`` would still span at least ``r`` points of the coarser lattice, and ``d`` with it
    (each coarser copy of ``d`` made once); the result's step is then ``d.h`` times a power of two.
    A float choice: only the width depends on it.
    Guarantee: as ``d``.
    """
    bases = [d]  # d on the steps h, 2h, 4h, ...

    def base_at(h: Fraction) -> LatticePLD:
        while bases[-1].h < h:
            bases.append(coarsen(bases[-1], 2))
        return bases[-1]

    result = d
    j = 1
    for bit in bin(k)[3:]:
        if resolution:
            result = coarsen_to(result, resolution[0] * math.sqrt(j), resolution[1])
        # mass cut from a partial result of j steps weighs k / j times in the end (the later
        # products repeat it): its cut budget is budget j / k
        j *= 2
        result = compose(result, result, max(1, budget * j // k))
        if bit == "1":
            j += 1
            result = compose(result, base_at(result.h), max(1, budget * j // k))
        if progress:
            progress()
    return result


def coarsen_to(d: LatticePLD, sd: float, r: float) -> LatticePLD:
    """``d`` (whose loss has standard deviation about ``sd``) re-binned on lattices twice as coarse
    (:func:`coarsen`) while ``sd`` spans at least ``r`` points of the next one. Guarantee: as ``d``."""
    while sd >= r * 2 * float(d.h):
        d = coarsen(d, 2)
    return d


def on_step(d: LatticePLD, h: Fraction) -> LatticePLD:
    """``d`` on the finer lattice of step ``h`` (``d.h`` a whole multiple of it): the same atoms,
    exactly. Guarantee: exact (the same distribution). Raises: ValueError (not a divisor)."""
    m = d.h / h
    if m.denominator != 1 or m < 1:
        raise ValueError("the lattice's step is not a whole multiple of the step")
    if m == 1:
        return d
    m = int(m)
    return replace(d, poly=d.poly.inflate(m), off=d.off * m, h=h)


# -- coarsening between powers -----------------------------------------------------------------

#: Extra bits of the coarsening's fixed-point weights beyond the masses' ``F`` (the weights are
#: rounded up; this only sets how much mass the rounding adds).
_WEIGHT_BITS = 64


def _residue_polys(d: LatticePLD, m: int) -> tuple[list, int]:
    """The coefficients of ``d`` by residue of their lattice index ``off + n`` modulo ``m``: lists
    ``A_r`` (``A_r[j]``: the mass at index ``m (j0 + j) + r``) and ``j0``."""
    cs = d.poly.coeffs()
    pad = d.off % m
    cs = [0] * pad + cs
    cs += [0] * (-len(cs) % m)
    return [cs[r::m] for r in range(m)], (d.off - pad) // m


def _exp_units(x: Fraction, G: int, prec: int) -> int:
    """``ceil(e^x 2^G)``, exactly (from a ball)."""
    with workprec(prec):
        return _units_up(arb_of_fraction(x).exp(), G)


@implements("Accounting Lemma 13")
def coarsen(d: LatticePLD, m: int = 2) -> LatticePLD:
    """``d`` re-binned on the coarser lattice of step ``m h`` (the points of ``d``'s lattice whose
    index is a multiple of ``m``; the lower bound's shift ``tau`` kept), on the same side.

    * upper (Accounting Lemma 13 (a), the connect-the-dots split of a discrete atom): the mass
      ``p`` at ``a + r h`` (``a`` a coarse point, ``0 < r < m``) goes to ``a`` and ``b = a + m h`` with
      ``p_b = p (1 - e^{-r h}) / (1 - e^{-m h})`` and ``p_a = p - p_b`` (so both ``P``- and ``Q``-mass
      are kept), weights rounded up to ``2^-(F + 64)`` and the sums up to ``2^-F``; the ``+inf`` mass
      is kept;
    * lower (Accounting Lemma 13 (b), merging): a sweep upwards gathers the atoms below a coarse
      point ``c`` into a pool and then takes, from the atoms above ``c``, just the units (an atom
      may be split: a randomised post-processing) that lift the pool's merged loss
      ``-ln(sum p_i e^{-l_i} / sum p_i)`` to ``c`` or above, decided exactly in integers (each
      ``e^{-(l_i - c)}`` rounded up); the pool goes to ``c``; a pool that cannot be lifted (the top
      of the distribution, or a gap of more than ``4 m`` steps) goes to the coarse point at or
      below its least atom. Each merged loss lies within about ``2 m h`` of its atoms, so the
      loss is second order in ``m h`` as the split's is.

    Guarantee: upper -> an upper PLD (its delta, and that of any composition with it, is at
    least ``d``'s); lower -> a lower PLD. Exact integers throughout. Raises: ValueError (``m < 2``).
    """
    if m < 2:
        raise ValueError("m must be at least 2")
    if d.poly.length() == 0:
        return replace(d, h=d.h * m, off=d.off // m)
    return _coarsen_upper(d, m) if d.upper else _coarsen_lower(d, m)


def _coarsen_upper(d: LatticePLD, m: int) -> LatticePLD:
    G = d.F + _WEIGHT_BITS
    prec = G + 64
    res, j0 = _residue_polys(d, m)
    acc = fmpz_poly(res[0]) * (1 << G)
    with workprec(prec):
        den = -((-_ball_i(m, d.h)).expm1())  # 1 - e^{-mh}
        for r in range(1, m):
            w = -((-_ball_i(r, d.h)).expm1()) / den  # share of the upper point b
            wb = _units_up(w, G)
            wa = _units_up(1 - w, G)
            A = fmpz_poly(res[r])
            acc += A * wa + A.left_shift(1) * wb
    poly = -((-acc) // (1 << G))
    return LatticePLD(poly, j0, d.inf, d.F, d.h * m, True, d.tau)


def _coarsen_lower(d: LatticePLD, m: int) -> LatticePLD:
    G = _WEIGHT_BITS + max(0, math.ceil(math.log2(float(m / d.h))))
    one = 1 << G
    K = 4 * m
    prec = G + 64
    # slack[t] >= (e^{-t h} - 1) 2^G for the atom t steps above the target (t < 0: below)
    slack = {t: _exp_units(-t * d.h, G, prec) - one for t in range(-(m - 1), K + 1)}
    if any(slack[t] >= 0 for t in range(1, K + 1)):
        raise ValueError("lattice step too fine for the coarsening's weights")
    cs = d.poly.coeffs()
    out: dict = {}
    i0 = d.off
    pool = bal = c = lo = 0

    def emit(j: int, units: int) -> None:
        out[j] = out.get(j, 0) + units

    for n, p in enumerate(cs):
        if not p:
            continue
        p = int(p)
        i = i0 + n
        while p:
            if pool == 0:
                c = -((-i) // m) * m  # the least coarse point at or above the atom
                lo = i
            t = i - c
            if t <= 0:
                pool += p
                bal += p * slack[t]
                p = 0
            elif t > K:  # a gap: the pool cannot reach c; it goes to the coarse point below its least atom
                emit(lo // m, pool)
                pool = bal = 0
            else:
                x = 0 if bal <= 0 else -(bal // slack[t])  # ceil(bal / (-slack[t])): the units that lift the pool to c
                if x <= p:
                    emit(c // m, pool + x)
                    pool = bal = 0
                    p -= x
                else:
                    pool += p
                    bal += p * slack[t]
                    p = 0
    if pool:
        emit(c // m if bal <= 0 else lo // m, pool)
    if not out:
        return replace(d, poly=fmpz_poly([]), h=d.h * m, off=d.off // m)
    j0 = min(out)
    coeffs = [0] * (max(out) - j0 + 1)
    for j, u in out.items():
        coeffs[j - j0] = u
    return LatticePLD(fmpz_poly(coeffs), j0, d.inf, d.F, d.h * m, False, d.tau)


# -- queries -----------------------------------------------------------------------------------

@implements("Accounting Lemma 1")
def delta_bound(d: LatticePLD, eps: Fraction, prec: int) -> arb:
    """A ball containing ``delta(eps)`` of the lattice PLD ``d`` (losses ``(off + n) h - tau``):
    its upper end bounds the true delta from above when ``d.upper``, its lower end from below
    otherwise."""
    e = Fraction(eps) + d.tau  # delta(eps) of losses shifted down by tau: the lattice's at eps + tau
    h = d.h
    n0 = max(0, math.floor(e / h) - d.off + 1)  # first n with (off + n) h > e
    with workprec(prec):
        one = arb(2) ** d.F
        if n0 >= d.poly.length():
            return arb(d.inf) / one
        T = d.poly.right_shift(n0) if n0 > 0 else d.poly
        S0 = int(T(1))
        r = (-arb_of_fraction(h)).exp()
        S1 = T(r)
        gap = e - (d.off + n0) * h  # < 0
        val = (d.inf + S0 - arb_of_fraction(gap).exp() * S1) / one
        return val


def _float_view(d: LatticePLD):
    """(losses, masses, inf mass) as floats, for the search."""
    cs = d.poly.coeffs()
    scale = 2.0 ** -d.F
    hf, tf = float(d.h), float(d.tau)
    Ls = [(d.off + n) * hf - tf for n in range(len(cs))]
    ms = [float(c) * scale for c in cs]
    return Ls, ms, d.inf * scale


def epsilon_float(d: LatticePLD, delta: float) -> float:
    """The float epsilon at which the float view of ``d`` has delta ``delta`` (0 if already below;
    inf if the +inf mass alone exceeds it). Approximate: a proposal only."""
    Ls, ms, inf = _float_view(d)
    if inf >= delta:
        return math.inf
    # suffix sums over losses > eps: A[i] = sum_{j >= i} m_j and, scaled to L_i so that no exponential
    # overflows at large losses, E[i] = sum_{j >= i} m_j e^{L_i - L_j}; on [L_{i-1}, L_i) the losses
    # above eps are i..n-1 and delta(eps) = inf + A[i] - e^{eps - L_i} E[i]
    n = len(Ls)
    if n == 0:
        return 0.0
    r = math.exp(-float(d.h))
    A = [0.0] * (n + 1)
    E = [0.0] * (n + 1)
    for i in range(n - 1, -1, -1):
        A[i] = A[i + 1] + ms[i]
        E[i] = ms[i] + r * E[i + 1]
    for i in range(n - 1, -1, -1):  # the segment holding the root, scanning from the top
        val_lo = inf + A[i] - (r * E[i] if i > 0 else 0.0)  # delta at L_{i-1} (at -inf for i = 0)
        if val_lo >= delta:
            lo = Ls[i - 1] if i > 0 else -math.inf
            x = (inf + A[i] - delta) / E[i] if E[i] > 0 else math.inf
            root = Ls[i] + math.log(x) if 0 < x < math.inf else (lo if x <= 0 else Ls[i])
            return max(min(max(root, lo), Ls[i]), 0.0)
    return 0.0


def epsilon_bound(d: LatticePLD, delta: Fraction, prec: int) -> Fraction:
    """A certified epsilon: for an upper PLD the least proposal ``eps >= 0`` with ``delta_bound(eps)
    <= delta`` decided in balls (an upper bound on the true epsilon(delta)); for a lower PLD an
    ``eps`` with ``delta_bound(eps) > delta`` decided (a lower bound), or 0.
    Returns ``math.inf`` (as a float) when no finite epsilon exists for an upper PLD."""
    df = float(delta)
    if not d.upper and Fraction(d.inf, d.one) > delta:
        return math.inf  # type: ignore[return-value]  # the +inf mass alone: no finite epsilon
    guess = epsilon_float(d, df)
    if guess == math.inf:
        if d.upper:
            return math.inf  # type: ignore[return-value]
        guess = 1e6
    hf = float(d.h)
    step = max(abs(guess) * 1e-13, 1e-15)
    for _ in range(200):
        if d.upper:
            e = Fraction(guess + step) if guess + step > 0 else Fraction(0)
            if delta_bound(d, e, prec).upper() <= arb_of_fraction(delta):
                return e
        else:
            cand = guess - step
            if cand <= 0:
                return Fraction(0)
            e = Fraction(cand)
            if delta_bound(d, e, prec).lower() > arb_of_fraction(delta):
                return e
        step *= 4
        if step > 1e3 + hf:
            break
    if d.upper:
        return math.inf  # type: ignore[return-value]
    return Fraction(0)
