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
