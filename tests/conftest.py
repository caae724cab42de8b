"""Shared pytest configuration: Hypothesis profiles.

``dev`` (default) runs few examples for a fast edit-test loop; ``ci`` (selected
by the environment variable ``CI=true``, as set by most CI services) runs more;
``full`` (``EXACTDP_SLOW=full``) runs a thousand examples per property, for a
long hunt.
Neither has a deadline: exact rational arithmetic has heavy-tailed timings, and
a deadline would turn a slow example into a spurious failure.

The slow tier: every test listed in ``tests/slow_tests.txt`` (the slowest, measured) is
marked ``slow`` here, beside those marked in their files; ``make test-fast`` runs
``pytest -m "not slow"``, ``make test`` (what CI runs) runs everything.
"""

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

SLOW_LIST = Path(__file__).with_name("slow_tests.txt")


def _slow_entries() -> tuple[frozenset, frozenset]:
    """(test ids, (file, fixture) pairs) of ``tests/slow_tests.txt``."""
    ids, fixtures = set(), set()
    for line in SLOW_LIST.read_text(encoding="utf-8").splitlines():
        entry = line.split("#")[0].strip()
        if entry.startswith("fixture "):
            path, _, name = entry[len("fixture "):].strip().partition("::")
            fixtures.add((path, name))
        elif entry:
            ids.add(entry)
    return frozenset(ids), frozenset(fixtures)


def pytest_collection_modifyitems(config, items):
    ids, fixtures = _slow_entries()
    for item in items:
        path = item.nodeid.split("::")[0]
        if item.nodeid in ids or any(p == path and f in item.fixturenames for p, f in fixtures):
            item.add_marker(pytest.mark.slow)

settings.register_profile(
    "dev",
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "ci",
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile(
    "full",
    max_examples=1000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)

if os.environ.get("EXACTDP_SLOW", "").lower() == "full":
    settings.load_profile("full")
elif os.environ.get("CI", "").lower() == "true":
    settings.load_profile("ci")
else:
    settings.load_profile("dev")
