"""Meet in the middle at scale: the vector form of :mod:`exactdp.engines.mitm` (issue 14).

Every value is checked against an independent computation:

* brute force over all ``2^k`` subsets in mpmath at 1100 bits (``subset_formula_delta`` of
  ``exactdp_proofs._reference``) for k <= 13: random 17-digit decimal eps, some
  ``delta_i > 0``, repeated values, ``eps = 0``, and thresholds exactly at a breakpoint;
* the exact rational meet-in-the-middle kernel (the per-class form, gmpy2) for rational
  ``e^eps`` up to k = 22, delta_g and OptComp;
* for k = 40 (and k = 48 under ``-m slow``): the symmetry ``S(t) = (1 - t) Z + t S(1/t)``
  (every subset against its complement, at thresholds on both sides of 1), monotonicity in
  eps_g, the inverse against delta_g, and the lattice sandwich (:func:`exactdp.approx.optcomp_bounds`,
  exact lattice kernels) containing the certified OptComp;
* the Dask split (a 2-worker local cluster) gives results identical to the serial ones.

No timing is asserted (``benchmarks/bench_mitm.py`` measures).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from fractions import Fraction as F

import mpmath
import pytest

from exactdp import Mechanism, composed_delta, optcomp
from exactdp._backend import arb, workprec
from exactdp.engines.base import Prepared, merge_by_w
from exactdp.engines.family import ENGINE_TIERS
from exactdp.engines.fields import ArbField
from exactdp.engines.mitm import MITM, VEC_MIN_CLASSES, half_classes, split_groups, vec_default
from exactdp.errors import CostTooHigh, InvalidArgument
from exactdp.events import as_composition
from exactdp.numbers import RatExp
from exactdp_proofs._reference import subset_formula_delta

CERT = ENGINE_TIERS["certified"]


def decimal_eps(k: int, seed: int, lo: float = 0.01, hi: float = 0.5) -> list[str]:
    """k floats' shortest reprs (17 significant digits or fewer), as the issue's cases."""
    rng = random.Random(seed)
    return [repr(rng.uniform(lo, hi)) for _ in range(k)]


def vector_prep(ms) -> Prepared:
    """A prepared composition whose kernel is meet in the middle in its vector form."""
    comp = as_composition(ms)
    st = MITM(merge_by_w(comp), vector=True)
    assert st.vector
    return Prepared(comp, struct=st)


def brute_delta(eps: list[str], deltas: list[str], eps_g: str, prec: int = 1100) -> mpmath.mpf:
    with mpmath.workprec(prec):
        ws = [mpmath.exp(mpmath.mpf(F(e).numerator) / F(e).denominator) for e in eps]
        ds = [mpmath.mpf(F(d).numerator) / F(d).denominator for d in deltas]
        t = mpmath.exp(mpmath.mpf(F(eps_g).numerator) / F(eps_g).denominator)
        return subset_formula_delta(ws, ds, t)


def contains(enc, x: mpmath.mpf, slack: float = 1e-300) -> bool:
    with mpmath.workprec(1100):
        lo = mpmath.mpf(enc.lower.numerator) / enc.lower.denominator
        hi = mpmath.mpf(enc.upper.numerator) / enc.upper.denominator
        return lo - slack <= x <= hi + slack


# --------------------------------------------------------------------------
# brute force, k <= 13


BRUTE = [
    # (eps, deltas, eps_g)
    (decimal_eps(12, 1), ["0"] * 12, "1"),
    (decimal_eps(12, 2), ["1e-6" if i % 3 == 0 else "0" for i in range(12)], "0.5"),
    (decimal_eps(13, 3, 0.001, 2.0), ["0"] * 13, "3.25"),
    # repeated values (classes with binomial counts), and eps = 0 mechanisms
    (decimal_eps(5, 4) * 2 + ["0", "0", "0.25"], ["0"] * 10 + ["0.01", "0", "0"], "0.75"),
    # eps_g = 0: t = 1, where every subset meets its complement at the threshold
    (decimal_eps(11, 5), ["0"] * 11, "0"),
    # values with exact relations (0.1 + 0.2 = 0.3) and a threshold on a breakpoint: eps_g =
    # (0.1 + 0.2 + 0.3) - (0.15 + 0.45) = 0 and 0.3 + 0.15 - ... pairs tie exactly in the band
    (["0.1", "0.2", "0.3", "0.15", "0.45", "0.05", "0.6", "0.35", "0.25", "0.4"], ["0"] * 10, "0.5"),
]


@pytest.mark.parametrize("eps,deltas,eps_g", BRUTE, ids=[f"case{i}" for i in range(len(BRUTE))])
def test_vector_form_equals_brute_force(eps, deltas, eps_g):
    ms = [Mechanism(eps=e, delta=d) for e, d in zip(eps, deltas)]
    prep = vector_prep(ms)
    r = CERT.delta(prep, RatExp.from_eps(F(eps_g)), digits=40)
    ref = brute_delta(eps, deltas, eps_g)
    assert contains(r.value, ref), (r.value.decimal(45), mpmath.nstr(ref, 45))
    assert r.value.accurate(40)
    # the public call (the default kernel choice) agrees
    p = composed_delta(ms, eps_g=eps_g, engine="certified", method="mitm", digits=40)
    assert contains(p.value, ref)


def test_large_counts_against_the_grouped_kernel():
    # three values of 60 copies each: factors C(n, m) p^m q^(n - m) by their ratio recurrence
    from exactdp import mechanisms

    ms = mechanisms(eps=["0.0131", "0.0217", "0.0559"], k=60)
    g = composed_delta(ms, eps_g="1.5", engine="certified", method="grouped", digits=40).value
    v = CERT.delta(vector_prep(ms), RatExp.from_eps(F(3, 2)), digits=40).value
    assert v.lower <= g.upper and g.lower <= v.upper and v.accurate(40)


def test_breakpoint_ties_are_decided_exactly():
    # t = W_S / W_notS for a subset S: a pair at the threshold exactly, in the band; max(0, 0) = 0,
    # so S is continuous there and the enclosure is as narrow as anywhere else
    eps = decimal_eps(10, 6)
    S = {0, 3, 4, 8}
    eps_g = sum(F(e) for i, e in enumerate(eps) if i in S) - sum(F(e) for i, e in enumerate(eps) if i not in S)
    if eps_g < 0:
        eps_g = -eps_g
    ms = [Mechanism(eps=e) for e in eps]
    r = CERT.delta(vector_prep(ms), RatExp.from_eps(eps_g), digits=40)
    ref = brute_delta(eps, ["0"] * 10, str(eps_g))
    assert contains(r.value, ref) and r.value.accurate(40)


def test_many_exact_ties_go_to_the_per_class_form(monkeypatch):
    # eps in {0.1, 0.2, 0.3} (0.1 + 0.2 = 0.3) and eps_g = 0: many pairs tie exactly at t = 1; past
    # VEC_MAX_BAND band pairs an evaluation goes to the per-class form, which merges them
    import exactdp.engines.mitm.vector as mitm

    eps = ["0.1", "0.2", "0.3"] * 4
    ms = [Mechanism(eps=e) for e in eps]
    ref = brute_delta(eps, ["0"] * 12, "0")
    prep = vector_prep(ms)
    a = CERT.delta(prep, RatExp.from_eps(F(0)), digits=40).value
    monkeypatch.setattr(mitm, "VEC_MAX_BAND", 0)
    prep = vector_prep(ms)
    b = CERT.delta(prep, RatExp.from_eps(F(0)), digits=40).value
    assert "_scalar_done" in prep.struct.__dict__  # it did go to the per-class form
    assert contains(a, ref) and contains(b, ref) and a.accurate(40) and b.accurate(40)


def test_kernel_values_and_sigma_against_the_per_class_form():
    # S(t) and sigma(t) of the vector form against the per-class form in the same balls
    eps = decimal_eps(14, 7)
    groups = merge_by_w(as_composition([Mechanism(eps=e) for e in eps]))
    a, b = MITM(groups, vector=False), MITM(groups, vector=True)
    for eg in ["0", "0.3", "1.7", "3"]:
        t = RatExp.from_eps(F(eg))
        with workprec(200):
            f = ArbField(200)
            s1, g1 = a.evaluate(f, t)
            s2, g2 = b.evaluate(f, t)
            assert s1.overlaps(s2) and g1.overlaps(g2)
            Z = arb(1)
            for v, n in groups:
                Z *= (1 + v.arb(200)) ** n
            assert s2.rad() <= Z * arb(2) ** -150  # the fixed point's error is relative to Z
        # the float model the search starts from
        x1, x2 = a.approx(float(F(eg))), b.approx(float(F(eg)))
        assert x1[0] == pytest.approx(x2[0], rel=1e-9, abs=1e-9) and x1[1] == pytest.approx(x2[1], rel=1e-6, abs=1e-9)


# --------------------------------------------------------------------------
# the exact kernel, rational e^eps, k up to 22


@pytest.mark.parametrize("k,seed", [(18, 1), (22, 2)])
def test_vector_form_contains_the_exact_answers(k, seed):
    rng = random.Random(seed)
    ms = [Mechanism(exp_eps=1 + F(rng.randint(1, 10**6), 10**6), delta=F(1, 10**8) if i % 5 == 0 else 0)
          for i in range(k)]
    for t in ["3/2", "7/2"]:
        ex = composed_delta(ms, exp_eps_g=t, engine="exact", method="mitm").value.exact
        ce = CERT.delta(vector_prep(ms), RatExp.from_exp(F(t)), digits=30).value
        assert ce.lower <= ex <= ce.upper and ce.accurate(30)
    for dg in ["1e-3", "1e-7"]:
        ex = optcomp(ms, dg, engine="exact", method="mitm")
        ce = CERT.epsilon(vector_prep(ms), F(dg), digits=30).value
        assert ex.exp_exact is not None
        # ln of the exact t*: its enclosure to 40 digits meets the certified one
        assert ce.lower <= ex.value.upper and ex.value.lower <= ce.upper and ce.accurate(29)


def test_default_choice_of_the_form():
    assert not vec_default([(RatExp.from_eps(F(i, 1000)), 1) for i in range(1, 11)])  # small halves
    big = [(RatExp.from_eps(F(i, 1000)), 1) for i in range(1, 31)]
    left, right = split_groups(big)
    assert max(half_classes(left), half_classes(right)) >= VEC_MIN_CLASSES and vec_default(big)
    assert MITM(big).vector and not MITM(big, vector=False).vector


# --------------------------------------------------------------------------
# large k: identities, monotonicity and the lattice sandwich


def _large_checks(k: int, seed: int):
    from exactdp.approx import optcomp_bounds

    eps = decimal_eps(k, seed)
    ms = [Mechanism(eps=e, delta="1e-9" if i % 11 == 0 else 0) for i, e in enumerate(eps)]
    prep = Prepared(as_composition(ms), "mitm")
    st = prep.struct
    assert st.vector
    # S(t) = (1 - t) Z + t S(1/t): subsets against complements, thresholds on both sides of 1
    with workprec(160):
        f = ArbField(160)
        for x in [F(1, 3), F(2), F(5)]:
            t, ti = RatExp.from_eps(x), RatExp.from_eps(-x)
            s, _ = st.evaluate(f, t)
            si, _ = st.evaluate(f, ti)
            tv = t.arb(160)
            rhs = (1 - tv) * prep.Z(f) + tv * si
            assert s.overlaps(rhs) and s.rad() < abs(s) * arb(2) ** -100
    # delta_g decreasing in eps_g; exact at eps_g >= sum eps_i (one prepared kernel for all)
    d = [CERT.delta(prep, RatExp.from_eps(F(x)), digits=30).value for x in ["2", "2.001", "4"]]
    assert d[0].upper > d[0].lower > d[1].upper > d[1].lower > d[2].upper
    P = as_composition(ms).delta_product
    top = CERT.delta(prep, RatExp.from_eps(sum(F(e) for e in eps)), digits=30).value
    assert top.exact == 1 - P
    # OptComp: delta_g at its ends brackets the target; inside the lattice sandwich
    dg = F(1, 10**6)
    r = CERT.epsilon(prep, dg, digits=30).value
    assert r.accurate(29)
    lo = CERT.delta(prep, RatExp.from_eps(r.lower), digits=30).value
    hi = CERT.delta(prep, RatExp.from_eps(r.upper), digits=30).value
    assert hi.lower <= dg <= lo.upper and hi.upper <= lo.lower
    b = optcomp_bounds(ms, dg, width="1e-3")
    assert b.lower <= r.lower and r.upper <= b.upper


def test_k40_identities_and_sandwich():
    _large_checks(40, 11)


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("EXACTDP_SLOW", "") != "full", reason="k = 48: about a minute (EXACTDP_SLOW=full)")
def test_k48_identities_and_sandwich():
    _large_checks(48, 3)


# --------------------------------------------------------------------------
# Dask: identical to serial


def test_dask_split_is_identical_to_serial():
    pytest.importorskip("dask.distributed")
    eps = decimal_eps(26, 12)
    ms = [Mechanism(eps=e, delta="1e-7" if i % 4 == 0 else 0) for i, e in enumerate(eps)]
    assert Prepared(as_composition(ms), "mitm").struct.vector
    a = composed_delta(ms, eps_g="1.5", engine="certified")
    b = optcomp(ms, "1e-5", engine="certified")
    c = composed_delta(ms, eps_g="1.5", engine="certified", workers=2)
    d = optcomp(ms, "1e-5", engine="certified", workers=2)
    assert (a.value.lower, a.value.upper, a.prec) == (c.value.lower, c.value.upper, c.prec)
    assert (b.value.lower, b.value.upper, b.prec) == (d.value.lower, d.value.upper, d.prec)
    # an existing scheduler: each worker builds its own form (no shared folder)
    from dask.distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        e = optcomp(ms, "1e-5", engine="certified", scheduler=cluster.scheduler_address)
    assert (b.value.lower, b.value.upper, b.prec) == (e.value.lower, e.value.upper, e.prec)


def test_dask_options_are_validated():
    ms = [Mechanism(eps=e) for e in decimal_eps(4, 1)]
    with pytest.raises(InvalidArgument) as ei:
        composed_delta(ms, eps_g=1, workers=0)
    assert ei.value.parameter == "workers"
    with pytest.raises(InvalidArgument):
        optcomp(ms, "1e-6", workers=2, scheduler="tcp://127.0.0.1:1")
    with pytest.raises(InvalidArgument):
        optcomp(ms, "1e-6", scheduler="")
    # another kernel (grouped, four values): the options change nothing
    assert composed_delta(ms, eps_g=1).value == composed_delta(ms, eps_g=1, workers=1).value


def test_cli_flags(capsys):
    from exactdp.cli import main

    args = ["delta", "--eps", ",".join(decimal_eps(6, 2)), "--eps-g", "0.5", "--engine", "certified"]
    assert main(args) == 0
    serial = capsys.readouterr().out
    assert main(args + ["--workers", "1"]) == 0
    assert capsys.readouterr().out == serial
    with pytest.raises(SystemExit) as ei:
        main(args + ["--workers", "0"])
    assert ei.value.code == 2
    err = capsys.readouterr().err
    assert "--workers must be an integer in [1, 64]" in err and "Traceback" not in err


# --------------------------------------------------------------------------
# the cost model: refusals up front, and the estimate against a measured peak


def test_refusal_beyond_the_reach_is_up_front():
    ms = [Mechanism(eps=e) for e in decimal_eps(56, 3)]  # 2^28 classes per half
    with pytest.raises(CostTooHigh) as ei:
        composed_delta(ms, eps_g=3, engine="certified", method="mitm")
    e = ei.value
    assert e.estimate["bytes"] > 2 * 2**30 and "meet in the middle" in str(e) and e.alternative


CHILD = r"""
import json, sys
def hwm():
    for line in open('/proc/self/status'):
        if line.startswith('VmHWM'):
            return int(line.split()[1]) * 1024
from exactdp import Mechanism, optcomp
from exactdp.engines import Prepared
from exactdp.engines.costs import EVALS_OPTCOMP
from exactdp.events import as_composition
from exactdp.numbers import digits_to_bits
ms = [Mechanism(eps=e) for e in json.loads(sys.argv[1])]
prep = Prepared(as_composition(ms), "mitm")
b, e = prep.struct.estimate("arb", digits_to_bits(30) + 32)
base = hwm()
optcomp(ms, "1e-6", engine="certified", method="mitm")
print(json.dumps({"peak": hwm() - base, "estimate": b.then(e, EVALS_OPTCOMP).bytes, "vector": prep.struct.vector}))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_estimate_bounds_the_measured_peak_memory():
    p = subprocess.run([sys.executable, "-c", CHILD, json.dumps(decimal_eps(36, 5))], capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    r = json.loads(p.stdout.strip().splitlines()[-1])
    assert r["vector"] and r["peak"] <= r["estimate"] <= max(40 * r["peak"], 50 * 2**20), r
