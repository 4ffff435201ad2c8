"""Which art file an ``image`` element shows on a card, and where it lands in its box.

:func:`resolve` finds the file (a path inside the game pack, named by the element's
``field`` or ``template``) or says why there is none; :func:`placement` places an image of
a given size in a box for ``fit`` and ``anchor``; :func:`dpi` is raster art's printed
resolution. The checks (``image-missing``, ``image-low-res``) and the renderer
(:func:`cardforge.render.image.draw`) use the same answers. Lengths in pt.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardforge.cache.registry import IMAGE_SIZES
from cardforge.sandbox.context import holds, rendered

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
    if not holds(el.when, ctx):
        return None
    if el.field:
        value = ctx["card"].get(el.field)
        name = "" if value is None else str(value).strip()
    else:
        name = rendered(el.template, ctx)
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


@IMAGE_SIZES.function
def raster_size(path: Path) -> tuple[float, float]:
    """(width, height) in pixels of raster art (PNG or JPEG), read by PIL."""
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
    iw, ih = raster_size(path)
    _, _, w, h = placement((iw, ih), box, fit, "center")
    return min(iw / (w / 72), ih / (h / 72))
