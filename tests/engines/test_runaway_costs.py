"""The runaway times of the full fuzz run (issue 17), each fixed at its cause.

* ``prod (1 - delta_i)`` of 4e5 mechanisms was built by ``Fraction`` products whose gcds
  took 45 s (and 108 s for 1e6 mechanisms) before the kernel's refusal; it is now one GMP
  power per distinct delta, and refused up front past ``MAX_DELTA_PRODUCT_BITS``.
* Mechanisms with eps = 0 no longer enter the kernel: each doubles ``S(t)`` and ``Z`` alike.
  Reference: Murtagh-Vadhan Theorem 1.5 over all subsets in exact rationals
  (``subset_formula_delta``), and the identity ``delta_g(C + m x (0, d)) =
  1 - (1 - d)^m (1 - delta_g(C))`` (a pure-delta mechanism is a coin flip that reveals
  everything with probability d).
* Rational eps whose exact keys need more than 64 bits (eps = 1e309 next to 1/4, or a
  denominator of 10^25): the meet in the middle and the grouped kernel decide every class
  by exact Python integer keys instead of floats that overflow or tie. Reference: the
  subset sum of Theorem 1.5 in mpmath at 400 bits, and the bound of ``test_huge_values``.
* The fuzz command lines themselves, with the workers' time limit for refusals (20 s).
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import mpmath
import pytest

from exactdp import CostTooHigh, composed_delta, mechanisms, optcomp
from exactdp.cli import main as cli_main
from exactdp.events import MAX_DELTA_PRODUCT_BITS
from exactdp_proofs._reference import subset_formula_delta


def test_delta_product_is_the_exact_product():
    ms = mechanisms(eps=["1/3", "0.25", "0", "1"], delta=["0.001", "1e-6", "0", "1/3"], k=3)
    naive = F(1)
    for m in ms:
        naive *= 1 - m.delta
    assert ms.delta_product == naive
    P = ms.delta_product
    assert P.numerator == naive.numerator and P.denominator == naive.denominator  # lowest terms


def test_delta_product_beyond_its_limit_is_refused_up_front():
    ms = mechanisms(exp_eps=["5/4", "1"], delta=["1e-6", "1e-6"], k=2_000_001)
    with pytest.raises(CostTooHigh) as e:
        ms.delta_product
    assert e.value.parameter == "delta" and e.value.limit == MAX_DELTA_PRODUCT_BITS
    assert e.value.estimate > MAX_DELTA_PRODUCT_BITS


@pytest.mark.parametrize("method", ["auto", "grouped", "mitm", "brute", "lattice"])
def test_eps_zero_mechanisms_against_the_subset_formula(method):
    exp = ["3/2", "1", "9/4", "1"]  # 9/4 = (3/2)^2: a lattice too
    dl = ["1/100", "1/1000", "0", "1/7"]
    ms = mechanisms(exp_eps=exp, delta=dl, k=2)
    ws = [m.w.exact() for m in ms]
    ds = [m.delta for m in ms]
    W = F(1)
    for w in ws:
        W *= w
    for t in [F(1), F(3, 2), F(9, 4), F(2), F(27, 8), W / 2, W]:
        r = composed_delta(ms, exp_eps_g=t, engine="exact", method=method)
        assert r.exact == subset_formula_delta(ws, ds, t), (method, t)


def test_pure_delta_mechanisms_are_a_coin_flip_at_scale():
    # 2001 x (eps = 0.1) plus 2001 x (eps = 0, delta = 1e-6): the kernel stays homogeneous
    base = mechanisms(exp_eps=["11/10"], delta=["1e-6"], k=2001)
    full = mechanisms(exp_eps=["11/10", "1"], delta=["1e-6", "1e-6"], k=2001)
    q = (1 - F(1, 10**6)) ** 2001
    for t in [F(1), F(3), F(100)]:
        rb = composed_delta(base, exp_eps_g=t, engine="exact")
        rf = composed_delta(full, exp_eps_g=t, engine="exact")
        assert rf.method in ("homogeneous", "windowed")
        assert rf.exact == 1 - q * (1 - rb.exact)


def _mp_delta(eps: list, eps_g: F, bits: int = 400) -> mpmath.mpf:
    """Theorem 1.5 over all subsets (pure eps), in mpmath: an independent reference."""
    with mpmath.workprec(bits):
        w = [mpmath.exp(mpmath.mpf(e.numerator) / e.denominator) for e in eps]
        t = mpmath.exp(mpmath.mpf(eps_g.numerator) / eps_g.denominator)
        Z = mpmath.fprod(1 + x for x in w)
        s = mpmath.mpf(0)
        for S in itertools.product([0, 1], repeat=len(w)):
            ws = mpmath.fprod(x for x, b in zip(w, S) if b)
            wn = mpmath.fprod(x for x, b in zip(w, S) if not b)
            s += max(mpmath.mpf(0), ws - t * wn)
        return s / Z


@pytest.mark.parametrize("method", ["mitm", "grouped"])
def test_rational_eps_whose_keys_exceed_64_bits(method):
    # a denominator of 3 * 10^25: the exact keys are Python integers; floats cannot tell a from 1/3
    a, b = F(1, 3) + F(1, 10**25), F(1, 2)
    ms = mechanisms(eps=[a, b], k=3)
    eps = [m.eps for m in ms]
    for eg in [F(0), a - b + a, 2 * a - b, F(1, 3) - F(1, 6), 3 * a - 3 * b + 2 * b, b + a - F(1, 10**30)]:
        if eg < 0:
            continue
        r = composed_delta(ms, eps_g=eg, method=method, digits=25)
        ref = _mp_delta(eps, eg)
        with mpmath.workprec(400):
            tol = mpmath.mpf(10) ** -60
            lo = mpmath.mpf(r.value.lower.numerator) / r.value.lower.denominator
            hi = mpmath.mpf(r.value.upper.numerator) / r.value.upper.denominator
            assert lo <= ref * (1 + tol) and ref <= hi * (1 + tol), (eg, lo, ref, hi)


@pytest.mark.parametrize("eps", [["0.05", "1e30"], ["0.25", "1e309", "0.1"], ["2", "0.554476011137e317"]])
def test_huge_eps_next_to_small_ones_by_exact_keys(eps):
    # one mechanism of eps = E >= 1e30 alone gives delta_g(1/4) = (e^E - e^(1/4)) / (1 + e^E) > 1 - 10^-20,
    # and composing more can only raise it (test_huge_values)
    ms = mechanisms(eps=eps, k=1000 if len(eps) == 2 else 100)
    r = composed_delta(ms, eps_g="1/4", method="mitm", digits=20)
    assert r.value.upper <= 1 and r.value.lower >= 1 - F(1, 10**19)


def test_optcomp_with_pure_delta_mechanisms_keeps_the_homogeneous_kernel():
    full = mechanisms(eps=["0.01", "0"], delta=["0", "1e-7"], k=100_000)
    base = mechanisms(eps=["0.01"], k=100_000)
    q = (1 - F(1, 10**7)) ** 100_000
    # 1 - q ~ 0.01 of delta is spent by the pure-delta mechanisms: eps_g is infinite below it
    assert optcomp(full, delta_g="1e-5").value.upper == float("inf")
    r = optcomp(full, delta_g="0.02")
    ref = optcomp(base, delta_g=1 - (1 - F(2, 100)) / q)  # delta_g(full) = 1 - q (1 - delta_g(base))
    assert r.method in ("homogeneous", "windowed")
    assert r.value.lower <= ref.value.upper and ref.value.lower <= r.value.upper
    assert r.value.upper - r.value.lower < F(1, 10**25)


FUZZ_CASES = [
    "delta --exp-eps 5/4,1 --delta 1e-6,1e-6 -k 200001 --eps-g 0.352007820733e140 --json",
    "delta --eps 0.25,1e309,0.1 -k 1000 --eps-g 0.1",
    "epsilon --eps 1/3,0.25,0,1/3,1 --delta 0.001 -k 200001 --delta-g 1e-3",
    "epsilon --eps 0,1/3,0,1,2,0.25,2,0.25,0.05,1/3,2,1/3 --delta 0,1/100,0.001,1e-6,1/100,1/100,1e-6,1e-6,0,0.001,"
    "1e-6,0 -k 130000 --delta-g 1e-3 --engine exact --method mitm",
    "certify --eps 2,1e309," + "1" + "0" * 120 + " -k 1000 --claim-eps 1 --claim-delta 1/100",
    "delta --eps 1," + "1" + "0" * 180 + ",0,0.25,0.25 -k 1000 --eps-g 0.05",
    "approx --eps 1,2,0.1,2,1/3,0.05,0.1,0,1/3,0.25,2,0.05 -k 100 --delta-g 1e-6 --eta 1 --width 1e-3",
    # a 300-digit lattice degree printed whole made a 700-character line
    "epsilon --eps 1/3,1e309,0.05 -k 1 --delta-g 1e-3 --engine auto --method lattice-balls",
    "epsilon --eps 1/3,1e309,0.05 -k 1 --delta-g 1e-3 --method lattice",
]


@pytest.mark.parametrize("line", FUZZ_CASES)
def test_the_fuzzers_runaway_lines_answer_or_refuse_at_once(line, capsys, monkeypatch):
    monkeypatch.setenv("EXACTDP_MAX_SECONDS", "20")  # the fuzz workers' limit
    try:
        rc = cli_main(line.split())
    except SystemExit as e:
        rc = e.code
    out, err = capsys.readouterr()
    assert rc in (0, 2) and "Traceback" not in err
    if rc == 2:
        assert err.count("\n") == 1 and err.startswith("exactdp: error: ") and out == "" and len(err) <= 600
    else:
        assert "delta_g" in out
