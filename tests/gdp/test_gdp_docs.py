"""docs/gdp.md shows real output: its ```python blocks run as one doctest session, every
``$ exactdp ...`` line of its ```console blocks prints exactly what is shown under it, and
the worked example's output block is what examples/gdp_filter_analysis.py prints."""

from __future__ import annotations

import doctest
import importlib.util
import re
import shlex
from pathlib import Path

import pytest

from exactdp.cli import main

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "gdp.md"
_FENCE = re.compile(r"^```(?P<lang>[A-Za-z]*)\n(?P<body>.*?)^```$", re.M | re.S)


def blocks(lang: str):
    text = DOC.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 2, m.group("body"), text[: m.start()].rstrip().rsplit("\n", 1)[-1])
            for m in _FENCE.finditer(text) if m.group("lang") == lang]


def console_cases():
    cases = []
    for line0, body, _ in blocks("console"):
        cmd, exp, ln = None, [], line0
        for i, line in enumerate(body.splitlines()):
            if line.startswith("$ "):
                if cmd:
                    cases.append((ln, cmd, "".join(exp)))
                cmd, exp, ln = line[2:], [], line0 + i
            elif cmd:
                exp.append(line + "\n")
        if cmd:
            cases.append((ln, cmd, "".join(exp)))
    return cases


def test_python_blocks():
    runner = doctest.DocTestRunner(optionflags=0)
    parser = doctest.DocTestParser()
    globs: dict = {}
    report: list[str] = []
    n = 0
    for line, body, _ in blocks("python"):
        t = parser.get_doctest(body, globs, f"gdp.md:{line}", str(DOC), line - 1)
        n += len(t.examples)
        runner.run(t, out=report.append, clear_globs=False)
        globs = t.globs
    assert n >= 12
    assert runner.summarize(verbose=False).failed == 0, "".join(report)


@pytest.mark.parametrize("line,cmd,expected", console_cases(), ids=[c[1][:60] for c in console_cases()])
def test_console_blocks(line, cmd, expected, capsys):
    argv = shlex.split(cmd)
    assert argv[0] == "exactdp"
    try:
        rc = main(argv[1:])
    except SystemExit as e:
        rc = e.code
    out, err = capsys.readouterr()
    assert rc == (2 if err else 0)
    assert out + err == expected, f"docs/gdp.md line {line}: `{cmd}` printed\n{out + err}"


def test_example_output_block():
    pytest.importorskip("sklearn")
    shown = [b for _, b, before in blocks("text") if before == "<!-- gdp-example-output -->"]
    assert len(shown) == 1
    spec = importlib.util.spec_from_file_location("gdp_filter_analysis", ROOT / "examples" / "gdp_filter_analysis.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    lines: list[str] = []
    mod.analysis(out=lines.append)
    assert "\n".join(lines) + "\n" == shown[0]


def test_figure_is_committed():
    assert (ROOT / "docs" / "figures" / "gdp-tradeoff.png").stat().st_size > 20_000
    assert "figures/gdp-tradeoff.png" in DOC.read_text(encoding="utf-8")
