"""Icons: SVG files rasterised once by cairosvg and stamped as PDF form XObjects.

An icon's SVG uses ``currentColor``; it is recoloured with the icon's ``color`` from
game.yaml, rendered to PNG at :data:`RASTER_PX` pixels square (cached per process by the
SVG's content, so an edited file is drawn again in a long-running process), drawn
once per PDF into a form XObject, and placed with ``doForm`` wherever the icon appears, so
a PDF holds each icon image once however many cards use it.
"""
from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

from reportlab.lib.colors import HexColor, white
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from cardforge.model import Icon
from cardforge.render import fonts

RASTER_PX = 256  # an icon is printed at most ~12 mm wide: 256 px is > 500 dpi there


class IconError(Exception):
    """An icon whose SVG file is missing or cannot be rasterised; ``svg`` is its path."""

    def __init__(self, message: str, svg: Path):
        super().__init__(message)
        self.svg = svg


def rasterise(svg: Path, color: str, px: int = RASTER_PX) -> bytes:
    """PNG bytes of ``svg`` recoloured to ``color`` (``#rrggbb``), ``px`` pixels square.

    Raises :class:`IconError` when the file is missing or not an SVG cairosvg can draw.
    """
    try:
        text = svg.read_text(encoding="utf-8")
    except OSError as exc:
        raise IconError(f"icon file {svg} cannot be read: {exc.strerror}", svg) from None
    try:
        return _png(text.replace("currentColor", color), px)
    except Exception as exc:  # cairosvg raises many parser exception types
        raise IconError(f"icon file {svg} cannot be drawn: {exc}", svg) from None


@lru_cache(maxsize=512)
def _png(svg_text: str, px: int) -> bytes:
    import cairosvg  # slow to import (cairocffi): only when an icon is drawn

    return cairosvg.svg2png(bytestring=svg_text.encode("utf-8"), output_width=px, output_height=px)


class IconStamp:
    """Draws icons on one canvas, defining each icon's form XObject on first use."""

    def __init__(self, canvas: Canvas):
        self.canvas = canvas
        self.defined: set[str] = set()

    def form_name(self, icon: Icon, color: str | None = None) -> str:
        color = color or icon.color
        name = f"icon-{icon.name}-{color.lstrip('#')}"
        if name not in self.defined:
            self._define(name, icon, color)
            self.defined.add(name)
        return name

    def _define(self, name: str, icon: Icon, color: str) -> None:
        c = self.canvas
        c.beginForm(name, lowerx=0, lowery=0, upperx=1, uppery=1)
        if icon.svg is not None:
            c.drawImage(ImageReader(io.BytesIO(rasterise(icon.svg, color))), 0, 0, 1, 1, mask="auto")
        if icon.badge:
            c.setFillColor(white)
            c.setStrokeColor(HexColor(color))
            c.setLineWidth(0.06)
            c.circle(0.76, 0.24, 0.24, stroke=1, fill=1)
            c.setFillColor(HexColor(color))
            c.setFont(fonts.pdf_name("sans-bold"), 0.36)
            c.drawCentredString(0.76, 0.115, icon.badge)
        c.endForm()

    def draw(self, icon: Icon, x: float, y: float, size: float, color: str | None = None) -> None:
        """Stamp ``icon`` with its lower-left corner at (x, y) pt, ``size`` pt square."""
        name = self.form_name(icon, color)
        c = self.canvas
        c.saveState()
        c.translate(x, y)
        c.scale(size, size)
        c.doForm(name)
        c.restoreState()
