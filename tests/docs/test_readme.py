"""The README's examples are the real output: run every one of them.

The conventions are those of every page of the site (``doc_blocks.py``): ```python blocks
are one doctest session, every ``$ exactdp ...`` of a ```console block runs in-process and
must print exactly what the README shows. Besides:

* The README opens with exactly ``make demo`` and ``make test``, and the Makefile
  gives them the meaning the README states; the demo's own commands run.
* The README stays short (issue 15): the set-up, three examples, links to the site.
* The doctests embedded in the exactdp modules' docstrings run too.

A README that drifts from what the code prints fails here.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
import shlex

import pytest
from doc_blocks import FENCE, ROOT, blocks, check_command, commands, run_cli, run_python_blocks

import exactdp

README = ROOT / "README.md"
MAKEFILE = ROOT / "Makefile"


def _run_cli(argv, capsys):
    return run_cli(argv, capsys)


# --------------------------------------------------------------------------
# the opening: make demo / make test


def test_readme_opens_with_the_two_make_commands():
    first = FENCE.search(README.read_text(encoding="utf-8"))
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
# the examples


def test_readme_is_short_with_three_examples():
    """What exactdp is, the two set-up commands, three examples and the links to the site."""
    text = README.read_text(encoding="utf-8")
    langs = [b.lang for b in blocks(README)]
    assert langs.count("python") + langs.count("console") == 3, langs
    cmds = {shlex.split(c.cmd)[1] for c in commands(README)}
    assert {"epsilon", "certify"} <= cmds
    assert len(text.splitlines()) <= 120
    for page in ("docs/getting-started.md", "docs/guides/index.md", "docs/reference/index.md"):
        assert f"]({page})" in text, page


def test_readme_python_examples():
    n, report = run_python_blocks(README)
    assert not report, report
    assert n >= 4


@pytest.mark.parametrize("c", commands(README), ids=[c.id for c in commands(README)])
def test_readme_console_example(c, capsys, monkeypatch, tmp_path):
    check_command(c, capsys, monkeypatch, tmp_path)


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
