"""mkdocs hooks of the exactdp site (``mkdocs.yml``: ``hooks``).

* Line-initial ``#P``, ``#INT-PARTITION``: CommonMark needs a space after ``#`` for a
  heading, Python-Markdown does not; such lines (outside code) are escaped so that they
  render as the text they are (the proof report is generated and cannot be edited).
* Guarantee tiers: in the API reference, the ``Guarantee:`` paragraph of a docstring is
  set apart and labelled with its tier (exact, enclosure, upper/lower bound, approximate).
"""

from __future__ import annotations

import re

_FENCE = re.compile(r"^\s*(```|~~~)")
_HASH_WORD = re.compile(r"^#(?=[^#\s])")

#: tier word (as it begins a Guarantee paragraph) -> css class of its label
TIERS = {
    "exact": "exact",
    "enclosure": "enclosure",
    "certified": "enclosure",
    "upper bound": "bound",
    "lower bound": "bound",
    "approximate": "approximate",
}


def escape_hash_lines(markdown: str) -> str:
    """Escape ``#`` that begins a line with no space after it, outside fenced code."""
    out, fence = [], None
    for line in markdown.split("\n"):
        m = _FENCE.match(line)
        if m:
            fence = None if fence == m.group(1) else (fence or m.group(1))
        elif fence is None and _HASH_WORD.match(line):
            line = "\\" + line
        out.append(line)
    return "\n".join(out)


#: Generated pages whose square brackets are mathematics (``D_[alpha](P1||Q1)``,
#: ``[160 instances]``), not links: only their links to other pages are kept as links.
LITERAL_BRACKET_PAGES = {"proofs-report.md"}
_PAGE_LINK = re.compile(r"\[[^\[\]]*\]\([\w./-]+\.md(?:#[\w-]*)?\)")


def escape_brackets(markdown: str) -> str:
    """Escape every ``[`` and ``]`` except those of ``[text](page.md)`` links."""
    out, last = [], 0
    for m in _PAGE_LINK.finditer(markdown):
        out.append(markdown[last:m.start()].replace("[", "\\[").replace("]", "\\]"))
        out.append(m.group(0))
        last = m.end()
    out.append(markdown[last:].replace("[", "\\[").replace("]", "\\]"))
    return "".join(out)


def on_page_markdown(markdown, page, config, files):
    if page.file.src_uri in LITERAL_BRACKET_PAGES:
        markdown = escape_brackets(markdown)
    return escape_hash_lines(markdown)


_GUARANTEE = re.compile(r"<p>Guarantee:\s*(?P<rest>.*?)</p>", re.S)
_TIER_WORD = re.compile(r"\b(" + "|".join(map(re.escape, TIERS)) + r")\b")


def _tier_labels(rest: str) -> str:
    """One label per tier the paragraph names, in order (``composed_delta``: exact, enclosure,
    approximate: one per engine)."""
    text = re.sub(r"<[^>]+>", " ", rest).lower()
    labels: list[str] = []
    for m in _TIER_WORD.finditer(text):
        word = "enclosure" if m.group(1) == "certified" else m.group(1)
        if word not in labels:
            labels.append(word)
    return "".join(f'<span class="exactdp-tier exactdp-tier-{TIERS[w]}">{w}</span>' for w in labels)


def tiers_of(docstring: str) -> list[str]:
    """The tiers named by a docstring's ``Guarantee:`` paragraph, in order (``[]`` when none)."""
    m = re.search(r"^\s*Guarantee:(?P<rest>.*?)(?:\n\s*\n|\n\s*(?:Parameters|Args|Raises|Returns|Examples|References)\b|\Z)",
                  docstring or "", re.S | re.M)
    if not m:
        return []
    labels: list[str] = []
    for w in _TIER_WORD.finditer(m.group("rest").lower()):
        word = "enclosure" if w.group(1) == "certified" else w.group(1)
        if word not in labels:
            labels.append(word)
    return labels


def mark_guarantees(html: str) -> str:
    """``<p>Guarantee: ...</p>`` -> a box labelled with the tiers it names."""
    return _GUARANTEE.sub(
        lambda m: f'<p class="exactdp-guarantee">{_tier_labels(m.group("rest"))} '
        f'<strong>Guarantee:</strong> {m.group("rest")}</p>',
        html,
    )


# Sphinx roles in docstrings (``:func:`~exactdp.gdp.gdp_delta```) reach the HTML as
# ``:func:<code>~exactdp.gdp.gdp_delta</code>``: made cross-references (optional: a name
# the reference does not document stays plain code) with Sphinx's display rules.
_ROLE = re.compile(r":(?:func|class|meth|mod|data|attr|exc|obj):<code>(?P<target>[^<]*)</code>")


def _public_names() -> dict[str, str]:
    """``exactdp.X`` -> the dotted path where X is defined, for the lazy top-level exports."""
    import importlib
    import inspect

    import exactdp

    out = {}
    for name, module in exactdp._EXPORTS.items():
        obj = getattr(importlib.import_module(module), name)
        if inspect.isfunction(obj) or inspect.isclass(obj):
            out[f"exactdp.{name}"] = f"{obj.__module__}.{obj.__qualname__}"
    return out


_PUBLIC: dict[str, str] = {}


def link_roles(html: str) -> str:
    if not _PUBLIC:
        _PUBLIC.update(_public_names())

    def repl(m: re.Match) -> str:
        target = m.group("target").strip()
        short = target.startswith("~")
        target = target.lstrip("~")
        shown = target.rsplit(".", 1)[-1] if short else target
        if not target.startswith("exactdp."):
            return f"<code>{shown}</code>"
        ident = _PUBLIC.get(target, target)
        return f'<autoref identifier="{ident}" optional><code>{shown}</code></autoref>'

    return _ROLE.sub(repl, html)


def on_page_content(html, page, config, files):
    if page.file.src_uri.startswith("reference/"):
        return link_roles(mark_guarantees(html))
    return html
