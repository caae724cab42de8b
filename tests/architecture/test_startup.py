"""The first computation loads only what its kernel needs (issue 22, start-up).

``import exactdp`` loads no numeric module; every public name still resolves through the
lazy facade; a small certified ``exactdp delta`` call (the homogeneous kernel in Arb balls)
loads FLINT and nothing else of the numeric stack (no NumPy, gmpy2, mpmath, SciPy, SymPy);
NumPy's stand-in in the backend door loads NumPy at its first attribute and is then NumPy's
own objects. Each check runs in a fresh interpreter (``sys.modules`` of this one is shared
by every test).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("flint", "gmpy2", "mpmath", "numpy", "scipy", "sympy")


def _loaded_after(code: str) -> tuple[list[str], str]:
    """(heavy modules in ``sys.modules`` after ``code`` ran, its standard output), in a fresh
    interpreter started in the repository root (so that this checkout is the one imported)."""
    probe = code + "\nimport sys\nprint(sorted({m.split('.')[0] for m in sys.modules} & set(%r)))\n" % (HEAVY,)
    r = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True)
    lines = r.stdout.strip().splitlines()
    return eval(lines[-1]), "\n".join(lines[:-1])  # noqa: S307 (our own printed list)


def test_import_exactdp_loads_no_numeric_module():
    loaded, _ = _loaded_after("import exactdp")
    assert loaded == []


def test_every_public_name_imports_from_the_facade():
    code = ("import exactdp\n"
            "for n in exactdp.__all__:\n"
            "    exec(f'from exactdp import {n}')\n"
            "    assert globals()[n] is getattr(exactdp, n), n\n"
            "print(len(exactdp.__all__))")
    _, out = _loaded_after(code)
    import exactdp

    assert out == str(len(exactdp.__all__))


def test_a_small_certified_delta_loads_flint_only():
    code = ("from exactdp.cli import main\n"
            "try:\n    main(['delta', '--eps', '0.1', '-k', '10', '--eps-g', '0.5'])\n"
            "except SystemExit as e:\n    assert not e.code\n")
    loaded, out = _loaded_after(code)
    assert loaded == ["flint"], out
    # the answer still encloses delta_g of 10 x (0.1, 0) at eps_g = 0.5, by Kairouz-Oh-
    # Viswanath's sum over the number l of "bad" outcomes, in mpmath at 60 digits
    import mpmath

    with mpmath.workdps(60):
        e, eg, k = mpmath.mpf(1) / 10, mpmath.mpf(1) / 2, 10
        true = sum(mpmath.binomial(k, j) * max(mpmath.mpf(0), mpmath.exp(e * (k - j)) - mpmath.exp(eg + e * j))
                   for j in range(k + 1)) / (1 + mpmath.exp(e)) ** k
        line = next(x for x in out.splitlines() if x.startswith("delta_g in ["))
        lo, hi = (mpmath.mpf(v) for v in line[len("delta_g in ["):-1].split(", "))
        assert lo <= true <= hi and hi - lo < mpmath.mpf(10) ** -30


def test_the_numpy_stand_in_loads_numpy_at_first_use():
    code = ("import sys\n"
            "from exactdp._backend import np\n"
            "assert 'numpy' not in sys.modules\n"
            "z = np.zeros(3)\n"
            "import numpy\n"
            "assert np.zeros is numpy.zeros and type(z) is numpy.ndarray\n")
    loaded, _ = _loaded_after(code)
    assert loaded == ["numpy"]
