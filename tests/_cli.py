"""The command line run in-process, for the tests: one helper instead of a copy per file.

``run(argv, capsys)`` gives ``(exit status, stdout, stderr)`` of ``exactdp argv`` (argparse's
``SystemExit`` for errors and ``--help`` becomes the status); ``run_json`` asserts one JSON
object on one line and returns it; ``refused`` asserts a refusal as a user meets it: exit
status 2, nothing on stdout, one line on stderr starting ``exactdp: error:``, no traceback.
"""

from __future__ import annotations

import json

from exactdp.cli import main


def run(argv, capsys) -> tuple[int, str, str]:
    """``(exit status, stdout, stderr)`` of ``exactdp argv`` run in-process."""
    try:
        rc = main([str(a) for a in argv])
    except SystemExit as e:  # argparse errors and --help
        rc = e.code
    out, err = capsys.readouterr()
    return rc, out, err


def run_json(argv, capsys) -> dict:
    """The one JSON object ``exactdp argv --json`` prints (exit status 0, nothing on stderr)."""
    rc, out, err = run(list(argv) + ["--json"], capsys)
    assert rc == 0 and err == "", (rc, err)
    assert out.endswith("\n") and out.count("\n") == 1, "one JSON object on one line"
    return json.loads(out)


def refused(rc: int, out: str, err: str, *words: str) -> None:
    """A refusal: status 2, one ``exactdp: error:`` line naming each of ``words``, no traceback."""
    assert rc == 2, (rc, out, err)
    assert out == "" and err.count("\n") == 1 and err.startswith("exactdp: error:"), (out, err)
    assert "Traceback" not in err
    for w in words:
        assert w in err, err
