"""The duplex registration test: one sheet, printed double-sided, that measures a printer's
front-to-back offset.

The front page has crosshairs at the centre and near each corner; the back page has, behind
each crosshair, a pair of millimetre scales (-5 to +5 mm, horizontal and vertical) centred
where the cross should land for the chosen flip edge. Hold the printed sheet to a light:
seen from the back side, the scale value under the cross's lines is the shift to pass as
``cardforge build --duplex-shift DX,DY`` (mm; positive DX moves backs right, DY up).
"""
from __future__ import annotations

from pathlib import Path

from reportlab.lib.colors import black
from reportlab.pdfgen.canvas import Canvas

from cardforge.render import fonts
from cardforge.render.sheet import PAPER_MM
from cardforge.util.units import MM

TARGETS_MM = [(0.5, 0.5), (0.15, 0.12), (0.85, 0.12), (0.15, 0.88), (0.85, 0.88)]  # share of width/height


def targets(paper: tuple[float, float]) -> list[tuple[float, float]]:
    """The crosshair centres on the front page, pt from the lower-left corner."""
    return [(fx * paper[0], fy * paper[1]) for fx, fy in TARGETS_MM]


def mirrored(point: tuple[float, float], paper: tuple[float, float], flip: str) -> tuple[float, float]:
    """Where a front point lies on the back page for a ``flip`` ("long"/"short") duplex."""
    x, y = point
    long_is_vertical = paper[1] >= paper[0]
    if (flip == "long") == long_is_vertical:
        return paper[0] - x, y
    return x, paper[1] - y


def render_registration(out: Path, paper: str = "letter", flip: str = "long") -> None:
    """Write the two-page registration test to ``out``."""
    size = tuple(v * MM for v in PAPER_MM[paper])
    c = Canvas(str(out), pagesize=size, invariant=1, initialFontName=fonts.pdf_name("sans"))
    c.setTitle("cardforge duplex registration test")
    c.setFont(fonts.pdf_name("sans-bold"), 11)
    c.drawCentredString(size[0] / 2, size[1] - 12 * MM, f"Duplex registration test ({paper}, {flip}-edge flip)")
    c.setFont(fonts.pdf_name("sans"), 8)
    for i, text in enumerate([
            "Print this page double-sided at 100 % (actual size), then hold it up to a light.",
            "Look at the back side: read on its scales where each cross's lines show through (mm).",
            "Pass the readings as: cardforge build --duplex-shift DX,DY"]):
        c.drawCentredString(size[0] / 2, size[1] - (18 + 4 * i) * MM, text)
    c.setStrokeColor(black)
    c.setLineWidth(0.3)
    for x, y in targets(size):
        c.line(x - 14 * MM, y, x + 14 * MM, y)
        c.line(x, y - 14 * MM, x, y + 14 * MM)
        c.circle(x, y, 2 * MM)
    c.showPage()
    c.setLineWidth(0.25)
    c.setFont(fonts.pdf_name("sans"), 4)
    for point in targets(size):
        bx, by = mirrored(point, size, flip)
        for k in range(-5, 6):
            tick = (2.2 if k % 5 == 0 else 1.2) * MM
            # horizontal scale under the cross: reads the X offset; vertical beside it: Y
            c.line(bx + k * MM, by - 10 * MM, bx + k * MM, by - 10 * MM + tick)
            c.line(bx - 10 * MM, by + k * MM, bx - 10 * MM + tick, by + k * MM)
            if k % 5 == 0:
                c.drawCentredString(bx + k * MM, by - 12 * MM, f"{k:+d}" if k else "0")
                c.drawRightString(bx - 11 * MM, by + k * MM - 1.2, f"{k:+d}" if k else "0")
    c.showPage()
    c.save()
