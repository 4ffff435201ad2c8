"""reference.pdf: a helper sheet for each player and the card almanac, for every game.

From the same data as the cards and the rules sheet:

* **Helper sheet** (one page, printed once with "print one per player", or
  ``reference.helper_copies`` copies when the pack asks for them): the turn
  sequence in the game's own phases (``turn`` summaries), the icon legend, the key tables
  (``reference.tables`` in game.yaml, default all ``tables``), and how the game ends
  (``end``). Its type is the largest from 14 pt down to 6 pt at which it fits its page, so
  a short sheet fills its page (A4 or Letter) in large type.
* **Card almanac**: every card grouped by type, sorted by ``reference.sort.<type>`` (default:
  the first number field of the type's cards), with its quantity, fields (enum values by
  their display labels), text and inline icons; designed values carry † as docs/marks.md
  says. Then an index of every card by name, one line per name with its pages merged.
* **The odds of a draw** (``odds:``, :mod:`cardforge.almanac.odds`): for each draw the
  game declares, the exact chance of at least one, none and exactly k cards of interest,
  and the stack's make-up as a bar chart.
* **Composition charts** (``reference.charts``): bar charts of a deck's make-up, drawn with
  ReportLab's graphics library, e.g. witches by spellpower and element.
"""
from __future__ import annotations

import html
import io
import tempfile
from collections.abc import Callable
from pathlib import Path

from reportlab.platypus import (BaseDocTemplate, Flowable, Frame, KeepTogether, NextPageTemplate, PageBreak, PageTemplate,
                                Spacer)

from cardforge.model import Card, Game
from cardforge.almanac.charts import chart, composition
from cardforge.almanac.odds import ODDS_HEADING, ODDS_NOTE, Odds, odds, rows, summary
from cardforge.render import fonts
from cardforge.render.sheet import PAPER_MM
from cardforge.documents.cards import card_entry
from cardforge.documents.flow import RULES_FACES, Heading, IconImages, Styles, flowables, page_footer
from cardforge.documents.memo import keep_answer, kept_answer, size_key
from cardforge.documents.playertext import DESIGNED, DESIGNED_NOTE, RULING_NOTE, cites, has_designed
from cardforge.documents.readers import Paragraph
from cardforge.documents.source import Macros, table_sections
from cardforge.util.units import MM
from cardforge.util.i18n import _

MARGIN = 14 * MM
GAP = 6 * MM
# the helper sheet's type: the largest of these at which it fits its page, so a short one
# fills its page in large type and a long one steps down to 6 pt
HELPER_SIZES = [14.0, 13.0, 12.0, 11.0, 10.0, 9.0, 8.5, 8.0, 7.5, 7.0, 6.5, 6.0]


def _config(game: Game) -> dict:
    return game.data.get("reference") or {}


def helper_markdown(game: Game) -> str:
    """The helper sheet's text, as Markdown built from the game data via the rules macros."""
    m = Macros(game)
    parts = [f"## {_('Your turn')}\n\n{m.turn_sequence()}"]
    if m.icon_legend():  # no heading over an empty legend
        parts.append(f"## {_('Icons')}\n\n{m.icon_legend()}")
    tables = _config(game).get("tables", list((game.data.get("tables") or {}).keys()))
    sections = table_sections(game, "sheet")
    for table_id in tables:
        text = m.table(table_id)
        if not ((game.data.get("tables") or {}).get(table_id) or {}).get("title") and sections.get(table_id):
            marker, rest = text.split("\n", 1)  # named as the rules sheet names it where it points here
            text = f"{marker}\n**{sections[table_id]}**\n\n{rest}"
        parts.append(text)
    if game.data.get("end"):
        parts.append(f"## {_('End of the game')}\n\n{m.game_end()}")
    return "\n\n".join(parts)


def sort_key(game: Game, type_id: str):
    """How the almanac orders a card type: by a configured or the first number field, then name."""
    field = (_config(game).get("sort") or {}).get(type_id)
    if field is None:
        for card in game.cards_of(type_id):
            field = next((k for k, v in card.data.items()
                          if isinstance(v, int) and not isinstance(v, bool) and k != "quantity"), None)
            if field:
                break

    def key(card: Card):
        value = card.data.get(field) if field else None
        return (value is None, value if isinstance(value, (int, float)) else 0, card.name.lower())

    return key


class _IndexHere(Flowable):
    """Where the card index goes, made when the layout reaches it (:meth:`_Doc.handle_flowable`):
    ``make(index)`` gives its flowables from the (card name, page) pairs found so far. It
    comes after every card, so reference.pdf is laid out in one pass, not a first one that
    only learns the page numbers."""

    def __init__(self, make: Callable[[list[tuple[str, int]]], list]):
        super().__init__()
        self.make = make

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return 0, 0  # replaced before it is placed

    def draw(self) -> None:
        pass


class _Doc(BaseDocTemplate):
    def __init__(self, target, paper, game: Game):
        super().__init__(target, pagesize=paper, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN,
                         bottomMargin=MARGIN, title=f"{game.title}: reference", creator="cardforge", invariant=1,
                         initialFontName=fonts.pdf_name("sans"))
        self.game = game
        w, h = paper[0] - 2 * MARGIN, paper[1] - 2 * MARGIN
        col = (w - GAP) / 2
        two = [Frame(MARGIN, MARGIN, col, h, id="left"), Frame(MARGIN + col + GAP, MARGIN, col, h, id="right")]
        self.column_width = col
        self.addPageTemplates([PageTemplate("helper", frames=two, onPage=self._footer),
                               PageTemplate("almanac", frames=[Frame(MARGIN, MARGIN, w, h, id="one")], onPage=self._footer)])
        self.index: list[tuple[str, int]] = []
        self.almanac_page = 0  # where the almanac starts

    def handle_flowable(self, flowables: list) -> None:
        """ReportLab's step to the next flowable; an :class:`_IndexHere` is first replaced by
        the index of the pages laid out so far (every card's page is known by then)."""
        if flowables and isinstance(flowables[0], _IndexHere):
            flowables[0:1] = flowables[0].make(self.index)
            if not flowables:
                return
        super().handle_flowable(flowables)

    def afterFlowable(self, flowable) -> None:
        name = getattr(flowable, "card_name", None)
        if name:
            self.index.append((name, self.page))
        elif getattr(flowable, "almanac_start", False):
            self.almanac_page = self.page

    def _footer(self, canvas, doc) -> None:
        page_footer(canvas, self.pagesize[0], MARGIN, f"{self.game.title} · {_('reference')}", doc.page, size=7)


def helper_copies(game: Game) -> int:
    """How many copies of the helper sheet reference.pdf holds: ``reference.helper_copies``
    in game.yaml, else one (printed "print one per player" when the game has several)."""
    return int(_config(game).get("helper_copies", 1))


def _helper_text(game: Game) -> tuple[str, str, str]:
    """What the helper sheet prints: its title (markup), its note line (markup, may be
    empty) and its Markdown. With the game's icons, all the sheet depends on besides the
    paper and the fonts (see :func:`_fit_key`)."""
    notes = []
    if helper_copies(game) == 1 and (game.meta.get("players") or {}).get("max", 1) > 1:
        notes.append(_("Print one per player."))
    if has_designed(game):
        notes.append(_(DESIGNED_NOTE) + ".")
    markdown = helper_markdown(game)
    if cites(markdown):
        notes.append(html.escape(_(RULING_NOTE)) + ".")
    return f"{html.escape(game.title)} · {_('helper sheet')}", " ".join(notes), markdown


def _helper_story(text: tuple[str, str, str], size: float, icons: IconImages, width: float) -> list:
    title, notes, markdown = text
    styles = Styles(size)
    out = [Paragraph(title, styles.h1)]
    if notes:
        out.append(Paragraph(notes, styles.italic))
    return out + flowables(markdown, styles, icons, width)


class _Overflow(Exception):
    """Raised by :class:`_OnePage` when its story needs a second page."""


class _OnePage(_Doc):
    """A trial layout that stops as soon as a second page begins (the rest of a story that
    does not fit one page is never laid out)."""

    def handle_pageBegin(self) -> None:
        if self.page >= 1:
            raise _Overflow("the story needs a second page")
        super().handle_pageBegin()


def _fit_helper(game: Game, paper: tuple[float, float], icons: IconImages, text: tuple[str, str, str]) -> float:
    """The largest type size of :data:`HELPER_SIZES` (pt) at which the helper sheet fills
    one page (the smallest when none does). A smaller size never needs more room, so the
    sizes are searched by halves (four trial layouts of twelve sizes at most, as
    :func:`cardforge.documents.compose.compose` searches the rules sheet's)."""
    def fits(size: float) -> bool:
        doc = _OnePage(io.BytesIO(), paper, game)
        try:
            doc.build(_helper_story(text, size, icons, doc.column_width))
        except _Overflow:
            return False
        return True

    if fits(HELPER_SIZES[0]):
        return HELPER_SIZES[0]
    lo, hi = 0, len(HELPER_SIZES) - 1  # HELPER_SIZES[lo] does not fit; HELPER_SIZES[hi] is the answer if none does
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fits(HELPER_SIZES[mid]):
            hi = mid
        else:
            lo = mid
    return HELPER_SIZES[hi]


def _fit_key(game: Game, paper: tuple[float, float], text: tuple[str, str, str]) -> str:
    """The key of :func:`_fit_helper`'s answer (:func:`cardforge.documents.memo.size_key`):
    the sheet's text, how each icon prints inline, the paper and the fonts of its styles."""
    return size_key("helper-size", list(text), game.icons, list(paper), RULES_FACES, HELPER_SIZES)


def odds_markdown(result: Odds) -> str:
    """An odds entry as Markdown: its summary line and its table (:func:`cardforge.almanac.odds.rows`)."""
    header, body = rows(result)
    lines = [summary(result) + (f" {_(DESIGNED_NOTE)}." if result.designed else ""), "",
             "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in body]
    return "\n".join(lines)


def odds_story(game: Game, styles: Styles, icons: IconImages, width: float) -> list:
    """The odds of the draws the game declares (``odds:``): for each, its title, the stack,
    the table of chances and the stack's make-up as a chart. Nothing when it declares none."""
    found = odds(game)
    if not found:
        return []
    story: list = []
    for n, result in enumerate(found):
        title = result.title + (DESIGNED if result.designed else "")
        head = [Heading(_(ODDS_HEADING), styles.h2, 1, _(ODDS_HEADING)), Paragraph(_(ODDS_NOTE), styles.italic)] if n == 0 else []
        story.append(KeepTogether(head + [Heading(html.escape(title), styles.h3, 2, title)]  # never a heading alone
                                  + flowables(odds_markdown(result), styles, icons, width)
                                  + [composition(result, width), Spacer(1, 3 * MM)]))
    return story


def _almanac_story(game: Game, icons: IconImages, width: float) -> list:
    styles = Styles(8.5)
    start = Heading(_("Card almanac"), styles.h1, 0, _("Card almanac"))
    start.almanac_start = True
    story: list = [start,
                   Paragraph(_("Every card of the game, by type, with its quantity.")
                             + (f" {_(DESIGNED_NOTE)}." if has_designed(game) else ""), styles.italic)]
    for spec in _config(game).get("charts", []):
        story += [chart(game, spec, width), Spacer(1, 3 * MM)]
    story += odds_story(game, styles, icons, width)
    for type_id, card_type in game.card_types.items():
        cards = sorted(game.cards_of(type_id), key=sort_key(game, type_id))
        if not cards:
            continue
        heading = Heading(f"{html.escape(card_type.label)} ({game.total(type_id)})", styles.h2, 1, card_type.label)
        for n, card in enumerate(cards):
            entry = card_entry(card, game, icons, styles, quantity=True, width=width)
            entry[0].card_name = index_name(card, game)
            story.append(KeepTogether(([heading] if n == 0 else []) + entry))  # no heading alone at a page's foot
    return story


def index_name(card: Card, game: Game) -> str:
    """How the index names ``card``: its name, or, for a name that says nothing alone (a
    number: "1"), its type's label and name ("District marker 1")."""
    name = " ".join(card.name.split())
    if not any(ch.isalpha() for ch in name):
        return f"{game.card_types[card.type].label} {name}"
    return name


def index_lines(found: list[tuple[str, int]]) -> list[str]:
    """The index: one line per name, its pages merged in order ("Birdmancer · 6, 8")."""
    pages: dict[str, set[int]] = {}
    for name, page in found:
        pages.setdefault(name, set()).add(page)
    return [f"{name} · {', '.join(str(p) for p in sorted(pages[name]))}" for name in sorted(pages, key=str.lower)]


@fonts.in_rules_font  # a pack font with `rules: true` prints these pages
def render_reference(game: Game, out: Path, paper: str = "letter") -> dict:
    """Write reference.pdf; returns {"helper_size": pt, "helper_copies": n, "pages": n}.

    The document is laid out once: the card index, last, is made when the layout reaches
    it, from the pages every card was placed on (:class:`_IndexHere`). The helper sheet's
    type size is searched (:func:`_fit_helper`), or read back from the user cache when an
    earlier build laid out the same text, icons, paper and fonts
    (:func:`cardforge.documents.memo.kept_answer`; searched again if the sheet no longer fits
    its page). The bytes written are the same either way.
    """
    size = tuple(v * MM for v in PAPER_MM[paper])
    copies = helper_copies(game)
    with tempfile.TemporaryDirectory() as tmp:
        icons = IconImages(game, Path(tmp))
        text = _helper_text(game)
        fit_key = _fit_key(game, size, text)
        helper_size = kept_answer(fit_key)
        remembered = helper_size in HELPER_SIZES
        if not remembered:
            helper_size = _fit_helper(game, size, icons, text)
        width = size[0] - 2 * MARGIN
        col = (width - GAP) / 2

        def index(pages: list[tuple[str, int]]) -> list:
            styles = Styles(8)
            out_index = []
            for line in index_lines(pages):
                name, numbers = line.rsplit(" · ", 1)
                out_index.append(Paragraph(f"{html.escape(name)} <font color='#757575'>· {numbers}</font>", styles.body))
            return out_index

        def one_pass() -> _Doc:
            story: list = []
            for n in range(copies):
                story += _helper_story(text, helper_size, icons, col)
                story += [NextPageTemplate("helper" if n + 1 < copies else "almanac"), PageBreak()]
            story += _almanac_story(game, icons, width)
            story += [PageBreak(), Heading(_("Index"), Styles(8).h1, 0, _("Index")), _IndexHere(index)]
            doc = _Doc(str(out), size, game)
            doc.build(story)
            return doc

        doc = one_pass()
        if remembered and helper_size != HELPER_SIZES[-1] and doc.almanac_page != copies + 1:
            helper_size = _fit_helper(game, size, icons, text)  # the remembered size did not fit after all
            doc = one_pass()
        keep_answer(fit_key, helper_size)
        return {"helper_size": helper_size, "helper_copies": copies, "pages": doc.page}
