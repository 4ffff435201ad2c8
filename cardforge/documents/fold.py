"""The accordion rules sheet's geometry and fold, after the *Gate* seed's format (seed 003).

A 6.25 x 8 in double-sided sheet has four 6.25 x 2 in panels a side. Folding instructions,
as the sheet prints them: (1) cut along the solid line; (2) fold along the dotted panel
lines into an accordion (zig-zag), panel 1 on top; (3) fold the 6.25 x 2 in strip in half
so it is 3.125 x 2 in, the right half under the left. Each side therefore has eight cells
of 3.125 x 2 in: ``Cell(side, row, col)`` with ``side`` "front"/"back", ``row`` 0-3 from
the top and ``col`` 0-1 from the left, the back's cells as the reader sees them after
turning the sheet over on its long edge (so the back of front cell (r, c) is back (r, 1 - c)).

:func:`fold` simulates the two folds and returns the folded packet's faces from top to
bottom; :data:`READING_ORDER` is the order in which text flows through the cells: the
title on the cell that ends up outermost (the cover), then the front side panel by panel,
then the back side panel by panel.
"""
from __future__ import annotations

from dataclasses import dataclass

from cardforge.util.units import INCH

SHEET = (6.25 * INCH, 8 * INCH)
ROWS, COLS = 4, 2
CELL = (SHEET[0] / COLS, SHEET[1] / ROWS)  # 3.125 x 2 in


@dataclass(frozen=True, order=True)
class Cell:
    side: str
    row: int
    col: int

    def behind(self) -> "Cell":
        """The cell on the other side of the paper."""
        return Cell("back" if self.side == "front" else "front", self.row, COLS - 1 - self.col)


READING_ORDER: list[Cell] = [Cell(side, r, c) for side in ("front", "back") for r in range(ROWS) for c in range(COLS)]
TITLE_CELL = READING_ORDER[0]


def fold() -> list[Cell]:
    """Simulate the accordion and half folds; the packet's faces from top to bottom.

    Each layer of the packet is a piece of one cell (both faces); the list names, for each
    layer, its upward face then its downward face, so the first entry is the cover and the
    last the back cover.
    """
    # accordion: panel r lies at depth r; even panels keep their front side up
    strip = []  # per depth: (up-face side, row)
    for r in range(ROWS):
        up = "front" if r % 2 == 0 else "back"
        strip.append((up, r))
    # each panel has a left and right cell as seen from above; a panel showing its back
    # shows the back cells behind its front cells, so left-from-above is back col 1
    def seen(side: str, row: int, x: int) -> Cell:
        return Cell(side, row, x if side == "front" else COLS - 1 - x)

    faces: list[Cell] = []
    # half fold: the right half (x = 1) turns under the left half, reversing its layer order
    for up, r in strip:  # left half, top to bottom
        faces += [seen(up, r, 0), seen(up, r, 0).behind()]
    for up, r in reversed(strip):  # right half, now upside down under the left
        down = "back" if up == "front" else "front"
        faces += [seen(down, r, 1), seen(down, r, 1).behind()]
    return faces


def cell_origin(cell: Cell, sheet_origin: tuple[float, float]) -> tuple[float, float]:
    """Lower-left corner (pt) of ``cell`` on its page, given the sheet's lower-left corner."""
    x0, y0 = sheet_origin
    return x0 + cell.col * CELL[0], y0 + (ROWS - 1 - cell.row) * CELL[1]
