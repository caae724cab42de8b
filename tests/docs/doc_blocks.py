"""Running the examples of a Markdown page (the README, every page of the site).

Conventions, the same on every page:

* A ```python block is a doctest session. The blocks of one page run in order in one
  namespace (:class:`doctest.DocTestParser`); the printed output is exact.
* A ```console block holds ``$ exactdp ...`` lines, each followed by what it prints.
  Every command runs through :func:`exactdp.cli.main` in-process, in a fresh temporary
  directory, and its output (stdout, then stderr, as a terminal shows it) must equal the
  lines under it, character for character. A command that writes to stderr must print
  nothing on stdout, exactly one line on stderr and exit with status 2.
* ``<!-- docs-test: ellipsis -->`` (the README's older spelling
  ``<!-- readme-test: ellipsis -->`` too) on the line before a block allows ``...`` to
  elide parts of its output (doctest ELLIPSIS): only for long traces and timings.
* ``<!-- docs-test: skip REASON -->`` on the line before a block keeps it from running;
  the reason is required (e.g. a run of many minutes shown with its real output).
* A command ending in ``; echo "exit $?"`` shows its exit status on a last line
  ``exit N`` (as a shell prints it); otherwise a command without stderr must exit 0.
* Other languages (``sh``, ``text``, ``json``) are not run.
"""

from __future__ import annotations

import doctest
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

FENCE = re.compile(r"^```(?P<lang>[A-Za-z]*)[^\n]*\n(?P<body>.*?)^```[ \t]*$", re.M | re.S)
_MARK = re.compile(r"^<!-- (?:docs|readme)-test: (?P<what>ellipsis|skip)(?P<reason>[^>]*)-->$")


@dataclass(frozen=True)
class Block:
    path: Path
    line: int  # 1-based line of the block's first body line
    lang: str
    body: str
    ellipsis: bool
    skip: str  # the reason, "" when the block runs


@dataclass(frozen=True)
class Command:
    path: Path
    line: int
    cmd: str
    expected: str
    ellipsis: bool

    @property
    def id(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}:{self.cmd[:60]}"


def blocks(path: Path) -> list[Block]:
    """Every fenced block of the page, with the marker on the line before it."""
    text = path.read_text(encoding="utf-8")
    out = []
    for m in FENCE.finditer(text):
        before = text[: m.start()].rstrip("\n").rsplit("\n", 1)[-1].strip()
        mark = _MARK.match(before)
        what = mark.group("what") if mark else ""
        reason = mark.group("reason").strip() if mark else ""
        if what == "skip" and not reason:
            raise AssertionError(f"{path}: a skipped block needs a reason: <!-- docs-test: skip REASON -->")
        line = text.count("\n", 0, m.start("body")) + 1
        out.append(Block(path, line, m.group("lang"), m.group("body"), what == "ellipsis", reason if what == "skip" else ""))
    return out


def commands(path: Path) -> list[Command]:
    """Every ``$ exactdp ...`` of the page's console blocks that run, with its printed output."""
    cases = []
    for b in blocks(path):
        if b.lang != "console" or b.skip:
            continue
        cmd, expected, lineno = None, [], b.line
        for i, line in enumerate(b.body.splitlines()):
            if line.startswith("$ "):
                if cmd is not None:
                    cases.append(Command(path, lineno, cmd, "".join(expected), b.ellipsis))
                cmd, expected, lineno = line[2:], [], b.line + i
            elif cmd is not None:
                expected.append(line + "\n")
        if cmd is not None:
            cases.append(Command(path, lineno, cmd, "".join(expected), b.ellipsis))
    return cases


def run_cli(argv, capsys) -> tuple[int, str, str]:
    from _cli import run

    return run(argv, capsys)


ECHO_STATUS = '; echo "exit $?"'


def check_command(c: Command, capsys, monkeypatch, tmp_path) -> None:
    """Run one console example; fail with the page and line when the output differs."""
    cmd, show_status = c.cmd, c.cmd.endswith(ECHO_STATUS)
    if show_status:
        cmd = cmd[: -len(ECHO_STATUS)]
    argv = shlex.split(cmd)
    assert argv[0] == "exactdp", f"{c.id}: only exactdp commands are run in console blocks (use ```sh for others)"
    monkeypatch.chdir(tmp_path)  # commands that write files (--state, --out, proofs' report) write here
    monkeypatch.setenv("COLUMNS", "100")  # argparse wraps --help to the terminal width
    rc, out, err = run_cli(argv[1:], capsys)
    if err:
        # an error example: nothing on stdout, one line on stderr, status 2
        assert rc == 2 and out == "" and err.count("\n") == 1, (c.id, rc, out, err)
    elif not show_status:
        assert rc == 0, (c.id, rc, out)
    got = out + err + (f"exit {rc}\n" if show_status else "")
    if c.ellipsis:
        ok = doctest.OutputChecker().check_output(c.expected, got, doctest.ELLIPSIS)
    else:
        ok = got == c.expected
    assert ok, f"{c.id}: `{c.cmd}` printed\n{got}\ninstead of\n{c.expected}"


def run_python_blocks(path: Path) -> tuple[int, str]:
    """Run the page's ```python blocks as one doctest session: ``(examples, failure report)``."""
    runner = doctest.DocTestRunner(optionflags=0, verbose=False)
    parser = doctest.DocTestParser()
    globs: dict = {}
    report: list[str] = []
    n = 0
    for b in blocks(path):
        if b.lang != "python" or b.skip:
            continue
        name = f"{path.relative_to(ROOT)}:{b.line}"
        test = parser.get_doctest(b.body, globs, name, str(path), b.line - 1)
        if not test.examples:
            report.append(f"{name}: a ```python block must be a doctest session (>>> lines with their output)\n")
            continue
        for ex in test.examples:
            if b.ellipsis:
                ex.options[doctest.ELLIPSIS] = True
        n += len(test.examples)
        runner.run(test, out=report.append, clear_globs=False)
        globs = test.globs  # DocTest copies its globs: carry the namespace to the next block
    failed = runner.summarize(verbose=False).failed
    return n, "".join(report) if (failed or report) else ""
