"""docs/testing.md shows real output: its doctest blocks run, and the dp_accounting example runs with
pytest and reports dp_accounting 0.6's unsound answers (skipped, saying so, when dp_accounting is
not installed)."""

from __future__ import annotations

import doctest
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "testing.md"
_FENCE = re.compile(r"^```(?P<lang>[A-Za-z]*)\n(?P<body>.*?)^```$", re.M | re.S)


def _blocks():
    text = DOC.read_text(encoding="utf-8")
    # the marker lines just before a block (a page's example may carry two: what it is, and the
    # docs-test marker of tests/docs/doc_blocks.py)
    return [("\n".join(text[: m.start()].rstrip().rsplit("\n", 2)[-2:]), m.group("lang"), m.group("body"))
            for m in _FENCE.finditer(text)]


def test_doctest_blocks():
    runner = doctest.DocTestRunner(optionflags=0)
    parser = doctest.DocTestParser()
    globs: dict = {}
    report: list[str] = []
    n = 0
    for _, lang, body in _blocks():
        if lang == "python" and ">>>" in body:
            t = parser.get_doctest(body, globs, "testing.md", str(DOC), 0)
            n += len(t.examples)
            runner.run(t, out=report.append, clear_globs=False)
            globs = t.globs
    assert n >= 8
    assert runner.summarize(verbose=False).failed == 0, "".join(report)


def test_dp_accounting_example_catches_the_unsound_answers(tmp_path):
    (example,) = [b for before, lang, b in _blocks() if "<!-- peer-example: dp_accounting -->" in before]
    pytest.importorskip("dp_accounting", reason="dp_accounting is not installed: pip install 'exactdp[peers]' "
                                                "to run the docs' example against it")
    f = tmp_path / "test_exactdp_ground_truth.py"
    f.write_text(example)
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(f),
                        "-k", "standard_cases"], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 1, r.stdout[-2000:]
    assert "unsound answers (below the certified optimum: a privacy violation)" in r.stdout
    assert "1000 x (eps=0.1, delta=0.0), delta_g = 0.001" in r.stdout and "14.044466996767886" in r.stdout
    assert "exactdp certify --eps 0.1000000000000000055511151231257827021181583404541015625" in r.stdout
