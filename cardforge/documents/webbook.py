"""The rulebook as one web page (rulebook.html), from the same sources as rulebook.pdf.

The rules are :func:`~cardforge.documents.rulebook.book_markdown` (rulebook.md over the game's
data), parsed by the same Markdown parser as the PDF (:data:`~cardforge.documents.flow.PARSE`)
and written as HTML instead of flowables; the glossary, the icon legend and the card
appendix print the same entries under the same headings as the PDF. One self-contained
file that makes no request outside itself (its Content-Security-Policy forbids any):

* icons inline as SVG (each icon's file once, as a ``<symbol>``; a text icon as its text);
* every card's front and back, at its trim, as WebP data URIs :data:`~cardforge.documents.webfaces.CARD_PX`
  pixels wide (:mod:`cardforge.documents.webfaces`), drawn by
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
import re
from pathlib import Path
from typing import TYPE_CHECKING

from cardforge.model import Card, Game
from cardforge.almanac.display import marked, prints_text, quantity_marked, shown, text_marked
from cardforge.documents.flow import PARSE
from cardforge.documents.playertext import DESIGNED, DESIGNED_NOTE, cover_facts, has_designed
from cardforge.documents.rulebook import EVERY_CARD, EVERY_CARD_NOTE, GLOSSARY, ICON_LEGEND, book_markdown, type_heading
from cardforge.documents.webfaces import Face, card_faces
from cardforge.documents.webstyle import SCRIPT, STYLE
from cardforge.documents.webtext import Inline, Page, blocks, glossary_anchor, symbol, term_patterns
from cardforge.util.markup import TOKEN
from cardforge.util.i18n import _

if TYPE_CHECKING:
    from cardforge.layout import LayoutSet


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


def _card_article(card: Card, page: Page, faces: tuple[Face, Face] | None, back_shown: bool) -> str:
    game = page.game
    write = Inline(page)
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


def _odds(page: Page) -> list[str]:
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
        out.append(f'<h3 id="{anchor}">{html.escape(title)}</h3><p>{Inline(page).text(line)}</p>')
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


def _appendices(page: Page, faces: dict[str, tuple[Face, Face]]) -> list[str]:
    game = page.game
    out = []
    if game.glossary:  # an empty section prints no heading
        anchor = page.anchor(_(GLOSSARY))
        page.contents.append((0, _(GLOSSARY), anchor))
        out.append(f'<section><h2 id="{anchor}">{_(GLOSSARY)}</h2><dl class="glossary">')
        for term, spec in sorted(game.glossary.items(), key=lambda kv: kv[0].lower()):
            page.ids.add(glossary_anchor(term))
            out.append(f'<dt id="{glossary_anchor(term)}">{html.escape(term)}</dt>'
                       f'<dd>{Inline(page, skip=glossary_anchor(term)).text(str(spec["definition"]))}</dd>')
        out.append("</dl></section>")
    if any(icon.legend for icon in game.icons.values()):
        anchor = page.anchor(_(ICON_LEGEND))
        page.contents.append((0, _(ICON_LEGEND), anchor))
        out.append(f'<section class="icons"><h2 id="{anchor}">{_(ICON_LEGEND)}</h2><ul class="legend">')
        plain = Inline(page, link_terms=False)
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


def _components(page: Page, layouts: LayoutSet, faces: dict) -> list[str]:
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


def _anatomy(page: Page, layouts: LayoutSet) -> list[str]:
    """The card anatomy figures, as rulebook.pdf draws them (:mod:`cardforge.documents.anatomy`),
    each with its callouts as a numbered list (the figure's text); pictures kept in the user cache."""
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


def render_rulebook_html(game: Game, layouts: LayoutSet, out: Path) -> dict:
    """Write rulebook.html for ``game`` (see the module docstring); returns
    ``{"bytes": size of the file, "cards": cards shown, "images": card faces embedded}``.

    Raises ``ValueError`` if rulebook.md is missing or does not render, and
    :class:`~cardforge.render.icons.IconError` for an icon file that cannot be read."""
    page = Page(game, terms=term_patterns(game))
    for term in game.glossary:
        page.ids.add(glossary_anchor(term))  # reserved: a heading never takes a term's anchor
    page.ids.update({"contents", "almanac", "q", "type", "shown"})
    faces = card_faces(game, layouts)
    body = _components(page, layouts, faces) + _anatomy(page, layouts) + blocks(PARSE(book_markdown(game)), page)
    body += _odds(page)
    body += _appendices(page, faces)
    symbols = "".join(symbol(name, game.icons[name].svg, game.icons[name].color) for name in sorted(page.icons_used))
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
