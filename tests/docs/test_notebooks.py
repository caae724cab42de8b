"""The notebooks of the site (``docs/notebooks/*.ipynb``) are saved executed, so the site shows
their output without running them; this runs each again in a fresh kernel and checks that
every code cell prints exactly what the saved notebook shows (the output is real, not pasted).

``make notebooks`` re-executes and saves them after a change. A notebook that uses Opacus runs
under ``make test-opacus`` (its environment has Opacus and a CPU torch; CI runs it) and skips
elsewhere, saying so.
"""

from __future__ import annotations

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="nbformat is not installed: pip install 'exactdp[test]'")
nbclient = pytest.importorskip("nbclient", reason="nbclient is not installed: pip install 'exactdp[test]'")

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "docs" / "notebooks").glob("*.ipynb"))


def _shown(cell) -> str:
    """What a code cell shows: its printed text and the plain text of its results, in order."""
    out = []
    for o in cell.get("outputs", []):
        if o["output_type"] == "stream":
            out.append(o["text"])
        elif o["output_type"] in ("execute_result", "display_data"):
            out.append(o["data"].get("text/plain", ""))
        elif o["output_type"] == "error":
            out.append(f"ERROR {o['ename']}: {o['evalue']}")
    return "".join(out)


def test_there_are_notebooks():
    assert NOTEBOOKS


@pytest.mark.slow  # a kernel and a few certified queries: 15 to 35 s of CPU each
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs_and_shows_its_saved_output(path, tmp_path):
    saved = nbformat.read(path, as_version=4)
    if any("opacus" in c.source for c in saved.cells if c.cell_type == "code"):
        pytest.importorskip("opacus", reason="opacus is not installed here: make test-opacus (run by CI) runs this notebook")
    shown = [_shown(c) for c in saved.cells if c.cell_type == "code"]
    assert not any(s.startswith("ERROR") or "Traceback" in s for s in shown), shown
    fresh = nbformat.read(path, as_version=4)
    for c in fresh.cells:
        if c.cell_type == "code":
            c.outputs = []
    nbclient.NotebookClient(fresh, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    assert [_shown(c) for c in fresh.cells if c.cell_type == "code"] == shown
