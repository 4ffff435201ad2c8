"""The full rulebook (rulebook.pdf): cover, contents, the rendered rulebook.md, then the
glossary, the icon legend and an appendix listing every card, all from the game pack.

Pages are Letter or A4 with 20 mm margins; the rules are set in one column of about
:data:`MEASURE` characters (:func:`measure_width`), centred. Two passes (``multiBuild``) so
the contents page knows every heading's page. Card text in the appendix is the card data verbatim (errata
applied), with icons inline; a designed value carries a dagger (†), explained on the cover.
"""
from __future__ import annotations

import html
import re
import tempfile
from pathlib import Path

from reportlab.platypus import (BaseDocTemplate, Frame, KeepTogether, NextPageTemplate, PageBreak, PageTemplate, Spacer,
                                TableStyle)
from reportlab.platypus.tableofcontents import TableOfContents

from cardforge.layout import LayoutSet
from cardforge.model import Game
from cardforge.render import backend, fonts
from cardforge.render.sheet import PAPER_MM
from cardforge.documents.cards import card_entry
from cardforge.documents.flow import Heading, IconImages, Styles, flowables, page_footer
from cardforge.documents.memo import Memo
from cardforge.documents.playertext import DESIGNED_NOTE, cover_facts, has_designed
from cardforge.documents.readers import Paragraph
from cardforge.documents.source import render_source
from cardforge.util.units import MM
from cardforge.util.i18n import _

MARGIN = 20 * MM
BODY = 10.0  # pt: the rulebook's body type
MEASURE = 72  # characters of rules text a line holds (a book's measure: 60 to 75)
SAMPLE = ("Each turn you place a witch, then the Gatekeeper moves, discards a dazzled witch and opens a gate; "
          "the witches of that element clash.")  # rules text, for the width of an average character
# the sections after the rules, in order: the same in rulebook.pdf and rulebook.html
GLOSSARY, ICON_LEGEND, EVERY_CARD = "Glossary", "Icon legend", "Appendix: every card"
EVERY_CARD_NOTE = "Every card with its text as its card face prints it, this edition's errata applied."
COMPONENTS, ANATOMY = "Components", "Card anatomy"  # the picture pages before the rules
RULES = "Rules"  # the contents' top level over rulebook.md's sections when it has no "#" heading


def book_markdown(game: Game) -> str:
    """The rules of the rulebook as Markdown: rulebook.md rendered over the game's data
    (:func:`~cardforge.documents.source.render_source`), with a top-level "Rules" heading when
    it has none. What rulebook.pdf and rulebook.html both print, so they cannot drift.
    Raises ``ValueError`` when rulebook.md is missing or does not render."""
    markdown, problems = render_source(game, "rulebook")
    if markdown is None:
        raise ValueError("; ".join(d.message for d in problems))
    if not re.search(r"^# ", markdown, re.M):
        markdown = f"# {_(RULES)}\n\n{markdown}"
    return markdown


def measure_width(paper: tuple[float, float], size: float = BODY) -> float:
    """The width (pt) of the rulebook's text column on ``paper``: :data:`MEASURE` characters of
    rules text in the body face at ``size`` pt (a line people read), never wider than the page
    less its margins."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    per_char = stringWidth(SAMPLE, fonts.pdf_name("sans"), size) / len(SAMPLE)
    return min(paper[0] - 2 * MARGIN, MEASURE * per_char)


def type_heading(game: Game, type_id: str) -> str:
    """A card type's heading in the card appendix: its label and how many cards it has."""
    return f"{game.card_types[type_id].label} ({game.total(type_id)})"


class _Book(BaseDocTemplate):
    def __init__(self, target: str, paper: tuple[float, float], game: Game):
        super().__init__(target, pagesize=paper, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN,
                         bottomMargin=MARGIN, title=f"{game.title}: rulebook", author=game.meta.get("designer", ""),
                         creator="cardforge", invariant=1, initialFontName=fonts.pdf_name("sans"))
        self.game = game
        frame = Frame(MARGIN, MARGIN, paper[0] - 2 * MARGIN, paper[1] - 2 * MARGIN, id="cover")
        width = measure_width(paper)
        body = Frame((paper[0] - width) / 2, MARGIN, width, paper[1] - 2 * MARGIN, id="body")
        self.addPageTemplates([PageTemplate("cover", frames=[frame]),
                               PageTemplate("body", frames=[body], onPage=self._footer)])
        self.toc: TableOfContents | None = None
        self.contents_at: dict[str, int] = {}  # page of the contents' "heading", and of the "toc" when drawn whole

    def afterFlowable(self, flowable) -> None:
        if isinstance(flowable, Heading) and flowable.toc_level <= 1:
            key = getattr(flowable, "toc_key", None) or f"h{id(flowable)}"
            self.canv.bookmarkPage(key)
            self.notify("TOCEntry", (flowable.toc_level, flowable.toc_text, self.page, key))
        if flowable is self.toc:
            self.contents_at["toc"] = self.page
        elif getattr(flowable, "contents_heading", False):
            self.contents_at["heading"] = self.page

    def _footer(self, canvas, doc) -> None:
        page_footer(canvas, self.pagesize[0], MARGIN, f"{self.game.title} · {_('rulebook')}", doc.page)


def _cover(game: Game, styles: Styles) -> list:
    meta = game.meta
    lines = cover_facts(meta)
    out = [Spacer(1, 60 * MM), Paragraph(html.escape(game.title), styles.title), Spacer(1, 6 * MM)]
    if meta.get("tagline"):
        out.append(Paragraph(f"<i>{html.escape(meta['tagline'])}</i>", styles.subtitle))
    out += [Spacer(1, 10 * MM), Paragraph(" · ".join(lines), styles.subtitle)]
    if meta.get("designer"):
        out.append(Paragraph(_("Designed by {designer}").format(designer=html.escape(meta["designer"])), styles.subtitle))
    out += [Spacer(1, 30 * MM), Paragraph(_("Rulebook"), styles.h2.clone("cover-h2", alignment=1))]
    if has_designed(game):
        out.append(Paragraph(_(DESIGNED_NOTE), styles.subtitle))
    return out


def _pictures(game: Game, layouts: LayoutSet, styles: Styles, width: float) -> list:
    """The components page and the card anatomy figures (see :mod:`cardforge.documents.anatomy`)."""
    from cardforge.documents.anatomy import anatomy_figures, components_grid

    out: list = []
    grid = components_grid(game, layouts, width, styles)
    if grid is not None:
        out += [Heading(_(COMPONENTS), styles.h1, 0, _(COMPONENTS)),
                Paragraph("One card of each kind, and each card back.", styles.italic), grid]
    figures = anatomy_figures(game, layouts, width, styles)
    if figures:
        head = [Heading(_(ANATOMY), styles.h1, 0, _(ANATOMY)), Paragraph(_("A card of each kind, its parts numbered."), styles.italic)]
        for n, (caption, figure) in enumerate(zip(figures[::2], figures[1::2])):  # short blocks: a figure and its
            out += [KeepTogether((head if n == 0 else []) + [caption, figure]), Spacer(1, 4 * MM)]  # caption (heading)
    return out


def _appendices(game: Game, styles: Styles, icons: IconImages, width: float) -> list:
    """The glossary and the icon legend (each only when it has entries: an empty section prints
    no heading, in the pages or the contents), then every card by card type."""
    out: list = []
    if game.glossary:
        out.append(Heading(_(GLOSSARY), styles.h1, 0, _(GLOSSARY)))
    for term, spec in sorted(game.glossary.items(), key=lambda kv: kv[0].lower()):
        out.append(Paragraph(f"<b>{html.escape(term)}</b>: {html.escape(spec['definition'])}", styles.body))
    legend = [name for name, icon in game.icons.items() if icon.legend]  # the others are decorative
    if legend:
        out.append(Heading(_(ICON_LEGEND), styles.h1, 0, _(ICON_LEGEND)))
    for name in legend:
        out.append(Paragraph(f"{icons.markup(name, styles.base * 1.3)}&nbsp;&nbsp;{html.escape(game.icons[name].label)}",
                             styles.body))
    out = [PageBreak(), *out] if out else []
    out += [PageBreak(), Heading(_(EVERY_CARD), styles.h1, 0, _(EVERY_CARD)),
            Paragraph(_(EVERY_CARD_NOTE) + (f" {_(DESIGNED_NOTE)}." if has_designed(game) else ""), styles.italic)]
    for type_id in game.card_types:
        cards = game.cards_of(type_id)
        if not cards:
            continue
        out.append(Heading(html.escape(type_heading(game, type_id)), styles.h2, 1, type_heading(game, type_id)))
        for card in cards:
            out += card_entry(card, game, icons, styles, width=width)
    return out


@fonts.in_rules_font  # a pack font with `rules: true` prints these pages
def render_rulebook(game: Game, out: Path, paper: str = "letter", memo: Memo | None = None,
                    layouts: LayoutSet | None = None) -> int:
    """Write rulebook.pdf for ``game``; returns its page count. Raises ``ValueError`` if
    rulebook.md is missing or does not render. With the game's ``layouts``, the book shows
    its cards (:mod:`cardforge.documents.anatomy`): a components page (one card of each kind,
    each distinct back) and a card anatomy figure per card type, before the rules.

    The contents' page numbers come from passes that lay the book out until they stop
    changing, the first with no contents (ReportLab's ``multiBuild``). The book is laid out
    once with a guess at them when there is one: the contents the project's last build
    found, from ``memo`` (:mod:`cardforge.documents.memo`), else those a build of the same
    book found, from the user cache (:data:`~cardforge.cache.registry.CONTENTS_PAGES`, under
    :func:`contents_key`). That pass is kept when it finds the same contents and they fit on
    the contents page, as the empty contents of a first pass do (so every page after them is
    laid out alike): exactly the book the passes without a guess end with. Otherwise it is
    laid out as without a guess.
    """
    from cardforge.cache import kept
    from cardforge.cache.registry import CONTENTS_PAGES

    markdown = book_markdown(game)
    size = tuple(v * MM for v in PAPER_MM[paper])
    with tempfile.TemporaryDirectory() as tmp:
        icons = IconImages(game, Path(tmp))
        doc = _book(game, markdown, size, icons, out, layouts)
        key = Memo.key("rulebook-contents", list(size)) if memo else ""
        shared_key = contents_key(game, size, markdown, doc.story)
        shared = _contents(kept.get(CONTENTS_PAGES, shared_key))
        guess = (_contents(memo.get("rulebook-contents", key)) if memo else None) or shared
        found = False
        if guess is not None:
            doc.toc.addEntries(guess)
            try:
                doc.multiBuild(doc.story, maxPasses=0)  # IndexError: the pass found other contents
                found = doc.contents_at.get("toc", -1) == doc.contents_at.get("heading")  # or later pages moved
            except IndexError:
                pass  # not found
            if not found:
                doc = _book(game, markdown, size, icons, out, layouts)
        if not found:
            doc.multiBuild(doc.story)
        entries = [list(entry) for entry in backend.contents_entries(doc.toc)]
        if memo:
            memo.put("rulebook-contents", key, entries)
        if shared is None or [list(entry) for entry in shared] != entries:
            kept.put(CONTENTS_PAGES, shared_key, entries)
        return doc.page


def contents_key(game: Game, size: tuple[float, float], markdown: str, story: list) -> str:
    """The user cache's key of a rulebook's contents (a guess its layout checks): the paper
    (w, h pt), the book's text, its headings (level, text, key) and its cards' fields."""
    headings = [[h.toc_level, h.toc_text, h.toc_key] for h in _headings(story)]
    cards = [repr((card.name, card.quantity, card.data)) for card in game.cards]
    return Memo.key("rulebook-contents", list(size), markdown, headings, cards)


def _book(game: Game, markdown: str, size: tuple[float, float], icons: IconImages, out: Path,
          layouts: LayoutSet | None = None) -> _Book:
    """A new rulebook document writing to ``out``, its story (``.story``) and contents (``.toc``)."""
    styles = Styles(BODY)
    width = measure_width(size)
    toc = TableOfContents()
    toc.tableStyle = TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0),
                                 ("FONTNAME", (0, 0), (-1, -1), fonts.pdf_name("sans"))])
    toc.levelStyles = [styles.body.clone("toc0", fontName=fonts.pdf_name("sans-bold")),
                       styles.body.clone("toc1", leftIndent=12)]
    contents = Paragraph(_("Contents"), styles.h1)
    contents.contents_heading = True
    story = _cover(game, styles) + [NextPageTemplate("body"), PageBreak(), contents, toc, PageBreak()]
    if layouts is not None:
        story += _pictures(game, layouts, styles, width)
    story += flowables(markdown, styles, icons, width)
    story += _appendices(game, styles, icons, width)
    for n, heading in enumerate(_headings(story)):
        heading.toc_key = f"h{n}"  # the same in every pass and every process (a guessed contents' keys hold)
    doc = _Book(str(out), size, game)
    doc.toc, doc.story = toc, story
    return doc


def _headings(story: list):
    """The headings of ``story`` in order, also those kept together with what follows them
    (the card anatomy heading and its first figure)."""
    for flowable in story:
        if isinstance(flowable, Heading):
            yield flowable
        else:
            yield from _headings(backend.kept_together(flowable))


def _contents(found: object) -> list[tuple[int, str, int, str]] | None:
    """Remembered contents as (level, text, page, key) entries; None when they are not."""
    if not isinstance(found, list) or not found:
        return None
    entries = [tuple(item) for item in found if isinstance(item, list) and len(item) == 4]
    if len(entries) != len(found) or not all(isinstance(level, int) and isinstance(text, str) and isinstance(page, int)
                                             and isinstance(k, str) for level, text, page, k in entries):
        return None
    return entries
