"""The rulebook as one web page (rulebook.html), from the same sources as rulebook.pdf.

The rules are :func:`~cardforge.documents.rulebook.book_markdown` (rulebook.md over the game's
data), parsed by the same Markdown parser as the PDF (:data:`~cardforge.documents.flow.PARSE`)
and written as HTML instead of flowables; the glossary, the icon legend and the card
appendix print the same entries under the same headings as the PDF. One self-contained
file that makes no request outside itself (its Content-Security-Policy forbids any):

* icons inline as SVG (each icon's file once, as a ``<symbol>``; a text icon as its text);
* every card's front and back, at its trim, as WebP data URIs :data:`CARD_PX` pixels wide, drawn by
  :func:`cardforge.export.faces.face_pdf` (the preview's path) and rasterised with PDFium;
  a back that every card of a type shares prints once, at the head of the type's section;
* a linked contents list, headings with anchors, glossary terms linked from the rules and
  the card text (the first use in each paragraph), the game's own words;
* the card appendix with a search box and a filter by card type (a few lines of inline
  script; without script every card shows), the system's fonts, a layout readable from
  360 px wide up, and print CSS (no controls, no page break inside a card).

Optional ``odds`` sections come from :mod:`cardforge.documents.odds` when the game declares
them. Raises ``ValueError`` when rulebook.md is missing or does not render.
"""
from __future__ import annotations

import base64
import hashlib
import html
import io
import json
import re
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from cardforge.model import Card, Game, slugify
from cardforge.almanac.display import marked, prints_text, quantity_marked, shown, text_marked
from cardforge.documents.flow import PARSE, TABLE_MARK
from cardforge.documents.playertext import DESIGNED, DESIGNED_NOTE, cover_facts, has_designed
from cardforge.documents.rulebook import EVERY_CARD, EVERY_CARD_NOTE, GLOSSARY, ICON_LEGEND, book_markdown, type_heading
from cardforge.util.markup import TOKEN
from cardforge.util.i18n import _

if TYPE_CHECKING:
    from cardforge.layout import LayoutSet
    from cardforge.documents.memo import Memo

CARD_PX = 300  # a card face's width in pixels: sharp on a phone, small in the file
FACE_DPI = 110  # rasterised at this, then scaled down to CARD_PX when wider
WEBP_QUALITY = 82
# libwebp's effort (0-6): 2 encodes a face about four times faster than 6 for files about 4 % larger
WEBP_METHOD = 2
SVG_NS = "http://www.w3.org/2000/svg"
FORBIDDEN_SVG = {"script", "foreignObject", "iframe", "embed", "object", "style"}


@dataclass
class Face:
    """A card face as a data URI and its size in pixels."""

    uri: str
    width: int
    height: int
    radius: str = "0"  # CSS border-radius: the card's cut (rounded corners, a round token)

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.uri.encode()).hexdigest()


@dataclass
class _Page:
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


def _term_patterns(game: Game) -> list[tuple[re.Pattern, str]]:
    """(pattern, anchor) for every glossary term and its forms, longest first."""
    found = []
    for term, spec in game.glossary.items():
        for form in [term] + list((spec or {}).get("forms") or []):
            found.append((str(form), glossary_anchor(term)))
    found.sort(key=lambda f: -len(f[0]))
    return [(re.compile(rf"(?<![\w-]){re.escape(form)}(?![\w-])", re.I), anchor) for form, anchor in found]


class _Inline:
    """Writes inline text as HTML: icons as inline SVG, glossary terms linked once per block."""

    def __init__(self, page: _Page, link_terms: bool = True, skip: str = ""):
        self.page = page
        self.linked: set[str] = {skip} if skip else set()
        self.link_terms = link_terms

    def icon(self, name: str) -> str:
        icon = self.page.game.icons.get(name)
        if icon is None:
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


def _plain(children: list[dict]) -> str:
    return re.sub(r"\s+", " ", "".join(t.get("raw", "") if t["type"] == "text" else _plain(t.get("children", []))
                                     for t in children)).strip()


def _heading_text(page: _Page, children: list[dict]) -> str:
    return _Inline(page, link_terms=False).tokens(children)


def _blocks(tokens: list[dict], page: _Page) -> list[str]:
    """Mistune block tokens as HTML, headings numbered into the contents."""
    out: list[str] = []
    table_name = None
    for tok in tokens:
        kind = tok["type"]
        if kind == "heading":
            level = min(tok["attrs"]["level"], 4)
            plain = _plain(tok["children"])
            anchor = page.anchor(plain)
            if level <= 2:
                page.contents.append((level - 1, plain, anchor))
            out.append(f'<h{level + 1} id="{anchor}">{_heading_text(page, tok["children"])}</h{level + 1}>')
        elif kind == "paragraph":
            out.append(f"<p>{_Inline(page).tokens(tok['children'])}</p>")
        elif kind == "list":
            ordered = tok["attrs"].get("ordered")
            start = tok["attrs"].get("start", 1) or 1
            tag = "ol" if ordered else "ul"
            items = "".join("<li>" + " ".join(_Inline(page).tokens(b.get("children", [])) for b in item["children"])
                            + "</li>" for item in tok["children"])
            out.append(f'<{tag}{f" start={start}" if ordered and start != 1 else ""}>{items}</{tag}>')
        elif kind == "table":
            out.append(_table(tok, page, table_name))
            table_name = None
        elif kind == "block_quote":
            out.append("<blockquote>" + "".join(_blocks(tok["children"], page)) + "</blockquote>")
        elif kind == "block_html":
            found = TABLE_MARK.search(tok.get("raw", ""))
            if found:
                table_name = found.group(1)
        elif kind == "thematic_break":
            out.append("<hr>")
    return out


def _table(tok: dict, page: _Page, name: str | None) -> str:
    head = next((c for c in tok["children"] if c["type"] == "table_head"), None)
    body = next((c for c in tok["children"] if c["type"] == "table_body"), {"children": []})
    label = name or " | ".join(_plain(c["children"]) for c in (head or {"children": []})["children"]) or "table"
    rows = []
    if head:
        rows.append("<thead><tr>" + "".join(f'<th scope="col">{_Inline(page, False).tokens(c["children"])}</th>'
                                            for c in head["children"]) + "</tr></thead>")
    rows.append("<tbody>" + "".join("<tr>" + "".join(f"<td>{_Inline(page).tokens(c['children'])}</td>"
                                                     for c in row["children"]) + "</tr>"
                                    for row in body["children"]) + "</tbody>")
    return (f'<div class="table" role="region" aria-label="{html.escape(label)}" tabindex="0">'
            f'<table>{"".join(rows)}</table></div>')


def _symbol(name: str, svg: Path, color: str) -> str:
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


def card_faces(game: Game, layouts: LayoutSet, memo: Memo | None = None) -> dict[str, tuple[Face, Face]]:
    """``{card.id: (front, back)}``: every card's faces (at the trim, no bleed) as WebP data URIs
    :data:`CARD_PX` wide, drawn through :func:`cardforge.export.faces.face_pdf`. With a
    ``memo``, each card's faces are kept under a key of its fields and everything else that
    draws it, so an edit to one card draws one card again."""
    from PIL import Image

    from cardforge.export.faces import face_pdf, rasterise

    keys = _face_keys(game.cards, game, layouts) if memo else {}
    found: dict[str, tuple[Face, Face]] = {}
    missing = []
    for card in game.cards:
        kept = memo.get_faces(keys[card.id]) if memo else None
        if kept is not None:
            found[card.id] = tuple(_face(data) for data in kept)
        elif card.id not in {c.id for c in missing}:
            missing.append(card)
    if missing:
        with tempfile.TemporaryDirectory() as tmp:
            pdf = Path(tmp) / "faces.pdf"
            face_pdf(missing, game, layouts, pdf, bleed=False)  # the card as cut, as a player holds it
            pages = rasterise(pdf, FACE_DPI)
            encoded: dict[tuple, bytes] = {}  # the same pixels (a back most cards share) encoded once
            for card in missing:
                pair = []
                for image in (next(pages), next(pages)):
                    if image.width > CARD_PX:
                        image = image.resize((CARD_PX, round(image.height * CARD_PX / image.width)), Image.LANCZOS)
                    pixels = (image.size, hashlib.sha256(image.tobytes()).digest())
                    if pixels not in encoded:
                        buffer = io.BytesIO()
                        image.save(buffer, "WEBP", quality=WEBP_QUALITY, method=WEBP_METHOD)
                        encoded[pixels] = buffer.getvalue()
                    pair.append(encoded[pixels])
                if memo:
                    memo.keep_faces(keys[card.id], pair)
                found[card.id] = tuple(_face(data) for data in pair)
        if memo:
            memo.prune_faces()
    for card in game.cards:
        layout = layouts.for_card(card)
        w, h = layout.size
        radius = "50%" if layout.shape == "circle" else f"{100 * layout.corner / w:.1f}% / {100 * layout.corner / h:.1f}%"
        found[card.id] = tuple(Face(f.uri, f.width, f.height, radius) for f in found[card.id])
    return found


def _face(data: bytes) -> Face:
    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        width, height = image.size
    return Face("data:image/webp;base64," + base64.b64encode(data).decode("ascii"), width, height)


def _face_keys(cards: list[Card], game: Game, layouts: LayoutSet) -> dict[str, str]:
    """``{card.id: memo key}``: each card's fields with what every face of the pack is drawn
    from (the pack's files but its card files, its layouts, cardforge; worked out once)."""
    from cardforge.render.pagecache import context_digest
    from cardforge.documents.memo import Memo

    folder = Path(layouts.file).parent if layouts.file else game.root.parent.parent / "layouts"
    try:
        context = context_digest(game.root, folder)
    except OSError:
        context = json.dumps(game.data, sort_keys=True, default=str)
    return {card.id: Memo.key("card-face", "trim", CARD_PX, FACE_DPI, WEBP_QUALITY, WEBP_METHOD, context,
                              json.dumps([card.type, card.name, card.quantity, card.data], sort_keys=True, default=str))
            for card in cards}


def _cover(game: Game) -> str:
    meta = game.meta
    lines = cover_facts(meta)
    out = [f"<h1>{html.escape(game.title)}</h1>"]
    if meta.get("tagline"):
        out.append(f'<p class="tagline"><em>{html.escape(meta["tagline"])}</em></p>')
    out.append(f'<p class="meta">{html.escape(" · ".join(x for x in lines if x))}</p>')
    if meta.get("designer"):
        out.append(f'<p class="meta">{_("Designed by {designer}").format(designer=html.escape(meta["designer"]))}</p>')
    if has_designed(game):
        out.append(f'<p class="meta">{html.escape(_(DESIGNED_NOTE))}</p>')
    return "<header>" + "".join(out) + "</header>"


def _card_article(card: Card, page: _Page, faces: tuple[Face, Face] | None, back_shown: bool) -> str:
    game = page.game
    write = _Inline(page)
    facts, tables = [], []
    name_mark, fields = marked(card, game)
    for item in fields:
        mark = DESIGNED if item.designed else ""
        if item.table is not None:
            header, rows = item.table
            tables.append(f'<div class="table" role="region" aria-label="{html.escape(card.name)}: '
                          f'{html.escape(item.label)}" tabindex="0"><table><thead><tr>'
                          + "".join(f'<th scope="col">{html.escape(h)}</th>' for h in header) + "</tr></thead><tbody>"
                          + "".join("<tr>" + "".join(f"<td>{write.text(c)}</td>" for c in row) + "</tr>" for row in rows)
                          + "</tbody></table></div>")
        elif item.text and not item.label:  # the value says what it is
            facts.append(f"<li>{write.text(item.text)}{mark}</li>")
        elif item.text:
            facts.append(f"<li><em>{html.escape(item.label)}</em> {write.text(item.text)}{mark}</li>")
        else:
            facts.append(f"<li><em>{html.escape(item.label)}</em>{mark}</li>")
    anchor = page.anchor(card.name, "card-")
    words = " ".join([card.name, game.card_types[card.type].label, str(card.data.get("text") or "")]
                     + [f.text for f in shown(card, game)])
    search = re.sub(r"\s+", " ", TOKEN.sub(lambda m: " " + (game.icons[m.group(1)].label if m.group(1) in game.icons
                                                            else m.group(0)) + " ", words)).strip().lower()
    out = [f'<article class="card" id="{anchor}" data-type="{html.escape(card.type)}" '
           f'data-search="{html.escape(search)}">',
           f'<h4>{html.escape(card.name)}{DESIGNED if name_mark else ""} <span class="qty">× {card.quantity}{DESIGNED if quantity_marked(card, game) else ""}</span></h4>']
    if faces:
        front, back = faces
        out.append('<div class="faces">')
        out.append(f'<img src="{front.uri}" width="{front.width}" height="{front.height}" '
                   f'alt="{html.escape(card.name)}, front" loading="lazy" style="border-radius:{front.radius}">')
        if not back_shown:
            out.append(f'<img src="{back.uri}" width="{back.width}" height="{back.height}" '
                       f'alt="{html.escape(card.name)}, back" loading="lazy" style="border-radius:{back.radius}">')
        out.append("</div>")
    out.append('<div class="entry">')
    if facts:
        out.append('<ul class="facts">' + "".join(facts) + "</ul>")
    out += tables
    if card.data.get("text") and prints_text(game, card.type):
        out.append('<p class="text">' + "<br>".join(write.text(line) for line in str(card.data["text"]).split("\n"))
                   + (DESIGNED if text_marked(card, game) else "")
                   + "</p>")
    out.append("</div></article>")
    return "".join(out)


def _odds(page: _Page) -> list[str]:
    """The odds of the draws the game declares: for each its table and its stack's make-up
    (a bar split by card type, its key giving every count in words)."""
    from cardforge.almanac.charts import PALETTE
    from cardforge.almanac.odds import ODDS_HEADING, ODDS_NOTE, odds, rows, summary

    found = odds(page.game)
    if not found:
        return []
    anchor = page.anchor(_(ODDS_HEADING))
    page.contents.append((0, _(ODDS_HEADING), anchor))
    out = [f'<section class="odds"><h2 id="{anchor}">{_(ODDS_HEADING)}</h2><p class="note">{html.escape(_(ODDS_NOTE))}</p>']
    for result in found:
        title = result.title + (DESIGNED if result.designed else "")
        anchor = page.anchor(result.title, "odds-")
        page.contents.append((1, title, anchor))
        header, body = rows(result)
        line = summary(result) + (f" {_(DESIGNED_NOTE)}." if result.designed else "")
        out.append(f'<h3 id="{anchor}">{html.escape(title)}</h3><p>{_Inline(page).text(line)}</p>')
        out.append(f'<div class="table" role="region" aria-label="{html.escape(result.title)}" tabindex="0"><table>'
                   "<thead><tr>" + "".join(f'<th scope="col">{html.escape(h)}</th>' for h in header) + "</tr></thead>"
                   "<tbody>" + "".join("<tr>" + f'<th scope="row">{html.escape(r[0])}</th>'
                                       + "".join(f"<td>{html.escape(c)}</td>" for c in r[1:]) + "</tr>" for r in body)
                   + "</tbody></table></div>")
        colours = (PALETTE[0], PALETTE[4])
        segments, key = [], []
        for label, hits, others in result.stack:
            for n, (count, colour, what) in enumerate(((hits, colours[0], result.cards), (others, colours[1], "other cards"))):
                if count:
                    segments.append(f'<span style="width:{100 * count / result.size:.3f}%;background:{colour}'
                                    f'{";border-left:2px solid #fff" if segments else ""}"></span>')
                    what = "other card" if n == 1 and count == 1 else what
                    key.append(f'<li><span class="swatch" style="background:{colour}"></span>'
                               f"{html.escape(label)}: {count} {html.escape(what)}</li>")
        out.append(f'<figure class="composition"><div class="bar" role="img" aria-label="{html.escape(line)}">'
                   + "".join(segments) + '</div><figcaption><ul class="key">' + "".join(key) + "</ul></figcaption></figure>")
    out.append("</section>")
    return out


def _appendices(page: _Page, faces: dict[str, tuple[Face, Face]]) -> list[str]:
    game = page.game
    out = []
    if game.glossary:  # an empty section prints no heading
        anchor = page.anchor(_(GLOSSARY))
        page.contents.append((0, _(GLOSSARY), anchor))
        out.append(f'<section><h2 id="{anchor}">{_(GLOSSARY)}</h2><dl class="glossary">')
        for term, spec in sorted(game.glossary.items(), key=lambda kv: kv[0].lower()):
            page.ids.add(glossary_anchor(term))
            out.append(f'<dt id="{glossary_anchor(term)}">{html.escape(term)}</dt>'
                       f'<dd>{_Inline(page, skip=glossary_anchor(term)).text(str(spec["definition"]))}</dd>')
        out.append("</dl></section>")
    if any(icon.legend for icon in game.icons.values()):
        anchor = page.anchor(_(ICON_LEGEND))
        page.contents.append((0, _(ICON_LEGEND), anchor))
        out.append(f'<section class="icons"><h2 id="{anchor}">{_(ICON_LEGEND)}</h2><ul class="legend">')
        plain = _Inline(page, link_terms=False)
        for name, icon in game.icons.items():
            if icon.legend:
                out.append(f"<li>{plain.icon(name)} {html.escape(icon.label)}</li>")
        out.append("</ul></section>")
    anchor = page.anchor(_(EVERY_CARD))
    page.contents.append((0, _(EVERY_CARD), anchor))
    types = [(t, ct) for t, ct in game.card_types.items() if game.cards_of(t)]
    note = _(EVERY_CARD_NOTE) + (f" {_(DESIGNED_NOTE)}." if has_designed(game) else "")
    out.append(f'<section id="almanac"><h2 id="{anchor}">{_(EVERY_CARD)}</h2><p class="note">{html.escape(note)}</p>')
    out.append('<form class="finder" role="search" hidden><label for="q">Find a card</label>'
               '<input id="q" type="search" autocomplete="off" placeholder="name, text or icon">'
               '<label for="type">Card type</label><select id="type"><option value="">every type</option>'
               + "".join(f'<option value="{html.escape(t)}">{html.escape(ct.label)}</option>' for t, ct in types)
               + '</select><output id="shown" for="q type" aria-live="polite"></output></form>')
    for type_id, card_type in types:
        cards = game.cards_of(type_id)
        heading = type_heading(game, type_id)
        anchor = page.anchor(card_type.label, "cards-")
        page.contents.append((1, heading, anchor))
        backs = {faces[c.id][1].digest for c in cards if c.id in faces}
        shared = len(backs) == 1 and len(cards) > 1
        out.append(f'<section class="type" data-type="{html.escape(type_id)}"><h3 id="{anchor}">'
                   f'{html.escape(heading)}</h3>')
        if shared:
            back = faces[cards[0].id][1]
            out.append(f'<figure class="shared-back"><img src="{back.uri}" width="{back.width}" height="{back.height}" '
                       f'alt="The back of every {html.escape(card_type.label)} card" loading="lazy" '
                       f'style="border-radius:{back.radius}">'
                       f'<figcaption>The back of every card of this type</figcaption></figure>')
        for card in cards:
            out.append(_card_article(card, page, faces.get(card.id), shared))
        out.append("</section>")
    out.append("</section>")
    return out


STYLE = """
:root{--ink:#212121;--accent:#5d4037;--muted:#616161;--line:#d7ccc8;--paper:#fffdf8;color-scheme:light}
*{box-sizing:border-box}
[hidden]{display:none!important}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--paper);color:var(--ink);font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,
"DejaVu Sans","Helvetica Neue",Arial,sans-serif;overflow-wrap:break-word}
.page{max-width:52rem;margin:0 auto;padding:1rem}
header{text-align:center;padding:1.5rem 0 1rem;border-bottom:2px solid var(--line)}
h1,h2,h3{font-family:Georgia,"DejaVu Serif","Times New Roman",serif;color:var(--accent);line-height:1.2}
h1{font-size:2.2rem;margin:.2rem 0}
h2{font-size:1.7rem;margin:2rem 0 .6rem;padding-top:.4rem;border-top:1px solid var(--line)}
h3{font-size:1.3rem;margin:1.4rem 0 .4rem}
h4{font-size:1.05rem;margin:0 0 .3rem}
h5{font-size:1rem;margin:1rem 0 .3rem}
.tagline{font-size:1.1rem;margin:.2rem 0}.meta{color:var(--muted);margin:.2rem 0}
a{color:#1a4f8b}a.term{color:inherit;text-decoration:underline dotted #8d6e63;text-underline-offset:2px}
nav#contents ol{padding-left:1.2rem}nav#contents li{margin:.15rem 0}nav#contents ol ol{font-size:.95rem}
.icon{width:1.15em;height:1.15em;vertical-align:-.22em;display:inline-block}
.icon-text{font-weight:700}
.badged{white-space:nowrap}.badge{font-size:.7em;font-weight:700;vertical-align:-.1em;margin-left:-.15em}
.table{overflow-x:auto;margin:.6rem 0;max-width:100%}
table{border-collapse:collapse;font-size:.92rem}
th,td{border:1px solid var(--line);padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#efebe9}
dl.glossary dt{font-weight:700;margin-top:.6rem}dl.glossary dd{margin:0 0 0 1rem}
ul.legend{list-style:none;padding:0;columns:16rem}ul.legend li{margin:.2rem 0;break-inside:avoid}
.finder{display:flex;flex-wrap:wrap;gap:.4rem .8rem;align-items:center;padding:.6rem;background:#efebe9;
border-radius:.4rem;margin:.6rem 0}
.finder input,.finder select{font:inherit;padding:.3rem .4rem;min-width:0;max-width:100%}
.finder input{flex:1 1 10rem}
.finder output{color:var(--muted);font-size:.9rem;flex-basis:100%}
article.card{display:flex;flex-wrap:wrap;gap:.8rem;padding:.8rem 0;border-bottom:1px solid var(--line)}
article.card h4{flex-basis:100%}
.qty{color:var(--muted);font-weight:400}
.faces{display:flex;gap:.4rem;flex-wrap:wrap}
.faces img,.shared-back img{width:150px;max-width:100%;height:auto;border-radius:4px;box-shadow:0 1px 3px #0004}
.entry{flex:1 1 14rem;min-width:0}
ul.facts{list-style:none;padding:0;margin:0 0 .3rem}ul.facts li{display:inline;margin-right:.8rem}
p.text{margin:.2rem 0}
.shared-back{margin:.4rem 0}.shared-back figcaption{color:var(--muted);font-size:.9rem}
.note{font-style:italic}
.odds table{font-size:.85rem}.odds th,.odds td{padding:.2rem .35rem}
.odds td,.odds thead th{white-space:nowrap;text-align:right}.odds tbody th{font-weight:400}
figure.composition{margin:.4rem 0 1rem}
section.components .faces{display:flex;flex-wrap:wrap;gap:.8rem}section.components figure{margin:0;width:9rem}
section.components img{width:100%;height:auto}
figure.anatomy-figure{margin:.6rem 0 1.2rem}figure.anatomy-figure img{max-width:100%;height:auto}
figure.anatomy-figure ol{margin:.2rem 0 0;font-size:.9rem}
.bar{display:flex;height:1.4rem;border-radius:3px;overflow:hidden;margin:.3rem 0}
.bar span{display:block;height:100%}
.key{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.2rem 1rem;font-size:.9rem}
.swatch{display:inline-block;width:.9em;height:.9em;border-radius:2px;vertical-align:-.1em;margin-right:.3em}
@media (min-width:40rem){.faces img,.shared-back img{width:180px}.finder{position:sticky;top:0;z-index:1}}
@media print{
body{background:#fff;font-size:10.5pt}.page{max-width:none;padding:0}
.finder,nav#contents{display:none}
a{color:inherit;text-decoration:none}
h2{break-before:page;border-top:0}main>h2:first-child,section.icons>h2{break-before:auto}
.bar span,.swatch,th{-webkit-print-color-adjust:exact;print-color-adjust:exact}
h2,h3,h4{break-after:avoid}
article.card,tr,.shared-back,figure{break-inside:avoid}
.faces img,.shared-back img{width:38mm;box-shadow:none;border:0.2mm solid #999}
.table{overflow:visible}
}
"""

SCRIPT = """
(function(){
var form=document.querySelector('.finder');if(!form)return;form.hidden=false;
var q=document.getElementById('q'),t=document.getElementById('type'),o=document.getElementById('shown');
var cards=[].slice.call(document.querySelectorAll('article.card')),types=[].slice.call(document.querySelectorAll('section.type'));
function run(){var words=q.value.toLowerCase().split(/\\s+/).filter(Boolean),kind=t.value,n=0;
cards.forEach(function(c){var ok=(!kind||c.dataset.type===kind)&&words.every(function(w){return c.dataset.search.indexOf(w)>=0});
c.hidden=!ok;if(ok)n++;});
types.forEach(function(s){s.hidden=!s.querySelector('article.card:not([hidden])');});
o.textContent=n+(n===1?' card':' cards')+' shown';}
form.addEventListener('submit',function(e){e.preventDefault();});
q.addEventListener('input',run);t.addEventListener('change',run);run();
})();
"""


def _components(page: _Page, layouts: LayoutSet, faces: dict) -> list[str]:
    """One card of each kind and each card back, as rulebook.pdf's components page shows them."""
    from cardforge.documents.anatomy import sample
    from cardforge.documents.rulebook import COMPONENTS
    from cardforge.sandbox.choice import back_of

    game = page.game
    shown = []
    for type_id, card_type in game.card_types.items():
        card = sample(game, type_id, layouts)
        if card is not None:
            shown.append((faces[card.id][0], f"{card_type.label} ({game.total(type_id)})", card.name))
    backs: set[str] = set()
    for card in game.cards:
        back = back_of(card, game)
        if back in backs:
            continue
        backs.add(back)
        shown.append((faces[card.id][1], f"Back: {game.card_types[card.type].label}", f"{card.name}, back"))
    if not shown:
        return []
    anchor = page.anchor(_(COMPONENTS))
    page.contents.append((0, _(COMPONENTS), anchor))
    out = [f'<section class="components"><h2 id="{anchor}">{_(COMPONENTS)}</h2><div class="faces">']
    for face, caption, alt in shown:
        out.append(f'<figure><img src="{face.uri}" width="{face.width}" height="{face.height}" alt="{html.escape(alt)}" '
                   f'loading="lazy" style="border-radius:{face.radius}"><figcaption>{html.escape(caption)}</figcaption>'
                   "</figure>")
    out.append("</div></section>")
    return out


def _anatomy(page: _Page, layouts: LayoutSet) -> list[str]:
    """The card anatomy figures, as rulebook.pdf draws them (:mod:`cardforge.documents.anatomy`),
    each with its callouts as a numbered list (the figure's text)."""
    from cardforge.documents.anatomy import anatomy_pictures
    from cardforge.documents.rulebook import ANATOMY

    pictures = anatomy_pictures(page.game, layouts)
    if not pictures:
        return []
    anchor = page.anchor(_(ANATOMY))
    page.contents.append((0, _(ANATOMY), anchor))
    out = [f'<section class="anatomy"><h2 id="{anchor}">{_(ANATOMY)}</h2>']
    for picture in pictures:
        items = "".join(f"<li>{html.escape(c.label)}</li>" for c in picture.callouts)
        out.append(f'<figure class="anatomy-figure"><img src="{picture.uri}" width="{picture.width}" '
                   f'height="{picture.height}" alt="{html.escape(picture.card)}, its parts numbered" loading="lazy">'
                   f"<figcaption><b>{html.escape(picture.label)}</b> ({html.escape(picture.card)})"
                   f"<ol>{items}</ol></figcaption></figure>")
    out.append("</section>")
    return out


def render_rulebook_html(game: Game, layouts: LayoutSet, out: Path, memo: Memo | None = None) -> dict:
    """Write rulebook.html for ``game`` (see the module docstring); returns
    ``{"bytes": size of the file, "cards": cards shown, "images": card faces embedded}``.

    Raises ``ValueError`` if rulebook.md is missing or does not render, and
    :class:`~cardforge.render.icons.IconError` for an icon file that cannot be read."""
    page = _Page(game, terms=_term_patterns(game))
    for term in game.glossary:
        page.ids.add(glossary_anchor(term))  # reserved: a heading never takes a term's anchor
    page.ids.update({"contents", "almanac", "q", "type", "shown"})
    faces = card_faces(game, layouts, memo)
    body = _components(page, layouts, faces) + _anatomy(page, layouts) + _blocks(PARSE(book_markdown(game)), page)
    body += _odds(page)
    body += _appendices(page, faces)
    symbols = "".join(_symbol(name, game.icons[name].svg, game.icons[name].color) for name in sorted(page.icons_used))
    contents = [f'<nav id="contents" aria-labelledby="contents-title"><h2 id="contents-title">{_("Contents")}</h2><ol>']
    open_sub = False
    for level, text, anchor in page.contents:
        if level == 0:
            if open_sub:
                contents.append("</ol></li>")
                open_sub = False
            elif len(contents) > 1:
                contents.append("</li>")
            contents.append(f'<li><a href="#{anchor}">{html.escape(text)}</a>')
        else:
            if not open_sub:
                contents.append("<ol>")
                open_sub = True
            contents.append(f'<li><a href="#{anchor}">{html.escape(text)}</a></li>')
    contents.append("</ol></li></ol></nav>" if open_sub else "</li></ol></nav>")
    script_hash = base64.b64encode(hashlib.sha256(SCRIPT.encode()).digest()).decode()
    policy = (f"default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'sha256-{script_hash}'; "
              "base-uri 'none'; form-action 'none'")
    document = "".join([
        f'<!doctype html>\n<html lang="{html.escape((game.language or "en").replace("_", "-"))}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f'<meta http-equiv="Content-Security-Policy" content="{policy}">',
        f"<title>{html.escape(game.title)}: {_('rulebook')}</title>",
        '<meta name="generator" content="cardforge">',
        f"<style>{STYLE}</style></head><body>",
        f'<svg class="sprite" aria-hidden="true" style="position:absolute;width:0;height:0;overflow:hidden">'
        f"<defs>{symbols}</defs></svg>" if symbols else "",
        '<div class="page">', _cover(game), "".join(contents), "<main>", "\n".join(body), "</main></div>",
        f"<script>{SCRIPT}</script></body></html>\n",
    ])
    out.write_text(document, encoding="utf-8")
    return {"bytes": len(document.encode("utf-8")), "cards": len(game.cards), "images": 2 * len(faces)}
