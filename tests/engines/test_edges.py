"""The engines at their edges (issue 16): both directions, every engine, relative accuracy.

References, all independent of the engines:

* Murtagh-Vadhan Theorem 1.5 over the ``2^k`` subsets in exact rationals
  (``subset_formula_delta``), itself checked against the hockey-stick divergence of the
  randomized responses in ``test_optcomp_properties.py``; for ``k = 1`` the closed
  form ``delta_g = delta + (1 - delta)(w - t)_+ / (1 + w)`` and its inverse
  ``t* = w - (1 + w) tau``;
* OptComp checked through the reference delta_g: ``delta_g`` is continuous and strictly
  decreasing in ``t`` on ``[1, W]``, so an enclosure ``[lo, hi]`` of ``eps_g`` is right
  iff ``delta_g(e^lo) >= delta_g* >= delta_g(e^hi)``; ``e^lo`` and ``e^hi`` are bracketed
  by rationals (Taylor with a tail bound, ``exp_bracket``) on the safe side;
* mpmath at 600 bits for irrational ``e^eps``.

The seeded property test draws compositions with tiny (``1 + 10^-j``), ordinary and
huge (``10^j``) ``e^eps``, ``k = 1..4``, and targets at and near the breakpoints
``W_S^2 / W``, at ``t = 1`` and ``t = W``; ``delta_g`` at and near ``1 - prod(1 - delta_i)``,
at the reference delta_g of breakpoints and just beside them, and just below
``delta_g(t = 1)`` (OptComp tiny). ``EXACTDP_SLOW=full`` runs ten times as many.
"""

from __future__ import annotations

import math
import os
import random
from fractions import Fraction as F

import mpmath
import pytest

import exactdp.engines.inverse as inverse_mod
from exactdp import Mechanism, certify, composed_delta, mechanisms, optcomp
from exactdp.cli import main as cli_main
from exactdp.engines.costs import EVALS_OPTCOMP
from exactdp_proofs._reference import breakpoints, exp_bracket, subset_formula_delta

ENGINES = ["exact", "certified", "float"]
N_CASES = 400 if os.environ.get("EXACTDP_SLOW", "").lower() == "full" else 40


def ref_delta(ws, ds, t):
    return subset_formula_delta(ws, ds, F(t))


def prod(xs):
    p = F(1)
    for x in xs:
        p *= x
    return p


def check_delta(r, true: F, engine: str, digits: int):
    """An engine's delta_g against the exact value, by its tier."""
    if engine == "exact":
        assert r.exact == true
    elif engine == "certified":
        assert r.lower <= true <= r.upper
        if true > 0:
            assert r.lower > 0, "a positive delta_g must have a positive lower end"
            assert r.upper - r.lower <= r.upper * F(1, 10**digits)
        else:
            assert r.exact == 0
    else:
        v = r.lower
        assert abs(v - true) <= true * F(1, 10 ** (digits - 1)), (float(v), float(true))


def exp_outward(x: F, bits: int = 700) -> tuple[F, F]:
    """Rationals ``lo <= e^x <= hi`` (mpmath's interval arithmetic, outward rounded; for small
    ``x`` the Taylor bracket ``exp_bracket`` of the shared reference module)."""
    if x <= 4:
        return exp_bracket(x, bits)
    mpmath.iv.prec = bits
    v = mpmath.iv.exp(mpmath.iv.mpf([x.numerator, x.numerator]) / x.denominator)

    def frac(raw):  # an mpf tuple (sign, mantissa, exponent, bits), exactly
        sign, man, exp, _ = raw
        return (-1) ** sign * F(int(man)) * F(2) ** int(exp)

    a, b = v._mpi_
    return frac(a), frac(b)


def eps_brackets_ok(ws, ds, dg: F, lo: F, hi: F) -> bool:
    """``e^lo <= t* <= e^hi``, i.e. ``delta_g(e^lo) >= dg >= delta_g(e^hi)``, shown with
    rational brackets of ``e^lo`` (from above) and ``e^hi`` (from below) and monotonicity."""
    if lo > 0:
        a = exp_outward(lo)[1]  # >= e^lo, so delta_g(e^lo) >= delta_g(a)
        if ref_delta(ws, ds, a) < dg:
            return False
    b = max(exp_outward(hi)[0], F(1))  # <= e^hi, so delta_g(e^hi) <= delta_g(b)
    return ref_delta(ws, ds, b) <= dg


def check_eps(r, ws, ds, dg: F, engine: str, digits: int):
    P = prod(1 - d for d in ds)
    if dg < 1 - P:
        assert r.infinite
        return
    assert not r.infinite
    W = prod(ws)
    if engine == "exact":
        t = r.exp_exact
        assert t is not None and 1 <= t <= W
        if t > 1:
            assert ref_delta(ws, ds, t) == dg  # continuous and strictly decreasing on [1, W]
        else:
            assert ref_delta(ws, ds, 1) <= dg
        assert r.lower <= r.upper
        return
    if engine == "certified":
        assert eps_brackets_ok(ws, ds, dg, r.lower, r.upper), (r, dg)
        if r.upper > 0:
            assert r.upper - r.lower <= r.upper * F(1, 10**digits)
        return
    # float: against the exact engine's t*, to the digits asked
    ex = optcomp([Mechanism(exp_eps=w, delta=d) for w, d in zip(ws, ds)], dg, engine="exact")
    with mpmath.workprec(600):
        true = mpmath.log(mpmath.mpf(ex.exp_exact.numerator) / ex.exp_exact.denominator)
        v = mpmath.mpf(r.lower.numerator) / r.lower.denominator
        assert abs(v - true) <= abs(true) * mpmath.mpf(10) ** (1 - digits), (v, true)


# --------------------------------------------------------------------------
# the six items of issue 16, as reported


def test_item1_mitm_on_three_values_is_cheap_and_agrees():
    vals = ["1001/1000"] * 13 + ["1"] * 19 + ["5260/81"] * 15
    ms = [Mechanism(exp_eps=v, delta="4.8e-10") for v in vals]
    t = F("1264588213961825084701912543/1089620125312500000")
    a = composed_delta(ms, exp_eps_g=t, engine="exact", method="mitm")
    b = composed_delta(ms, exp_eps_g=t, engine="exact", method="grouped")
    assert a.exact == b.exact and 0 < a.exact < 1


def test_item2_optcomp_by_mitm_costs_a_few_evaluations(monkeypatch):
    ms = [Mechanism(exp_eps="10784/81", delta="0.00069")] * 20 + [Mechanism(exp_eps=1, delta="0.00069")] * 9
    counts = []
    orig = inverse_mod._Counted.__init__

    def spy(self, struct):
        orig(self, struct)
        counts.append(self)

    monkeypatch.setattr(inverse_mod._Counted, "__init__", spy)
    ref = optcomp(ms, "0.1", engine="exact", method="lattice")
    for engine in ENGINES:
        counts.clear()
        r = optcomp(ms, "0.1", engine=engine, method="mitm")
        assert sum(c.n for c in counts) <= EVALS_OPTCOMP
        if engine == "exact":
            assert r.exp_exact == ref.exp_exact
        else:
            assert r.lower <= ref.upper and ref.lower <= r.upper


@pytest.mark.parametrize("digits", [10, 30])
def test_item3_certified_optcomp_when_optcomp_is_small(digits):
    # k = 1, w = 2, tau = delta_g: t* = 2 - 3 delta_g = 1 + 1e-8, eps_g = ln(1 + 1e-8)
    dg = F(1, 3) * (1 - F(1, 10**8))
    r = optcomp([Mechanism(exp_eps="2")], dg, engine="certified", digits=digits)
    assert eps_brackets_ok([F(2)], [F(0)], dg, r.lower, r.upper)
    assert 0 < r.upper - r.lower <= r.upper * F(1, 10**digits)


@pytest.mark.parametrize("digits", [10, 20, 30, 50])
def test_item3_tanh_edge(digits):
    # eps = 1, delta_g = tanh(1/2)(1 - 1e-12): t* = e - (1 + e) delta_g, just above 1
    with mpmath.workprec(800):
        th = mpmath.tanh(mpmath.mpf(1) / 2)
        m, e = th.man_exp
        dg = F(int(m)) * F(2) ** int(e) * (1 - F(1, 10**12))
        true = mpmath.log(mpmath.e - (1 + mpmath.e) * (mpmath.mpf(dg.numerator) / dg.denominator))
        r = optcomp([Mechanism(eps="1")], dg, digits=digits)
        lo = mpmath.mpf(r.lower.numerator) / r.lower.denominator
        hi = mpmath.mpf(r.upper.numerator) / r.upper.denominator
        assert lo <= true <= hi and 0 < hi - lo <= hi * mpmath.mpf(10) ** -digits


def test_item3_command_exits_0(capsys):
    assert cli_main(["epsilon", "--exp-eps", "2", "--delta-g", "33333333/100000000", "--engine", "certified"]) == 0
    out = capsys.readouterr().out
    assert "eps_g in [" in out


def test_item4_certify_decides_an_easy_failing_claim():
    ms = mechanisms(eps=["0.0044"], k=56)
    # delta_g(eps_g = 0) = sum_m C(k, m) (w^m - w^(k-m))_+ / (1 + w)^k (KOV at eps_g = 0), in mpmath
    with mpmath.workprec(400):
        w = mpmath.exp(mpmath.mpf(44) / 10000)
        k = 56
        true = mpmath.fsum(math.comb(k, m) * max(w**m - w ** (k - m), 0) for m in range(k + 1)) / (1 + w) ** k
        m_, e_ = true.man_exp
        tq = F(int(m_)) * F(2) ** int(e_)
    for factor, holds in ((1 - F(1, 10**7), False), (1 + F(1, 10**7), True)):
        c = certify(ms, claim_eps="0", claim_delta=tq * factor)
        assert c.holds is holds
        assert c.delta.lower <= tq * (1 + F(1, 10**60)) and tq * (1 - F(1, 10**60)) <= c.delta.upper
        # the reported OptComp is on the claim's side of eps = 0 (Theorem 1.5)
        assert (c.eps.upper <= 0) if holds else (c.eps.lower >= 0 and c.eps.upper > 0)


def test_item5_tiny_values_have_relative_enclosures():
    # OptComp = ln(1 + 1e-30): exact engine exactly, certified to 10 digits with lower > 0
    dg = F(1, 3) * (1 - F(1, 10**30))
    r = optcomp([Mechanism(exp_eps="2")], dg, digits=10)
    assert r.exp_exact == 1 + F(1, 10**30)
    c = optcomp([Mechanism(exp_eps="2")], dg, digits=10, engine="certified")
    assert eps_brackets_ok([F(2)], [F(0)], dg, c.lower, c.upper)
    assert 0 < c.lower and c.upper - c.lower <= c.upper * F(1, 10**10)
    # delta_g = (w - t) / (1 + w) = 1e-24 / 3 and 1e-651 exactly
    for gap, true in ((F(1, 10**24), F(1, 3 * 10**24)), (3 * F(1, 10**651), F(1, 10**651))):
        d = composed_delta([Mechanism(exp_eps="2")], exp_eps_g=2 - gap, engine="certified", digits=10)
        check_delta(d, true, "certified", 10)
        check_delta(composed_delta([Mechanism(exp_eps="2")], exp_eps_g=2 - gap, engine="float", digits=10), true, "float", 10)
    # exactly 0 is reported exact
    z = composed_delta([Mechanism(exp_eps="2")], exp_eps_g=2, engine="certified")
    assert z.exact == 0


def test_item6_float_engine_is_accurate_at_the_edges():
    dg = F(1, 3) * (1 - F(1, 10**30))
    check_eps(optcomp([Mechanism(exp_eps="2")], dg, engine="float", digits=10), [F(2)], [F(0)], dg, "float", 10)
    for digits in (10, 30):
        d = composed_delta([Mechanism(exp_eps="2")], exp_eps_g=2 - F(1, 10**24), engine="float", digits=digits)
        check_delta(d, F(1, 3 * 10**24), "float", digits)


# --------------------------------------------------------------------------
# issue 17: huge and tiny numbers give answers or refusals, never tracebacks


def test_huge_eps_g_and_huge_eps():
    ms = mechanisms(eps=["0.1"], k=10)
    for eg in (10**400, "1e308"):
        for engine in ("auto", "certified", "float"):
            r = composed_delta(ms, eps_g=eg, engine=engine)
            assert r.lower == r.upper == 0  # e^eps_g >= prod w_i: S(t) = 0
    # eps = 1e309: delta_g(0) = tanh(eps/2) = 1 - 2e^{-1e309}... to 30 digits, [1 - 1e-30, 1]
    r = composed_delta([Mechanism(eps="1e309")], eps_g=0)
    assert r.upper == 1 and 1 - r.lower <= F(1, 10**29)


# --------------------------------------------------------------------------
# the seeded property test


def _draw_case(rng: random.Random):
    k = rng.randint(1, 4)
    kind = rng.choice(["ordinary", "tiny", "huge", "mixed"])
    ws = []
    for _ in range(k):
        kd = kind if kind != "mixed" else rng.choice(["ordinary", "tiny", "huge"])
        if kd == "ordinary":
            ws.append(F(rng.randint(10, 40), 10))
        elif kd == "tiny":
            ws.append(1 + F(rng.randint(1, 9), 10 ** rng.randint(6, 40)))
        else:
            ws.append(F(rng.randint(1, 9) * 10 ** rng.randint(6, 60)))
    ds = [F(0) if rng.random() < 0.6 else F(rng.randint(1, 9), 10 ** rng.randint(1, 12)) for _ in range(k)]
    return ws, ds


def _targets_t(rng: random.Random, ws):
    W = prod(ws)
    bps = breakpoints(ws)
    b = rng.choice(bps)
    j = rng.randint(3, 40)
    out = [F(1), W, W * 2, b, b * (1 - F(1, 10**j)), b * (1 + F(1, 10**j)), b * (1 - F(1, 10**j)) ** 2]
    return [max(x, F(1)) for x in out]


def _targets_dg(rng: random.Random, ws, ds):
    P = prod(1 - d for d in ds)
    j = rng.randint(3, 40)
    floor = 1 - P
    d1 = ref_delta(ws, ds, F(1))
    b = rng.choice(breakpoints(ws))
    db = ref_delta(ws, ds, b)
    out = [floor, floor + F(1, 10**j), d1 * (1 - F(1, 10**j)), db, db * (1 + F(1, 10**j)), db * (1 - F(1, 10**j))]
    if floor > 0:
        out.append(floor * (1 - F(1, 10**j)))
    return [x for x in out if 0 <= x < 1]


@pytest.mark.parametrize("engine", ENGINES)
def test_edges_delta_direction(engine):
    rng = random.Random(16_001)
    for _ in range(N_CASES):
        ws, ds = _draw_case(rng)
        ms = [Mechanism(exp_eps=w, delta=d) for w, d in zip(ws, ds)]
        digits = rng.choice([5, 15, 30])
        for t in rng.sample(_targets_t(rng, ws), 3):
            r = composed_delta(ms, exp_eps_g=t, engine=engine, digits=digits)
            check_delta(r, ref_delta(ws, ds, t), engine, digits)


@pytest.mark.parametrize("engine", ENGINES)
def test_edges_eps_direction(engine):
    rng = random.Random(16_002)
    for _ in range(N_CASES):
        ws, ds = _draw_case(rng)
        ms = [Mechanism(exp_eps=w, delta=d) for w, d in zip(ws, ds)]
        digits = rng.choice([5, 15, 30])
        for dg in rng.sample(_targets_dg(rng, ws, ds), 3):
            r = optcomp(ms, dg, engine=engine, digits=digits)
            check_eps(r, ws, ds, dg, engine, digits)


@pytest.mark.parametrize("engine", ["certified", "float"])
def test_edges_irrational(engine):
    # eps_i rational (e^eps transcendental), eps_g at sums of +-eps_i (breakpoints) and beside them
    rng = random.Random(16_003)
    for _ in range(N_CASES // 2):
        k = rng.randint(1, 3)
        eps = [F(rng.randint(1, 30), 10 ** rng.randint(1, 8)) for _ in range(k)]
        ms = [Mechanism(eps=e) for e in eps]
        signs = [rng.choice([-1, 1]) for _ in eps]
        g = max(sum(s * e for s, e in zip(signs, eps)), F(0))
        j = rng.randint(3, 30)
        for eg in (g, g * (1 + F(1, 10**j)), g * (1 - F(1, 10**j)), sum(eps)):
            r = composed_delta(ms, eps_g=eg, engine=engine, digits=15)
            with mpmath.workprec(2000):
                ws = [mpmath.exp(mpmath.mpf(e.numerator) / e.denominator) for e in eps]
                t = mpmath.exp(mpmath.mpf(eg.numerator) / eg.denominator)
                true = subset_formula_delta(ws, [0] * k, t)
                lo = mpmath.mpf(r.lower.numerator) / r.lower.denominator
                hi = mpmath.mpf(r.upper.numerator) / r.upper.denominator
                tol = abs(true) * mpmath.mpf(10) ** -14 + mpmath.mpf(10) ** -500
                if engine == "certified":
                    assert lo - mpmath.mpf(10) ** -500 <= true <= hi + mpmath.mpf(10) ** -500
                    assert hi - lo <= tol
                else:
                    assert abs(lo - true) <= tol


def test_inverse_evaluations_are_bounded(monkeypatch):
    """The one inverse costs a few evaluations of S on every edge case (item 2)."""
    counts: list = []
    orig = inverse_mod._Counted.__init__

    def spy(self, struct):
        orig(self, struct)
        counts.append(self)

    monkeypatch.setattr(inverse_mod._Counted, "__init__", spy)
    rng = random.Random(16_004)
    worst = 0
    for _ in range(N_CASES // 2):
        ws, ds = _draw_case(rng)
        ms = [Mechanism(exp_eps=w, delta=d) for w, d in zip(ws, ds)]
        for dg in _targets_dg(rng, ws, ds):
            for engine in ENGINES:
                counts.clear()
                optcomp(ms, dg, engine=engine, digits=30)
                worst = max(worst, sum(c.n for c in counts))
    assert worst <= EVALS_OPTCOMP, worst


def test_eps_at_W_builds_a_huge_exact_W_in_gmp():
    """delta_g = 0 on the lattice u = 1.0000001: t* = W = u^(a_1 + a_2) with a_1 + a_2 = 3,184,538
    (ln(5/4) / ln u = 2,231,435.5 and ln(11/10) / ln u = 953,101.3, each rounded up), a 7.4e7-bit
    rational; in Fractions it took minutes (the fuzzer's `approx --exp-base 1.0000001 --delta-g 0`).
    Checked modulo a prime, and its size, against pow() (an independent computation)."""
    from exactdp.engines.inverse import eps_at_W
    from exactdp.numbers import RatExp

    u = F(10000001, 10000000)
    n = 3_184_538
    inv = eps_at_W([(RatExp.from_exp(u), n)], 30)
    W = inv.exp_exact
    m = 10**9 + 7
    assert W.numerator % m == pow(10000001, n, m) and W.denominator % m == pow(10**7, n, m)
    assert abs(W.numerator.bit_length() - n * math.log2(10000001)) < 2
    assert abs(W.denominator.bit_length() - n * math.log2(10**7)) < 2
    # eps_g = n ln u, enclosed
    with mpmath.workdps(50):
        ref = n * mpmath.log(mpmath.mpf(10000001) / 10**7)
        r = F(mpmath.nstr(ref, 45))
        assert inv.value.lower <= r * (1 + F(1, 10**40)) and r * (1 - F(1, 10**40)) <= inv.value.upper
