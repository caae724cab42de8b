"""The #P chain at its edges (issue 17): a constant c too close to 1 is refused before any
power is built; instances with many repeated integers run through the merged classes.

References: the chain's count for an instance whose product is not a perfect square is 0
(a balanced partition needs ``prod_P z_i = prod_notP z_i``, so ``prod z_i`` is their
square): decided here by prime exponents' parities.
"""

from __future__ import annotations

import time

import pytest
import sympy

from exactdp.cli import main as cli_main
from exactdp.errors import InvalidArgument
from exactdp.reductions.chain import run_chain


def test_c_too_close_to_one_is_refused_at_once():
    t0 = time.perf_counter()
    with pytest.raises(InvalidArgument) as ei:
        run_chain([2, 3], c="1.0000000001")  # D = ceil(log_c 6) ~ 3.6e10: p^D would never finish
    assert time.perf_counter() - t0 < 5
    e = ei.value
    assert e.parameter == "c" and "at least 1.00004" in str(e) and "D" in str(e)


def test_c_close_to_one_but_within_the_limit_runs():
    r = run_chain([2, 3, 6], c="1.001")  # D = ceil(2 ln 36 / ln 1.001) = 7169... within 1e5
    assert r.count == r.brute_force_count == 2 and r.certified


def test_many_repeated_integers_are_counted_through_merged_classes(capsys):
    z = [i % 7 + 2 for i in range(40)]  # 2..8, each 5 or 6 times
    prod = 1
    for x in z:
        prod *= x
    # 7 occurs 5 times (i = 5, 12, 19, 26, 33): prod z_i is not a square, so no balanced partition
    assert any(e % 2 for e in sympy.factorint(prod).values())
    r = run_chain(z, check=False)
    assert r.count == 0 and r.certified
    assert cli_main(["reduce", "--int-partition", ",".join(map(str, z)), "--no-brute-force"]) == 0
    assert "count from the OptComp oracle: 0 (certified)" in capsys.readouterr().out


def _no_kernel(monkeypatch):
    from exactdp.engines.mitm.kernel import MITM_KERNEL

    def boom(*a, **k):
        raise AssertionError("the OptComp kernel was built")

    monkeypatch.setattr(MITM_KERNEL, "build", boom)


def test_the_chain_is_held_to_the_limit_as_a_whole(monkeypatch):
    """Regression: 2..41 ran 4 oracle calls of 5-15 s each (32-60 s) though each was estimated
    within the limit on its own; the four calls are now held to a quarter of it each, and the
    refusal comes before any kernel is built."""
    from exactdp.engines.costs import cost_limits
    from exactdp.errors import CostTooHigh

    _no_kernel(monkeypatch)
    with cost_limits(seconds=20), pytest.raises(CostTooHigh) as ei:
        run_chain(range(2, 42), check=False)
    e = ei.value
    assert e.parameter == "Z" and "4 OptComp oracle calls" in str(e) and "over the time limit of 20 s" in str(e)
    assert e.estimate["seconds"] > 20


def test_a_sum_partition_brute_force_is_refused_by_its_estimate(monkeypatch):
    """2^14 subsets at 2000 bits: two D-th roots each, measured 3 s; estimated 16384 (10 us +
    0.12 us * 2000) = 4.1 s, refused under a limit of 1 s before any subset product is built."""
    from exactdp.engines.costs import cost_limits
    from exactdp.errors import CostTooHigh
    from exactdp.numbers import Root
    from exactdp.reductions import problems
    from exactdp.reductions.problems import SumPartition

    S = SumPartition(1000, list(range(2, 16)), Root(3, 2))
    monkeypatch.setattr(problems, "subset_products", lambda ns: (_ for _ in ()).throw(AssertionError("ran")))
    with cost_limits(seconds=1), pytest.raises(CostTooHigh) as ei:
        S.brute_force(2000)
    assert 4 < ei.value.estimate["seconds"] < 5


def test_brute_force_checks_over_the_limit_are_skipped_not_run():
    """Regression: 17 integers near 10^18 ran 62-70 s, all of it in the brute-force #SUM-PARTITION
    checks at 2134 bits (8 of them, 2^18 subsets each); now each over 1/8 of the time limit is
    recorded as refused, and the chain answers. The count is 0: the product is not a square
    (a balanced partition makes it one)."""
    import random

    from exactdp.engines.costs import cost_limits

    r = random.Random(5)
    z = [r.randint(10**17, 10**18) for _ in range(14)]
    prod = 1
    for x in z:
        prod *= x
    assert sympy.integer_nthroot(prod, 2)[1] is False
    with cost_limits(seconds=16):
        res = run_chain(z)
    assert res.count == res.brute_force_count == 0 and res.certified
    l411 = next(s for s in res.steps if s["step"] == "Lemma 4.11")
    assert "over the time limit 2 s" in l411["with_brute_force_oracle"]["refused"]
