"""True bleed: whatever touches a card's trim continues into the bleed beyond it.

A print shop (or a paper trimmer at home) cuts within about 0.5 to 1 mm of the trim line,
so the colour just outside the trim must be the colour just inside it. Units are points;
a face's trim has its lower-left corner at (x, y) and measures ``size`` (w, h).

- The background fills the whole bleed area.
- A frame (``border`` in a layout) is a band from the trim inwards; it is filled out to the
  bleed edge, and its rounded corners (``radius``) shape only its inner edge, so no wedge
  of another colour shows at the card's corners. Rounded card corners are a cut guide
  (``--cut-guides``), not something the artwork draws.
- A rect element whose box comes within 1 mm of the trim on a side has its fill extended
  to the bleed edge on that side (its corner radius dropped), so full-bleed bands and art
  stay full-bleed; its outline stays where the layout draws it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # ReportLab is imported to draw: the checks, which only measure, never load it
    from reportlab.lib.colors import Color
    from reportlab.pdfgen.canvas import Canvas

from cardforge.util.units import MM

EDGE = 1 * MM  # a box this close to the trim touches it (a cut can land anywhere in between)


def sides(bleed: float | tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """``bleed`` as (left, bottom, right, top) pt."""
    if isinstance(bleed, (int, float)):
        return (float(bleed),) * 4
    return tuple(float(v) for v in bleed)


def bleed_area(x: float, y: float, size: tuple[float, float],
               bleed: float | tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """(x, y, w, h) pt of the trim grown by ``bleed`` on each side."""
    left, bottom, right, top = sides(bleed)
    return x - left, y - bottom, size[0] + left + right, size[1] + bottom + top


def draw_ground(canvas: Canvas, area: tuple[float, float, float, float], x: float, y: float,
                size: tuple[float, float], shape: str, background: Color, frame: Color | None,
                frame_width: float, frame_radius: float) -> None:
    """Fill ``area`` with the frame colour (or the background when there is no frame) and the
    inside of the frame with the background; the frame's inner edge is rounded by
    ``frame_radius`` less half its width, as a stroked frame of that radius would be."""
    c = canvas
    ax, ay, aw, ah = area
    c.setFillColor(frame if frame is not None and frame_width > 0 else background)
    if shape == "circle":
        c.ellipse(ax, ay, ax + aw, ay + ah, stroke=0, fill=1)
    else:
        c.rect(ax, ay, aw, ah, stroke=0, fill=1)
    if frame is None or frame_width <= 0:
        return
    w, h = size
    c.setFillColor(background)
    inner = (x + frame_width, y + frame_width, w - 2 * frame_width, h - 2 * frame_width)
    if inner[2] <= 0 or inner[3] <= 0:
        return
    if shape == "circle":
        c.ellipse(inner[0], inner[1], inner[0] + inner[2], inner[1] + inner[3], stroke=0, fill=1)
    else:
        c.roundRect(*inner, max(0.0, frame_radius - frame_width / 2), stroke=0, fill=1)


def to_bleed(box: tuple[float, float, float, float], origin: tuple[float, float],
             size: tuple[float, float], area: tuple[float, float, float, float]) -> tuple[float, float, float, float] | None:
    """A rect element's page box (x, y, w, h) pt grown to the bleed ``area`` on every side
    where it touches the trim (its corner radius then dropped); None when it touches no side."""
    bx, by, bw, bh = box
    x, y = origin
    ax, ay, aw, ah = area
    x0, y0, x1, y1 = bx, by, bx + bw, by + bh
    touched = False
    if x0 <= x + EDGE:
        x0, touched = ax, True
    if y0 <= y + EDGE:
        y0, touched = ay, True
    if x1 >= x + size[0] - EDGE:
        x1, touched = ax + aw, True
    if y1 >= y + size[1] - EDGE:
        y1, touched = ay + ah, True
    return (x0, y0, x1 - x0, y1 - y0) if touched else None
