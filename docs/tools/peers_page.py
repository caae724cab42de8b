"""Write docs/peers.md from the audit records (``make audit-peers`` runs it last).

    python docs/tools/peers_page.py build/audit-*.jsonl

The page: how the audit was run, which runs the records cover, the summary table and the
unsound answers of :func:`exactdp.audit.markdown` over every record, and the findings, kept
between the ``<!-- findings -->`` marker and the end of the current page (written by hand:
what the unsound answers mean for each peer).
"""

from __future__ import annotations

import datetime
import json
import platform
import sys
from pathlib import Path

from exactdp import __version__
from exactdp.audit import markdown

PAGE = Path(__file__).resolve().parents[1] / "peers.md"
MARK = "<!-- findings -->"


def main(paths: list[str]) -> int:
    records, versions = [], {}
    for p in paths:
        for line in Path(p).read_text().splitlines():
            r = json.loads(line)
            records.append(r)
            versions[r["peer"]] = r["version"]
    old = PAGE.read_text() if PAGE.exists() else ""
    findings = old[old.index(MARK):] if MARK in old else MARK + "\n\n## Findings\n\n(to be written)\n"
    peers = ", ".join(f"{p} {v}" for p, v in sorted(versions.items()) if p != "exactdp-float")
    head = f"""# Audits of other accountants

Measured with `exactdp audit --peer NAME --out FILE` (`make audit-peers`: every peer on the
full grid, then this page by `docs/tools/peers_page.py`), exactdp {__version__}, on
{datetime.date.today().isoformat()} on the project's shared 2-core machine, Python
{platform.python_version()}; peers from PyPI: {peers} (and exactdp's own float engine as a
control). Grid:
`exactdp.audit.audit_grid("full")` (pure eps 0.1 and 1 at k = 1 ... 10^4, eps 0.1 at k = 10^5;
(0.1, 1e-8) at k = 1 ... 10^4; eps 1e-4; a heterogeneous lattice 0.1/0.2/0.4 to k = 3000; a
heterogeneous approximate mix; delta_g 1e-3, 1e-6, 1e-9; two eps_g per case). Every answer is
decided rigorously against the exact composition the peer was given ([testing](testing.md));
"worst below/above" are relative errors (answer - optimum)/optimum. Each unsound answer's
record (in the audit's `--out` file) carries an `exactdp certify` command and the peer's Python
call that reproduce it. "not run" counts cases a knob does not support (approximate DP for
the randomized-response knobs, autodp and OpenDP) or that were skipped for cost (the reason is
in the record: e.g. dp_accounting's PLD beyond 1e8 discretization points, which grew past 24 GB).

Every peer ran the whole grid: {len(records)} records.

"""
    PAGE.write_text(head + markdown(records, max_unsound=60) + "\n\n" + findings)
    print(f"wrote {PAGE} ({len(records)} records)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
