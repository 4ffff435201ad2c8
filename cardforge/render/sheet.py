"""Imposition: placing cards on paper sheets, crop marks, duplex backs and a scale check.

Units are points throughout. A :class:`Sheet` is a grid of card slots centred on the paper;
slot 0 is the top-left card and slots run left to right, top to bottom. For duplex
printing, :meth:`Sheet.back_slot` gives where the back of slot ``i`` must be drawn so that
it lands behind its front when the sheet is turned over on its long edge (portrait paper:
mirrored left to right) or its short edge (mirrored top to bottom).

Printable furniture: desktop printers print nothing within about 5 mm of the paper edge
(``PRINTABLE``), so every crop mark, the ruler and the page label lie at least that far
inside. Between cards, a gutter carries each card's bleed (half the gutter each, at most
the layout's bleed) when the paper has room; the grid's outer edges always carry the full
bleed. A crop mark runs along a cut line from the printable edge towards the trim and stops
short of it; where the margin is too narrow to keep it clear of the outer bleed it is drawn
over the bleed with a white halo. An axis whose marks come out shorter than ``MARK_MIN``,
or whose cards touch, is *tight*: :func:`sheet_notes` says so and names the choices
(``--fit marks``, the other paper).
"""
from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.colors import black, white
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from cardforge.render import fonts
from cardforge.util.units import MM

PAPER_MM = {"letter": (215.9, 279.4), "a4": (210.0, 297.0)}
PRINTABLE = 5 * MM  # nearest a mark, ruler or label comes to the paper edge
MARK_MIN = 1.5 * MM  # a shorter crop mark is hard to line a blade up with
MARK_MAX = 4 * MM
MARK_GAP = 0.3 * MM  # a mark stops this short of the bleed edge (or of the trim, over bleed)
RULER_BAND = 3.4 * MM  # across a margin: the ruler's line, ticks and caption
RULER_GAP = 0.2 * MM  # between the ruler band and the outer bleed
MIN_BLEED = 1.3 * MM  # the least bleed that still covers a cut 1 mm off the trim
TOKEN_GAP = 3 * MM  # round tokens never sit closer than this (room for bleed between)
CROP_WIDTH = 0.25  # pt
HALO_WIDTH = 1.2  # pt: white under a mark drawn over bleed
RULERS_MM = (50, 30, 20, 10)
LABEL_SIZE = 5.0  # pt


class ImpositionError(ValueError):
    """A card that does not fit on the paper inside its printable area."""


@dataclass(frozen=True)
class Sheet:
    """A grid of ``cols`` x ``rows`` card slots of ``card`` (w, h) pt on ``paper`` (w, h) pt.

    ``gutter`` is the gap (pt) between neighbouring columns and between rows (0: butted);
    ``bleed`` the layout's bleed (pt), printed in full at the grid's outer edges and up to
    half a gutter between cards; ``marks``: crop marks are drawn (not for round tokens);
    ``ruler_axis``: "x" puts the ruler and label in the left and right margins, "y" in the
    bottom and top margins.
    """

    paper: tuple[float, float]
    card: tuple[float, float]
    cols: int
    rows: int
    gutter: tuple[float, float] = (0.0, 0.0)
    bleed: float = 0.0
    marks: bool = True
    ruler_axis: str = "x"

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    @property
    def landscape(self) -> bool:
        return self.paper[0] > self.paper[1]

    @property
    def grid(self) -> tuple[float, float, float, float]:
        """(x, y, width, height) of the card grid (trim to trim), lower-left origin, pt."""
        gw = self.cols * self.card[0] + (self.cols - 1) * self.gutter[0]
        gh = self.rows * self.card[1] + (self.rows - 1) * self.gutter[1]
        return (self.paper[0] - gw) / 2, (self.paper[1] - gh) / 2, gw, gh

    def slot(self, i: int) -> tuple[float, float]:
        """Lower-left corner (pt) of the trim box of front slot ``i``."""
        gx, gy, gw, gh = self.grid
        col, row = i % self.cols, i // self.cols
        x = gx + col * (self.card[0] + self.gutter[0])
        y = gy + gh - (row + 1) * self.card[1] - row * self.gutter[1]
        return x, y

    def _mirrors_x(self, flip: str) -> bool:
        return (flip == "long") == (self.paper[1] >= self.paper[0])

    def back_slot(self, i: int, flip: str = "long", shift: tuple[float, float] = (0.0, 0.0)) -> tuple[float, float]:
        """Lower-left corner (pt) of the back of slot ``i`` on the backs page.

        ``flip`` is the paper edge the printer turns the sheet on: ``"long"`` or ``"short"``;
        ``shift`` (dx, dy) pt moves every back to correct a printer's measured duplex offset.
        """
        x, y = self.slot(i)
        pw, ph = self.paper
        if self._mirrors_x(flip):
            x, y = pw - x - self.card[0], y
        else:
            x, y = x, ph - y - self.card[1]
        return x + shift[0], y + shift[1]

    def bleeds(self, i: int, back: bool = False, flip: str = "long") -> tuple[float, float, float, float]:
        """Bleed (left, bottom, right, top) pt of slot ``i`` (of its back with ``back``)."""
        col, row = i % self.cols, i // self.cols
        inner = (min(self.bleed, self.gutter[0] / 2), min(self.bleed, self.gutter[1] / 2))
        outer = (self.outer_bleed("x"), self.outer_bleed("y"))
        left = outer[0] if col == 0 else inner[0]
        right = outer[0] if col == self.cols - 1 else inner[0]
        top = outer[1] if row == 0 else inner[1]
        bottom = outer[1] if row == self.rows - 1 else inner[1]
        if back and self._mirrors_x(flip):
            left, right = right, left
        elif back:
            top, bottom = bottom, top
        return left, bottom, right, top

    def outer_bleed(self, axis: str) -> float:
        """Bleed (pt) at the grid's outer edges across ``axis``: the full bleed, except in the
        ruler's margins, where it stops short of the ruler band (never below the bleed
        between cards)."""
        if axis != self.ruler_axis:
            return self.bleed
        margin = self.margins()[0 if axis == "x" else 1]
        inner = min(self.bleed, self.gutter[0 if axis == "x" else 1] / 2)
        return max(inner, min(self.bleed, margin - PRINTABLE - RULER_BAND - RULER_GAP))

    def cut_lines(self) -> tuple[list[float], list[float]]:
        """The x positions of vertical cuts and y positions of horizontal cuts (pt)."""
        gx, gy, _, _ = self.grid
        w, h = self.card
        xs = sorted({round(gx + c * (w + self.gutter[0]) + d, 3) for c in range(self.cols) for d in (0, w)})
        ys = sorted({round(gy + r * (h + self.gutter[1]) + d, 3) for r in range(self.rows) for d in (0, h)})
        return xs, ys

    def margins(self) -> tuple[float, float]:
        """Paper left between the grid's trim and the paper edge: (each side, top and bottom) pt."""
        gx, gy, _, _ = self.grid
        return gx, gy

    def mark_span(self, axis: str) -> tuple[float, float, bool]:
        """A crop mark in the margins of ``axis`` ("x": left/right marks of horizontal cuts,
        "y": bottom/top marks of vertical cuts): (distance from the paper edge where it
        starts, where it ends, drawn over bleed) pt."""
        margin = self.margins()[0 if axis == "x" else 1]
        end = margin - self.outer_bleed(axis) - MARK_GAP
        over = end - PRINTABLE < MARK_MIN
        if over:
            end = margin - MARK_GAP
        return max(PRINTABLE, end - MARK_MAX), end, over

    def tight(self) -> list[str]:
        """Why the sheet falls short of printable marks and bleed between cards ([] when it does not)."""
        why = []
        for axis, n, gutter in (("x", self.cols, self.gutter[0]), ("y", self.rows, self.gutter[1])):
            side = "left and right" if axis == "x" else "top and bottom"
            if self.marks:
                start, end, _ = self.mark_span(axis)
                if end - start < MARK_MIN - 0.01:
                    why.append(f"the crop marks at the {side} are only {max(0.0, end - start) / MM:.1f} mm long "
                               f"(the grid leaves {self.margins()[0 if axis == 'x' else 1] / MM:.1f} mm, and printers "
                               f"print nothing in the outer {PRINTABLE / MM:.0f} mm)")
            if n > 1 and gutter < 2 * MIN_BLEED - 0.01:
                across = "columns" if axis == "x" else "rows"
                why.append(f"the {across} touch with {gutter / MM:.1f} mm between them, so there is "
                           f"no bleed between cards there")
        return why


def _count(length: float, card: float, need: float, gap: float) -> int:
    """How many cards of ``card`` pt fit in ``length`` with ``gap`` between them and ``need``
    at each end."""
    return max(0, int((length - 2 * need + gap) // (card + gap) + 1e-9))


def impose(paper: str, card: tuple[float, float], bleed: float = 3 * MM, shape: str = "rect",
           gutter: float | None = None, orientation: str = "auto", fit: str = "cards") -> Sheet:
    """The sheet of ``paper`` ("letter" or "a4") for cards of ``card`` (w, h) pt.

    ``fit="cards"`` holds the most cards whose trims lie inside the printable area (3 x 3
    poker cards on Letter and A4), with gutters carrying bleed where the paper has room;
    ``fit="marks"`` holds fewer when needed so that every gutter carries the full bleed and
    every crop mark is clear of it. ``gutter`` (pt) fixes the gap between cards instead of
    choosing it. ``orientation`` is "portrait", "landscape" or "auto" (the one that holds
    more cards; on a tie, the one with wider gutters, then portrait). Round tokens
    (``shape="circle"``) get no crop marks and at least ``TOKEN_GAP`` between them.
    Raises :class:`ImpositionError` when not even one card fits.
    """
    pw, ph = (v * MM for v in PAPER_MM[paper])
    options = {"portrait": (pw, ph), "landscape": (ph, pw)}
    candidates = [orientation] if orientation in options else ["portrait", "landscape"]
    marks = shape != "circle"
    best: tuple | None = None
    for name in candidates:
        w, h = options[name]
        for ruler_axis in ("x", "y"):
            sheet = _grid((w, h), card, bleed, marks, ruler_axis, gutter, fit)
            if sheet is None:
                continue
            score = (sheet.per_sheet, not sheet.tight(), min(sheet.gutter), name == "portrait")
            if best is None or score > best[0]:
                best = (score, sheet)
    if best is None:
        raise ImpositionError(f"a {card[0] / MM:.1f} x {card[1] / MM:.1f} mm card does not fit on {paper} paper "
                              f"inside the {PRINTABLE / MM:.0f} mm a printer cannot print")
    return best[1]


def _grid(paper: tuple[float, float], card: tuple[float, float], bleed: float, marks: bool, ruler_axis: str,
          fixed: float | None, fit: str) -> Sheet | None:
    counts, gutters = [], []
    for axis, length, size in (("x", paper[0], card[0]), ("y", paper[1], card[1])):
        ruler = axis == ruler_axis
        band = (RULER_BAND + RULER_GAP + bleed) if ruler else (MARK_MIN + MARK_GAP + bleed if marks else 0.0)
        if fixed is not None:
            n = _count(length, size, PRINTABLE, fixed)
            g = fixed
        elif fit == "marks":
            n = _count(length, size, PRINTABLE + band, 2 * bleed)
            g = 2 * bleed
        else:
            n = _count(length, size, PRINTABLE, TOKEN_GAP if not marks else 0.0)
            spare = length - n * size
            if ruler:  # the ruler band stays clear of the outer bleed: share the room out
                g = (spare - 2 * (PRINTABLE + RULER_BAND + RULER_GAP)) / max(n, 1)
            else:
                g = (spare - 2 * (PRINTABLE + (MARK_MIN + MARK_GAP if marks else bleed))) / max(n - 1, 1)
            g = min(max(g, 0.0), 2 * bleed)
            if not marks and n > 1 and g < TOKEN_GAP:
                n -= 1
                spare = length - n * size
                g = min(2 * bleed, (spare - 2 * PRINTABLE) / max(n - 1, 1))
        if n < 1:
            return None
        counts.append(n)
        gutters.append(g if n > 1 else 0.0)
    return Sheet(paper, card, counts[0], counts[1], (gutters[0], gutters[1]), bleed, marks, ruler_axis)


def crop_marks(canvas: Canvas, sheet: Sheet) -> None:
    """Crop marks on every cut line, in the margins only, at least ``PRINTABLE`` inside the
    paper edge; a mark over the outer bleed gets a white halo so it shows on dark art."""
    xs, ys = sheet.cut_lines()
    pw, ph = sheet.paper
    segments = []
    start, end, over_y = sheet.mark_span("y")
    for x in xs:
        segments.append(((x, start, x, end), over_y))
        segments.append(((x, ph - start, x, ph - end), over_y))
    start, end, over_x = sheet.mark_span("x")
    for y in ys:
        segments.append(((start, y, end, y), over_x))
        segments.append(((pw - start, y, pw - end, y), over_x))
    c = canvas
    c.saveState()
    c.setLineCap(0)
    for (x0, y0, x1, y1), over in segments:
        if over:
            c.setStrokeColor(white)
            c.setLineWidth(HALO_WIDTH)
            c.line(x0, y0, x1, y1)
    c.setStrokeColor(black)
    c.setLineWidth(CROP_WIDTH)
    for (x0, y0, x1, y1), _ in segments:
        c.line(x0, y0, x1, y1)
    c.restoreState()


def cut_guide(canvas: Canvas, x: float, y: float, size: tuple[float, float], shape: str, corner: float) -> None:
    """A thin cut line on the trim: a circle for round tokens, a rounded rectangle otherwise."""
    c = canvas
    c.saveState()
    c.setStrokeColor(black)
    c.setLineWidth(CROP_WIDTH)
    if shape == "circle":
        c.ellipse(x, y, x + size[0], y + size[1], stroke=1, fill=0)
    else:
        c.roundRect(x, y, size[0], size[1], corner, stroke=1, fill=0)
    c.restoreState()


def furniture_span(sheet: Sheet) -> tuple[float, float]:
    """The stretch (from, to) pt along the ruler's margin between two neighbouring crop
    marks, around the middle of the grid, where the ruler and the label sit."""
    gx, gy, gw, gh = sheet.grid
    xs, ys = sheet.cut_lines()
    lines = ys if sheet.ruler_axis == "x" else xs
    lo, hi = (gy, gy + gh) if sheet.ruler_axis == "x" else (gx, gx + gw)
    if not sheet.marks:
        return lo, hi
    middle = (lo + hi) / 2
    spans = [(a, b) for a, b in zip(lines, lines[1:]) if b - a > 1]
    return max(spans, key=lambda s: (s[1] - s[0] > 20 * MM, -abs((s[0] + s[1]) / 2 - middle), s[1] - s[0]))


def scale_check(canvas: Canvas, sheet: Sheet, label: str) -> tuple[tuple[float, float, float, float], ...]:
    """A ruler (50 mm, or 30/20/10 mm where the cards are small) with 10 mm ticks in one
    margin, and the page label in the opposite one, both between two crop marks and at least
    ``PRINTABLE`` inside the paper edge. Returns the (x0, y0, x1, y1) pt boxes of the ruler
    and of the label, for checks."""
    lo, hi = furniture_span(sheet)
    room = hi - lo - 2 * MM
    length = next((r * MM for r in RULERS_MM if r * MM <= room), RULERS_MM[-1] * MM)
    mid = (lo + hi) / 2
    size = LABEL_SIZE
    font = fonts.pdf_name("sans")
    while stringWidth(label, font, size) > room and size > 3.5:
        size -= 0.25
    text = label
    while stringWidth(text, font, size) > room and len(text) > 8:
        text = text[:-2].rstrip() + "…"
    caption = f"{length / MM:.0f} mm at 100 % scale"
    c = canvas
    c.saveState()
    c.setStrokeColor(black)
    c.setFillColor(black)
    line = PRINTABLE + RULER_BAND  # the ruler's line; ticks and caption lie between it and the edge
    if sheet.ruler_axis == "x":
        c.translate(line, mid)
        c.rotate(90)  # along the margin: +x runs up the page, +y towards the paper edge
    else:
        c.translate(mid, line)
        c.scale(1, -1)  # +y towards the bottom paper edge
    c.setLineWidth(0.5)
    c.line(-length / 2, 0, length / 2, 0)
    for k in range(int(round(length / (10 * MM))) + 1):
        c.line(-length / 2 + k * 10 * MM, 0, -length / 2 + k * 10 * MM, 1.2 * MM)
    c.setFont(font, 5)
    if sheet.ruler_axis == "x":
        c.drawCentredString(0, 1.4 * MM, caption)
    else:
        c.scale(1, -1)
        c.drawCentredString(0, -(RULER_BAND - 0.3 * MM) + 1.3, caption)
    c.restoreState()
    c.saveState()
    c.setFillColor(black)
    c.setFont(font, size)
    pw, ph = sheet.paper
    if sheet.ruler_axis == "x":
        c.translate(pw - PRINTABLE - 0.6 * MM, mid)
        c.rotate(90)
    else:
        c.translate(mid, ph - PRINTABLE - size - 0.2)
    c.drawCentredString(0, 0, text)
    c.restoreState()
    tw = stringWidth(text, font, size)
    if sheet.ruler_axis == "x":
        ruler = (PRINTABLE, mid - length / 2, line, mid + length / 2)
        box = (pw - PRINTABLE - 0.6 * MM - size * 0.76, mid - tw / 2, pw - PRINTABLE, mid + tw / 2)
    else:
        ruler = (mid - length / 2, PRINTABLE, mid + length / 2, line)
        box = (mid - tw / 2, ph - PRINTABLE - size, mid + tw / 2, ph - PRINTABLE)
    return ruler, box
