"""Pictures of the cards for the rulebook: a card anatomy figure per card type, and the
components page (one card of each kind, each distinct back).

A card anatomy figure is a real card of the pack, drawn by the deck's own renderer
(:func:`cardforge.render.card.draw_face`, designed marks included), with a numbered callout to
each element of its layout that prints a card field: a leader line from the element's box
to its number beside the card, and a legend naming the field by its schema ``title`` (else
its almanac label, else its name). Two elements printing the same field (a value repeated
upside down) share one number. The callouts are placed from the resolved face's boxes, not by
hand. Lengths in pt; figures are ReportLab flowables.
"""
from __future__ import annotations

import html
from dataclasses import dataclass
from typing import TYPE_CHECKING

from reportlab.lib import colors
from reportlab.platypus import Flowable, Table, TableStyle

from cardforge.almanac.display import field_schema, formats
from cardforge.elements import kind_of
from cardforge.elements.text import printed_fields
from cardforge.model import Card, Game
from cardforge.render import fonts
from cardforge.resolve.face import back_context, back_face, context, copies, element_text
from cardforge.resolve.marks import face_marks
from cardforge.sandbox import context as cardcontext
from cardforge.util.units import MM
from cardforge.util.i18n import gettext

if TYPE_CHECKING:
    from cardforge.layout import Face, Layout, LayoutSet

ACCENT = colors.HexColor("#5d4037")
CARD_W = 46 * MM  # the width a figure's card is drawn at (a poker card at about 72 %)
GAP = 4 * MM  # between the card and its callout numbers
NUMBER_R = 2.1 * MM  # the radius of a callout's numbered disc
Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Callout:
    """One numbered callout: its ``number``, the field's ``label`` and the boxes (x, y, w, h pt
    from the card's top-left trim corner) of the elements that print it."""

    number: int
    field: str
    label: str
    boxes: tuple[Box, ...]


def field_label(game: Game, type_id: str, field: str) -> str:
    """A field as players call it: as a translation names it (``Game.field_titles``), else its
    schema ``title``, else its almanac label, else its name."""
    if f"{type_id}/{field}" in game.field_titles:
        return game.field_titles[f"{type_id}/{field}"]
    title = field_schema(game, type_id, field).get("title")
    if title:
        return str(title)
    fmt = formats(game, type_id).get(field)
    if fmt and fmt.get("label"):
        return str(fmt["label"])
    return field.replace("_", " ").replace("-", " ").capitalize()


def sample(game: Game, type_id: str, layouts: LayoutSet) -> Card | None:
    """The card a figure shows for ``type_id``: of its cards, the one whose front prints the
    most fields (the first such in the pack's order)."""
    best, most = None, -1
    for card in game.cards_of(type_id):
        count = len(_printed(layouts.for_card(card).front, context(card, game)))
        if count > most:
            best, most = card, count
    return best


def _printed(face: Face | None, ctx: dict) -> dict[str, list[Box]]:
    """field -> the boxes of the elements of ``face`` that print it for the card of ``ctx``:
    each copy of a text element with something to show (the boxes :func:`cardforge.resolve.face.fit_face` fits
    its text in; no text is fitted here), then each element that shows a field."""
    out: dict[str, list[Box]] = {}
    if face is None:
        return out
    card = ctx.get("card") or {}
    for el in face.elements:
        if not kind_of(el).sets_text:
            continue
        for copy in copies(el, ctx):
            if element_text(el, copy.ctx):
                for name in sorted(printed_fields(el)):
                    if card.get(name) not in (None, ""):
                        out.setdefault(name, []).append(copy.box)
    for el in face.elements:
        shown = kind_of(el).shows(el)
        if shown and cardcontext.holds(el.when, ctx):
            for name in sorted(shown):
                if card.get(name) not in (None, ""):
                    out.setdefault(name, []).append(el.box)
    return out


def callouts(card: Card, game: Game, layouts: LayoutSet) -> list[Callout]:
    """The callouts of ``card``'s front, numbered from the top of the card down."""
    layout = layouts.for_card(card)
    found = _printed(layout.front, context(card, game))
    order = sorted(found, key=lambda name: (min(b[1] for b in found[name]), min(b[0] for b in found[name])))
    return [Callout(n, name, field_label(game, card.type, name), tuple(found[name]))
            for n, name in enumerate(order, 1)]


def _stamp(canvas, game: Game):
    """The icon stamp of ``canvas`` (one per canvas: it defines each icon's form once)."""
    from cardforge.render.icons import IconStamp

    stamp = getattr(canvas, "cardforge_stamp", None)
    if stamp is None:
        stamp = IconStamp(canvas)
        stamp.icons = game.icons
        canvas.cardforge_stamp = stamp
    return stamp


class CardPicture(Flowable):
    """One face of a card, drawn by the deck's renderer at ``width`` pt wide (front or back)."""

    def __init__(self, card: Card, game: Game, layout: Layout, face: Face, ctx: dict, width: float,
                 front: bool = True):
        super().__init__()
        self.card, self.game, self.layout, self.face, self.ctx = card, game, layout, face, ctx
        self.scale = width / layout.size[0]
        self.width, self.height = width, layout.size[1] * self.scale
        self.front = front

    def wrap(self, aw, ah):
        return self.width, self.height

    def draw_card(self, x: float = 0.0, y: float = 0.0) -> None:
        from cardforge.render import card as card_render

        c = self.canv
        c.saveState()
        c.translate(x, y)
        c.scale(self.scale, self.scale)
        marks = face_marks(self.layout, self.ctx, self.game) if self.front else []
        card_render.draw_face(c, self.face, self.ctx, self.game, 0, 0, self.layout.size, _stamp(c, self.game),
                              shape=self.layout.shape, marks=marks)
        c.setStrokeColor(colors.HexColor("#9e9e9e"))
        c.setLineWidth(0.5 / self.scale)
        if self.layout.shape == "circle":
            c.ellipse(0, 0, *self.layout.size, stroke=1, fill=0)
        else:
            c.roundRect(0, 0, *self.layout.size, min(self.layout.corner, 3 * MM), stroke=1, fill=0)
        c.restoreState()

    def draw(self):
        self.draw_card()


class AnatomyFigure(CardPicture):
    """A card anatomy figure (see the module's docstring): the card, then its numbered callouts
    in a column to its right, each with its leader lines and its label."""

    def __init__(self, card: Card, game: Game, layouts: LayoutSet, width: float, size: float = 9.0):
        layout = layouts.for_card(card)
        super().__init__(card, game, layout, layout.front, context(card, game), min(CARD_W, width * 0.5))
        self.callouts = callouts(card, game, layouts)
        self.size = size
        self.full = width
        self.width = width

    def _number_ys(self) -> list[float]:
        """Each callout's number's centre height (pt from the figure's bottom), near its
        elements and at least one number apart."""
        h = self.height
        wanted = [h - min(b[1] + b[3] / 2 for b in c.boxes) * self.scale for c in self.callouts]
        step = 2 * NUMBER_R + 1.5
        ys: list[float] = []
        for want in wanted:
            y = min(want, (ys[-1] - step) if ys else h - NUMBER_R)
            ys.append(y)
        low = NUMBER_R
        if ys and ys[-1] < low:  # pushed below the figure: lift them all, keeping their order
            lift = low - ys[-1]
            ys = [min(y + lift, h - NUMBER_R - i * 0.0) for i, y in enumerate(ys)]
            for i in range(len(ys) - 2, -1, -1):
                ys[i] = max(ys[i], ys[i + 1] + step)
        return ys

    def draw(self):
        c = self.canv
        self.draw_card()
        s, h = self.scale, self.height
        x_num = self.layout.size[0] * s + GAP + NUMBER_R
        sans, bold = fonts.pdf_name("sans"), fonts.pdf_name("sans-bold")
        for callout, y in zip(self.callouts, self._number_ys()):
            c.saveState()
            c.setStrokeColor(ACCENT)
            c.setFillColor(ACCENT)
            c.setLineWidth(0.6)
            for bx, by, bw, bh in callout.boxes:  # a leader from the element's box to its number
                ex, ey = (bx + bw) * s, h - (by + bh / 2) * s
                c.circle(ex, ey, 0.9, stroke=0, fill=1)
                c.line(ex, ey, x_num - NUMBER_R, y)
            c.circle(x_num, y, NUMBER_R, stroke=0, fill=1)
            c.setFillColor(colors.white)
            c.setFont(bold, self.size * 0.9)
            c.drawCentredString(x_num, y - self.size * 0.32, str(callout.number))
            c.setFillColor(colors.black)
            c.setFont(sans, self.size)
            c.drawString(x_num + NUMBER_R + 2, y - self.size * 0.35, callout.label)
            c.restoreState()


def anatomy_figures(game: Game, layouts: LayoutSet, width: float, styles) -> list:
    """For each card type with cards: a caption and its :class:`AnatomyFigure`."""
    from cardforge.documents.readers import Paragraph

    out: list = []
    for type_id, card_type in game.card_types.items():
        card = sample(game, type_id, layouts)
        if card is None:
            continue
        figure = AnatomyFigure(card, game, layouts, width, size=styles.base * 0.9)
        if not figure.callouts:
            continue
        figure.anatomy_of = type_id
        out += [Paragraph(f"<b>{html.escape(card_type.label)}</b> ({html.escape(card.name)})", styles.caption),
                figure]
    return out


def components_grid(game: Game, layouts: LayoutSet, width: float, styles) -> Table | None:
    """One card of each card type (its front) and each distinct back, side by side in rows,
    each under its caption; None for a game without cards."""
    from cardforge.documents.readers import Paragraph

    cells = []
    backs_seen: set[str] = set()
    card_w = 30 * MM
    for type_id, card_type in game.card_types.items():
        card = sample(game, type_id, layouts)
        if card is None:
            continue
        layout = layouts.for_card(card)
        cells.append((CardPicture(card, game, layout, layout.front, context(card, game), card_w),
                      f"{card_type.label} ({game.total(type_id)})"))
    for card in game.cards:
        back = back_face(card, game, layouts)
        ctx = back_context(card, game)
        key = repr((back, ctx.get("back")))
        if back is None or not back.elements and not back.background or key in backs_seen:
            continue
        backs_seen.add(key)
        layout = layouts.for_card(card)
        cells.append((CardPicture(card, game, layout, back, ctx, card_w, front=False),
                      gettext("Back: {label}").format(label=game.card_types[card.type].label)))
    if not cells:
        return None
    per_row = max(1, int(width // (card_w + 6 * MM)))
    rows = []
    for start in range(0, len(cells), per_row):  # a card and its caption in one cell: never parted
        chunk = cells[start:start + per_row]
        rows.append([[pic, Paragraph(html.escape(label), styles.cell)] for pic, label in chunk]
                    + [""] * (per_row - len(chunk)))
    table = Table(rows, colWidths=[width / per_row] * per_row, hAlign="LEFT")
    table.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0),
                               ("BOTTOMPADDING", (0, 0), (-1, -1), 3 * MM),
                               ("FONTNAME", (0, 0), (-1, -1), fonts.pdf_name("sans"))]))
    return table


@dataclass(frozen=True)
class Picture:
    """An anatomy figure as an image for rulebook.html: the card type's ``label``, the sample
    ``card`` name, the figure as a WebP data ``uri`` (``width`` x ``height`` px) and its
    callouts (the text alternative)."""

    label: str
    card: str
    uri: str
    width: int
    height: int
    callouts: tuple[Callout, ...]


# rulebook.html's anatomy figures (Pillow's WebP options): libwebp's effort 4 encodes the five
# games' figures in 0.27 s of CPU against 0.48 s at 6, for files 0-2 % larger
ANATOMY_WEBP = {"quality": 80, "method": 4}


def anatomy_pictures(game: Game, layouts: LayoutSet, width: float = 120 * MM, dpi: int = 110) -> list[Picture]:
    """The anatomy figures of :func:`anatomy_figures`, drawn by the same flowables onto a PDF
    of one page each and rasterised with PDFium (``dpi``): the same figure as rulebook.pdf's.
    The pictures are kept in the user cache (:data:`~cardforge.cache.registry.CARD_PICTURES`)
    under a key of the sample cards' fields, their callouts and everything else that draws
    them (:func:`cardforge.documents.webfaces.drawing_context`): a build whose sample cards
    did not change (``--no-cache`` and another project of the same pack included) draws none
    of them again."""
    from cardforge.cache import kept
    from cardforge.cache.registry import CARD_PICTURES

    figures = []
    for type_id, card_type in game.card_types.items():
        card = sample(game, type_id, layouts)
        if card is None:
            continue
        figure = AnatomyFigure(card, game, layouts, width)
        if figure.callouts:
            figures.append((card_type.label, card, figure))
    if not figures:
        return []
    key = _memo_key(figures, game, layouts, width, dpi)
    drawn = kept.get(CARD_PICTURES, key)
    if not (isinstance(drawn, list) and len(drawn) == len(figures)
            and all(isinstance(k, tuple) and len(k) == 3 for k in drawn)):  # else a miss
        drawn = _drawn(figures, width, dpi)
        kept.put(CARD_PICTURES, key, drawn)
    return [Picture(label, card.name, uri, w, h, tuple(figure.callouts))
            for (label, card, figure), (uri, w, h) in zip(figures, drawn)]


def _memo_key(figures: list, game: Game, layouts: LayoutSet, width: float, dpi: int) -> str:
    """The key of ``figures`` ((label, sample card, figure) each) drawn ``width`` pt wide at ``dpi``."""
    from cardforge.documents.memo import Memo
    from cardforge.documents.webfaces import card_fields, drawing_context

    return Memo.key("anatomy", width, dpi, ANATOMY_WEBP, drawing_context(game, layouts),
                    [[label, card_fields(card), [[c.number, c.field, c.label, c.boxes] for c in figure.callouts]]
                     for label, card, figure in figures])


def _drawn(figures: list, width: float, dpi: int) -> list[tuple[str, int, int]]:
    """Each figure drawn, rasterised and encoded: (WebP data URI, width px, height px)."""
    import base64
    import io
    import tempfile
    from pathlib import Path

    from reportlab.pdfgen.canvas import Canvas

    from cardforge.export.faces import rasterise

    out = []
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "anatomy.pdf"
        canvas = Canvas(str(pdf), invariant=1, initialFontName=fonts.pdf_name("sans"))
        for _, _, figure in figures:
            w, h = figure.wrap(width, 10_000)
            canvas.setPageSize((w + 4, h + 4))
            figure.drawOn(canvas, 2, 2)
            canvas.showPage()
        canvas.save()
        for image in rasterise(pdf, dpi):
            buffer = io.BytesIO()
            image.save(buffer, "WEBP", **ANATOMY_WEBP)
            out.append(("data:image/webp;base64," + base64.b64encode(buffer.getvalue()).decode("ascii"),
                        image.width, image.height))
    return out
