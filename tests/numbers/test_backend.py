"""The one backend door (issue 22; STYLE.md item 5): only ``exactdp/_backend.py`` imports
FLINT or gmpy2, and importing it (or the numbers layer) loads neither."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PKG = ROOT / "exactdp"

#: files that still import a backend directly (none: every import goes through the door)
PENDING: set = set()


def _backend_imports(path: Path) -> list[str]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        else:
            continue
        out += [f"line {node.lineno}: {n}" for n in names if n.split(".")[0] in ("flint", "gmpy2")]
    return out


def test_only_the_backend_imports_flint_and_gmpy2():
    bad = {}
    for p in sorted(PKG.rglob("*.py")):
        rel = str(p.relative_to(ROOT))
        if rel == "exactdp/_backend.py" or rel in PENDING:
            continue
        found = _backend_imports(p)
        if found:
            bad[rel] = found
    assert not bad, bad


def test_the_pending_list_is_not_stale():
    assert all(_backend_imports(ROOT / rel) for rel in PENDING)


def test_the_door_loads_a_backend_on_first_use_only():
    code = ("import sys\n"
            "import exactdp._backend as b, exactdp.numbers.enclosure, exactdp.numbers.expnum, exactdp.events\n"
            "print(sorted(m for m in ('flint', 'gmpy2') if m in sys.modules))\n"
            "b.mpz(3)\n"
            "print(sorted(m for m in ('flint', 'gmpy2') if m in sys.modules))\n"
            "with b.workprec(80):\n    assert b.current_prec() == 80\n"
            "print(sorted(m for m in ('flint', 'gmpy2') if m in sys.modules), b.current_prec() != 80)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[:3] == ["[]", "['gmpy2']", "['flint', 'gmpy2'] True"]


def test_an_unknown_name_is_an_attribute_error():
    import exactdp._backend as b

    try:
        b.no_such_name  # noqa: B018
    except AttributeError as e:
        assert "no_such_name" in str(e)
    else:
        raise AssertionError("no AttributeError")
