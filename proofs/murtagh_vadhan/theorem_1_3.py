"""Murtagh-Vadhan Theorem 1.3 (advanced composition, Dwork-Rothblum-Vadhan).

Printed: for eps > 0, delta, delta' > 0, k in N and (eps,delta)-DP M_1..M_k the
composition is (eps_g, k delta + delta')-DP with
eps_g = sqrt(2k ln(1/delta')) eps + k eps (e^eps - 1).

Checked with certified arithmetic: for a grid of (eps, delta, delta', k) with
rational eps (so e^eps is transcendental), e^{eps_g} is enclosed by an Arb ball
and an Arb enclosure of the optimal delta_g(eps_g) -- Theorem 1.5 in its
homogeneous form, sum over l of C(k, l) max(e^{(k-l)eps} - e^{eps_g} e^{l eps}, 0),
written here independently of the exactdp engine -- is shown to lie below
k delta + delta' (exact rational comparison of the enclosure's upper end). The
exactdp certified engine is run as a cross-check (a disagreement is a library
issue), and so is exactdp's advanced_bound (its enclosure of the printed eps_g must
meet the independent one).
"""

from __future__ import annotations

from fractions import Fraction as F

from exactdp._backend import workprec
from exactdp.numbers import arb_bounds

from .._crosscheck import crosschecked, meets
from .._framework import FAILED, Proof, statement


def _homog_delta_ball(eps: F, delta: F, k: int, t):
    """Enclosure of the optimal delta_g at e^{eps_g} = t for k copies of (eps, delta) (Theorem 1.5, grouped by |S|)."""
    from math import comb

    from flint import arb, fmpq

    w = arb(fmpq(eps.numerator, eps.denominator)).exp()
    P = arb(fmpq((1 - delta).numerator, (1 - delta).denominator)) ** k
    s = arb(0)
    for l in range(k + 1):
        s += comb(k, l) * (w ** (k - l) - t * w ** l).max(arb(0))
    return 1 - P + P * s / (1 + w) ** k


def _eps_g_ball(eps: F, k: int, dprime: F):
    from flint import arb, fmpq

    e = arb(fmpq(eps.numerator, eps.denominator))
    ld = arb(fmpq(dprime.denominator, dprime.numerator)).log()
    return (2 * k * ld).sqrt() * e + k * e * (e.exp() - 1)


@statement(
    "Theorem 1.3",
    "For eps > 0, delta, delta' > 0 and (eps,delta)-DP M_1..M_k, the composition is (eps_g, k delta + delta')-DP with "
    "eps_g = sqrt(2k ln(1/delta')) eps + k eps (e^eps - 1).",
    library=('exactdp.composed_delta', 'exactdp.optcomp', 'exactdp.bounds.advanced_bound'),
)
def theorem(p: Proof) -> None:
    from exactdp import Computable, Mechanism, composed_delta, optcomp
    from exactdp.bounds import advanced_bound

    n = n_adv = 0
    ks = (1, 2, 5, 10, 30, 100) if p.full else (1, 3, 10, 40)
    epss = (F(1, 100), F(1, 10), F(1, 2), F(1), F(2)) if p.full else (F(1, 20), F(1, 2), F(3, 2))
    dprimes = (F(1, 2), F(1, 10), F(1, 1000), F(1, 10 ** 9)) if p.full else (F(1, 3), F(1, 1000), F(1, 10 ** 9))
    worst = None
    for eps in epss:
        for k in ks:
            for delta in (F(0), F(1, 1000)):
                for dp in dprimes:
                    fn = (lambda prec, eps=eps, k=k, dp=dp: _eps_g_ball(eps, k, dp).exp())
                    with workprec(256):
                        lo, hi = arb_bounds(_homog_delta_ball(eps, delta, k, fn(256)))
                    bound = k * delta + dp
                    n += 1
                    if not p.require(hi <= bound, "certified delta_g(eps_g) <= k delta + delta'",
                                     f"eps={eps} k={k} delta={delta} delta'={dp}: delta_g in [{float(lo):.6g}, "
                                     f"{float(hi):.6g}] > {float(bound):.6g}"):
                        return
                    inst = f"eps={eps} k={k} delta={delta} delta'={dp}"
                    adv = p.library("exactdp advanced_bound", advanced_bound, [Mechanism(eps=eps, delta=delta)] * k,
                                    bound)
                    if adv is not FAILED:
                        n_adv += 1
                        if not adv.applies:
                            p.issue(f"exactdp advanced_bound does not apply on {inst}: {adv.reason}")
                        else:
                            with workprec(256):
                                glo, ghi = arb_bounds(_eps_g_ball(eps, k, dp))
                            meets(p, adv.value, glo, ghi, "exactdp advanced_bound", inst)
                    r = p.library("exactdp composed_delta (certified)", composed_delta,
                                  [Mechanism(eps=eps, delta=delta)] * k, exp_eps_g=Computable(fn, "e^eps_g"),
                                  engine="certified", digits=12)
                    if r is not FAILED and (r.upper < lo or r.lower > hi):
                        p.issue(f"exactdp certified delta_g [{r.lower}, {r.upper}] misses the independent enclosure at "
                                f"eps={eps} k={k} delta={delta} delta'={dp}")
                    # how much of delta' the pure part uses: (delta_g - (1 - (1-delta)^k)) / delta'
                    ratio = float(hi - (1 - (1 - delta) ** k)) / float(dp)
                    if worst is None or ratio > worst[0]:
                        worst = (ratio, eps, k, delta, dp)
    p.instances("certified enclosure (independent Arb transcription of Theorem 1.5, homogeneous form) of the optimal "
                "delta_g at the printed eps_g lies below k delta + delta' (rational eps, "
                f"k in {ks}, delta in {{0, 1/1000}}, delta' in {tuple(str(x) for x in dprimes)})", n, "certified")
    crosschecked(p, "exactdp advanced_bound at delta_g = k delta + delta' encloses the printed eps_g (its enclosure meets "
                 "an independent 256-bit Arb enclosure)", n_adv)
    if worst:
        p.note(f"Tightest case: (delta_g(eps_g) - (1 - (1-delta)^k)) / delta' <= {worst[0]:.4g} at eps={worst[1]}, k={worst[2]}, "
               f"delta={worst[3]}, delta'={worst[4]}.")
    r = optcomp([Mechanism(eps=F(1, 10))] * 10, F(1, 1000), engine="certified", digits=8)
    eg = float(_eps_g_ball(F(1, 10), 10, F(1, 1000)).mid())
    p.note(f"Example of the slack: eps = 0.1, k = 10, delta = 0, delta' = 10^-3: printed eps_g = {eg:.6f}, "
           f"OptComp = {float(r.lower):.6f}..{float(r.upper):.6f}.")


@statement(
    "Theorem 1.3 (proof: the remark after it, 'an improvement if delta' = 2^{-O(k)}')",
    "Section 1.1, after Theorem 1.3: 'Theorem 1.3 shows that privacy under composition degrades by a function of "
    "O(sqrt(k ln(1/delta'))) which is an improvement if delta' = 2^{-O(k)}' (over the factor k of Theorem 1.2).",
)
def remark_improvement(p: Proof) -> None:
    import sympy as sp

    k, c = sp.symbols("k c", positive=True)
    # delta' = 2^{-c k}: ln(1/delta') = c k ln 2, so the degradation sqrt(2k ln(1/delta')) is sqrt(2 c ln 2) k
    const = sp.simplify(sp.sqrt(2 * k * (c * k * sp.log(2))) / k)
    at_c1 = const.subs(c, 1)
    holds = bool(sp.simplify(const - sp.sqrt(2 * c * sp.log(2))) == 0) and bool(2 * sp.log(2) > 1)
    if holds:
        p.refute("an improvement over k (basic composition) whenever delta' = 2^{-O(k)}",
                 f"delta' = 2^{{-k}} (= 2^{{-O(k)}}): ln(1/delta') = k ln 2 and the degradation sqrt(2k ln(1/delta')) = "
                 f"sqrt(2 ln 2) k = {float(at_c1):.6f} k > k, so eps_g = sqrt(2k ln(1/delta')) eps + k eps (e^eps - 1) > "
                 "k eps for every k and eps > 0: worse than Theorem 1.2's k eps (symbolic; 2 ln 2 > 1). In general "
                 "delta' = 2^{-ck} gives sqrt(2 c ln 2) k: an improvement only for c < 1/(2 ln 2) = 0.7213...")
    else:
        p.verified("delta' = 2^{-ck} gives a degradation o(k)", False, "the symbolic identity did not simplify")

    def corr(q: Proof) -> None:
        # delta' = 2^{-f(k)} with f(k) = o(k): the factor sqrt(2 f(k) ln 2 / k) -> 0
        ok = True
        for fk in (sp.sqrt(k), k ** sp.Rational(9, 10)):
            ok = ok and sp.limit(sp.sqrt(2 * k * fk * sp.log(2)) / k, k, sp.oo) == 0
        ok = ok and sp.limit(sp.sqrt(2 * k * c * k * sp.log(2)) / k, k, sp.oo) == sp.sqrt(2 * c * sp.log(2))
        q.verified("delta' = 2^{-f(k)}: sqrt(2k ln(1/delta'))/k = sqrt(2 ln 2 f(k)/k) -> 0 for f(k) = sqrt k and "
                   "k^(9/10) (sympy limits), and -> sqrt(2 c ln 2) (a constant, not 0) for f(k) = c k", ok)

    p.correct("The degradation sqrt(2k ln(1/delta')) is o(k), an improvement over Theorem 1.2's factor k, iff "
              "ln(1/delta') = o(k), i.e. delta' = 2^{-o(k)}; for delta' = 2^{-ck} it is the constant factor "
              "sqrt(2 c ln 2) of k (an improvement only when c < 1/(2 ln 2)).", corr)
