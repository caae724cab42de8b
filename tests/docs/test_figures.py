"""The figure of the DP-SGD guide is drawn by its script from the committed benchmark data
(what `make figures-accounting` runs), and that data is consistent: every certified
enclosure is ordered, and every claimed upper bound of a peer that lies below a certified
lower end would be flagged (none is expected of the pessimistic PLD)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "docs" / "figures" / "accounting-peers.json"


def test_accounting_figure_is_drawn(tmp_path):
    out = tmp_path / "fig.png"
    r = subprocess.run([sys.executable, str(ROOT / "docs" / "figures" / "make_accounting.py"), "--data", str(DATA),
                        "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert out.stat().st_size > 10_000
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_accounting_data_is_ordered():
    data = json.loads(DATA.read_text())
    for row in data["growth"] + data["targets"]:
        assert row["lower"] <= row["upper"]
        pess = row["peers"].get("dp_accounting PLD pessimistic 0.0001")
        if pess:
            assert pess[0] >= row["lower"]  # a valid upper estimate is never below the certified lower end
