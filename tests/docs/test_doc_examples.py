"""Every page of the site shows real output: its examples run here (conventions: doc_blocks.py).

The ```python blocks of a page run as one doctest session, every ``$ exactdp ...`` of its
```console blocks runs in-process and must print exactly what the page shows. Pages whose
examples a feature's own test already runs are listed in ``OWN_TESTS`` (with that test).
"""

from __future__ import annotations

import pytest
from doc_blocks import ROOT, blocks, check_command, commands, run_python_blocks

DOCS = ROOT / "docs"

#: page -> the test that runs its examples already (run once, not twice).
OWN_TESTS = {
    "docs/regions.md": "tests/regions/test_regions_docs.py",
    "docs/gdp.md": "tests/gdp/test_gdp_docs.py",
    "docs/guides/opacus.md": "tests/integrations/test_opacus.py",  # needs Opacus: make test-opacus
}


def _pages():
    return [p for p in sorted(DOCS.rglob("*.md")) if str(p.relative_to(ROOT)) not in OWN_TESTS and "tools" not in p.parts]


def _commands():
    return [c for p in _pages() for c in commands(p)]


def _python_pages():
    return [p for p in _pages() if any(b.lang == "python" and not b.skip for b in blocks(p))]


def test_pages_with_their_own_test():
    for page, test in OWN_TESTS.items():
        assert (ROOT / page).exists() and (ROOT / test).exists(), (page, test)
        assert page in (ROOT / test).read_text(encoding="utf-8"), f"{test} does not run {page}"


def test_every_guide_has_examples():
    """Each guide shows its task done: at least one example that runs."""
    guides = sorted((DOCS / "guides").glob("*.md"))
    assert len(guides) >= 8
    for g in guides:
        if g.name == "index.md":
            continue
        runnable = [b for b in blocks(g) if b.lang in ("python", "console") and not b.skip]
        assert runnable, f"{g.relative_to(ROOT)} has no example that runs"


@pytest.mark.parametrize("c", _commands(), ids=[c.id for c in _commands()])
def test_console_example(c, capsys, monkeypatch, tmp_path):
    check_command(c, capsys, monkeypatch, tmp_path)


@pytest.mark.parametrize("page", _python_pages(), ids=[str(p.relative_to(ROOT)) for p in _python_pages()])
def test_python_session(page, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # a session that writes a file writes it here
    n, report = run_python_blocks(page)
    assert not report, report
    assert n >= 1
