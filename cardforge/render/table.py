"""Drawing a fitted ``table`` element (:func:`cardforge.resolve.table.fit`): cell fills,
rules and each cell's text. Lengths in pt.
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from cardforge import sandbox
from cardforge.render import text
from cardforge.render.colors import HexColor
from cardforge.render.icons import IconStamp
from cardforge.resolve.table import PAD, TableFit

if TYPE_CHECKING:  # ReportLab is imported to draw
    from reportlab.pdfgen.canvas import Canvas


def draw(c: Canvas, el, table: TableFit, ctx: dict[str, Any], x: float, y: float, w: float, h: float,
         stamp: IconStamp) -> None:
    """Draw a fitted table in the box with lower-left corner (x, y), size (w, h) pt."""
    rule = HexColor(sandbox.render(el.stroke, ctx).strip()) if el.stroke else None
    c.saveState()
    if el.fill or rule is not None:
        if el.fill:
            c.setFillColor(HexColor(sandbox.render(el.fill, ctx).strip()))
        if rule is not None:
            c.setStrokeColor(rule)
            c.setLineWidth(el.stroke_width)
        c.roundRect(x, y, w, h, el.radius, stroke=1 if rule is not None else 0, fill=1 if el.fill else 0)
    top = y + h
    has_header = any("header" in col for col in el.columns)
    for i, line in enumerate(table.cells):
        cx = x
        rh = table.heights[i]
        for c_i, (content, block, style) in enumerate(line):
            cw = table.widths[c_i]
            if "{" in style.color:
                style = replace(style, color=sandbox.render(style.color, ctx).strip())
            text.draw(c, block, style, cx + PAD, top - rh + PAD, cw - 2 * PAD, rh - 2 * PAD, stamp)
            cx += cw
        top -= rh
        if rule is not None and i < len(table.cells) - 1:
            c.setStrokeColor(rule)
            c.setLineWidth(el.stroke_width * (2 if (i == 0 and has_header) else 1))
            c.line(x + 2 * PAD, top, x + w - 2 * PAD, top)
    if rule is not None:
        c.setStrokeColor(rule)
        c.setLineWidth(el.stroke_width)
        cx = x
        for cw in table.widths[:-1]:
            cx += cw
            c.line(cx, y + 2 * PAD, cx, y + h - 2 * PAD)
    c.restoreState()
