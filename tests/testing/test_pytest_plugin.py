"""The pytest plugin (``pytest --exactdp-corpus --exactdp-accountant MODULE:CALLABLE``): the ten-line
accountant of docs/testing.md fails it with the table, a sound one (the corpus's own upper ends,
rounded up) passes, and a missing accountant is a usage error."""

from __future__ import annotations

import re
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _doc_example() -> str:
    text = (ROOT / "docs" / "testing.md").read_text(encoding="utf-8")
    m = re.search(r"<!-- plugin-example -->\n<!-- docs-test: skip [^\n]*-->\n```python\n(.*?)```", text, re.S)
    assert m, "docs/testing.md has no plugin example"
    return m.group(1)


SOUND = '''
from exactdp.testing import corpus_cases

ENDS = {(c.event, c.relation, c.query): c.certified.upper for c in corpus_cases("dpsgd") if c.direction == "epsilon"}


def upper_end(event, delta, relation):
    return float(ENDS[(event, relation, delta)]) * (1 + 2**-40)
'''


def _pytest(tmp_path, *args):
    (tmp_path / "test_empty.py").write_text("def test_nothing():\n    pass\n")
    plugin = [] if any(e.name == "exactdp" for e in entry_points(group="pytest11")) else [
        "-p", "exactdp.testing.pytest_plugin"]
    env = {"PYTHONPATH": f"{ROOT}:{tmp_path}", "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *plugin, *args,
                           str(tmp_path / "test_empty.py")], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300)


def test_the_documented_accountant_fails_with_the_table(tmp_path):
    (tmp_path / "my_accountant.py").write_text(_doc_example())
    r = _pytest(tmp_path, "--exactdp-corpus", "--exactdp-accountant", "my_accountant:clt_gdp")
    assert r.returncode == 1, r.stdout + r.stderr
    assert "my_accountant:clt_gdp: 136 unsound" in r.stdout and "UNSOUND  upper" in r.stdout
    assert "1 failed, 1 passed" in r.stdout


def test_a_sound_accountant_passes_and_no_flag_adds_nothing(tmp_path):
    (tmp_path / "sound_acc.py").write_text(SOUND)
    r = _pytest(tmp_path, "--exactdp-corpus", "--exactdp-accountant", "sound_acc:upper_end")
    assert r.returncode == 0 and "2 passed" in r.stdout, r.stdout + r.stderr
    r = _pytest(tmp_path)
    assert r.returncode == 0 and "1 passed" in r.stdout


def test_usage_errors(tmp_path):
    r = _pytest(tmp_path, "--exactdp-corpus")
    assert r.returncode == 4 and "--exactdp-accountant" in r.stderr
    r = _pytest(tmp_path, "--exactdp-corpus", "--exactdp-accountant", "no_such_module:f")
    assert r.returncode != 0 and "cannot load" in (r.stdout + r.stderr)
