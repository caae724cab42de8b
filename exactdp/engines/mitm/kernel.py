"""The meet-in-the-middle kernel for arbitrary values: ``O(k 2^(k/2))`` at worst.

The mechanisms (as groups: a distinct value ``v_j`` with its count ``n_j``) are split
into two halves, each group's count shared between them. Each half is a list of
*classes*: subsets of the half counted up to which copies of a value they take,
then merged when their likelihood ratios ``W_X / W_notX`` are equal *exactly*
(:func:`ratio_keys`). A subset ``S = A u B`` contributes iff
``d_A + d_B > ln t`` (``d_X = ln W_X - ln W_notX``); the right half is sorted by ``d``
and carries suffix sums of ``W_B`` and ``W_notB``, so each left class costs O(1)
field operations, plus the few right classes within a float margin of the
threshold, decided by the field's sign test and, when a ball straddles 0, by the
exact symbolic rule.

Merging matters twice: ``k`` equal mechanisms make ``k + 1`` classes instead of
``2^k`` subsets, and a threshold ``t`` at a breakpoint (say ``t = 1`` with
mechanisms of ``eps = 0``) meets a handful of tied classes instead of a number
exponential in ``k`` (the cause of issue 16, item 2).

**The vector form** (balls only; issue 14: k = 48 arbitrary decimal eps in under a
minute). Per class Python objects cost about 2 KB and microseconds; in the vector form a
class is a row of L 16-bit limbs of a fixed-point lower bound of
``P_m = prod C(n_j, m_j) p_j^m_j (1 - p_j)^(n_j - m_j)`` (``p_j = v_j / (1 + v_j)``, so
``W_S / Z = P_A P_B`` and ``W_notS / Z = P_(n-A) P_(n-B)``: the complement's value), with
a float key whose rounding is bounded rigorously. Pair sums are exact integers (float64
matrix products of limbs with every partial sum below 2^53), the pairs within the keys'
error of the threshold are decided exactly, and the fixed point's total shortfall is a
counted number of units: an enclosure. Being exact integers, chunked sums over Dask workers
(:func:`distributed`) equal the serial ones. ``docs/engines.md`` has the details.

Guarantee: exact in the exact field, an enclosure in Arb balls.
"""


from __future__ import annotations

import math
from fractions import Fraction
from math import gcd
from typing import Optional, Sequence

from ..._backend import arb, np, workprec
from ...errors import CostTooHigh
from ...numbers import ExpNum, RatExp, log_sign_of_product
from ..costs import Estimate, fmt
from ..fields import Field
from ..grouped import Grouped
from ..inverse import locate
from ..kernel import APPROX_ALTERNATIVE, Kernel, Request
from ..structure import Structure
from .cost import mitm_cost, mitm_estimate, mitm_vec_limbs
from .halves import Half, half_classes, split_groups
from .keys import ratio_keys
from .limbs import VEC_CHUNK, one_blas_thread
from .vector import APPROX_LIMBS, VecSpec, VecState, vec_applies, vec_default, vec_error_units

__all__ = ["MITM", "MITM_KERNEL"]

_U = 2.0**-53


def _ln_S(pos: float, neg: float, lnt: float, shift: float) -> tuple[float, float]:
    """``(ln S, d ln S / d ln t)`` from the scaled float sums ``pos`` and ``neg`` with
    ``S = e^shift (pos - t neg)`` (``(-inf, 0)`` where that is not positive). Guarantee: approximate."""
    if pos <= 0:
        return float("-inf"), 0.0
    tn = lnt + math.log(neg) if neg > 0 else -math.inf
    if tn > 700 or math.exp(tn) >= pos:
        return float("-inf"), 0.0
    rest = pos - math.exp(tn)
    return math.log(rest) + shift, -math.exp(tn) / rest



class _Strided:
    """The float model of :class:`MITM`'s vector form on every ``stride``-th left class."""

    def __init__(self, m: "MITM", stride: int):
        self.m, self.stride = m, stride

    def approx(self, lnt: float) -> tuple[float, float]:
        return self.m._vec_approx(lnt, self.stride)


class MITM(Structure):
    """Meet in the middle over two halves of the groups (see the module docstring).

    ``vector``: the vector form in ball arithmetic (True), the per-class form (False), or
    (None) the vector form when :func:`vec_default` holds. The exact field always takes the
    per-class form (built on first use)."""

    method = "mitm"

    def __init__(self, groups: Sequence, *, keys: bool = True, vector: Optional[bool] = None):
        gl = list(groups)
        if gl and not isinstance(gl[0], tuple):  # a list of values, one per mechanism
            merged: dict = {}
            for x in gl:
                merged[x] = merged.get(x, 0) + 1
            gl = list(merged.items())
        self.groups = [(v, int(n)) for v, n in gl]
        self.k = sum(n for _, n in self.groups)
        self.left, self.right = split_groups(self.groups)
        self._keys = keys
        ok = vec_applies(self.groups) and bool(self.left) and bool(self.right)
        self.vector = ok and (vec_default(self.groups) if vector is None else bool(vector))
        self._runner = None  # runs the chunks on Dask workers while :func:`~.dask_split.distributed` is in force
        self._state: Optional[VecState] = None
        self._vinfo: Optional[dict] = None

    _SCALAR = frozenset(["Lh", "Rh", "_abs_sum", "_keys_finite", "_cache", "_den", "_il", "_ir"])

    def __getattr__(self, name: str):
        # the per-class Python form (exact field, small cases) is built on first use only: the
        # vector form of k = 48 never needs it
        if name in MITM._SCALAR and "_scalar_done" not in self.__dict__:
            self._init_scalar()
            return getattr(self, name)
        raise AttributeError(name)

    def _init_scalar(self) -> None:
        self.__dict__["_scalar_done"] = True
        left, right = self.left, self.right
        kv = ratio_keys([v for v, _ in self.groups]) if self._keys else None
        kd = {v: kv[j] for j, (v, _) in enumerate(self.groups)} if kv is not None else None
        self.Lh = Half(left, kd)
        self.Rh = Half(right, kd)
        self._abs_sum = self.Lh.abs_sum + self.Rh.abs_sum
        self._keys_finite = bool(np.isfinite(self.Lh.d).all() and np.isfinite(self.Rh.d).all())
        self._cache: dict = {}
        # exact integer keys when every value is e^{r_i} (rational eps): d_X = n_X / den
        self._den: Optional[int] = None
        if all(isinstance(v, RatExp) and v.q == 1 for v, _ in self.groups) and self.groups:
            den = 1
            for v, _ in self.groups:
                den = den * v.r.denominator // gcd(den, v.r.denominator)  # type: ignore[attr-defined]
            nv = [int(v.r * den) for v, _ in self.groups]  # type: ignore[attr-defined]
            # int64 keys when they fit; Python integers otherwise (eps = 1e309 next to eps = 1/4,
            # where float keys overflow or put every pair within the band of one another)
            dt = np.int64 if sum(abs(x) * n for x, (_, n) in zip(nv, self.groups)) < 2**62 else object
            if dt is np.int64 or max(len(self.Lh), len(self.Rh)) <= 2**22:
                self._den = den
                idx = {v: i for i, (v, _) in enumerate(self.groups)}

                def ikeys(h: Half):
                    if not h.groups:
                        return np.zeros(len(h), dtype=dt)
                    return h.e.astype(dt) @ np.array([nv[idx[v]] for v, _ in h.groups], dtype=dt)

                self._il = ikeys(self.Lh)
                ir = ikeys(self.Rh)
                order = np.argsort(ir, kind="stable")  # the exact order (the float one may swap near-ties)
                self.Rh.reorder(order)
                self._ir = ir[order]

    def cost(self) -> float:
        if self.vector or "_scalar_done" not in self.__dict__:
            return (half_classes(self.left) + half_classes(self.right)) * max(1, len(self.groups))
        return float(len(self.Lh) + len(self.Rh)) * max(1, len(self.groups))

    def estimate(self, kind: str, prec: int):
        def bits(v):
            q = v.exact()
            return float(q.numerator.bit_length() + q.denominator.bit_length()) if q is not None else 64.0

        wb = sum(bits(v) * n for v, n in self.groups) / 2
        if self.vector and kind != "exact":
            return mitm_cost(half_classes(self.left), half_classes(self.right), len(self.groups), kind, prec, wb,
                             vector=True, workers=self._workers())
        cb = 0.73 * max(sum(n for _, n in self.left if n > 1), sum(n for _, n in self.right if n > 1))
        if self.vector or "_scalar_done" not in self.__dict__:
            # before the per-class form exists (it is what is being estimated): its size unmerged
            return mitm_cost(half_classes(self.left), half_classes(self.right), len(self.groups), kind, prec, wb, cb)
        return mitm_cost(float(len(self.Lh)), float(len(self.Rh)), len(self.groups), kind, prec, wb, cb)

    # ---------------------------------------------------------------- the vector form

    def use_runner(self, runner) -> None:
        """Evaluate the vector form's chunks with ``runner`` (a :class:`~.dask_split.DaskRunner`),
        or serially again (``None``). Guarantee: results unchanged. Raises: nothing."""
        self._runner = runner

    def _workers(self) -> int:
        return 1 if self._runner is None else self._runner.workers()

    def limbs(self, prec: int) -> int:
        """16-bit limbs of the fixed point for a ball precision ``prec``
        (:func:`~exactdp.engines.mitm.cost.mitm_vec_limbs`)."""
        g = max(len(self.left), len(self.right))
        return mitm_vec_limbs(half_classes(self.left), half_classes(self.right), g, prec)

    def _info(self) -> dict:
        """The float keys' error bound and magnitude (from the groups; the same numbers every
        process builds)."""
        if self._vinfo is None:
            derr = dmag = 0.0
            for half in (self.left, self.right):
                g = len(half)
                with workprec(128):
                    for v, n in half:
                        lb = v.arb(128).log()
                        lj = float(lb.mid())
                        derr += n * (float(lb.rad()) + 2 * (g + 2) * _U * abs(lj))
                        dmag += n * abs(lj)
            self._vinfo = {"derr": derr, "dmag": dmag}
        return self._vinfo

    def _spec(self, prec: int) -> VecSpec:
        # at least the limbs of the engines' usual precisions (delta_g 136 bits, OptComp 144+):
        # the float search comes first and must not build a narrower form that Newton rebuilds
        L = self.limbs(max(prec, 150))
        built = self._state.L if self._state is not None else getattr(self, "_built_L", 0)
        return VecSpec(tuple(self.left), tuple(self.right), max(L, built))

    def _run(self, spec: VecSpec, op: str, args: tuple) -> tuple[int, list]:
        """``(X0, per-chunk results in chunk order)``, serially or over the Dask workers (each
        builds the vector form once and keeps it; contiguous runs of chunks, one per worker)."""
        NL = int(half_classes(self.left))
        chunks = [(s, min(s + VEC_CHUNK, NL)) for s in range(0, NL, VEC_CHUNK)]
        if self._runner is None:
            with one_blas_thread():
                if self._state is None or self._state.L != spec.L:
                    self._state = None
                    self._state = VecState(spec)
                st = self._state
                if op == "eval":
                    return st.X0, [st.eval_chunk(s, e, *args) for s, e in chunks]
                return st.X0, [st.approx_chunk(s, e, *args) for s, e in chunks]
        out = self._runner(spec, op, args, chunks)
        self._built_L = spec.L
        return out

    def _lnt(self, t_num: ExpNum) -> tuple[float, float]:
        """``ln t`` as a float and a bound on its error."""
        with workprec(128):
            lb = t_num.arb(128).log()
            lnt = float(lb.mid())
            return lnt, float(lb.rad()) + 2 * _U * abs(lnt)

    def _Z(self, prec: int):
        z = arb(1)
        for v, n in self.groups:
            z *= (1 + v.arb(prec)) ** n
        return z

    def _vec_evaluate(self, field: Field, t_num: ExpNum, t=None):
        prec = field.prec  # type: ignore[attr-defined]
        spec = self._spec(prec)
        info = self._info()
        lnt, err_t = self._lnt(t_num)
        # a rigorous bound on the float error of d_A + d_B - ln t (and of the threshold's own
        # rounding), doubled: pairs outside it are placed by the floats, inside it exactly
        mu = 2 * (info["derr"] + err_t + 8 * _U * (abs(lnt) + info["dmag"])) + 1e-300
        X0, res = self._run(spec, "eval", (lnt, mu, t_num))
        if any(r is None for r in res):
            return self._scalar_evaluate(field, t_num, t)
        pos = sum(r[0] for r in res) + sum(r[3] for r in res)
        neg = X0 * sum(r[2] for r in res) - sum(r[1] for r in res) + sum(r[4] for r in res)
        F = 16 * spec.L
        g = max(len(self.left), len(self.right))
        E = vec_error_units(g)
        NL, NR = int(half_classes(self.left)), int(half_classes(self.right))
        # every stored value is a lower bound within E units: over any set of pairs the sum
        # of P_A P_B (scale 2^2F) is short of the true one by at most 2^F (E N_R + E N_L)
        err = (E * (NL + NR)) << F
        if t is None:
            t = field.embed(t_num)
        with workprec(prec + 32):
            sc = arb(2) ** (-2 * F)
            posb = arb(pos).union(arb(pos + err)) * sc
            negb = arb(neg).union(arb(neg + err)) * sc
            s_und = arb(0)
            sig_und = arb(0)
            for pp, qq in (u for r in res for u in r[5]):
                s_und += arb(0).union(arb(pp + err) * sc)
                sig_und += arb(0).union(arb(qq + err) * sc)
            Z = self._Z(prec + 32)
        S = Z * (posb - t * negb + s_und)
        sig = Z * (negb + sig_und)
        return S, sig

    def _vec_approx(self, lnt: float, stride: int = 1) -> tuple[float, float]:
        if not math.isfinite(lnt):
            return float("-inf"), 0.0
        spec = self._spec(64)
        X0, res = self._run(spec, "approx", (lnt, stride))
        k = min(APPROX_LIMBS, spec.L)
        X0top = X0 >> (16 * (spec.L - k))
        # top-limb sums, scale 2^(32 k): pos = sum P_A X(h_A), neg = sum Q_A Y(h_A)
        pos = math.ldexp(float(stride * sum(r[0] for r in res)), -32 * k)
        neg = math.ldexp(float(stride * (X0top * sum(r[2] for r in res) - sum(r[1] for r in res))), -32 * k)
        lz = math.fsum(n * (v.flog() + math.log1p(math.exp(-v.flog()))) for v, n in self.groups)
        return _ln_S(pos, neg, lnt, lz)

    def locate_float(self, log_goal: float) -> Optional[float]:
        """The float search of the inverse for the vector form: the generic search on every
        ``stride``-th left class (about 2^18 of them; ``S`` is smooth in the order of ``d``),
        then Newton steps on the full sums. ``None`` (the generic search) for the other forms.
        Guarantee: approximate (a starting point only). Raises: nothing."""
        if not self.vector:
            return None
        NL = int(half_classes(self.left))
        stride = max(1, NL >> 18)
        lnW = math.fsum(n * v.flog() for v, n in self.groups)
        L = locate(_Strided(self, stride), log_goal, lnW)
        if stride == 1 or not (L > 0):
            return L
        best = (math.inf, L)
        for _ in range(4):
            g, sl = self._vec_approx(L)
            g -= log_goal
            if not (math.isfinite(g) and sl < 0):
                break
            if abs(g) < best[0]:
                best = (abs(g), L)
            Ln = L - g / sl
            if abs(g) < 1e-12 or not (0 < Ln < lnW) or abs(Ln - L) <= 1e-13 * L:
                break
            L = Ln
        return best[1]

    def loss_classes(self, field: Field) -> list:
        """Every class of the composition (the grouped kernel's classes; refused above 2^20)."""
        g = Grouped(self.groups)
        if g.cost() > 2**20:
            raise CostTooHigh("mechanisms", f"the privacy-loss classes of these {self.k} mechanisms number "
                              f"{g.cost():.3g}; refused above 2^20", estimate=g.cost(), limit=2**20,
                              alternative="mechanisms on a common lattice (rational eps)")
        return g.loss_classes(field)

    def _margin(self, lnt: float) -> float:
        # a million times the float error of d_A + d_B - ln t (relative: keys of mechanisms
        # with eps ~ 1e-12 are that small, and an absolute margin would put them all in the band)
        return 1e-9 * (self._abs_sum + abs(lnt)) + 1e-300

    def _prepared(self, field: Field):
        key = (field.name, getattr(field, "prec", None))
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        la, lna = self.Lh.values(field)
        rb, rnb = self.Rh.values(field)
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

    def _symbolic_sign(self, a: int, b: int, t_num: ExpNum) -> Optional[int]:
        facs: dict = {}
        for v, e in self.Lh.factors(a) + self.Rh.factors(b):
            facs[v] = facs.get(v, 0) + e
        return log_sign_of_product(list(facs.items()) + [(t_num, -1)])

    def _thresholds(self, t_num: ExpNum):
        lnt = t_num.flog()
        if self._den is not None and isinstance(t_num, RatExp) and t_num.q == 1 and not t_num.approximate:
            # exact: positive iff n_A + n_B > t.r * den  iff  n_A + n_B > floor(t.r * den)
            tl = t_num.r * self._den
            T = tl.numerator // tl.denominator
            if self._ir.dtype == object:
                hi = np.searchsorted(self._ir, T - self._il, side="right").astype(np.int64)
                return hi, hi
            if abs(T) < 2**62:
                hi = np.searchsorted(self._ir, T - self._il, side="right")
                return hi, hi
        mu = self._margin(lnt) if math.isfinite(lnt) else 0.0
        nl, nr = len(self.Lh.d), len(self.Rh.d)
        if not (math.isfinite(mu) and self._keys_finite):
            # keys beyond the float range (eps ~ 1e308): no class is placed by its float key;
            # every pair is in the band, decided in the engine's arithmetic
            return np.full(nl, nr, dtype=np.int64), np.zeros(nl, dtype=np.int64)
        theta = lnt - self.Lh.d
        hi = np.searchsorted(self.Rh.d, theta + mu, side="right")
        lo = np.searchsorted(self.Rh.d, theta - mu, side="left")
        return hi, lo

    def evaluate(self, field: Field, t_num: ExpNum, t=None):
        if self.vector and not field.exact:
            return self._vec_evaluate(field, t_num, t)
        return self._scalar_evaluate(field, t_num, t)

    def _scalar_evaluate(self, field: Field, t_num: ExpNum, t=None):
        if t is None:
            t = field.embed(t_num)
        la, lna, rb, rnb, suf_b, suf_nb = self._prepared(field)
        hi, lo = self._thresholds(t_num)
        zero = field.rational(Fraction(0))
        n = len(rb)
        g1: dict = {}
        g2: dict = {}
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

    def approx(self, lnt: float) -> tuple[float, float]:
        if self.vector:
            return self._vec_approx(lnt)
        # numpy float64 in a scaled log domain: W_S = sqrt(W) e^{d/2}, W_notS = sqrt(W) e^{-d/2},
        # S / sqrt(W) = sum_A c_A [e^{d_A/2} SE(h_A) - t e^{-d_A/2} SN(h_A)], exponentials scaled to <= 1
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            dl, dr = self.Lh.d, self.Rh.d
            cl, cr = self.Lh.logcount, self.Rh.logcount
            ma = 0.5 * float(np.abs(dl).max()) + float(cl.max())
            mb = 0.5 * float(np.abs(dr).max()) + float(cr.max())
            if not (math.isfinite(ma) and math.isfinite(mb) and math.isfinite(lnt)):
                return float("-inf"), 0.0
            h = np.searchsorted(dr, lnt - dl, side="right")
            se = np.concatenate([np.cumsum(np.exp(cr + 0.5 * dr - mb)[::-1])[::-1], [0.0]])
            sn = np.concatenate([np.cumsum(np.exp(cr - 0.5 * dr - mb)[::-1])[::-1], [0.0]])
            pos = float(np.dot(np.exp(cl + 0.5 * dl - ma), se[h]))
            neg = float(np.dot(np.exp(cl - 0.5 * dl - ma), sn[h]))
        return _ln_S(pos, neg, lnt, ma + mb + 0.5 * self._log_W())

    def _log_W(self) -> float:
        return math.fsum(n * v.flog() for v, n in self.groups)


# --------------------------------------------------------------------------
# the plug-in


class MitmKernel(Kernel):
    """Meet in the middle: any values, ``O(k 2^(k/2))`` at worst."""

    name = "mitm"
    alternative = "method='auto', or " + APPROX_ALTERNATIVE

    def estimate(self, req: Request, kind: str = "arb", prec: int = 128) -> tuple[Estimate, Estimate]:
        return mitm_estimate(req.groups, kind, prec)

    def describe(self, req: Request) -> str:
        left, right = split_groups(req.groups)
        return f"meet in the middle over {fmt(half_classes(left))} + {fmt(half_classes(right))} classes"

    def build(self, req: Request) -> Structure:
        return MITM(req.groups)


MITM_KERNEL = MitmKernel()
