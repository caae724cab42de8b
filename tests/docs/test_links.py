"""Every internal link, anchor and image of the README and of every page of the site resolves.

Checked on the Markdown sources, without building the site (the strict build of
``make docs`` checks the same, and the cross-references into the API reference):

* ``[text](target)``, ``![alt](image)`` and raw ``<img src>`` / ``<a href>``: a relative
  target names an existing file (a site page may only link inside ``docs/``, the README
  anywhere in the repository);
* ``target.md#anchor`` and ``#anchor``: a heading of that page has that slug (Python-Markdown's
  ``toc`` slugs, as the site renders them), or an explicit ``{#id}``;
* ``mkdocs.yml``: every file of the nav exists, every page is in the nav.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from pathlib import Path

import pytest
import yaml
from doc_blocks import ROOT

DOCS = ROOT / "docs"
sys.path.insert(0, str(DOCS / "tools"))
import hooks  # noqa: E402  (the site's Markdown rewrites: the checker reads what the site renders)

IMAGE_SUFFIXES = {".png", ".svg", ".jpg", ".jpeg", ".gif"}

_FENCED = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.M | re.S)
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)
_INLINE_LINK = re.compile(r"(!?)\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_HTML_LINK = re.compile(r"<(?:img|a)\b[^>]*?\b(?:src|href)=\"([^\"]+)\"", re.I)
_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t#]*$", re.M)
_ATTR_ID = re.compile(r"\{[^}]*#([\w-]+)[^}]*\}")


def _config() -> dict:
    return yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))


def pages() -> list[Path]:
    return [ROOT / "README.md"] + [p for p in sorted(DOCS.rglob("*.md")) if "tools" not in p.relative_to(DOCS).parts]


def _prose(text: str) -> str:
    """The text outside fenced blocks and code spans (their brackets are code, not links)."""
    text = _FENCED.sub("", text)
    return _CODE_SPAN.sub("", text)


def slugify(value: str) -> str:
    """Python-Markdown's ``toc`` slug (``markdown.extensions.toc.slugify``)."""
    value = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode("ascii")
    value = re.sub(r"[^\w\s-]", "", value).strip().lower()
    return re.sub(r"[-\s]+", "-", value)


def _heading_text(raw: str) -> str:
    raw = _ATTR_ID.sub("", raw)
    raw = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", raw)  # a link keeps its text
    raw = re.sub(r"<[^>]+>", "", raw)
    return raw.replace("`", "").replace("*", "").replace("\\", "")


def anchors(path: Path) -> set[str]:
    """Ids of the headings of a page (duplicates numbered ``_1``, ``_2`` as toc does)."""
    text = _FENCED.sub("", path.read_text(encoding="utf-8"))
    if path.name == "changelog.md":  # the page is the CHANGELOG, included as a snippet
        text += _FENCED.sub("", (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"))
    seen: set[str] = set()
    for m in _HEADING.finditer(text):
        explicit = _ATTR_ID.search(m.group(2))
        slug = explicit.group(1) if explicit else slugify(_heading_text(m.group(2)))
        base, n = slug, 0
        while slug in seen:
            n += 1
            slug = f"{base}_{n}"
        seen.add(slug)
    return seen | set(_ATTR_ID.findall(text))


def links(path: Path) -> list[tuple[str, bool]]:
    """``(target, is_image)`` of every link and image of the page."""
    text = path.read_text(encoding="utf-8")
    if path.is_relative_to(DOCS) and str(path.relative_to(DOCS)) in hooks.LITERAL_BRACKET_PAGES:
        text = hooks.escape_brackets(text)
    prose = re.sub(r"\\[\[\]]", "", _prose(text))  # escaped brackets are text
    out = [(m.group(2), m.group(1) == "!") for m in _INLINE_LINK.finditer(prose)]
    out += [(t, False) for t in _HTML_LINK.findall(prose)]
    return out


def _is_external(target: str) -> bool:
    return bool(re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I)) or target.startswith("//")


def problems(path: Path) -> list[str]:
    out = []
    for target, is_image in links(path):
        if _is_external(target):
            continue
        file_part, _, anchor = target.partition("#")
        dest = (path.parent / file_part).resolve() if file_part else path
        if file_part.startswith("/"):
            out.append(f"{target}: an absolute path (use a relative link)")
            continue
        if path.is_relative_to(DOCS) and not dest.is_relative_to(DOCS):
            out.append(f"{target}: outside docs/ (the site cannot serve it)")
            continue
        if not dest.exists():
            out.append(f"{target}: no such file")
            continue
        if is_image and dest.suffix.lower() not in IMAGE_SUFFIXES:
            out.append(f"{target}: not an image")
        if anchor and dest.suffix == ".md" and "reference" not in dest.relative_to(ROOT).parts:
            if anchor not in anchors(dest):
                out.append(f"{target}: no heading with the anchor #{anchor} in {dest.relative_to(ROOT)}")
    return out


@pytest.mark.parametrize("page", pages(), ids=[str(p.relative_to(ROOT)) for p in pages()])
def test_links_and_images_resolve(page):
    assert not problems(page), f"{page.relative_to(ROOT)}: " + "; ".join(problems(page))


def test_the_checker_finds_links():
    """The patterns are not stale: the README and the guides do have links, images, anchors."""
    all_links = [t for p in pages() for t, _ in links(p)]
    assert len(all_links) > 100
    assert any(img for p in pages() for _, img in links(p))
    assert any("#" in t and not t.startswith("http") for t in all_links)


def test_the_checker_catches_breakage(tmp_path, monkeypatch):
    """A missing file, a wrong anchor and a non-image are reported (the checker can fail)."""
    page = DOCS / "guides" / "__probe__.md"
    text = "[a](optcomp.md#no-such-heading) ![b](../figures/nothing.png) ![c](optcomp.md) [d](optcomp.md#from-the-command-line)\n"
    monkeypatch.setattr(Path, "read_text", lambda self, encoding=None: text if self == page else Path.read_bytes(self).decode())
    found = problems(page)
    assert len(found) == 3, found
    assert "no heading" in found[0] and "no such file" in found[1] and "not an image" in found[2]


def test_slugs_match_the_site():
    """Slugs of headings with punctuation, as the built site names them (checked by hand on site/)."""
    assert slugify("Murtagh-Vadhan Theorem 1.7: the output of the (truncated) proof") == \
        "murtagh-vadhan-theorem-17-the-output-of-the-truncated-proof"
    assert slugify(_heading_text("6. Why a certified result never depends on an unverified float")) == \
        "6-why-a-certified-result-never-depends-on-an-unverified-float"
    assert slugify(_heading_text("`exactdp gdp`")) == "exactdp-gdp"


def _nav_files(node) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, list):
        return [f for item in node for f in _nav_files(item)]
    if isinstance(node, dict):
        return [f for v in node.values() for f in _nav_files(v)]
    return []


def test_nav_files_exist_and_every_page_is_in_the_nav():
    nav = _nav_files(_config()["nav"])
    assert len(nav) == len(set(nav)), "a page is twice in the nav"
    missing = [f for f in nav if not (DOCS / f).exists()]
    assert not missing, f"nav names missing files {missing}"
    on_disk = {str(p.relative_to(DOCS)) for p in pages() if p.is_relative_to(DOCS)}
    excluded: set = set()
    assert not (on_disk - set(nav) - excluded), f"pages not in the nav: {sorted(on_disk - set(nav) - excluded)}"
