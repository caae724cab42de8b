"""The API reference is generated from the public modules, and shows every guarantee tier.

* The committed pages ``docs/reference/*.md`` are what ``docs/tools/gen_reference.py``
  writes now (regenerate: ``make docs-reference``), and every page is in the site's nav.
* Every name of ``exactdp.__all__`` and of each public package's ``__all__`` is documented
  on exactly one page (a ``::: module`` directive listing it), found independently of the
  generator by reading the pages.
* The site's hooks: tier labels of ``Guarantee:`` paragraphs, the escape of line-initial
  ``#`` and of the proof report's brackets, Sphinx roles made cross-references.
"""

from __future__ import annotations

import importlib
import re
import sys

import pytest
import yaml
from doc_blocks import ROOT

import exactdp

DOCS = ROOT / "docs"
REF = DOCS / "reference"
sys.path.insert(0, str(DOCS / "tools"))
import gen_reference  # noqa: E402
import hooks  # noqa: E402

_DIRECTIVE = re.compile(r"^::: (?P<module>[\w.]+)\n(?P<options>(?:    .*\n)*)", re.M)


def _documented() -> dict[str, list[str]]:
    """``name -> [module.name, ...]`` for every member listed under a ``:::`` directive."""
    out: dict[str, list[str]] = {}
    for page in REF.glob("*.md"):
        for m in _DIRECTIVE.finditer(page.read_text(encoding="utf-8")):
            for name in re.findall(r"^        - (\w+)$", m.group("options"), re.M):
                out.setdefault(name, []).append(f"{m.group('module')}.{name}")
    return out


def test_reference_pages_are_current(capsys):
    rc = gen_reference.main(["--check"])
    assert rc == 0, capsys.readouterr().err


def test_every_public_name_is_documented_once():
    documented = _documented()
    idents = [i for ms in documented.values() for i in ms]
    assert len(idents) == len(set(idents)), "an object is documented twice"
    packages = [importlib.import_module(p) for p, _, _ in gen_reference.PACKAGES] + [exactdp]
    for pkg in packages:
        for name in getattr(pkg, "__all__", []):
            assert name in documented, f"{pkg.__name__}.{name} has no reference entry"
            obj = getattr(pkg, name)
            if isinstance(obj, type) or callable(obj) and hasattr(obj, "__qualname__"):
                # the entry is the object itself, documented where it is defined
                assert f"{obj.__module__}.{name}" in documented[name], (pkg.__name__, name, documented[name])


def test_every_reference_page_is_in_the_nav():
    cfg = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    text = yaml.safe_dump(cfg["nav"])
    for page in REF.glob("*.md"):
        assert f"reference/{page.name}" in text, page.name


def test_cli_page_has_every_command():
    from exactdp.cli import build_parser

    text = (REF / "cli.md").read_text(encoding="utf-8")
    sub = [a for a in build_parser()._actions if a.__class__.__name__ == "_SubParsersAction"][0]
    for name in sub.choices:
        assert f"## `exactdp {name}`" in text and f"$ exactdp {name} --help" in text, name


@pytest.mark.parametrize("text,labels", [
    ("exact.", ["exact"]),
    ('``engine="exact"``: exact. ``"certified"``: enclosure of width 10^-d. ``"float"``: approximate.',
     ["exact", "enclosure", "approximate"]),
    ("a certified upper bound on eps_g.", ["enclosure", "upper bound"]),
    ("lower <= value <= upper (rigorous).", []),
])
def test_tier_labels(text, labels):
    doc = f"Summary.\n\n    Guarantee: {text}\n\n    Raises:\n        InvalidArgument: no.\n"
    assert hooks.tiers_of(doc) == labels
    html = hooks.mark_guarantees(f"<p>Guarantee: {text}</p>")
    assert html.count("exactdp-tier ") == len(labels)
    assert html.startswith('<p class="exactdp-guarantee">')


def test_tiers_stop_at_the_next_section():
    doc = "S.\n\n    Guarantee: exact.\n\n    Examples:\n        >>> 1  # an approximate example\n"
    assert hooks.tiers_of(doc) == ["exact"]
    assert hooks.tiers_of("no guarantee line") == []


def test_line_initial_hash_is_text_outside_code():
    md = "# Title\n\n#P-hard, and\n#INT-PARTITION counts.\n```console\n#INT-PARTITION  Z = (2)\n```\n## Two\n"
    assert hooks.escape_hash_lines(md) == (
        "# Title\n\n\\#P-hard, and\n\\#INT-PARTITION counts.\n```console\n#INT-PARTITION  Z = (2)\n```\n## Two\n")


def test_report_brackets_are_text_but_page_links_stay():
    md = "see [errata.md](errata.md#x) and D_[alpha](P1||Q1) [160 instances]"
    assert hooks.escape_brackets(md) == "see [errata.md](errata.md#x) and D_\\[alpha\\](P1||Q1) \\[160 instances\\]"


def test_sphinx_roles_become_optional_crossrefs():
    html = ":func:<code>~exactdp.gdp.gdp_delta</code> and :class:<code>.lattice</code>"
    out = hooks.link_roles(html)
    assert '<autoref identifier="exactdp.gdp.conversions.gdp_delta" optional><code>gdp_delta</code></autoref>' in out \
        or '<autoref identifier="exactdp.gdp.gdp_delta" optional><code>gdp_delta</code></autoref>' in out
    assert out.endswith(" and <code>.lattice</code>")
    top = hooks.link_roles(":func:<code>exactdp.optcomp</code>")
    assert top == '<autoref identifier="exactdp.engines.api.optcomp" optional><code>exactdp.optcomp</code></autoref>'
