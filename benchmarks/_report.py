"""Write one benchmark's section of docs/benchmarks.md (between begin/end markers)."""

from __future__ import annotations

import os
import platform
import re

DOC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "benchmarks.md")

HEADER = """# Benchmarks

Measured by the scripts in `benchmarks/` (`make bench` runs them all) on the project's
2-core machine; medians of repeated runs, ratios measured in the same run. Each section is
rewritten by its script; the figures are whatever the last run printed.
"""


def machine() -> str:
    return f"{platform.python_implementation()} {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cores"


def write_section(name: str, markdown: str) -> None:
    os.makedirs(os.path.dirname(DOC), exist_ok=True)
    text = open(DOC).read() if os.path.exists(DOC) else HEADER
    block = f"<!-- begin:{name} -->\n{markdown.rstrip()}\n<!-- end:{name} -->"
    pat = re.compile(rf"<!-- begin:{re.escape(name)} -->.*?<!-- end:{re.escape(name)} -->", re.S)
    if pat.search(text):
        text = pat.sub(lambda _m: block, text)
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    with open(DOC, "w") as f:
        f.write(text)
