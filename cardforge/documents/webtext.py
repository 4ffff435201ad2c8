"""rulebook.html's text: Markdown tokens (parsed by :data:`~cardforge.documents.flow.PARSE`, as
for rulebook.pdf) written as HTML, with icons as inline SVG symbols and glossary terms linked.

:class:`Page` holds what the page is written with (the game, the icons used, the anchors, the
contents list, the glossary's patterns); :class:`Inline` writes inline text (icons, links to
glossary terms, once per block); :func:`blocks` writes block tokens (headings with anchors,
paragraphs, lists, tables); :func:`symbol` makes an icon's SVG file one ``<symbol>``, with
scripts, styles, event attributes and outside links removed.
"""
from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

from cardforge.model import Game, slugify
from cardforge.documents.flow import TABLE_MARK
from cardforge.util.markup import TOKEN

SVG_NS = "http://www.w3.org/2000/svg"
FORBIDDEN_SVG = {"script", "foreignObject", "iframe", "embed", "object", "style"}


@dataclass
@dataclass
class Page:
    """What the page is being written with: the game, its icons used, glossary patterns, anchors."""

    game: Game
    icons_used: set[str] = field(default_factory=set)
    ids: set[str] = field(default_factory=set)
    contents: list[tuple[int, str, str]] = field(default_factory=list)  # (level, text, anchor)
    terms: list[tuple[re.Pattern, str]] = field(default_factory=list)

    def anchor(self, text: str, prefix: str = "") -> str:
        base = prefix + (slugify(text) or "section")
        anchor, n = base, 2
        while anchor in self.ids:
            anchor, n = f"{base}-{n}", n + 1
        self.ids.add(anchor)
        return anchor


def glossary_anchor(term: str) -> str:
    """The anchor of a glossary term in rulebook.html: ``#term-<slug>``."""
    return "term-" + (slugify(term) or "term")


def term_patterns(game: Game) -> list[tuple[re.Pattern, str]]:
    """(pattern, anchor) for every glossary term and its forms, longest first."""
    found = []
    for term, spec in game.glossary.items():
        for form in [term] + list((spec or {}).get("forms") or []):
            found.append((str(form), glossary_anchor(term)))
    found.sort(key=lambda f: -len(f[0]))
    return [(re.compile(rf"(?<![\w-]){re.escape(form)}(?![\w-])", re.I), anchor) for form, anchor in found]


class Inline:
    """Writes inline text as HTML: icons as inline SVG, glossary terms linked once per block."""

    def __init__(self, page: Page, link_terms: bool = True, skip: str = ""):
        self.page = page
        self.linked: set[str] = {skip} if skip else set()
        self.link_terms = link_terms

    def icon(self, name: str) -> str:
        icon = self.page.game.icons.get(name)
        if icon is None or not icon.printable:
            return html.escape("{" + name + "}")
        if icon.text is not None:
            return f'<b class="icon-text" title="{html.escape(icon.label)}">{html.escape(icon.text)}</b>'
        self.page.icons_used.add(name)
        svg = f'<use href="#icon-{html.escape(name)}"/>'
        if icon.badge:  # the number the cards print over the icon ("discard 1")
            return (f'<span class="badged" role="img" aria-label="{html.escape(icon.label)}"><svg class="icon" '
                    f'aria-hidden="true">{svg}</svg><span class="badge" aria-hidden="true">{html.escape(icon.badge)}</span></span>')
        return f'<svg class="icon" role="img" aria-label="{html.escape(icon.label)}">{svg}</svg>'


    def text(self, raw: str) -> str:
        """Card markup text (``{icon}`` tokens) as HTML, terms linked."""
        parts, pos = [], 0
        for match in TOKEN.finditer(raw):
            if match.group(1):
                parts.append(self._words(raw[pos:match.start()]))
                parts.append(self.icon(match.group(1)))
                pos = match.end()
        parts.append(self._words(raw[pos:]))
        return "".join(parts)

    def _words(self, text: str) -> str:
        if not self.link_terms or not text:
            return html.escape(text)
        spans: list[tuple[int, int, str]] = []
        for pattern, anchor in self.page.terms:
            if anchor in self.linked:
                continue
            for match in pattern.finditer(text):
                if any(a < match.end() and match.start() < b for a, b, _ in spans):
                    continue
                spans.append((match.start(), match.end(), anchor))
                self.linked.add(anchor)
                break
        out, pos = [], 0
        for start, end, anchor in sorted(spans):
            out.append(html.escape(text[pos:start]))
            out.append(f'<a class="term" href="#{anchor}">{html.escape(text[start:end])}</a>')
            pos = end
        out.append(html.escape(text[pos:]))
        return "".join(out)

    def tokens(self, children: list[dict]) -> str:
        """Mistune inline tokens as HTML."""
        out = []
        for tok in children:
            kind = tok["type"]
            if kind == "text":
                out.append(self.text(tok["raw"]))
            elif kind == "strong":
                out.append(f"<strong>{self.tokens(tok['children'])}</strong>")
            elif kind == "emphasis":
                out.append(f"<em>{self.tokens(tok['children'])}</em>")
            elif kind == "codespan":
                out.append(f"<code>{html.escape(tok.get('raw', ''))}</code>")
            elif kind == "linebreak":
                out.append("<br>")
            elif kind == "softbreak":
                out.append(" ")
            elif "children" in tok:
                out.append(self.tokens(tok["children"]))
            elif "raw" in tok:
                out.append(self.text(tok["raw"]))
        return "".join(out)


def plain_text(children: list[dict]) -> str:
    """The text of Mistune inline tokens ``children``, markup dropped and spaces collapsed."""
    return re.sub(r"\s+", " ", "".join(t.get("raw", "") if t["type"] == "text" else plain_text(t.get("children", []))
                                     for t in children)).strip()


def heading_text(page: Page, children: list[dict]) -> str:
    """A heading's inline tokens as HTML, its icons drawn and no glossary term linked."""
    return Inline(page, link_terms=False).tokens(children)


def blocks(tokens: list[dict], page: Page) -> list[str]:
    """Mistune block tokens as HTML, headings numbered into the contents."""
    out: list[str] = []
    table_name = None
    for tok in tokens:
        kind = tok["type"]
        if kind == "heading":
            level = min(tok["attrs"]["level"], 4)
            plain = plain_text(tok["children"])
            anchor = page.anchor(plain)
            if level <= 2:
                page.contents.append((level - 1, plain, anchor))
            out.append(f'<h{level + 1} id="{anchor}">{heading_text(page, tok["children"])}</h{level + 1}>')
        elif kind == "paragraph":
            out.append(f"<p>{Inline(page).tokens(tok['children'])}</p>")
        elif kind == "list":
            ordered = tok["attrs"].get("ordered")
            start = tok["attrs"].get("start", 1) or 1
            tag = "ol" if ordered else "ul"
            items = "".join("<li>" + " ".join(Inline(page).tokens(b.get("children", [])) for b in item["children"])
                            + "</li>" for item in tok["children"])
            out.append(f'<{tag}{f" start={start}" if ordered and start != 1 else ""}>{items}</{tag}>')
        elif kind == "table":
            out.append(table(tok, page, table_name))
            table_name = None
        elif kind == "block_quote":
            out.append("<blockquote>" + "".join(blocks(tok["children"], page)) + "</blockquote>")
        elif kind == "block_html":
            found = TABLE_MARK.search(tok.get("raw", ""))
            if found:
                table_name = found.group(1)
        elif kind == "thematic_break":
            out.append("<hr>")
    return out


def table(tok: dict, page: Page, name: str | None) -> str:
    """A Mistune table token as an HTML ``<table>`` labelled ``name`` (else by its header row's text)."""
    head = next((c for c in tok["children"] if c["type"] == "table_head"), None)
    body = next((c for c in tok["children"] if c["type"] == "table_body"), {"children": []})
    label = name or " | ".join(plain_text(c["children"]) for c in (head or {"children": []})["children"]) or "table"
    rows = []
    if head:
        rows.append("<thead><tr>" + "".join(f'<th scope="col">{Inline(page, False).tokens(c["children"])}</th>'
                                            for c in head["children"]) + "</tr></thead>")
    rows.append("<tbody>" + "".join("<tr>" + "".join(f"<td>{Inline(page).tokens(c['children'])}</td>"
                                                     for c in row["children"]) + "</tr>"
                                    for row in body["children"]) + "</tbody>")
    return (f'<div class="table" role="region" aria-label="{html.escape(label)}" tabindex="0">'
            f'<table>{"".join(rows)}</table></div>')


def symbol(name: str, svg: Path, color: str) -> str:
    """An icon's SVG file as a ``<symbol id="icon-<name>">`` in ``color``: scripts, styles,
    event attributes and links outside the file removed."""
    from cardforge.render.icons import svg_text

    root = ET.fromstring(svg_text(svg, color))
    for parent in list(root.iter()):
        for child in list(parent):
            if not isinstance(child.tag, str) or child.tag.split("}")[-1] in FORBIDDEN_SVG:
                parent.remove(child)
    for element in root.iter():
        for key in list(element.attrib):
            local = key.split("}")[-1]
            if local.startswith("on") or (local == "href" and not element.attrib[key].startswith("#")):
                del element.attrib[key]
    view_box = root.get("viewBox") or f"0 0 {root.get('width', '24').rstrip('px')} {root.get('height', '24').rstrip('px')}"
    ET.register_namespace("", SVG_NS)
    ET.register_namespace("xlink", "http://www.w3.org/1999/xlink")
    inner = "".join(re.sub(r' xmlns(:\w+)?="[^"]*"', "", ET.tostring(child, encoding="unicode")) for child in root)
    return f'<symbol id="icon-{html.escape(name)}" viewBox="{html.escape(view_box)}">{inner}</symbol>'
