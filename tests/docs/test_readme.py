"""The README's examples are the real output: run every one of them.

* ```python blocks are doctest sessions, run in order in one namespace with
  :class:`doctest.DocTestParser` (no ELLIPSIS: the printed output is exact).
* ```console blocks: every ``$ exactdp ...`` line is run through
  :func:`exactdp.cli.main` in-process and its output (stdout, then stderr, as a
  terminal shows it) must equal the lines printed under it, character for
  character. A block preceded by ``<!-- readme-test: ellipsis -->`` may elide
  parts with ``...`` (doctest ELLIPSIS): only for long traces and timings.
* The README opens with exactly ``make demo`` and ``make test``, and the Makefile
  gives them the meaning the README states; the demo's own commands run.
* The doctests embedded in the exactdp modules' docstrings run too.

A README that drifts from what the code prints fails here.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
import shlex
from pathlib import Path

import pytest

import exactdp
from exactdp.cli import main

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
MAKEFILE = ROOT / "Makefile"

_FENCE = re.compile(r"^```(?P<lang>[A-Za-z]*)\n(?P<body>.*?)^```$", re.M | re.S)
_ELLIPSIS_MARK = "<!-- readme-test: ellipsis -->"


def _blocks(lang: str):
    """``(line_number, body, ellipsis_allowed)`` of every fenced block in ``lang``."""
    text = README.read_text(encoding="utf-8")
    out = []
    for m in _FENCE.finditer(text):
        if m.group("lang") != lang:
            continue
        before = text[: m.start()].rstrip("\n").rsplit("\n", 1)[-1].strip()
        line = text.count("\n", 0, m.start("body")) + 1
        out.append((line, m.group("body"), before == _ELLIPSIS_MARK))
    return out


def _console_examples():
    """Every ``$ exactdp ...`` command of the console blocks with its printed output."""
    cases = []
    for line0, body, ellipsis in _blocks("console"):
        cmd = None
        expected: list[str] = []
        lineno = line0
        for i, line in enumerate(body.splitlines()):
            if line.startswith("$ "):
                if cmd is not None:
                    cases.append((lineno, cmd, "".join(expected), ellipsis))
                cmd, expected, lineno = line[2:], [], line0 + i
            elif cmd is not None:
                expected.append(line + "\n")
        if cmd is not None:
            cases.append((lineno, cmd, "".join(expected), ellipsis))
    return cases


def _run_cli(argv, capsys):
    try:
        rc = main(argv)
    except SystemExit as e:  # argparse errors
        rc = e.code
    out, err = capsys.readouterr()
    return rc, out, err


# --------------------------------------------------------------------------
# the opening: make demo / make test


def test_readme_opens_with_the_two_make_commands():
    first = _FENCE.search(README.read_text(encoding="utf-8"))
    assert first is not None
    assert first.group("body") == "make demo\nmake test\n"
    assert README.read_text(encoding="utf-8").index(first.group(0)) < 200  # it is the opening


def test_makefile_targets_do_what_the_readme_says():
    mk = MAKEFILE.read_text(encoding="utf-8")
    targets = dict(re.findall(r"^([a-z]+):(.*)$", mk, re.M))
    assert "demo" in targets and "test" in targets
    stamp = targets["demo"].strip()
    assert stamp == targets["test"].strip() and stamp  # both depend on the install stamp
    # the stamp rule creates the venv and installs the package with the test extras
    assert re.search(r"-m venv \$\(VENV\)", mk)
    assert re.search(r"pip install .*-e '\.\[test\]'", mk)
    assert re.search(r"^test:.*\n\t\$\(BIN\)/python -m pytest", mk, re.M)


def _demo_commands():
    mk = MAKEFILE.read_text(encoding="utf-8")
    recipe = re.search(r"^demo:.*\n((?:\t.*\n)+)", mk, re.M)
    assert recipe is not None
    cmds = []
    for line in recipe.group(1).splitlines():
        line = line.strip().lstrip("@")  # "@" only silences make's echo of the command
        if line.startswith("$(BIN)/exactdp "):
            cmds.append(line[len("$(BIN)/exactdp "):])
    return cmds


def test_demo_has_commands():
    assert len(_demo_commands()) >= 1


@pytest.mark.parametrize("cmd", _demo_commands())
def test_make_demo_commands_run(cmd, capsys):
    rc, out, err = _run_cli(shlex.split(cmd), capsys)
    assert (rc, err) == (0, ""), err
    assert out.startswith("composition: ")


def test_make_demo_echoes_the_commands_it_runs():
    """The demo prints each command before running it: the printed text is the command run."""
    mk = MAKEFILE.read_text(encoding="utf-8")
    recipe = re.search(r"^demo:.*\n((?:\t.*\n)+)", mk, re.M).group(1)
    echoed = [e.split("#")[0].strip() for e in re.findall(r"echo '\$\$ exactdp ([^']*)'", recipe)]
    if echoed:  # the demo may also run its commands silently
        assert echoed == _demo_commands()


# --------------------------------------------------------------------------
# python blocks


def test_readme_has_examples():
    assert len(_blocks("python")) >= 2
    cmds = {shlex.split(c)[1] for _, c, _, _ in _console_examples()}
    assert {"delta", "epsilon", "approx", "certify", "reduce", "proofs"} <= cmds


def test_readme_python_examples():
    runner = doctest.DocTestRunner(optionflags=0, verbose=False)
    parser = doctest.DocTestParser()
    globs: dict = {}
    report: list[str] = []
    n = 0
    for line, body, _ in _blocks("python"):
        test = parser.get_doctest(body, globs, f"README.md:{line}", str(README), line - 1)
        n += len(test.examples)
        runner.run(test, out=report.append, clear_globs=False)
        globs = test.globs  # DocTest copies its globs: carry the namespace to the next block
    res = runner.summarize(verbose=False)
    assert n >= 10
    assert res.failed == 0, "".join(report)


# --------------------------------------------------------------------------
# console blocks


@pytest.mark.parametrize(
    "lineno,cmd,expected,ellipsis",
    _console_examples(),
    ids=[f"L{c[0]}:{c[1][:60]}" for c in _console_examples()],
)
def test_readme_console_example(lineno, cmd, expected, ellipsis, capsys, monkeypatch, tmp_path):
    argv = shlex.split(cmd)
    assert argv[0] == "exactdp", f"README line {lineno}: only exactdp commands are run"
    monkeypatch.chdir(tmp_path)  # `exactdp proofs` writes its report under ./docs when that exists
    rc, out, err = _run_cli(argv[1:], capsys)
    if err:
        # an error example: nothing on stdout, one line on stderr, status 2
        assert rc == 2 and out == "" and err.count("\n") == 1, (rc, out, err)
    else:
        assert rc == 0, (rc, out)
    got = out + err
    if ellipsis:
        ok = doctest.OutputChecker().check_output(expected, got, doctest.ELLIPSIS)
    else:
        ok = got == expected
    assert ok, f"README line {lineno}: `{cmd}` printed\n{got}\ninstead of\n{expected}"


# --------------------------------------------------------------------------
# the modules' own doctests


def _exactdp_modules():
    names = [exactdp.__name__]
    names += [m.name for m in pkgutil.walk_packages(exactdp.__path__, exactdp.__name__ + ".")]
    return sorted(names)


#: Docstring examples known to be wrong, with the reason (reported to the lead).
_KNOWN_BAD_DOCTESTS: dict = {}


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=_KNOWN_BAD_DOCTESTS[n]))
        if n in _KNOWN_BAD_DOCTESTS
        else n
        for n in _exactdp_modules()
    ],
)
def test_module_docstring_examples(name):
    mod = importlib.import_module(name)
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=0, verbose=False)
    report: list[str] = []
    for test in finder.find(mod, name):
        runner.run(test, out=report.append)
    res = runner.summarize(verbose=False)
    assert res.failed == 0, "".join(report)


def test_public_functions_have_examples():
    """The public API's docstrings carry examples (STYLE.md item 11), so the test above bites."""
    for fn in (exactdp.composed_delta, exactdp.optcomp, exactdp.Mechanism, exactdp.parse_rational):
        assert ">>>" in (fn.__doc__ or ""), fn.__name__


@pytest.mark.parametrize("doc", ["README.md", "docs/engines.md"])
def test_relative_links_resolve(doc):
    """Every relative link of the README and of docs/engines.md names an existing file."""
    path = ROOT / doc
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", path.read_text(encoding="utf-8"))
    local = [l for l in links if "://" not in l and not l.startswith("mailto:")]
    assert local, "no links found: the pattern is stale"
    missing = [l for l in local if not (path.parent / l).exists()]
    assert not missing, f"{doc}: links to missing files {missing}"
