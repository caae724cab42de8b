"""Packaging (issue 26): every dependency has a plain floor (installed and tested by
``make check-minimums``), the floors are the ones measured, the package is typed, and the
metadata is complete."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import tomllib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import minimums  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def test_every_dependency_has_a_tested_floor():
    f = minimums.floors()
    # python-flint 0.6.0 and 0.7.1 crash on the README's first example ('fmpz_poly' object has no
    # attribute 'right_shift'); 0.8.0 with gmpy2 2.1.5, numpy 1.26.4, sympy 1.12, mpmath 1.3.0 and
    # threadpoolctl 3.0.0 passes the tests (make check-minimums)
    assert f["python-flint"] == "0.8"
    assert set(f) == {"python-flint", "gmpy2", "mpmath", "sympy", "numpy", "threadpoolctl"}


def test_metadata_and_typing():
    p = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert p["authors"] and p["keywords"] and p["classifiers"]
    assert "Typing :: Typed" in p["classifiers"]
    assert (ROOT / "exactdp" / "py.typed").exists()
    assert p["requires-python"] == ">=3.11"  # python-flint 0.8 has no wheels for 3.10
