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

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from cardforge.render import fonts, memo
from cardforge.render.icons import IconError, IconStamp, drawing

RASTER = (".png", ".jpg", ".jpeg")
FORMATS = RASTER + (".svg",)
MIN_DPI = 300


@dataclass(frozen=True)
class Art:
    """A resolved image file: ``path``, or why there is none (``problem``)."""

    name: str
    path: Path | None
    problem: str = ""


def resolve(el, ctx: dict[str, Any], root: Path) -> Art | None:
    """The art file ``el`` shows on this card (None when the element shows nothing)."""
    if not memo.holds(el.when, ctx):
        return None
    if el.field:
        value = ctx["card"].get(el.field)
        name = "" if value is None else str(value).strip()
    else:
        name = memo.rendered(el.template, ctx)
    if not name:
        return None
    base = root.resolve()
    path = (base / name).resolve()
    if not path.is_relative_to(base):
        return Art(name, None, f"{name!r} lies outside the game pack's folder")
    if path.suffix.lower() not in FORMATS:
        return Art(name, None, f"{name!r} is not a PNG, JPEG or SVG file")
    if not path.is_file():
        return Art(name, None, f"{name!r} does not exist (looked in {base})")
    return Art(name, path)


@lru_cache(maxsize=256)
def pixel_size(path: Path) -> tuple[float, float]:
    """(width, height) of an image: pixels for raster art, SVG units for SVG."""
    if path.suffix.lower() == ".svg":
        d = drawing(path)
        return float(d.width), float(d.height)
    from PIL import Image

    with Image.open(path) as im:
        return float(im.width), float(im.height)


def placement(size: tuple[float, float], box: tuple[float, float, float, float], fit: str, anchor: str
              ) -> tuple[float, float, float, float]:
    """Where an image of ``size`` (w, h) lands in ``box`` (x, y, w, h, lower-left origin):
    (x, y, w, h) in pt, possibly larger than the box for ``cover``."""
    iw, ih = size
    x, y, bw, bh = box
    if fit == "stretch":
        return x, y, bw, bh
    scale = max(bw / iw, bh / ih) if fit == "cover" else min(bw / iw, bh / ih)
    w, h = iw * scale, ih * scale
    fx = 0.0 if "left" in anchor else 1.0 if "right" in anchor else 0.5
    fy = 1.0 if "top" in anchor else 0.0 if "bottom" in anchor else 0.5
    return x + (bw - w) * fx, y + (bh - h) * fy, w, h


def dpi(path: Path, box: tuple[float, float, float, float], fit: str) -> float:
    """Pixels per inch of raster art as printed in ``box`` (pt) with ``fit``."""
    iw, ih = pixel_size(path)
    _, _, w, h = placement((iw, ih), box, fit, "center")
    return min(iw / (w / 72), ih / (h / 72))


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
