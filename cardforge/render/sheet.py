"""Imposition: placing cards on paper sheets, crop marks, duplex backs and a scale check.

Units are points throughout. A :class:`Sheet` is a grid of card slots centred on the paper;
slot 0 is the top-left card and slots run left to right, top to bottom. For duplex
printing, :meth:`Sheet.back_slot` gives where the back of slot ``i`` must be drawn so that
it lands behind its front when the sheet is turned over on its long edge (portrait paper:
mirrored left to right) or its short edge (mirrored top to bottom).
"""
from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.colors import black, white
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
    paper: tuple[float, float]
    card: tuple[float, float]
    cols: int
    rows: int
    gutter: float = 0.0

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

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

    def back_slot(self, i: int, flip: str = "long") -> tuple[float, float]:
        """Lower-left corner (pt) of the back of slot ``i`` on the backs page.

        ``flip`` is the paper edge the printer turns the sheet on: ``"long"`` or ``"short"``.
        """
        x, y = self.slot(i)
        pw, ph = self.paper
        long_is_vertical = ph >= pw
        if (flip == "long") == long_is_vertical:
            return pw - x - self.card[0], y
        return x, ph - y - self.card[1]


def impose(paper: str, card: tuple[float, float], gutter: float = 0.0) -> Sheet:
    """The portrait sheet of ``paper`` ("letter" or "a4") holding the most cards of ``card`` pt.

    Raises :class:`ImpositionError` when not even one card fits inside the margins.
    """
    pw, ph = (v * MM for v in PAPER_MM[paper])
    usable_w, usable_h = pw - 2 * MIN_MARGIN, ph - 2 * MIN_MARGIN
    cols = int((usable_w + gutter) // (card[0] + gutter))
    rows = int((usable_h + gutter) // (card[1] + gutter))
    if cols < 1 or rows < 1:
        raise ImpositionError(f"a {card[0] / MM:.1f} x {card[1] / MM:.1f} mm card does not fit on {paper} paper")
    return Sheet((pw, ph), card, cols, rows, gutter)


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


def blank_slot(canvas: Canvas, x: float, y: float, size: tuple[float, float]) -> None:
    """Paint an unused slot white (nothing to cut)."""
    canvas.saveState()
    canvas.setFillColor(white)
    canvas.rect(x, y, size[0], size[1], stroke=0, fill=1)
    canvas.restoreState()
