"""Boards larger than the paper: tiled across pages with overlap and alignment marks.

A card whose trim does not fit on the paper (inside the margins kept for marks) is printed
in tiles: each page shows a ``tile`` (w, h) pt part of the board, neighbouring tiles
sharing an :data:`OVERLAP` strip. Crosshair alignment marks are drawn at the same board
positions in the middle of every overlap strip, so each appears on both tiles that share
it: lay one tile over the other with the marks on top of each other, and glue. Each page is
labelled with the board's name and the tile's row and column. Units are points.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from reportlab.lib.colors import black, white
from reportlab.pdfgen.canvas import Canvas

from cardforge.render import fonts
from cardforge.render.sheet import PRINTABLE, PAPER_MM
from cardforge.util.units import MM

OVERLAP = 10 * MM
MARK = 3 * MM  # half the length of a crosshair's arms


@dataclass(frozen=True)
class Tiling:
    """``cols`` x ``rows`` tiles of ``area`` (w, h) pt on ``paper`` (w, h) pt for a board of ``size``."""

    paper: tuple[float, float]
    size: tuple[float, float]
    area: tuple[float, float]
    cols: int
    rows: int

    @property
    def step(self) -> tuple[float, float]:
        return self.area[0] - OVERLAP, self.area[1] - OVERLAP

    def region(self, col: int, row: int) -> tuple[float, float, float, float]:
        """The board part (x, y from the board's top-left, w, h) that tile (col, row) shows."""
        x, y = col * self.step[0], row * self.step[1]
        return x, y, min(self.area[0], self.size[0] - x), min(self.area[1], self.size[1] - y)

    def seams(self) -> tuple[list[float], list[float]]:
        """Board x of each vertical seam's centre line, board y of each horizontal one."""
        return ([(c + 1) * self.step[0] + OVERLAP / 2 for c in range(self.cols - 1)],
                [(r + 1) * self.step[1] + OVERLAP / 2 for r in range(self.rows - 1)])


def plan(paper: str, size: tuple[float, float], orientation: str = "auto") -> Tiling:
    """The tiling of a ``size`` pt board on ``paper`` with the fewest pages."""
    pw, ph = (v * MM for v in PAPER_MM[paper])
    options = {"portrait": (pw, ph), "landscape": (ph, pw)}
    names = [orientation] if orientation in options else ["portrait", "landscape"]
    best = None
    for name in names:
        w, h = options[name]
        area = (w - 2 * PRINTABLE, h - 2 * PRINTABLE - 4 * MM)  # room for the label below
        cols = max(1, math.ceil((size[0] - OVERLAP) / (area[0] - OVERLAP)))
        rows = max(1, math.ceil((size[1] - OVERLAP) / (area[1] - OVERLAP)))
        tiling = Tiling((w, h), size, area, cols, rows)
        if best is None or cols * rows < best.cols * best.rows:
            best = tiling
    return best


def origin(tiling: Tiling) -> tuple[float, float]:
    """Lower-left corner (pt) of the tile area on the page."""
    return PRINTABLE, PRINTABLE + 4 * MM


def draw_tiles(canvas: Canvas, tiling: Tiling, draw_face, label: str) -> int:
    """Draw every tile of one board face, a page each; returns the pages drawn.

    ``draw_face(x, y)`` draws the whole face with its trim's lower-left corner at (x, y) pt.
    """
    mx, my = origin(tiling)
    aw, ah = tiling.area
    _, height = tiling.size
    xs, ys = tiling.seams()
    pages = 0
    for row in range(tiling.rows):
        for col in range(tiling.cols):
            tx, ty, tw, th = tiling.region(col, row)
            canvas.setPageSize(tiling.paper)
            c = canvas
            c.saveState()
            clip = c.beginPath()
            clip.rect(mx, my + ah - th, tw, th)
            c.clipPath(clip, stroke=0, fill=0)
            x0, y0 = mx - tx, my + ah + ty - height  # the board's trim lower-left on this page
            draw_face(x0, y0)
            for sx in xs:
                for sy in [ty + th * 0.25, ty + th * 0.75]:
                    if tx <= sx <= tx + tw:
                        _crosshair(c, x0 + sx, y0 + height - sy)
            for sy in ys:
                for sx in [tx + tw * 0.25, tx + tw * 0.75]:
                    if ty <= sy <= ty + th:
                        _crosshair(c, x0 + sx, y0 + height - sy)
            c.restoreState()
            c.saveState()
            c.setFillColor(black)
            c.setFont(fonts.pdf_name("sans"), 7)
            c.drawString(mx, PRINTABLE, f"{label} · tile row {row + 1}, column {col + 1} of {tiling.rows} x "
                                         f"{tiling.cols} · overlap {OVERLAP / MM:.0f} mm: match the crosshairs")
            c.restoreState()
            c.showPage()
            pages += 1
    return pages


def _crosshair(c: Canvas, x: float, y: float) -> None:
    """An alignment mark centred on (x, y) pt: a circle and a cross, black on a white halo."""
    for color, width in ((white, 1.6), (black, 0.4)):
        c.setStrokeColor(color)
        c.setLineWidth(width)
        c.line(x - MARK, y, x + MARK, y)
        c.line(x, y - MARK, x, y + MARK)
        c.circle(x, y, MARK * 0.55, stroke=1, fill=0)
