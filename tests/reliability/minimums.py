"""The declared floors of exactdp's dependencies as exact pins (``name==floor``), one a line.

``make check-minimums`` installs these into a fresh virtual environment and runs the tests
there, so a floor in pyproject.toml is a version that was installed and tested (issue 26:
``python-flint>=0.6`` was false; 0.6.0 and 0.7.1 lack ``fmpz_poly.right_shift``).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[2]


def floors() -> dict[str, str]:
    """``{name: floor}`` for every dependency of ``[project]``; a dependency without a ``>=`` floor is an error."""
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    out = {}
    for d in deps:
        m = re.fullmatch(r"([A-Za-z0-9_.-]+)\s*>=\s*([0-9][0-9A-Za-z.]*)", d.strip())
        if m is None:
            raise SystemExit(f"dependency without a plain '>=' floor: {d!r}")
        out[m.group(1)] = m.group(2)
    return out


if __name__ == "__main__":
    sys.stdout.write("".join(f"{name}=={floor}\n" for name, floor in floors().items()))
