"""Drawing the shape elements of a layout: rect, line, ellipse, circle, polygon.

Each is drawn inside its element box, whose lower-left corner is (x, y) pt on the page and
whose size is (w, h) pt. ``line`` runs from the box's top-left to its bottom-right corner
(a box of height 0 is a horizontal rule, of width 0 a vertical one) or through ``points``;
``ellipse`` fills the box, ``circle`` is the largest circle centred in it; ``polygon`` is a
regular polygon of ``sides`` (a star with ``star: true``, its inner points at ``inner`` of
the radius) inscribed in the box's ellipse with a point upwards, or the ``points`` given
(pt from the box's top-left corner). ``dash`` is a dash pattern in pt; ``opacity`` 0..1.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from cardforge.render.colors import HexColor

from cardforge.sandbox import context as memo
from cardforge.render import colors
from cardforge.render.bleed import to_bleed

if TYPE_CHECKING:  # ReportLab is imported to draw: the checks, which only measure, never load it
    from reportlab.pdfgen.canvas import Canvas

def color(value: str, ctx: dict[str, Any]) -> HexColor:
    return colors.color(memo.rendered(value, ctx))


def polygon_points(el, x: float, y: float, w: float, h: float) -> list[tuple[float, float]]:
    """Page coordinates (pt) of a polygon element's corners, in drawing order."""
    if el.points:
        return [(x + px, y + h - py) for px, py in el.points]
    n = el.sides
    cx, cy, rx, ry = x + w / 2, y + h / 2, w / 2, h / 2
    corners = []
    steps = 2 * n if el.star else n
    for k in range(steps):
        angle = math.pi / 2 + 2 * math.pi * k / steps
        r = el.inner if (el.star and k % 2) else 1.0
        corners.append((cx + rx * r * math.cos(angle), cy + ry * r * math.sin(angle)))
    return corners


def draw(c: Canvas, el, ctx: dict[str, Any], x: float, y: float, w: float, h: float,
         trim: tuple | None = None, outline=None) -> None:
    """Draw shape element ``el`` in the box with lower-left (x, y) and size (w, h), pt.

    ``outline`` is the function of this module that traces the shape (:func:`rect`,
    :func:`line`, :func:`ellipse`, :func:`circle`, :func:`polygon`; the element's kind
    chooses it, see :mod:`cardforge.elements.shapes`). ``trim`` is (trim x, trim y, (trim w,
    trim h), bleed area (x, y, w, h)), all pt: given, a rect's fill that reaches the trim on a
    side runs on to the bleed edge there (its corner radius dropped) while its outline stays
    in the box; see :func:`cardforge.render.bleed.to_bleed`.
    """
    fill = memo.rendered(el.fill, ctx)
    stroke = memo.rendered(el.stroke, ctx)
    if outline is line and not stroke:
        stroke = "#000000"
    if not fill and not stroke:
        return
    c.saveState()
    if fill:
        c.setFillColor(colors.color(fill))
    if stroke:
        c.setStrokeColor(colors.color(stroke))
        c.setLineWidth(el.stroke_width)
        if el.dash:
            c.setDash(list(el.dash))
    if el.opacity < 1:
        c.setFillAlpha(el.opacity)
        c.setStrokeAlpha(el.opacity)
    s, f = (1 if stroke else 0), (1 if fill else 0)
    grown = to_bleed((x, y, w, h), trim[:2], trim[2], trim[3]) if trim and fill and outline is rect else None
    if grown:  # a fill reaching the trim: square-cornered out to the bleed edge
        c.rect(*grown, stroke=0, fill=1)
        if stroke:
            c.roundRect(x, y, w, h, el.radius, stroke=1, fill=0)
    else:
        outline(c, el, x, y, w, h, s, f)
    c.restoreState()


def rect(c: Canvas, el, x: float, y: float, w: float, h: float, s: int, f: int) -> None:
    c.roundRect(x, y, w, h, el.radius, stroke=s, fill=f)


def line(c: Canvas, el, x: float, y: float, w: float, h: float, s: int, f: int) -> None:
    pts = [(x + px, y + h - py) for px, py in el.points] if el.points else [(x, y + h), (x + w, y)]
    path = c.beginPath()
    path.moveTo(*pts[0])
    for p in pts[1:]:
        path.lineTo(*p)
    c.setLineCap(1)
    c.drawPath(path, stroke=1, fill=0)


def ellipse(c: Canvas, el, x: float, y: float, w: float, h: float, s: int, f: int) -> None:
    c.ellipse(x, y, x + w, y + h, stroke=s, fill=f)


def circle(c: Canvas, el, x: float, y: float, w: float, h: float, s: int, f: int) -> None:
    r = min(w, h) / 2
    c.circle(x + w / 2, y + h / 2, r, stroke=s, fill=f)


def polygon(c: Canvas, el, x: float, y: float, w: float, h: float, s: int, f: int) -> None:
    pts = polygon_points(el, x, y, w, h)
    path = c.beginPath()
    path.moveTo(*pts[0])
    for p in pts[1:]:
        path.lineTo(*p)
    path.close()
    c.setLineJoin(1)
    c.drawPath(path, stroke=s, fill=f)
