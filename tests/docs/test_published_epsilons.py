"""docs/published-epsilons.md: the page agrees with its generator and with the accountant now.

* The verdict rule on hand-made enclosures (rounding of the printed number, conservative and
  optimistic margins rounded down).
* Every row and source of ``docs/tools/published_epsilons.py`` is on the page, at least ten
  sources, every printed number a decimal.
* Staleness: for the cheap rows the accountant's enclosure now meets the page's (both are
  certified, so a page computed for other parameters would miss it) and gives the page's verdict.
* The single-Gaussian row against the closed form of the Gaussian mechanism's privacy profile
  (Balle & Wang 2018, Theorem 8), computed with mpmath: an independent algorithm.
"""

from __future__ import annotations

import re
import sys
from fractions import Fraction

import pytest
from doc_blocks import ROOT

sys.path.insert(0, str(ROOT / "docs" / "tools"))
import published_epsilons as pe  # noqa: E402

PAGE = ROOT / "docs" / "published-epsilons.md"


def _interval(text: str) -> tuple[Fraction, Fraction]:
    m = re.fullmatch(r"\[([^,]+), ([^\]]+)\]", text)
    assert m, text
    return Fraction(m.group(1)), Fraction(m.group(2))


def _page() -> dict:
    return pe.page_rows(PAGE.read_text())


def test_half_unit():
    assert pe.half_unit("2.92") == Fraction(5, 1000)
    assert pe.half_unit("1") == Fraction(1, 2)
    assert pe.half_unit("4.243484012034273e-06") == Fraction(5, 10**22)


@pytest.mark.parametrize("printed, lo, hi, tol, expected", [
    ("2.92", "2.91", "2.915", None, "reproduces"),             # 2.92 - 0.005 <= 2.915
    ("2.92", "2.90", "2.91", None, "conservative by 0.3 %"),   # 2.92 / 2.91 = 1.00343...
    ("1.00", "0.29404", "0.29412", None, "conservative by 239.9 %"),  # 1 / 0.29412 = 3.39997...
    ("6.6", "6.7", "6.8", "0", "optimistic by 1.4 % (erratum)"),      # 1 - 6.6 / 6.7 = 0.01492...
    ("1", "1", "1.0001", "0", "reproduces"),
    ("1", "0.9999", "0.99995", "0", "conservative by 0 %"),   # 1 / 0.99995 - 1 = 5.0e-5
])
def test_verdict(printed, lo, hi, tol, expected):
    assert pe.verdict(printed, Fraction(lo), Fraction(hi), tol) == expected


def test_page_lists_every_row_and_enough_sources():
    rows = _page()
    assert set(rows) == {r.key for r in pe.ROWS}
    keys = {s.key for s in pe.SOURCES}
    assert {r.source for r in pe.ROWS} == keys and len(keys) >= 10
    assert len({r.key for r in pe.ROWS}) == len(pe.ROWS)
    for r in pe.ROWS:
        Fraction(r.printed)  # a decimal, as printed
        lo, hi = _interval(rows[r.key][0])
        assert lo <= hi
        # the page's ends are outward-rounded: the kind of verdict must survive the rounding
        assert rows[r.key][1].split()[0] == pe.verdict(r.printed, lo, hi, r.tol).split()[0]


@pytest.mark.parametrize("row", [r for r in pe.ROWS if r.cheap], ids=lambda r: r.key)
def test_cheap_rows_not_stale(row):
    text, v = _page()[row.key]
    lo, hi = _interval(text)
    e = pe.enclosure(row)
    assert e.lower <= hi and lo <= e.upper, (text, e.text(8))
    assert pe.verdict(row.printed, e.lower, e.upper, row.tol) == v


def test_single_gaussian_row_against_the_closed_form():
    mp = pytest.importorskip("mpmath")
    row = next(r for r in pe.ROWS if r.key == "dpa-gaussian")
    (sigma, q, steps), = row.parts
    assert q is None and steps == 1
    lo, hi = _interval(_page()[row.key][0])
    with mp.workdps(40):
        s = mp.mpf(sigma)

        def delta(eps):
            return mp.ncdf(-eps * s + 1 / (2 * s)) - mp.e ** eps * mp.ncdf(-eps * s - 1 / (2 * s))

        target = mp.mpf(row.delta)
        # delta(eps) decreases in eps: the optimal epsilon lies in [lo, hi] iff these hold
        assert delta(mp.mpf(lo.numerator) / lo.denominator) >= target
        assert delta(mp.mpf(hi.numerator) / hi.denominator) <= target
