"""Imposition: placing cards on paper sheets, crop marks, duplex backs and a scale check.

Units are points throughout. A :class:`Sheet` is a grid of card slots centred on the paper;
slot 0 is the top-left card and slots run left to right, top to bottom. For duplex
printing, :meth:`Sheet.back_slot` gives where the back of slot ``i`` must be drawn so that
it lands behind its front when the sheet is turned over on its long edge (portrait paper:
mirrored left to right) or its short edge (mirrored top to bottom).
"""
from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.colors import black
from reportlab.pdfgen.canvas import Canvas

from cardforge.render import fonts
from cardforge.units import MM

PAPER_MM = {"letter": (215.9, 279.4), "a4": (210.0, 297.0)}
MIN_MARGIN = 5 * MM  # room kept outside the card grid for crop marks
CROP_OFFSET = 1 * MM  # gap between the grid and a crop mark
CROP_LENGTH = 4 * MM
CROP_WIDTH = 0.25  # pt
RULER = 50 * MM


class ImpositionError(ValueError):
    """A card that does not fit on the paper with room for crop marks."""


@dataclass(frozen=True)
class Sheet:
    """A grid of ``cols`` x ``rows`` card slots of ``card`` (w, h) pt on ``paper`` (w, h) pt.

    ``gutter`` is the gap between neighbouring cards (0: butted).
    """

    paper: tuple[float, float]
    card: tuple[float, float]
    cols: int
    rows: int
    gutter: float = 0.0

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    @property
    def landscape(self) -> bool:
        return self.paper[0] > self.paper[1]

    @property
    def grid(self) -> tuple[float, float, float, float]:
        """(x, y, width, height) of the card grid, lower-left origin, pt."""
        gw = self.cols * self.card[0] + (self.cols - 1) * self.gutter
        gh = self.rows * self.card[1] + (self.rows - 1) * self.gutter
        return (self.paper[0] - gw) / 2, (self.paper[1] - gh) / 2, gw, gh

    def slot(self, i: int) -> tuple[float, float]:
        """Lower-left corner (pt) of the trim box of front slot ``i``."""
        gx, gy, gw, gh = self.grid
        col, row = i % self.cols, i // self.cols
        x = gx + col * (self.card[0] + self.gutter)
        y = gy + gh - (row + 1) * self.card[1] - row * self.gutter
        return x, y

    def back_slot(self, i: int, flip: str = "long", shift: tuple[float, float] = (0.0, 0.0)) -> tuple[float, float]:
        """Lower-left corner (pt) of the back of slot ``i`` on the backs page.

        ``flip`` is the paper edge the printer turns the sheet on: ``"long"`` or ``"short"``;
        ``shift`` (dx, dy) pt moves every back to correct a printer's measured duplex offset.
        """
        x, y = self.slot(i)
        pw, ph = self.paper
        long_is_vertical = ph >= pw
        if (flip == "long") == long_is_vertical:
            x, y = pw - x - self.card[0], y
        else:
            x, y = x, ph - y - self.card[1]
        return x + shift[0], y + shift[1]


def impose(paper: str, card: tuple[float, float], gutter: float = 0.0, orientation: str = "auto") -> Sheet:
    """The sheet of ``paper`` ("letter" or "a4") holding the most cards of ``card`` pt.

    ``orientation`` is "portrait", "landscape" or "auto" (the one that holds more cards;
    portrait on a tie). Raises :class:`ImpositionError` when not even one card fits inside
    the margins kept for crop marks.
    """
    pw, ph = (v * MM for v in PAPER_MM[paper])
    options = {"portrait": (pw, ph), "landscape": (ph, pw)}
    candidates = [orientation] if orientation in options else ["portrait", "landscape"]
    best: Sheet | None = None
    for name in candidates:
        w, h = options[name]
        cols = int((w - 2 * MIN_MARGIN + gutter) // (card[0] + gutter))
        rows = int((h - 2 * MIN_MARGIN + gutter) // (card[1] + gutter))
        if cols >= 1 and rows >= 1 and (best is None or cols * rows > best.per_sheet):
            best = Sheet((w, h), card, cols, rows, gutter)
    if best is None:
        raise ImpositionError(f"a {card[0] / MM:.1f} x {card[1] / MM:.1f} mm card does not fit on {paper} paper")
    return best


def crop_marks(canvas: Canvas, sheet: Sheet) -> None:
    """Crop marks at every trim edge of the grid, drawn only outside the grid."""
    gx, gy, gw, gh = sheet.grid
    w, h = sheet.card
    xs = sorted({round(gx + c * (w + sheet.gutter) + d, 3) for c in range(sheet.cols) for d in (0, w)})
    ys = sorted({round(gy + r * (h + sheet.gutter) + d, 3) for r in range(sheet.rows) for d in (0, h)})
    c = canvas
    c.saveState()
    c.setStrokeColor(black)
    c.setLineWidth(CROP_WIDTH)
    for x in xs:
        c.line(x, gy - CROP_OFFSET, x, gy - CROP_OFFSET - CROP_LENGTH)
        c.line(x, gy + gh + CROP_OFFSET, x, gy + gh + CROP_OFFSET + CROP_LENGTH)
    for y in ys:
        c.line(gx - CROP_OFFSET, y, gx - CROP_OFFSET - CROP_LENGTH, y)
        c.line(gx + gw + CROP_OFFSET, y, gx + gw + CROP_OFFSET + CROP_LENGTH, y)
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


def scale_check(canvas: Canvas, sheet: Sheet, label: str) -> None:
    """A 50 mm ruler with 10 mm ticks in the left margin, and a page label in the right.

    Both sit beside the middle of the grid, clear of the crop marks at the row edges.
    """
    gx, gy, gw, gh = sheet.grid
    c = canvas
    c.saveState()
    c.setStrokeColor(black)
    c.setFillColor(black)
    x = gx - CROP_OFFSET - 2.5 * MM
    y0 = gy + gh / 2 - RULER / 2
    c.setLineWidth(0.5)
    c.line(x, y0, x, y0 + RULER)
    for k in range(6):
        c.line(x - 1.2 * MM, y0 + k * 10 * MM, x, y0 + k * 10 * MM)
    c.setFont(fonts.pdf_name("sans"), 5)
    c.translate(x - 1.6 * MM, y0 + RULER / 2)
    c.rotate(90)
    c.drawCentredString(0, 0, "50 mm at 100 % scale")
    c.restoreState()
    c.saveState()
    c.setFillColor(black)
    c.setFont(fonts.pdf_name("sans"), 5)
    c.translate(gx + gw + CROP_OFFSET + 3 * MM, gy + gh / 2)
    c.rotate(90)
    c.drawCentredString(0, 0, label)
    c.restoreState()
