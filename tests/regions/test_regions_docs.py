"""docs/regions.md shows real output: every console example and Python session in it is run.

``$ exactdp ...`` lines run in-process through :func:`exactdp.cli.main`; their stdout then
stderr must equal the printed lines, character for character. ```python blocks are doctest
sessions run in order in one namespace. The figures it shows exist, and the benchmark section
it links to.
"""

from __future__ import annotations

import doctest
import re
import shlex
from pathlib import Path

import pytest

from exactdp.cli import main

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "regions.md"
_FENCE = re.compile(r"^```(?P<lang>[A-Za-z]*)\n(?P<body>.*?)^```$", re.M | re.S)


def _blocks(lang):
    text = DOC.read_text(encoding="utf-8")
    return [m.group("body") for m in _FENCE.finditer(text) if m.group("lang") == lang]


def _examples():
    cases = []
    for body in _blocks("console"):
        cmd, expected = None, []
        for line in body.splitlines():
            if line.startswith("$ "):
                if cmd is not None:
                    cases.append((cmd, "".join(expected)))
                cmd, expected = line[2:], []
            elif cmd is not None:
                expected.append(line + "\n")
        if cmd is not None:
            cases.append((cmd, "".join(expected)))
    return cases


def test_doc_has_examples():
    assert len(_examples()) >= 8 and len(_blocks("python")) >= 2


@pytest.mark.parametrize("cmd,expected", _examples(), ids=[c for c, _ in _examples()])
def test_console_example(cmd, expected, capsys):
    argv = shlex.split(cmd)
    assert argv[0] == "exactdp"
    try:
        rc = main(argv[1:])
    except SystemExit as e:
        rc = e.code
    out, err = capsys.readouterr()
    assert out + err == expected
    assert rc == (2 if err else 0)


def test_python_sessions():
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=0)
    globs: dict = {}
    report: list[str] = []
    for i, body in enumerate(_blocks("python")):
        test = parser.get_doctest(body, globs, f"regions.md[{i}]", str(DOC), 0)
        runner.run(test, out=report.append, clear_globs=False)
        globs.update(test.globs)  # DocTest copies its globals: carry the session on
    assert runner.summarize(verbose=False).failed == 0, "".join(report)


def test_linked_files_exist():
    text = DOC.read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)#\s]+)\)", text)
    assert links
    for l in links:
        if "://" not in l:
            assert (DOC.parent / l).exists(), l
