"""reference.pdf: a helper sheet for each player and the card almanac, for every game.

From the same data as the cards and the rules sheet:

* **Helper sheet** (one page, one copy per player when the game has several): the turn
  sequence in the game's own phases (``turn`` summaries), the icon legend, the key tables
  (``reference.tables`` in game.yaml, default all ``tables``), and how the game ends
  (``end``). The type steps down from 9 pt to 6 pt until it fits one page.
* **Card almanac**: every card grouped by type, sorted by ``reference.sort.<type>`` (default:
  the first number field of the type's cards), with its quantity, fields, text and inline
  icons; designed values carry an asterisk. Then an index of every card by name.
* **Composition charts** (``reference.charts``): bar charts of a deck's make-up, drawn with
  ReportLab's graphics library, e.g. witches by spellpower and element.
"""
from __future__ import annotations

import html
import io
import tempfile
from pathlib import Path

from reportlab.graphics.charts.barcharts import VerticalBarChart
from reportlab.graphics.charts.legends import Legend
from reportlab.graphics.shapes import Drawing, String
from reportlab.lib import colors
from reportlab.platypus import (BaseDocTemplate, Frame, KeepTogether, NextPageTemplate, PageBreak,
                                PageTemplate, Paragraph, Spacer)

from cardforge.model import Card, Game
from cardforge.render import fonts
from cardforge.render.sheet import PAPER_MM
from cardforge.rules.cards import card_entry
from cardforge.rules.flow import Heading, IconImages, Styles, flowables, page_footer
from cardforge.rules.source import Macros
from cardforge.units import MM

MARGIN = 14 * MM
GAP = 6 * MM
HELPER_SIZES = [9.0, 8.5, 8.0, 7.5, 7.0, 6.5, 6.0]
PALETTE = ["#1565c0", "#c62828", "#2e7d32", "#f9a825", "#6a1b9a", "#00838f", "#5d4037", "#ef6c00", "#546e7a"]


def _config(game: Game) -> dict:
    return game.data.get("reference") or {}


def helper_markdown(game: Game) -> str:
    """The helper sheet's text, as Markdown built from the game data via the rules macros."""
    m = Macros(game)
    parts = [f"## Your turn\n\n{m.turn_sequence()}"]
    parts.append(f"## Icons\n\n{m.icon_legend()}")
    tables = _config(game).get("tables", list((game.data.get("tables") or {}).keys()))
    for table_id in tables:
        parts.append(m.table(table_id))
    if game.data.get("end"):
        parts.append(f"## End of the game\n\n{m.game_end()}")
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


def chart(game: Game, spec: dict, width: float) -> Drawing:
    """A stacked bar chart of card counts (by quantity): ``x`` field on the axis (in the
    order of ``order`` when given), bars stacked by ``stack`` field, or by the keys of the
    mapping at ``value`` (summing its numbers)."""
    cards = game.cards_of(spec["type"])
    default = spec.get("x_default", "none")
    xs: list = []
    stacks: list = []
    counts: dict = {}
    for card in cards:
        x = card.data.get(spec["x"], default)
        if spec.get("value"):
            mapping = card.data
            for part in spec["value"].split("."):
                mapping = (mapping or {}).get(part, {})
            pairs = [(k, v * card.quantity) for k, v in (mapping or {}).items()]
        else:
            pairs = [(card.data.get(spec.get("stack"), "all") if spec.get("stack") else "all", card.quantity)]
        for stack, amount in pairs:
            if x not in xs:
                xs.append(x)
            if stack not in stacks:
                stacks.append(stack)
            counts[(x, stack)] = counts.get((x, stack), 0) + amount
    order = spec.get("order")
    xs.sort(key=lambda v: (order.index(v) if order and v in order else len(order or []), isinstance(v, str), v))
    height = 62 * MM
    d = Drawing(width, height)
    d.initialFontName = fonts.pdf_name("sans")  # the renderer's starting font: no base-14 font in the PDF
    bc = VerticalBarChart()
    bc.x, bc.y, bc.width, bc.height = 12 * MM, 12 * MM, width - 50 * MM, height - 22 * MM
    bc.data = [[counts.get((x, s), 0) for x in xs] for s in stacks]
    bc.categoryAxis.style = "stacked"
    bc.categoryAxis.categoryNames = [str(x) for x in xs]
    bc.categoryAxis.labels.fontName = fonts.pdf_name("sans")
    bc.categoryAxis.labels.fontSize = 7
    bc.valueAxis.labels.fontName = fonts.pdf_name("sans")
    bc.valueAxis.labels.fontSize = 7
    bc.valueAxis.valueMin = 0
    bc.barWidth = 6
    for i, stack in enumerate(stacks):
        color = _stack_color(game, stack, i)
        bc.bars[i].fillColor = color
        bc.bars[i].strokeColor = colors.white
    d.add(bc)
    d.add(String(bc.x, height - 6 * MM, spec.get("title", ""), fontName=fonts.pdf_name("sans-bold"), fontSize=9))
    d.add(String(bc.x + bc.width / 2, 2 * MM, spec.get("x_label", spec["x"]).replace("_", " "),
                 fontName=fonts.pdf_name("sans"), fontSize=7, textAnchor="middle"))
    if len(stacks) > 1 or stacks != ["all"]:
        legend = Legend()
        legend.x, legend.y = bc.x + bc.width + 6 * MM, height - 14 * MM
        legend.fontName, legend.fontSize = fonts.pdf_name("sans"), 7
        legend.alignment = "right"
        legend.colorNamePairs = [(_stack_color(game, s, i), str(s)) for i, s in enumerate(stacks)]
        d.add(legend)
    return d


def _stack_color(game: Game, stack, i: int):
    icon = game.icons.get(str(stack))
    if icon is not None and icon.color not in ("#000000", "#ffffff", "#f5f5f5"):
        return colors.HexColor(icon.color)
    return colors.HexColor(PALETTE[i % len(PALETTE)])


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
        self.helper_pages = 0

    def afterFlowable(self, flowable) -> None:
        name = getattr(flowable, "card_name", None)
        if name:
            self.index.append((name, self.page))

    def _footer(self, canvas, doc) -> None:
        page_footer(canvas, self.pagesize[0], MARGIN, f"{self.game.title} · reference", doc.page, size=7)


def _helper_story(game: Game, size: float, icons: IconImages, width: float) -> list:
    styles = Styles(size)
    head = Paragraph(f"{html.escape(game.title)} · helper sheet", styles.h1)
    return [head] + flowables(helper_markdown(game), styles, icons, width)


def _fit_helper(game: Game, paper: tuple[float, float], icons: IconImages) -> float:
    """The largest type size at which the helper sheet fills one page."""
    for size in HELPER_SIZES:
        doc = _Doc(io.BytesIO(), paper, game)
        doc.build(_helper_story(game, size, icons, doc.column_width))
        if doc.page == 1:
            return size
    return HELPER_SIZES[-1]


def _almanac_story(game: Game, icons: IconImages, width: float) -> list:
    styles = Styles(8.5)
    story: list = [Heading("Card almanac", styles.h1, 0, "Card almanac"),
                   Paragraph("Every card of the game, by type, with its quantity. A value marked * is designed for "
                             "this edition, not printed in the source.", styles.italic)]
    for spec in _config(game).get("charts", []):
        story += [chart(game, spec, width), Spacer(1, 3 * MM)]
    for type_id, card_type in game.card_types.items():
        cards = sorted(game.cards_of(type_id), key=sort_key(game, type_id))
        if not cards:
            continue
        story.append(Heading(f"{html.escape(card_type.label)} ({game.total(type_id)})", styles.h2, 1, card_type.label))
        for card in cards:
            entry = card_entry(card, game, icons, styles, quantity=True)
            entry[0].card_name = card.name
            story.append(KeepTogether(entry))
    return story


def render_reference(game: Game, out: Path, paper: str = "letter") -> dict:
    """Write reference.pdf; returns {"helper_size": pt, "helper_copies": n, "pages": n}."""
    size = tuple(v * MM for v in PAPER_MM[paper])
    copies = max(1, game.meta.get("players", {}).get("max", 1)) if game.meta.get("players", {}).get("max", 1) > 1 else 1
    with tempfile.TemporaryDirectory() as tmp:
        icons = IconImages(game, Path(tmp))
        helper_size = _fit_helper(game, size, icons)
        width = size[0] - 2 * MARGIN
        col = (width - GAP) / 2

        def story(index_pages: list[tuple[str, int]]):
            out_story: list = []
            for n in range(copies):
                out_story += _helper_story(game, helper_size, icons, col)
                out_story += [NextPageTemplate("helper" if n + 1 < copies else "almanac"), PageBreak()]
            out_story += _almanac_story(game, icons, width)
            styles = Styles(8)
            out_story += [PageBreak(), Heading("Index", styles.h1, 0, "Index")]
            for name, page in sorted(index_pages, key=lambda t: t[0].lower()):
                out_story.append(Paragraph(f"{html.escape(name)} <font color='#757575'>· {page}</font>", styles.body))
            return out_story

        first = _Doc(io.BytesIO(), size, game)
        first.build(story([(c.name, 0) for c in game.cards]))
        doc = _Doc(str(out), size, game)
        doc.build(story(first.index))
        return {"helper_size": helper_size, "helper_copies": copies, "pages": doc.page}
