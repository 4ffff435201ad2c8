"""The ``image`` element: per-card art from a file (PNG, JPEG or SVG) placed in its box.

The file is named by the element's ``field`` (a card field holding a path) or ``template``,
relative to the game pack's folder (``cards/<slug>/``) and never outside it. ``fit`` is
``contain`` (the whole image, letterboxed; default), ``cover`` (the box filled, the overflow
clipped) or ``stretch`` (the box filled, proportions changed); ``anchor`` places a
contained or covering image in its box (``center``, ``top``, ``bottom``, ``left``,
``right``, or a corner such as ``top-left``). ``clip: true`` also clips the art to the
card's shape (the trim's rectangle or circle). SVG art is drawn as vectors (one form
XObject per file); raster art is embedded once per PDF however often it prints (ReportLab
keys images by content). Lengths in pt.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardforge.cache.registry import IMAGE_SIZES
from cardforge.render.colors import HexColor

from cardforge.render import fonts
from cardforge.resolve.image import placement, raster_size, resolve
from cardforge.render.icons import IconError, IconStamp, drawing

if TYPE_CHECKING:  # ReportLab is imported to draw
    from reportlab.pdfgen.canvas import Canvas


@IMAGE_SIZES.function
def pixel_size(path: Path) -> tuple[float, float]:
    """(width, height) of an image: pixels for raster art, SVG units for SVG."""
    if path.suffix.lower() == ".svg":
        d = drawing(path)
        return float(d.width), float(d.height)
    return raster_size(path)


def draw(c: Canvas, el, ctx: dict[str, Any], root: Path, box: tuple[float, float, float, float],
         stamp: IconStamp) -> None:
    """Draw image element ``el`` in ``box`` (x, y, w, h pt, lower-left origin on the page).

    A missing file (possible only in a ``--force`` build) prints a MISSING placeholder.
    """
    art = resolve(el, ctx, root)
    if art is None:
        return
    x, y, bw, bh = box
    c.saveState()
    clip = c.beginPath()
    clip.rect(x, y, bw, bh)
    c.clipPath(clip, stroke=0, fill=0)
    try:
        if art.path is None:
            raise IconError(art.problem, Path(art.name))
        px, py, pw, ph = placement(pixel_size(art.path), box, el.fit, el.anchor)
        if art.path.suffix.lower() == ".svg":
            name, w, h = stamp.svg_form(art.path)
            c.translate(px, py)
            c.scale(pw / w, ph / h)
            c.doForm(name)
        else:
            c.drawImage(str(art.path), px, py, pw, ph, mask="auto")
    except (IconError, OSError):
        _missing(c, box)
    c.restoreState()


def _missing(c: Canvas, box: tuple[float, float, float, float]) -> None:
    x, y, w, h = box
    c.setFillColor(HexColor("#ffebee"))
    c.setStrokeColor(HexColor("#c62828"))
    c.setLineWidth(1)
    c.rect(x, y, w, h, stroke=1, fill=1)
    c.line(x, y, x + w, y + h)
    c.line(x, y + h, x + w, y)
    c.setFillColor(HexColor("#c62828"))
    size = max(4.0, min(14.0, w / 6))
    c.setFont(fonts.pdf_name("sans-bold"), size)
    c.drawCentredString(x + w / 2, y + h / 2 - size / 3, "MISSING")
